"""Syzygy tables in play: WDL through zermelo's probe against python-chess's direct
probe, won endings converted against a Syzygy defender, broken tables reported."""

from __future__ import annotations

import random
import shutil
import threading

import chess
import chess.syzygy
import pytest

import games
from engine.engine import Engine
from engine.game import KNOWN_WIN
from engine.timeman import Limits
from tests.conftest import SYZYGY_DIR


def random_position(rng: random.Random, names: list[str]) -> chess.Board:
    """A legal position of a random class with both kings, halfmove clock 0."""
    while True:
        name = rng.choice(names)
        white, black = name.split("v")
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
            for letter in letters:
                board.set_piece_at(squares.pop(), chess.Piece.from_symbol(letter if color else letter.lower()))
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8) or not board.is_valid():
            continue
        if board.is_game_over():
            continue
        return board


@pytest.fixture(scope="module")
def tablebase():
    with chess.syzygy.open_tablebase(str(SYZYGY_DIR)) as tb:
        yield tb


def test_wdl_matches_python_chess(tablebase):
    rng = random.Random(2024)
    names = sorted({n for n in tablebase.wdl if 3 <= len(n) - 1 <= 4})
    engine = Engine(games)
    engine.set_option("SyzygyPath", str(SYZYGY_DIR))
    engine.set_option("Syzygy50MoveRule", "false")
    game = games.load("chess")
    probe = engine.endgames.provider(game)
    scores = {2: KNOWN_WIN, -2: -KNOWN_WIN, 0: 0}
    for _ in range(200):
        board = random_position(rng, names)
        expected = tablebase.probe_wdl(board)
        pos = game.new_position(board.fen())
        got = probe.score(pos)
        assert got is not None, board.fen()
        if abs(expected) == 1:  # cursed win/blessed loss: a win or loss without the 50-move rule
            assert (got > 0) == (expected > 0) and abs(got) >= KNOWN_WIN - 1, board.fen()
        else:
            assert got == scores[expected], board.fen()


def play(engine: Engine, fen: str, moves: list[str]) -> str:
    """zermelo's move after ``moves`` from ``fen``, through the engine facade."""
    done = threading.Event()
    out: dict = {}
    engine.set_position(fen, moves)
    engine.go(Limits(movetime=200), lambda info, pv: None, lambda best, ponder: (out.update(best=best), done.set()))
    assert done.wait(60)
    return out["best"]


@pytest.mark.parametrize("fen", [
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",  # KRvK, mate in 16 from the worst squares
    "8/8/4k3/8/8/3r4/8/3QK3 w - - 0 1",  # KQvKR
])
def test_converts_won_ending(fen, tablebase):
    engine = Engine(games)
    engine.set_option("SyzygyPath", str(SYZYGY_DIR))
    board = chess.Board(fen)
    moves: list[str] = []
    for _ in range(100):
        move = chess.Move.from_uci(play(engine, fen, moves))
        assert move in board.legal_moves
        board.push(move)
        moves.append(move.uci())
        if board.is_game_over(claim_draw=True):
            break
        # The defender resists longest: the reply with the highest DTZ (least bad).
        reply = max(board.legal_moves, key=lambda m: _defence(tablebase, board, m))
        board.push(reply)
        moves.append(reply.uci())
        assert not board.is_game_over(claim_draw=True) or board.is_checkmate()
    assert board.is_checkmate() and board.turn == chess.BLACK, board.fen()


def _defence(tb, board: chess.Board, move: chess.Move) -> tuple[int, int]:
    board.push(move)
    try:
        wdl = -tb.probe_wdl(board)
        dtz = tb.probe_dtz(board) if wdl < 0 else 0
    finally:
        board.pop()
    return wdl, dtz


def test_missing_directory_is_accepted_and_holds_no_tables():
    # GUIs send default paths and placeholders; other engines accept them silently.
    engine = Engine(games)
    assert engine.set_option("SyzygyPath", "/nonexistent/zermelo-syzygy") == []
    assert engine.options.syzygy_path == "/nonexistent/zermelo-syzygy"
    engine.set_position("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", [])
    done = threading.Event()
    hits: list[int] = []
    engine.go(Limits(depth=2), lambda info, pv: hits.append(info.tbhits), lambda best, ponder: done.set())
    assert done.wait(60)
    assert hits and not any(hits)


def test_corrupt_table_reported_once(tmp_path):
    for name in ("KRvK.rtbw", "KRvK.rtbz"):
        shutil.copy(SYZYGY_DIR / name, tmp_path / name)
    (tmp_path / "KRvK.rtbw").write_bytes(b"garbage" * 10)
    engine = Engine(games)
    # Refused as the path is set (its size is no Syzygy table's), then never probed.
    notes = engine.set_option("SyzygyPath", str(tmp_path))
    assert len(notes) == 1 and notes[0].startswith("error:") and "KRvK.rtbw" in notes[0], notes
    messages: list[str] = []
    done = threading.Event()
    out: dict = {}
    engine.set_position("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", [])
    engine.go(Limits(depth=3), lambda info, pv: None,
              lambda best, ponder: (out.update(best=best), done.set()), messages.append)
    assert done.wait(60)
    assert out["best"] in [m.uci() for m in chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").legal_moves]
    assert not [m for m in messages if m.startswith("error:")], messages


@pytest.mark.parametrize("kind", ["fifo", "device", "dangling"])
def test_a_table_that_is_no_regular_file_is_refused_by_name(tmp_path, kind):
    """python-chess passes over a table's name that is a FIFO, a device or a dangling
    link without a word: the engine says it, naming the file, and plays on."""
    import os

    shutil.copy(SYZYGY_DIR / "KRvK.rtbz", tmp_path / "KRvK.rtbz")
    target = tmp_path / "KRvK.rtbw"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/null" if kind == "device" else tmp_path / "gone")
    engine = Engine(games)
    notes = engine.set_option("SyzygyPath", str(tmp_path))
    assert len(notes) == 1 and notes[0].startswith("error:") and "KRvK.rtbw" in notes[0], notes
    assert "not a regular file" in notes[0]
