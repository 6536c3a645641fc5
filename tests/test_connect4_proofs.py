"""Connect Four is a first-player win: the ordinary search proves it, with the exact
distance, from known positions a few plies from the start.

``4455`` (+18 for the side to move, the first player) and ``44455554221`` (-15) are
the published examples of Pons' scale (REFERENCE.md). The other positions, 6 and 8
plies from the start, were found by random play; their distances are confirmed by
OpenSpiel's ``connect_four`` with a depth-limited alpha-beta (a win within the
distance, none two plies sooner; ``scripts/connect4_proofs.py`` checks them all, this
test the two quick ones) and, here, by :func:`games.connect4.solve`.
"""

from __future__ import annotations

import pytest

import games
from engine.game import mate_plies
from engine.search import Searcher
from engine.timeman import Limits
from games.connect4 import solve

#: (columns played, Pons score for the side to move or None, plies to the end with best play).
KNOWN = [
    ("4455", 18, 3),
    ("44455554221", -15, 2),
    ("565463", None, 11),
    ("343265", None, 13),
    ("45532254", None, 11),
    ("45624362", None, 9),
    ("52245542", None, 5),
    ("36352366", None, 9),
]


def pons_plies(game, pos, score: int) -> int:
    """Plies from ``pos`` to the end of the game from Pons' score (the winning disc's number)."""
    d = game.cells + 2 - 2 * abs(score)
    # The side to move places the discs of its parity from here; the winner is the
    # mover when the score is positive.
    mover_parity = (pos.moves + 1) % 2
    if (d % 2 == mover_parity) != (score > 0):
        d -= 1
    return d - pos.moves


@pytest.mark.parametrize("text,published,plies", KNOWN)
def test_search_proves_the_first_player_win(text, published, plies):
    game = games.load("connect4")
    pos = game.new_position(text)
    exact = solve(pos)
    if published is not None:
        assert exact == published
    assert exact != 0 and pons_plies(game, pos, exact) == plies
    # Whoever wins, it is the first player (the side to move after an even number of discs).
    assert (exact > 0) == (pos.moves % 2 == 0)
    result = Searcher(hash_mb=16).search(game, pos, Limits(depth=plies + 2))
    assert mate_plies(result.score) == (plies if exact > 0 else -plies)
    # The move played keeps the exact result.
    pos.push(result.best)
    after = solve(pos) if pos.outcome() is None else None
    pos.pop()
    assert after is None or (after < 0) == (exact > 0)


@pytest.mark.parametrize("text,plies", [("52245542", 5), ("36352366", 9)])
def test_distances_agree_with_openspiel(text, plies):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    osg = pyspiel.load_game("connect_four")
    state = osg.new_initial_state()
    for ch in text:
        state.apply_action(int(ch) - 1)
    player = state.current_player()

    def value(depth):
        v, _ = alpha_beta_search(osg, state.clone(), value_function=lambda s: 0.0,
                                 maximum_depth=depth, maximizing_player_id=player)
        return v

    assert value(plies) == 1.0 and value(plies - 2) == 0.0
