"""The N-player search (engine/multiplayer.py) against hand-checked trees and brute force.

The brute-force searches below are the definitions, written plainly: no pruning,
no table, moves in ``legal_moves()`` order, ties to the first move. The search
with its move ordering and table off must give the same value and move; with
them on, the same value (and, where no ties exist, the same move).
"""

from __future__ import annotations

import random
import threading
import time

import pytest
from pydantic import BaseModel

from engine.game import WIN
from engine.multiplayer import MultiplayerSearcher, VectorInfo
from engine.timeman import Limits
from tests.multiplayer_toys import TakeAway, TreeGame

INF = WIN + 1


def run(game, pos, algorithm, depth=None, *, ordering=True, pruning=True, limits=None, searcher=None):
    """Search; returns (result, last info)."""
    searcher = searcher or MultiplayerSearcher(1, algorithm)
    searcher.algorithm, searcher.ordering, searcher.pruning = algorithm, ordering, pruning
    infos: list[VectorInfo] = []
    result = searcher.search(game, pos, limits or Limits(depth=depth), on_info=infos.append)
    return result, infos[-1]


# -- brute force ---------------------------------------------------------------

def brute_maxn(pos, depth):
    result = pos.result()
    if result is not None:
        return result, None
    if depth == 0:
        return pos.values(), None
    best, best_move, me = None, None, pos.turn
    for m in pos.legal_moves():
        pos.push(m)
        v, _ = brute_maxn(pos, depth - 1)
        pos.pop()
        if best is None or v[me] > best[me]:
            best, best_move = v, m
    return best, best_move


def scalar(v, who):
    return v[who] - max(v[:who] + v[who + 1:])


def final(result, root, ply):
    d = scalar(result, root)
    return WIN - ply if d > 0 else -WIN + ply if d < 0 else 0


def best_of(pos, children, maximising):
    """(value, move) of the first best child; ``children`` yields (move, value)."""
    best = best_move = None
    for m, v in children:
        if best is None or (v > best if maximising else v < best):
            best, best_move = v, m
    return best, best_move


def child(pos, m, f, *args):
    pos.push(m)
    v = f(pos, *args)
    pos.pop()
    return v


def brute_paranoid(pos, depth, root, ply=0):
    result = pos.result()
    if result is not None:
        return final(result, root, ply), None
    if depth == 0:
        return scalar(pos.values(), root), None
    return best_of(pos, ((m, child(pos, m, brute_paranoid, depth - 1, root, ply + 1)[0])
                         for m in pos.legal_moves()), pos.turn == root)


def fixed_move(pos):
    """An opponent's fixed move in BRS: best for its own scalar after one ply."""
    me, best, move = pos.turn, None, None
    for m in pos.legal_moves():
        pos.push(m)
        v = scalar(pos.result() or pos.values(), me)
        pos.pop()
        if best is None or v > best:
            best, move = v, m
    return move


def brute_brs(pos, depth, root, ply=0):
    """Root player to move (or the game over): a MAX layer."""
    result = pos.result()
    if result is not None:
        return final(result, root, ply), None
    if depth == 0:
        return scalar(pos.values(), root), None
    return best_of(pos, ((m, child(pos, m, brs_after_root, depth - 1, root, ply + 1))
                         for m in pos.legal_moves()), True)


def brs_after_root(pos, depth, root, ply):
    if pos.turn == root or pos.result() is not None:
        return brute_brs(pos, depth, root, ply)[0]
    if depth == 0:
        return scalar(pos.values(), root)
    return brs_segment(pos, depth, root, ply, False)


def brs_segment(pos, depth, root, ply, branched):
    """An opponent segment: exactly one opponent branches, the others play their fixed move."""
    result = pos.result()
    if result is not None:
        return final(result, root, ply)
    if pos.turn == root:
        return brute_brs(pos, depth - 1, root, ply)[0] if branched else INF
    options = [(m, True) for m in pos.legal_moves()] if not branched else []
    options.append((fixed_move(pos), branched))
    return min(child(pos, m, brs_segment, depth, root, ply + 1, b) for m, b in options)


BRUTE = {"maxn": lambda pos, d: brute_maxn(pos, d),
         "paranoid": lambda pos, d: brute_paranoid(pos, d, pos.turn),
         "brs": lambda pos, d: brute_brs(pos, d, pos.turn)}


# -- the textbook example and a hand-checked tree ---------------------------------

A, B, C = 0, 1, 2


def test_textbook_node_x_backs_up_1_2_6():
    # Node X, player C to move, between <1,2,6> and <4,2,3>: C takes 6 over 3.
    game = TreeGame((C, [[1, 2, 6], [4, 2, 3]]), value_sum=10)
    result, info = run(game, game.new_position(), "maxn", 1)
    assert info.vector == (1, 2, 6)
    assert result.best == 0


#: Hand-checked, S = 10. Root A: e (B) over X (C: <1,2,6> | <4,2,3> -> <1,2,6>) and
#: Y (C: <0,0,10> | <5,4,1> -> <0,0,10>): B takes X's 2, e = <1,2,6>. b (B): <6,3,1>
#: (3 > 2). c (B): <2,5,3> (5 > 1). d (C): <3,1,6> (6 > 2 > 1). A takes b's 6.
#: Pruning: in Y, C's 10 = S ends the node (immediate); in c, B's 5 leaves A at
#: most 10 - 5 = 5 <= 6 (shallow, <8,1,1> unseen); in d, C's 6 leaves A at most 4
#: (<9,0,1> unseen). f (B): <7,3,0> leaves A at most 7 > 6, so B's <6,4,0> is
#: searched, and taken (4 > 3): A's 6 does not beat b's, the first found.
KORF_TREE = (A, [
    (B, [(C, [[1, 2, 6], [4, 2, 3]]), (C, [[0, 0, 10], [5, 4, 1]])]),
    (B, [[6, 3, 1], [7, 2, 1]]),
    (B, [[2, 5, 3], [8, 1, 1]]),
    (C, [[7, 1, 2], [3, 1, 6], [9, 0, 1]]),
    (B, [[7, 3, 0], [6, 4, 0]]),
])
PRUNED_LEAVES = {(0, 1, 1), (2, 1), (3, 2)}


@pytest.mark.parametrize("pruning", [True, False])
def test_hand_checked_tree_and_its_pruned_leaves(pruning):
    game = TreeGame(KORF_TREE, value_sum=10)
    pos = game.new_position()
    searcher = MultiplayerSearcher(1, "maxn")
    searcher.ordering, searcher.pruning = False, pruning
    infos = []
    result = searcher.search(game, pos, Limits(depth=3), on_info=infos.append)
    assert infos[-1].vector == (6, 3, 1) and result.best == 1 and result.pv == [1, 0]
    assert set(pos.visited) & PRUNED_LEAVES == (set() if pruning else PRUNED_LEAVES)


def test_hand_checked_tree_paranoid():
    # Every leaf is final: A's scalar is a win only in b, where both leaves give A first place.
    game = TreeGame(KORF_TREE, value_sum=10)
    result, info = run(game, game.new_position(), "paranoid", 3, ordering=False)
    assert (result.best, result.score, info.vector) == (1, WIN - 2, (6, 3, 1))


# -- brute force on random positions -------------------------------------------------

def random_takeaway(rng: random.Random):
    game = TakeAway(players=rng.choice((3, 3, 4)), seed=rng.randrange(1 << 30), max_take=rng.choice((2, 3)))
    pos = game.new_position(f"{rng.randrange(1, 14)} {rng.randrange(len(game.players))}")
    return game, pos, rng.randrange(1, 6)


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_plain_search_equals_brute_force(algorithm):
    """In legal-move order without the table: value and move equal brute force
    on 1500 random take-away positions (3 and 4 players, depths 1-5, game ends included)."""
    rng = random.Random(14 + len(algorithm))
    searcher = MultiplayerSearcher(1, algorithm)
    for _ in range(1500):
        game, pos, depth = random_takeaway(rng)
        value, move = BRUTE[algorithm](pos, depth)
        result, info = run(game, pos, algorithm, depth, ordering=False, searcher=searcher)
        got = list(info.vector) if algorithm == "maxn" else result.score
        assert (got, result.best) == (value, move), (pos.to_text(), game.seed, len(game.players), depth)


def test_shallow_pruning_visits_fewer_nodes_for_the_same_result():
    rng = random.Random(7)
    pruned = plain = 0
    for _ in range(300):
        game, pos, depth = random_takeaway(rng)
        depth += 2
        with_pruning, info1 = run(game, pos, "maxn", depth, ordering=False)
        without, info2 = run(game, pos, "maxn", depth, ordering=False, pruning=False)
        assert (info1.vector, with_pruning.best) == (info2.vector, without.best)
        pruned, plain = pruned + with_pruning.nodes, plain + without.nodes
    assert pruned < plain


def random_tree(rng: random.Random, n: int, height: int, pool: list[list[int]]):
    """A random tree; every node carries a vector of ``pool`` (entries distinct per
    player across the tree, so no two nodes tie for anyone)."""
    vector = pool.pop()
    if height == 0 or rng.random() < 0.15:
        return vector
    children = [random_tree(rng, n, height - 1, pool) for _ in range(rng.randint(1, 3))]
    return (rng.randrange(n), children, vector)


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_ordered_search_with_table_equals_brute_force(algorithm):
    """Table, killers and history on, on random trees cut by a depth: the same value,
    and a move that reaches it (the very move where nothing ties)."""
    rng = random.Random(99)
    searcher = MultiplayerSearcher(1, algorithm)
    for trial in range(400):
        n = rng.choice((3, 4))
        size = 200
        columns = [rng.sample(range(0, 1000 // n), size) for _ in range(n)]
        pool = [list(row) for row in zip(*columns)]
        tree = random_tree(rng, n, 5, pool)
        if not isinstance(tree, tuple):
            continue
        game = TreeGame(tree, players=n, value_sum=1000, seed=trial)
        pos = game.new_position()
        depth = rng.randint(1, 4)
        value, move = BRUTE[algorithm](pos, depth)
        result, info = run(game, pos, algorithm, depth, searcher=searcher)
        if algorithm == "maxn":
            assert (list(info.vector), result.best) == (value, move)
        else:
            # Equal scalars may tie: the move played must reach the value.
            assert result.score == value
            root = pos.turn
            pos.push(result.best)
            after = (brute_paranoid(pos, depth - 1, root, 1)[0] if algorithm == "paranoid"
                     else brs_after_root(pos, depth - 1, root, 1))
            pos.pop()
            assert after == value


# -- iterative deepening, time and stop ------------------------------------------------

@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_movetime_returns_a_legal_move_in_time(algorithm):
    game = TakeAway(players=3, seed=5, max_take=4)
    pos = game.new_position("200 0")
    started = time.perf_counter()
    result, info = run(game, pos, algorithm, limits=Limits(movetime=300))
    assert time.perf_counter() - started < 3
    assert result.best in pos.legal_moves() and info.depth >= 1 and len(info.vector) == 3
    assert pos.to_text() == "200 0"


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_stop_ends_an_infinite_search_promptly(algorithm):
    game = TakeAway(players=3, seed=6, max_take=4)
    pos = game.new_position("200 1")
    searcher = MultiplayerSearcher(1, algorithm)
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("r", searcher.search(
        game, pos, Limits(infinite=True))))
    thread.start()
    time.sleep(0.3)
    searcher.stop()
    thread.join(2)
    assert not thread.is_alive()
    assert out["r"].best in pos.legal_moves() and pos.to_text() == "200 1"


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_a_node_limit_ends_inside_an_iteration_with_a_legal_move(algorithm):
    game = TakeAway(players=4, seed=8, max_take=4)
    pos = game.new_position("120 2")
    for nodes in (1, 50, 700):
        result, info = run(game, pos, algorithm, limits=Limits(nodes=nodes, searchmoves=[1, 3]))
        assert result.best in (1, 3) and result.nodes <= nodes and len(info.vector) == 4
        assert pos.to_text() == "120 2" and pos.key == pos.compute_key()
