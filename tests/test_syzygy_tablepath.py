"""zermelo's own tables (``TablePath``) in play: exact mate distances at the root and in the search."""

from __future__ import annotations

import threading

import chess
import pytest

import games
from engine.engine import Engine
from engine.game import mate_moves
from engine.options import OptionError
from engine.timeman import Limits
from games.chess.tables import ChessTables


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tables")
    tables = ChessTables(directory, build=True)
    for name in ("KQvK", "KRvK"):
        tables.build(name)
    return directory


def go(engine: Engine, fen: str, moves=()):
    infos, out = [], {}
    done = threading.Event()
    engine.set_position(fen, list(moves))
    engine.go(Limits(movetime=300), lambda info, pv: infos.append((info, pv)),
              lambda best, ponder: (out.update(best=best), done.set()))
    assert done.wait(30)
    return out["best"], infos


def test_root_plays_the_fastest_mate(table_dir):
    engine = Engine(games)
    engine.set_option("TablePath", str(table_dir))
    tables = ChessTables(table_dir)
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    wdl, plies = tables.probe(fen)
    assert wdl == 1
    board = chess.Board(fen)
    # Play both sides from the table: the mate comes exactly at the table's distance.
    for ply in range(plies):
        best, infos = go(engine, fen, [m.uci() for m in board.move_stack])
        info, pv = infos[0]
        if board.turn == chess.WHITE:
            assert mate_moves(info.score) == (plies - ply + 1) // 2
        board.push_uci(best)
    assert board.is_checkmate()


def test_search_uses_exact_scores_after_a_capture(table_dir):
    engine = Engine(games)
    engine.set_option("TablePath", str(table_dir))
    # Rxd5 leaves KRvK: the search sees a counted mate through the table.
    best, infos = go(engine, "8/8/8/3n4/8/6k1/8/3RK3 w - - 0 1")
    assert best == "d1d5"
    assert mate_moves(infos[-1][0].score) is not None and infos[-1][0].tbhits > 0


def test_bad_table_path_is_refused():
    engine = Engine(games)
    with pytest.raises(OptionError):
        engine.set_option("TablePath", "/nonexistent/zermelo-tables")
