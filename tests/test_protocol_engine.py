"""The engine facade without the protocol: positions, clocks, hooks and the bestmove rules."""

from __future__ import annotations

import threading
import time

import chess
import pytest

import games
from engine import options as opt
from engine.engine import Engine
from engine.oracle import RootAnswer
from engine.game import IllegalMoveError, InvalidPositionError
from engine.timeman import Limits

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds


class Collector:
    def __init__(self):
        self.infos, self.best, self.messages = [], [], []
        self.done = threading.Event()

    def on_info(self, info, pv):
        self.infos.append((info, pv))

    def on_bestmove(self, best, ponder):
        self.best.append((best, ponder))
        self.done.set()

    def on_message(self, text):
        self.messages.append(text)

    def go(self, engine, limits):
        engine.go(limits, self.on_info, self.on_bestmove, self.on_message)


def test_position_replay_matches_python_chess():
    engine = Engine(games)
    board = chess.Board()
    moves = ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"]
    for i in range(len(moves) + 1):
        engine.set_position(None, moves[:i])  # extends the previous line each time
        assert engine.position.to_text() == board.fen()
        if i < len(moves):
            board.push_uci(moves[i])
    engine.set_position(None, moves[:3])  # a shorter line: replayed from the start
    assert engine.position.to_text() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


def test_bad_position_keeps_the_previous_one():
    engine = Engine(games)
    engine.set_position(None, ["e2e4"])
    before = engine.position.to_text()
    with pytest.raises(IllegalMoveError):
        engine.set_position(None, ["e2e4", "e7e5", "e1e3"])
    with pytest.raises(InvalidPositionError):
        engine.set_position("8/8/8 w - - 0 1", [])
    assert engine.position.to_text() == before and engine.moves == ["e2e4"]


def test_clock_mapping_follows_player_names():
    engine = Engine(games)
    assert engine.clock_players() == (0, 1)  # chess: White moves first
    engine.set_option("UCI_Variant", "checkers")
    assert engine.clock_players() == (1, 0)  # English checkers: Black moves first
    engine.set_option("UCI_Variant", "kalah")
    assert engine.clock_players() == (0, 1)  # unnamed players: wtime is the first mover's


def test_infinite_search_holds_the_bestmove_until_stop():
    engine = Engine(games)
    engine.set_option("UCI_Variant", "nim")
    engine.set_position("5 1", [])
    c = Collector()
    c.go(engine, Limits(infinite=True))
    assert not c.done.wait(0.5)  # solved long ago, but infinite: held
    engine.stop()
    assert c.done.wait(5) and c.best == [("1", c.best[0][1])]
    engine.stop()
    assert len(c.best) == 1


def test_stop_before_the_search_starts_still_gives_a_legal_move():
    engine = Engine(games)
    c = Collector()
    c.go(engine, Limits(infinite=True))
    engine.stop()
    assert c.done.wait(10)
    assert chess.Move.from_uci(c.best[0][0]) in chess.Board().legal_moves


def test_oracles_answer_before_the_search():
    engine = Engine(games)
    calls = []

    def book(game, pos, limits, context):
        # Each oracle reads its own options from the context: a book is asked only with OwnBook.
        if not context.options.own_book:
            return None
        calls.append("book")
        return RootAnswer(pos.parse_move("g1f3"), note="book move g1f3")

    def table(game, pos, limits, context):
        calls.append("table")
        return None

    engine.oracles = [book, table]
    c = Collector()
    c.go(engine, Limits(depth=2))
    assert c.done.wait(10)
    assert calls == ["table"]  # OwnBook is off
    engine.set_option("OwnBook", "true")
    c = Collector()
    c.go(engine, Limits(depth=2))
    assert c.done.wait(10)
    assert c.best == [("g1f3", None)] and c.messages == ["book move g1f3"] and c.infos == []
    c = Collector()
    c.go(engine, Limits(depth=2, searchmoves=[engine.position.parse_move("e2e4")]))
    assert c.done.wait(10) and c.best[0][0] == "e2e4"  # the book move is outside searchmoves


def test_a_failing_oracle_still_ends_in_a_legal_bestmove():
    engine = Engine(games)
    engine.set_position(None, ["e2e4"])

    def broken(game, pos, limits, context):
        pos.push(pos.legal_moves()[0])  # leaves the position mid-line, then fails
        raise RuntimeError("table file vanished")

    engine.oracles.append(broken)
    c = Collector()
    c.go(engine, Limits(depth=2))
    assert c.done.wait(10)
    assert c.messages and c.messages[0].startswith("error: search failed")
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(c.best[0][0]) in board.legal_moves


def test_options_refuse_changes_during_a_search():
    engine = Engine(games)
    c = Collector()
    c.go(engine, Limits(infinite=True))
    with pytest.raises(RuntimeError):
        engine.set_position(None, ["e2e4"])
    engine.stop()
    assert c.done.wait(10)
    engine.wait()
    engine.set_position(None, ["e2e4"])


def test_option_effects_are_engine_methods_and_a_refusal_keeps_the_old_value(tmp_path):
    engine = Engine(games)
    for field, method in opt.EFFECTS.items():
        assert field in opt.EngineOptions.model_fields and callable(getattr(engine, method))
    engine.set_option("TablePath", str(tmp_path))
    with pytest.raises(opt.OptionError):
        engine.set_option("TablePath", str(tmp_path / "missing"))
    assert engine.options.table_path == str(tmp_path)
    assert engine.endgames.config.table_path == str(tmp_path)
    engine.set_option("Hash", "1")
    assert engine.searcher.tt.size_bytes() < Engine(games).searcher.tt.size_bytes()


def test_isready_after_a_table_option_prepares_the_new_tables_while_the_stale_preparation_ends(
        tmp_path, monkeypatch):
    """``setoption TablePath`` stops the running preparation; an ``isready`` sent at once
    must prepare the new tables even when the stopped thread has not ended yet (on a
    loaded machine it may not run for a while): here it is held until the end."""
    from tests.test_tables_protocol import kalah_table

    broken = kalah_table(tmp_path)
    data = bytearray(broken.read_bytes())
    data[-100] ^= 0x01
    broken.write_bytes(bytes(data))
    engine = Engine(games)
    engine.set_option("UCI_Variant", "kalah")
    messages: list[str] = []
    engine.on_message = messages.append
    release, ran = threading.Event(), []
    run = engine._run_prepare

    def held(control):
        ran.append(control)
        if len(ran) == 1:
            release.wait(30)  # the stale preparation, stopped but not yet ended
        else:
            run(control)

    monkeypatch.setattr(engine, "_run_prepare", held)
    try:
        engine.prepare()
        engine.set_option("TablePath", str(tmp_path))
        assert ran[0].stopped
        engine.prepare()
        deadline = time.monotonic() + 30
        while not any("CRC-32" in m for m in messages) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert any(broken.name in m and "CRC-32" in m for m in messages), messages
    finally:
        release.set()
