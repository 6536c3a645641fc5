"""Monte-Carlo tree search across moves and processes (engine/mcts.py, engine/smp.py):
the tree kept from one search to the next when the position extends the last root,
nothing kept otherwise; ``Threads`` as root parallelism, the helpers' simulations
counted and merged, a helper's death survived."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from test_protocol import pipe, start  # noqa: F401 (fixture)
from test_threads import wait_helpers

import games
from engine.engine import Engine
from engine.mcts import MCTSSearcher
from engine.options import CORES
from engine.timeman import Limits

GO5 = games.load("go", size=5)


def search(searcher: MCTSSearcher, pos, line, nodes=300):
    searcher.line = line
    result = searcher.search(GO5, pos, Limits(nodes=nodes))
    assert result.nodes == nodes
    return result


def test_the_subtree_under_the_moves_played_is_kept():
    pos = GO5.new_position()
    searcher = MCTSSearcher(seed=3)
    first = search(searcher, pos, (None, []))
    assert searcher.reused == 0
    reply = first.pv[1]
    # The visits the tree holds under the two moves played become the new root's.
    f = searcher.first[0]
    child = next(i for i in range(f, f + searcher.count[0]) if searcher.move[i] == first.best)
    g = searcher.first[child]
    kept = next(searcher.visits[i] for i in range(g, g + searcher.count[child]) if searcher.move[i] == reply)
    texts = [pos.move_text(first.best)]
    pos.push(first.best)
    texts.append(pos.move_text(reply))
    pos.push(reply)
    before = pos.to_text()
    search(searcher, pos, (None, texts))
    assert searcher.reused == kept > 0
    assert searcher.visits[0] == kept + 300
    assert pos.to_text() == before, "the search left the position changed"
    # The same position again (an analysis, then a genmove): the whole tree.
    search(searcher, pos, (None, texts))
    assert searcher.reused == kept + 300


def test_a_position_that_does_not_extend_the_last_root_gets_a_new_tree():
    pos = GO5.new_position()
    searcher = MCTSSearcher(seed=3)
    first = search(searcher, pos, (None, []))
    pos.push(first.best)
    # Another start text, no line (a searcher used on its own), and searchmoves: new trees.
    search(searcher, pos, ("x " + pos.to_text(), []))
    assert searcher.reused == 0
    search(searcher, pos, None)
    assert searcher.reused == 0
    text = pos.move_text(first.best)
    pos.pop()
    search(searcher, pos, (None, []))
    pos.push(first.best)
    searcher.line = (None, [text])
    searcher.search(GO5, pos, Limits(nodes=50, searchmoves=pos.legal_moves()[:2]))
    assert searcher.reused == 0
    # forget() (ucinewgame, clear_board) drops the tree.
    pos.pop()
    search(searcher, pos, (None, []))
    searcher.forget()
    pos.push(first.best)
    search(searcher, pos, (None, [text]))
    assert searcher.reused == 0


def test_a_fresh_search_is_the_same_with_or_without_a_line():
    a, b = MCTSSearcher(seed=5), MCTSSearcher(seed=5)
    ra = search(a, GO5.new_position(), (None, []))
    rb = search(b, GO5.new_position(), None)
    assert (ra.pv, ra.score) == (rb.pv, rb.score) and a.visits == b.visits


def go(engine: Engine, nodes: int):
    done = threading.Event()
    answer: list[str | None] = []
    engine.go(Limits(nodes=nodes), lambda info, pv: None,
              lambda best, ponder: (answer.extend([best, ponder]), done.set()))
    assert done.wait(120)
    engine.wait()
    return answer


def test_the_engine_keeps_the_tree_between_moves_and_drops_it_for_a_new_game():
    engine = Engine(games)
    engine.set_option("UCI_Variant", "go")
    engine.set_option("go_size", "7")
    engine.set_option("Strategy", "mcts")
    engine.set_position(None, [])
    best, ponder = go(engine, 400)
    engine.set_position(None, [best, ponder])
    go(engine, 200)
    assert engine.searcher.reused > 0
    engine.new_game()
    engine.set_position(None, [best, ponder])
    go(engine, 200)
    assert engine.searcher.reused == 0


# -- Threads: root parallelism ----------------------------------------------------------

needs_two = pytest.mark.skipif(CORES < 2 or not hasattr(os, "memfd_create"),
                               reason="helpers need two cores and shareable memory")


@needs_two
def test_threads_2_adds_the_helpers_simulations_and_answers_a_legal_move():
    engine = Engine(games)
    engine.set_option("UCI_Variant", "go")
    engine.set_option("Threads", "2")
    engine.set_position(None, ["E5"])
    infos: list = []
    done = threading.Event()
    answer: list[str | None] = []
    # Long enough for the helper to start (it imports the engine) and search.
    engine.go(Limits(movetime=6000), lambda info, pv: infos.append(info),
              lambda best, ponder: (answer.append(best), done.set()))
    assert done.wait(120)
    engine.wait()
    pos = engine.position
    assert answer[0] in [pos.move_text(m) for m in pos.legal_moves()]
    searcher = engine.searcher
    assert isinstance(searcher, MCTSSearcher)
    assert infos[-1].nodes > searcher.nodes > 0, (infos[-1].nodes, searcher.nodes)
    # The helper's root simulations were added to the main worker's before it chose.
    assert searcher.reused == 0 and searcher.visits[0] > searcher.nodes
    engine.set_option("Threads", "1")


def test_root_stats_leave_the_priors_out_and_merge_adds_them():
    pos = GO5.new_position()
    a, b = MCTSSearcher(seed=1), MCTSSearcher(seed=2)
    search(a, pos, None, 200)
    search(b, pos, None, 200)
    stats = b.root_stats()
    assert sum(n for _, n, _ in stats) == 200
    by_text = {pos.move_text(m): m for m in a.root_moves}
    before = a.visits[0]
    line = a.merge({by_text[text]: (n, w) for text, n, w in stats})
    assert a.visits[0] == before + 200
    f = a.first[0]
    best = max(range(f, f + a.count[0]), key=lambda i: a.visits[i])
    assert line.pv[0] == a.move[best]


@needs_two
def test_a_monte_carlo_helper_that_dies_is_reported_and_the_server_plays_on(pipe):  # noqa: F811
    start(pipe, "go")
    pipe.send("setoption name Threads value 2", "isready")
    pipe.until("readyok$")
    (helper,) = wait_helpers(pipe.proc.pid, 1)
    pipe.send("position startpos", "go infinite")
    pipe.until("info depth 3 ")
    os.kill(helper, signal.SIGKILL)
    pipe.send("stop")
    assert pipe.until("bestmove ")[-1].split()[1] != "(none)"
    pipe.send("position startpos moves E5", "go movetime 1000")
    lines = pipe.until("bestmove ")
    assert "info string error: a Threads helper ended or stopped answering; a new one is started" in lines
    assert [p for p in wait_helpers(pipe.proc.pid, 1) if p != helper]
