"""``zermelo solve``: the published values of small games from their start positions."""

from __future__ import annotations

import pytest

from protocol.solve_cli import main


@pytest.mark.parametrize("argv, value, extra", [
    (["tictactoe"], "value: draw", "first move: "),
    (["nim"], "value: loss for first (win for second)", "first move: none"),
    (["kalah", "-p", "pits=4", "-p", "seeds=3"], "value: win for south", "margin: +6 seeds"),
    (["kalah", "-p", "pits=4", "-p", "seeds=3", "-p", "empty_capture=true"], "value: win for south",
     "margin: +8 seeds"),
])
def test_start_positions(argv, value, extra, capsys):
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert value in out and extra in out and "proof: " in out


def _negamax(pos) -> int:
    """Plain minimax over the whole tic-tac-toe tree: the independent oracle."""
    result = pos.outcome()
    if result is not None:
        return result
    moves = pos.legal_moves()
    if not moves:
        return pos.no_moves_value()
    best = -1
    for m in moves:
        pos.push(m)
        best = max(best, -_negamax(pos))
        pos.pop()
    return best


@pytest.mark.parametrize("line", ["a1 b1 a2", "b2 a1", "a1", "b2 a2 c3"])
def test_positions_agree_with_minimax(line, capsys):
    import games

    pos = games.load("tictactoe").new_position()
    for text in line.split():
        pos.push(pos.parse_move(text))
    expected = {1: "value: win", 0: "value: draw", -1: "value: loss"}[_negamax(pos)]
    assert main(["tictactoe", "--moves", line, "--budget", "100000"]) == 0
    assert expected in capsys.readouterr().out


def test_budget_exhausted(capsys):
    assert main(["mnk", "-p", "m=4", "-p", "n=4", "-p", "k=4", "--budget", "2000"]) == 1
    assert "unknown" in capsys.readouterr().out


def test_bad_game(capsys):
    assert main(["nosuchgame"]) == 2
