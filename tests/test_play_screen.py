"""What ``zermelo play`` shows: Chess960 from one of its arrays, a refused chess
move with its reason, boards whose pieces read on every square, the winning line
picked out, whose colour the user plays, whose point of view a score takes, and
the help panel wrapped between words."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from prompt_toolkit.styles import Style

import games
from engine.game import WIN
from protocol.terminal.app import STYLE, build, sides_text
from protocol.terminal.boards import STYLE_RULES, View, draw
from protocol.terminal.session import COMMANDS, Session, Thinking

ROOT = Path(__file__).resolve().parent.parent


def session(game: str = "chess", **kwargs) -> Session:
    """A session whose engine reports straight back (no event loop), the human on every side."""
    kwargs.setdefault("humans", {0, 1})
    return Session(game, post=lambda fn, *args: fn(*args), **kwargs)


# -- Chess960 ---------------------------------------------------------------------------

def test_chess960_starts_from_the_numbered_array_and_is_titled_so(tmp_path):
    s = session("chess960", array=0)
    assert s.position.to_text() == chess.Board.from_chess960_pos(0).fen()
    assert s.title == "chess960, array 0"
    s.submit("Nc3")
    s.submit(f"save {tmp_path / 'g.txt'}")
    again = session("chess")
    again.submit(f"load {tmp_path / 'g.txt'}")
    assert again.chess960 and again.position.to_text() == s.position.to_text()


def test_chess960_without_a_number_draws_an_array_and_new_draws_another():
    starts = set()
    for _ in range(4):
        s = session("chess960")
        assert s.array is not None and 0 <= s.array < 960
        assert s.position.to_text() == chess.Board.from_chess960_pos(s.array).fen()
        s.submit("new")
        assert s.position.to_text() == chess.Board.from_chess960_pos(s.array).fen()
        starts.add(s.array)
    # Eight draws from 960 arrays: one repeated throughout would be no draw at all.
    assert len(starts) > 1


def test_chess960_through_the_option_too():
    s = session("chess", options={"UCI_Chess960": "true"}, array=518)
    assert s.position.to_text() == chess.STARTING_FEN and s.title == "chess960, array 518"


def test_the_terminal_header_names_chess960():
    term = build(["chess960", "--array", "959"])
    header = "".join(text for _, text in term._header())
    assert "chess960, array 959" in header


def test_an_array_number_is_refused_outside_chess960_and_out_of_range():
    with pytest.raises(SystemExit):
        build(["chess", "--array", "3"])
    with pytest.raises(SystemExit):
        build(["chess960", "--array", "960"])


# -- why a chess move is refused --------------------------------------------------------

@pytest.mark.parametrize("fen, text, reason", [
    (None, "Ke3", "the king on e1 cannot reach e3"),
    (None, "Nd4", "no knight can reach d4"),
    (None, "e5", "no pawn can move to e5"),
    (None, "O-O", "the squares between the king and the rook are not empty"),
    (None, "e2e5", "the pawn on e2 cannot move to e5"),
    (None, "e7e5", "the pawn on e7 is black's"),
    (None, "Qd1", "d1 holds white's own queen"),
    ("4k3/8/8/8/8/4r3/8/4K3 w - - 0 1", "Ke2", "the king would be in check on e2"),
    ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nf4", "the knight on e2 is pinned to its king"),
    ("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "O-O", "the king would pass through or land on an attacked square"),
    ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "O-O-O", "white may not castle out of check"),
    ("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1", "white may no longer castle kingside"),
    ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8", "promotes: add the piece"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Qd4", "white has no queen"),
    (None, "hello", "not a move"),
])
def test_a_refused_chess_move_says_why(fen, text, reason):
    s = session("chess", start=fen)
    before = s.position.to_text()
    s.submit(text)
    assert s.message.startswith(f"illegal move {text!r}: ")
    assert reason in s.message
    assert s.moves == [] and s.position.to_text() == before


def test_ambiguous_stays_ambiguous():
    s = session("chess", start="4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1")
    s.submit("Ne4")
    assert s.message == "ambiguous move 'Ne4': Nce4 or Nge4"


# -- boards -------------------------------------------------------------------------------

def _luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _colours(fragments) -> list[tuple[str, str, str]]:
    """(fg, bg, text) of every piece drawn, as the screen's style resolves them."""
    out = []
    for style, text in fragments:
        if text.strip() and ("piece" in style or "disc" in style):
            attrs = STYLE.get_attrs_for_style_str(style)
            if attrs.color and attrs.bgcolor:
                out.append(("#" + attrs.color, "#" + attrs.bgcolor, text.strip()))
    return out


@pytest.mark.parametrize("name, text, last", [
    ("chess", None, None),
    ("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", chess.STARTING_FEN),
    ("shashki", None, None),
    ("checkers", None, None),
    ("reversi", None, None),
    ("connect4", None, None),
])
def test_every_piece_stands_out_from_its_square(name, text, last):
    game = games.load(name)
    pos = game.new_position(text)
    if name == "connect4":
        for m in "4455":
            pos.push(pos.parse_move(m))
    pieces = _colours(draw(View(game, pos, last)))
    assert pieces
    for fg, bg, glyph in pieces:
        # WCAG's 3:1 for large text: a bold glyph on its square.
        assert _contrast(fg, bg) >= 3, (name, glyph, fg, bg)


def test_both_chess_sides_are_solid_glyphs_in_colour_and_white_outlined_without():
    game = games.load("chess")
    pos = game.new_position()
    colour = "".join(text for _, text in draw(View(game, pos)))
    assert "♔" not in colour and colour.count("♚") == 2 and colour.count("♟") == 16
    mono = "".join(text for _, text in draw(View(game, pos, mono=True)))
    assert mono.count("♔") == 1 and mono.count("♙") == 8 and mono.count("♟") == 8


def test_connect4_discs_of_both_sides_are_solid():
    game = games.load("connect4")
    pos = game.new_position()
    pos.push(pos.parse_move("4"))
    pos.push(pos.parse_move("4"))
    fragments = draw(View(game, pos))
    second = [text for style, text in fragments if "second-disc" in style]
    assert second == [" ● "]
    assert not any("○" in text for _, text in fragments)


@pytest.mark.parametrize("name, moves, k", [
    ("connect4", "1212121", 4),
    ("connect4", "12233434544", 4),
    ("tictactoe", "a1 a2 b1 b2 c1", 3),
])
def test_the_winning_line_is_picked_out(name, moves, k):
    game = games.load(name)
    pos = game.new_position()
    plain = draw(View(game, pos))
    assert not any("class:win" in style for style, _ in plain)
    for m in moves.split() if " " in moves else moves:
        pos.push(pos.parse_move(m))
    assert pos.outcome() is not None
    won = [text for style, text in draw(View(game, pos)) if "class:win" in style]
    assert len(won) == k


def test_the_win_style_is_reverse_video():
    assert Style.from_dict(STYLE_RULES).get_attrs_for_style_str("class:win").reverse


# -- what the screen says -------------------------------------------------------------------

@pytest.mark.parametrize("argv, expected", [
    (["chess"], "you play white, zermelo black"),
    (["chess", "--human", "black"], "you play black, zermelo white"),
    (["chess", "--human", "none"], "zermelo plays every side"),
    (["rolit", "--players", "3", "--human", "2"], "you play yellow, zermelo red and green"),
])
def test_the_header_says_which_side_the_user_plays(argv, expected):
    term = build(argv)
    assert sides_text(term.session) == expected
    assert expected in "".join(text for _, text in term._header())


def test_a_score_says_whose_it_is():
    s = session("chess", humans={0})
    job = Thinking("move", player=1)
    job.score, job.depth = 50, 3
    assert "score -0.50 for you" in s.search_text(job)
    hint = Thinking("hint", player=0)
    hint.score = 50
    assert "score +0.50 for you" in s.search_text(hint)
    both = session("chess", humans=set())
    assert "score -0.50 for white" in both.search_text(job)


def test_one_ply_is_singular():
    s = session("connect4")
    assert s.score_text(WIN - 1) == "win in 1 ply"
    assert s.score_text(WIN - 3) == "win in 3 plies"
    assert s.score_text(-(WIN - 2)) == "loss in 2 plies"


@pytest.mark.parametrize("width", [45, 60, 80])
def test_the_help_panel_wraps_between_words(width):
    term = build(["chess"])
    term.session.submit("help")
    term._panel_width = lambda: width
    lines = "".join(text for _, text in term._panel()).split("\n")
    assert all(len(line) <= width for line in lines), lines
    words = {w for line in lines for w in line.split()}
    for name, text in COMMANDS.items():
        assert name in words
        assert set(text.split()) <= words, text


# -- no terminal ----------------------------------------------------------------------------

def _play(*argv: str, stdin: str | None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", "play", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)


@pytest.mark.parametrize("stdin", [None, "\n"])
def test_play_without_a_terminal_ends_cleanly(stdin):
    out = _play("chess", stdin=stdin)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "EOFError" not in out.stderr
    assert "you play white" in out.stdout


def test_play_reads_moves_line_by_line_from_a_pipe():
    out = _play("nim", "--human", "both", stdin="2\n2\n3\n2\n1\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "illegal move '3'" in out.stdout
    assert re.search(r"game over: 1-0", out.stdout), out.stdout


def test_play_from_a_pipe_lets_the_engine_answer():
    out = _play("chess", "--depth", "1", stdin="e4\nKe3\n")
    assert out.returncode == 0, out.stderr
    assert re.search(r"black played \S+", out.stdout), out.stdout
    assert "illegal move 'Ke3':" in out.stdout
