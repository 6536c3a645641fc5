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
