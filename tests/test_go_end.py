"""The end of a Go game: when zermelo passes (a pass answering a pass that wins by the
rules' count and by the count with the dead stones taken off), and the one count the
GTP ``final_score``, the match referee and the SGF result share."""

from __future__ import annotations

import pytest
from test_gtp import Gtp

import games
from engine.engine import Engine
from engine.timeman import Limits
from games.go import score

pytestmark = pytest.mark.both_builds

#: 5x5, komi 0, White has just passed: Black's wall C1-C5 and White's D1-D5, Black's
#: area the ten points on the left. Black wins by 5 counted either way.
WON = "..xo./..xo./..xo./..xo./..xo. x - 1"
#: The same with a dead White stone on B4 in Black's area: taken off, Black wins by 5;
#: counted as the board stands (Tromp-Taylor) it is White's point and Black's left
#: region borders both colours, so White wins by 6.
DEAD_INSIDE = "..xo./.oxo./..xo./..xo./..xo. x - 1"


def go5():
    return games.load("go", size=5, komi=0)


def test_the_closing_pass_wins_by_both_counts():
    game = go5()
    pos = game.new_position(WON)
    assert (pos.score2(), score.margin2(game, pos)) == (10, 10)
    assert game.closing_move(pos) == game.pass_move
    # Before the opponent passes, or for the side behind, the search decides.
    assert game.closing_move(game.new_position(WON.replace(" 1", " 0"))) is None
    assert game.closing_move(game.new_position(WON.replace(" x ", " o "))) is None


def test_no_pass_while_a_dead_stone_stands_where_the_rules_count_it():
    game = go5()
    pos = game.new_position(DEAD_INSIDE)
    assert game.dead_stones(pos) == {(1, 3)}
    assert (pos.score2(), score.margin2(game, pos)) == (-12, 10)
    assert game.closing_move(pos) is None


@pytest.mark.parametrize("strategy", ["mcts", "alphabeta"])
def test_the_engine_passes_when_passing_wins(strategy):
    engine = Engine(games)
    engine.set_option("UCI_Variant", "go")
    for name, value in (("go_size", "5"), ("go_komi", "0"), ("Strategy", strategy)):
        engine.set_option(name, value)
    engine.set_position(WON, [])
    said: list[str] = []
    moves: list[str | None] = []
    engine.go(Limits(nodes=200), lambda info: None, lambda best, ponder: moves.append(best), said.append)
    assert engine.wait(60)
    assert moves == ["pass"] and "pass ends the game won" in said
    # With the dead stone standing the search decides, and it does not pass.
    moves.clear()
    engine.set_position(DEAD_INSIDE, [])
    engine.go(Limits(nodes=200), lambda info: None, lambda best, ponder: moves.append(best), said.append)
    assert engine.wait(60)
    assert moves and moves[0] != "pass"


def test_gtp_genmove_passes_after_the_opponent_passes_when_it_wins():
    gtp = Gtp()
    gtp.ok("boardsize 5")
    gtp.ok("komi 0")
    # White first (GTP lets a colour play out of turn), then the walls, then White passes.
    for black, white in zip(("c1", "c2", "c3", "c4", "c5"), ("d1", "d2", "d3", "d4", "d5")):
        gtp.ok(f"play w {white}")
        gtp.ok(f"play b {black}")
    gtp.ok("play w pass")
    assert gtp.ok("genmove b").lower() == "pass"
    assert gtp.ok("final_score") == "B+5"
    assert gtp.close() == 0
    assert "pass ends the game won" in b"".join(gtp.err).decode()


def test_a_record_carries_the_referee_s_result_and_verifies():
    """The game of DEAD_INSIDE played out: the referee's result is the count with the
    dead stone off (Black), and a record of it verifies; so does one written with the
    count of the board as it stands (White), the rules' own; a draw does not."""
    from protocol.records import GameRecord, scored_result, verify

    moves = "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass B4 pass pass".split()
    game = go5()
    pos = game.new_position()
    for move in moves:
        pos.push(pos.parse_move(move))
    assert (game.score_text(pos), game.final_score(pos)) == ("W+6", "B+5")
    assert scored_result(game, pos) == 1 == game.scored_result(pos)
    for result, problems in (("1-0", 0), ("0-1", 0), ("1/2-1/2", 1)):
        rec = GameRecord("go", ("a", "b"), result, moves=moves, params={"size": "5", "komi": "0"})
        assert len(verify(rec)) == problems, (result, verify(rec))
