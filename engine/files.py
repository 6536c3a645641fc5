"""Opening the files a user names (networks, books, tables, training data, SGF,
sidecars) so that none can block the process or exhaust its memory.

A FIFO's ``open`` waits for a writer and a device's reads never end: a path
given as a file must name a regular file. The path is opened with
``O_NONBLOCK`` (an open that returns at once whatever the path is) and then
checked with ``fstat`` on the descriptor itself, so that no rename between a
check and the open can slip a FIFO in. Whole-file reads are bounded by the
bytes actually read, never by ``stat`` (a device's size is 0).

>>> read_bounded("/dev/zero", 10)
Traceback (most recent call last):
...
engine.files.NotRegularFileError: [Errno 22] not a regular file (a device): '/dev/zero'
"""

from __future__ import annotations

import errno
import os
import stat
from typing import IO, Any


class NotRegularFileError(OSError):
    """The path names a FIFO, a device, a socket or a directory, not a regular file."""


class FileTooLargeError(OSError):
    """The file holds more bytes than its reader accepts."""


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a directory" if stat.S_ISDIR(mode) else "not a file"


def open_regular(path: str | os.PathLike[str], mode: str = "rb", **kwargs: Any) -> IO[Any]:
    """``path`` opened for reading (``mode`` ``"rb"`` or ``"r"``, ``kwargs`` as for
    :func:`open`) if it is a regular file; raises :class:`NotRegularFileError` (an
    :class:`OSError`, strerror ``not a regular file (a FIFO)``) otherwise, at once."""
    if mode not in ("r", "rb"):
        raise ValueError(f"open_regular reads only, not mode {mode!r}")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        st_mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(st_mode):
            code = errno.EISDIR if stat.S_ISDIR(st_mode) else errno.EINVAL
            raise NotRegularFileError(code, f"not a regular file ({_kind(st_mode)})", os.fspath(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, mode, **kwargs)
    except BaseException:
        os.close(fd)
        raise


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``; raises :class:`FileTooLargeError` when it
    holds more than ``limit`` (found by reading one byte more, not by ``stat``)."""
    with open_regular(path) as f:
        data: bytes = f.read(limit + 1)
    if len(data) > limit:
        raise FileTooLargeError(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))
    return data


def read_text_bounded(path: str | os.PathLike[str], limit: int, errors: str = "strict") -> str:
    """:func:`read_bounded` decoded as UTF-8 (``errors`` as for :meth:`bytes.decode`)."""
    return read_bounded(path, limit).decode("utf-8", errors)
