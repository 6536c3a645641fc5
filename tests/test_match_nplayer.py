"""``zermelo match`` with N engines per game: seats rotated through every order,
points by place, the tables, the clocks told to the mover, records replayed."""

from __future__ import annotations

import io
import sys
from collections import Counter
from pathlib import Path

import pytest

from protocol.match import runner
from protocol.match.multi import MultiConfig, MultiMatch, place_points, seatings
from protocol.match.process import EngineSpec
from protocol.records import read_records, to_text

REPO = Path(__file__).resolve().parents[1]
ZERMELO = f'cmd="{sys.executable} -m protocol" dir={REPO}'
RANDOM = f'cmd="{sys.executable} {REPO / "scripts" / "random_engine.py"}'


@pytest.mark.parametrize("ranking, points", [
    ([1, 2, 3], [1.0, 0.5, 0.0]), ([3, 1, 2], [0.0, 1.0, 0.5]), ([1, 1, 3], [0.75, 0.75, 0.0]),
    ([1, 2, 2], [1.0, 0.25, 0.25]), ([1, 1, 1], [0.5, 0.5, 0.5]),
    ([2, 1, 4, 2], [0.5, 1.0, 0.0, 0.5]), ([1, 1, 1, 4], [2 / 3, 2 / 3, 2 / 3, 0.0]), ([1, 2], [1.0, 0.0]),
])
def test_points_by_place(ranking, points):
    got = place_points(ranking)
    assert got == pytest.approx(points)
    assert sum(got) == pytest.approx(len(ranking) / 2)


def test_every_engine_plays_every_seat_equally_often():
    for n in (3, 4):
        rounds = seatings(n)
        assert len(set(rounds)) == len(rounds) == {3: 6, 4: 24}[n]
        for player in range(n):
            assert Counter(seat[player] for seat in rounds) == {e: len(rounds) // n for e in range(n)}


def test_the_mover_is_told_every_clock():
    specs = [EngineSpec.parse(f"{ZERMELO} name=e{i}") for i in range(3)]
    tc = runner.TimeControl.parse("10+0.1")
    limits = [runner.Limits(tc), runner.Limits(runner.TimeControl.parse("5+0.2")), runner.Limits(movetime=50)]
    match = MultiMatch(MultiConfig("rolit", 3, specs, limits, games=6))
    go, deadline = match.go_command(1, limits, [9000, 4000, None])
    assert go == "go p1time 9000 p2time 4000 p3time 4000 p1inc 100 p2inc 200 p3inc 200"
    assert deadline == 4000 + match.cfg.margin_ms
    assert match.go_command(2, limits, [9000, 4000, None])[0] == "go movetime 50"


def test_a_three_engine_match_and_its_records(tmp_path, capsys):
    records = tmp_path / "rolit.txt"
    argv = ["--game", "rolit", "--players", "3", "--games", "5", "--depth", "1", "--concurrency", "2",
            "--records", str(records),
            "--engine", f"{ZERMELO} name=brs option.MultiplayerSearch=brs",
            "--engine", f'{RANDOM} 1" name=random1',
            "--engine", f'{RANDOM} 2" name=random2 tc=30+0.5']
    assert runner.main(argv) == 0
    out = capsys.readouterr().out
    recs = read_records(records.read_text())
    # Five games asked for: one whole round of the six seatings.
    assert len(recs) == 6
    assert Counter(rec.players for rec in recs) == Counter(
        tuple(("brs", "random1", "random2")[e] for e in seat) for seat in seatings(3))
    points = Counter()
    for rec in recs:
        assert rec.params == {"players": "3"} and rec.termination == "normal", rec
        ranking = [int(x) for x in rec.result.split("-")]
        for name, p in zip(rec.players, place_points(ranking)):
            points[name] += p
    assert sum(points.values()) == pytest.approx(6 * 1.5)
    table = out[out.index("engine "):]
    for name in ("brs", "random1", "random2"):
        row = next(line.split() for line in table.splitlines() if line.startswith(name + " "))
        assert row[1] == "6" and float(row[2]) == pytest.approx(points[name], abs=0.005)
        assert sum(int(x) for x in row[4:7]) == 6
    assert "red" in table and "yellow" in table and "green" in table

    # --replay re-verifies them and sums the same points; a tampered result is caught.
    assert runner.main(["--replay", str(records)]) == 0
    replayed = capsys.readouterr().out
    assert "6 games, 0 with problems" in replayed and table.splitlines()[1] in replayed
    wrong = recs[0]
    wrong.result = "-".join(reversed(wrong.result.split("-"))) if wrong.result != "1-1-1" else "1-2-3"
    bad = tmp_path / "bad.txt"
    bad.write_text(to_text(wrong))
    out = io.StringIO()
    assert runner.replay(str(bad), out) == 1 and "the rules give" in out.getvalue()


def test_two_player_only_flags_are_refused_with_one_line(capsys):
    engines = ["--engine", f"{ZERMELO} name=a", "--engine", f"{ZERMELO} name=b", "--engine", f"{ZERMELO} name=c"]
    assert runner.main(["--game", "rolit", "--players", "3", "--depth", "1", "--sprt", "elo0=0", *engines]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--sprt" in err
    assert runner.main(["--game", "rolit", "--players", "3", "--depth", "1", *engines[:4]]) == 2
    assert "3 --engine" in capsys.readouterr().err
