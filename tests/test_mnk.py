"""Tic-tac-toe and the m,n,k-game: the published counts and values, OpenSpiel's
mnk as an oracle, the textbook open-lines evaluation, threats."""

from __future__ import annotations

import random

import pytest

import games
from engine.game import EVAL_LIMIT, IllegalMoveError, InvalidPositionError
from engine.perft import count_games
from games.mnk import open_lines

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds


def mnk(m, n, k):
    return games.load("mnk", m=m, n=n, k=k)


def play(pos, moves: str):
    for text in moves.split():
        pos.push(pos.parse_move(text))
    return pos


def test_tictactoe_has_255168_complete_games():
    pos = games.load("tic-tac-toe").new_position()
    assert count_games(pos) == 255_168

    tally = {"x": 0, "o": 0, "draw": 0}

    def walk():
        if pos.outcome() is not None:
            # A win is reported to the loser, the side to move.
            tally[("x", "o")[pos.turn ^ 1] if pos.outcome() else "draw"] += 1
            return
        for m in pos.legal_moves():
            pos.push(m)
            walk()
            pos.pop()

    walk()
    assert tally == {"x": 131_184, "o": 77_904, "draw": 46_080}


def test_tictactoe_has_5478_legal_positions():
    pos = games.load("ttt").new_position()
    seen = set()

    def walk():
        text = pos.to_text()
        if text in seen:
            return
        seen.add(text)
        for m in pos.legal_moves():
            pos.push(m)
            walk()
            pos.pop()

    walk()
    assert len(seen) == 5478
    assert len({games.load("ttt").new_position(t).key for t in seen}) == 5478


def solve(pos, table: dict) -> int:
    """Game value (+1/0/-1) for the side to move, by exhaustive negamax."""
    if pos.outcome() is not None:
        return pos.outcome()
    if pos.key in table:
        return table[pos.key]
    best = -1
    for m in sorted(pos.legal_moves(), key=pos.move_score, reverse=True):
        pos.push(m)
        v = -solve(pos, table)
        pos.pop()
        if v > best:
            best = v
            if best == 1:
                break
    table[pos.key] = best
    return best


def test_tictactoe_is_a_draw():
    pos = games.load("tictactoe").new_position()
    assert solve(pos, {}) == 0
    # Textbook: after a corner, only the centre holds the draw for O.
    play(pos, "a1")
    for m in pos.legal_moves():
        pos.push(m)
        assert solve(pos, {}) == (0 if pos.move_text(m) == "b2" else 1)
        pos.pop()


def can_win(pos, attacker: int, table: dict) -> bool:
    """True if ``attacker`` can force a line. Pruned where the attacker has no
    open line left, and to the blocks where the defender must block."""
    result = pos.outcome()
    if result is not None:
        return result == -1 and pos.turn != attacker
    if not open_lines(pos, attacker):
        return False
    if pos.key in table:
        return table[pos.key]
    moves = sorted(pos.legal_moves(), key=pos.move_score, reverse=True)
    if pos.turn != attacker:
        moves = pos.noisy_moves() or moves
    won = pos.turn != attacker
    for m in moves:
        pos.push(m)
        w = can_win(pos, attacker, table)
        pos.pop()
        if w != won:
            won = w
            break
    table[pos.key] = won
    return won


def test_4x4_three_in_a_row_is_a_first_player_win():
    assert solve(mnk(4, 4, 3).new_position(), {}) == 1
    assert can_win(mnk(4, 4, 3).new_position(), 0, {})


def test_4x4_four_in_a_row_is_a_draw():
    pos = mnk(4, 4, 4).new_position()
    assert not can_win(pos, 0, {})
    assert not can_win(pos, 1, {})


def test_textbook_open_lines():
    # 4x4, k=4: O on the second cell of the top row, X on the second and third
    # cells of the second row. X can still complete 8 lines, O 5: X's value is 3.
    pos = mnk(4, 4, 4).new_position(".o../.xx./..../.... o")
    assert open_lines(pos, 0) == 8
    assert open_lines(pos, 1) == 5
    assert open_lines(pos, 0) - open_lines(pos, 1) == 3
    assert mnk(4, 4, 4).new_position().evaluate() == 0
    assert pos.evaluate() < 0  # O to move, behind


def test_evaluation_stays_inside_the_limit_for_long_lines():
    # k = 12: eleven stones of a line weigh 4**11, beyond the evaluation's range.
    g = mnk(19, 19, 12)
    rows = ["19"] * 15 + ["o18", "o1o1o1o1o1o1o1o1o1o", "19", "xxxxxxxxxxx8"]
    pos = g.new_position("/".join(rows) + " x")
    assert -EVAL_LIMIT < pos.evaluate() < EVAL_LIMIT
    pos.push(pos.parse_move("s5"))
    assert -EVAL_LIMIT < pos.evaluate() < EVAL_LIMIT


def test_incremental_evaluation_and_threats_match_a_fresh_position():
    g = mnk(7, 6, 4)
    rng = random.Random(5)
    for _ in range(20):
        pos = g.new_position()
        while pos.legal_moves():
            fresh = g.new_position(pos.to_text())
            assert pos.evaluate() == fresh.evaluate()
            assert pos.threats == fresh.threats
            pos.push(rng.choice(pos.legal_moves()))


@pytest.mark.parametrize("moves", [
    "a1 a2 b1 b2 c1 c2 d1 d2 e1",          # row
    "c3 d3 c4 d4 c5 d5 c6 d6 c7",          # column
    "a1 b1 b2 c2 c3 d3 d4 e4 e5",          # diagonal
    "o1 n1 n2 m2 m3 l3 l4 k4 k5",          # anti-diagonal at the right edge
    "a1 a2 b1 b2 d1 d2 e1 e2 f1 f2 c1",    # an overline also wins
])
def test_five_in_a_row_ends_gomoku(moves):
    pos = play(games.load("gomoku").new_position(), moves)
    assert pos.outcome() == -1 and pos.legal_moves() == []
    assert "x won" in pos.render()


def test_lines_never_wrap_across_the_edge():
    pos = play(games.load("gomoku").new_position(), "m1 a1 n1 a3 o1 a5 a2 a7")
    # x at m1 n1 o1 and a2: the cells after o1 in bit order are not on its row.
    assert pos.outcome() is None
    pos = play(mnk(4, 4, 3).new_position(), "d1 a1 a2 c2")
    assert pos.outcome() is None and not pos.noisy_moves()


def test_threats_are_noisy_and_must_be_answered():
    g = games.load("tictactoe")
    pos = g.new_position("x../.o./x.. o")
    assert [pos.move_text(m) for m in pos.noisy_moves()] == ["a2"]
    assert pos.in_check() and not pos.can_stand_pat()
    pos.push(pos.parse_move("a2"))
    # The block makes a threat of its own (a2 b2 c2) that X must answer.
    assert [pos.move_text(m) for m in pos.noisy_moves()] == ["c2"]
    pos = g.new_position("x../xo./..o x")
    # X wins at a1 at once: only the win is noisy, and X is not bound to block.
    assert [pos.move_text(m) for m in pos.noisy_moves()] == ["a1"]
    assert not pos.in_check() and pos.is_noisy(pos.parse_move("a1"))
    assert not pos.is_noisy(pos.parse_move("c3"))
    assert pos.move_score(pos.parse_move("a1")) > pos.move_score(pos.parse_move("c3"))


@pytest.mark.parametrize("m, n, k", [(7, 6, 4), (9, 9, 5), (3, 3, 3)])
def test_noisy_moves_are_exactly_the_wins_or_else_the_blocks(m, n, k):
    g = mnk(m, n, k)
    rng = random.Random(9)
    for _ in range(8):
        pos = g.new_position()
        while pos.legal_moves():
            mine, theirs = pos.stones[pos.turn], pos.stones[pos.turn ^ 1]

            def completes(stones, cell):
                return any((stones | 1 << cell) & line == line for line in g.lines)

            wins = [c for c in pos.legal_moves() if completes(mine, c)]
            blocks = [c for c in pos.legal_moves() if completes(theirs, c)]
            assert sorted(pos.noisy_moves()) == (wins or blocks)
            assert pos.in_check() == (not wins and bool(blocks))
            for c in wins:
                pos.push(c)
                assert pos.outcome() == -1
                pos.pop()
            pos.push(rng.choice(pos.legal_moves()))


def test_move_order_prefers_cells_near_stones():
    pos = play(games.load("gomoku").new_position(), "h8")
    scores = {pos.move_text(m): pos.move_score(m) for m in pos.legal_moves()}
    best = max(scores, key=scores.get)
    assert best in ("g7", "g8", "g9", "h7", "h9", "i7", "i8", "i9")
    assert scores["a1"] < scores["f6"] < scores["g7"]


def test_cells_and_texts():
    pos = games.load("ttt").new_position()
    assert pos.parse_move("1") == pos.parse_move("a3")
    assert pos.parse_move("9") == pos.parse_move("c1")
    assert pos.parse_move("B2") == pos.parse_move("5")
    play(pos, "b2")
    assert pos.to_text() == ".../.x./... o"
    for bad in ("b2", "d1", "a4", "0", "10", "a"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(bad)
    g = games.load("gomoku")
    assert g.new_position("15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o").to_text() == \
        play(g.new_position(), "h8").to_text()
    assert games.load("ttt").new_position("xxx/oo./... o").outcome() == -1
    for bad in (".../.../... o",         # O cannot move first
                "xxx/oo./o.. x",         # the side to move already has a line
                "..../.../... x", "... x", ".../.../... z"):
        with pytest.raises(InvalidPositionError):
            games.load("ttt").new_position(bad)


def test_parameters_are_validated():
    with pytest.raises(ValueError):
        mnk(2, 3, 3)
    with pytest.raises(ValueError):
        mnk(3, 3, 4)
    with pytest.raises(ValueError):
        mnk(20, 15, 5)
    assert mnk(3, 19, 5).new_position().legal_moves()


# -- OpenSpiel's mnk as an oracle ---------------------------------------------

@pytest.mark.parametrize("m, n, k", [(3, 3, 3), (5, 4, 4), (4, 6, 3), (7, 5, 5)])
def test_random_games_agree_with_open_spiel(m, n, k):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(f"mnk(m={m},n={n},k={k})")
    g = mnk(m, n, k)
    rng = random.Random(f"{m}{n}{k}")
    for _ in range(40):
        state = game.new_initial_state()
        pos = g.new_position()
        while True:
            assert pos.to_text().split()[0] == state.to_string().replace("\n", "/")
            assert (pos.outcome() is not None) == state.is_terminal()
            if state.is_terminal():
                break
            # OpenSpiel numbers cells row by row from the top-left: our 1..m*n.
            ours = sorted(pos.parse_move(str(a + 1)) for a in state.legal_actions())
            assert ours == sorted(pos.legal_moves())
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            pos.push(pos.parse_move(str(a + 1)))
        x_return = state.returns()[0]
        assert pos.outcome() == (x_return if pos.turn == 0 else -x_return)


@pytest.mark.parametrize("name, params", [("gomoku", {}), ("tictactoe", {}), ("mnk", dict(m=7, n=7, k=4))])
def test_bench_positions_are_valid(name, params):
    g = games.load(name, **params)
    for text in g.bench_texts:
        assert g.new_position(text).legal_moves()
