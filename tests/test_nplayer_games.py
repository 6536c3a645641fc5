"""Rolit and the N-player m,n,k-game: rules, vectors, and perft against simple versions.

The simple versions (:mod:`tests.nplayer_simple`) walk plain 2D boards and share
only the position text with the games; two-player Rolit on a board of two colours
is also checked against reversi, whose captures it shares.
"""

from __future__ import annotations

import random

import pytest

import games
from engine.game import IllegalMoveError, InvalidPositionError
from engine.perft import perft
from games.reversi import PASS
from tests.nplayer_simple import mnk_perft, rolit_perft

EMPTY = "-" * 64


def board(**squares: str) -> str:
    """A Rolit board text with ``squares`` (name -> colour letter) on it, the rest empty."""
    cells = list(EMPTY)
    for name, colour in squares.items():
        cells[8 * (int(name[1]) - 1) + "abcdefgh".index(name[0])] = colour
    return "".join(cells)


def names(pos, moves) -> list[str]:
    return sorted(pos.move_text(m) for m in moves)


def random_positions(game, count: int, seed: str):
    """Positions along random playouts of ``game``: ``count`` texts at spread-out plies."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = game.new_position()
        stop = rng.randrange(0, 60)
        for _ in range(stop):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        out.append(pos.to_text())
    return out


# -- Rolit rules ---------------------------------------------------------------

@pytest.mark.parametrize("players,colours", [(4, ("red", "yellow", "green", "blue")),
                                             (3, ("red", "yellow", "green")), (2, ("red", "green"))])
def test_rolit_start_and_colours(players, colours):
    game = games.load("rolit", players=players)
    assert game.players == colours
    pos = game.new_position()
    # The four centre balls whatever the player count; red moves first.
    assert pos.to_text() == board(d4="r", e4="y", d5="b", e5="g") + " r"
    assert pos.turn == 0


def test_rolit_published_opening():
    """From the start red captures with d6 (blue), f4 (yellow) or f6 (green); after f4
    yellow has no ball left, so no capture, and may play any of 14 squares next to a ball."""
    pos = games.load("rolit").new_position()
    assert names(pos, pos.legal_moves()) == ["d6", "f4", "f6"]
    pos.push(pos.parse_move("f4"))
    assert pos.to_text() == board(d4="r", e4="r", f4="r", d5="b", e5="g") + " y"
    assert pos.turn == 1 and pos.captures() == 0
    assert len(pos.legal_moves()) == 14
    with pytest.raises(IllegalMoveError, match="not next to a ball"):
        pos.parse_move("a1")


def test_rolit_turn_order_and_capture_is_compulsory():
    game = games.load("rolit")
    pos = game.new_position()
    seen = []
    for _ in range(8):
        seen.append(game.players[pos.turn])
        pos.push(pos.legal_moves()[0])
    assert seen == ["red", "yellow", "green", "blue"] * 2
    # Red can capture with d6, so a mere placement beside a ball is refused.
    start = game.new_position()
    with pytest.raises(IllegalMoveError, match="capture is possible"):
        start.parse_move("c3")


def test_rolit_neutral_balls_turn_and_count_for_nobody():
    """With three players blue is neutral: red may flank it, and it scores for nobody."""
    game = games.load("rolit", players=3)
    pos = game.new_position()
    pos.push(pos.parse_move("d6"))
    assert pos.to_text() == board(d4="r", e4="y", d5="r", d6="r", e5="g") + " y"
    assert pos.counts() == [3, 1, 1]
    with pytest.raises(InvalidPositionError, match="not in play"):
        game.new_position(board(d4="r", e4="y") + " b")


def test_rolit_flanks_mixed_colours_in_every_direction():
    """A line of several other colours is flanked as one, in all directions at once."""
    text = board(a1="r", b1="y", c1="b", d1="-", a4="r", a3="g", a2="y", h8="g", e5="y") + " r"
    pos = games.load("rolit").new_position(text)
    pos.push(pos.parse_move("d1"))
    # Row 1 (b1 yellow, c1 blue) turns; the column a line (a2, a3) does not start at d1.
    assert pos.to_text() == board(a1="r", b1="r", c1="r", d1="r", a4="r", a3="g", a2="y", h8="g",
                                  e5="y") + " y"
    pos = games.load("rolit").new_position(board(a1="r", b2="g", c3="y", d4="-", d2="y", d3="b", d5="r",
                                                 f4="r", e4="b") + " r")
    pos.push(pos.parse_move("d4"))
    assert sorted(pos.move_text(sq) for sq in range(64) if pos.to_text()[sq] == "r") == [
        "a1", "b2", "c3", "d4", "d5", "e4", "f4"]


def test_rolit_key_includes_the_turn():
    game = games.load("rolit")
    a = game.new_position(board(d4="r", e4="y", d5="b", e5="g") + " r")
    b = game.new_position(board(d4="r", e4="y", d5="b", e5="g") + " y")
    assert a.key != b.key


def test_rolit_end_vectors_with_a_shared_first_place():
    """A full board where red and yellow tie on 20: each gets S // 2, ranks 1, 1, 3, 4."""
    game = games.load("rolit")
    text = "r" * 20 + "y" * 20 + "g" * 14 + "b" * 10 + " g"
    pos = game.new_position(text)
    assert pos.legal_moves() == []
    assert pos.result() == [500, 500, 0, 0]
    assert pos.ranking() == [1, 1, 3, 4]
    assert pos.outcome() == -1  # green to move, not first
    assert game.new_position(text[:-1] + "y").outcome() == 0
    sole = game.new_position("r" * 21 + "y" * 19 + "g" * 14 + "b" * 10 + " r")
    assert (sole.result(), sole.ranking(), sole.outcome()) == ([1000, 0, 0, 0], [1, 2, 3, 4], 1)


def test_rolit_values_never_claim_a_win():
    game = games.load("rolit")
    pos = game.new_position(board(d4="r", e4="r", d5="r", e5="r", a1="r") + " y")
    values = pos.values()
    assert values[0] == max(values) and values[0] < game.value_sum and values[1:] == [0, 0, 0]
    assert pos.result() is None and pos.ranking() is None and pos.outcome() is None
    # A corner is worth more than a ball in the middle.
    corner = game.new_position(board(d4="r", e4="y", a1="y", d5="b", e5="g") + " r").values()
    middle = game.new_position(board(d4="r", e4="y", c3="y", d5="b", e5="g") + " r").values()
    assert corner[1] > middle[1]


def test_rolit_bad_text():
    game = games.load("rolit")
    for bad in (EMPTY + " r", board(d4="r") + " x", board(d4="q") + " r", board(d4="r")[:60] + " r"):
        with pytest.raises(InvalidPositionError):
            game.new_position(bad)
    # Upper case, '.' for empty, rows split by '/', the colour spelled out.
    loose = "/".join(board(d4="R", e4="Y").replace("-", ".")[8 * r:8 * r + 8] for r in range(8)) + " yellow"
    assert game.new_position(loose).to_text() == board(d4="r", e4="y") + " y"


def test_two_player_rolit_captures_as_reversi():
    """On a board of red and green only, two-player Rolit moves and flips as reversi
    (red as black): the same capturing moves, the same boards after them; where
    reversi would pass, Rolit places beside a ball instead."""
    reversi = games.load("reversi")
    rolit = games.load("rolit", players=2)
    rng = random.Random("rolit/reversi")
    checked = passes = 0
    for _ in range(6):
        pos = reversi.new_position()
        while pos.legal_moves():
            text = pos.to_text()
            twin = rolit.new_position(text.replace("X", "r").replace("O", "g"))
            moves = pos.legal_moves()
            if moves == [PASS]:
                passes += 1
                assert twin.captures() == 0 and twin.legal_moves()
            else:
                assert sorted(twin.legal_moves()) == sorted(moves)
                for m in moves:
                    pos.push(m)
                    twin.push(m)
                    assert twin.to_text() == pos.to_text().replace("X", "r").replace("O", "g")
                    twin.pop()
                    pos.pop()
                checked += 1
            pos.push(rng.choice(moves))
    assert checked > 300


# -- the N-player m,n,k-game --------------------------------------------------------

def test_mnkmulti_defaults_and_turns():
    game = games.load("mnkmulti")
    assert game.players == ("x", "o", "+") and (game.m, game.n, game.k) == (6, 6, 4)
    pos = game.new_position()
    for expected in (0, 1, 2, 0):
        assert pos.turn == expected
        pos.push(pos.legal_moves()[0])
    assert games.load("mnk-multi", players=4).players == ("x", "o", "+", "*")


def test_mnkmulti_line_wins_and_others_lose():
    game = games.load("mnkmulti")
    # x has c1, c2, c3; o and + three stones each elsewhere; x completes c1-c4.
    pos = game.new_position("+4o/4+1/6/2x3/2x+o1/o1x3 x")
    pos.push(pos.parse_move("c4"))
    assert pos.legal_moves() == []
    assert pos.result() == [1000, 0, 0] and pos.ranking() == [1, 2, 2] and pos.outcome() == -1
    assert game.new_position(pos.to_text()).result() == [1000, 0, 0]
    with pytest.raises(IllegalMoveError, match="over"):
        pos.parse_move("a6")
    pos.pop()
    assert pos.result() is None and len(pos.legal_moves()) == 36 - 9


def test_mnkmulti_full_board_draw():
    game = games.load("mnkmulti", players=3, m=3, n=3, k=3)
    pos = game.new_position("xo+/o+x/xo+ x")
    assert pos.legal_moves() == []
    assert pos.result() == [333, 333, 333] and pos.ranking() == [1, 1, 1] and pos.outcome() == 0
    # The same board with a line of + on the anti-diagonal: + won.
    won = game.new_position("xo+/o+x/+ox x")
    assert won.result() == [0, 0, 1000] and won.ranking() == [2, 2, 1]


def test_mnkmulti_bad_text():
    game = games.load("mnkmulti")
    for bad in ("6/6/6/6/6/6 o",          # o cannot move first
                "6/6/6/6/6/xo4 x" + "x",  # no such side
                "6/6/6/6/6/xx4 o",        # x two stones ahead
                "6/6/6/6/6/*5 o",         # no fourth player
                "xxxx2/oooo2/++++2/6/6/6 x"):  # lines for everybody
        with pytest.raises(InvalidPositionError):
            game.new_position(bad)


def test_mnkmulti_values_follow_open_lines():
    game = games.load("mnkmulti")
    pos = game.new_position()
    assert len(set(pos.values())) == 1
    pos.push(pos.parse_move("c3"))
    values = pos.values()
    assert values[0] > values[1] == values[2]
    assert all(v < game.value_sum for v in values) and sum(values) <= game.value_sum


# -- perft against the simple versions -----------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_rolit_perft_matches_simple(players):
    game = games.load("rolit", players=players)
    start = game.new_position()
    assert [perft(start, d) for d in range(1, 5)] == [rolit_perft(start.to_text(), players, d) for d in range(1, 5)]
    for text in random_positions(game, 6, f"rolit-perft/{players}"):
        pos = game.new_position(text)
        assert perft(pos, 3) == rolit_perft(text, players, 3), text


@pytest.mark.parametrize("players,m,n,k", [(3, 6, 6, 4), (2, 4, 4, 3), (4, 5, 5, 3), (3, 4, 4, 3)])
def test_mnkmulti_perft_matches_simple(players, m, n, k):
    game = games.load("mnkmulti", players=players, m=m, n=n, k=k)
    depth = 3 if m * n > 20 else 5
    for text in [game.new_position().to_text()] + random_positions(game, 8, f"mnk-perft/{players}{m}{n}{k}"):
        pos = game.new_position(text)
        for d in range(depth + 1):
            assert perft(pos, d) == mnk_perft(text, players, m, k, d), (text, d)
