"""Syzygy endgame tables for chess, through python-chess's ``chess.syzygy``.

:class:`SyzygyTables` opens nothing until the first probe: setting the path
only lists the directories (python-chess maps a file on its first use). A
position of zermelo's chess board is handed to python-chess by copying its
bitboards into an empty ``chess.Board`` (about 5 µs, against 90 µs through a
FEN).

Values follow python-chess: WDL ``2`` win, ``1`` cursed win (a win the
fifty-move rule turns into a draw), ``0`` draw, ``-1`` blessed loss, ``-2``
loss, for the side to move, assuming the position follows a capture or pawn
move; DTZ counts plies to the next capture or pawn move (or mate) with
python-chess's rounding.

Every file is checked against its role when the path is set (:func:`check_file`:
its size, its magic and the material its header lists, which must be the one its
name gives): python-chess trusts the name, and a file of another material saved
under it sends the probe into an endless loop. A refused file is reported once
through ``report`` and never handed to python-chess. A table file that is missing
while a probe needs it, or that turns out corrupt, is reported once the same way
and its material is no longer probed: the search plays on without it.

With ``verify`` (the option ``SyzygyVerify``), a file is also probed only once the
checksum the generator appended to it matches its contents
(:mod:`games.chess.syzygy_checksum`): the files are held back when the path is set
and :meth:`SyzygyTables.verify` hashes them, in slices it may stop between, fewest
pieces first (WDL before DTZ, smallest first), admitting each as it passes. A table
then probes only tables already admitted (its captures have fewer pieces, a DTZ
table's pawn moves reach WDL tables of as many). A failing file is refused like one
of :func:`check_file`. The verdicts are remembered per file (its path, size and
modification time) for the whole process.
"""

from __future__ import annotations

import os
from typing import Callable

import chess
import chess.syzygy

from engine.files import open_regular
from games.chess.syzygy_checksum import FileChecksum

#: python-chess bitboard attributes by zermelo piece type (pawn 1 ... king 6).
_PIECE_ATTRS = (None, "pawns", "knights", "bishops", "rooks", "queens", "kings")
_LETTERS = "_PNBRQK"
#: The first bytes of a WDL and a DTZ file (python-chess's, standard chess).
_MAGIC = {".rtbw": chess.Board.tbw_magic, ".rtbz": chess.Board.tbz_magic}
#: A Syzygy file is a whole number of 64-byte blocks plus 16 bytes (python-chess checks
#: this too, at the first probe).
_BLOCK, _TAIL = 64, 16
#: The checksum's verdict of every file verified in this process, by its absolute path,
#: size and modification time: ``None`` when it matched, else the reason of the refusal.
_VERDICTS: dict[tuple[str, int, int], str | None] = {}


def _codes(side: str, colour: int) -> list[int]:
    """The header's piece codes of one side of a table name (type, plus 8 for the second side)."""
    return [_LETTERS.index(c) | colour << 3 for c in side]


def check_file(path: str) -> str | None:
    """Why the Syzygy file ``path`` cannot be the table its name says (``KRvK.rtbw``),
    or ``None`` when its size, magic and the material of every piece list of its
    header agree with the name. Reads the first 64 bytes only."""
    base = os.path.basename(path)
    name, ext = os.path.splitext(base)
    try:
        with open_regular(path) as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(_BLOCK)
    except OSError as e:
        return f"cannot be read ({e.strerror or e})"
    if size < _BLOCK + _TAIL or size % _BLOCK != _TAIL:
        return f"{size:,} bytes is not the size of a Syzygy table"
    if head[:4] != _MAGIC[ext]:
        return f"not a Syzygy {'WDL' if ext == '.rtbw' else 'DTZ'} table (bad magic)"
    first, second = name.split("v")
    want = sorted(_codes(first, 0) + _codes(second, 1))
    mirrored = sorted(_codes(first, 1) + _codes(second, 0))
    num = len(want)
    # Where python-chess reads the piece lists: after the flags byte, one list per
    # table without pawns, one per file (4) with pawns, each after 1 or 2 order bytes.
    if "P" in name:
        pawns = [second.count("P"), first.count("P")]
        if pawns[1] > 0 and (pawns[0] == 0 or pawns[1] < pawns[0]):
            pawns.reverse()
        skip = 1 + (pawns[1] > 0)
        starts = [5 + f * (num + skip) + skip for f in range(4)]
    else:
        starts = [6]
    # The WDL tables store both sides to move (low and high nibble), DTZ one.
    shifts = (0, 4) if ext == ".rtbw" else (0,)
    for start in starts:
        for shift in shifts:
            listed = sorted(b >> shift & 0x0F for b in head[start:start + num])
            # python-chess accepts a header with the colours the other way round.
            if listed != want and listed != mirrored:
                return f"its header lists {_key(listed)}, not {name}: a table saved under another name"
    return None


def _key(codes: list[int]) -> str:
    """Table name of header piece codes (what the file really holds)."""
    sides = ["".join(_LETTERS[c & 7] if 0 < c & 7 < 7 else "?" for c in sorted(codes, reverse=True) if c >> 3 == colour)
             for colour in (0, 1)]
    return "v".join(sides)


class SyzygyTables:
    """The Syzygy tables of one or more directories (``:``-separated, ``;`` on Windows).

    A directory that does not exist holds no tables: GUIs send default paths
    (polyglot turns xboard's ``egtpath`` into one) and placeholders, and engines
    accept them silently. ``missing`` lists such directories.
    """

    def __init__(self, path: str, report: Callable[[str], None] | None = None, verify: bool = False):
        self.directories = [d for d in path.split(os.pathsep) if d.strip()]
        self.report = report or (lambda text: None)
        self.tablebase = chess.syzygy.Tablebase()
        self.missing = [d for d in self.directories if not os.path.isdir(d)]
        self._broken: set[str] = set()
        #: The files refused (by :func:`check_file` or their checksum), with the reason.
        self.refused: dict[str, str] = {}
        for d in self.directories:
            if d not in self.missing:
                self.tablebase.add_directory(d)
                self._refuse_irregular(d)
        for tables in (self.tablebase.wdl, self.tablebase.dtz):
            # python-chess files each table under its name and the colour-mirrored name.
            for table in {id(t): t for t in tables.values()}.values():
                reason = check_file(table.path)
                if reason is not None:
                    # Out of python-chess's reach: it would probe the file as the name says.
                    for name in [n for n, t in tables.items() if t is table]:
                        del tables[name]
                    self._refuse(table, reason)
        #: Files held back until their checksum is verified, in the order of verification:
        #: ``(pieces, DTZ?, size, path, key, table, names)``.
        self._pending: list[tuple] = []
        self._next = 0
        self._check: FileChecksum | None = None
        if verify:
            self._hold()
        names = set(self.tablebase.wdl)
        #: Most pieces of any WDL table admitted (0: none).
        self.cardinality = max((len(n) - 1 for n in names), default=0)
        #: The materials whose DTZ table is admitted (the root's DTZ-optimal move needs it).
        self.has_dtz = set(self.tablebase.dtz)

    def _refuse_irregular(self, directory: str) -> None:
        """python-chess passes over a table's name that is no regular file (a FIFO, a
        device, a dangling link) without a word: refuse it as any other file."""
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            name, ext = os.path.splitext(entry.name)
            if ext not in (".rtbw", ".rtbz") or not chess.syzygy.is_tablename(name):
                continue
            try:
                regular = entry.is_file()  # follows a link, never opens the file
            except OSError:
                regular = False
            if not regular:
                self.refused[entry.path] = "not a regular file"
                self.report(f"error: SyzygyPath: {entry.path}: not a regular file; playing on without it")

    def _refuse(self, table, reason: str) -> None:
        table.close()
        self.refused[table.path] = reason
        self.report(f"error: SyzygyPath: {table.path}: {reason}; playing on without it")

    def _hold(self) -> None:
        """Take every file out of python-chess's reach until :meth:`verify` admits it."""
        for dtz, tables in ((False, self.tablebase.wdl), (True, self.tablebase.dtz)):
            for table in {id(t): t for t in tables.values()}.values():
                names = [n for n, t in tables.items() if t is table]
                for name in names:
                    del tables[name]
                try:
                    stat = os.stat(table.path)
                except OSError as e:
                    self._refuse(table, f"cannot be read ({e.strerror or e})")
                    continue
                key = (os.path.abspath(table.path), stat.st_size, stat.st_mtime_ns)
                self._pending.append((len(names[0]) - 1, dtz, stat.st_size, table.path, key, table, names))
        self._pending.sort(key=lambda entry: entry[:4])

    @property
    def verified(self) -> bool:
        """True once every file held back has been verified (admitted or refused)."""
        return self._next >= len(self._pending)

    def verify(self, control=None) -> None:
        """Verify the files held back, admitting each that passes; ``control.check()``
        between two slices of the hashing may stop it (:class:`engine.control.Stopped`),
        and the next call resumes there."""
        while self._next < len(self._pending):
            _, dtz, _, path, key, table, names = self._pending[self._next]
            if key in _VERDICTS:
                verdict = _VERDICTS[key]
            else:
                verdict = _VERDICTS[key] = self._hash(path, control)
            self._next += 1
            if verdict is not None:
                self._refuse(table, verdict)
                continue
            # Every table it may probe is decided already: admitted now, in one step each.
            tables = self.tablebase.dtz if dtz else self.tablebase.wdl
            for name in names:
                tables[name] = table
            if dtz:
                self.has_dtz.update(names)
            else:
                self.cardinality = max(self.cardinality, len(names[0]) - 1)

    def _hash(self, path: str, control) -> str | None:
        """The checksum's verdict of ``path``, resuming a verification stopped before."""
        if self._check is None:
            try:
                self._check = FileChecksum(path)
            except OSError as e:
                return f"cannot be read ({e.strerror or e})"
        verdict = self._check.run(control)
        self._check = None
        return verdict

    @staticmethod
    def board(pos) -> chess.Board:
        """A python-chess board of a zermelo chess position (no castling rights)."""
        b = chess.Board(None)
        bb = pos.bb
        b.pawns, b.knights, b.bishops = bb[1] | bb[9], bb[2] | bb[10], bb[3] | bb[11]
        b.rooks, b.queens, b.kings = bb[4] | bb[12], bb[5] | bb[13], bb[6] | bb[14]
        b.occupied_co[chess.WHITE] = bb[0]
        b.occupied_co[chess.BLACK] = bb[8]
        b.occupied = bb[0] | bb[8]
        b.turn = pos.turn == 0
        b.castling_rights = 0
        b.ep_square = pos.ep
        b.halfmove_clock = pos.halfmove
        return b

    @staticmethod
    def material(pos) -> str:
        """Table name of the position's material, white first (``KRvK``)."""
        bb = pos.bb
        sides = []
        for o in (0, 8):
            sides.append("".join(_LETTERS[t] * bb[o | t].bit_count() for t in (6, 5, 4, 3, 2, 1)))
        return "v".join(sides)

    def covers(self, pos) -> bool:
        """True if the WDL table of the position's material is present and usable."""
        name = self.material(pos)
        return name in self.tablebase.wdl and name not in self._broken

    def probe_wdl(self, board: chess.Board, name: str) -> int | None:
        """WDL of ``board`` (material ``name``), or ``None`` when a table is missing or broken."""
        try:
            return self.tablebase.probe_wdl(board)
        except Exception as e:  # missing sub-table, corrupt or truncated file
            self._fail(name, e)
            return None

    def probe_dtz(self, board: chess.Board, name: str) -> int | None:
        """DTZ of ``board``, or ``None`` when a table is missing or broken."""
        try:
            return self.tablebase.probe_dtz(board)
        except Exception as e:
            self._fail(name, e)
            return None

    def _fail(self, name: str, error: Exception) -> None:
        if name not in self._broken:
            self._broken.add(name)
            detail = error.args[0] if isinstance(error, KeyError) and error.args else error
            self.report(f"error: Syzygy {name}: {detail}; playing on without it")

    def close(self) -> None:
        self.tablebase.close()
