"""Go: the count of legal positions from the literature, the rules one by one, the
position text, the parameters, perft against the simple implementation, the search
and the protocol over a real pipe."""

from __future__ import annotations

import itertools

import pytest

import games
from engine.game import IllegalMoveError, InvalidPositionError
from engine.perft import perft
from engine.search import Searcher
from engine.timeman import Limits
from games.go import legal_position
from go_simple import SimpleGo, legal_colouring
from test_protocol import bestmove, pipe, start  # noqa: F401 (fixture)

pytestmark = pytest.mark.both_builds


def go(size=5, **params):
    return games.load("go", size=size, **params)


def play(pos, *moves):
    for m in moves:
        pos.push(pos.parse_move(m))
    return pos


def refusal(pos, move) -> str:
    with pytest.raises(IllegalMoveError) as e:
        pos.parse_move(move)
    return str(e.value)


# -- legal positions (Tromp & Farnebäck, "Combinatorics of Go") ------------------------


@pytest.mark.parametrize("size,count", [(1, 1), (2, 57), (3, 12_675)])
def test_legal_positions_match_the_published_counts(size, count):
    """Every colouring of the board, kept when each group has a liberty by the game's own
    group code: 1, 57 and 12,675 legal positions on 1×1, 2×2 and 3×3."""
    game = go(size)
    assert sum(legal_position(game, list(c)) for c in itertools.product(range(3), repeat=size * size)) == count


@pytest.mark.parametrize("width,height", [(1, 7), (7, 1), (2, 4), (4, 2), (2, 3)])
def test_legal_positions_of_rectangles_agree_with_the_simple_implementation(width, height):
    game = games.load("go", width=width, height=height)
    for colours in itertools.product(range(3), repeat=width * height):
        assert legal_position(game, list(colours)) == legal_colouring(width, height, list(colours)), colours


# -- rules -------------------------------------------------------------------------------


def test_a_capture_takes_every_group_left_without_a_liberty():
    pos = play(go().new_position("...../...../...../...../ox... x - 0"), "A2")
    assert pos.to_text() == "...../...../...../x..../.x... o - 0"
    # Two groups at once, and a lone stone taken by a stone keeping other liberties: no ko.
    pos = play(go().new_position("...../...../...../.x.x./xo.ox x - 0"), "C1")
    assert pos.to_text() == "...../...../...../.x.x./x.x.x o - 0"


def test_suicide_is_refused_unless_it_captures():
    assert "suicide" in refusal(go().new_position(".o.../o..../...../...../..... x - 0"), "A5")
    assert "suicide" in refusal(go().new_position("x..../.x.../x..../...../..... o - 0"), "A4")
    # A multi-stone suicide is refused too.
    assert "suicide" in refusal(go().new_position("o.x../xx.../...../...../..... o - 0"), "B5")
    # The same kind of point captures when the stones beside it are in atari.
    pos = play(go().new_position(".ox../ox.../x..../...../..... x - 0"), "A5")
    assert pos.rows()[:2] == ["x.x..", ".x..."]


def test_ko_refuses_the_immediate_retake_in_both_rules():
    text = "...../...../.xo../xo.o./.xo.. x - 0"
    for ko in ("superko", "simple"):
        pos = go(ko=ko).new_position(text)
        play(pos, "C2")
        assert pos.to_text() == "...../...../.xo../x.xo./.xo.. o B2 0"
        assert "ko" in refusal(pos, "B2")
        assert pos.parse_move("E5") is not None
        # After a move elsewhere on each side, the ko may be retaken.
        play(pos, "E5", "A5", "B2")
        assert pos.rows()[3] == "xo.o."


def test_the_ko_point_of_a_text_is_kept():
    pos = go().new_position("...../...../.xo../x.xo./.xo.. o B2 0")
    assert "ko" in refusal(pos, "B2")
    assert pos.ko and pos.key == pos.compute_key()


def test_positional_superko_refuses_any_earlier_board():
    """On 1×3: Black A1, White B1, Black passes, White C1 takes A1; Black's A1 would
    take both white stones and make the board after move 1 again."""
    pos = play(games.load("go", width=3, height=1).new_position(), "A1", "B1", "pass", "C1")
    assert pos.to_text() == ".oo x - 0"
    assert "superko" in refusal(pos, "A1")
    assert pos.legal_moves() == [pos.pass_move]
    simple = play(games.load("go", width=3, height=1, ko="simple").new_position(), "A1", "B1", "pass", "C1")
    play(simple, "A1")
    assert simple.to_text() == "x.. o - 0"


def test_two_passes_end_the_game_scored_by_area_and_komi():
    pos = go(komi=0.5).new_position("..x../.xx../xx.o./..oo./.oo.. x - 0")
    play(pos, "pass")
    assert pos.legal_moves() and pos.outcome() is None
    play(pos, "pass")
    assert pos.legal_moves() == [] and "the game is over" in refusal(pos, "pass")
    # Black: 5 stones and the region A5 B5 A4; White: 5 stones; the other regions
    # reach both colours and count for nobody.
    assert pos.area() == (8, 5)
    assert pos.turn == 0 and pos.outcome() == pos.no_moves_value() == 1
    even = play(go(komi=3).new_position(pos.to_text().replace("x - 2", "x - 0")), "pass", "pass")
    assert even.outcome() == 0
    lost = play(go(komi=3.5).new_position(pos.to_text().replace("x - 2", "x - 0")), "pass")
    assert lost.turn == 1 and play(lost, "pass").outcome() == -1 and lost.turn == 0


def test_a_pass_clears_the_ko_and_is_in_the_key():
    pos = go().new_position("...../...../.xo../x.xo./.xo.. o B2 0")
    key = pos.key
    play(pos, "pass")
    assert pos.ko == 0 and pos.to_text().endswith("x - 1") and pos.key == pos.compute_key() != key
    pos.pop()
    assert pos.key == key


def test_one_by_one_only_passes():
    pos = go(1).new_position()
    assert [pos.move_text(m) for m in pos.legal_moves()] == ["pass"]
    assert "suicide" in refusal(pos, "A1")
    play(pos, "pass", "pass")
    assert pos.outcome() == 0


def test_gtp_points_skip_i():
    pos = games.load("go").new_position()
    assert pos.parse_move("J9") == 80 and pos.move_text(8) == "J1" and pos.parse_move("a1") == 0
    assert pos.parse_move("PASS") == 81 == pos.game.pass_move
    for bad in ("I5", "K1", "A10", "A0", "A01", "pass1", "resign"):
        refusal(pos, bad)


# -- parameters ----------------------------------------------------------------------------


def test_komi_defaults_by_board_size_and_can_be_set():
    assert games.load("go").komi == 7.5 and go(7).komi == 0 and go(13).komi == 7.5
    assert games.load("go", width=7, height=9).komi == 0 and games.load("go", width=9, height=11).komi == 7.5
    assert go(komi="6.5").komi == 6.5 and go(9, komi="").komi == 7.5 and go(9, komi=-3).komi == -3
    for bad in (0.3, "x", float("nan"), 5000):
        with pytest.raises(ValueError):
            go(komi=bad)


def test_rectangular_boards():
    game = games.load("go", width=6, height=3)
    pos = game.new_position()
    assert pos.to_text() == "....../....../...... x - 0" and len(pos.legal_moves()) == 19
    assert pos.move_text(17) == "F3" and pos.parse_move("F3") == 17
    with pytest.raises(IllegalMoveError):
        pos.parse_move("A4")


# -- position text ---------------------------------------------------------------------------


def test_text_variants_read_and_written():
    game = go()
    pos = game.new_position("5/1x3/2O2/5/+-... w")
    assert pos.to_text() == "...../.x.../..o../...../..... o - 0"
    assert game.new_position(pos.to_text()).key == pos.key


@pytest.mark.parametrize("bad", [
    "...../...../...../...../..... x - 0 extra",
    "...../...../...../..... x",
    "...../...../...../...../...... x",
    "...../...../...../...../....z x",
    "...../...../...../...../..... y",
    "...../...../...../...../..... x - 3",
    "xo.../o..../...../...../..... x",          # a black stone without a liberty
    "...../...../...../...../..... x C3 0",     # no ko shape there
    "...../...../.xo../x.xo./.xo.. o B2 1",     # a pass would have lifted the ko
    "...../...../.xo../x.xo./.xo.. x B2 0",     # the ko belongs to the other side
    "...../...../...../...../..... x Z9 0",
])
def test_bad_texts_are_refused(bad):
    with pytest.raises(InvalidPositionError):
        go().new_position(bad)


# -- perft against the simple implementation ----------------------------------------------------


def simple_perft(game: SimpleGo, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in game.legal():
        child = SimpleGo(game.width, game.height, game.superko)
        child.board, child.turn, child.passes = dict(game.board), game.turn, game.passes
        child.history, child.seen = list(game.history), set(game.seen)
        child.play(move)
        total += simple_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("width,height,depth", [(2, 2, 6), (3, 2, 5), (3, 3, 3)])
def test_perft_agrees_with_the_simple_implementation(width, height, depth):
    pos = games.load("go", width=width, height=height).new_position()
    assert perft(pos, depth) == simple_perft(SimpleGo(width, height), depth)


# -- search ------------------------------------------------------------------------------------


def test_the_search_takes_a_large_group():
    game = go(komi=0.5)
    pos = game.new_position("oooo./xxxo./xx.o./xxxo./oooo. o - 0")
    result = Searcher(1).search(game, pos, Limits(depth=2))
    assert pos.move_text(result.best) == "C3"


def test_go_over_a_pipe_keeps_its_position_after_bad_moves(pipe):  # noqa: F811 (fixture)
    start(pipe, "go")
    pipe.send("setoption name go_size value 5", "position startpos moves C3 D3", "d")
    before = [line for line in pipe.until("Legal moves") if line.startswith("Text: ")]
    assert before == ["Text: ...../...../..xo./...../..... x - 0"]
    for bad in ("position startpos moves C3 C3", "position startpos moves C3 I3", "position fen xo/ox x"):
        pipe.send(bad)
        lines = pipe.quiet(0.3)
        assert len(lines) == 1 and lines[0].startswith("info string error: "), (bad, lines)
    pipe.send("d")
    assert [line for line in pipe.until("Legal moves") if line.startswith("Text: ")] == before
    # A refused position makes the next go answer no move, until a good one comes.
    pipe.send("position startpos moves C3 D3", "go depth 2")
    move = bestmove(pipe.until("bestmove"))
    pos = play(go().new_position(), "C3", "D3")
    assert pos.parse_move(move) in pos.legal_moves()
