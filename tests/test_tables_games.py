"""Draughts databases, Kalah tables, solved small games and late Connect Four, checked
against published values and the games' own rules."""

from __future__ import annotations

import random

import pytest

import games
from engine import retro
from engine.endgame import Endgames
from engine.game import ExactConfig, margin_score
from engine.game import WIN
from games.draughts import retro as dr
from games.kalah import retro as kr
from games.draughts.board import INDEX
from games.kalah import solve_margin
from games.connect4 import Connect4Exact
from games.solved_game import SolvedGame


@pytest.fixture(scope="module", params=["checkers", "shashki", "brazilian"])
def tables(request):
    game = games.load(request.param)
    t = dr.DraughtsTables(game, build=True)
    for name in dr.all_classes(3) + ["KKKvK"]:
        t.values(name)
    return t


def probe(t, text):
    return t.probe(t.game.new_position(text))


def expected(t, pos):
    """The ``(wdl, plies)`` the game's own moves give from the children's table values."""
    moves = pos.legal_moves()
    if not moves:
        return -1, 0
    children = []
    for m in moves:
        pos.push(m)
        if not pos.occ[pos.turn]:
            children.append((-1, 0))
        else:
            children.append(t.probe(pos))
        pos.pop()
    wins = [p for w, p in children if w < 0]
    if wins:
        return 1, min(wins) + 1
    if any(w == 0 for w, _ in children):
        return 0, 0
    return -1, max(p for _, p in children) + 1


def random_texts(game, rng, n, pieces):
    """Random FENs (both sides to move) with the given pieces per side ("K"/"M" lists)."""
    up = 1 - game.down_player
    out = []
    while len(out) < n:
        squares = rng.sample(range(1, 33), sum(map(len, pieces)))
        fields, k = [], 0
        ok = True
        for p, side in enumerate(pieces):
            names = []
            for kind in side:
                s = squares[k]
                k += 1
                row = (s - 1) // 4
                if kind == "M" and row == (0 if p == up else 7):
                    ok = False
                names.append(("K" if kind == "K" else "") + game.square_name(INDEX[s]))
            fields.append(names)
        if ok:
            turn = rng.choice(game.letters)
            out.append(f"{turn}:{game.letters[0]}{','.join(fields[0])}:{game.letters[1]}{','.join(fields[1])}")
    return out


def test_every_entry_agrees_with_the_rules(tables):
    rng = random.Random(11)
    game = tables.game
    for pieces in (["K"], ["K"]), (["M"], ["K"]), (["K", "M"], ["M"]), (["K", "K"], ["K"]), \
                  (["M", "M"], ["K"]), (["K", "K", "K"], ["K"]), (["K"], ["K", "K", "K"]):
        for text in random_texts(game, rng, 40, pieces):
            pos = game.new_position(text)
            assert tables.probe(pos) == expected(tables, pos), text


def minimax_win(pos, depth):
    """True if the side to move forces a win within ``depth`` plies (the game's rules)."""
    if not pos.occ[pos.turn]:
        return False
    moves = pos.legal_moves()
    if not moves or depth == 0:
        return False
    for m in moves:
        pos.push(m)
        lost = not pos.occ[pos.turn] or not pos.legal_moves() or all_replies_lose(pos, depth - 1)
        pos.pop()
        if lost:
            return True
    return False


def all_replies_lose(pos, depth):
    if depth <= 0:
        return False
    for m in pos.legal_moves():
        pos.push(m)
        won = minimax_win(pos, depth - 1)
        pos.pop()
        if not won:
            return False
    return True


def test_short_wins_match_brute_force(tables):
    rng = random.Random(5)
    game = tables.game
    for text in random_texts(game, rng, 60, (["K", "M"], ["K"])):
        pos = game.new_position(text)
        wdl, plies = tables.probe(pos)
        for depth in (1, 3):
            assert minimax_win(pos, depth) == (wdl > 0 and plies <= depth), (text, depth)


def test_checkers_two_kings_beat_one():
    # Two kings against one is a win in checkers, even against the double corner.
    t = dr.DraughtsTables(games.load("checkers"), build=True)
    assert probe(t, "W:WK28:BK14,K18") == (-1, probe(t, "W:WK28:BK14,K18")[1])
    assert probe(t, "B:WK28:BK14,K18")[0] == 1
    # Wherever the lone king cannot capture at once, it is lost.
    rng = random.Random(3)
    texts = random_texts(t.game, rng, 300, (["K"], ["K", "K"]))
    lone = [t.game.new_position(t.game.letters[0] + x[1:]) for x in texts]
    free = [pos for pos in lone if not pos.noisy_moves()]
    assert len(free) > 200 and all(t.probe(pos)[0] == -1 for pos in free)
    assert probe(t, "B:WK32:BK1") == (0, 0)
    assert probe(t, "W:WK32:BK1") == (0, 0)


def test_russian_three_kings_and_the_main_road():
    t = dr.DraughtsTables(games.load("shashki"), build=True)
    # A lone king holding the main road a1-h8 draws against three kings ...
    assert probe(t, "B:WKc1,Ke1,Kh2:BKd4") == (0, 0)
    assert probe(t, "W:WKc1,Ke1,Kh2:BKd4") == (0, 0)
    # ... and loses when the three kings hold it (Petrov's triangle).
    assert probe(t, "W:WKa1,Kc1,Ke1:BKh2")[0] == 1
    assert probe(t, "B:WKa1,Kc1,Ke1:BKh2")[0] == -1
    # Two kings never beat one without an immediate capture.
    assert probe(t, "W:WKc1,Ke1:BKh2") == (0, 0)


def test_draughts_exact_scores_through_the_provider(tmp_path):
    game = games.load("checkers")
    t = dr.DraughtsTables(game, tmp_path, build=True)
    t.values("KKvK")
    endgames = Endgames(ExactConfig(table_path=str(tmp_path)))
    pos = game.new_position("B:WK28:BK14,K18")
    wdl, plies = t.probe(pos)
    assert endgames.hook(game).probe(pos) == WIN - plies
    move, score = endgames.best(game, pos)
    assert score == WIN - plies
    pos.push(move)
    assert t.probe(pos) == (-1, plies - 1)
    # Beyond the tables, or a win the 40-move rule would cut short: the search decides.
    assert endgames.hook(game).probe(game.new_position()) is None
    assert endgames.hook(game).probe(game.new_position("B:WK28:BK14,K18:H79")) is None


@pytest.mark.parametrize("pits,seeds,empty_capture,value", [
    (3, 3, False, 2), (3, 4, False, 2), (4, 2, False, 6),
    (3, 3, True, 2), (3, 4, True, 2), (4, 2, True, 6),
])
def test_kalah_whole_games_match_published_values(pits, seeds, empty_capture, value):
    game = games.load("kalah", pits=pits, seeds=seeds, empty_capture=empty_capture)
    t = kr.KalahTables(pits, game.total, empty_capture)
    assert t.value(game.new_position()) == value


def check_against_margin_solver(t, game, smax, rng, count=60):
    pits, total = game.pits, game.total
    for _ in range(count):
        s = rng.randint(1, smax)
        pits_ = [0] * (2 * pits)
        for _ in range(s):
            pits_[rng.randrange(2 * pits)] += 1
        a = rng.randint(0, total - s)
        board = pits_[:pits] + [a] + pits_[pits:] + [total - s - a]
        text = (",".join(map(str, board[:pits + 1])) + "/" + ",".join(map(str, board[pits + 1:]))
                + f" {rng.randint(1, 2)}")
        pos = game.new_position(text)
        assert t.value(pos) == solve_margin(pos), text


@pytest.mark.parametrize("pits,empty_capture", [(3, False), (4, True), (6, False)])
def test_kalah_table_matches_the_margin_solver(pits, empty_capture):
    smax = {3: 12, 4: 10, 6: 8}[pits]
    t = kr.KalahTables(pits, smax, empty_capture)
    game = games.load("kalah", pits=pits, seeds=2, empty_capture=empty_capture)
    check_against_margin_solver(t, game, smax, random.Random(pits))


def test_shipped_kalah_table_is_used_and_matches_the_margin_solver():
    game = games.load("kalah")
    t = Endgames().provider(game).tables
    assert t.max_seeds == 14 and str(t.source).endswith(".ztb.xz")
    check_against_margin_solver(t, game, 14, random.Random(14), count=40)
    # The smaller levels equal a table built here.
    assert (t.values[:kr.table_size(8, 6)] == kr.solve(6, 8)).all()


def test_kalah_table_file_round_trip(tmp_path):
    t = kr.KalahTables(4, 6, False, tmp_path)
    again = kr.KalahTables(4, 6, False, tmp_path, build=False)
    assert (again.values == t.values).all()
    game = games.load("kalah", pits=4, seeds=3)
    pos = game.new_position("0,0,1,1,10/2,0,0,1,9 1")
    endgames = Endgames(ExactConfig(table_path=str(tmp_path)))
    assert endgames.hook(game).probe(pos) == margin_score(solve_margin(pos))


def test_tictactoe_is_a_draw_with_5478_positions():
    game = games.load("tictactoe")
    solved = SolvedGame(game)
    assert solved.value(game.new_position()) == (0, 0)
    assert len(solved.values) == 5478
    # X to move wins at once; with O to move, O wins at once.
    assert solved.value(game.new_position("xx./oo./... x")) == (1, 1)
    assert solved.value(game.new_position("xx./oo./x.. o")) == (1, 1)


@pytest.mark.parametrize("heaps,take,normal", [((7,), 2, False), ((10,), 3, True), ((3, 4, 5), 5, True),
                                               ((2, 5, 6), 2, True)])
def test_nim_values_follow_sprague_grundy(heaps, take, normal):
    game = games.load("nim", heaps=heaps, max_take=take, normal=normal)
    solved = SolvedGame(game)
    rng = random.Random(1)
    for _ in range(30):
        hs = [rng.randint(0, h) for h in heaps]
        if not any(hs):
            continue
        pos = game.new_position(",".join(map(str, hs)) + " 1")
        wdl, _ = solved.value(pos)
        if len(heaps) == 1 and not normal:
            assert (wdl < 0) == (hs[0] % (take + 1) == 1)
        else:
            grundy = 0
            for h in hs:
                grundy ^= h % (take + 1)
            assert (wdl < 0) == (grundy == 0)


def c4_brute(pos):
    """(wdl, plies) by plain minimax over the game's rules."""
    result = pos.outcome()
    moves = pos.legal_moves()
    if result is not None or not moves:
        return (pos.no_moves_value() if result is None else result), 0
    best = None
    for m in moves:
        pos.push(m)
        w, p = c4_brute(pos)
        pos.pop()
        w, p = -w, p + 1
        key = 0 if w == 0 else (WIN - p if w > 0 else -WIN + p)
        if best is None or key > best[0]:
            best = (key, w, p)
    return best[1], best[2]


def test_connect4_late_positions_get_exact_distances():
    game = games.load("connect4")
    exact = Connect4Exact(game, empties=9)
    rng = random.Random(2)
    checked = 0
    while checked < 25:
        pos = game.new_position()
        while game.cells - pos.moves > 9 and pos.legal_moves():
            pos.push(rng.choice(pos.legal_moves()))
        if not pos.legal_moves():
            continue
        w, p = c4_brute(pos)
        assert exact.score(pos) == (0 if w == 0 else (WIN - p if w > 0 else -WIN + p)), pos.to_text()
        checked += 1
