"""Go at the terminal (``zermelo play go``): game parameters by ``-p``, the board with
GTP's coordinates, moves typed as GTP vertices or ``pass``, and ``save FILE.sgf``
writing SGF that sgfmill reads back; over a pipe, as the line mode reads moves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sgfmill import common, sgf

REPO = Path(__file__).resolve().parents[1]


def play(*argv: str, lines: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", "play", *argv], cwd=REPO, text=True,
                          input="".join(line + "\n" for line in lines), capture_output=True, timeout=300)


def test_go_on_nine_by_nine_with_vertices_pass_and_sgf(tmp_path):
    saved = tmp_path / "game.sgf"
    proc = play("go", "-p", "size=9", "--human", "both",
                lines=["e5", "D4", "C3", "pass", "pass", f"save {saved}", "quit"])
    assert proc.returncode == 0, proc.stderr
    assert "   A  B  C  D  E  F  G  H  J" in proc.stdout and "\n9  " in proc.stdout
    assert "game over" in proc.stdout
    tree = sgf.Sgf_game.from_bytes(saved.read_bytes())
    root = tree.get_root()
    assert tree.get_size() == 9 and root.get("KM") == 7.5
    moves = [(node.get_move()[0], node.get_move()[1]) for node in tree.get_main_sequence()[1:]]
    texts = [(colour, "pass" if move is None else common.format_vertex(move)) for colour, move in moves]
    assert texts == [("b", "E5"), ("w", "D4"), ("b", "C3"), ("w", "pass"), ("b", "pass")]
    # Black: E5 and C3 with the empty points only they reach; White: D4. Komi 7.5.
    assert root.get("RE").startswith(("B+", "W+"))


def test_board_size_and_komi_parameters(tmp_path):
    saved = tmp_path / "small.sgf"
    proc = play("go", "-p", "size=5", "-p", "komi=0.5", "--human", "both",
                lines=["c3", f"save {saved}", "quit"])
    assert proc.returncode == 0, proc.stderr
    assert "   A  B  C  D  E" in proc.stdout and "   A  B  C  D  E  F" not in proc.stdout
    tree = sgf.Sgf_game.from_bytes(saved.read_bytes())
    assert tree.get_size() == 5 and tree.get_root().get("KM") == 0.5
    assert tree.get_root().get("RE") == "?"


def test_an_illegal_vertex_is_refused_and_the_game_goes_on(tmp_path):
    saved = tmp_path / "game.sgf"
    proc = play("go", "-p", "size=9", "--human", "both",
                lines=["e5", "e5", "z99", "d4", f"save {saved}", "quit"])
    assert proc.returncode == 0, proc.stderr
    assert "the point is taken" in proc.stdout
    tree = sgf.Sgf_game.from_bytes(saved.read_bytes())
    assert len(tree.get_main_sequence()) == 3


def test_sgf_is_refused_for_other_games(tmp_path):
    proc = play("tictactoe", "--human", "both", lines=["b2", f"save {tmp_path / 'x.sgf'}", "quit"])
    assert proc.returncode == 0
    assert "SGF holds Go games" in proc.stdout and not (tmp_path / "x.sgf").exists()
