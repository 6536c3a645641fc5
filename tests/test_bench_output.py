"""``zermelo bench`` times the search alone: the set-up (positions, fresh tables and
the first touch of their memory, a warm-up search) is its own line, and touching
a table's memory keeps what it holds, so the signatures stay those pinned."""

from __future__ import annotations

import pytest

import games
from engine.bench import bench
from engine.tt import EXACT, TranspositionTable
from protocol.tools import bench_main

pytestmark = pytest.mark.both_builds


def test_touching_the_table_keeps_its_entries():
    tt = TranspositionTable(1)
    tt.store(0x1234, 7, 3, EXACT, 42)
    tt.prefault()
    assert tt.probe(0x1234)[1:5] == (7, 3, 0, 42)
    assert tt.probe(0x4321) is None and tt.hashfull() == 0


def test_the_set_up_is_timed_apart_and_printed_on_its_own_line(capsys):
    game = games.load("tictactoe")
    result = bench(game, game.bench_texts, 7)
    assert result.nodes == 3_757 and result.search_seconds > 0 and result.setup_seconds > 0
    assert bench_main(["--game", "tictactoe"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "Positions", "Evaluation", "Depth", "Nodes searched", "Search time", "Nodes/second", "Set-up, not timed"]
    assert "Nodes searched: 3757" in lines
