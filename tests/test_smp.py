"""Lazy SMP's answer: the move chosen among every worker's last completed iteration,
and the nodes of every worker counted in the reports."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from test_protocol import Pipe, pipe, start  # noqa: F401 (fixture)

import games
from engine.driver import Info
from engine.engine import Engine
from engine.options import CORES
from engine.smp import _Worker, parse_line, pick
from engine.timeman import Limits

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

needs_two = pytest.mark.skipif(CORES < 2 or not hasattr(os, "memfd_create"),
                               reason="helpers need two cores and shareable memory")


def test_the_deepest_iteration_is_picked_and_the_main_worker_wins_ties():
    main = (9, 30, [1, 2])
    assert pick([main, (11, -5, [3]), (10, 80, [4])], vote=False) == 1
    assert pick([main, (9, 90, [3])], vote=False) == 0
    assert pick([main], vote=False) == 0


def test_votes_weigh_scores_by_depth_and_a_proven_win_stays_picked():
    # Two workers agree on move 7 at depth 10: their votes outweigh one deeper worker's move 3.
    assert pick([(10, 20, [7]), (10, 25, [7, 1]), (12, 30, [3])], vote=True) == 1
    assert pick([(10, 20, [7]), (14, 30, [3])], vote=True) == 1
    win = 1_000_000 - 21
    # The shortest mate wins whatever the votes; a proven loss is never preferred.
    assert pick([(10, win - 4, [5]), (10, 20, [7]), (10, 20, [7]), (6, win, [2])], vote=True) == 3
    assert pick([(10, 20, [7]), (14, -win, [3])], vote=True) == 0


def test_a_helper_line_is_read_as_legal_moves_on_the_root():
    pos = games.load("chess").new_position(None)
    moves = parse_line(pos, ["e2e4", "e7e5", "e1e3", "g1f3"])
    assert [pos.move_text(m) for m in moves[:1]] == ["e2e4"] and len(moves) == 2
    assert parse_line(pos, ["zz", "e7e5"]) == []
    assert pos.to_text() == games.load("chess").new_position(None).to_text()


class StubHelpers:
    """In place of the helper processes: a fixed last iteration and node count."""

    registry = "games"

    def __init__(self, result: tuple[int, int, list[str]], nodes: int) -> None:
        self.result, self.count = result, nodes
        self.errors: list[str] = []
        self.started: list[dict[str, Any]] = []

    def __len__(self) -> int:
        return 1

    def ready(self, table: Any) -> None:
        pass

    def start(self, go: dict[str, Any]) -> None:
        self.started.append(go)

    def stop(self) -> None:
        pass

    def settle(self) -> None:
        pass

    def poll(self) -> int:
        return self.count

    def finish(self, wait: float = 0.0) -> list[tuple[int, int, list[str]]]:
        return [self.result]


def run_go(engine: Engine, limits: Limits) -> tuple[list[Info], tuple[str | None, str | None]]:
    infos: list[Info] = []
    texts: list[list[str]] = []
    answer: list[tuple[str | None, str | None]] = []
    done = threading.Event()

    def on_info(info: Info, pv: list[str]) -> None:
        infos.append(info)
        texts.append(pv)

    def on_bestmove(move: str | None, ponder: str | None) -> None:
        answer.append((move, ponder))
        done.set()

    engine.go(limits, on_info, on_bestmove)
    assert done.wait(60)
    engine.wait(10)
    assert len(answer) == 1
    return infos, answer[0]


def chess_engine() -> Engine:
    engine = Engine(games)
    engine.set_option("UCI_Variant", "chess")
    engine.set_position(None, ["e2e4", "e7e5"])
    return engine


def test_a_deeper_helper_iteration_is_the_one_played():
    engine = chess_engine()
    stub = StubHelpers((40, 123, ["a2a3", "a7a6", "b2b3"]), 5000)
    engine._helpers = stub
    infos, (move, ponder) = run_go(engine, Limits(movetime=150))
    assert (move, ponder) == ("a2a3", "a7a6")
    last = infos[-1]
    assert (last.depth, last.score, last.bound) == (40, 123, None)
    assert last.nodes == engine.searcher.nodes + 5000
    assert all(info.nodes > 5000 for info in infos)
    # A go depth keeps the main worker's answer (its depth is the helpers' too); the nodes are every worker's.
    infos, (move, _) = run_go(engine, Limits(depth=3))
    assert move != "a2a3" and infos[-1].depth == 3
    assert infos[-1].nodes == engine.searcher.nodes + 5000


def test_a_helper_line_that_is_not_legal_is_not_played():
    engine = chess_engine()
    engine._helpers = StubHelpers((40, 123, ["e2e4", "a7a6"]), 10)
    infos, (move, _) = run_go(engine, Limits(movetime=100))
    assert move != "e2e4" and infos[-1].depth < 40
    engine.set_position(None, ["e2e4", "e7e5"])
    engine._helpers = StubHelpers((40, 123, ["a2a3"]), 10)
    # Outside the searchmoves: not played.
    limits = Limits(movetime=100, searchmoves=[engine.position.parse_move("d2d4")])
    infos, (move, _) = run_go(engine, limits)
    assert move == "d2d4"


@needs_two
def test_the_final_report_counts_the_helpers_nodes():
    engine = chess_engine()
    try:
        engine.set_option("Threads", "2")
        # A first go lets the new helper process import the engine (seconds on a loaded
        # machine), so that it searches, and reports, during the go measured.
        run_go(engine, Limits(depth=6))
        infos, (move, _) = run_go(engine, Limits(depth=8))
        assert move is not None
        assert infos[-1].depth == 8
        assert infos[-1].nodes > engine.searcher.nodes
        assert infos[-1].nps == infos[-1].nodes * 1000 // max(infos[-1].time_ms, 1)
    finally:
        engine.set_option("Threads", "1")


@needs_two
def test_threads_2_answers_one_legal_bestmove_following_its_last_report(pipe):  # noqa: F811
    start(pipe, "chess")
    pipe.send("setoption name Threads value 2", "isready")
    pipe.until("readyok$")
    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
    for ply in range(len(moves) + 1):
        pipe.send(f"position startpos moves {' '.join(moves[:ply])}", "go movetime 150")
        lines = pipe.until("bestmove ")
        pos = games.load("chess").new_position(None)
        for text in moves[:ply]:
            pos.push(pos.parse_move(text))
        best = lines[-1].split()[1]
        assert pos.parse_move(best) in pos.legal_moves()
        infos = [line.split() for line in lines if line.startswith("info depth")]
        assert infos[-1][infos[-1].index("pv") + 1] == best
        nodes = [int(info[info.index("nodes") + 1]) for info in infos]
        assert nodes == sorted(nodes)
    pipe.send("go depth 6")
    lines = pipe.until("bestmove ")
    assert pipe.quiet(0.3) == []
    assert [line for line in lines if line.startswith("bestmove")] == [lines[-1]]


def test_a_helper_replays_the_chess960_position_the_server_searches():
    # UCI_Chess960 is left out of the parameters' dumps: the helper must still be told it.
    engine = Engine(games)
    engine.set_option("UCI_Chess960", "true")
    engine.set_position("nbrkbrqn/ppp1pppp/8/3p4/8/8/PPPPPPPP/NBKRBRQN w kq - 0 2", [])
    stub = StubHelpers((1, 0, []), 0)
    engine._helpers = stub
    run_go(engine, Limits(depth=2))
    (go,) = stub.started
    worker = _Worker()
    game = worker.load(go["registry"], go["variant"], go["params"])
    assert worker.position(game, go["root"], go["moves"]).key == go["key"]


@needs_two
def test_threads_2_searches_chess960_with_its_helper(pipe):  # noqa: F811
    start(pipe, "chess")
    pipe.send("setoption name Threads value 2", "setoption name UCI_Chess960 value true",
              "position fen nbrkbrqn/ppp1pppp/8/3p4/8/8/PPPPPPPP/NBKRBRQN w kq - 0 2")
    for _ in range(3):
        pipe.send("go movetime 200")
        lines = pipe.until("bestmove ")
        assert [line for line in lines if "error" in line] == []
