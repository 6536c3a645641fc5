"""Connect Four: published perft and solved values, OpenSpiel as an oracle for
the rules and (by brute force) for exact scores, threats, quiescence hooks and
position text."""

from __future__ import annotations

import random

import pytest

import games
from engine.game import IllegalMoveError, InvalidPositionError
from engine.perft import perft
from games.connect4 import solve
from tests.test_protocol import pipe  # noqa: F401  (the fixture)

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

# Published perft from the start, 7×6.
PERFT = [7, 49, 343, 2401, 16807, 117649, 823536]


@pytest.fixture(scope="module")
def game():
    return games.load("connect4")


@pytest.mark.parametrize("depth", range(1, len(PERFT) + 1))
def test_perft_from_the_start(game, depth):
    assert perft(game.new_position(), depth) == PERFT[depth - 1]


def test_aliases_and_players():
    assert games.load("cfour") is games.load("connectfour") is games.load("connect4")
    assert games.load("cfour").players == ("first", "second")


def test_published_exact_scores(game):
    # REFERENCE.md: win = 22 - discs played by the winner, side to move's view.
    assert solve(game.new_position("4455")) == 18
    assert solve(game.new_position("44455554221")) == -15


def _spiel_play(spiel, columns):
    state = spiel.new_initial_state()
    for c in columns:
        state.apply_action(c)
    return state


def _spiel_exact(state, cells, memo):
    """Exact score by full minimax over OpenSpiel states (same scale as ``solve``)."""
    key = str(state)
    if key in memo:
        return memo[key]
    best = None
    for a in state.legal_actions():
        child = state.child(a)
        if child.is_terminal():
            discs = len(child.history())
            r = child.returns()[state.current_player()]
            value = (cells + 2 - discs) // 2 if r > 0 else 0
        else:
            value = -_spiel_exact(child, cells, memo)
        best = value if best is None else max(best, value)
    memo[key] = best
    return best


# 8x7 fills the 64 bits of a compiled bitboard; 10x7 takes more, so it runs uncompiled.
@pytest.mark.parametrize("width,height,connect,empties", [(7, 6, 4, 12), (5, 4, 3, 11), (4, 5, 4, 13),
                                                         (8, 7, 5, 11), (10, 7, 4, 10)])
def test_solver_matches_openspiel_brute_force(width, height, connect, empties):
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("connect_four", {"columns": width, "rows": height, "x_in_row": connect})
    game = games.load("connect4", width=width, height=height, connect=connect)
    rng = random.Random(f"connect4/solve/{width}x{height}x{connect}")
    checked = 0
    while checked < 6:
        pos, columns = game.new_position(), []
        while pos.legal_moves() and pos.moves < game.cells - empties:
            columns.append(rng.choice(pos.legal_moves()))
            pos.push(columns[-1])
        if not pos.legal_moves():
            continue
        expected = _spiel_exact(_spiel_play(spiel, columns), game.cells, {})
        assert solve(pos) == expected, columns
        checked += 1


@pytest.mark.parametrize("width,height,connect", [(7, 6, 4), (5, 4, 3), (8, 7, 5), (4, 10, 4)])
def test_rules_match_openspiel_on_random_games(width, height, connect):
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("connect_four", {"columns": width, "rows": height, "x_in_row": connect})
    game = games.load("connect4", width=width, height=height, connect=connect)
    rng = random.Random(f"connect4/openspiel/{width}x{height}x{connect}")
    ends = set()
    for _ in range(60):
        state, pos = spiel.new_initial_state(), game.new_position()
        while not state.is_terminal():
            assert sorted(pos.legal_moves()) == state.legal_actions()
            assert pos.outcome() is None
            move = rng.choice(pos.legal_moves())
            state.apply_action(move)
            pos.push(move)
        assert pos.legal_moves() == []
        first_result = pos.outcome() if pos.turn == 0 else -pos.outcome()
        assert first_result == state.returns()[0]
        ends.add(pos.outcome())
    assert -1 in ends


def test_full_board_draw(game):
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("connect_four")
    rng = random.Random("connect4/draw")
    while True:
        pos, state = game.new_position(), spiel.new_initial_state()
        while pos.legal_moves():
            move = rng.choice(pos.legal_moves())
            pos.push(move)
            state.apply_action(move)
        if pos.outcome() == 0:
            break
    assert pos.moves == 42 and state.returns() == [0.0, 0.0]
    assert "draw" in pos.render() and pos.no_moves_value() == 0


def test_winning_cells_match_a_naive_check():
    for width, height, connect in ((7, 6, 4), (6, 5, 3), (9, 8, 5)):
        game = games.load("connect4", width=width, height=height, connect=connect)
        rng = random.Random(f"connect4/threats/{width}")
        for _ in range(40):
            pos = game.new_position()
            for _ in range(rng.randrange(game.cells)):
                if not pos.legal_moves():
                    break
                pos.push(rng.choice(pos.legal_moves()))
            for bb in (pos.cur, pos.mask ^ pos.cur):
                if game.aligned(bb):
                    continue
                naive = 0
                for c in range(width):
                    for r in range(height):
                        cell = 1 << (c * (height + 1) + r)
                        if not cell & pos.mask and game.aligned(bb | cell):
                            naive |= cell
                assert game.winning_cells(bb, pos.mask) == naive


def test_lines_in_every_direction_end_the_game(game):
    for columns, winner in (("1212121", 0),       # vertical
                            ("1122334", 0),       # horizontal
                            ("12234334544", 0),   # diagonal /
                            ("76654554344", 0),   # diagonal \
                            ("12123252", 1)):     # second player, vertical
        pos = game.new_position()
        for ch in columns:
            assert pos.outcome() is None
            pos.push(int(ch) - 1)
        assert pos.legal_moves() == [] and pos.outcome() == -1 and pos.turn != winner, columns
        with pytest.raises(InvalidPositionError):
            game.new_position(columns + "5")


def test_noisy_moves_are_wins_then_blocks(game):
    # x (to move) wins with 3 or 7; o threatens nothing yet.
    pos = game.new_position("445566")
    assert sorted(pos.noisy_moves()) == [2, 6] and pos.can_stand_pat() and not pos.in_check()
    # o to move must block 3 or 7 and cannot stop both.
    pos.push(0)
    assert sorted(pos.noisy_moves()) == [2, 6] and pos.in_check() and not pos.can_stand_pat()
    assert all(pos.is_noisy(m) == (m in (2, 6)) for m in pos.legal_moves())
    # x wins in column 1 and must otherwise block o in column 5: the win comes first.
    pos = game.new_position("121314")
    assert pos.noisy_moves() == [0, 4] and pos.can_stand_pat()


def test_search_wins_and_blocks(game):
    from engine.search import Searcher
    from engine.timeman import Limits

    pos = game.new_position("445566")
    assert pos.move_text(Searcher(1).search(game, pos, Limits(depth=3)).best) in ("3", "7")
    # o must block x's vertical threat in column 1.
    pos = game.new_position("14141")
    assert pos.move_text(Searcher(1).search(game, pos, Limits(depth=4)).best) == "1"


def test_evaluation_is_mirror_symmetric_and_likes_the_centre(game):
    def mirror(columns):
        return "".join(str(8 - int(c)) for c in columns)

    rng = random.Random("connect4/mirror")
    for _ in range(30):
        columns = "".join(str(rng.randrange(1, 8)) for _ in range(rng.randrange(1, 16)))
        try:
            pos = game.new_position(columns)
        except InvalidPositionError:
            continue
        assert pos.evaluate() == game.new_position(mirror(columns)).evaluate()
    # Replies are scored for o: o is worse after x's centre opening than after an edge one.
    assert game.new_position("4").evaluate() < game.new_position("1").evaluate()


def test_position_text(game):
    pos = game.new_position("4455")
    text = "......./......./......./......./...oo../...xx.. x"
    assert pos.to_text() == text
    for variant in ("7/7/7/7/3oo2/3xx2 x", "7/7/7/7/3OO2/3XX2", "......./......./......./......./...oo../...xx.."):
        assert game.new_position(variant).to_text() == text
    assert game.new_position(text).key == pos.key


@pytest.mark.parametrize("text", [
    "7/7/7/7/7/7 o",              # side does not match the counts
    "7/7/7/7/3x3/7 o",            # floating disc
    "7/7/7/7/7/xx5 o",            # two discs ahead
    "7/7/7/7/7/8 x",              # row too long
    "7/7/7/7/7 x",                # five rows
    "7/7/7/7/oo5/xxxxoo1 x",      # the side to move already has a line
    "48",                         # no column 8
    "1111111",                    # column 1 overflows
    "4 4",
])
def test_bad_position_text(game, text):
    with pytest.raises(InvalidPositionError):
        game.new_position(text)


def test_moves_text(game):
    pos = game.new_position("1111")
    assert pos.parse_move(" 4 ") == 3 and pos.move_text(3) == "4"
    pos = game.new_position("111111")
    for bad in ("1", "8", "0", "d", "-1"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(bad)


def test_parameters():
    game = games.load("connect4", width=9, height=7, connect=5)
    pos = game.new_position()
    assert pos.legal_moves() == [4, 3, 5, 2, 6, 1, 7, 0, 8]
    assert pos.to_text() == "/".join(["." * 9] * 7) + " x"
    with pytest.raises(ValueError):
        games.load("connect4", width=3)
    with pytest.raises(ValueError):
        games.load("connect4", width=5, height=4, connect=6)
    wide = games.load("connect4", width=10)
    assert [wide.new_position().move_text(m) for m in wide.new_position().legal_moves()][:2] == ["5", "6"]
    with pytest.raises(InvalidPositionError):
        wide.new_position("55")


#: A position of a 1 s + 0.01 s soak game, 14 empty cells, where the solver takes
#: over: the exact root answer (every child solved, the line followed to the end)
#: took about 100 ms, beyond the budget of a 250 ms clock, and lost on time under load.
SOAK_POSITION = "6362444442233335555522766111"


def test_the_solver_stops_when_the_control_expires(game):
    from engine.control import Control, Stopped

    pos = game.new_position(SOAK_POSITION)
    expired = Control(deadline=0.0)
    with pytest.raises(Stopped):
        solve(pos, expired)
    exact = game.exact(None)
    assert exact.score(pos, expired) is None  # not covered now, rather than late
    assert exact.score(pos, Control()) == exact.score(pos) == 0


def test_a_short_clock_at_the_solver_threshold_is_kept(pipe):
    import time

    from tests.test_protocol import bestmove, start

    start(pipe, "connect4")
    pipe.send("position startpos moves " + " ".join(SOAK_POSITION))
    pipe.ready()
    sent = time.monotonic()
    pipe.send("go wtime 250 btime 250 winc 10 binc 10")
    assert bestmove(pipe.until("bestmove")) in "1234567"
    # The clock is the bound a GUI applies; the budget itself is far smaller.
    assert time.monotonic() - sent < 0.25
