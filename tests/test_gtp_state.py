"""GTP keeps the game's thread: a refused command leaves the game exactly as it was,
every move genmove answers is recorded, the game goes on after two passes and after a
colour plays twice (with its superko history), vertices are ASCII, and ``loadsgf``
never waits on a FIFO nor reads a device without bound."""

from __future__ import annotations

import os
import re
from types import SimpleNamespace

import pytest
from test_gtp import Gtp, board, gtp  # noqa: F401 (fixture)

pytestmark = pytest.mark.both_builds


def stones(rows: list[str]) -> int:
    return sum(row.count("X") + row.count("O") for row in rows)


def test_a_refused_rule_leaves_genmove_playing_and_recording(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("play b E5")
    assert "out of range" in gtp.refused("zermelo-setoption go_width 20")
    assert "komi" in gtp.refused("zermelo-setoption go_komi 0.3")
    white = gtp.ok("genmove w")
    assert white != "pass"
    assert gtp.ok("genmove b") != "pass"
    assert stones(board(gtp)) >= 3
    gtp.ok("undo")
    gtp.ok("undo")
    rows = board(gtp)
    assert stones(rows) == 1 and rows[4][4] == "X"  # undo took the two genmoves, not E5


def test_a_size_the_game_does_not_fit_is_refused_with_the_board_kept(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("play b E5")
    gtp.ok("play w C3")
    rows = board(gtp)
    assert "illegal" in gtp.refused("zermelo-setoption go_size 4")
    assert board(gtp) == rows
    gtp.ok("play b G7")
    assert gtp.ok("genmove w") != ""
    gtp.ok("undo")
    gtp.ok("undo")
    assert board(gtp) == rows
    # A size the game fits works fully: the moves are played again on the new board.
    gtp.ok("zermelo-setoption go_size 5")
    rows = board(gtp)
    assert len(rows) == 5 and rows[0][4] == "X" and rows[2][2] == "O"
    gtp.ok("play b A1")
    gtp.ok("undo")
    assert board(gtp) == rows


def test_a_refused_boardsize_keeps_the_game(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("play b E5")
    rows = board(gtp)
    assert gtp.refused("boardsize 20") == "unacceptable size"
    assert board(gtp) == rows
    gtp.ok("play w C3")
    gtp.ok("undo")
    assert board(gtp) == rows


def test_a_genmove_pass_is_recorded_and_undone(gtp):
    gtp.ok("boardsize 2")
    gtp.ok("komi 0")
    gtp.ok("play b A1")
    gtp.ok("play w pass")
    moves = [gtp.ok("genmove b") for _ in range(3)]
    assert "pass" in moves or stones(board(gtp)) >= 1
    for _ in moves:
        gtp.ok("undo")
    rows = board(gtp)
    assert rows == [".."] + ["X."]  # only the moves of genmove were taken back


def test_a_pass_genmove_in_a_finished_game_is_undone_alone(gtp):
    gtp.ok("boardsize 5")
    gtp.ok("play b C3")
    gtp.ok("play w pass")
    gtp.ok("play b pass")
    assert gtp.ok("genmove w")  # the game goes on: a move or a pass, recorded
    gtp.ok("undo")
    gtp.ok("undo")
    gtp.ok("undo")
    assert stones(board(gtp)) == 1 and board(gtp)[2][2] == "X"


def test_boardsize_after_width_and_height_is_square(gtp):
    gtp.ok("zermelo-setoption go_width 7")
    gtp.ok("zermelo-setoption go_height 5")
    assert len(board(gtp)) == 5 and len(board(gtp)[0]) == 7
    gtp.ok("boardsize 9")
    rows = board(gtp)
    assert len(rows) == 9 and all(len(row) == 9 for row in rows)
    gtp.ok("play b J9")


def test_vertices_are_ascii(gtp):
    gtp.ok("boardsize 19")
    for vertex in ("\u017f3", "\u212a3", "\uff21\uff11", "E\u0665"):
        answer = gtp.refused(f"play b {vertex}")
        assert answer.startswith("invalid vertex"), answer
    assert stones(board(gtp)) == 0
    gtp.ok("play b S3")
    gtp.ok("play w K3")


def test_play_after_two_passes_goes_on(gtp):
    gtp.ok("boardsize 5")
    gtp.ok("play b pass")
    gtp.ok("play w pass")
    gtp.ok("play b C3")
    gtp.ok("play w pass")
    gtp.ok("play b pass")
    gtp.ok("play w B2")
    rows = board(gtp)
    assert rows[2][2] == "X" and rows[3][1] == "O"
    gtp.ok("undo")
    assert board(gtp)[3][1] == "."


def test_superko_history_is_kept_when_a_colour_plays_twice():
    """Black playing twice is played as a pass of White's between: the engine's line
    stays the one game from the start, whose every board superko sees (set up from a
    board instead, the position would start a history of its own)."""
    import games
    from engine.engine import Engine
    from protocol.server.gtp import GtpCommands

    commands = GtpCommands(SimpleNamespace(engine=Engine(games)))
    commands.record = [(0, "C3"), (0, "E1"), (1, "B2"), (1, "D4")]
    text, moves, pos = commands.line()
    assert text is None and moves == ["C3", "pass", "E1", "B2", "pass", "D4"]
    assert pos.turn == 0
    # A finished game that goes on starts from its board (GTP lets it).
    commands.record = [(0, "pass"), (1, "pass"), (0, "C3")]
    text, moves, pos = commands.line()
    assert text is not None and moves == ["C3"]


def test_loadsgf_of_a_fifo_or_a_device_is_refused_at_once(gtp, tmp_path):
    gtp.ok("boardsize 9")
    gtp.ok("play b E5")
    rows = board(gtp)
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)
    assert "not a regular file" in gtp.refused(f"loadsgf {fifo}")
    assert "not a regular file" in gtp.refused("loadsgf /dev/zero")
    assert "not a regular file" in gtp.refused(f"loadsgf {tmp_path}")
    assert board(gtp) == rows
    assert gtp.ok("name") == "zermelo"


def test_every_loadsgf_refusal_says_why(gtp, tmp_path):
    gtp.ok("boardsize 9")
    gtp.ok("play b E5")
    rows = board(gtp)
    cases = {
        "missing.sgf": None,
        "empty.sgf": b"",
        "nothing.sgf": b"no SGF here",
        "cut.sgf": b"(;GM[1]SZ[9];B[ee];W[",
        "big.sgf": b"(;GM[1]SZ[25])",
        "zero.sgf": b"(;GM[1]SZ[0])",
        "off.sgf": b"(;GM[1]SZ[9];B[zz])",
        "twice.sgf": b"(;GM[1]SZ[9];B[ee];W[ee])",
        "komi.sgf": b"(;GM[1]SZ[9]KM[0.3];B[ee])",
        "othello.sgf": b"(;GM[2]SZ[8];B[dc])",
        "long.sgf": b"(;GM[1]SZ[9]" + b";B[ee]" * (1 << 20) + b")",
    }
    for name, data in cases.items():
        path = tmp_path / name
        if data is not None:
            path.write_bytes(data)
        answer = gtp.refused(f"loadsgf {path}")
        reason = answer.removeprefix(f"cannot load file {path}:").strip()
        assert answer.startswith("cannot load file") and reason, (name, answer)
        assert not re.fullmatch(r"'.*'|\d+|[A-Z][a-zA-Z]+Error|not an SGF game", reason), (name, answer)
    assert board(gtp) == rows


def test_genmove_cleanup_takes_dead_stones_off(gtp, tmp_path):
    """White's B3 stands inside Black's unconditional territory (two eyes, A5 and B2's
    region): kgs-genmove_cleanup plays on (B2 takes it) where genmove may pass."""
    black = ["ae", "be", "ce", "ad", "cd", "ac", "cc", "ab", "bb", "cb", "ba", "ca"]
    path = tmp_path / "dead.sgf"
    path.write_text(f"(;GM[1]FF[4]SZ[5]KM[0]AB{''.join(f'[{p}]' for p in black)}AW[bc]PL[B])")
    assert gtp.ok(f"loadsgf {path}") == "black"
    assert "kgs-genmove_cleanup" in gtp.ok("list_commands").split()
    move = gtp.ok("kgs-genmove_cleanup b")
    assert move != "pass"
    gtp.ok("undo")
    gtp.ok("play b B2")  # takes B3
    assert board(gtp)[2][1] == "."
    assert gtp.ok("kgs-genmove_cleanup w")  # nothing of Black's is dead: a genmove


def test_printsgf_gives_a_rectangular_board_its_size(gtp):
    gtp.ok("zermelo-setoption go_width 7")
    gtp.ok("zermelo-setoption go_height 5")
    gtp.ok("play b G5")
    gtp.ok("play w A1")
    sgf = gtp.ok("printsgf")
    assert "SZ[7:5]" in sgf and ";B[ga]" in sgf and ";W[ae]" in sgf, sgf
