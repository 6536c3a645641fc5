"""Opening books: zermelo's own format for every game, Polyglot ``.bin`` for chess.

zermelo's book (``.zbook``) is an SQLite database keyed by the game's own
Zobrist key (``pos.key``)::

    meta(name TEXT PRIMARY KEY, value TEXT)
    moves(key, move, text, weight, score, depth, games, wins, draws, losses,
          PRIMARY KEY (key, move)) WITHOUT ROWID
    positions(key PRIMARY KEY, text) WITHOUT ROWID

``meta`` records the format and its version, the game name, its parameters
(JSON), the key version and a *key check* (the keys along a fixed line from
the start position), so a book for another game, other parameters or changed
keys is refused rather than misread. Keys are stored as signed 64-bit
integers. ``move`` is the game's move int and ``text`` its notation; a probe
keeps an entry only if the move is legal and still has that text. ``weight``
drives the choice; ``score`` (side to move's view, internal units) and
``depth`` come from a search, ``games``/``wins``/``draws``/``losses`` from
played games, counted for the side making the move; both are optional.
``positions`` holds the position text of each key the builders stored, so that
an export to Polyglot reaches positions no book move leads to (after a move
that lost every game, say).

Files are opened read-only, with ``trusted_schema`` off and a
``quick_check`` of the pages, so a random, truncated or hostile file is
reported as a :class:`BookError` instead of being trusted.

Chess also reads Polyglot books through :mod:`chess.polyglot`, after checking
that the file is a whole number of sorted 16-byte entries.

:class:`EngineBook` is the root oracle :class:`engine.engine.Engine` asks
first when ``OwnBook`` is on: it plays a weighted random book move
(``BookVariety``, ``BookBestOnly``, ``BookDepth``) and reports a bad book once
with an ``error:`` note.
"""

from __future__ import annotations

import json
import math
import pathlib
import random
import sqlite3
import threading
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Iterable, NamedTuple

from engine.game import NO_MOVE, Game, IllegalMoveError, Move, Position
from engine.options import EngineOptions, OptionError
from engine.oracle import Context, RootAnswer
from engine.search import Info

if TYPE_CHECKING:
    from engine.timeman import Limits

FORMAT = "zermelo-book"
FORMAT_VERSION = 1
#: Raised whenever the seeding of any game's Zobrist keys changes.
KEY_VERSION = 1
SUFFIX = ".zbook"
SQLITE_MAGIC = b"SQLite format 3\x00"
#: Books up to this size get a full page check on opening.
CHECK_LIMIT = 64 << 20
#: Plies of the line from the start whose keys form the key check.
_CHECK_PLIES = 4

_MASK = (1 << 64) - 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS moves(
    key INTEGER NOT NULL, move INTEGER NOT NULL, text TEXT NOT NULL,
    weight INTEGER NOT NULL, score INTEGER, depth INTEGER,
    games INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0, losses INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (key, move)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS positions(key INTEGER PRIMARY KEY, text TEXT NOT NULL) WITHOUT ROWID;
"""
_COLUMNS = "move, text, weight, score, depth, games, wins, draws, losses"


class BookError(ValueError):
    """A book that cannot be used: missing, empty, corrupt or for another game."""


class Entry(NamedTuple):
    """One book move of a position."""

    move: Move
    text: str
    weight: int
    score: int | None = None
    depth: int | None = None
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def sql_key(key: int) -> int:
    """A 64-bit Zobrist key as SQLite's signed 64-bit integer."""
    key &= _MASK
    return key - (1 << 64) if key >> 63 else key


def params_json(game: Game) -> str:
    """The game's parameters as canonical JSON (what a book records)."""
    return json.dumps(game.params.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


def key_check(game: Game) -> str:
    """Keys of the start position and along a fixed line from it, in hex.

    The line plays, each time, the legal move whose text sorts first, so it
    does not depend on the order of move generation. Two builds with the same
    key check hash positions alike, so a book built before a change of the
    key tables is recognised.
    """
    pos = game.new_position()
    out = []
    for _ in range(_CHECK_PLIES + 1):
        out.append(f"{pos.key & _MASK:016x}")
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            break
        pos.push(min(moves, key=pos.move_text))
    return ",".join(out)


# -- books ---------------------------------------------------------------------------


class Book:
    """A read-only opening book of one of the two formats."""

    path: pathlib.Path
    kind: str

    def check_game(self, game: Game) -> None:
        """Raise :class:`BookError` unless the book's positions belong to ``game``."""
        raise NotImplementedError

    def entries(self, pos: Position) -> tuple[list[Entry], list[str]]:
        """The legal book moves of ``pos`` and a description of each entry skipped
        as illegal. Leaves ``pos`` as it found it."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the file."""


class ZermeloBook(Book):
    """zermelo's own SQLite book; see the module docstring for the layout.

    ``ZermeloBook(path)`` opens an existing book read-only and checks it;
    :meth:`create` opens one for writing.
    """

    kind = "zermelo"

    def __init__(self, path: str | pathlib.Path, *, _conn: sqlite3.Connection | None = None):
        self.path = pathlib.Path(path)
        self._lock = threading.Lock()
        self._accepted: set[tuple[str, str]] = set()
        if _conn is not None:
            self.conn = _conn
        else:
            _check_file(self.path)
            with open(self.path, "rb") as f:
                if f.read(16) != SQLITE_MAGIC:
                    raise BookError(f"{self.path}: not a zermelo book")
            self.conn = _connect(self.path, readonly=True)
        try:
            self.meta = dict(self.conn.execute("SELECT name, value FROM meta"))
            self.conn.execute(f"SELECT key, {_COLUMNS} FROM moves LIMIT 1").fetchall()
        except sqlite3.DatabaseError as e:
            self.conn.close()
            raise BookError(f"{self.path}: not a zermelo book ({e})") from None
        if self.meta.get("format") != FORMAT:
            self.conn.close()
            raise BookError(f"{self.path}: not a zermelo book")
        if self.meta.get("format_version") != str(FORMAT_VERSION):
            self.conn.close()
            raise BookError(f"{self.path}: book format version {self.meta.get('format_version')} "
                            f"is not {FORMAT_VERSION}")
        self.game_name = self.meta.get("game", "?")

    @classmethod
    def create(cls, path: str | pathlib.Path, game: Game) -> ZermeloBook:
        """Open ``path`` for writing: a new book for ``game``, or the existing book
        for the same game (to add to it or resume a build)."""
        path = pathlib.Path(path)
        if path.exists():
            existing = ZermeloBook(path)
            existing.check_game(game)
            existing.close()
        conn = _connect(path, readonly=False)
        conn.executescript(_SCHEMA)
        meta = {"format": FORMAT, "format_version": str(FORMAT_VERSION), "game": game.name,
                "params": params_json(game), "key_version": str(KEY_VERSION), "key_check": key_check(game)}
        with conn:
            conn.executemany("INSERT OR IGNORE INTO meta(name, value) VALUES (?, ?)", meta.items())
            conn.execute("INSERT OR IGNORE INTO meta(name, value) VALUES ('roots', '[]')")
        return cls(path, _conn=conn)

    # -- reading --

    def check_game(self, game: Game) -> None:
        params = params_json(game)
        if (game.name, params) in self._accepted:
            return
        meta = self.meta
        if meta.get("game") != game.name:
            raise BookError(f"{self.path}: a book for {meta.get('game')}, not {game.name}")
        if meta.get("params") != params:
            raise BookError(f"{self.path}: built for {game.name} with parameters {meta.get('params')}, "
                            f"not {params}")
        if meta.get("key_version") != str(KEY_VERSION) or meta.get("key_check") != key_check(game):
            raise BookError(f"{self.path}: its position keys are not those of this zermelo's {game.name}")
        self._accepted.add((game.name, params))

    def rows(self, key: int) -> list[Entry]:
        """Every stored entry under ``key``, unchecked, heaviest first."""
        with self._lock:
            try:
                rows = self.conn.execute(f"SELECT {_COLUMNS} FROM moves WHERE key = ? "
                                         "ORDER BY weight DESC, move", (sql_key(key),)).fetchall()
            except sqlite3.DatabaseError as e:
                raise BookError(f"{self.path}: {e}") from None
        return [Entry(*row) for row in rows]

    def entries(self, pos: Position) -> tuple[list[Entry], list[str]]:
        good, bad = [], []
        rows = self.rows(pos.key)
        if rows:
            legal = set(pos.legal_moves())
            for e in rows:
                if e.move not in legal or pos.move_text(e.move) != e.text:
                    bad.append(f"{e.text} ({e.move}) is not legal in {pos.to_text()}")
                elif e.weight > 0:
                    good.append(e)
        return good, bad

    @property
    def roots(self) -> list[str | None]:
        """Position texts the book's lines start from (``None`` = the start position)."""
        return json.loads(self.meta.get("roots", "[]")) or [None]

    def count(self) -> tuple[int, int]:
        """Numbers of positions and of entries."""
        with self._lock:
            return self.conn.execute("SELECT COUNT(DISTINCT key), COUNT(*) FROM moves").fetchone()

    def all_rows(self) -> Iterable[tuple]:
        """``(key, move, text, weight, score, depth, games, wins, draws, losses)`` for every entry."""
        return self.conn.execute(f"SELECT key, {_COLUMNS} FROM moves ORDER BY key, move")

    # -- writing --

    def add_root(self, text: str | None) -> None:
        """Record a position the book's lines start from."""
        roots = json.loads(self.meta.get("roots", "[]"))
        if text not in roots:
            roots.append(text)
            self.meta["roots"] = json.dumps(roots)
            with self.conn:
                self.conn.execute("INSERT OR REPLACE INTO meta(name, value) VALUES ('roots', ?)",
                                  (self.meta["roots"],))

    def put(self, key: int, entries: Iterable[Entry], text: str | None = None) -> None:
        """Store ``entries`` under ``key``, replacing entries for the same moves,
        and the position's ``text`` when given."""
        rows = [(sql_key(key), *e) for e in entries]
        with self._lock, self.conn:
            self.conn.executemany(f"INSERT OR REPLACE INTO moves(key, {_COLUMNS}) "
                                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            if text is not None:
                self.conn.execute("INSERT OR REPLACE INTO positions(key, text) VALUES (?, ?)",
                                  (sql_key(key), text))

    def position_texts(self) -> list[str]:
        """The stored position texts (see the module docstring)."""
        with self._lock:
            try:
                return [row[0] for row in self.conn.execute("SELECT text FROM positions ORDER BY key")]
            except sqlite3.OperationalError:  # a book written without the table
                return []

    def has(self, key: int) -> bool:
        """True if the book holds an entry for ``key``."""
        with self._lock:
            return self.conn.execute("SELECT 1 FROM moves WHERE key = ? LIMIT 1",
                                     (sql_key(key),)).fetchone() is not None

    def close(self) -> None:
        self.conn.close()


class PolyglotBook(Book):
    """A Polyglot ``.bin`` chess book, read through :mod:`chess.polyglot`."""

    kind = "polyglot"

    def __init__(self, path: str | pathlib.Path):
        import chess.polyglot
        import numpy as np

        self.path = pathlib.Path(path)
        size = _check_file(self.path)
        if size % 16:
            raise BookError(f"{self.path}: neither a zermelo book nor a Polyglot book "
                            f"({size} bytes is not a whole number of 16-byte entries: truncated?)")
        keys = np.fromfile(self.path, dtype=">u8").reshape(-1, 2)[:, 0]
        if np.any(keys[1:] < keys[:-1]):
            raise BookError(f"{self.path}: neither a zermelo book nor a Polyglot book (unsorted keys)")
        self.reader = chess.polyglot.MemoryMappedReader(self.path)
        self.game_name = "chess"

    def check_game(self, game: Game) -> None:
        if not game.polyglot:
            raise BookError(f"{self.path}: a Polyglot book is for chess, not {game.name}")

    def entries(self, pos: Position) -> tuple[list[Entry], list[str]]:
        import chess
        import chess.polyglot

        board = chess.Board(pos.to_text())
        good, bad = [], []
        for e in self.reader.find_all(chess.polyglot.zobrist_hash(board), minimum_weight=0):
            move = e.move
            # Polyglot writes castling as the king taking its own rook.
            if board.piece_type_at(move.from_square) == chess.KING:
                move = board._from_chess960(False, move.from_square, move.to_square, move.promotion)
            try:
                m = pos.parse_move(move.uci())
            except IllegalMoveError:
                bad.append(f"{move.uci()} is not legal in {pos.to_text()}")
                continue
            if e.weight > 0:
                good.append(Entry(m, move.uci(), e.weight))
        return good, bad

    def close(self) -> None:
        self.reader.close()


def _check_file(path: pathlib.Path) -> int:
    try:
        size = path.stat().st_size
    except OSError as e:
        raise BookError(f"{path}: {e.strerror or e}") from None
    if not path.is_file():
        raise BookError(f"{path}: not a file")
    if size == 0:
        raise BookError(f"{path}: empty file")
    return size


def _connect(path: pathlib.Path, readonly: bool) -> sqlite3.Connection:
    uri = path.resolve().as_uri() + ("?mode=ro" if readonly else "")
    try:
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
        # A book may come from anywhere: its schema must not run anything.
        conn.execute("PRAGMA trusted_schema = OFF")
        conn.execute("PRAGMA cell_size_check = ON")
        if readonly:
            conn.execute("PRAGMA query_only = ON")
            if path.stat().st_size <= CHECK_LIMIT:
                problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
                if problems != ["ok"]:
                    conn.close()
                    raise BookError(f"{path}: corrupt book ({'; '.join(problems)})")
    except sqlite3.DatabaseError as e:
        raise BookError(f"{path}: corrupt book ({e})") from None
    return conn


def open_book(path: str | pathlib.Path) -> Book:
    """Open and check a book of either format (by content, not by name).

    Raises :class:`BookError` for a missing, empty, truncated or corrupt file.
    Whether it belongs to a game is :meth:`Book.check_game`'s question.
    """
    path = pathlib.Path(path)
    _check_file(path)
    with open(path, "rb") as f:
        head = f.read(16)
    if head == SQLITE_MAGIC:
        return ZermeloBook(path)
    return PolyglotBook(path)


def default_book_path(game: Game) -> pathlib.Path | None:
    """The book shipped with zermelo for ``game`` (``games/books/NAME.zbook``), if any."""
    return _shipped(game.name)


@lru_cache(maxsize=None)
def _shipped(name: str) -> pathlib.Path | None:
    path = pathlib.Path(str(resources.files("games") / "books" / f"{name}{SUFFIX}"))
    return path if path.is_file() else None


# -- choosing ------------------------------------------------------------------------


def choose(entries: list[Entry], rng: random.Random, *, best_only: bool = False, variety: int = 50) -> Entry:
    """Pick a book move: the heaviest with ``best_only`` or ``variety`` 0, else a
    random one with probability proportional to ``weight ** (50 / variety)``.

    ``variety`` 50 follows the weights; lower values favour heavy moves, higher
    ones flatten the distribution (100: square roots of the weights).
    """
    if best_only or variety <= 0 or len(entries) == 1:
        return max(entries, key=lambda e: (e.weight, e.score if e.score is not None else -math.inf))
    power = 50 / variety
    top = max(e.weight for e in entries)
    # Scaled by the heaviest weight so that large powers cannot overflow.
    shares = [(e.weight / top) ** power for e in entries]
    return rng.choices(entries, weights=shares)[0]


def opening_lines(path: str | pathlib.Path, game: Game, *, plies: int = 8, count: int = 100,
                  rng: random.Random | None = None) -> list[list[str]]:
    """Up to ``count`` distinct lines of at most ``plies`` moves (as move texts),
    drawn by weighted random walks through the book from the start position.

    Raises :class:`BookError` for an unusable book or one for another game.
    """
    rng = rng or random.Random()
    book = open_book(path)
    try:
        book.check_game(game)
        seen: dict[tuple[str, ...], None] = {}
        for _ in range(count * 4):
            pos = game.new_position()
            line: list[str] = []
            while len(line) < plies and pos.outcome() is None:
                entries, _ = book.entries(pos)
                if not entries:
                    break
                entry = choose(entries, rng)
                line.append(entry.text)
                pos.push(entry.move)
            if line:
                seen.setdefault(tuple(line))
            if len(seen) >= count:
                break
        return [list(line) for line in seen]
    finally:
        book.close()


# -- the engine's oracle -------------------------------------------------------------


class EngineBook:
    """The opening book of an :class:`engine.engine.Engine`, its first root oracle
    (:class:`engine.oracle.Oracle`), consulted while ``OwnBook`` is on.

    Uses ``BookFile``, or the book shipped for the game when ``BookFile`` is
    empty. Books are opened once and kept; a problem with a book (unusable
    file, another game, illegal entries) is reported once as an ``error:``
    note and the search plays instead. ``rng`` may be seeded for repeatable
    choices.
    """

    #: A book move is no exact knowledge: limited strength uses it in its first plies.
    exact = False

    def __init__(self) -> None:
        self.rng = random.Random()
        self._books: dict[str, Book | BookError] = {}
        self._reported: set[str] = set()

    def on_book_file(self, options: EngineOptions) -> None:
        """Check a new ``BookFile``: refuse one that cannot be opened."""
        path = options.book_file
        if path:
            self._books.pop(path, None)
            book = self._open(path)
            if isinstance(book, BookError):
                raise OptionError(f"BookFile: {book}")

    def _open(self, path: str) -> Book | BookError:
        if path not in self._books:
            try:
                self._books[path] = open_book(path)
            except BookError as e:
                self._books[path] = e
        return self._books[path]

    def __call__(self, game: Game, pos: Position, limits: Limits, context: Context) -> RootAnswer | None:
        opts = context.options
        if not opts.own_book or context.played >= opts.book_depth:
            return None
        played = pos
        if getattr(game, "chess960", False):
            game, twin = _standard_twin(game, pos)
            if twin is None:
                return None
            pos = twin
        if opts.book_file:
            path, default = opts.book_file, False
        else:
            shipped = default_book_path(game)
            if shipped is None:
                return None
            path, default = str(shipped), True
        try:
            book = self._open(path)
            if isinstance(book, BookError):
                raise book
            book.check_game(game)
            entries, bad = book.entries(pos)
        except BookError as e:
            # A shipped book for other parameters of the game is simply not used.
            return None if default else self._report(f"error: book {e}")
        if limits.searchmoves:
            entries = [e for e in entries if e.move in limits.searchmoves]
        # The same move int in both modes; a Chess960 castle is written king-takes-rook.
        entries = [e._replace(text=played.move_text(e.move)) for e in entries]
        note = ""
        if bad and f"bad:{path}" not in self._reported:
            self._reported.add(f"bad:{path}")
            note = f"error: book {path}: skipped {len(bad)} illegal entr{'y' if len(bad) == 1 else 'ies'}: {bad[0]}"
        if not entries:
            return RootAnswer(NO_MOVE, note=note) if note else None
        entry = choose(entries, self.rng, best_only=opts.book_best_only, variety=opts.book_variety)
        total = sum(e.weight for e in entries)
        text = f"book move {entry.text} (weight {entry.weight} of {total}"
        if entry.games:
            text += f", games {entry.games} +{entry.wins}={entry.draws}-{entry.losses}"
        text += ")"
        info = None
        if entry.score is not None:
            info = Info(depth=0, seldepth=0, multipv=1, score=entry.score, bound=None, nodes=0, time_ms=0,
                        nps=0, hashfull=0, tbhits=0, pv=[entry.move])
        return RootAnswer(entry.move, info, text + ("\n" + note if note else ""))

    def _report(self, text: str) -> RootAnswer | None:
        if text in self._reported:
            return None
        self._reported.add(text)
        return RootAnswer(NO_MOVE, note=text)


def _standard_twin(game: Game, pos: Position) -> tuple[Game, Position | None]:
    """Standard chess and the same position in it, for a Chess960 position; ``None``
    when its castling rights name rooks standard chess has no rights for (a
    Polyglot key, or a standard book's, cannot tell those positions apart)."""
    standard = type(game)()
    twin = standard.new_position(pos.to_text())
    # Both are chess positions (only chess has a Chess960 twin); the interface has no castling.
    return standard, twin if twin.castling == pos.castling else None  # type: ignore[attr-defined]
