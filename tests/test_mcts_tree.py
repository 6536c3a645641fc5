"""Monte-Carlo tree search across moves (engine/mcts.py): the tree kept from one search
to the next when the position extends the last root, and nothing kept otherwise."""

from __future__ import annotations

import threading

import games
from engine.engine import Engine
from engine.mcts import MCTSSearcher
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
