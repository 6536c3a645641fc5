"""Pondering in the match runner: ``go ponder`` on the opponent's time, then
``ponderhit`` when the expected move comes (the clock charged from it) or ``stop``
and a fresh ``position``/``go`` when it does not."""

from __future__ import annotations

import os

from protocol.match.runner import Adjudication, Limits, Match, MatchConfig, TimeControl
from tests.test_match_faults import check_records, spec

#: The ponderer answers after 50 ms; its opponent thinks 300 ms (all spent pondering).
FAST, SLOW = 0.05, 0.3


async def play(specs, tmp_path, tc, ponder=True, plies=20) -> tuple[Match, list[str]]:
    lines: list[str] = []
    cfg = MatchConfig(game="chess", specs=specs, limits=[Limits(tc=tc)] * 2, games=1,
                      # A test may play several matches: each replaces the last one's records.
                      records=str(tmp_path / "games.pgn"), force=True, adjudication=Adjudication(max_plies=plies),
                      ponder=ponder, hang_timeout=5, stop_grace=1.0, margin_ms=1000, log=lines.append)
    match = Match(cfg, out=open(os.devnull, "w"))
    await match.run()
    check_records(tmp_path / "games.pgn")
    return match, lines


def sent(lines: list[str], name: str) -> list[str]:
    return [line.split(" > ", 1)[1] for line in lines if line.startswith(f"{name} > ")]


async def test_ponderhit_and_the_clock_runs_from_it(tmp_path):
    tc = TimeControl(moves=5, base_ms=3_000, inc_ms=0)
    specs = [spec("ponderer.py", "fast", f"args={FAST}"), spec("ponderer.py", "slow", f"args={SLOW}")]
    match, lines = await play(specs, tmp_path, tc)
    (result,) = match.results
    assert result.fault is None and "20-ply limit" in result.reason
    fast = sent(lines, "fast")
    assert "setoption name Ponder value true" in fast
    # Each engine predicts its opponent's move exactly: one go, then ponderhits only;
    # the last ponder search (on the 20th ply) is stopped as the game ends.
    gos = [line for line in fast if line.startswith("go")]
    assert len(gos) == 11 and gos[0].startswith("go wtime") and all(g.startswith("go ponder") for g in gos[1:])
    assert fast.count("ponderhit") == 9 and fast.count("stop") == 1
    assert fast.index("stop") > max(i for i, line in enumerate(fast) if line.startswith("go"))
    # Charged from the ponderhit: moves of ~50 ms, not of 350 ms (pondering included);
    # the time left at move 5 is carried over to the second control.
    left = match.clock_left[0]
    assert sorted(left) == [5, 10]
    assert all(moves // 5 * 3_000 - moves * 150 < ms <= moves // 5 * 3_000 for moves, ms in left.items()), left
    assert "clock left by fast at move 5: min" in match.summary()


async def test_ponder_miss_stops_and_searches_afresh(tmp_path):
    tc = TimeControl(moves=None, base_ms=10_000, inc_ms=0)
    specs = [spec("ponderer.py", "ponderer", f"args={FAST}"), spec("random_mover.py", "random", "args=7")]
    match, lines = await play(specs, tmp_path, tc)
    assert match.results[0].fault is None
    out = sent(lines, "ponderer")
    assert "stop" in out
    for i, line in enumerate(out):
        if line == "stop":
            # The ponder search's bestmove was read and dropped; the next search is a fresh one.
            rest = [x for x in out[i + 1:] if x != "isready"]
            if rest and rest[0] != "quit":  # not the stop at the end of the game
                assert rest[0].startswith("position") and rest[1].startswith("go wtime")
    got = [line.split(" < ", 1)[1] for line in lines if line.startswith("ponderer < bestmove")]
    moves = match.results[0].record.moves
    # Every bestmove read was either played or a dropped ponder answer, one per go.
    assert len(got) == sum(1 for x in out if x.startswith("go"))
    assert len([x for x in out if x.startswith("go") and "ponder" not in x]) == (len(moves) + 1) // 2 - out.count("ponderhit")
    assert list(match.clock_left[0]) == [0]


async def test_no_pondering_unless_asked(tmp_path):
    tc = TimeControl(moves=None, base_ms=10_000, inc_ms=0)
    specs = [spec("ponderer.py", "a", f"args={FAST}"), spec("ponderer.py", "b", f"args={FAST} ponder=off")]
    match, lines = await play(specs, tmp_path, tc, ponder=True, plies=8)
    assert "ponderhit" in sent(lines, "a")
    assert not any("ponder" in line for line in sent(lines, "b"))
    match, lines = await play(specs[:1] + [spec("ponderer.py", "b", f"args={FAST}")], tmp_path, tc,
                              ponder=False, plies=8)
    assert not any("ponder" in line.split(" > ", 1)[1] for line in lines if " > " in line)
