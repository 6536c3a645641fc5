"""The baseline engine of ``scripts/``: protocol, legal play, and a search that
agrees with plain minimax (players as max/min, no negation) on Kalah extra turns."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import games

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import baseline_engine  # noqa: E402


def _engine():
    return subprocess.Popen([sys.executable, str(ROOT / "scripts" / "baseline_engine.py")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def _ask(proc, command: str, until: str) -> list[str]:
    proc.stdin.write(command + "\n")
    lines = []
    while True:
        line = proc.stdout.readline()
        assert line, f"engine closed its output after {command!r}"
        lines.append(line.strip())
        if line.startswith(until):
            return lines


@pytest.mark.parametrize("name", ["kalah", "connect4", "reversi", "checkers"])
def test_plays_a_legal_game_over_uci(name):
    game = games.load(name)
    proc = _engine()
    try:
        assert _ask(proc, "uci", "uciok")[-1] == "uciok"
        proc.stdin.write(f"setoption name UCI_Variant value {name}\n")
        _ask(proc, "isready", "readyok")
        pos, played = game.new_position(), []
        while pos.outcome() is None and pos.legal_moves() and len(played) < 40:
            cmd = "position startpos" + (" moves " + " ".join(played) if played else "")
            proc.stdin.write(cmd + "\n")
            words = _ask(proc, "go depth 2", "bestmove")[-1].split()
            move = pos.parse_move(words[1])
            assert move in pos.legal_moves()
            pos.push(move)
            played.append(words[1])
        if pos.outcome() is not None or not pos.legal_moves():
            proc.stdin.write(f"position startpos moves {' '.join(played)}\n")
            assert _ask(proc, "go movetime 50", "bestmove")[-1] == "bestmove (none)"
        proc.stdin.write("quit\n")
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()
        proc.wait()


def test_movetime_is_respected():
    proc = _engine()
    try:
        _ask(proc, "uci", "uciok")
        proc.stdin.write("setoption name UCI_Variant value reversi\nposition startpos\n")
        lines = _ask(proc, "go movetime 200", "bestmove")
        times = [int(w.split()[w.split().index("time") + 1]) for w in lines if w.startswith("info")]
        assert times and max(times) < 200
        assert lines[-1].split()[1] in ("d3", "c4", "f5", "e6")
    finally:
        proc.kill()
        proc.wait()


def _minimax(pos, depth, evaluate_for_first, ply=0):
    """Value for player 0 by plain max/min over whoever is to move."""
    result = pos.outcome()
    moves = pos.legal_moves()
    if result is None and not moves:
        result = pos.no_moves_value()
    if result is not None:
        v = result * (baseline_engine.WIN - ply)
        return v if pos.turn == 0 else -v
    if depth == 0:
        return evaluate_for_first(pos)
    values = []
    for m in moves:
        pos.push(m)
        values.append(_minimax(pos, depth - 1, evaluate_for_first, ply + 1))
        pos.pop()
    return max(values) if pos.turn == 0 else min(values)


@pytest.mark.parametrize("seed", range(6))
def test_alpha_beta_equals_minimax_with_extra_turns(seed):
    game = games.load("kalah", pits=4, seeds=3)
    rng = random.Random(seed)
    pos = game.new_position()
    for _ in range(rng.randrange(0, 8)):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            break
        pos.push(rng.choice(moves))
    if pos.outcome() is not None or not pos.legal_moves():
        pytest.skip("random walk ended the game")
    b, p = pos.board, game.pits

    def stores_for_first(q):
        return q.board[p] - q.board[2 * p + 1]

    before = list(b)
    search = baseline_engine.Baseline(game)
    for depth in (1, 3, 5):
        value, _ = search._root(pos, pos.legal_moves(), depth)
        expected = _minimax(pos, depth, stores_for_first)
        assert value == (expected if pos.turn == 0 else -expected)
    assert pos.board == before
