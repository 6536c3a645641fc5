"""Inputs the file and protocol fuzzers found: a PGN that crashes python-chess's
reader, a table header with a side that does not exist, files too big to be
books, and a ``go`` that must get its ``bestmove`` whatever comes after it."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from protocol.records import read_records

REPO = pathlib.Path(__file__).resolve().parents[1]

#: A closing parenthesis after an illegal move, then a NAG: python-chess's reader
#: raises IndexError from its own visitor (not a game error).
CRASHING_GAME = '[Event "bad"]\n[Result "*"]\n\n1. e4 e5 2. Kf3 ) ? *\n\n'
GOOD_GAME = '[Event "good"]\n[Result "1-0"]\n\n1. d4 d5 2. c4 1-0\n\n'


def zermelo(*args: str, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_a_game_python_chess_cannot_read_is_skipped_and_the_rest_is_read():
    skipped = []
    recs = read_records(GOOD_GAME + CRASHING_GAME + GOOD_GAME, lambda n, why: skipped.append((n, why)))
    assert [(r.number, r.moves) for r in recs] == [(1, ["d2d4", "d7d5", "c2c4"]), (3, ["d2d4", "d7d5", "c2c4"])]
    assert [n for n, _ in skipped] == [2] and "IndexError" in skipped[0][1]
    with pytest.raises(ValueError, match="^game 2: "):
        read_records(GOOD_GAME + CRASHING_GAME)


@pytest.mark.parametrize("tail", [")", ") ?", "{", "(", "))) ? ? {x}", "\x00\x1b)?"])
def test_a_pgn_ending_in_any_fragment_ends(tail):
    # Whatever python-chess makes of the last line, the reader gets to the end.
    recs = read_records(GOOD_GAME + "1. g2 " + tail, lambda n, why: None)
    assert recs[0].moves == ["d2d4", "d7d5", "c2c4"]


def test_a_book_import_with_a_crashing_game_names_it_and_goes_on(tmp_path):
    pgn = tmp_path / "c.pgn"
    pgn.write_bytes((GOOD_GAME + CRASHING_GAME + GOOD_GAME).encode() + b"\x00\x9c\xff)?\n")
    out = zermelo("book", "build", "chess", "--source", "games", "--input", str(pgn), "--out",
                  str(tmp_path / "c.zbook"), "--plies", "4", "--min-games", "1")
    text = out.stdout + out.stderr
    assert out.returncode == 0 and "Traceback" not in text, text
    assert f"{pgn}: game 2 skipped: " in text, text


def test_pgn_openings_with_illegal_moves_print_no_python_chess_log(tmp_path):
    pgn = tmp_path / "o.pgn"
    pgn.write_text('1. e4 e5 2. Ke3 *\n\n1. d4 d5 *\n\n1. Qh5 *\n\n' + CRASHING_GAME)
    engine = f"cmd='{sys.executable} {REPO / 'scripts' / 'random_engine.py'} 1'"
    out = zermelo("match", "--game", "chess", "--openings", str(pgn), "--games", "2", "--depth", "1",
                  "--adjudicate", "maxplies=8", "--seed", "1", "--engine", f"{engine} name=a",
                  "--engine", f"{engine} name=b")
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert "error during pgn parsing" not in text and "Traceback" not in text, text
    assert [line.split(" skipped")[0] for line in text.splitlines() if " skipped: " in line] == [
        "openings game 1", "openings game 3", "openings game 4"], text
