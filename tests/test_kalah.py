"""Kalah: sowing, extra turns, both capture rules, the end sweep, OpenSpiel's
mancala as an oracle, and the published values of the small games."""

from __future__ import annotations

import random

import pytest

import games
from engine.game import IllegalMoveError, InvalidPositionError
from engine.perft import perft
from games.kalah import solve_margin

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

START = "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1"


def kalah(**params):
    return games.load("kalah", **params)


def test_start_position_and_moves():
    g = games.load("mancala")
    pos = g.new_position()
    assert pos.to_text() == START
    assert pos.legal_moves() == [1, 2, 3, 4, 5, 6]
    assert g.new_position(START).key == pos.key
    assert [pos.move_text(m) for m in pos.legal_moves()] == ["1", "2", "3", "4", "5", "6"]
    for bad in ("0", "7", "x", "1:1"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(bad)


def test_last_seed_in_store_gives_an_extra_turn():
    pos = kalah().new_position()
    pos.push(pos.parse_move("3"))  # 4 seeds from pit 3: pits 4, 5, 6 and the store
    assert pos.to_text() == "4,4,0,5,5,5,1/4,4,4,4,4,4,0 1"
    assert pos.turn == 0
    pos.push(pos.parse_move("6"))  # 5 seeds: the store, then north's pits 1-4
    assert pos.to_text() == "4,4,0,5,5,0,2/5,5,5,5,4,4,0 2"
    pos.pop()
    pos.pop()
    assert pos.to_text() == START


def test_north_sows_into_its_own_store_and_skips_south_store():
    pos = kalah().new_position("4,4,4,4,4,4,0/3,3,3,3,3,9,0 2")
    pos.push(6)  # 9 seeds: north's store, south's six pits, (skip south's store), north's pits 1-2
    assert pos.to_text() == "5,5,5,5,5,5,0/4,4,3,3,3,0,1 1"


@pytest.mark.parametrize("empty_capture", [False, True])
def test_capture_takes_the_opposite_pit(empty_capture):
    g = kalah(empty_capture=empty_capture)
    # South's pit 2 is empty, facing north's pit 5 (3 seeds).
    pos = g.new_position("1,0,5,5,5,5,3/4,4,4,4,3,4,1 1")
    assert pos.is_noisy(1) and 1 in pos.noisy_moves()
    pos.push(1)
    assert pos.to_text() == "0,0,5,5,5,5,7/4,4,4,4,0,4,1 2"


@pytest.mark.parametrize("empty_capture, expected", [
    (False, "0,1,5,5,5,5,3/4,4,4,4,0,4,4 2"),
    (True, "0,0,5,5,5,5,4/4,4,4,4,0,4,4 2"),
])
def test_capture_facing_an_empty_pit_depends_on_the_rule(empty_capture, expected):
    pos = kalah(empty_capture=empty_capture).new_position("1,0,5,5,5,5,3/4,4,4,4,0,4,4 1")
    assert pos.is_noisy(1) == empty_capture
    pos.push(1)
    assert pos.to_text() == expected


def test_a_full_lap_captures_in_the_start_pit():
    # 13 seeds from pit 1 go round once and end in the emptied pit 1, whose
    # opposite pit got a seed on the way: 1 + (2 + 1) seeds are captured.
    pos = kalah().new_position("13,1,1,1,1,1,0/1,1,1,1,1,2,23 1")
    assert pos.move_score(1) == 100 + 4
    pos.push(1)
    assert pos.to_text() == "0,2,2,2,2,2,5/2,2,2,2,2,0,23 2"


def test_emptying_a_side_ends_the_game_and_sweeps_the_other():
    pos = kalah().new_position("0,0,0,0,0,1,20/1,2,0,0,3,0,21 1")
    pos.push(6)  # the last seed goes to the store: south's pits are empty
    assert pos.to_text() == "0,0,0,0,0,0,21/0,0,0,0,0,0,27 1"
    assert pos.legal_moves() == []
    assert pos.outcome() == -1 and pos.no_moves_value() == -1
    pos.pop()
    assert pos.outcome() is None
    # The opponent's side running empty ends the game too.
    pos = kalah().new_position("0,0,3,0,0,2,20/0,0,0,0,0,1,22 2")
    pos.push(6)
    assert pos.to_text() == "0,0,0,0,0,0,25/0,0,0,0,0,0,23 2"
    assert pos.outcome() == -1


def test_position_text_is_validated():
    g = kalah()
    for bad in ("4,4,4,4,4,4,0/4,4,4,4,4,4,1 1",   # 49 seeds
                "4,4,4,4,4,4,0/4,4,4,4,4,4,0 3",
                "4,4,4,4,4,4/4,4,4,4,4,4,8 1",
                "4,4,4,4,4,-4,8/4,4,4,4,4,4,0 1"):
        with pytest.raises(InvalidPositionError):
            g.new_position(bad)
    assert "south to move" in g.new_position().render()


def _mirror(text: str) -> str:
    rows, side = text.split()
    south, north = rows.split("/")
    return f"{north}/{south} {3 - int(side)}"


@pytest.mark.parametrize("params", [dict(), dict(pits=4, seeds=3, empty_capture=True), dict(pits=3, seeds=6)])
def test_north_plays_by_the_same_rules_as_south(params):
    g = kalah(**params)
    rng = random.Random(7)
    for _ in range(30):
        pos = g.new_position()
        while pos.legal_moves():
            mirrored = g.new_position(_mirror(pos.to_text()))
            assert mirrored.legal_moves() == pos.legal_moves()
            assert mirrored.evaluate() == pos.evaluate()
            assert [mirrored.move_score(m) for m in pos.legal_moves()] == [
                pos.move_score(m) for m in pos.legal_moves()]
            m = rng.choice(pos.legal_moves())
            pos.push(m)
            mirrored.push(m)
            assert mirrored.to_text() == _mirror(pos.to_text())


@pytest.mark.parametrize("params", [dict(), dict(pits=3, seeds=6), dict(empty_capture=True)])
def test_move_scores_predict_extra_turns_and_captures(params):
    g = kalah(**params)
    p = g.pits
    rng = random.Random(3)
    for _ in range(30):
        pos = g.new_position()
        while pos.legal_moves():
            for m in pos.legal_moves():
                us = pos.turn
                store = p if us == 0 else 2 * p + 1
                seeds = pos.board[m - 1 if us == 0 else p + m]
                before = pos.board[store]
                # Seeds that reach the own store while sowing: one per lap past it.
                sown = (m - 1 + seeds - p) // (2 * p + 1) + 1 if m - 1 + seeds >= p else 0
                pos.push(m)
                ended = not pos.legal_moves()
                captured = pos.board[store] - before - sown
                extra = pos.turn == us
                pos.pop()
                if ended:
                    continue
                score = pos.move_score(m)
                assert extra == (score >= 1000)
                assert captured == (score - 100 if 100 <= score < 1000 else 0)
                assert pos.is_noisy(m) == (extra or captured > 0)
            pos.push(rng.choice(pos.legal_moves()))


# -- OpenSpiel's mancala (Kalah(6,4), standard capture) as an oracle ------------

def _spiel_text(state) -> str:
    # OpenSpiel: [north store, south pits 1-6, south store, north pits 1-6].
    b = [int(x) for x in state.observation_tensor(0)[:14]]
    south = b[1:8]
    north = b[8:14] + [b[0]]
    return f"{','.join(map(str, south))}/{','.join(map(str, north))} {state.current_player() + 1}"


def test_random_games_agree_with_open_spiel():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("mancala")
    g = kalah()
    rng = random.Random(11)
    for _ in range(100):
        state = game.new_initial_state()
        pos = g.new_position()
        while not state.is_terminal():
            assert pos.to_text() == _spiel_text(state)
            actions = state.legal_actions()
            ours = [m if pos.turn == 0 else 7 + m for m in pos.legal_moves()]
            assert sorted(ours) == actions
            a = rng.choice(actions)
            state.apply_action(a)
            pos.push(a if a < 7 else a - 7)
        assert pos.legal_moves() == []
        south_return = state.returns()[0]
        assert pos.outcome() == (south_return if pos.turn == 0 else -south_return)


def _spiel_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += _spiel_perft(child, depth - 1)
    return total


def test_perft_agrees_with_open_spiel():
    pyspiel = pytest.importorskip("pyspiel")
    state = pyspiel.load_game("mancala").new_initial_state()
    pos = kalah().new_position()
    for depth in range(1, 6):
        assert perft(pos, depth) == _spiel_perft(state, depth)


# -- published values (store difference for the first player, best play) -------

@pytest.mark.parametrize("pits, seeds, standard, empty", [
    (3, 3, 2, 2),
    (3, 4, 2, 2),
    (4, 2, 6, 6),
    (4, 3, 6, 8),
    (5, 2, 2, 0),
    (6, 1, 2, 2),
])
def test_solved_values(pits, seeds, standard, empty):
    for empty_capture, value in ((False, standard), (True, empty)):
        pos = kalah(pits=pits, seeds=seeds, empty_capture=empty_capture).new_position()
        assert solve_margin(pos) == value
        assert pos.to_text() == pos.game.new_position().to_text()


def test_solve_margin_counts_the_stores_already_won():
    g = kalah(pits=3, seeds=3)
    # North to move with no seeds left on north's side is over: south sweeps 3.
    pos = g.new_position("1,0,2,7/0,0,0,8 2")
    assert pos.outcome() == -1
    assert solve_margin(pos) == 8 - 10
    # South's only move puts its last seed in the store: north sweeps its seed.
    pos = g.new_position("0,0,1,7/1,0,0,9 1")
    assert solve_margin(pos) == 8 - 10


def test_bench_positions_are_valid():
    for g in (kalah(), kalah(pits=4, seeds=3)):
        for text in g.bench_texts:
            assert g.new_position(text).legal_moves()
