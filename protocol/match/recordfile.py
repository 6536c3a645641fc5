"""The records file of a match: read back game by game, written one whole game at a time.

A match never rewrites what a records file already holds. A new match refuses an
existing non-empty file unless told to replace it (``--force``); ``--resume``
reads the file, keeps every game in it byte for byte and appends the games still
to play. Each game is one ``write`` on a file opened for appending, followed by
``fsync``, so a crash, Ctrl-C or SIGKILL loses at most the game being played: the
games already written stay whole. The file is locked while a match writes it, so
a second match on the same file is refused instead of interleaving games.

A crash in the middle of a write could still leave the start of a game at the
end of the file. :func:`read_games` splits a file into games and tells a whole
game (its moves end with a result token) from such a partial one; resuming drops
a partial last game by replacing the file atomically (the whole games written to
a temporary file in the same directory, ``fsync``, ``os.replace``), and
``--replay`` reports it.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from dataclasses import dataclass, field

from engine.files import open_regular
from protocol.records import RANKING_RESULT, RESULTS, GameRecord, read_records

if sys.platform != "win32":  # Windows has no advisory locks: the file is written unlocked
    import fcntl

_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


class RecordsFileError(ValueError):
    """The records file cannot be used as asked; the message is one line naming it."""


@dataclass
class FileGame:
    """One game's text in a records file."""

    start: int
    """Offset of its first character in the file's text."""
    line: int
    """Its first line (1-based)."""
    text: str
    tags: dict[str, str] = field(default_factory=dict)
    final_token: str | None = None
    """The last word of its moves outside comments (a result token in a whole game)."""
    record: GameRecord | None = None
    error: str | None = None
    """Why the game could not be read, if so."""

    @property
    def whole(self) -> bool:
        """Its moves end with a result token: the writer finished it."""
        token = self.final_token
        return token is not None and (token in RESULTS or bool(RANKING_RESULT.fullmatch(token)))

    @property
    def round(self) -> str | None:
        return self.tags.get("Round")


def split_games(text: str) -> list[FileGame]:
    """The games of a PGN, PDN or plain record file's text, in order: a game is its
    tag lines and the moves after them (tag-like lines inside ``{}`` comments are moves)."""
    out: list[FileGame] = []
    game: FileGame | None = None
    in_moves = False
    in_comment = False
    offset = 0
    words: list[str] = []
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        stripped = line.strip()
        tag = None if in_comment else _TAG.match(stripped)
        if tag and (game is None or in_moves):
            game = FileGame(offset, number, "")
            out.append(game)
            in_moves, words = False, []
        elif stripped and game is None:
            # Moves before any tag: a game without tags.
            game = FileGame(offset, number, "")
            out.append(game)
        if game is None:
            # Blank lines before the first game belong to none.
            offset += len(line)
            continue
        if tag and not in_moves:
            game.tags[tag.group(1)] = re.sub(r"\\(.)", r"\1", tag.group(2))
        elif stripped:
            in_moves = True
            in_comment = _scan_moves(line, in_comment, words)
            game.final_token = words[-1] if words and not in_comment else None
        game.text += line
        offset += len(line)
    return out


def _scan_moves(line: str, in_comment: bool, words: list[str]) -> bool:
    """Add the words of a moves line outside ``{}`` and ``;`` comments to ``words``;
    whether a ``{`` comment is still open at its end."""
    word = ""
    for ch in line:
        if in_comment:
            in_comment = ch != "}"
        elif ch == "{" or ch == ";" or ch.isspace():
            if word:
                words.append(word)
                word = ""
            if ch == "{":
                in_comment = True
            elif ch == ";":
                return False
        else:
            word += ch
    if word:
        words.append(word)
    return in_comment


#: The largest records file read: it is read whole (a game with its clock comments
#: takes one or two KB, so this is over 30,000 games), and a larger file is refused
#: before it is read. Parsing takes several times the file's size: a 220 MB file of
#: one long line ran out of a 2 GB address space.
RECORDS_LIMIT = 64 * 1024 * 1024


def read_games(path: str) -> tuple[str, list[FileGame]]:
    """The text of the records file at ``path`` and its games, each read with
    :func:`protocol.records.read_records` (``error`` says why one cannot be).
    Raises :class:`RecordsFileError` when the file cannot be read as text."""
    try:
        with open_regular(path) as f:
            size = os.fstat(f.fileno()).st_size
            if size > RECORDS_LIMIT:
                raise RecordsFileError(f"{path}: {size:,} bytes, more than a records file holds "
                                       f"(at most {RECORDS_LIMIT:,})")
            data = f.read(RECORDS_LIMIT)
    except OSError as exc:
        raise RecordsFileError(f"{path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordsFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    found = split_games(text)
    for game in found:
        if not game.whole:
            continue
        try:
            records = read_records(game.text)
        except (ValueError, KeyError, IndexError) as exc:
            game.error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            continue
        if len(records) == 1:
            game.record = records[0]
        else:
            game.error = f"read as {len(records)} games"
    return text, found


def _fsync_dir(path: str) -> None:
    """Make a new or replaced directory entry durable (POSIX; Windows has no directory handles)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_atomically(path: str, data: bytes) -> None:
    """Replace the file at ``path`` with ``data``: all of the old file or all of the new
    one survives a crash, never a mix."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, os.stat(path).st_mode & 0o7777)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    _fsync_dir(path)


class RecordsWriter:
    """A records file opened for appending whole games, locked against other matches."""

    def __init__(self, path: str, fd: int, replace: bool = False):
        self.path = path
        self._fd = fd
        self._replace = replace

    @classmethod
    def open(cls, path: str, *, replace: bool = False) -> "RecordsWriter":
        """Open ``path`` for appending, creating it if need be. With ``replace`` its old
        content is dropped when the first game is written, so a match that ends
        before it (a failed start, Ctrl-C) leaves the file as it was."""
        existed = os.path.exists(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
        except OSError as exc:
            raise RecordsFileError(f"{path}: {exc.strerror or exc}") from None
        try:
            if sys.platform != "win32":
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise RecordsFileError(f"{path}: another match is writing it") from None
            if not existed:
                _fsync_dir(path)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, replace)

    def size(self) -> int:
        return os.fstat(self._fd).st_size

    def append(self, text: str) -> None:
        """Append one whole game and make it durable before returning."""
        self.append_bytes(text.encode("utf-8"))

    def append_bytes(self, data: bytes) -> None:
        if self._replace:
            os.ftruncate(self._fd, 0)
            self._replace = False
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def open_new(path: str, force: bool) -> RecordsWriter:
    """The records file of a new match: refused if ``path`` holds anything, unless ``force``."""
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        size = 0
    except OSError as exc:
        raise RecordsFileError(f"{path}: {exc.strerror or exc}") from None
    if size and not force:
        raise RecordsFileError(f"{path} exists ({size} bytes): give --resume to continue its match, "
                               "--force to replace it, or another file")
    writer = RecordsWriter.open(path, replace=force)
    if not force and writer.size():
        writer.close()
        raise RecordsFileError(f"{path} was written to while the match started; left as it is")
    return writer


def open_for_resume(path: str) -> tuple[RecordsWriter, str, list[FileGame]]:
    """Lock the records file of a match to resume (created empty if missing) and read
    its games under the lock; the caller checks them before :func:`resume`."""
    writer = RecordsWriter.open(path)
    try:
        text, games = read_games(path)
    except BaseException:
        writer.close()
        raise
    return writer, text, games


def resume(writer: RecordsWriter, text: str, games: list[FileGame]) -> tuple[RecordsWriter, FileGame | None]:
    """Ready a file read by :func:`open_for_resume` (and found to be the match's) for
    appending: a partial last game is dropped (and returned), every byte before it kept."""
    partial = games[-1] if games and not games[-1].whole else None
    path = writer.path
    if partial is not None:
        text = text[:partial.start]
        replace_atomically(path, text.encode("utf-8"))
        # The lock held the replaced file; the new one is locked in its turn.
        writer.close()
        writer = RecordsWriter.open(path)
    # Whole games are separated by a blank line, whoever wrote the last one.
    separator = "" if not text.strip() or text.endswith("\n\n") else "\n" if text.endswith("\n") else "\n\n"
    if separator:
        writer.append_bytes(separator.encode())
    return writer, partial
