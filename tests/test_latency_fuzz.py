"""The fuzzers tell a slow answer from a hang by the CPU the server uses, not by the clock.

Beside a match, under ``nice -n 19``, the server gets a sliver of a core: its
answers are slow but it keeps working. A hang is a process that uses no CPU for
``--timeout`` seconds (stuck) or that many seconds of CPU (spinning).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time

from test_protocol import REPO

#: Works 20 ms in every 100 ms for 3 s: a starved process making progress.
STARVED = ("import time\n"
           "for _ in range(30):\n"
           "    end = time.process_time() + 0.02\n"
           "    while time.process_time() < end: pass\n"
           "    time.sleep(0.08)\n")


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def judge(ff, monkeypatch, tmp_path, code: str, timeout: float):
    monkeypatch.setattr(ff, "ZERMELO", [sys.executable, "-c", code])
    kind = ff.ReplayKind(None)
    case = ff.Case("test", {"f.txt": b"x"}, target="f.txt")
    case.write(tmp_path)
    return kind.run(case, tmp_path, ff.Runner(tmp_path, tmp_path / "out", timeout, 2048)).outcome


def test_a_tool_that_keeps_working_slowly_is_no_hang(monkeypatch, tmp_path):
    ff = load("fuzz_files")
    assert judge(ff, monkeypatch, tmp_path / "a", STARVED, timeout=2) == "ok"
    assert judge(ff, monkeypatch, tmp_path / "b", "import time; time.sleep(60)", timeout=1) == "hang"
    assert judge(ff, monkeypatch, tmp_path / "c", "while True: pass", timeout=1) == "hang"


def test_patience_waits_for_a_working_process_and_not_for_a_stuck_one():
    fuzz = load("fuzz")
    for code, hangs in ((STARVED, False), ("import time; time.sleep(60)", True)):
        proc = subprocess.Popen([sys.executable, "-c", code])
        try:
            patience = fuzz.Patience(proc.pid, 2.0)
            why = ""
            while not why and proc.poll() is None:
                time.sleep(0.2)
                why = patience.hung()
            assert bool(why) == hangs, why
        finally:
            proc.kill()
            proc.wait()
