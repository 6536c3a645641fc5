"""Hostile input over the real server: huge and odd numbers, floods of junk words,
strict move texts, and options GUIs send that the engine does not declare.

Every bad line must give at most one ``info string error`` line, keep the state,
and a ``go`` must still end in exactly one legal ``bestmove`` without a failed search.
"""

from __future__ import annotations

import random
import re

import pytest

import games
from engine.game import IllegalMoveError
from protocol import uci
from test_protocol import Pipe, bestmove, legal_texts, pipe, start  # noqa: F401 (fixture)

HUGE = "9" * 400


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error")]


def search_ok(lines: list[str], game: str, *moves: str) -> None:
    """One bestmove, legal, and no search failure before it."""
    assert not any("search failed" in line or "Traceback" in line for line in lines), lines
    assert sum(line.startswith("bestmove") for line in lines) == 1
    assert bestmove(lines) in legal_texts(game, None, moves)


# -- go numbers ----------------------------------------------------------------------


def test_parse_int_is_strict_ascii_and_clamps():
    assert uci.parse_int("42", 0, 100) == (42, False)
    assert uci.parse_int("+7", 0, 100) == (7, False)
    assert uci.parse_int(HUGE, 0, 100) == (100, True)
    assert uci.parse_int("-" + HUGE, 0, 100) == (0, True)
    for bad in ("²", "٣", "1_000", " 5", "5.0", "0x10", "", "-", "١٢"):
        with pytest.raises(ValueError):
            uci.parse_int(bad, 0, 100)


def test_parse_go_clamps_every_number_into_its_range():
    go = uci.parse_go(f"movetime {HUGE} p1inc {HUGE} wtime -5 depth 0 mate 749731 nodes {HUGE}".split())
    assert go.ints == {"movetime": uci.MAX_MS, "p1inc": uci.MAX_MS, "wtime": 0, "depth": 1,
                       "mate": uci.MAX_DEPTH, "nodes": uci.GO_RANGES["nodes"][1]}
    assert len(go.errors) == 1 and "clamped" in go.errors[0]


def test_max_depth_matches_the_search():
    from engine.search import MAX_DEPTH

    assert uci.MAX_DEPTH == MAX_DEPTH


@pytest.mark.parametrize("game", ["nim", "connect4"])
@pytest.mark.parametrize("line", [
    f"go movetime {HUGE}",
    f"go depth 2 p1inc {HUGE} p1time {HUGE}",
    "go depth 1 foo p1inc -2147483649 mate 749731 movetime 50",
    f"go mate {HUGE} movetime 50",
    f"go nodes {HUGE} depth 2",
], ids=["movetime", "clock", "mixed", "mate", "nodes"])
def test_huge_go_numbers_are_clamped_with_one_line(pipe, line, game):
    start(pipe, game)
    pipe.send(line)
    lines = pipe.quiet(0.5)
    if not any(line.startswith("bestmove") for line in lines):
        pipe.send("stop")
        lines += pipe.until("bestmove")
    assert len(errors(lines)) == 1, lines
    assert "clamped" in errors(lines)[0]
    search_ok(lines, game)


def test_a_flood_of_unknown_words_gives_one_line(pipe):
    start(pipe, "tictactoe")
    pipe.send("go movetime 10 " + " ".join(random.Random(1).choice("abc") for _ in range(300_000)))
    lines = pipe.until("bestmove", timeout=30)
    assert len(errors(lines)) == 1, lines[:5]
    assert re.search(r"ignored 300000 unknown words: '[abc]'", errors(lines)[0])
    search_ok(lines, "tictactoe")


def test_junk_searchmoves_give_one_line(pipe):
    start(pipe, "connect4")
    pipe.send("go depth 2 searchmoves 4 x 99 " + " ".join(["junk"] * 1000))
    lines = pipe.until("bestmove")
    assert len(errors(lines)) == 1, lines
    assert "1002" in errors(lines)[0] and "'x'" in errors(lines)[0]
    assert bestmove(lines) == "4"


# -- setoption -----------------------------------------------------------------------


def test_setoption_refusals_count_one_line_each(pipe):
    pipe.handshake()
    bad = ("٣٢", "²", "1_0", HUGE, "-" + HUGE)
    pipe.send(*(f"setoption name {name} value {v}" for v in bad for name in ("Hash", "kalah_seeds")), "isready")
    lines = pipe.until("readyok")
    assert len(errors(lines)) == 2 * len(bad), lines
    assert "invalid literal" not in "".join(lines)
    assert all(len(line) < 200 for line in lines)


def test_missing_syzygy_directory_and_bare_debug_are_accepted(pipe):
    pipe.handshake()
    pipe.send("setoption name SyzygyPath value /nonexistent/egtb", "setoption name debug", "isready")
    assert pipe.until("readyok") == ["readyok"]
    # debug is on now: skipped words are reported.
    pipe.send("joho isready")
    assert pipe.until("readyok")[0].startswith("info string ignored")
    pipe.send("setoption name debug value false", "joho isready")
    assert pipe.until("readyok") == ["readyok"]
    pipe.send("setoption name debug value maybe", "isready")
    assert len(errors(pipe.until("readyok"))) == 1


def test_readme_option_table_matches_the_model():
    from engine.options import engine_specs, format_value
    from test_protocol import REPO

    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("### Options"):readme.index("### Dialects and clocks")]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells[1:4]
    expected = {}
    for spec in engine_specs():
        default = "" if spec.kind == "button" else format_value(spec.default)
        expected[spec.name] = [spec.kind, f"`{default}`" if default == "<empty>" else default,
                               f"{spec.min}..{spec.max}" if spec.kind == "spin" else None]
    assert rows.keys() == expected.keys()
    for name, (kind, default, rng) in expected.items():
        assert rows[name][0] == kind and rows[name][1] == default, (name, rows[name])
        if rng is not None:
            assert rows[name][2] == rng, (name, rows[name])
