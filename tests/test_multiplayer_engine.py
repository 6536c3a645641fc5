"""The engine picks the N-player search for games of more than two players."""

from __future__ import annotations

import threading

import pytest
from pydantic import BaseModel

import games
from engine.engine import Engine
from engine.multiplayer import MultiplayerSearcher, VectorInfo
from engine.options import OptionError
from engine.search import Info, Searcher
from engine.timeman import Limits
from protocol.server import uci
from tests.multiplayer_toys import TakeAway


class ThreePlayerTakeAway(TakeAway):
    class Params(BaseModel):
        pass

    def __init__(self, params=None):
        super().__init__(players=3, seed=3, max_take=3)


class OneGame:
    """A registry of one game."""

    def names(self):
        return ["takeaway"]

    def canonical(self, name):
        if name.lower() != "takeaway":
            raise KeyError(f"unknown game {name!r}")
        return "takeaway"

    def game_class(self, name):
        return ThreePlayerTakeAway

    def load(self, name, **params):
        return ThreePlayerTakeAway()


def go(engine: Engine, limits: Limits):
    infos, done = [], threading.Event()
    out = {}

    def on_bestmove(best, ponder):
        out["best"] = best
        done.set()

    engine.go(limits, lambda info, pv: infos.append((info, pv)), on_bestmove)
    assert done.wait(10)
    return out["best"], infos


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_a_three_player_game_is_searched_by_the_option_s_algorithm(algorithm):
    engine = Engine(OneGame())
    engine.set_option("UCI_Variant", "takeaway")
    engine.set_option("MultiplayerSearch", algorithm)
    engine.set_position("9 1", [])
    best, infos = go(engine, Limits(depth=4))
    assert isinstance(engine.searcher, MultiplayerSearcher) and engine.searcher.algorithm == algorithm
    assert best in ("1", "2", "3")
    info, pv = infos[-1]
    assert isinstance(info, VectorInfo) and info.algorithm == algorithm and len(info.vector) == 3
    assert pv[0] == best
    assert uci.format_info(info, pv).endswith(" string vector " + " ".join(map(str, info.vector)))


def test_the_option_is_case_blind_and_refuses_other_values():
    engine = Engine(OneGame())
    engine.set_option("multiplayersearch", "Paranoid")
    assert engine.options.multiplayer_search == "paranoid"
    with pytest.raises(OptionError):
        engine.set_option("MultiplayerSearch", "minimax")
    assert engine.options.multiplayer_search == "paranoid"


def test_two_player_games_keep_their_search_and_info_lines():
    engine = Engine(games)
    engine.set_option("UCI_Variant", "nim")
    assert type(engine.searcher) is Searcher
    best, infos = go(engine, Limits(depth=3))
    info, pv = infos[-1]
    assert type(info) is Info and "string" not in uci.format_info(info, pv)
