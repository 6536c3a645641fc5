"""Chess perft against the published figures (chessprogramming wiki, REFERENCE.md).

Bulk counting at the last ply (``len(legal_moves())``), as ``engine.perft`` does.
One test per (position, depth) so that ``pytest -n 2`` spreads the big ones.
"""

from __future__ import annotations

import pytest

import games
from engine.perft import divide, perft

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POS4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POS4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POS5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POS6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

PUBLISHED = {
    START: (20, 400, 8_902, 197_281, 4_865_609),
    KIWIPETE: (48, 2_039, 97_862, 4_085_603),
    POS3: (14, 191, 2_812, 43_238, 674_624),
    POS4: (6, 264, 9_467, 422_333),
    POS4_MIRRORED: (6, 264, 9_467, 422_333),
    POS5: (44, 1_486, 62_379, 2_103_487),
    POS6: (46, 2_079, 89_890, 3_894_594),
}

CASES = [(fen, depth, n) for fen, counts in PUBLISHED.items()
         for depth, n in enumerate(counts, 1) if depth >= 3]
SHALLOW = [(fen, counts[:2]) for fen, counts in PUBLISHED.items()]


@pytest.mark.parametrize("fen,counts", SHALLOW, ids=lambda v: v[:12] if isinstance(v, str) else None)
def test_perft_shallow(fen, counts):
    pos = games.load("chess").new_position(fen)
    assert [perft(pos, d) for d in range(1, len(counts) + 1)] == list(counts)


@pytest.mark.parametrize("fen,depth,expected", CASES,
                         ids=[f"{fen[:12]}-d{d}" for fen, d, _ in CASES])
def test_perft_published(fen, depth, expected):
    pos = games.load("chess").new_position(fen)
    assert perft(pos, depth) == expected
    assert pos.to_text() == fen


def test_divide_matches_python_chess():
    import chess

    pos = games.load("chess").new_position(KIWIPETE)
    board = chess.Board(KIWIPETE)
    expected = {}
    for move in board.legal_moves:
        board.push(move)
        expected[move.uci()] = sum(1 for _ in board.legal_moves)
        board.pop()
    assert dict(divide(pos, 2)) == expected
