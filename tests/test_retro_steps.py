"""Retrograde analysis shown step by step (the chapters' labels 0, −1, 2, −3, …), the
naive index beside the symmetric one, and Brudno's KQK with the white king fixed on c3
checked against an independent solver over python-chess's moves."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import chess
import numpy as np

from engine import retro
from games.chess import tables as chess_retro
from protocol.tables_cli import main as tables
from tests.svg_pictures import texts

ROOT = Path(__file__).resolve().parent.parent


def test_naive_and_symmetric_index_sizes():
    assert chess_retro.index_sizes("KQvKR") == (64 ** 4 * 2, 462 * 64 * 64 * 2) == (33_554_432, 3_784_704)
    assert chess_retro.index_sizes("KQK") == (524_288, 59_136)


def test_kqk_marking_round_by_round(tmp_path, capsys):
    plot = tmp_path / "rounds.svg"
    assert tables(["build", "chess", "KQK", "--out", str(tmp_path), "--steps", "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "KQvK: index: naive 64^3 × 2 = 524,288 entries; by symmetry 462 king pairs × 64 × 2 = 59,136" in out
    rounds = re.findall(r"round (\d+): label (−?\d+): ([\d,]+) positions (\w+)", out)
    # Labels and words alternate as in the chapters (won or lost for the player who moved
    # into the position): 0 won (mated), −1 lost (mates in one), 2 won, −3 lost, …
    assert "round 0: label 0: 46 positions without a move, won (the side to move is mated)" in out
    for ply, label, _, what in rounds:
        assert label == (f"−{ply}" if int(ply) % 2 else ply)
        assert what == ("lost" if int(ply) % 2 else ("without" if ply == "0" else "won"))
    # The longest win is 10 moves (REFERENCE: KQK 10), from the published example position.
    assert rounds[-1][:2] == ("20", "20")
    assert "round 19: label −19: 1 positions lost: a move reaches a won position (labelled 18)" in out and "(e.g. 8/8/8/5k2/8/8/1Q6/K7 w - - 0 1)" in out
    assert "round 21: nothing new is marked: the marking stops" in out
    # Each round's count is the table's count of that distance; never marked = draws.
    values = chess_retro.ChessClass("KQK")
    table = retro.solve(values)
    for ply, _, count, _ in rounds:
        p = int(ply)
        n = int((table == (retro.win_in(p) if p % 2 else retro.loss_in(p))).sum())
        assert n == int(count.replace(",", ""))
    draws = int((table == retro.DRAW).sum())
    assert f"never marked: {draws:,} of " in out and "draws" in out
    # The picture: won and lost in two colours, each bar with its count, the chapter's labels below.
    svg = plot.read_text()
    assert svg.count('id="bars-won"') == 11 and svg.count('id="bars-lost"') == 10
    words = texts(plot)
    assert "won (the side to move is mated or loses)" in words and "lost (the side to move mates or wins)" in words
    assert "−19" in words and "6,883" in words


def _fixed_king_oracle(king: int) -> dict[tuple, int]:
    """Plies to the end with best play (positive: the side to move wins; negative: loses;
    0 drawn) of every legal KQK position with the white king on ``king``, the white king
    never moving: python-chess generates the moves, values by plain iteration to a fixed point."""
    succ: dict[tuple, list] = {}
    end: dict[tuple, bool] = {}
    for bk in range(64):
        for q in range(64):
            if len({bk, q, king}) < 3 or chess.square_distance(bk, king) <= 1:
                continue
            for white in (True, False):
                board = chess.Board(None)
                board.set_piece_at(king, chess.Piece(chess.KING, chess.WHITE))
                board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
                board.set_piece_at(q, chess.Piece(chess.QUEEN, chess.WHITE))
                board.turn = white
                if board.was_into_check():
                    continue
                key = (bk, q, white)
                moves = [m for m in board.legal_moves if m.from_square != king]
                if not moves:
                    end[key] = board.is_check()  # mated, or stalemated
                    continue
                nxt = []
                for m in moves:
                    board.push(m)
                    queen = board.pieces(chess.QUEEN, chess.WHITE)
                    nxt.append(None if not queen else (board.king(chess.BLACK), next(iter(queen)), board.turn))
                    board.pop()
                succ[key] = nxt
    value: dict[tuple, int] = {k: (-1 if v else 0) for k, v in end.items()}  # -1: lost in 0 plies
    value.update((k, 0) for k in succ)
    # Encode: +n won in n-1 plies, -n lost in n-1 plies (dtm1, as the tables), 0 draw or unknown.
    changed = True
    while changed:
        changed = False
        for key, nxt in succ.items():
            vals = [0 if k is None else value.get(k, 0) for k in nxt]
            losing = [v for v in vals if v < 0]
            if losing:
                new = -max(losing) + 1   # the quickest win
            elif all(v > 0 for v in vals):
                new = -(max(vals) + 1)   # the longest defence
            else:
                new = 0
            if value.get(key, 0) != new:
                value[key] = new
                changed = True
    return value


def test_brudno_fixed_king_against_the_oracle():
    king = chess.C3
    cls = chess_retro.FixedKingClass("KQK", king)
    assert cls.size == 64 * 64 * 2
    table = retro.solve(cls)
    oracle = _fixed_king_oracle(king)
    legal = np.flatnonzero(table != retro.ILLEGAL)
    assert len(legal) == len(oracle)
    stm, sq = cls.decode(legal)
    for i, s, squares in zip(legal, stm, sq):
        assert table[i] == oracle[(int(squares[1]), int(squares[2]), s == 0)]


def test_fixed_king_command_shows_the_memory():
    run = subprocess.run([sys.executable, "-m", "protocol", "tables", "build", "chess", "KQK", "--fixed-king", "c3"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "KQvK with the white king fixed on c3 (Brudno): 64^2 × 2 = 8,192 entries, 16,384 bytes" in run.stdout
    assert "naive 64^3 × 2 = 524,288 entries" in run.stdout
    assert "king on c3: 5,641 legal positions: 2,231 won, 334 drawn, 3,076 lost; longest win 23 moves" in run.stdout


def test_steps_refused_where_they_do_not_apply():
    for argv in (["build", "checkers", "2", "--out", "x", "--steps"],
                 ["build", "chess", "KQK", "--fixed-king", "z9"],
                 ["build", "chess", "KQK"]):
        run = subprocess.run([sys.executable, "-m", "protocol", "tables", *argv], capture_output=True, text=True,
                             cwd=ROOT, timeout=120)
        assert run.returncode == 2
        assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
