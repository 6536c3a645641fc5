"""The match runner against misbehaving engines (``tests/fake_engines``): every
fault forfeits the game, is reported, the runner goes on, and no process it
started survives the match."""

from __future__ import annotations

import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pytest

from protocol.match.runner import Adjudication, Limits, Match, MatchConfig, TimeControl, main
from protocol.match.process import EngineSpec
from protocol.match.openings import Opening
from protocol.records import read_records, verify
from tests.conftest import interruptible

FAKE = pathlib.Path(__file__).parent / "fake_engines"


def spec(script: str, name: str, extra: str = "") -> EngineSpec:
    return EngineSpec.parse(f"cmd='{sys.executable} {FAKE / script}' name={name} {extra}")


def alive(pid: int) -> bool:
    """True for a running (not zombie) process."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def all_gone(pids, within: float = 5.0) -> bool:
    """True once none of ``pids`` runs. SIGKILL to a group is delivered at once but a
    process (an orphan reparented to init) takes a moment to exit on a loaded machine."""
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def config(bad: EngineSpec, tmp_path, games_=2, limits=Limits(movetime=20), **kw) -> MatchConfig:
    # A wide clock margin: the machine may be busy, and these tests are about faults, not speed.
    # A test may play several matches: each replaces the last one's records.
    kw = {"hang_timeout": 5, "stop_grace": 0.5, "margin_ms": 1000, "force": True, **kw}
    return MatchConfig(game="nim", specs=[spec("random_mover.py", "good"), bad], limits=[limits, limits],
                       games=games_, records=str(tmp_path / "games.txt"), **kw)


async def run(cfg: MatchConfig) -> Match:
    match = Match(cfg, out=open(os.devnull, "w"))
    await match.run()
    return match


def check_records(path) -> list:
    recs = read_records(pathlib.Path(path).read_text())
    for rec in recs:
        assert verify(rec) == [], rec
    return recs


@pytest.mark.parametrize("script,fault,termination,restarts", [
    ("crasher.py", "crash", "abandoned", True),
    ("silent.py", "time", "time forfeit", True),
    ("illegal.py", "illegal", "rules infraction", False),
    ("garbage.py", "illegal", "rules infraction", False),
])
async def test_faulty_engine_forfeits(tmp_path, script, fault, termination, restarts):
    match = await run(config(spec(script, "bad"), tmp_path))
    assert len(match.results) == 2
    for r in match.results:
        assert r.score(0) == 1.0 and r.offender == 1 and r.fault == fault
        assert r.termination == termination and "bad" in r.reason
    assert match.counts() == (2, 0, 0)
    # The faulty engine is restarted for the next game only if it had to be stopped.
    assert len(match.pids) == (3 if restarts else 2)
    assert not any(alive(pid) for pid in match.pids)
    recs = check_records(tmp_path / "games.txt")
    assert [r.termination for r in recs] == [termination] * 2


async def test_time_loss_on_the_clock_and_hang_without_one(tmp_path):
    match = await run(config(spec("silent.py", "bad"), tmp_path, 1,
                             Limits(tc=TimeControl(None, 200, 0)), margin_ms=100))
    (r,) = match.results
    assert r.fault == "time" and "loses on time" in r.reason
    match = await run(config(spec("silent.py", "bad"), tmp_path, 1, Limits(depth=3), hang_timeout=1))
    assert match.results[0].fault == "hang"


async def test_stubborn_engine_and_its_child_are_killed(tmp_path):
    lines = []
    cfg = config(spec("stubborn.py", "stubborn"), tmp_path)
    cfg.log = lines.append
    match = await run(cfg)
    assert all(r.fault is None for r in match.results)
    children = {int(m.group(1)) for line in lines if (m := re.search(r"info string child (\d+)", line))}
    assert children
    assert all_gone(match.pids + sorted(children))


async def test_engine_that_cannot_start(tmp_path):
    bad = EngineSpec.parse("cmd=/nonexistent/engine name=ghost")
    match = await run(config(bad, tmp_path, 6))
    # Three failed starts in a row end the match.
    assert [r.fault for r in match.results] == ["start"] * 3
    assert match.aborted and "ghost" in match.aborted


async def test_ugi_and_concurrency(tmp_path):
    cfg = config(spec("random_mover.py", "other", "proto=ugi args=7"), tmp_path, 6,
                 Limits(tc=TimeControl(None, 5000, 50)), concurrency=3,
                 openings=[Opening("7 1"), Opening("8 1", ("1",))])
    match = await run(cfg)
    assert sorted(r.job.number for r in match.results) == list(range(1, 7))
    assert all(r.fault is None and r.termination == "normal" for r in match.results)
    assert sum(match.penta) == 3
    recs = check_records(tmp_path / "games.txt")
    assert sorted(r.start for r in recs) == ["7 1", "7 1", "7 1", "7 1", "8 1", "8 1"]
    assert not any(alive(pid) for pid in match.pids)


async def test_oracle_and_ply_cap_adjudicate(tmp_path):
    # Misere Nim: the side to move loses exactly when heap = 1 (mod 3).
    oracle = lambda pos: -1 if pos.heaps[0] % 3 == 1 else None  # noqa: E731
    match = await run(config(spec("random_mover.py", "r2", "args=5"), tmp_path, 2,
                             adjudication=Adjudication(oracle=oracle)))
    for r in match.results:
        assert r.termination == "adjudication"
    match = await run(config(spec("random_mover.py", "r2", "args=5"), tmp_path, 2,
                             adjudication=Adjudication(max_plies=1)))
    assert [r.r0 for r in match.results] == [0, 0] and "1-ply limit" in match.results[0].reason


def test_score_adjudication_rules():
    adj = Adjudication.parse(["win=500:2", "draw=10:2:3", "maxplies=99"])
    assert (adj.win_score, adj.win_moves, adj.draw_score, adj.draw_moves, adj.draw_from, adj.max_plies) \
        == (500, 2, 10, 2, 3, 99)
    assert adj.by_score(([600, 700], [550, 900]), 4)[0] == 1
    assert adj.by_score(([600, 700], [550, 400]), 4) is None
    assert adj.by_score(([-600, -700], [-550, -900]), 4)[0] == -1
    assert adj.by_score(([5, -5], [0, 9]), 5) is None          # before move 3
    assert adj.by_score(([5, -5], [0, 9]), 6)[0] == 0
    assert adj.by_score(([5, None], [0, 9]), 6) is None
    with pytest.raises(ValueError):
        Adjudication.parse(["resign=3"])


def test_sprt_stops_the_match(tmp_path, capsys):
    code = main(["--game", "nim", "--games", "100", "--movetime", "20", "--margin-ms", "1000",
                 "--engine", f"cmd='{sys.executable} {FAKE / 'random_mover.py'}' name=good",
                 "--engine", f"cmd='{sys.executable} {FAKE / 'illegal.py'}' name=bad",
                 "--sprt", "elo0=0", "elo1=200", "alpha=0.2", "beta=0.2", "--concurrency", "2",
                 "--pgn", str(tmp_path / "g.txt"), "--log", str(tmp_path / "log.txt")])
    out = capsys.readouterr().out
    assert code == 0
    assert "H1 accepted" in out
    pids = [int(p) for p in re.findall(r"started pid (\d+)", (tmp_path / "log.txt").read_text())]
    # Two slots of two engines; the second slot may not have started when the SPRT decides.
    assert 2 <= len(pids) <= 4 and not any(alive(pid) for pid in pids)
    n = len(read_records((tmp_path / "g.txt").read_text()))
    assert 2 <= n < 100
    assert f"good vs bad, {n} games" in out
    assert main(["--replay", str(tmp_path / "g.txt")]) == 0


def test_interrupt_kills_every_engine(tmp_path):
    log = tmp_path / "log.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "protocol", "match", "--game", "nim", "--games", "4", "--concurrency", "2",
         "--movetime", "20000", "--log", str(log),
         "--engine", f"cmd='{sys.executable} {FAKE / 'silent.py'}' name=s",
         "--engine", f"cmd='{sys.executable} {FAKE / 'stubborn.py'}' name=t"],
        stdout=subprocess.PIPE, text=True, preexec_fn=interruptible)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (not log.exists() or "info string child" not in log.read_text()):
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    # A liveness bound: on a loaded 2-core machine the engines' shutdown alone has taken 20 s.
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "match interrupted" in out, out
    text = log.read_text()
    pids = {int(p) for p in re.findall(r"info string child (\d+)", text)}
    pids |= {int(p) for p in re.findall(r"started pid (\d+)", text)}
    assert len(pids) >= 3
    assert all_gone(pids)


def test_run_everywhere_returns_the_results(tmp_path):
    # The local backend hands back the results as the Ray backend does.
    match = Match(config(spec("random_mover.py", "other"), tmp_path), out=open(os.devnull, "w"))
    results = match.run_everywhere()
    assert results is match.results and len(results) == 2
