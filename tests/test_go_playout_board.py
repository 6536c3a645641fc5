"""The playout board (``games/go/playout.py``): its board, groups, ataris and ko kept
move for move in step with the position's own rules, the same playouts from the same
seed in both builds (pinned), the 3×3 shapes, the Monte-Carlo search's use of it, and
the dead stones judged from the playouts' ownership."""

from __future__ import annotations

import random

import pytest

import games
from engine.mcts import MCTSSearcher
from engine.timeman import Limits
from games.go.ownership import dead_stones, final_score_by_ownership, final_status, ownership, score_text
from games.go.playout import PATTERNS, Playout, pattern_table

pytestmark = pytest.mark.both_builds


def liberties(pos, p):
    """The group of the stone on ``p`` and its liberties, by flood fill."""
    board, s = pos.board, pos.stride
    group, libs, stack = {p}, set(), [p]
    while stack:
        x = stack.pop()
        for y in (x + 1, x - 1, x + s, x - s):
            if board[y] == 0:
                libs.add(y)
            elif board[y] == board[p] and y not in group:
                group.add(y)
                stack.append(y)
    return group, libs


@pytest.mark.parametrize("size", [5, 9])
def test_the_board_keeps_step_with_the_position(size):
    game = games.load("go", size=size, ko="simple")
    board = Playout(size, size)
    rng = random.Random(size)
    for _ in range(4):
        pos = game.new_position()
        board.load(pos.board, 0, 0, 0)
        for _ in range(3 * size * size):
            legal = set(pos.legal_moves())
            for m in range(game.pass_move):
                p = game.points[m]
                if pos.board[p] == 0:
                    assert board.legal(p) == (m in legal), (pos.to_text(), m)
            plays = sorted(legal - {game.pass_move})
            if not plays:
                break
            m = rng.choice(plays)
            pos.push(m)
            board.play(game.points[m])
            assert list(board.board) == pos.board
            assert board.ko == pos.ko
            for p in game.points:
                if pos.board[p]:
                    group, libs = liberties(pos, p)
                    head = board.head[p]
                    assert board.gsize[head] == len(group)
                    assert (board.libs[head] > 0 and board.libs[head] * board.lsq[head]
                            == board.lsum[head] ** 2) == (len(libs) == 1)
            assert sorted(board.empties[i] for i in range(board.nempty)) == \
                [p for p in game.points if pos.board[p] == 0]


#: (board, heavy, seed) -> (Black's area less White's, twice; plies): the same in both builds.
PINNED = {(9, False, 1): (34, 105), (9, True, 1): (10, 100), (13, True, 5): (94, 225), (19, False, 3): (66, 429)}


@pytest.mark.parametrize("key", sorted(PINNED), ids=str)
def test_playouts_are_the_same_in_both_builds(key):
    size, heavy, seed = key
    game = games.load("go", size=size)
    board = game.playout_board()
    board.load(game.new_position().board, 0, 0, 0)
    assert (board.run(seed, heavy), board.nmoves) == PINNED[key]


def test_a_playout_ends_with_only_eyes_and_dame_empty():
    game = games.load("go", size=9)
    pos = game.new_position()
    board = game.playout_board()
    for seed in range(1, 20):
        board.load(pos.board, 0, 0, 0)
        board.run(seed, seed % 2 == 0)
        assert board.passes == 2
        for i in range(board.nempty):
            p = board.empties[i]
            # Every empty point left is unplayable for the side to move, or an eye of its own.
            around = {board.board[p + d] for d in (1, -1, 10, -10)} - {3}
            assert not board.legal(p) or around == {board.turn + 1}


def test_the_shapes_come_in_all_symmetries_and_colours():
    table = pattern_table()
    assert len(PATTERNS) == 13
    # Hane ("XOX" over an empty row), with X Black (1) and O White (2), rows from the top;
    # its mirror, and its colours swapped.
    ring = [1, 2, 1, 0, 0, 3, 3, 3]
    assert table[sum(v << (2 * i) for i, v in enumerate(ring))]
    swapped = [{1: 2, 2: 1}.get(v, v) for v in ring]
    assert table[sum(v << (2 * i) for i, v in enumerate(swapped))]
    upside_down = ring[5:] + ring[3:5] + ring[:3]
    assert table[sum(v << (2 * i) for i, v in enumerate(upside_down))]
    assert not table[0]  # an empty neighbourhood is no shape
    assert 0 < sum(table) < len(table) // 4


def test_the_search_plays_out_on_the_board_and_repeats_from_a_seed():
    game = games.load("go", size=9)
    results = []
    for _ in range(2):
        searcher = MCTSSearcher(seed=3)
        searcher.rave = True
        results.append(searcher.search(game, game.new_position(), Limits(nodes=400)))
    assert results[0].best == results[1].best and results[0].pv == results[1].pv


def test_the_position_playout_scores_with_komi_for_the_side_to_move():
    game = games.load("go", size=5, komi=0.5)
    # Black owns the whole board, with four eyes: Black wins whoever moves.
    pos = game.new_position("xxxxx/x.x.x/xxxxx/x.x.x/xxxxx x")
    assert pos.playout(1, None, True) == 1
    pos = game.new_position("xxxxx/x.x.x/xxxxx/x.x.x/xxxxx o")
    played: list = []
    assert pos.playout(1, played, False) == -1
    assert played == []  # no play but into an eye, and passes are not recorded


def test_dead_stones_are_found_by_ownership():
    game = games.load("go", size=9, komi=7)
    # A finished game: Black's A-E columns, White's F-I, each side's stones with eyes; a
    # white stone dead in a three-point eye of Black's (B7), a black one in White's (G3).
    rows = ["x.x.xo.o.", "xxxxxoooo", "xo..xo..o", "xxxxxoooo", "x.x.xo.o.",
            "xxxxxoooo", "x.x.xox.o", "xxxxxoooo", "x.x.xo.o."]
    pos = game.new_position("/".join(rows) + " x - 0")
    owner = ownership(pos, 200)
    dead = dead_stones(pos, owner)
    assert sorted(pos.point_text(p) for p in dead) == ["B7", "G3"]
    status = final_status(pos, owner)
    assert len(status["alive"]) == sum(r.count("x") + r.count("o") for r in rows) - 2 and not status["seki"]
    # Black's 5 columns against White's 4, komi 7: 45 to 36, B+2.
    assert final_score_by_ownership(pos, owner) == 2 * (45 - 36) - 14
    assert score_text(final_score_by_ownership(pos, owner)) == "B+2"
