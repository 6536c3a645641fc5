"""Chess distance-to-mate tables against published figures, the Syzygy tables,
python-chess's move generation and exhaustive mate search.

The tables are built once per test run into a directory shared by the xdist workers
(one file lock per class, so the workers build different classes at the same time)
and read back from their files.
"""

from __future__ import annotations

import fcntl
import os
import random

import chess
import chess.syzygy
import numpy as np
import pytest

from engine import retro
from games.chess import tables as chess_retro
from tests.conftest import SYZYGY_DIR

SMALL = ("KQvK", "KRvK", "KBvK", "KNvK", "KPvK")
BIG = ("KBNvK", "KBBvK", "KNNvK", "KQvKR")


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    """``get(name)`` -> ChessTables reading ``name`` (built on first request) from files."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    directory = root / "chess-tables"
    directory.mkdir(exist_ok=True)

    def get(name):
        if not chess_retro.table_path(directory, name).exists():
            with open(directory / f"{name}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                # A subclass both workers need may be built twice; files are replaced atomically.
                chess_retro.ChessTables(directory, build=True).values(name)
        return chess_retro.ChessTables(directory)

    return get


@pytest.fixture(scope="module")
def syzygy():
    with chess.syzygy.open_tablebase(str(SYZYGY_DIR)) as tb:
        yield tb


def _board(cls, idx) -> chess.Board:
    stm, sq = cls.decode(np.array([idx]))
    board = chess.Board(None)
    for k, (t, c) in enumerate(zip(cls.types, cls.colours)):
        board.set_piece_at(int(sq[0, k]), chess.Piece(t, c == 0))
    board.turn = bool(stm[0] == 0)
    return board


def _sample(tb, name, count, seed, where=None):
    """``count`` random boards of a class that python-chess deems valid, with their entry."""
    values = tb.values(name)
    cls = chess_retro.chess_class(name)
    legal = values != np.iinfo(values.dtype).min
    if where is not None:
        legal &= where(values)
    pool = np.flatnonzero(legal)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        idx = int(pool[rng.randrange(len(pool))])
        board = _board(cls, idx)
        if board.is_valid():
            out.append((board, retro.decode(int(values[idx]), int(np.iinfo(values.dtype).min))))
    return out


# -- published figures ----------------------------------------------------------------

@pytest.mark.parametrize("name, moves", [("KQvK", 10), ("KRvK", 16), ("KPvK", 28), ("KBNvK", 33),
                                         ("KBBvK", 19), ("KQvKR", 35)])
def test_longest_win_matches_the_published_figure(tables, name, moves):
    values = tables(name).values(name)
    white_to_move = values[:len(values) // 2]
    assert (int(white_to_move.max()) - 1 + 1) // 2 == moves


@pytest.mark.parametrize("fen, moves", [("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", 10),
                                        ("8/8/8/8/8/2k5/1R6/K7 w - - 0 1", 16),
                                        ("8/8/8/8/8/8/2k5/KNB5 w - - 0 1", 33)])
def test_published_longest_win_positions(tables, fen, moves):
    board = chess.Board(fen)
    name = chess_retro.canonical_name(
        *[[p.piece_type for p in board.piece_map().values() if p.color == c]
          for c in (chess.WHITE, chess.BLACK)])[0]
    wdl, plies = tables(name).probe(board)
    assert wdl == 1 and (plies + 1) // 2 == moves


def test_knnk_has_no_forced_mate(tables):
    tb = tables("KNNvK")
    values = tb.values("KNNvK")
    half = len(values) // 2
    black = values[half:]
    lost = black[(black < 0) & (black != np.iinfo(values.dtype).min)]
    # The defender to move loses only when already mated ...
    assert lost.size and set(np.unique(lost)) == {retro.loss_in(0)}
    # ... so the side with the knights wins only by mating at once.
    assert int(values[:half].max()) == retro.win_in(1)
    for board, (wdl, plies) in _sample(tb, "KNNvK", 20, 1, where=lambda v: v > 0):
        assert (wdl, plies) == (1, 1) and _mates_in(board, 1), board.fen()


def test_kings_and_insufficient_material_are_drawn(tables):
    for name in ("KBvK", "KNvK"):
        assert tables(name).values(name).max() == 0
    tb = tables("KQvK")
    assert tb.probe("8/8/8/4k3/8/8/8/K7 w - - 0 1") == (0, 0)


# -- Syzygy ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", SMALL + BIG)
def test_wdl_matches_syzygy(tables, syzygy, name):
    tb = tables(name)
    for board, (wdl, _) in _sample(tb, name, 400, 2):
        # Our tables ignore the fifty-move rule: a cursed win (1) is a win.
        expected = np.sign(syzygy.probe_wdl(board))
        assert wdl == expected, board.fen()


# -- python-chess move generation -----------------------------------------------------

def _value_by_moves(tb, board):
    """(wdl, plies) from python-chess's legal moves and the tables' successors."""
    if board.is_checkmate():
        return -1, 0
    best = None
    for move in board.legal_moves:
        board.push(move)
        wdl, plies = tb.probe(board)
        board.pop()
        cand = (-wdl, plies + 1 if wdl else 0)
        key = (cand[0], -cand[1] if cand[0] > 0 else cand[1])
        if best is None or key > best[0]:
            best = key, cand
    return best[1] if best else (0, 0)


@pytest.mark.parametrize("name", SMALL + BIG)
def test_every_entry_agrees_with_its_successors(tables, name):
    """Bellman's equation with python-chess as the move generator: checks captures,
    promotions, colour-flipped subclasses and the distances themselves."""
    tb = tables(name)
    for board, value in _sample(tb, name, 150, 3):
        assert _value_by_moves(tb, board) == value, board.fen()


# -- exhaustive search ----------------------------------------------------------------

def _mates_in(board, n) -> bool:
    """True if the side to move mates in at most ``n`` moves (exhaustive search)."""
    for move in board.legal_moves:
        if n == 1 and not board.gives_check(move):
            continue
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if n > 1 and not board.is_game_over() and all(
                    _after(board, reply, lambda: _mates_in(board, n - 1)) for reply in board.legal_moves):
                return True
        finally:
            board.pop()
    return False


def _after(board, move, test):
    board.push(move)
    try:
        return test()
    finally:
        board.pop()


@pytest.mark.parametrize("name, deepest", [("KQvK", 3), ("KRvK", 3), ("KPvK", 2), ("KBNvK", 2),
                                           ("KQvKR", 2)])
def test_short_mates_are_exact(tables, name, deepest):
    tb = tables(name)
    for n in range(1, deepest + 1):
        count = 6 if n == 3 else 12
        for board, (wdl, plies) in _sample(tb, name, count, 4 + n, where=lambda v: v == 2 * n):
            assert wdl == 1 and plies == 2 * n - 1
            assert _mates_in(board, n), board.fen()
            assert n == 1 or not _mates_in(board, n - 1), board.fen()


# -- play-out -------------------------------------------------------------------------

@pytest.mark.parametrize("name, games, min_moves", [("KQvK", 6, 5), ("KRvK", 6, 10), ("KBNvK", 2, 25)])
def test_table_play_mates_in_exactly_the_table_distance(tables, syzygy, name, games, min_moves):
    """The table plays the stronger side, the defender picks the reply with the longest
    distance (ties: the longest Syzygy DTZ); Syzygy confirms the win after every move."""
    tb = tables(name)
    for board, (wdl, plies) in _sample(tb, name, games, 5,
                                       where=lambda v: v >= retro.win_in(2 * min_moves - 1)):
        assert wdl == 1
        board = board.copy()
        strong = board.turn
        for expected in range(plies, 0, -1):
            assert syzygy.probe_wdl(board) * (1 if board.turn == strong else -1) > 0
            if board.turn == strong:
                moves = [(tb.probe(_pushed(board, m)), m) for m in board.legal_moves]
                move = min(moves, key=lambda x: (x[0][0] != -1, x[0][1]))[1]
            else:
                move = max(board.legal_moves, key=lambda m: (
                    tb.probe(_pushed(board, m))[1], abs(syzygy.probe_dtz(_pushed(board, m)))))
            board.push(move)
            if expected > 1:
                assert tb.probe(board) == ((-1 if board.turn != strong else 1), expected - 1)
        assert board.is_checkmate() and board.turn != strong


def _pushed(board, move):
    b = board.copy(stack=False)
    b.push(move)
    return b


# -- probe API ------------------------------------------------------------------------

def test_probe_is_colour_symmetric_and_matches_probe_squares(tables):
    tb = tables("KQvKR")
    for board, value in _sample(tb, "KQvKR", 100, 6):
        assert tb.probe(board.mirror()) == value
        assert tb.probe(board.fen()) == value
        white = [(p.piece_type, s) for s, p in board.piece_map().items() if p.color]
        black = [(p.piece_type, s) for s, p in board.piece_map().items() if not p.color]
        assert tb.probe_squares(white, black, 0 if board.turn else 1) == value


def test_probe_outside_the_tables(tables, tmp_path):
    tb = tables("KRvK")
    assert tb.probe("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1") is None
    assert tb.probe("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") is not None
    assert chess_retro.ChessTables(tmp_path).probe("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") is None
    # Side not to move in check: not a position.
    assert tb.probe("4k3/8/8/8/8/8/8/4RK2 w - - 0 1") is None


def test_class_names():
    assert chess_retro.class_name("KQKR") == "KQvKR"
    assert chess_retro.class_name("krkq") == "KQvKR"
    assert chess_retro.subclasses("KPvK") == ["KBvK", "KNvK", "KQvK", "KRvK"]
    assert chess_retro.subclasses("KQvKR") == ["KQvK", "KRvK"]
    with pytest.raises(ValueError):
        chess_retro.ChessClass("KPvKP")
    with pytest.raises(ValueError):
        chess_retro.class_name("QK")
