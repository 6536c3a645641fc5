"""Every file a user names to the server or the tools is opened so that it cannot
block (:mod:`engine.files`): a FIFO, a device or a directory is refused at once,
in one line, and whole-file reads stop at their limit by the bytes read."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.files import FileTooLargeError, NotRegularFileError, open_regular, read_bounded
from tests.test_protocol import Pipe, pipe  # noqa: F401  (the fixture)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "named.pipe"
    os.mkfifo(path)
    return path


def test_only_a_regular_file_opens_and_at_once(tmp_path, fifo):
    started = time.monotonic()
    for path, kind in ((fifo, "a FIFO"), ("/dev/zero", "a device"), (tmp_path, "a directory")):
        with pytest.raises(NotRegularFileError, match=f"not a regular file \\({kind}\\)"):
            open_regular(path)
    assert time.monotonic() - started < 5
    text = tmp_path / "a.txt"
    text.write_bytes(b"0123456789")
    assert read_bounded(text, 10) == b"0123456789"
    with pytest.raises(FileTooLargeError, match="larger than 9 bytes"):
        read_bounded(text, 9)
    with open_regular(text, "r", encoding="utf-8") as f:
        assert f.read() == "0123456789"


@pytest.mark.parametrize("args", [
    ["tree", "--file", "{fifo}"],
    ["solve", "--file", "{fifo}"],
    ["book", "show", "chess", "{fifo}"],
    ["book", "build", "chess", "--source", "games", "--input", "{fifo}", "--out", "{tmp}/b.zbook"],
    ["bench", "--game", "reversi", "--depth", "1", "--eval-file", "{fifo}"],
    ["explain", "reversi", "--eval-file", "{fifo}"],
    ["match", "--game", "chess", "--openings", "{fifo}", "--games", "1", "--movetime", "10",
     "--engine", "cmd=zermelo name=a", "--engine", "cmd=zermelo name=b"],
])
def test_the_tools_refuse_a_fifo_in_one_line(tmp_path, fifo, args):
    argv = [a.format(fifo=fifo, tmp=tmp_path) for a in args]
    done = subprocess.run([sys.executable, "-m", "protocol", *argv], cwd=REPO, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0 and "not a regular file" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_the_server_answers_past_a_fifo(pipe, fifo):  # noqa: F811
    pipe.handshake()
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {fifo}", "isready")
    lines = pipe.until("readyok")
    assert lines == [f"info string error: setoption: BookFile: {fifo}: not a regular file (a FIFO)", "readyok"]
    pipe.send("go depth 2")
    assert pipe.until("bestmove ")[-1] != "bestmove (none)"


def test_an_option_cache_that_is_a_fifo_is_rebuilt(tmp_path):
    cache = tmp_path / "zermelo" / "options.json"
    cache.parent.mkdir()
    os.mkfifo(cache)
    done = subprocess.run([sys.executable, "-m", "protocol"], cwd=REPO, capture_output=True, text=True,
                          input="uci\nquit\n", timeout=60, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)})
    assert "uciok" in done.stdout.splitlines()
    assert f"info string option cache {cache} unreadable" in done.stdout and cache.is_file()
