"""Draughts tables of four pieces: the class graph (a multiple capture takes several
pieces at once) and the built values against an independent brute-force search.

The brute force uses nothing of the table code: the game's own moves
(``legal_moves``/``push``/``pop``) and a depth-bounded minimax with a memo. With a
horizon of ``H`` plies it finds exactly the wins and losses the game ends within
``H`` plies and leaves every other position undecided, so each sampled table entry
is checked: a distance of at most ``H`` must be found, a longer one or a draw must
not be found.
"""

from __future__ import annotations

import random

import pytest

import games
from games.draughts import retro as dr
from protocol import cli

#: Horizon of the brute force (plies): flying kings branch more.
HORIZON = {"checkers": 7, "shashki": 5, "brazilian": 5}
#: Classes of three pieces against one, where a lone piece's double jump reaches a
#: class of one against one, and the lone man's crowning mid-capture (Russian draughts).
BUILT = ("KKKvK", "KKKvM", "KKMvK")
#: The 8×8 games, whose four-piece classes build in seconds (the 10×10 tables have
#: their own tests, ``tests/test_tables_international.py``).
SMALL = tuple(HORIZON)


def children_classes(game, pos) -> set[str]:
    """The classes of the positions the game's own moves reach from ``pos`` (a side
    left without pieces has lost: no class)."""
    out = set()
    for move in pos.legal_moves():
        pos.push(move)
        sides = []
        for p in (pos.turn, 1 - pos.turn):
            own = pos.occ[p]
            sides.append(((own & ~pos.kings).bit_count(), (own & pos.kings).bit_count()))
        if sum(sides[0]) and sum(sides[1]):
            out.add(dr.canonical(*sides)[0])
        pos.pop()
    return out


def random_position(game, rng: random.Random, name: str, turn: int, mover_first: bool = True):
    """A random position of class ``name``, player ``turn`` to move, with the class's
    first side (``mover_first``) or its second; men never on their crowning row."""
    sides = dr.parse_class(name)
    up = 1 - game.down_player
    geo = game.geometry
    while True:
        squares = rng.sample(range(1, geo.n_squares + 1), sum(map(sum, sides)))
        occ, kings, k, ok = [0, 0], 0, 0, True
        owners = (turn, 1 - turn) if mover_first else (1 - turn, turn)
        for p, (men, kgs) in zip(owners, sides):
            for is_king in [False] * men + [True] * kgs:
                s = squares[k]
                k += 1
                if not is_king and (s - 1) // geo.per_row == (0 if p == up else geo.size - 1):
                    ok = False
                bit = 1 << geo.index[s]
                occ[p] |= bit
                if is_king:
                    kings |= bit
        if ok:
            return game.position_class(game, (occ[0], occ[1]), kings, turn)


def brute(pos, depth: int, memo: dict) -> int | None:
    """``dtm1`` value of ``pos`` if the game ends within ``depth`` plies with best play
    (a side without a move has lost), else ``None``."""
    state = (pos.occ, pos.kings, pos.turn)
    seen = memo.get(state)
    if seen is not None:
        searched, value = seen
        if value is not None:
            return value if abs(value) - 1 <= depth else None
        if searched >= depth:
            return None
    moves = pos.legal_moves()
    if not moves:
        value = -1
    elif depth == 0:
        value = None
    else:
        win, loss, open_ = None, 0, False
        for move in moves:
            pos.push(move)
            v = brute(pos, depth - 1, memo)
            pos.pop()
            if v is None:
                open_ = True
            elif v < 0:
                win = -v if win is None else min(win, -v)
            else:
                loss = max(loss, v)
        # A child lost in n plies is a win in n + 1 (dtm1: -(n + 1) -> n + 2).
        value = win + 1 if win is not None else (None if open_ else -(loss + 1))
    memo[state] = (depth, value)
    return value


@pytest.mark.parametrize("game_name", dr.GAMES)
def test_subclasses_hold_every_class_a_move_reaches(game_name):
    game = games.load(game_name)
    rng = random.Random(4)
    for name in dr.all_classes(4):
        reach = set(dr.subclasses(name)) | {name}
        for _ in range(150):
            turn = rng.randrange(2)
            pos = random_position(game, rng, name, turn, mover_first=rng.random() < 0.5)
            assert children_classes(game, pos) <= reach, (name, pos.to_text())
    # A lone king takes two of three pieces: one against one.
    assert "KvK" in dr.subclasses("KKKvK")
    assert {"KvK", "KvM"} <= set(dr.subclasses("KKKvM"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The classes of :data:`BUILT` and those they reach, built by ``zermelo tables build``."""
    out = tmp_path_factory.mktemp("draughts4")
    for game_name in SMALL:
        assert cli.main(["tables", "build", game_name, *BUILT, "--out", str(out), "--quiet"]) == 0
    return out


@pytest.mark.parametrize("game_name", SMALL)
def test_built_tables_agree_with_brute_force(built, game_name):
    game = games.load(game_name)
    for name in BUILT:
        assert dr.table_path(built, game_name, name).exists()
    tables = dr.DraughtsTables(game, built)
    rng = random.Random(11)
    memo: dict = {}
    horizon = HORIZON[game_name]
    checked = decided = 0
    for name in BUILT:
        for _ in range(60):
            pos = random_position(game, rng, name, rng.randrange(2), mover_first=rng.random() < 0.5)
            found = tables.probe(pos)
            assert found is not None
            wdl, plies = found
            want = None if wdl == 0 or plies > horizon else (plies + 1 if wdl > 0 else -(plies + 1))
            assert brute(pos, horizon, memo) == want, (name, pos.to_text(), found)
            checked += 1
            decided += want is not None
    # The horizon decides a fair share of the sample (the check is not all "undecided").
    assert decided >= checked // 5, (decided, checked)


@pytest.mark.parametrize("game_name", SMALL)
def test_double_jump_positions_agree_with_brute_force(built, game_name):
    """Positions where the lone piece's capture takes two pieces: their values come
    from the class of one piece a side."""
    game = games.load(game_name)
    tables = dr.DraughtsTables(game, built)
    rng = random.Random(5)
    memo: dict = {}
    horizon = HORIZON[game_name]
    found_any = 0
    for name in BUILT:
        tries = 0
        while tries < 4000 and found_any < 15 * (BUILT.index(name) + 1):
            tries += 1
            pos = random_position(game, rng, name, rng.randrange(2), mover_first=False)
            if not any((m >> 13).bit_count() == 2 for m in pos.legal_moves()):
                continue
            found_any += 1
            wdl, plies = tables.probe(pos)
            want = None if wdl == 0 or plies > horizon else (plies + 1 if wdl > 0 else -(plies + 1))
            assert brute(pos, horizon, memo) == want, (name, pos.to_text(), (wdl, plies))
    assert found_any >= 20
