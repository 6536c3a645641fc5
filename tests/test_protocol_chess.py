"""The server driven by python-chess's UCI client, as lichess-bot and scripts use it.

python-chess is the oracle: it checks that every option it sets is declared
and in range, parses scores, bounds, WDL and PVs, replays PVs on its own board
(an illegal move drops the PV), and waits for exactly one ``bestmove`` per
search.
"""

from __future__ import annotations

import sys

import chess
import chess.engine
import pytest
from conftest import SYZYGY_DIR

from test_protocol import REPO

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

LIMIT = 20  # seconds: python-chess's own timeouts come on top of the search time


@pytest.fixture
def engine():
    eng = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "protocol"], cwd=REPO, timeout=LIMIT)
    yield eng
    eng.quit()


def test_identity_and_options_python_chess_manages(engine):
    assert engine.id["name"].startswith("zermelo")
    for name in ("Ponder", "MultiPV", "UCI_Chess960", "UCI_Variant", "UCI_AnalyseMode", "UCI_Opponent"):
        assert name in engine.options
    assert engine.options["UCI_Variant"].default == "chess"


def test_lichess_bot_default_options(engine):
    engine.configure({"Move Overhead": 100, "Threads": 4, "Hash": 512,
                      "SyzygyPath": str(SYZYGY_DIR), "UCI_ShowWDL": True})
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=2))
    assert "wdl" in info and sum(info["wdl"].pov(chess.WHITE)) == 1000
    with pytest.raises(chess.engine.EngineError):
        engine.configure({"Hash": 100_000})  # python-chess refuses values outside the declared range


def test_play_a_few_moves(engine):
    board = chess.Board()
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(time=0.05))
        assert result.move in board.legal_moves
        board.push(result.move)


def test_analyse_score_and_legal_pv(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["depth"] == 3
    assert isinstance(info["score"], chess.engine.PovScore)
    assert info["pv"] and info["pv"][0] in board.legal_moves  # python-chess replayed the whole PV


def test_mate_in_one_is_reported_in_moves(engine):
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    mate = chess.Move.from_uci("a1a8")
    board.push(mate)
    assert board.is_checkmate()  # python-chess's verdict, not ours
    board.pop()
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["pv"][0] == mate


def test_multipv_lines_are_distinct(engine):
    board = chess.Board()
    infos = engine.analyse(board, chess.engine.Limit(depth=2), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    assert len({info["pv"][0] for info in infos}) == 3


def test_ponder_and_ponderhit(engine):
    board = chess.Board()
    first = engine.play(board, chess.engine.Limit(time=0.1), ponder=True)
    assert first.ponder is not None
    board.push(first.move)
    board.push(first.ponder)
    # The opponent played the expected move: python-chess sends ponderhit, not a new go.
    second = engine.play(board, chess.engine.Limit(white_clock=1, black_clock=1), ponder=True)
    assert second.move in board.legal_moves
    board.push(second.move)
    board.push(next(iter(board.legal_moves)))  # a miss: stop, then a fresh search
    third = engine.play(board, chess.engine.Limit(time=0.05), ponder=True)
    assert third.move in board.legal_moves


def test_stop_during_infinite_analysis(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
    best = analysis.wait()  # leaving the block sent stop; an infinite search ends only then
    assert best.move in board.legal_moves


def test_no_move_when_mated(engine):
    board = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert board.is_checkmate()
    assert engine.play(board, chess.engine.Limit(depth=2)).move is None


def test_long_game_and_combined_limits(engine):
    board = chess.Board()
    for _ in range(160):  # 640 plies of knight shuffles: legal, if repetitive
        for uci_move in ("g1f3", "g8f6", "f3g1", "f6g8"):
            board.push_uci(uci_move)
    limit = chess.engine.Limit(white_clock=866.320, black_clock=852.039, white_inc=14, black_inc=14,
                               depth=2, time=2)
    result = engine.play(board, limit)
    assert result.move in board.legal_moves


def test_searchmoves(engine):
    board = chess.Board()
    only = chess.Move.from_uci("a2a3")
    assert engine.play(board, chess.engine.Limit(depth=2), root_moves=[only]).move == only
