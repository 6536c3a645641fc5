"""Opening positions for matches.

An :class:`Opening` is a start position text (``None`` for the game's start
position) and moves played from it; engines receive it as
``position startpos|fen TEXT moves ...``, so they see the whole history.

Sources (:func:`load_openings`):

- a text file, one opening per line: a position text for the game (for chess a
  FEN or an EPD line, opcodes ignored), optionally followed by
  ``moves m1 m2 ...``, or ``startpos moves m1 m2 ...``; ``#`` starts a comment;
- a PGN file (``.pgn``, chess): each game's main line (and its ``FEN`` tag);
- a Polyglot book (``.bin``, chess): weighted random walks through the book;
- a zermelo opening book: read by ``engine.book.opening_lines(path, game,
  plies=, count=, rng=)`` returning lists of move texts from the start position,
  when the ``engine.book`` module provides it; otherwise the file is skipped with
  a warning and the start position is used.

Every opening is replayed with zermelo's own rules; illegal or finished ones are
dropped with a warning. For chess without ``--openings`` the runner uses
:data:`CHESS_OPENINGS`, short main lines of the common openings, so that
engine pairs do not replay one game; other games start from the start position
(``--random-plies`` adds seeded random moves to any opening).
"""

from __future__ import annotations

import importlib
import pathlib
import random
from dataclasses import dataclass, field

import games
from engine.game import IllegalMoveError, InvalidPositionError
from protocol.records import game_traits

#: Short, balanced main lines (SAN) of common chess openings.
CHESS_OPENINGS: tuple[str, ...] = (
    "e4 e5 Nf3 Nc6 Bb5 a6", "e4 e5 Nf3 Nc6 Bc4 Bc5", "e4 e5 Nf3 Nc6 d4 exd4",
    "e4 e5 Nf3 Nf6", "e4 e5 Nc3 Nf6", "e4 e5 f4 exf4", "e4 e5 Nf3 Nc6 Nc3 Nf6",
    "e4 e5 Nf3 d6 d4 Nf6", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6",
    "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6", "e4 c5 c3 d5 exd5 Qxd5", "e4 c5 Nc3 Nc6 g3 g6",
    "e4 c5 Nf3 d6 Bb5+ Bd7", "e4 e6 d4 d5 Nc3 Bb4", "e4 e6 d4 d5 e5 c5",
    "e4 c6 d4 d5 e5 Bf5", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5", "e4 d5 exd5 Qxd5 Nc3 Qa5",
    "e4 Nf6 e5 Nd5 d4 d6", "e4 d6 d4 Nf6 Nc3 g6", "e4 g6 d4 Bg7 Nc3 d6",
    "d4 d5 c4 e6 Nc3 Nf6", "d4 d5 c4 dxc4 Nf3 Nf6", "d4 d5 c4 c6 Nf3 Nf6",
    "d4 Nf6 c4 e6 Nc3 Bb4", "d4 Nf6 c4 e6 Nf3 b6", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6",
    "d4 Nf6 c4 g6 Nc3 d5", "d4 Nf6 c4 c5 d5 b5", "d4 Nf6 c4 c5 d5 e6",
    "d4 f5 g3 Nf6 Bg2 g6", "d4 d5 Bf4 Nf6 e3 c5", "d4 Nf6 Bg5 Ne4",
    "c4 e5 Nc3 Nf6 g3 d5", "c4 c5 Nf3 Nf6 Nc3 Nc6", "c4 Nf6 Nc3 e6 e4 d5",
    "Nf3 d5 g3 Nf6 Bg2 c6", "Nf3 Nf6 c4 g6 b3 Bg7", "g3 d5 Bg2 e5", "b3 e5 Bb2 Nc6",
    "f4 d5 Nf3 g6",
)


@dataclass(frozen=True)
class Opening:
    start: str | None = None
    moves: tuple[str, ...] = field(default_factory=tuple)

    def __str__(self) -> str:
        head = self.start or "startpos"
        return f"{head} moves {' '.join(self.moves)}" if self.moves else head


def builtin_chess() -> list[Opening]:
    """:data:`CHESS_OPENINGS` as UCI move lists (python-chess translates the SAN)."""
    import chess

    out = []
    for line in CHESS_OPENINGS:
        board = chess.Board()
        out.append(Opening(None, tuple(board.push_san(san).uci() for san in line.split())))
    return out


def check(game, opening: Opening) -> Opening:
    """The opening with moves in the game's canonical notation; raises ``ValueError``
    if the position is invalid, a move is illegal, or the game is already over."""
    try:
        pos = game.new_position(opening.start)
        moves = []
        for text in opening.moves:
            if not pos.legal_moves() or pos.outcome() is not None:
                raise ValueError(f"game over before {text!r}")
            move = pos.parse_move(text)
            moves.append(pos.move_text(move))
            pos.push(move)
    except (IllegalMoveError, InvalidPositionError) as exc:
        raise ValueError(str(exc)) from None
    if not pos.legal_moves() or pos.outcome() is not None:
        raise ValueError("the game is over in this opening")
    return Opening(opening.start, tuple(moves))


def _parse_line(game_name: str, line: str) -> Opening:
    words = line.split()
    cut = words.index("moves") if "moves" in words else len(words)
    head, moves = " ".join(words[:cut]), tuple(words[cut + 1:])
    if head in ("", "startpos"):
        return Opening(None, moves)
    if game_traits(game_name).san and (";" in head or len(head.split()) == 4 or len(head.split()) > 6):
        import chess

        board, _ = chess.Board.from_epd(head)
        return Opening(board.fen(), moves)
    return Opening(head, moves)


def _from_text(game_name: str, text: str, warn) -> list[Opening]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            try:
                out.append(_parse_line(game_name, line))
            except ValueError as exc:
                warn(f"openings line {n} skipped: {exc}")
    return out


def _from_pgn(path: pathlib.Path, plies: int | None) -> list[Opening]:
    import chess.pgn

    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while (pgame := chess.pgn.read_game(f)) is not None:
            h = pgame.headers
            start = h["FEN"] if "FEN" in h else None
            moves = [m.uci() for m in pgame.mainline_moves()]
            out.append(Opening(start, tuple(moves[:plies] if plies else moves)))
    return out


def _from_polyglot(path: pathlib.Path, plies: int, count: int, rng: random.Random) -> list[Opening]:
    import chess
    import chess.polyglot

    seen: dict[tuple[str, ...], None] = {}
    with chess.polyglot.open_reader(path) as reader:
        for _ in range(count * 4):
            board = chess.Board()
            for _ in range(plies):
                try:
                    entry = reader.weighted_choice(board, random=rng)
                except IndexError:
                    break
                board.push(entry.move)
            line = tuple(m.uci() for m in board.move_stack)
            if line:
                seen.setdefault(line)
            if len(seen) >= count:
                break
    return [Opening(None, line) for line in seen]


def _from_book(path: pathlib.Path, game_name: str, plies: int, count: int,
               rng: random.Random, warn) -> list[Opening]:
    try:
        book = importlib.import_module("engine.book")
        reader = book.opening_lines
    except (ImportError, AttributeError):
        warn(f"{path}: zermelo books need engine.book.opening_lines; using the start position")
        return []
    return [Opening(None, tuple(line)) for line in reader(path, games.load(game_name),
                                                          plies=plies, count=count, rng=rng)]


def _is_text(path: pathlib.Path) -> bool:
    with open(path, "rb") as f:
        head = f.read(4096)
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\0" not in head


def load_openings(path: str | None, game_name: str, *, plies: int | None = None, count: int = 100,
                  rng: random.Random | None = None, warn=print) -> list[Opening]:
    """Openings for ``game_name`` from ``path`` (see the module docstring); each
    checked with zermelo's rules. ``None`` gives the default set, ``"startpos"``
    only the start position. ``plies`` caps PGN lines and book walks (default 8
    for books); ``count`` is how many lines to draw from a book."""
    rng = rng or random.Random()
    traits = game_traits(game_name)
    # The built-in openings are SAN lines of chess.
    if path == "startpos" or (path is None and not traits.san):
        return [Opening()]
    if path is None:
        raw = builtin_chess()
    else:
        p = pathlib.Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"openings file {path!r} not found")
        if p.suffix.lower() == ".pgn":
            if not traits.san:
                raise ValueError("PGN openings are for chess")
            raw = _from_pgn(p, plies)
        elif p.suffix.lower() == ".bin" and traits.polyglot:
            raw = _from_polyglot(p, plies or 8, count, rng)
        elif _is_text(p):
            raw = _from_text(game_name, p.read_text(encoding="utf-8"), warn)
        else:
            raw = _from_book(p, game_name, plies or 8, count, rng, warn)
    game = games.load(game_name)
    out = []
    for i, opening in enumerate(raw):
        try:
            out.append(check(game, opening))
        except ValueError as exc:
            warn(f"opening {i + 1} ({opening}) skipped: {exc}")
    return out or [Opening()]


def add_random_plies(game, opening: Opening, plies: int, rng: random.Random, tries: int = 20) -> Opening:
    """The opening followed by ``plies`` uniformly random legal moves, avoiding
    lines where the game ends; the opening itself if no such line is found."""
    for _ in range(tries):
        pos = game.new_position(opening.start)
        for text in opening.moves:
            pos.push(pos.parse_move(text))
        moves = list(opening.moves)
        for _ in range(plies):
            legal = pos.legal_moves()
            if not legal or pos.outcome() is not None:
                break
            move = rng.choice(legal)
            moves.append(pos.move_text(move))
            pos.push(move)
        else:
            if pos.legal_moves() and pos.outcome() is None:
                return Opening(opening.start, tuple(moves))
    return opening
