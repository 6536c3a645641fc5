"""Opening positions for matches.

An :class:`Opening` is a start position text (``None`` for the game's start
position) and moves played from it; engines receive it as
``position startpos|fen TEXT moves ...``, so they see the whole history.

Sources (:func:`load_openings`):

- a text file, one opening per line: a position text for the game (for chess a
  FEN or an EPD line, opcodes ignored), optionally followed by
  ``moves m1 m2 ...``, or ``startpos moves m1 m2 ...``; ``#`` starts a comment;
- a PGN file (``.pgn``, chess): each game's main line (and its ``FEN`` tag),
  read by :func:`protocol.records.read_records`;
- an opening book, a Polyglot ``.bin`` (chess) or a zermelo book: weighted
  random walks through it from the start position
  (:func:`engine.book.opening_lines`, which checks the file as ``BookFile`` does).

Every opening is replayed with zermelo's own rules; a line, game or walk that
cannot be read, or is illegal or finished, is dropped with a warning naming it.
A file that yields no opening at all (empty, every line refused, not a book) is
an error, so that a match never falls back to the start position unnoticed.
For chess without ``--openings`` the runner uses
:data:`CHESS_OPENINGS`, short main lines of the common openings, so that
engine pairs do not replay one game; other games start from the start position
(``--random-plies`` adds seeded random moves to any opening).
"""

from __future__ import annotations

import pathlib
import random
from dataclasses import dataclass, field

import games
from engine.book import opening_lines
from engine.files import open_regular, read_text_bounded
from engine.game import IllegalMoveError, InvalidPositionError
from protocol.records import game_traits, read_records

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


def _from_text(path: pathlib.Path, game_name: str, text: str, warn) -> list[tuple[str, Opening]]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            try:
                out.append((f"line {n}", _parse_line(game_name, line)))
            except ValueError as exc:
                warn(f"openings {path}: line {n} skipped: {exc}")
    return out


#: Games read from a PGN openings file at most.
PGN_OPENINGS_LIMIT = 10_000
#: Longest text or PGN openings file read.
OPENINGS_FILE_LIMIT = 256 << 20


def _from_pgn(path: pathlib.Path, game_name: str, plies: int | None, warn) -> list[tuple[str, Opening]]:
    text = read_text_bounded(path, OPENINGS_FILE_LIMIT, errors="replace")
    out = []
    # python-chess reads hundreds to thousands of games a second: a large collection would
    # keep the match from starting for minutes, and no match uses more openings.
    records = read_records(text, lambda n, why: warn(f"openings {path}: game {n} skipped: {why}"),
                           limit=PGN_OPENINGS_LIMIT)
    if len(records) == PGN_OPENINGS_LIMIT:
        warn(f"openings {path}: its first {PGN_OPENINGS_LIMIT:,} games are used")
    for rec in records:
        if rec.game != game_name:
            warn(f"openings {path}: game {rec.number} skipped: a {rec.game} game")
            continue
        out.append((f"game {rec.number}", Opening(rec.start, tuple(rec.moves[:plies] if plies else rec.moves))))
    return out


def _from_book(path: pathlib.Path, game, plies: int, count: int,
               rng: random.Random) -> list[tuple[str, Opening]]:
    lines = opening_lines(path, game, plies=plies, count=count, rng=rng)
    return [(f"book line {i}", Opening(None, tuple(line))) for i, line in enumerate(lines, 1)]


def _is_text(path: pathlib.Path) -> bool:
    with open_regular(path) as f:
        head = f.read(4096)
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\0" not in head


def load_openings(path: str | None, game_name: str, *, plies: int | None = None, count: int = 100,
                  rng: random.Random | None = None, warn=print, params: dict | None = None) -> list[Opening]:
    """Openings for ``game_name`` from ``path`` (see the module docstring); each
    checked with zermelo's rules. ``None`` gives the default set, ``"startpos"``
    only the start position. ``plies`` caps PGN lines and book walks (default 8
    for books); ``count`` is how many lines to draw from a book. Raises
    ``ValueError`` (``OSError`` for a missing file) when ``path`` yields no opening.
    ``params`` are the game's parameters (a board size), by which the openings are checked."""
    rng = rng or random.Random()
    game = games.load(game_name, **(params or {}))
    traits = game_traits(game_name)
    # The built-in openings are SAN lines of chess.
    if path == "startpos" or (path is None and not traits.san):
        return [Opening()]
    if path is None:
        raw = [(f"built-in {i}", o) for i, o in enumerate(builtin_chess(), 1)]
    else:
        p = pathlib.Path(path)
        if not p.exists():
            raise FileNotFoundError(f"openings file {path!r} not found")
        if not p.is_file():
            raise ValueError(f"openings file {path!r}: not a regular file")
        if p.suffix.lower() == ".pgn":
            if not traits.san:
                raise ValueError("PGN openings are for chess")
            raw = _from_pgn(p, game_name, plies, warn)
        elif _is_text(p) and not (p.suffix.lower() == ".bin" and traits.polyglot):
            raw = _from_text(p, game_name, read_text_bounded(p, OPENINGS_FILE_LIMIT), warn)
        else:
            raw = _from_book(p, game, plies or 8, count, rng)
    out = []
    for i, (where, opening) in enumerate(raw, 1):
        try:
            out.append(check(game, opening))
        except ValueError as exc:
            warn(f"opening {i} ({path or 'built-in'}, {where}: {opening}) skipped: {exc}")
    if not out:
        raise ValueError(f"openings file {path}: no usable opening for {game_name}"
                         + (f" (all {len(raw)} refused)" if raw else ""))
    return out


def add_random_plies(game, opening: Opening, plies: int, rng: random.Random, tries: int = 20) -> Opening:
    """The opening followed by ``plies`` uniformly random moves, drawn as a playout
    draws them (``playout_moves()``: the legal moves, or fewer where the game says
    so, such as Go's pass while other moves are left), avoiding lines where the game
    ends; the opening itself if no such line is found."""
    for _ in range(tries):
        pos = game.new_position(opening.start)
        for text in opening.moves:
            pos.push(pos.parse_move(text))
        moves = list(opening.moves)
        for _ in range(plies):
            legal = pos.playout_moves()
            if not legal or pos.outcome() is not None:
                break
            move = rng.choice(legal)
            moves.append(pos.move_text(move))
            pos.push(move)
        else:
            if pos.legal_moves() and pos.outcome() is None:
                return Opening(opening.start, tuple(moves))
    return opening
