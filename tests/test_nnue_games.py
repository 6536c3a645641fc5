"""Each game's network inputs and the accumulator its positions keep in push/pop."""

from __future__ import annotations

import random

import numpy as np
import pytest

import games
from engine.nnue import load_network, save_network

pytestmark = pytest.mark.both_builds


def network_for(game, tmp_path, seed=5, acc=16):
    rng = np.random.default_rng(seed)
    path = tmp_path / f"{game.name}.znn"
    save_network(path, game=game.name, features=game.nn_features, scale=400,
                 ft_weight=rng.uniform(-0.4, 0.4, (game.nn_inputs, acc)),
                 ft_bias=rng.uniform(-0.3, 0.3, acc), out_weight=rng.uniform(-1, 1, 2 * acc),
                 out_bias=0.1)
    return load_network(path, game=game.name, features=game.nn_features, inputs=game.nn_inputs,
                        max_active=game.nn_max_active or None)


# -- slow re-derivations from the position texts -------------------------------------------


def chess_views(fen: str) -> tuple[list[int], list[int]]:
    placement, side = fen.split()[:2]
    pieces = []
    for r, row in enumerate(placement.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                pieces.append((0 if ch.isupper() else 1, "pnbrqk".index(ch.lower()), (7 - r) * 8 + f))
                f += 1
    stm = 0 if side == "w" else 1

    def view(p):
        return sorted(((c != p) * 6 + t) * 64 + (sq if p == 0 else sq ^ 56) for c, t, sq in pieces)
    return view(stm), view(stm ^ 1)


def mirror_fen(fen: str) -> str:
    """The colour-mirrored position: ranks reversed, colours and the side to move swapped."""
    placement, side, castling, ep = fen.split()[:4]
    rows = "/".join(reversed([row.swapcase() for row in placement.split("/")]))
    castling = "".join(sorted(castling.swapcase(), key="KQkq".index)) if castling != "-" else "-"
    ep = "-" if ep == "-" else ep[0] + ("6" if ep[1] == "3" else "3")
    return f"{rows} {'b' if side == 'w' else 'w'} {castling} {ep} 0 1"


def reversi_views(text: str) -> tuple[list[int], list[int]]:
    cells, side = text.split()
    stm = "XO".index(side)

    def view(p):
        mine, theirs = "XO"[p], "XO"[p ^ 1]
        return sorted([i for i, c in enumerate(cells) if c == mine]
                      + [64 + i for i, c in enumerate(cells) if c == theirs])
    return view(stm), view(stm ^ 1)


def draughts_pieces(game, text: str) -> tuple[int, list[tuple[int, bool, int]]]:
    """(player to move, [(player, king, PDN square)]) of a draughts FEN; player 0 is
    the colour that moves first (checkers: Black, Russian draughts: White)."""
    from games.draughts.board import INDEX, algebraic
    number = {algebraic(INDEX[s]): s for s in range(1, 33)}
    first = "B" if game.name == "checkers" else "W"
    side, *lists = text.split(":")
    pieces = []
    for part in lists:
        player = 0 if part[0] == first else 1
        for item in filter(None, part[1:].split(",")):
            king = item.startswith("K")
            sq = item.lstrip("K")
            pieces.append((player, king, int(sq) if sq.isdigit() else number[sq]))
    return (0 if side == first else 1), pieces


def draughts_views(game, text: str) -> tuple[list[int], list[int]]:
    stm, pieces = draughts_pieces(game, text)

    def view(p):
        # Each player sees the board from its side: the player moving up rotates it.
        return sorted(((o != p) * 2 + king) * 32 + (s - 1 if p == game.down_player else 32 - s)
                      for o, king, s in pieces)
    return view(stm), view(stm ^ 1)


def draughts_text(game, stm: int, pieces) -> str:
    from games.draughts.board import INDEX, algebraic
    letters = "BW" if game.name == "checkers" else "WB"

    def name(s):
        return str(s) if game.name == "checkers" else algebraic(INDEX[s])
    lists = [letters[p] + ",".join(("K" if k else "") + name(s) for o, k, s in pieces if o == p) for p in (0, 1)]
    return ":".join([letters[stm]] + lists)


def sorted_views(pos):
    stm, other = pos.nn_features()
    return sorted(stm), sorted(other)


def random_line(pos, rng, plies):
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))


def chess_turned(game, fen: str) -> tuple[str, str]:
    """(the colour-mirrored position, the same pieces with the other side to move)."""
    flipped = fen.split()
    flipped[1], flipped[3] = ("b" if flipped[1] == "w" else "w"), "-"
    return mirror_fen(fen), " ".join(flipped)


def reversi_turned(game, text: str) -> tuple[str, str]:
    cells, side = text.split()
    other = "O" if side == "X" else "X"
    return cells.translate(str.maketrans("XO", "OX")) + " " + other, cells + " " + other


def draughts_turned(game, text: str) -> tuple[str, str]:
    stm, pieces = draughts_pieces(game, text)
    # The board turned round with the colours swapped.
    turned = [(o ^ 1, k, 33 - s) for o, k, s in pieces]
    return draughts_text(game, stm ^ 1, turned), draughts_text(game, stm ^ 1, pieces)


#: name, the slow views, the two transformed texts, the random lines' seed and longest length.
FEATURE_CASES = [
    ("chess", lambda game, text: chess_views(text), chess_turned, 1, 60),
    ("reversi", lambda game, text: reversi_views(text), reversi_turned, 2, 58),
    ("checkers", draughts_views, draughts_turned, 4, 80),
    ("shashki", draughts_views, draughts_turned, 4, 80),
]


@pytest.mark.parametrize("name, views, turned, seed, plies", FEATURE_CASES, ids=[c[0] for c in FEATURE_CASES])
def test_features_follow_the_text_and_mirror(name, views, turned, seed, plies):
    game = games.load(name)
    rng = random.Random(seed)
    for _ in range(25):
        pos = game.new_position()
        random_line(pos, rng, rng.randint(0, plies))
        text = pos.to_text()
        assert sorted_views(pos) == views(game, text)
        assert all(0 <= f < game.nn_inputs for view in pos.nn_features() for f in view)
        mirrored, side_flipped = turned(game, text)
        # Colours mirrored and the other side to move: the mover sees the same board.
        assert sorted_views(game.new_position(mirrored)) == sorted_views(pos)
        # The same pieces with the other side to move: the two views swap.
        stm, other = sorted_views(pos)
        assert sorted_views(game.new_position(side_flipped)) == (other, stm)


@pytest.mark.parametrize("name, text", [
    ("chess", None),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "8/2P5/8/8/8/8/k4p2/4K3 w - - 0 1"),
    ("reversi", None),
    ("checkers", None),
    ("checkers", "W:WK21,K22,14:B18,K11,K5,1"),
    ("shashki", None),
    ("shashki", "W:WKa1,c3,e3:Bb6,Kh8,d4,f4"),
])
def test_incremental_accumulator_equals_a_refresh(tmp_path, name, text):
    """After random pushes and pops (captures, promotions, castling, en passant, null
    moves) the position's accumulator is the one a full refresh gives, and its
    evaluation the reference's."""
    game = games.load(name)
    net = network_for(game, tmp_path)
    rng = random.Random(3)
    for _ in range(6):
        pos = game.new_position(text)
        pos.nn_attach(net)
        depth = 0
        for _ in range(120):
            moves = pos.legal_moves()
            if depth and (not moves or rng.random() < 0.35):
                pos.pop()
                depth -= 1
            elif moves:
                if rng.random() < 0.05 and game.null_move_ok and not pos.in_check():
                    pos.push_null()
                else:
                    pos.push(rng.choice(moves))
                depth += 1
            stm, other = pos.nn_features()
            assert pos.evaluate() == net.evaluate_features(stm, other)


@pytest.mark.parametrize("name", ["chess", "reversi", "checkers", "shashki"])
def test_moves_played_before_the_network_can_be_taken_back(tmp_path, name):
    """Taking back a move played before the network was attached refreshes the
    accumulator from the position; a copy keeps the network; detaching returns to the
    hand-written evaluation."""
    game = games.load(name)
    net = network_for(game, tmp_path)
    rng = random.Random(6)
    pos = game.new_position()
    random_line(pos, rng, 3)
    pos.nn_attach(net)
    pos.pop()
    pos.pop()
    assert pos.evaluate() == net.evaluate_features(*pos.nn_features())
    copy = pos.copy()
    assert copy.network is net and copy.evaluate() == pos.evaluate()
    pos.nn_attach(None)
    assert pos.network is None
    assert pos.evaluate() == game.new_position(pos.to_text()).evaluate()
