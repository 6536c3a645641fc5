"""Reading a file a user names, which may be anything: a FIFO, a device, a huge file.

The server's reader must never wait on a file nor read one without bound:
:func:`read_regular_file` opens without blocking (a FIFO with no writer would
block ``open`` for ever), refuses anything but a regular file by ``fstat`` on the
opened descriptor (no race with a rename), and counts the bytes it reads, since
``stat`` says 0 for a device such as ``/dev/zero``.
"""

from __future__ import annotations

import os
import stat


class FileRefused(ValueError):
    """A file that cannot be read as asked: its text says why, for the user."""


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises :class:`FileRefused` (with the reason in words) for a missing or
    unreadable file, a directory, a FIFO, a socket or a device, and for a file
    longer than ``limit`` bytes.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise FileRefused(e.strerror or type(e).__name__) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
            raise FileRefused(f"{kind}, not a regular file")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileRefused(f"larger than {limit} bytes")
    except OSError as e:
        raise FileRefused(e.strerror or type(e).__name__) from None
    finally:
        os.close(fd)
