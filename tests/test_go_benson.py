"""Benson's unconditional life and the territory extension: the textbook shapes, a
random-playout check that an alive block is never taken, and the safe counts
against exact values found by a plain minimax of the simple implementation."""

from __future__ import annotations

import random

import pytest

import games
from games.go.benson import safe_counts, unconditional
from games.go.board import BLACK, WHITE

pytestmark = pytest.mark.both_builds


def marks(text: str, width: int | None = None, height: int | None = None):
    """The rows of the board from the top: ``X``/``O`` an alive stone, ``x``/``o`` one
    that is not, ``B``/``W`` unconditional territory, ``.`` neither."""
    rows = text.split()[0].split("/")
    game = games.load("go", width=width or len(rows[0]), height=height or len(rows))
    pos = game.new_position(text)
    alive, owner = unconditional(pos.board, pos.points, pos.stride)
    out = []
    for r in range(game.height, 0, -1):
        row = ""
        for c in range(1, game.width + 1):
            p = r * pos.stride + c
            b = pos.board[p]
            if b:
                ch = "xo"[b - 1]
                row += ch.upper() if alive[p] else ch
            else:
                row += {BLACK: "B", WHITE: "W"}.get(owner[p], ".")
        out.append(row)
    return "/".join(out)


def test_a_block_with_two_eyes_is_alive_and_its_eyes_are_its_territory():
    assert marks(".x.x./xxxxx/...../...../.....") == "BXBXB/XXXXX/...../...../....."


def test_a_block_with_one_eye_is_not_alive():
    assert marks(".xxxx/xxxxx/...../...../.....") == ".xxxx/xxxxx/...../...../....."


def test_a_big_eye_is_one_region_and_a_second_eye_makes_the_block_live():
    """Two empty points are one vital region: alone they do not make life (the opponent
    fills one, then takes the block with the other); with a second eye they do."""
    assert marks("..xxx/xxxxx/...../...../.....") == "..xxx/xxxxx/...../...../....."
    assert marks("..x.x/xxxxx/...../...../.....") == "BBXBX/XXXXX/...../...../....."


def test_blocks_sharing_their_eyes_live_together():
    """Benson's point: four separate blocks, each with two regions vital to it, all live;
    every point of the board is Black's."""
    assert marks(".x./x.x/.x.") == "BXB/XBX/BXB"
    game = games.load("go", size=3)
    pos = game.new_position(".x./x.x/.x.")
    assert safe_counts(pos.board, pos.points, pos.stride) == (9, 0)


def test_seki_is_not_unconditional_life():
    """Each side has one eye and two liberties shared with the other: a seki, where
    neither side is pass-alive (a shared liberty touches both colours, so it is in no
    region vital to either)."""
    assert marks(".x.o./xx.oo") == ".x.o./xx.oo"


def test_an_invader_stone_touching_the_wall_is_inside_territory():
    """A region whose every point touches the alive block is territory even with an
    opponent stone in it (plays that join the block can take it); so is the first line
    under the wall."""
    assert marks(".xo.x/xxxxx/.x.x./xxxxx/.....") == "BXoBX/XXXXX/BXBXB/XXXXX/BBBBB"


def _random_position(game, rng, plies):
    pos = game.new_position()
    for _ in range(plies):
        moves = pos.legal_moves()
        plays = [m for m in moves if m != pos.pass_move] or moves
        if not plays:
            break
        pos.push(rng.choice(plays))
    return pos


@pytest.mark.parametrize("seed", range(6))
def test_alive_blocks_survive_any_opponent_play_while_their_owner_passes(seed):
    """From random 5×5 positions with some block alive: the owner passes every turn
    and the opponent plays random legal moves for 120 turns; no alive stone is ever
    taken (Benson's theorem, checked against the rules themselves)."""
    rng = random.Random(seed)
    game = games.load("go", size=5)
    checked = 0
    while checked < 3:
        pos = _random_position(game, rng, rng.randint(20, 60))
        alive, _ = unconditional(pos.board, pos.points, pos.stride)
        for owner in (BLACK, WHITE):
            stones = [p for p in pos.points if alive[p] == owner]
            if not stones:
                continue
            checked += 1
            trial = game.new_position(pos.to_text().split()[0] + " " + "xo"[2 - owner])
            for _ in range(120):
                if trial.turn == owner - 1:
                    trial.push(trial.pass_move)
                    continue
                plays = [m for m in trial.legal_moves() if m != trial.pass_move]
                if not plays:
                    break
                trial.push(rng.choice(plays))
                assert all(trial.board[p] == owner for p in stones), trial.to_text()


def test_the_evaluation_counts_safe_points_exactly_and_estimates_the_rest():
    """Black's two-eyed top (10 safe points) against two loose white stones: the terms
    add up to the evaluation, and a safe point weighs as much as an estimated one."""
    game = games.load("go", size=5)
    pos = game.new_position(".x.x./xxxxx/...o./.o.../..... o")
    assert pos.estimate() == (10, 0, 1, 9)
    terms = game.eval_terms(pos)
    assert sum(v for _, v, _ in terms) == pos.evaluate() == -200


def test_explain_marks_alive_blocks_and_territory():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "protocol", "explain", "go", "-p", "size=5", "--fen",
                          ".x.x./xxxxx/...o./.o.../..... o", "--no-moves"],
                         capture_output=True, text=True, timeout=300).stdout
    assert " 5 b X b X b" in out and " 3 . . . o ." in out, out
    assert "safe points (Benson)" in out and "sum " in out and "differs" not in out, out


def textbook_benson(rows: list[str]) -> dict[tuple[int, int], str]:
    """Benson's algorithm and the territory extension as the module's docstring states
    them, over sets of (column, row from the top) points: ``X``/``O`` for an alive
    stone, ``B``/``W`` for unconditional territory (the reference the flat-list code
    of :mod:`games.go.benson` is checked against)."""
    height, width = len(rows), len(rows[0])
    cells = {(c, r): rows[r][c] for r in range(height) for c in range(width)}

    def near(pt):
        c, r = pt
        return [n for n in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)) if n in cells]

    def components(points):
        points, out = set(points), []
        while points:
            todo = [points.pop()]
            part = set(todo)
            while todo:
                for n in near(todo.pop()):
                    if n in points:
                        points.discard(n)
                        part.add(n)
                        todo.append(n)
            out.append(frozenset(part))
        return out

    marks = {}
    for colour, stone, land in (("x", "X", "B"), ("o", "O", "W")):
        blocks = components(pt for pt, v in cells.items() if v == colour)
        regions = components(pt for pt, v in cells.items() if v != colour)
        block_of = {pt: b for b in blocks for pt in b}
        border = {r: {block_of[n] for pt in r for n in near(pt) if n in block_of} for r in regions}
        vital = {r: {b for b in border[r]
                     if all(any(n in b for n in near(pt)) for pt in r if cells[pt] == ".")}
                 for r in regions}
        for r in regions:
            if not any(cells[pt] == "." for pt in r):
                vital[r] = set()
        x, rr = set(blocks), set(regions)
        while True:
            keep = {b for b in x if sum(b in vital[r] for r in rr) >= 2}
            keep_r = {r for r in rr if border[r] <= keep}
            if keep == x and keep_r == rr:
                break
            x, rr = keep, keep_r
        for b in x:
            marks.update((pt, stone) for pt in b)
        for r in rr:
            if border[r] and all(any(n in block_of and block_of[n] in x for n in near(pt)) for pt in r):
                marks.update((pt, land) for pt in r)
    return marks


@pytest.mark.parametrize("size", [3, 4, 5, 7, 9])
def test_unconditional_agrees_with_the_textbook_sets(size):
    """Random positions (light playouts, so that eyes stand and blocks live): alive
    stones and territory as the set-based statement of the algorithm finds them."""
    rng = random.Random(f"benson/{size}")
    game = games.load("go", size=size, komi=0.5)
    compared = alive_seen = 0
    for _ in range(12):
        pos = game.new_position()
        for _ in range(rng.randint(size * size // 2, 3 * size * size)):
            moves = pos.playout_moves()
            if not moves or moves == [pos.pass_move]:
                break
            pos.push(rng.choice(moves))
            if rng.random() < 0.3:
                continue
            alive, owner = unconditional(pos.board, pos.points, pos.stride)
            found = {}
            for i, p in enumerate(pos.points):
                pt = (i % size, size - 1 - i // size)
                if alive[p]:
                    found[pt] = "XO"[alive[p] - 1]
                elif owner[p]:
                    found[pt] = "BW"[owner[p] - 1]
            assert found == textbook_benson(pos.rows()), pos.to_text()
            compared += 1
            alive_seen += any(alive)
    assert compared > 50 and alive_seen > 5
