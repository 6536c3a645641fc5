"""Everything that talks to the outside: protocol lines, the server, the CLI,
terminal play and the match runner."""
