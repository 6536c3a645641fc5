"""The protocol server: one line server on stdin/stdout (:mod:`.core`) and the
dialects it speaks, UCI/UGI (:mod:`.uci`) and GTP.

What the rest of the project uses is exported here; :mod:`.handshake` serves the
``option`` lines of the UCI/UGI handshake from a cache.
"""

from protocol.server.core import AUTHOR, NAME, Server, main, serve

__all__ = ["AUTHOR", "NAME", "Server", "main", "serve"]
