"""The engine's name and authors, as every dialect's handshake gives them."""

VERSION = "0.1.0"
NAME = f"zermelo {VERSION}"
AUTHOR = "the zermelo authors"
