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

A book may come from anywhere, so a file is opened read-only (a ``mode=ro``
URI, ``query_only``), with ``trusted_schema`` off and values over
:data:`VALUE_LIMIT` refused; its schema must be exactly the tables above (no
views, triggers, other tables, other columns or indexes of its own), a
``quick_check`` reads its pages, and every query runs under a budget of SQLite
steps, a lookup during a ``go`` also under the go's stop flag and deadline. A
random, truncated or hostile file is thus a :class:`BookError` at opening, and
a file changed under an open book costs a bounded lookup.

Chess also reads Polyglot books through :mod:`chess.polyglot`, after checking
that the file is a whole number of sorted 16-byte entries, of at most
:data:`POLYGLOT_LIMIT` bytes (python-chess maps the whole file).

:class:`EngineBook` is the root oracle :class:`engine.engine.Engine` asks
first when ``OwnBook`` is on: it plays a weighted random book move
(``BookVariety``, ``BookBestOnly``, ``BookDepth``) and reports a bad book once
with an ``error:`` note.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import random
import sqlite3
import threading
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Iterable, Iterator, NamedTuple

from engine.control import Control, Stopped
from engine.files import open_regular
from engine.game import NO_MOVE, Game, IllegalMoveError, Move, Position, rule_params
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
#: What SQLite raises for a damaged file: a database error, or, when its message quotes
#: a name of the file that is not UTF-8, the error of decoding that message.
_SQL_ERRORS = (sqlite3.DatabaseError, UnicodeDecodeError)
#: Largest Polyglot book opened (67 million entries): the file is mapped whole,
#: so a bigger one would take as much address space, and is refused by its size.
POLYGLOT_LIMIT = 1 << 30
#: Bytes of a Polyglot file read at a time by the order check (a multiple of 16).
_ORDER_CHUNK = 1 << 20
#: Plies of the line from the start whose keys form the key check.
_CHECK_PLIES = 4
#: Longest value (bytes) a read book may hold: move and position texts and the
#: meta values are far shorter, and a huge one must not be loaded.
VALUE_LIMIT = 1 << 20
#: SQLite steps between two looks at a running query's budget.
_STEP_GRAIN = 1000
#: Steps a lookup of one position may take: the primary key finds its few rows
#: in well under a thousandth of this.
PROBE_STEPS = 5_000_000
#: Steps opening a book may take: a fixed allowance plus some per byte, since
#: the page check reads every page (about one step per two bytes).
OPEN_STEPS = 5_000_000
OPEN_STEPS_PER_BYTE = 4

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
#: The tables of a book: columns in order, and the primary key's columns in order.
_TABLES = {
    "meta": (("name", "value"), ("name",)),
    "moves": (("key", *_COLUMNS.split(", ")), ("key", "move")),
    "positions": (("key", "text"), ("key",)),
}
#: SQLite's own index for meta's text primary key (the other two are WITHOUT ROWID).
_AUTO_INDEX = ("index", "sqlite_autoindex_meta_1", "meta")
_META_NAMES = ("format", "format_version", "game", "params", "key_version", "key_check", "roots")
#: The column types of an entry (``Entry``), in order: ``None`` allowed where optional.
_ENTRY_TYPES = ((int,), (str,), (int,), (int, type(None)), (int, type(None)), (int,), (int,), (int,), (int,))


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
    """The game's rule parameters as canonical JSON (what a book records): a book
    serves every evaluation of its game."""
    return json.dumps(rule_params(game.params), sort_keys=True, separators=(",", ":"))


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

    def entries(self, pos: Position, control: Control | None = None) -> tuple[list[Entry], list[str]]:
        """The legal book moves of ``pos`` and a description of each entry skipped
        as illegal. Leaves ``pos`` as it found it; a lookup ended by the go's
        ``control`` raises :class:`engine.control.Stopped`."""
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
        # The running query's limits, looked at by _tick: steps left and the go's control.
        self._steps = self._scan_steps = math.inf
        self._control: Control | None = None
        if _conn is not None:
            self.conn = _conn
            self.conn.set_progress_handler(self._tick, _STEP_GRAIN)
            self.meta = self._read_meta()
            return
        size = _check_file(self.path)
        with open_regular(self.path) as f:
            if f.read(16) != SQLITE_MAGIC:
                raise BookError(f"{self.path}: not a zermelo book")
        self.conn = _connect(self.path, readonly=True)
        self.conn.set_progress_handler(self._tick, _STEP_GRAIN)
        # A whole-table query (counts, exports) reads each page about once.
        self._scan_steps = OPEN_STEPS + OPEN_STEPS_PER_BYTE * size
        try:
            with self._bounded(self._scan_steps):
                self._check_schema()
                if size <= CHECK_LIMIT:
                    problems = [row[0] for row in self.conn.execute("PRAGMA quick_check(3)")]
                    if problems != ["ok"]:
                        raise BookError(f"{self.path}: corrupt book ({'; '.join(map(str, problems))})")
                self.meta = self._read_meta()
        except _SQL_ERRORS as e:
            self.conn.close()
            raise BookError(f"{self.path}: not a zermelo book ({e})") from None
        except BookError:
            self.conn.close()
            raise
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

    # -- bounds --

    def _tick(self) -> int:
        """SQLite's progress handler: non-zero interrupts the running query."""
        self._steps -= _STEP_GRAIN
        control = self._control
        return self._steps <= 0 or (control is not None and control.expired())

    @contextmanager
    def _bounded(self, steps: float, control: Control | None = None) -> Iterator[None]:
        """Run the block's queries within ``steps`` SQLite steps and, given the go's
        ``control``, until it expires (:class:`engine.control.Stopped`). Callers
        hold the lock (or are alone with the book, while it opens)."""
        self._steps, self._control = steps, control
        try:
            yield
        except sqlite3.OperationalError:
            if control is not None and control.expired():
                raise Stopped from None
            if self._steps <= 0:
                raise BookError(f"{self.path}: a query went over its budget of {steps:,} steps") from None
            raise
        finally:
            self._steps, self._control = self._scan_steps, None

    def _check_schema(self) -> None:
        """Refuse anything but the book's own tables and columns: no view, trigger,
        other table or index of the file's making is ever run or trusted."""
        objects = self.conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        tables = []
        for kind, name, table, sql in objects:
            # A virtual table is a "table" too, but runs a module's code: only plain ones.
            if kind == "table" and name in _TABLES and str(sql).upper().startswith("CREATE TABLE"):
                tables.append(name)
            elif (kind, name, table) != _AUTO_INDEX or sql is not None:
                raise BookError(f"{self.path}: not a zermelo book (it holds the {kind} {name!r})")
        if not {"meta", "moves"} <= set(tables):
            raise BookError(f"{self.path}: not a zermelo book (no {' or '.join({'meta', 'moves'} - set(tables))} "
                            "table)")
        for name in tables:
            info = self.conn.execute("SELECT name, pk, hidden FROM pragma_table_xinfo(?)", (name,)).fetchall()
            columns = tuple(row[0] for row in info)
            key = tuple(row[0] for row in sorted(info, key=lambda row: row[1]) if row[1])
            if (columns, key) != _TABLES[name] or any(row[2] for row in info):
                raise BookError(f"{self.path}: not a zermelo book (table {name} has the columns "
                                f"{', '.join(map(str, columns))} keyed by {', '.join(map(str, key)) or 'none'})")

    def _read_meta(self) -> dict[str, str]:
        marks = ", ".join("?" * len(_META_NAMES))
        meta = {}
        for name, value in self.conn.execute(f"SELECT name, value FROM meta WHERE name IN ({marks})", _META_NAMES):
            if not isinstance(value, str):
                raise BookError(f"{self.path}: not a zermelo book (its {name} is not text)")
            meta[name] = value
        # The JSON values are read again later (parameters, roots): a bad one is refused now.
        try:
            params = json.loads(meta.get("params", "{}"))
            roots = json.loads(meta.get("roots", "[]"))
        except (ValueError, RecursionError) as e:
            raise BookError(f"{self.path}: not a zermelo book (bad JSON in its header: {e})") from None
        scalar = (int, float, str, bool)
        # A parameter is a JSON scalar or a flat list of them (Nim's heaps).
        if not (isinstance(params, dict)
                and all(isinstance(v, scalar) or (isinstance(v, list) and all(isinstance(x, scalar) for x in v))
                        for v in params.values())
                and isinstance(roots, list) and all(r is None or isinstance(r, str) for r in roots)):
            raise BookError(f"{self.path}: not a zermelo book (its parameters or roots are malformed)")
        return meta

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

    def _fetch(self, sql: str, args: tuple = (), steps: float | None = None,
               control: Control | None = None) -> list[tuple]:
        """The rows of one bounded query (``steps`` default: a whole-file scan's)."""
        with self._lock:
            try:
                with self._bounded(self._scan_steps if steps is None else steps, control):
                    return self.conn.execute(sql, args).fetchall()
            except _SQL_ERRORS as e:
                raise BookError(f"{self.path}: {e}") from None

    def rows(self, key: int, control: Control | None = None) -> list[Entry]:
        """Every stored entry under ``key``, unchecked, heaviest first; a lookup
        ended by ``control`` raises :class:`engine.control.Stopped`."""
        rows = self._fetch(f"SELECT {_COLUMNS} FROM moves WHERE key = ? ORDER BY weight DESC, move",
                           (sql_key(key),), PROBE_STEPS, control)
        return [Entry(*row) for row in rows]

    def entries(self, pos: Position, control: Control | None = None) -> tuple[list[Entry], list[str]]:
        good, bad = [], []
        rows = self.rows(pos.key, control)
        if rows:
            legal = set(pos.legal_moves())
            for e in rows:
                if not all(isinstance(v, types) for v, types in zip(e, _ENTRY_TYPES)):
                    bad.append(f"{tuple(e)!r} has values of the wrong types")
                elif e.move not in legal or pos.move_text(e.move) != e.text:
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
        return self._fetch("SELECT COUNT(DISTINCT key), COUNT(*) FROM moves")[0]

    def all_rows(self) -> Iterable[tuple]:
        """``(key, move, text, weight, score, depth, games, wins, draws, losses)`` for every entry,
        read within one whole-file scan's budget."""
        self._steps = self._scan_steps
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
        if "positions" not in self._tables():
            return []  # a book written before the table
        return [row[0] for row in self._fetch("SELECT text FROM positions ORDER BY key")]

    def _tables(self) -> set[str]:
        return {row[0] for row in self._fetch("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def has(self, key: int) -> bool:
        """True if the book holds an entry for ``key``."""
        return bool(self._fetch("SELECT 1 FROM moves WHERE key = ? LIMIT 1", (sql_key(key),), PROBE_STEPS))

    def close(self) -> None:
        self.conn.close()


class PolyglotBook(Book):
    """A Polyglot ``.bin`` chess book, read through :mod:`chess.polyglot`."""

    kind = "polyglot"

    def __init__(self, path: str | pathlib.Path):
        import chess.polyglot

        self.path = pathlib.Path(path)
        size = _check_file(self.path)
        # python-chess maps the whole file: its size is the address space a book takes.
        if size > POLYGLOT_LIMIT:
            raise BookError(f"{self.path}: neither a zermelo book nor a Polyglot book "
                            f"({size:,} bytes, at most {POLYGLOT_LIMIT:,})")
        if size % 16:
            raise BookError(f"{self.path}: neither a zermelo book nor a Polyglot book "
                            f"({size} bytes is not a whole number of 16-byte entries: truncated?)")
        try:
            if not _sorted_keys(self.path):
                raise BookError(f"{self.path}: neither a zermelo book nor a Polyglot book (unsorted keys)")
            self.reader = chess.polyglot.MemoryMappedReader(self.path)
        except (OSError, ValueError) as e:
            raise BookError(f"{self.path}: {e}") from None
        self.game_name = "chess"

    def check_game(self, game: Game) -> None:
        if not game.polyglot:
            raise BookError(f"{self.path}: a Polyglot book is for chess, not {game.name}")

    def entries(self, pos: Position, control: Control | None = None) -> tuple[list[Entry], list[str]]:
        import chess
        import chess.polyglot

        board = chess.Board(pos.to_text())
        good, bad = [], []
        for e in self.reader.find_all(chess.polyglot.zobrist_hash(board), minimum_weight=0):
            move = e.move
            # Sixteen bits of anything: promotion codes 5-7 and drops are no chess move.
            if move.drop is not None or move.promotion not in (None, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
                bad.append(f"raw move {e.raw_move:#06x} is no chess move")
                continue
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


def _sorted_keys(path: pathlib.Path) -> bool:
    """True if the keys of the Polyglot file ``path`` never decrease; the file is
    read a chunk at a time, so the check's memory does not grow with the book."""
    import numpy as np

    last = 0
    with open_regular(path) as f:
        while chunk := f.read(_ORDER_CHUNK):
            keys = np.frombuffer(chunk, dtype=">u8")[::2]
            if keys[0] < last or np.any(keys[1:] < keys[:-1]):
                return False
            last = keys[-1]
    return True


def _check_file(path: pathlib.Path) -> int:
    try:
        with open_regular(path) as f:
            size = os.fstat(f.fileno()).st_size
    except OSError as e:
        raise BookError(f"{path}: {e.strerror or e}") from None
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
            conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, VALUE_LIMIT)
    except _SQL_ERRORS as e:
        raise BookError(f"{path}: corrupt book ({e})") from None
    return conn


def open_book(path: str | pathlib.Path) -> ZermeloBook | PolyglotBook:
    """Open and check a book of either format (by content, not by name).

    Raises :class:`BookError` for a missing, empty, truncated or corrupt file.
    Whether it belongs to a game is :meth:`Book.check_game`'s question.
    """
    path = pathlib.Path(path)
    _check_file(path)
    try:
        with open_regular(path) as f:
            head = f.read(16)
    except OSError as e:
        raise BookError(f"{path}: {e.strerror or e}") from None
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
            old = self._books.pop(path, None)
            if isinstance(old, Book):
                old.close()
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
        if game.chess960:
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
            entries, bad = book.entries(pos, context.control)
        except Stopped:
            return None  # the go ended while the book was read: its search answers at once
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
