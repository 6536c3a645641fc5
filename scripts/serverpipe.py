"""The real server over pipes, for the measuring scripts: start, send, read until a reply.

A thread pumps the server's output into a queue so that a reply can be awaited
with a timeout; ``/proc`` readings (Linux) give its memory.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


class ServerPipe:
    def __init__(self, pure: bool = False) -> None:
        env = dict(os.environ, ZERMELO_PURE="1" if pure else "")
        self.proc = subprocess.Popen([sys.executable, "-m", "protocol"], cwd=REPO, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode().strip())

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
        self.proc.stdin.flush()

    def until(self, prefix: str, timeout: float = 600) -> list[str]:
        """Every line up to and including the first that starts with ``prefix``."""
        out: list[str] = []
        while not (out and out[-1].startswith(prefix)):
            out.append(self.lines.get(timeout=timeout))
        return out

    def rss(self) -> int:
        """Resident bytes of the server process."""
        return status_kb(self.proc.pid, "status", "VmRSS") * 1024

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(30)


def status_kb(pid: int, path: str, field: str) -> int:
    """A ``kB`` field of ``/proc/<pid>/<path>`` (``status``, ``smaps_rollup``), 0 when absent."""
    for line in Path(f"/proc/{pid}/{path}").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0
