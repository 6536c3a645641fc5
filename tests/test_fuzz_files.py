"""The file fuzzer (``scripts/fuzz_files.py``): a tiny seeded run over every kind of
file finds no traceback, hang or crash, and its judge sees each failure it names."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

from test_protocol import REPO

SEVERE = ("hang", "traceback", "memory", "crash", "lost-bestmove")


def load_fuzzer():
    spec = importlib.util.spec_from_file_location("fuzz_files", REPO / "scripts" / "fuzz_files.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_files"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_tiny_run_over_every_kind_finds_no_traceback_or_hang(tmp_path):
    ff = load_fuzzer()
    tallies = ff.run(list(ff.KINDS), seconds_per_kind=0.5, seed=5, out=tmp_path, timeout=20, verbose=False)
    assert set(tallies) == set(ff.KINDS)
    for name, tally in tallies.items():
        assert tally.counts["tried"] >= 1, name
        assert not any(tally.counts[k] for k in SEVERE), tally.failures
        # Every failing input is kept with the way to reproduce it.
        for line in tally.failures:
            saved = Path(line.rsplit(" -> ", 1)[1])
            assert (saved / "repro.txt").read_text().startswith(f"kind {name}")


def judge(ff, monkeypatch, tmp_path, code: str, target: str = "f.txt", timeout: float = 20):
    """A tool kind's verdict when its "zermelo" is the Python one-liner ``code``."""
    monkeypatch.setattr(ff, "ZERMELO", [sys.executable, "-c", code])
    kind = ff.ReplayKind(None)
    case = ff.Case("test", {target: b"x"}, target=target)
    case.write(tmp_path)
    runner = ff.Runner(tmp_path, tmp_path / "out", timeout, 2048)
    return kind.run(case, tmp_path, runner)


def test_the_judge_sees_tracebacks_hangs_memory_and_unnamed_errors(monkeypatch, tmp_path):
    ff = load_fuzzer()
    assert judge(ff, monkeypatch, tmp_path / "a", "import sys; sys.exit(0)").outcome == "ok"
    assert judge(ff, monkeypatch, tmp_path / "b", "print('error: f.txt: bad'); raise SystemExit(2)").outcome == "ok"
    assert judge(ff, monkeypatch, tmp_path / "c", "raise ValueError('x')").outcome == "traceback"
    assert judge(ff, monkeypatch, tmp_path / "d", "import time; time.sleep(30)", timeout=1).outcome == "hang"
    # The address-space limit turns a reader that trusts a size into a MemoryError.
    assert judge(ff, monkeypatch, tmp_path / "e", "b = bytearray(3 << 30)").outcome == "memory"
    assert judge(ff, monkeypatch, tmp_path / "f", "print('error: bad file'); raise SystemExit(1)").outcome == "unnamed"
    assert judge(ff, monkeypatch, tmp_path / "g", "import os; os.kill(os.getpid(), 11)").outcome == "crash"


def test_an_xz_bomb_is_small_on_disk_and_huge_inside():
    ff = load_fuzzer()
    import lzma

    bomb = ff.xz_bomb(b"head", 0.25)
    assert len(bomb) < 200_000
    with lzma.open(io.BytesIO(bomb)) as f:
        assert f.read(4) == b"head"
        total = 4 + sum(len(f.read(1 << 24)) for _ in range(16))
    assert total == 4 + (1 << 28)


def test_fifos_and_devices_are_made_and_a_blocked_reader_is_a_bounded_hang(monkeypatch, tmp_path):
    import random
    import stat
    import time

    ff = load_fuzzer()
    made = {ff.make_special(ff.Case("test", {"f.txt": b"x"}, target="f.txt"), random.Random(seed)).specials["f.txt"]
            for seed in range(40)}
    assert made == set(ff.SPECIALS)
    case = ff.Case("test", {}, target="f.txt", specials={"f.txt": "fifo"})
    case.write(tmp_path / "a")
    assert stat.S_ISFIFO((tmp_path / "a" / "f.txt").lstat().st_mode)
    device = ff.Case("test", {}, target="d.bin", specials={"d.bin": "/dev/zero"})
    device.write(tmp_path / "b")
    assert (tmp_path / "b" / "d.bin").resolve() == Path("/dev/zero")
    # A reader that opens the FIFO blocks for ever: the judge says hang after its timeout.
    monkeypatch.setattr(ff, "ZERMELO", [sys.executable, "-c", "open('f.txt').read()"])
    runner = ff.Runner(tmp_path, tmp_path / "out", 1, 2048)
    started = time.monotonic()
    result = ff.ReplayKind(None).run(case, tmp_path / "a", runner)
    assert result.outcome == "hang" and time.monotonic() - started < 30


def test_hostile_training_data_and_sidecars(tmp_path):
    import random

    ff = load_fuzzer()
    seeds = ff.Seeds(tmp_path / "seeds", 2048)
    seeds.root.mkdir()
    kind = ff.ZdataKind(seeds)
    labels = set()
    rng = random.Random(2)
    for _ in range(40):
        case = kind.make(rng, tmp_path)
        labels.add(case.label.split("-")[0].split(":")[0])
        if case.label.startswith("empty-records"):
            header = case.files[case.target]
            assert header.startswith(b"ZDATA") and (case.giants[case.target] - len(header)) % 5 == 0
            assert (case.giants[case.target] - len(header)) // 5 >= 2_000_000
    assert {"empty", "nested"} <= labels, labels
    assert any(label.startswith(("fifo", "/dev")) for label in labels), labels
