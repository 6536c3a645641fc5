"""Move generation of both draughts games against independent generators.

English checkers is compared with OpenSpiel's ``checkers`` over random games
(OpenSpiel plays a multi-jump as one action per jump, by the same player).
Both games are compared with a slow coordinate-based generator written
straight from the rules, on random positions full of kings.
"""

from __future__ import annotations

import random

import pytest

import games
from engine.game import bits
from games.draughts.board import ALGEBRAIC_INDEX, FILE, ROW, VALID, algebraic
from games.draughts.board import CAP_SHIFT, PROMO

DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def reference_moves(board, side, russian):
    """All legal moves as ``(from, to, captured, crowned)`` in (file, rank) coordinates.

    ``board`` maps (file, rank 0..7) to (colour, is_king); ``"w"`` moves up.
    Captured pieces stay on the board until the move ends and cannot be
    jumped twice; the moving piece's own square counts as empty.
    """
    up, last = (1, 7) if side == "w" else (-1, 0)

    def on(f, r):
        return 0 <= f < 8 and 0 <= r < 8

    found = set()
    for start, (colour, is_king) in board.items():
        if colour != side:
            continue

        def free(sq):
            return on(*sq) and (sq == start or sq not in board)

        def enemy(sq, taken):
            return sq in board and sq != start and board[sq][0] != side and sq not in taken

        def flying_targets(sq, taken):
            out = []
            for df, dr in DIAG:
                t = (sq[0] + df, sq[1] + dr)
                while free(t):
                    t = (t[0] + df, t[1] + dr)
                if enemy(t, taken):
                    lands = []
                    t2 = (t[0] + df, t[1] + dr)
                    while free(t2):
                        lands.append(t2)
                        t2 = (t2[0] + df, t2[1] + dr)
                    if lands:
                        out.append((t, lands))
            return out

        def walk(sq, taken, king, crowned):
            if king and russian:
                targets = flying_targets(sq, taken)
                if not targets and taken:
                    found.add((start, sq, frozenset(taken), crowned))
                for victim, lands in targets:
                    onward = [t for t in lands if flying_targets(t, taken | {victim})]
                    for t in onward or lands:
                        if onward:
                            walk(t, taken | {victim}, True, crowned)
                        else:
                            found.add((start, t, frozenset(taken | {victim}), crowned))
                return
            jumped = False
            for df, dr in DIAG:
                if not (king or russian or dr == up):
                    continue
                mid, land = (sq[0] + df, sq[1] + dr), (sq[0] + 2 * df, sq[1] + 2 * dr)
                if enemy(mid, taken) and free(land):
                    jumped = True
                    if not king and land[1] == last:
                        if russian:
                            walk(land, taken | {mid}, True, True)
                        else:
                            found.add((start, land, frozenset(taken | {mid}), True))
                    else:
                        walk(land, taken | {mid}, king, crowned)
            if not jumped and taken:
                found.add((start, sq, frozenset(taken), crowned))

        walk(start, frozenset(), is_king, False)
    if found:
        return found
    for sq, (colour, is_king) in board.items():
        if colour != side:
            continue
        for df, dr in DIAG:
            if not is_king and dr != up:
                continue
            t = (sq[0] + df, sq[1] + dr)
            while on(*t) and t not in board:
                found.add((sq, t, frozenset(), not is_king and t[1] == last))
                if not (is_king and russian):
                    break
                t = (t[0] + df, t[1] + dr)
    return found


def _coord(i):
    return FILE[i], 7 - ROW[i]


def _decode(m):
    return (_coord(m & 63), _coord(m >> 6 & 63), frozenset(_coord(i) for i in bits(m >> CAP_SHIFT)),
            bool(m & PROMO))


def _random_fen(game, rng):
    """A random legal-looking position: men off their crowning rows, many kings."""
    squares = rng.sample(sorted(ALGEBRAIC_INDEX.values()), rng.randint(2, 14))
    lists = {"W": [], "B": []}
    for i in squares:
        colour = rng.choice("WB")
        crowning = ROW[i] == (0 if colour == "W" else 7)
        king = crowning or rng.random() < 0.3
        lists[colour].append(("K" if king else "") + game.square_name(i))
    return f"{rng.choice('WB')}:W{','.join(lists['W'])}:B{','.join(lists['B'])}"


@pytest.mark.parametrize("name", ["checkers", "shashki"])
def test_against_reference_generator(name):
    game = games.load(name)
    rng = random.Random(f"draughts-oracle/{name}")
    captures = 0
    for _ in range(1500):
        pos = game.new_position(_random_fen(game, rng))
        board = {}
        for p in (0, 1):
            colour = game.letters[p].lower()
            for i in bits(pos.occ[p]):
                board[_coord(i)] = (colour, bool(pos.kings >> i & 1))
        side = game.letters[pos.turn].lower()
        mine = [_decode(m) for m in pos.legal_moves()]
        assert len(mine) == len(set(mine))
        assert set(mine) == reference_moves(board, side, name == "shashki"), pos.to_text()
        captures += bool(pos.noisy_moves())
    assert captures > 300


def test_checkers_against_open_spiel():
    pyspiel = pytest.importorskip("pyspiel")
    osg = pyspiel.load_game("checkers")
    game = games.load("checkers")

    def os_name(i):
        # OpenSpiel's first player sits at the bottom: its board is ours turned half a turn.
        return "abcdefgh"[7 - FILE[i]] + str(ROW[i] + 1)

    def os_sequences(state):
        player, out = state.current_player(), {}
        for a in state.legal_actions():
            text, child = state.action_to_string(a), state.child(a)
            if not child.is_terminal() and child.current_player() == player:
                for rest, actions in os_sequences(child).items():
                    out[(text[:2],) + rest] = [a] + actions
            else:
                out[(text[:2], text[2:4])] = [a]
        return out

    rng = random.Random("draughts-oracle/open_spiel")
    plies = 0
    for _ in range(6):
        pos, state = game.new_position(), osg.new_initial_state()
        while not state.is_terminal():
            if pos.noisy_moves():
                mine = {tuple(map(os_name, path)): m for m, path in pos.capture_sequences()}
            else:
                mine = {tuple(map(os_name, pos.path(m))): m for m in pos.legal_moves()}
            theirs = os_sequences(state)
            assert set(mine) == set(theirs), pos.to_text()
            seq = rng.choice(sorted(mine))
            pos.push(mine[seq])
            for a in theirs[seq]:
                state.apply_action(a)
            plies += 1
        if state.returns()[0] != 0:   # a decisive end: the side to move here is stuck
            assert pos.legal_moves() == [] and pos.outcome() is None
    assert plies > 200


def test_geometry_names_every_square_once():
    names = {algebraic(i) for i in bits(VALID)}
    assert len(names) == 32 and all((ord(n[0]) - 97 + int(n[1])) % 2 == 1 for n in names)
