"""Proof-number search against published values, simple rules and brute force."""

from __future__ import annotations

import chess
import pytest

import games
from engine.game import NO_MOVE
from engine.pns import ProofSearch, decide, find_mate, solve


def test_tictactoe_is_a_draw():
    game = games.load("tictactoe")
    pos = game.new_position()
    before = pos.to_text()
    s = solve(game, pos)
    assert s.value == 0 and s.move in pos.legal_moves()
    assert pos.to_text() == before


@pytest.mark.parametrize("coins", range(1, 11))
def test_misere_nim_take_two(coins):
    # Misère subtraction game {1, 2}: the side to move loses exactly when coins % 3 == 1.
    game = games.load("nim", heaps=(coins,), max_take=2, normal=False)
    s = solve(game, game.new_position())
    assert s.value == (-1 if coins % 3 == 1 else 1)


@pytest.mark.parametrize("empty_capture", [False, True])
def test_kalah_4_3_agrees_with_margin_solver(empty_capture):
    from games.kalah import solve_margin

    game = games.load("kalah", pits=4, seeds=3, empty_capture=empty_capture)
    pos = game.new_position()
    margin = solve_margin(pos)
    s = solve(game, pos)
    assert s.value == (margin > 0) - (margin < 0)
    assert s.move != NO_MOVE


def test_depth_first_and_dfpn_agree_on_tictactoe_positions():
    game = games.load("tictactoe")
    for line in ([], [4], [4, 0], [0, 4, 6], [1, 3, 5]):
        pos = game.new_position()
        for i in line:  # indices into the legal move list
            pos.push(pos.legal_moves()[i])
        for goal in ("win", "nonloss"):
            a = ProofSearch(game, pos.turn, goal).run(pos).proved
            b = ProofSearch(game, pos.turn, goal).run_depth_first(pos).proved
            assert a == b


def _mate_within(board: chess.Board, plies: int) -> bool:
    """Brute force: the side to move mates within ``plies`` plies (python-chess rules)."""
    if plies <= 0:
        return False
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if plies >= 3 and not board.is_game_over() and all(
                    _after(board, reply, plies - 2) for reply in board.legal_moves):
                return True
        finally:
            board.pop()
    return False


def _after(board: chess.Board, reply: chess.Move, plies: int) -> bool:
    board.push(reply)
    try:
        return _mate_within(board, plies)
    finally:
        board.pop()


@pytest.mark.parametrize("fen", [
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",            # back-rank mate in 1
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",                 # mate in 1 (Ra8)
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",                     # mate in 1
    "7k/8/5K2/8/8/8/8/6R1 w - - 0 1",                    # mate in 2
    "8/8/8/8/8/4k3/8/R3K3 w - - 0 1",                    # no mate in 2
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",  # Qxf7# in 1
])
def test_find_mate_matches_brute_force(fen):
    game = games.load("chess")
    pos = game.new_position(fen)
    board = chess.Board(fen)
    result = find_mate(game, pos, 2)
    assert pos.to_text() == board.fen()
    shortest = next((n for n in (1, 2) if _mate_within(board, 2 * n - 1)), None)
    if shortest is None:
        assert result.found is False
        return
    assert result.found and (result.plies + 1) // 2 == shortest
    # The line is legal and ends in mate.
    for text in (pos.move_text(m) for m in result.pv):
        board.push(chess.Move.from_uci(text))
    assert board.is_checkmate() and len(result.pv) == result.plies


def test_budget_gives_unknown_and_leaves_position():
    game = games.load("mnk", m=4, n=4, k=4)
    pos = game.new_position()
    before = pos.to_text()
    proof = decide(game, pos, 0, "win", max_nodes=3000)
    assert proof.proved is None
    assert pos.to_text() == before
