"""``zermelo --game G``: the server plays G from the start, for clients that cannot
choose a game by ``setoption`` (python-chess manages ``UCI_Variant`` itself).

python-chess plays chess and Chess960 through its own ``play``; its ``Board`` holds
no other game, so every other game is played through ``communicate`` with a small
command carrying the game's own move texts, as the README shows.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import pytest

import games

ROOT = Path(__file__).resolve().parent.parent


def popen(*args: str) -> chess.engine.SimpleEngine:
    return chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "protocol", *args], cwd=ROOT, timeout=60)


class Move(chess.engine.BaseCommand):
    """The server's move after ``moves`` in the game's own notation, ``None`` once the
    game is over (the README's recipe)."""

    def __init__(self, engine, moves: list[str], go: str = "go depth 2") -> None:
        super().__init__(engine)
        self.moves, self.go = moves, go

    def start(self, engine) -> None:
        engine.send_line(" ".join(["position startpos moves", *self.moves]))
        engine.send_line("query gameover")

    def line_received(self, engine, line: str) -> None:
        if line == "response true":
            self.result.set_result(None)
            self.set_finished()
        elif line == "response false":
            engine.send_line(self.go)
        elif line.startswith("bestmove "):
            self.result.set_result(line.split()[1])
            self.set_finished()


TWO_PLAYER = [name for name in games.names() if len(games.load(name).players) == 2]


@pytest.mark.parametrize("name", [name for name in TWO_PLAYER if name != "chess"])
def test_python_chess_plays_a_whole_game_of_every_game(name):
    engine = popen("--game", name)
    try:
        assert engine.options["UCI_Variant"].default == name
        pos = games.load(name).new_position(None)
        moves: list[str] = []
        while (move := engine.communicate(lambda protocol: Move(protocol, moves))) is not None:
            pos.push(pos.parse_move(move))  # legal in the game chosen, or this raises
            moves.append(move)
            assert len(moves) < 2000
        assert moves and (pos.outcome() is not None or not pos.legal_moves())
    finally:
        engine.quit()


@pytest.mark.parametrize("name", ["chess", "chess960"])
def test_python_chess_plays_chess_through_its_own_play(name):
    engine = popen("--game", name)
    board = chess.Board.from_chess960_pos(518) if name == "chess" else chess.Board.from_chess960_pos(0)
    board.chess960 = name == "chess960"
    try:
        assert engine.options["UCI_Chess960"].default == (name == "chess960")
        while not board.is_game_over(claim_draw=True):
            result = engine.play(board, chess.engine.Limit(depth=1))
            assert result.move in board.legal_moves
            board.push(result.move)
        assert board.outcome(claim_draw=True) is not None
    finally:
        engine.quit()


def test_game_parameters_are_the_defaults_the_handshake_shows():
    engine = popen("--game", "connect4", "-p", "width=9", "--param", "height=5")
    try:
        assert engine.options["connect4_width"].default == 9
        assert engine.options["connect4_height"].default == 5
        assert engine.options["connect4_connect"].default == 4
        pos = games.load("connect4", width=9, height=5).new_position(None)
        assert "9" in [pos.move_text(m) for m in pos.legal_moves()]
        moves: list[str] = []
        while (move := engine.communicate(lambda protocol: Move(protocol, moves, "go depth 1"))) is not None:
            pos.push(pos.parse_move(move))
            moves.append(move)
        assert pos.outcome() is not None or not pos.legal_moves()
    finally:
        engine.quit()


@pytest.mark.parametrize("args, reason", [
    (["--game", "frob"], "unknown game 'frob'"),
    (["--game", "nim", "-p", "size=3"], "nim has no parameter 'size'; its parameters: heaps, max_take, normal"),
    (["--game", "connect4", "-p", "width=99"], "connect4_width: 99 is out of range 4..10"),
    (["--game", "kalah", "-p", "pits"], "expected NAME=VALUE"),
    (["-p", "width=9"], "--game"),
])
def test_a_bad_start_flag_is_a_usage_error(args, reason):
    proc = subprocess.run([sys.executable, "-m", "protocol", *args], cwd=ROOT, capture_output=True, text=True,
                          input="uci\n", timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert reason in proc.stderr and "Traceback" not in proc.stderr
