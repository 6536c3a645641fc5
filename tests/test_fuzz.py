"""The protocol fuzzer (``scripts/fuzz.py``), briefly: a few batches must find nothing."""

from __future__ import annotations

import importlib.util
import sys

from test_protocol import REPO


def load_fuzzer():
    spec = importlib.util.spec_from_file_location("fuzz", REPO / "scripts" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_short_fuzz_run_finds_no_problem():
    fuzz = load_fuzzer()
    stats = fuzz.run(seed=3, batches=2, game_names=["nim", "tictactoe", "connect4"], lines_per_batch=15,
                     minutes=None, timeout=20)
    assert stats.batches == 6
    assert stats.gos > 0 and stats.gos == stats.bestmoves
    assert stats.problems == []


def test_the_fuzzer_sees_an_illegal_bestmove():
    # The legality check itself: a bestmove outside the last ``d`` listing is a problem.
    fuzz = load_fuzzer()
    stats = fuzz.Stats()
    fuzzer = fuzz.Fuzzer.__new__(fuzz.Fuzzer)
    fuzzer.stats, fuzzer.game, fuzzer.verbose, fuzzer.batch_errors = stats, "nim", 0, 0
    fuzzer.pending, fuzzer.awaiting, fuzzer.legal = [{"1", "2"}, {"3"}], 2, None
    fuzzer.on_line("bestmove 2")
    fuzzer.on_line("bestmove 2")
    assert len(stats.problems) == 1 and "illegal" in stats.problems[0]


def test_the_default_games_are_every_game_chess960_and_every_player_count():
    fuzz = load_fuzzer()
    names = fuzz.default_games()
    import games

    assert set(games.names()) | {"chess960"} <= set(names)
    assert {"rolit:players=2", "rolit:players=3", "mnkmulti:players=2", "mnkmulti:players=4"} <= set(names)
    assert fuzz.parse_game("mnkmulti:players=4,m=7") == ("mnkmulti", {"players": "4", "m": "7"})


def test_the_chess960_model_starts_from_the_960_positions():
    import random

    fuzz = load_fuzzer()
    model = fuzz.Model(random.Random(1), "chess960")
    starts = {model.start().to_text().split()[0] for _ in range(20)}
    assert len(starts) > 10
    assert model.option_lines() == ["setoption name UCI_Variant value chess960"]
    rolit = fuzz.Model(random.Random(1), "rolit", {"players": "3"})
    assert rolit.option_lines() == ["setoption name UCI_Variant value rolit", "setoption name rolit_players value 3"]
    assert len(rolit.game.players) == 3


def test_chess960_and_more_players_fuzz_cleanly_and_each_game_gets_its_share():
    fuzz = load_fuzzer()
    # A budget far too small for one batch still gives each game one.
    stats = fuzz.run(seed=4, batches=99, game_names=["chess960", "rolit:players=3", "mnkmulti:players=4"],
                     lines_per_batch=12, minutes=0.0001, timeout=20)
    assert stats.batches == 3
    assert stats.gos == stats.bestmoves
    assert stats.problems == []


FAKE_GTP = r'''
import sys, time
board = "empty"
for line in sys.stdin:
    words = line.split()
    ident = words.pop(0) if words and words[0].isdigit() else ""
    cmd = words[0] if words else ""
    if cmd in ("genmove", "reg_genmove"):
        answer = "=" + ident + " Z99"   # off any board
    elif cmd == "all_legal":
        answer = "=" + ident + " A1 B2"
    elif cmd == "spoil":
        board = "spoilt"
        answer = "?" + ident + " refused"
    elif cmd == "sleep":
        time.sleep(60)
        answer = "=" + ident
    elif cmd in ("showboard", "printsgf"):
        answer = "=" + ident + " " + board
    else:
        answer = "=" + ident
    print(answer + "\n", flush=True)
'''


def test_the_gtp_fuzzer_sees_illegal_moves_refusals_that_change_the_game_and_hangs(tmp_path, monkeypatch):
    fuzz = load_fuzzer()
    script = tmp_path / "fake_gtp.py"
    script.write_text(FAKE_GTP)
    monkeypatch.setattr(fuzz.GtpFuzzer, "program", (sys.executable, str(script)))
    stats = fuzz.Stats()
    fuzzer = fuzz.GtpFuzzer(__import__("random").Random(1), stats, timeout=2, memory_mb=None)
    try:
        assert fuzzer.command("1 name") == (True, "")
        # An illegal genmove, a refused command that changes the board, a hang: each a problem.
        monkeypatch.setattr(fuzzer, "valid_line", lambda: "genmove b")
        fuzzer.batch(1)
        assert any("not among all_legal" in p for p in stats.problems), stats.problems
        monkeypatch.setattr(fuzzer, "valid_line", lambda: "spoil")
        monkeypatch.setattr(fuzz, "mutate_tokens", lambda rng, line: line)
        fuzzer.rng.random = lambda: 0.6  # a mutated line: checked for refusals that change the game
        fuzzer.batch(1)
        assert any("changed the game" in p for p in stats.problems), stats.problems
        monkeypatch.setattr(fuzzer, "valid_line", lambda: "sleep")
        fuzzer.batch(1)
        assert any("no answer to" in p and "sleep" in p for p in stats.problems), stats.problems
        assert stats.restarts == 1
    finally:
        fuzzer.close()


def test_a_short_gtp_fuzz_run():
    fuzz = load_fuzzer()
    stats = fuzz.run(seed=5, batches=2, game_names=[fuzz.GTP], lines_per_batch=15, minutes=None, timeout=20)
    assert stats.batches + stats.restarts >= 2
    assert stats.gos == stats.bestmoves
    assert stats.problems == []
