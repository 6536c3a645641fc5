"""International draughts (10×10) endgame tables: the 8×8 builder on the larger
board, checked against the game's own moves, a brute-force search and the old
statements about kings against a lone king."""

from __future__ import annotations

import random

import pytest

import games
from engine.endgame import Endgames
from engine.game import WIN, ExactConfig
from games.draughts import retro as dr
from protocol import cli


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Every class of two and three pieces, and three kings against one, written to files."""
    out = tmp_path_factory.mktemp("international")
    t = dr.DraughtsTables(games.load("international"), out, build=True)
    for name in dr.all_classes(3) + ["KKKvK"]:
        t.values(name)
    return t


def probe(t, text):
    return t.probe(t.game.new_position(text))


def random_texts(game, rng, n, pieces):
    """Random FENs (either side to move) with the given pieces ("K"/"M") per side;
    men never on the row where they would have been crowned."""
    geo = game.geometry
    up = 1 - game.down_player
    out = []
    while len(out) < n:
        squares = rng.sample(range(1, geo.n_squares + 1), sum(map(len, pieces)))
        fields, k, ok = [], 0, True
        for p, side in enumerate(pieces):
            names = []
            for kind in side:
                s = squares[k]
                k += 1
                if kind == "M" and (s - 1) // geo.per_row == (0 if p == up else geo.size - 1):
                    ok = False
                names.append(("K" if kind == "K" else "") + str(s))
            fields.append(names)
        if ok:
            turn = rng.choice(game.letters)
            out.append(f"{turn}:{game.letters[0]}{','.join(fields[0])}:{game.letters[1]}{','.join(fields[1])}")
    return out


def expected(t, pos):
    """The ``(wdl, plies)`` the game's own moves give from the children's table values."""
    moves = pos.legal_moves()
    if not moves:
        return -1, 0
    children = []
    for m in moves:
        pos.push(m)
        children.append((-1, 0) if not pos.occ[pos.turn] else t.probe(pos))
        pos.pop()
    wins = [p for w, p in children if w < 0]
    if wins:
        return 1, min(wins) + 1
    if any(w == 0 for w, _ in children):
        return 0, 0
    return -1, max(p for _, p in children) + 1


SHAPES = ((["K"], ["K"]), (["M"], ["K"]), (["M"], ["M"]), (["K", "M"], ["M"]), (["K", "K"], ["K"]),
          (["M", "M"], ["K"]), (["K", "M"], ["K"]), (["K", "K", "K"], ["K"]), (["K"], ["K", "K", "K"]))


def test_every_entry_agrees_with_the_game_moves(tables):
    """Each sampled value is what the game's own move generator (majority capture,
    flying kings, crowning only where a move ends) makes of the children's values."""
    rng = random.Random(37)
    game = tables.game
    for pieces in SHAPES:
        for text in random_texts(game, rng, 30, pieces):
            pos = game.new_position(text)
            assert tables.probe(pos) == expected(tables, pos), text


def wins_within(pos, depth: int) -> bool:
    """The side to move forces a win within ``depth`` plies (plain minimax on the rules)."""
    if depth <= 0:
        return False
    for m in pos.legal_moves():
        pos.push(m)
        lost = not pos.occ[pos.turn] or loses_within(pos, depth - 1)
        pos.pop()
        if lost:
            return True
    return False


def loses_within(pos, depth: int) -> bool:
    moves = pos.legal_moves()
    if not moves:
        return True
    if depth <= 0:
        return False
    for m in moves:
        pos.push(m)
        won = wins_within(pos, depth - 1)
        pos.pop()
        if not won:
            return False
    return True


def test_short_results_match_a_plain_search(tables):
    rng = random.Random(5)
    game = tables.game
    decided = 0
    for pieces in (["K", "M"], ["K"]), (["K", "K"], ["K"]), (["M", "M"], ["K"]), (["K", "K", "K"], ["K"]):
        for text in random_texts(game, rng, 25, pieces):
            pos = game.new_position(text)
            wdl, plies = tables.probe(pos)
            for depth in (1, 3):
                assert wins_within(pos, depth) == (wdl > 0 and plies <= depth), (text, depth)
            assert loses_within(pos, 2) == (wdl < 0 and plies <= 2), text
            decided += wdl != 0 and plies <= 3
    assert decided >= 10


def test_a_lone_king_on_the_long_diagonal(tables):
    # One king against one: the side to move on the long diagonal 46-5 with the
    # other king on it too must step along it and be taken.
    assert probe(tables, "W:WK46:BK5") == (-1, 2)
    # Two kings do not beat a lone king that holds the long diagonal.
    assert probe(tables, "W:WK1,K45:BK28") == (0, 0)
    assert probe(tables, "B:WK1,K45:BK28") == (0, 0)


def test_three_kings_against_one_as_the_old_books_say(tables):
    # Hoyle (Polish draughts): a lone king on the line 5-46 draws against three
    # kings by moving along it, but must not step into a shot: with the kings on
    # 13, 16 and 27, going from 46 to 5, 10 or 14 loses; 41, 37, 28 and 23 hold.
    assert probe(tables, "W:WK46:BK13,K16,K27") == (0, 0)
    for to in (5, 10, 14):
        assert probe(tables, f"B:WK{to}:BK13,K16,K27")[0] == 1, to
    for to in (41, 37, 28, 23):
        assert probe(tables, f"B:WK{to}:BK13,K16,K27") == (0, 0), to
    # When the three kings hold the line, they win: "First coup", kings on 46, 37
    # and 27 against 11, sacrifice two at 22.
    assert probe(tables, "W:WK46,K37,K27:BK11")[0] == 1


def test_three_kings_against_one_are_generally_a_draw(tables):
    """The lone king to move, with no capture at hand: on the long diagonal it is
    never lost, and elsewhere seldom (a trapped king), whoever holds the diagonal."""
    rng = random.Random(3)
    game = tables.game
    diagonal = {46, 41, 37, 32, 28, 23, 19, 14, 10, 5}
    on = on_lost = off = off_lost = 0
    for text in random_texts(game, rng, 400, (["K", "K", "K"], ["K"])):
        pos = game.new_position("B" + text[1:])
        if pos.noisy_moves():
            continue
        lost = tables.probe(pos)[0] < 0
        if int(text.split(":")[2][2:]) in diagonal:
            on, on_lost = on + 1, on_lost + lost
        else:
            off, off_lost = off + 1, off_lost + lost
    assert on >= 20 and on_lost == 0, (on_lost, on)
    assert off >= 100 and off_lost <= off // 10, (off_lost, off)


def test_exact_scores_respect_the_lone_king_rule(tables):
    """Against a lone king three pieces have 16 moves (32 plies) from the last
    capture or man move: a longer win is left to the search."""
    game = tables.game
    exact = dr.DraughtsExact(game, tables.directory)
    rng = random.Random(8)
    short = 0
    for text in random_texts(game, rng, 300, (["K", "K", "K"], ["K"])):
        pos = game.new_position("W" + text[1:])
        wdl, plies = tables.probe(pos)
        if wdl <= 0:
            continue
        assert exact.score(pos) == (WIN - plies if plies <= 32 else None), text
        short += plies <= 32
        pos.clock = 33 - plies
        if plies <= 32:
            assert exact.score(pos) is None, text
    assert short >= 20


def test_the_command_builds_international_tables(tmp_path):
    assert cli.main(["tables", "build", "international", "KvK", "MvK", "--out", str(tmp_path), "--quiet"]) == 0
    assert dr.table_path(tmp_path, "international", "MvK").exists()
    t = dr.DraughtsTables(games.load("international"), tmp_path)
    # A man on 6 against a king on 45: White to move crowns at once (6-1).
    assert t.probe(games.load("international").new_position("W:W6:BK45")) is not None


def test_the_engine_takes_exact_scores_from_the_tables(tables):
    """``TablePath`` reaches the 10×10 tables as it does the 8×8 ones."""
    game = tables.game
    endgames = Endgames(ExactConfig(table_path=str(tables.directory)))
    pos = game.new_position("W:WK46,K37,K27:BK11")
    wdl, plies = tables.probe(pos)
    assert wdl == 1 and endgames.hook(game).probe(pos) == WIN - plies
    move, score = endgames.best(game, pos)
    assert score == WIN - plies
    pos.push(move)
    assert tables.probe(pos) == (-1, plies - 1)
    # Past four pieces the search decides.
    assert endgames.hook(game).probe(game.new_position()) is None
