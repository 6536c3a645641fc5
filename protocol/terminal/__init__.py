"""``zermelo play``: a game against the engine in the terminal.

``app`` is the prompt_toolkit screen, ``session`` the game being played
(moves, engine thinking, commands; no screen), ``boards`` draws each game's board.
"""
