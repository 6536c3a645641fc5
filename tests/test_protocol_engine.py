"""The engine facade without the protocol: positions, clocks, hooks and the bestmove rules."""

from __future__ import annotations

import threading

import chess
import pytest

from engine.engine import Engine, RootAnswer
from engine.game import IllegalMoveError, InvalidPositionError
from engine.timeman import Limits


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
    engine = Engine()
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
    engine = Engine()
    engine.set_position(None, ["e2e4"])
    before = engine.position.to_text()
    with pytest.raises(IllegalMoveError):
        engine.set_position(None, ["e2e4", "e7e5", "e1e3"])
    with pytest.raises(InvalidPositionError):
        engine.set_position("8/8/8 w - - 0 1", [])
    assert engine.position.to_text() == before and engine.moves == ["e2e4"]


def test_clock_mapping_follows_player_names():
    engine = Engine()
    assert engine.clock_players() == (0, 1)  # chess: White moves first
    engine.set_option("UCI_Variant", "checkers")
    assert engine.clock_players() == (1, 0)  # English checkers: Black moves first
    engine.set_option("UCI_Variant", "kalah")
    assert engine.clock_players() == (0, 1)  # unnamed players: wtime is the first mover's


def test_infinite_search_holds_the_bestmove_until_stop():
    engine = Engine()
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
    engine = Engine()
    c = Collector()
    c.go(engine, Limits(infinite=True))
    engine.stop()
    assert c.done.wait(10)
    assert chess.Move.from_uci(c.best[0][0]) in chess.Board().legal_moves


def test_oracles_answer_before_the_search():
    engine = Engine()
    calls = []

    def book(game, pos, limits):
        calls.append("book")
        return RootAnswer(pos.parse_move("g1f3"), note="book move g1f3")

    def table(game, pos, limits):
        calls.append("table")
        return None

    engine.book_probe = book
    engine.oracles.append(table)
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
    engine = Engine()
    engine.set_position(None, ["e2e4"])

    def broken(game, pos, limits):
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
    engine = Engine()
    c = Collector()
    c.go(engine, Limits(infinite=True))
    with pytest.raises(RuntimeError):
        engine.set_position(None, ["e2e4"])
    engine.stop()
    assert c.done.wait(10)
    engine.wait()
    engine.set_position(None, ["e2e4"])


def test_option_hooks_see_the_new_value_and_may_refuse_it():
    from engine.options import OptionError

    engine = Engine()
    seen = []

    def tables(eng):
        seen.append(eng.options.syzygy_path)
        if "missing" in eng.options.syzygy_path:
            raise OptionError("SyzygyPath: no such directory")

    engine.option_hooks["syzygy_path"] = [tables]
    engine.set_option("SyzygyPath", "/tables")
    with pytest.raises(OptionError):
        engine.set_option("SyzygyPath", "/missing")
    assert seen == ["/tables", "/missing"] and engine.options.syzygy_path == "/tables"
