"""Each game's network inputs and the accumulator its positions keep in push/pop."""

from __future__ import annotations

import random

import numpy as np
import pytest

import games
from engine.game import InputSet
from engine.nnue import load_network, save_network

pytestmark = pytest.mark.both_builds


def network_for(game, tmp_path, seed=5, acc=16):
    rng = np.random.default_rng(seed)
    path = tmp_path / f"{game.name}.znn"
    save_network(path, game=game.name, features=game.inputs.name, scale=400,
                 ft_weight=rng.uniform(-0.4, 0.4, (game.inputs.size, acc)),
                 ft_bias=rng.uniform(-0.3, 0.3, acc), out_weight=rng.uniform(-1, 1, 2 * acc),
                 out_bias=0.1)
    return load_network(path, game=game.name, features=game.inputs.name, inputs=game.inputs.size,
                        max_active=game.inputs.most_active or None)


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
    the colour that moves first (checkers: Black, the others: White)."""
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

    n = game.geometry.n_squares

    def view(p):
        # Each player sees the board from its side: the player moving up rotates it.
        return sorted(((o != p) * 2 + king) * n + (s - 1 if p == game.down_player else n - s)
                      for o, king, s in pieces)
    return view(stm), view(stm ^ 1)


def draughts_text(game, stm: int, pieces) -> str:
    from games.draughts.board import INDEX, algebraic
    letters = "BW" if game.name == "checkers" else "WB"

    def name(s):
        return algebraic(INDEX[s]) if game.name in ("shashki", "brazilian") else str(s)
    lists = [letters[p] + ",".join(("K" if k else "") + name(s) for o, k, s in pieces if o == p) for p in (0, 1)]
    return ":".join([letters[stm]] + lists)


def stones_views(game, text: str) -> tuple[list[int], list[int]]:
    """Connect Four's and m,n,k's: own then opponent stones by cell, in the text's order."""
    rows, side = text.split()
    cells = "".join(rows.split("/"))
    stm = "xo".index(side)

    def view(p):
        mine, theirs = "xo"[p], "xo"[p ^ 1]
        return sorted([i for i, c in enumerate(cells) if c == mine]
                      + [len(cells) + i for i, c in enumerate(cells) if c == theirs])
    return view(stm), view(stm ^ 1)


def kalah_views(game, text: str) -> tuple[list[int], list[int]]:
    """Each pit's count (0 .. 2 * pits + 1, then one bucket for more) and each store's
    (0 .. all seeds), one-hot, own side then the opponent's."""
    rows, side = text.split()
    sides = [list(map(int, row.split(","))) for row in rows.split("/")]
    pits = len(sides[0]) - 1
    buckets, stores = 2 * pits + 3, sum(sides[0] + sides[1]) + 1
    stm = int(side) - 1

    def one_side(row, base):
        return ([base + i * buckets + min(c, buckets - 1) for i, c in enumerate(row[:pits])]
                + [base + pits * buckets + row[pits]])

    def view(p):
        return sorted(one_side(sides[p], 0) + one_side(sides[p ^ 1], pits * buckets + stores))
    return view(stm), view(stm ^ 1)


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
    turned = [(o ^ 1, k, game.geometry.n_squares + 1 - s) for o, k, s in pieces]
    return draughts_text(game, stm ^ 1, turned), draughts_text(game, stm ^ 1, pieces)


def kalah_turned(game, text: str) -> tuple[str, str]:
    rows, side = text.split()
    south, north = rows.split("/")
    other = "2" if side == "1" else "1"
    return f"{north}/{south} {other}", f"{rows} {other}"


def connect4_turned(game, text: str):
    """Positions no text can state (the side to move follows from the disc counts), so
    built from the discs: the mover's discs now the other colour's, then the same discs
    with the other side to move."""
    pos = game.new_position(text)
    make = game.implementation.Connect4Position
    return make(game, pos.cur, pos.mask, pos.turn ^ 1), make(game, pos.mask ^ pos.cur, pos.mask, pos.turn ^ 1)


def mnk_turned(game, text: str):
    """As :func:`connect4_turned`, from the stones."""
    from games.mnk import MnkPosition
    pos = game.new_position(text)
    x, o = pos.stones
    return MnkPosition(game, (o, x), pos.turn ^ 1), MnkPosition(game, (x, o), pos.turn ^ 1)


#: name, parameters, the slow views, the two transformed texts (or positions), the random
#: lines' seed and longest length.
FEATURE_CASES = [
    ("chess", {}, lambda game, text: chess_views(text), chess_turned, 1, 60),
    ("reversi", {}, lambda game, text: reversi_views(text), reversi_turned, 2, 58),
    ("checkers", {}, draughts_views, draughts_turned, 4, 80),
    ("shashki", {}, draughts_views, draughts_turned, 4, 80),
    ("brazilian", {}, draughts_views, draughts_turned, 4, 80),
    ("international", {}, draughts_views, draughts_turned, 4, 120),
    ("connect4", {}, stones_views, connect4_turned, 7, 42),
    ("connect4", {"width": 10, "height": 6}, stones_views, connect4_turned, 7, 60),
    ("kalah", {}, kalah_views, kalah_turned, 8, 80),
    ("kalah", {"pits": 3, "seeds": 6}, kalah_views, kalah_turned, 8, 60),
    ("mnk", {}, stones_views, mnk_turned, 9, 120),
    ("mnk", {"m": 7, "n": 5, "k": 4}, stones_views, mnk_turned, 9, 35),
]


def case_id(name: str, params: dict) -> str:
    return "-".join([name] + [f"{k}={v}" for k, v in params.items()])


def as_position(game, pos):
    return game.new_position(pos) if isinstance(pos, str) else pos


@pytest.mark.parametrize("name, params, views, turned, seed, plies", FEATURE_CASES,
                         ids=[case_id(c[0], c[1]) for c in FEATURE_CASES])
def test_features_follow_the_text_and_mirror(name, params, views, turned, seed, plies):
    game = games.load(name, **params)
    rng = random.Random(seed)
    for _ in range(25):
        pos = game.new_position()
        random_line(pos, rng, rng.randint(0, plies))
        text = pos.to_text()
        assert sorted_views(pos) == views(game, text)
        assert all(0 <= f < game.inputs.size for view in pos.nn_features() for f in view)
        assert all(len(view) <= game.inputs.most_active for view in pos.nn_features())
        mirrored, side_flipped = turned(game, text)
        # Colours mirrored and the other side to move: the mover sees the same board.
        assert sorted_views(as_position(game, mirrored)) == sorted_views(pos)
        # The same pieces with the other side to move: the two views swap.
        stm, other = sorted_views(pos)
        assert sorted_views(as_position(game, side_flipped)) == (other, stm)


def test_the_input_sets_name_their_board():
    """A network is for one board: the input set's name carries the game's size."""
    assert games.load("connect4").inputs == InputSet("connect4-7x6", 84, 42)
    assert games.load("connect4", width=6, height=7).inputs.name == "connect4-6x7"
    assert games.load("mnk", m=9, n=7, k=4).inputs.name == "mnk-9x7" and games.load("tictactoe").inputs.size == 18
    kalah = games.load("kalah")
    assert kalah.inputs == InputSet("kalah-6x4", 2 * (6 * 15 + 49), 14)
    assert games.load("kalah", pits=4, seeds=3).inputs.name == "kalah-4x3"


INCREMENTAL_CASES = [
    ("chess", {}, None),
    ("chess", {}, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", {}, "8/2P5/8/8/8/8/k4p2/4K3 w - - 0 1"),
    ("reversi", {}, None),
    ("checkers", {}, None),
    ("checkers", {}, "W:WK21,K22,14:B18,K11,K5,1"),
    ("shashki", {}, None),
    ("shashki", {}, "W:WKa1,c3,e3:Bb6,Kh8,d4,f4"),
    # Men that pass the last row mid-capture and stay men.
    ("brazilian", {}, "W:Wd6,c3,Ke1:Be7,g7,b4,Kh8"),
    ("international", {}, None),
    # Flying kings, and a man that passes the last row mid-capture and stays a man (14x3x12x23).
    ("international", {}, "W:W14,33,K46:B9,8,18,22,K45"),
    ("connect4", {}, None),
    # Over 64 bits: the board the compiled build serves with the uncompiled module.
    ("connect4", {"width": 10, "height": 6}, None),
    ("kalah", {}, None),
    # Sowings of more than a lap, captures, the end's sweep.
    ("kalah", {}, "0,0,0,20,0,0,2/1,1,0,0,0,0,24 1"),
    ("kalah", {"pits": 3, "seeds": 6, "empty_capture": True}, None),
    ("mnk", {}, None),
    ("mnk", {"m": 5, "n": 4, "k": 3}, None),
    ("tictactoe", {}, None),
]


def test_every_game_with_network_inputs_is_checked_incrementally():
    """A game that names network inputs is in the cases above, so its ``push``/``pop``
    updates are held to a refresh."""
    with_inputs = {games.canonical(name) for name in games.names() if games.load(name).inputs is not None}
    assert with_inputs <= {games.canonical(name) for name, _, _ in INCREMENTAL_CASES}


@pytest.mark.parametrize("name, params, text", INCREMENTAL_CASES,
                         ids=[f"{case_id(name, params)}-{i}" for i, (name, params, _) in enumerate(INCREMENTAL_CASES)])
def test_incremental_accumulator_equals_a_refresh(tmp_path, name, params, text):
    """After random pushes and pops (captures, promotions, castling, en passant, sowings,
    null moves) the position's accumulator is the one a full refresh gives, and its
    evaluation the reference's."""
    game = games.load(name, **params)
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
                # Every game's push_null keeps the accumulator, used by the search or not.
                if rng.random() < 0.05 and not pos.in_check():
                    pos.push_null()
                else:
                    pos.push(rng.choice(moves))
                depth += 1
            stm, other = pos.nn_features()
            assert pos.evaluate() == net.evaluate_features(stm, other)


@pytest.mark.parametrize("name", ["chess", "reversi", "checkers", "shashki", "international", "connect4", "kalah",
                                  "mnk"])
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
