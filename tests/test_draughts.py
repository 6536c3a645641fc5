"""English checkers and Russian draughts: published perft, rules on hand-made
positions, notation and position text, draw rules, evaluation symmetry."""

from __future__ import annotations

import pytest

import games
from engine.game import IllegalMoveError, InvalidPositionError, bits
from engine.perft import perft
from games.draughts.board import SQUARE, algebraic
from games.draughts.board import CAP_SHIFT, PROMO

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

# REFERENCE.md: English checkers and Russian draughts from the start.
CHECKERS_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]
SHASHKI_PERFT = [7, 49, 302, 1469, 7482, 37986, 190146, 929899]


@pytest.fixture(scope="module")
def checkers():
    return games.load("checkers")


@pytest.fixture(scope="module")
def shashki():
    return games.load("russian")


def texts(pos):
    return sorted(pos.move_text(m) for m in pos.legal_moves())


# -- perft ------------------------------------------------------------------

@pytest.mark.parametrize("depth", range(1, 9))
def test_checkers_perft(checkers, depth):
    assert perft(checkers.new_position(), depth) == CHECKERS_PERFT[depth - 1]


@pytest.mark.parametrize("depth", range(1, 9))
def test_shashki_perft(shashki, depth):
    assert perft(shashki.new_position(), depth) == SHASHKI_PERFT[depth - 1]


def test_shashki_perft_counting_every_capture_path(shashki):
    """The published d8 figure that keeps duplicate capture sequences (929,905)
    counts the paths ``capture_sequences`` enumerates."""
    pos = shashki.new_position()

    def sequences(depth):
        moves = [m for m, _ in pos.capture_sequences()] if pos.noisy_moves() else pos.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            pos.push(m)
            total += sequences(depth - 1)
            pos.pop()
        return total

    assert sequences(8) == 929905


# -- checkers rules -----------------------------------------------------------

def test_checkers_start(checkers):
    pos = checkers.new_position()
    assert checkers.players == ("black", "white") and pos.turn == 0
    assert texts(pos) == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    assert pos.to_text() == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def test_checkers_multi_jump_and_short_form(checkers):
    pos = checkers.new_position("B:W6,15,30:B1")
    assert texts(pos) == ["1x10x19"]
    m = pos.parse_move("1x19")
    assert m == pos.parse_move("1x10x19") and m >> CAP_SHIFT == 1 << _i(6) | 1 << _i(15)
    pos.push(m)
    assert pos.to_text() == "W:W30:B19"


def test_checkers_capture_is_compulsory(checkers):
    pos = checkers.new_position("B:W18,30:B9,14")
    assert texts(pos) == ["14x23"]
    assert not pos.can_stand_pat() and pos.noisy_moves() == pos.legal_moves()
    with pytest.raises(IllegalMoveError):
        pos.parse_move("9-13")


def test_checkers_crowning_ends_the_move(checkers):
    # Crowned on 31, the new king could jump 27 at once; the rules stop it there.
    pos = checkers.new_position("B:W26,27:B22")
    assert texts(pos) == ["22x31"]
    pos.push(pos.parse_move("22x31"))
    assert pos.to_text() == "W:W27:BK31"
    assert pos.move_text(pos.legal_moves()[0]) in ("27-23", "27-24")


def test_checkers_men_do_not_capture_backwards_kings_do(checkers):
    assert texts(checkers.new_position("B:W10:B14")) == ["14-17", "14-18"]
    assert texts(checkers.new_position("B:W10:BK14")) == ["14x7"]


def test_checkers_king_cycle_is_one_move(checkers):
    # King on c5 takes d6, f6, f4, d4 round the diamond either way: one move
    # back to c5, with either path accepted.
    pos = checkers.new_position("B:W" + ",".join(_pdn(s) for s in ("d6", "f6", "f4", "d4")) + ":BK" + _pdn("c5"))
    moves = pos.legal_moves()
    assert len(moves) == 1 and len(pos.capture_sequences()) == 2
    m = moves[0]
    assert m & 63 == m >> 6 & 63 and (m >> CAP_SHIFT).bit_count() == 4
    for _, path in pos.capture_sequences():
        assert pos.parse_move("x".join(str(SQUARE[i]) for i in path)) == m
    with pytest.raises(IllegalMoveError):
        pos.parse_move(f"{_pdn('c5')}x{_pdn('c5')}x{_pdn('c5')}")


def test_checkers_short_capture_ambiguous(checkers):
    # 2x9x18 and 2x11x18 both go from 2 to 18: the short form must be refused.
    pos = checkers.new_position("B:W6,7,14,15:B2")
    assert texts(pos) == ["2x11x18", "2x9x18"]
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        pos.parse_move("2x18")


def test_checkers_blocked_side_loses(checkers):
    pos = checkers.new_position("B:W32:B28")
    assert pos.legal_moves() == [] and pos.outcome() is None and pos.no_moves_value() == -1


# -- shashki rules ------------------------------------------------------------

def test_shashki_start(shashki):
    pos = shashki.new_position()
    assert shashki.players == ("white", "black") and pos.turn == 0
    assert texts(pos) == sorted(["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"])


def test_shashki_men_capture_backwards(shashki):
    assert texts(shashki.new_position("W:Wd4:Bc3")) == ["d4:b2"]


def test_shashki_crowning_mid_capture_continues_as_king(shashki):
    # b6 takes c7 and lands on d8 crowned, then flies along d8-h4 to take g5.
    pos = shashki.new_position("W:Wb6:Bc7,g5")
    assert texts(pos) == ["b6:d8:h4"]
    m = pos.legal_moves()[0]
    assert m & PROMO
    pos.push(m)
    assert pos.to_text() == "B:WKh4:B"


def test_shashki_flying_king_lands_anywhere_beyond(shashki):
    pos = shashki.new_position("W:WKa1:Bc3")
    assert texts(pos) == ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]


def test_shashki_king_must_land_where_the_capture_goes_on(shashki):
    pos = shashki.new_position("W:WKa1:Bc3,g3")
    assert texts(pos) == ["a1:e5:h2"]
    assert pos.parse_move("a1:h2") == pos.parse_move("a1xe5xh2")


def test_shashki_turkish_strike(shashki):
    # After f4:h2 the captured g3 still stands and blocks the way back to c7.
    pos = shashki.new_position("W:WKf4:Bg3,c7")
    assert texts(pos) == ["f4:b8", "f4:h2"]
    for m in pos.legal_moves():
        assert (m >> CAP_SHIFT).bit_count() == 1


def test_shashki_flying_king_quiet_moves(shashki):
    assert len(shashki.new_position("W:WKa1:Bh6").legal_moves()) == 7
    # The king on d4 stops at its own man on f6 and at a1, which it cannot take.
    assert texts(shashki.new_position("B:Wa1:BKd4,f6")) == sorted(
        ["d4-c3", "d4-b2", "d4-c5", "d4-b6", "d4-a7", "d4-e3", "d4-f2", "d4-g1", "d4-e5",
         "f6-e5", "f6-g5"])


def test_shashki_no_pieces_loses(shashki):
    pos = shashki.new_position("B:WKh4:B")
    assert pos.legal_moves() == [] and pos.outcome() is None and pos.no_moves_value() == -1


# -- text ---------------------------------------------------------------------

@pytest.mark.parametrize("name,given,canonical", [
    ("checkers", "B:W21-32:B1-12", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
    ("checkers", "W:BK3,12,1:WK30,18.", "W:W18,K30:B1,12,K3"),
    ("checkers", "w:W18:B1:H7:F20", "W:W18:B1"),
    ("shashki", "W:Bh8,b8,Kd4:Wa1,KC3", "W:Wa1,Kc3:Bb8,h8,Kd4"),
])
def test_fen_round_trip(name, given, canonical):
    game = games.load(name)
    pos = game.new_position(given)
    assert pos.to_text() == canonical
    assert game.new_position(canonical).key == pos.key


@pytest.mark.parametrize("name,bad", [
    ("checkers", "B:W21,21:B1"), ("checkers", "B:W21:B21"), ("checkers", "B:W33:B1"),
    ("checkers", "B:W1:B12"), ("checkers", "B:W21:B29"), ("checkers", "X:W21:B1"),
    ("checkers", "B:W21:B1:W22"), ("checkers", "B:W21-40:B1"),
    ("shashki", "W:Wa2:Bb8"), ("shashki", "W:Wa8:Bb6"), ("shashki", "W:Wc3:Bb1"), ("shashki", "W:W21:B1"),
])
def test_bad_fen(name, bad):
    with pytest.raises(InvalidPositionError):
        games.load(name).new_position(bad)


@pytest.mark.parametrize("name", ["checkers", "shashki"])
def test_bench_texts_are_canonical(name):
    game = games.load(name)
    assert game.bench_texts[0] == game.new_position().to_text()
    for text in game.bench_texts:
        pos = game.new_position(text)
        assert pos.to_text() == text and pos.legal_moves()
        assert pos.occ[0].bit_count() <= 12 and pos.occ[1].bit_count() <= 12


def test_move_text_round_trip_on_captures(shashki, checkers):
    for game, fen in ((shashki, "W:WKa1,b6:Bc3,g3,c7,g5"), (checkers, "B:W6,7,15,16,30:B1,K20")):
        pos = game.new_position(fen)
        for m, path in pos.capture_sequences():
            assert pos.parse_move(pos.move_text(m)) == m
            assert pos.parse_move(game.capture_sep.join(map(game.square_name, path))) == m


def test_renders_show_squares(checkers, shashki):
    art = checkers.new_position().render()
    assert "32" in art and "b" in art and "w" in art
    art = shashki.new_position("W:WKa1:Bh6").render()
    assert "a b c d e f g h" in art and "W" in art


# -- draws and keys -----------------------------------------------------------

def test_checkers_forty_move_rule(checkers):
    pos = checkers.new_position("B:WK32:BK1:H79")
    assert pos.outcome() is None
    pos.push(pos.legal_moves()[0])
    assert pos.clock == 80 and pos.outcome() == 0
    pos.pop()
    men = checkers.new_position("B:W32:BK1,12:H79")
    men.push(men.parse_move("12-16"))
    assert men.clock == 0 and men.outcome() is None


def test_shashki_fifteen_move_rule(shashki):
    pos = shashki.new_position("W:WKa1:BKh8:H29")
    pos.push(pos.parse_move("a1-b2"))
    assert pos.outcome() == 0


def test_short_move_rule_setting():
    """A ``draw_moves`` setting under four moves draws as soon as it is reached."""
    game = games.load("checkers", draw_moves=1)
    pos = game.new_position("B:WK30:BK1,K3")
    pos.push(pos.parse_move("1-5"))
    assert pos.outcome() is None
    pos.push(pos.parse_move("30-25"))
    assert pos.clock == 2 and pos.outcome() == 0


def test_repetition(checkers):
    pos = checkers.new_position("B:WK32:BK1")
    shuffle = ["1-5", "32-28", "5-1", "28-32"]
    for t in shuffle:
        assert not pos.is_repetition()
        pos.push(pos.parse_move(t))
    assert pos.is_repetition() and pos.outcome() is None
    for t in shuffle:
        pos.push(pos.parse_move(t))
    assert pos.outcome() == 0
    pos.pop()
    assert pos.outcome() is None


def test_long_history_undoes_exactly_and_copies_for_repetitions():
    """Hundreds of plies (past the undo stack's first allocation) push and pop back
    to the same state; a copy keeps the history, so it sees the same repetitions."""
    game = games.load("checkers", draw_moves=1000)
    pos = game.new_position("B:WK32:BK1")
    start = (pos.to_text(), pos.key)
    cycles = (["1-5", "32-28", "5-1", "28-32"], ["1-6", "32-27", "6-1", "27-32"], ["1-5", "32-27", "5-1", "27-32"])
    seen = []
    for ply in range(400):
        pos.push(pos.parse_move(cycles[ply // 12 % 3][ply % 4]))
        assert pos.key == pos.compute_key()
        seen.append((pos.to_text(), pos.key, pos.clock, pos.is_repetition()))
    twin = pos.copy()
    for state in reversed(seen):
        assert (pos.to_text(), pos.key, pos.clock, pos.is_repetition()) == state
        assert (twin.to_text(), twin.key, twin.clock, twin.is_repetition()) == state
        pos.pop()
        twin.pop()
    assert (pos.to_text(), pos.key) == start
    with pytest.raises(IndexError):
        pos.pop()
    assert (pos.to_text(), pos.key) == start


def test_promotion_and_capture_keys(checkers, shashki):
    for game, fen in ((checkers, "B:W26,27:B22"), (shashki, "W:Wb6:Bc7,Kg5")):
        pos = game.new_position(fen)
        key = pos.key
        pos.push(pos.legal_moves()[0])
        assert pos.key == pos.compute_key() == game.new_position(pos.to_text()).key
        pos.pop()
        assert pos.key == key


# -- evaluation ---------------------------------------------------------------

def _mirror(game, pos):
    """The same position with colours exchanged and the board turned half a turn."""
    flip = {i: _turn(i) for i in range(64) if SQUARE[i]}
    occ = tuple(sum(1 << flip[i] for i in bits(pos.occ[p])) for p in (1, 0))
    kings = sum(1 << flip[i] for i in bits(pos.kings))
    return type(pos)(game, occ, kings, pos.turn ^ 1)


@pytest.mark.parametrize("name", ["checkers", "shashki"])
def test_evaluation_is_colour_symmetric(name):
    import random

    game = games.load(name)
    rng = random.Random(name)
    pos = game.new_position()
    for _ in range(120):
        assert pos.evaluate() == _mirror(game, pos).evaluate()
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))


def test_evaluation_knows_material_and_runaways(checkers, shashki):
    assert checkers.new_position("B:W30:B1,2").evaluate() > 50
    assert checkers.new_position("W:W30:BK1").evaluate() < -20
    # A black man one step from crowning with nothing in its way is nearly a king.
    assert checkers.new_position("B:W21:B25").evaluate() > checkers.new_position("B:W21:B5").evaluate() + 40
    # Three kings against a lone king on the main road is a known draw.
    drawn = shashki.new_position("W:WKb8,Kd8,Kf8:BKc3").evaluate()
    won = shashki.new_position("W:WKb8,Kd8,Kf8:BKc5").evaluate()
    assert abs(drawn) < 100 < won


def _i(pdn: int) -> int:
    from games.draughts.board import INDEX
    return INDEX[pdn]


def _pdn(name: str) -> str:
    from games.draughts.board import ALGEBRAIC_INDEX
    return str(SQUARE[ALGEBRAIC_INDEX[name]])


def _turn(i: int) -> int:
    from games.draughts.board import INDEX
    return INDEX[33 - SQUARE[i]]


def test_board_geometry():
    assert algebraic(_i(1)) == "b8" and algebraic(_i(29)) == "a1" and algebraic(_i(32)) == "g1"
