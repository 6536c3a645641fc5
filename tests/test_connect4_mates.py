"""Connect Four mates at their exact distance.

Once a win is proven, only a shorter one can raise alpha, and a move searched
reduced (late-move reduction, internal iterative reduction) or pruned fails low
without showing it: the search then gives every move its full depth, so that a
``go depth`` past the game's end reports the shortest mate, and a mate an
iteration proved is never given up for a slower one. The exact distances are
Pons' scores of the simple solver (:mod:`tests.connect4_simple`), pinned here
because it takes seconds a position; the fast solver is checked against them.
"""

from __future__ import annotations

import re

import pytest

import games
from engine.game import mate_plies
from engine.search import Searcher
from engine.timeman import Limits
from games.connect4 import solve
from tests.test_connect4_proofs import pons_plies
from tests.test_protocol import bestmove, infos, pipe, start  # noqa: F401  (the fixture)

#: Iterations past the last empty cell: the search proves these results with this margin.
MARGIN = 2

#: (columns played, Pons score for the side to move): positions 19-21 plies from
#: the start reached by random play that neither wins nor lets the opponent win at
#: once. With a 1 MB table, the search alone reported the first two as slower
#: mates (19 and 23 plies) at this margin, the third (21 plies) at margins 0 and 1.
POSITIONS = [
    ("722116445413665444553", 3),
    ("1464344435553316116", 2),
    ("75115521533466577252", 2),
    ("163724544177264164577", -3),
    ("327753255124225261711", -1),
    ("125254676755236675756", -2),
    ("414572271744624457771", 2),
    ("267614212212366345145", 4),
]


@pytest.fixture(scope="module")
def game():
    return games.load("connect4")


def exact_plies(game, text: str, score: int) -> int:
    """Signed plies to the end with best play (+ when the side to move wins)."""
    plies = pons_plies(game, game.new_position(text), score)
    return plies if score > 0 else -plies


@pytest.mark.parametrize("text,score", POSITIONS)
def test_the_search_alone_finds_the_shortest_mate(game, text, score):
    pos = game.new_position(text)
    assert solve(pos) == score
    result = Searcher(hash_mb=1).search(game, pos, Limits(depth=game.cells - pos.moves + MARGIN))
    assert mate_plies(result.score) == exact_plies(game, text, score)


def test_the_shortest_mate_over_the_protocol(game, pipe):
    """A loss 22 plies away (Pons -3), searched with the exact solver behind the search
    and a 1 MB table: once reported as mate -12 (24 plies)."""
    text = "535244514511545"
    assert solve(game.new_position(text)) == -3 and exact_plies(game, text, -3) == -22
    start(pipe, "connect4")
    pipe.send("setoption name Hash value 1", "position startpos moves " + " ".join(text))
    pipe.ready()
    pipe.send(f"go depth {game.cells - len(text)}")
    lines = pipe.until("bestmove", timeout=300)
    mates = [int(m.group(1)) for line in infos(lines) if " bound" not in line
             for m in [re.search(r" score mate (-?\d+)", line)] if m]
    assert mates[-1] == -11
    # A loss proven to come within n moves comes no later in a deeper iteration.
    assert all(later >= earlier for earlier, later in zip(mates, mates[1:]) if earlier < 0)
    assert bestmove(lines) in "1234567"
