"""Options: one declaration gives the handshake lines and the validation."""

from __future__ import annotations

import json

import pytest

import games
from engine import options as opt
from engine.engine import Engine


def test_engine_option_lines():
    lines = {spec.name: spec.uci_line() for spec in opt.engine_specs(games)}
    assert lines["Hash"] == "option name Hash type spin default 16 min 1 max 4096"
    assert lines["Clear Hash"] == "option name Clear Hash type button"
    assert lines["Ponder"] == "option name Ponder type check default false"
    assert lines["SyzygyPath"] == "option name SyzygyPath type string default <empty>"
    assert lines["UCI_Variant"] == "option name UCI_Variant type combo default chess " + " ".join(
        f"var {name}" for name in games.names())
    assert len(lines) == len(opt.EngineOptions.model_fields)


@pytest.mark.parametrize("name, text, field, value", [
    ("hash", "64", "hash", 64),
    ("MOVE OVERHEAD", "0", "move_overhead", 0),
    ("uci_showwdl", "TRUE", "show_wdl", True),
    ("UCI_Variant", "Othello", "variant", "reversi"),
    ("BookFile", "<empty>", "book_file", ""),
    ("SyzygyPath", "/a b/c:/d", "syzygy_path", "/a b/c:/d"),
])
def test_valid_values(name, text, field, value):
    new = opt.set_value(opt.EngineOptions(), opt.find_spec(name, games), text, games)
    assert getattr(new, field) == value


@pytest.mark.parametrize("name, text", [
    ("Hash", "0"), ("Hash", "4097"), ("Hash", "1.5"), ("Threads", ""), ("Ponder", "yes please"),
    ("UCI_ShowWDL", "1"), ("UCI_Variant", "shogi"), ("SyzygyProbeLimit", "8"),
])
def test_invalid_values_raise_and_leave_the_options(name, text):
    before = opt.EngineOptions()
    with pytest.raises(opt.OptionError):
        opt.set_value(before, opt.find_spec(name, games), text, games)
    assert before == opt.EngineOptions()


def test_unknown_option():
    with pytest.raises(opt.OptionError):
        opt.find_spec("Contempt", games)


def test_game_parameters_round_trip_through_their_text():
    # The default, written as the handshake writes it and read back as setoption
    # reads it, must validate to the same parameters, for every game.
    for name in games.names():
        params_model = games.game_class(name).Params
        for spec in opt.game_param_specs(name, params_model):
            assert spec.name in (f"{name}_{spec.field}", "UCI_Chess960", "EvalWeights")
            value = opt.parse_text(spec, opt.format_value(spec.default))
            assert getattr(params_model(**{spec.field: value}), spec.field) == spec.default, spec
            if spec.kind == "spin":
                assert spec.min <= spec.default <= spec.max


def test_handshake_cache_matches_the_declarations_and_follows_their_sources(tmp_path, monkeypatch):
    from protocol.server import handshake

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fresh = [spec.uci_line() for spec in opt.all_specs(games)]
    assert handshake.option_lines() == fresh  # built and written
    path = tmp_path / "zermelo" / "options.json"
    data = json.loads(path.read_text())
    assert data["lines"] == fresh
    assert handshake.option_lines() == fresh  # read back
    data["signature"][1][0][1] += 1  # as if a source file had changed size
    data["lines"] = ["stale"]
    path.write_text(json.dumps(data))
    assert handshake.option_lines() == fresh
    path.write_text("not json")
    assert handshake.option_lines() == fresh


def test_game_options_are_found_without_the_other_games():
    spec = opt.find_spec("Kalah_Pits", games)
    assert (spec.game, spec.field, spec.kind, spec.default) == ("kalah", "pits", "spin", 6)


def test_game_parameter_validation_uses_the_game_model():
    engine = Engine(games)
    engine.set_option("UCI_Variant", "nim")
    with pytest.raises(opt.OptionError):
        engine.set_option("nim_heaps", "1,2,999")  # NimParams allows 0..255 coins per heap
    assert engine.game.params.heaps == (7,)
    engine.set_option("nim_heaps", "1 2 3")
    engine.set_option("NIM_NORMAL", "true")
    assert engine.game.params.heaps == (1, 2, 3) and engine.game.params.normal
    assert engine.position.to_text() == "1,2,3 1"
