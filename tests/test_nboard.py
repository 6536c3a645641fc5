"""NBoard protocol conformance of ``zermelo nboard`` over real pipes, from the protocol's
description (Chris Welty's NBoard, as Edax serves it): ``nboard`` answered with ``set
myname``, ``set depth``/``set game``/``set contempt``/``move`` silent, ``ping N`` answered
``pong N`` after every earlier command, ``go`` answered ``=== MOVE/EVAL/TIME`` between
``status`` lines, ``hint N`` with N ``search`` lines, errors on standard error with the
state kept, and an endgame's exact disc difference as the evaluation."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import games
from games.reversi import endgame as rv
from protocol.server.nboard import NboardError, parse_ggf

pytestmark = pytest.mark.both_builds

REPO = Path(__file__).resolve().parents[1]
#: Generous: the machine may be loaded; no test measures time.
TIMEOUT = 60.0
START = "---------------------------O*------*O--------------------------- *"
#: Twelve empties, Black to move (FFO #1 after its best g8 h7): solved exactly at the root.
ENDGAME = "--XXXXX--OOOXX-O-OOOXXOO-OXOOOXOOXXXOOXO--XOXOOO-XXXOOOO-OOOOOX- X"


def ggf(board: str, moves: str = "", clock: str = "") -> str:
    board_text = board[:64].replace("X", "*") + " " + board[-1].replace("X", "*")
    return f"(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]{clock}TY[8]BO[8 {board_text}]{moves};)"


class Nboard:
    """An NBoard engine process: lines in, lines out."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "protocol", "nboard", "--movetime", "200"], cwd=REPO,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.stdin, stdout, stderr = self.proc.stdin, self.proc.stdout, self.proc.stderr
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.err: list[bytes] = []
        threading.Thread(target=self._pump, args=(stdout,), daemon=True).start()
        threading.Thread(target=lambda: self.err.append(stderr.read()), daemon=True).start()

    def _pump(self, stdout) -> None:
        for raw in stdout:
            self.lines.put(raw.decode())
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        self.stdin.write("".join(line + "\n" for line in lines).encode())
        self.stdin.flush()

    def until_pong(self, n: int) -> list[str]:
        """Every line up to ``pong n`` (sent now), which must come last."""
        self.send(f"ping {n}")
        out: list[str] = []
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            assert line is not None and line.endswith("\n"), line
            if line == f"pong {n}\n":
                return out
            assert not line.startswith("pong"), (line, out)
            out.append(line[:-1])

    def close(self) -> int:
        """Quit; the exit status (standard error is then complete in ``err``)."""
        self.send("quit")
        self.stdin.close()
        return self.proc.wait(TIMEOUT)


@pytest.fixture
def nb():
    engine = Nboard()
    yield engine
    if engine.proc.poll() is None:
        engine.proc.kill()
        engine.proc.wait()


def test_session(nb):
    game = games.load("reversi")
    nb.send("nboard 2")
    assert nb.until_pong(1) == ["set myname zermelo"]
    nb.send("set depth 4", "set contempt 0", "set game " + ggf(START, "B[F5//1.2]W[d6/-0.5/0.8]"))
    assert nb.until_pong(2) == []
    nb.send("go")
    out = nb.until_pong(3)
    assert out[0] == "status thinking" and out[-1] == "status" and out[1].startswith("nodestats ")
    m = re.fullmatch(r"=== ([a-h][1-8])/(-?[0-9]+\.[0-9]{2})/([0-9]+\.[0-9])", out[-2])
    assert m, out
    pos = game.new_position()
    for text in ("f5", "d6"):
        pos.push(pos.parse_move(text))
    # go leaves the game as it was: the GUI sends the move back.
    assert pos.parse_move(m.group(1)) in pos.legal_moves()
    nb.send(f"move {m.group(1)}/{m.group(2)}/{m.group(3)}")
    pos.push(pos.parse_move(m.group(1)))
    nb.send("hint 3")
    out = nb.until_pong(4)
    searches = [line.split() for line in out if line.startswith("search ")]
    assert out[0] == "status thinking" and out[-1] == "status" and len(searches) == 3, out
    firsts = {words[1][:2] for words in searches}
    assert len(firsts) == 3 and all(pos.parse_move(f) in pos.legal_moves() for f in firsts)
    assert all(words[3] == "0" and float(words[2]) == float(words[2]) for words in searches)
    nb.send("learn")
    assert nb.until_pong(5) == ["status learning", "status"]
    assert nb.close() == 0


def test_bad_input_keeps_the_game(nb):
    nb.send("nboard 2", "set game " + ggf(START, "B[f5]"))
    nb.send("move a1", "move zz", "set game (;GM[Chess];)", "set game nonsense", "set depth 99",
            "frobnicate", "hint x")
    assert nb.until_pong(1) == ["set myname zermelo"]
    nb.send("set depth 2", "go")
    out = nb.until_pong(2)
    move = out[-2].split()[1].split("/")[0]
    pos = games.load("reversi").new_position()
    pos.push(pos.parse_move("f5"))
    assert pos.parse_move(move) in pos.legal_moves()
    nb.close()
    for _ in range(100):
        if nb.err:
            break
        threading.Event().wait(0.05)
    errors = b"".join(nb.err).decode()
    for word in ("a1", "zz", "chess", "nonsense", "99", "frobnicate", "hint"):
        assert word in errors, (word, errors)


def test_exact_endgame_eval(nb):
    game = games.load("reversi")
    pos = game.new_position(ENDGAME)
    score, move = rv.Solver().best(pos.own, pos.opp)
    nb.send("nboard 2", "set game " + ggf(ENDGAME, clock="TI[5:00]"), "go")
    out = nb.until_pong(1)
    m = re.fullmatch(r"=== ([a-h][1-8])/(-?[0-9.]+)/[0-9.]+", out[-2])
    assert m, out
    assert float(m.group(2)) == score
    pos.push(pos.parse_move(m.group(1)))
    assert -rv.Solver().solve(pos.own, pos.opp) == score
    nb.send("hint 1")
    words = nb.until_pong(2)[-2].split()
    assert words[0] == "search" and float(words[2]) == score
    nb.close()


def test_a_pass_in_the_game_record():
    # White has no move after these: the record says so with PA.
    board = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO-- X"
    parsed = parse_ggf(ggf(board, "B[h8]W[PA]"))
    assert [m for _, m, _ in parsed.moves] == ["h8", "pass"]
    with pytest.raises(NboardError):
        parse_ggf("(;GM[Othello]BO[10 ----];)")
