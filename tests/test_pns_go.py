"""``go mate N`` through the engine facade: proof-number search at the root."""

from __future__ import annotations

import threading

import chess

import games
from engine.engine import Engine
from engine.game import mate_moves
from engine.timeman import Limits


def go(engine: Engine, limits: Limits):
    infos, messages, out = [], [], {}
    done = threading.Event()
    engine.go(limits, lambda info, pv: infos.append((info, pv)),
              lambda best, ponder: (out.update(best=best), done.set()), messages.append)
    if limits.mate and not (limits.movetime or limits.depth):
        done.wait(10)
        engine.stop()
    assert done.wait(30)
    return out["best"], infos, messages


def test_go_mate_reports_mate_and_line():
    engine = Engine(games)
    fen = "7k/8/5K2/8/8/8/8/6R1 w - - 0 1"  # mate in 2
    engine.set_position(fen, [])
    best, infos, _ = go(engine, Limits(mate=3))
    info, pv = infos[0]
    assert mate_moves(info.score) == 2 and pv[0] == best
    board = chess.Board(fen)
    for text in pv:
        board.push_uci(text)
    assert board.is_checkmate()


def test_go_mate_without_a_mate_says_so():
    engine = Engine(games)
    engine.set_position("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", [])
    best, _, messages = go(engine, Limits(mate=2, depth=2))
    assert "no mate found" in messages
    assert best in [m.uci() for m in chess.Board("8/8/8/8/8/4k3/8/R3K3 w - - 0 1").legal_moves]


def test_go_mate_in_other_games():
    engine = Engine(games)
    engine.set_option("UCI_Variant", "tictactoe")
    engine.set_position(None, ["a1", "b1", "a2", "b2"])  # x to move wins with a3
    best, infos, _ = go(engine, Limits(mate=1))
    assert best == "a3" and mate_moves(infos[0][0].score) == 1
