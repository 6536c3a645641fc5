"""The chapters' evaluations as a game parameter (eval=textbook): open lines for
tic-tac-toe and m,n,k, (men difference) + 3 × (kings difference) for draughts."""

from __future__ import annotations

import subprocess
import sys
from itertools import product

import pytest

import games
from protocol.explain_cli import main as explain


def _open_lines(rows: list[str], k: int) -> tuple[int, int]:
    """The oracle: every k-in-a-row line of the board with no stone of the other player."""
    n, m = len(rows), len(rows[0])
    cells = lambda r, c, dr, dc: [(r + i * dr, c + i * dc) for i in range(k)]
    counts = [0, 0]
    for r, c, (dr, dc) in product(range(n), range(m), ((0, 1), (1, 0), (1, 1), (1, -1))):
        line = cells(r, c, dr, dc)
        if not all(0 <= a < n and 0 <= b < m for a, b in line):
            continue
        stones = {rows[a][b] for a, b in line}
        counts[0] += "o" not in stones
        counts[1] += "x" not in stones
    return counts[0], counts[1]


def test_open_lines_example_is_8_minus_5():
    """Fig. 3a of the chapters on a 4×4 board: E(P) = 8 − 5 = 3 for X."""
    game = games.load("mnk", m=4, n=4, k=4, eval="textbook")
    pos = game.new_position(".o../.xx./..../.... o")
    assert _open_lines([".o..", ".xx.", "....", "...."], 4) == (8, 5)
    # evaluate() is the side to move's (O's) view.
    assert pos.evaluate() == -3
    engine = games.load("mnk", m=4, n=4, k=4).new_position(".o../.xx./..../.... o")
    assert engine.evaluate() != -3


@pytest.mark.parametrize("text", [".../.../... x", "x../.o./... x", "xo./.x./... o", "x.o/.x./..o x"])
def test_tictactoe_textbook_eval_against_the_oracle(text):
    game = games.load("tictactoe", eval="textbook")
    pos = game.new_position(text)
    rows = text.split()[0].split("/")
    x, o = _open_lines(rows, 3)
    assert pos.evaluate() == (x - o if pos.turn == 0 else o - x)
    # Kept through moves (the incremental score) and their undoing.
    for move in pos.legal_moves():
        pos.push(move)
        if pos.outcome() is None:
            after = pos.to_text().split()[0].split("/")
            x2, o2 = _open_lines(after, 3)
            assert pos.evaluate() == (x2 - o2 if pos.turn == 0 else o2 - x2)
        pos.pop()
    assert pos.evaluate() == (x - o if pos.turn == 0 else o - x)


def test_explain_shows_the_textbook_count(capsys):
    assert explain(["mnk", "-p", "m=4", "-p", "n=4", "-p", "k=4", "-p", "eval=textbook",
                    "--fen", ".o../.xx./..../.... o", "--no-moves"]) == 0
    out = capsys.readouterr().out
    assert "textbook E(P)" in out and "x - o = 8 - 5 = 3" in out and "evaluation for o (to move): -3" in out


@pytest.mark.parametrize("name, fen, men, kings", [
    ("checkers", "B:W29,31,K32:B1,2,3,K9,K10", 1, 1),
    ("checkers", "W:W29,31,K32:B1,2,3,K9,K10", -1, -1),
    ("shashki", "W:Wa1,c1,Ke3:Bb8,d8,Kf6,Kh8", 0, -1),
])
def test_draughts_men_plus_three_kings(name, fen, men, kings):
    game = games.load(name, eval="textbook")
    pos = game.new_position(fen)
    assert pos.evaluate() == game.man_value * (men + 3 * kings)
    terms = game.eval_terms(pos)
    assert sum(v for _, v, _ in terms) == pos.evaluate()


def test_tree_searches_with_the_textbook_eval(capsys):
    from protocol.tree_cli import main as tree
    # The centre keeps 4 lines open for X and leaves O 4 after any reply: one ply
    # deep every first move's value is X's open lines minus O's after it.
    assert tree(["tictactoe", "-p", "eval=textbook", "--depth", "1", "--algorithm", "minimax"]) == 0
    out = capsys.readouterr().out
    assert "value: 4 for x; best move: b2" in out


def _server(commands: list[str]) -> list[str]:
    run = subprocess.run([sys.executable, "-m", "protocol"], input="\n".join(commands) + "\n",
                         capture_output=True, text=True, timeout=120)
    return run.stdout.splitlines()


def test_server_option_sets_the_textbook_eval():
    """Over pipes: checkers_eval is a combo option; the score of a quiet position
    at depth 1 is 3 men against 2 and 2 kings against 1: (1 + 3 × 1) men = cp 400
    (the engine's own evaluation says otherwise)."""
    position = "position fen B:W29,31,K32:B1,2,3,K9,K10"
    lines = _server(["uci", "setoption name UCI_Variant value checkers", "setoption name checkers_eval value textbook",
                     position, "go depth 1", "isready", "quit"])
    assert "option name checkers_eval type combo default engine var engine var textbook" in lines
    scores = [l.split("score cp ")[1].split()[0] for l in lines if " score cp " in l]
    assert scores and scores[-1] == "400"
    lines = _server(["uci", "setoption name UCI_Variant value checkers", position, "go depth 1", "isready", "quit"])
    scores = [l.split("score cp ")[1].split()[0] for l in lines if " score cp " in l]
    assert scores and scores[-1] != "400"


def test_server_refuses_a_bad_eval_value_in_one_line():
    lines = _server(["uci", "setoption name UCI_Variant value tictactoe", "setoption name tictactoe_eval value best",
                     "isready", "quit"])
    before = lines[lines.index("uciok") + 1:lines.index("readyok")]
    assert len(before) == 1 and before[0].startswith("info string error: ") and "tictactoe_eval" in before[0]


def test_a_book_serves_every_evaluation_of_its_game():
    """The evaluation parameter is no rule: the shipped book of the game is its book under
    either evaluation, and a change of rules still refuses it."""
    from engine import book as bk
    from engine.game import rule_params

    game = games.load("checkers", eval="textbook")
    assert "eval" not in rule_params(game.params)
    path = bk.default_book_path(games.load("checkers"))
    assert path is not None
    book = bk.open_book(path)
    book.check_game(game)
    with pytest.raises(bk.BookError, match="parameters"):
        book.check_game(games.load("checkers", draw_moves=30, eval="textbook"))
