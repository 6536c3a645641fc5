"""The search against exhaustive minimax, Nim theory and chess facts.

Small games are solved exactly by a plain minimax below (no pruning, no table),
so every shortcut of the search (aspiration, table, reductions, pruning) must
reproduce the same value, distance included. Chess checks use positions whose
answers are known from python-chess and published problems.
"""

from __future__ import annotations

import functools
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import games
from engine import build
from engine.bench import run_bench
from engine.driver import TableHook
from engine.game import NO_MOVE, WIN, Game, mate_moves, mate_plies, result_score
from engine.position import Position
from engine.search import Info, Searcher
from engine.timeman import Limits
from engine.tt import EXACT, TranspositionTable, value_from_tt, value_to_tt


# -- a toy game with extra turns ------------------------------------------------

class ExtraTurnGame(Game):
    """One heap; take 1, 2 or 3; taking exactly 2 moves again; taking the last coin wins.

    Its evaluation is deterministic noise, so only search finds the value.
    """

    name = "extra-turn"
    aliases = ()
    players = ("first", "second")
    null_move_ok = False
    bench_texts = ()

    def new_position(self, text=None):
        heap, turn = (int(x) for x in (text or "11 0").split())
        return ExtraTurnPosition(heap, turn)


class ExtraTurnPosition(Position):
    def __init__(self, heap, turn, last=-1):
        self.heap, self.turn, self.last = heap, turn, last
        self.key = self.compute_key()
        self._stack = []

    def compute_key(self):
        return (self.heap * 0x9E3779B97F4A7C15 ^ (self.turn + 1) * 0xC2B2AE3D27D4EB4F
                ^ (self.last + 2) * 0x165667B19E3779F9 * (self.heap == 0)) & (1 << 64) - 1

    def legal_moves(self):
        return list(range(1, min(3, self.heap) + 1))

    def noisy_moves(self):
        return []

    def is_noisy(self, move):
        return False

    def move_score(self, move):
        return 0

    def in_check(self):
        return False

    def can_stand_pat(self):
        return True

    def push(self, move):
        self._stack.append((self.heap, self.turn, self.last, self.key))
        self.heap -= move
        self.last = self.turn
        if move != 2:
            self.turn ^= 1
        self.key = self.compute_key()

    def pop(self):
        self.heap, self.turn, self.last, self.key = self._stack.pop()

    def outcome(self):
        return None

    def no_moves_value(self):
        return 1 if self.last == self.turn else -1

    def is_repetition(self):
        return False

    def evaluate(self):
        return self.key % 101 - 50

    def _copy(self):
        return ExtraTurnPosition(self.heap, self.turn, self.last)

    def to_text(self):
        return f"{self.heap} {self.turn}"


@functools.cache
def _extra_turn_value(heap: int, turn: int, last: int, ply: int) -> int:
    """Exact distance-aware minimax value for the side to move (root-relative distances)."""
    pos = ExtraTurnPosition(heap, turn, last)
    moves = pos.legal_moves()
    if not moves:
        return result_score(pos.no_moves_value(), ply)
    best = -WIN - 1
    for m in moves:
        child_turn = turn if m == 2 else turn ^ 1
        v = _extra_turn_value(heap - m, child_turn, turn, ply + 1)
        best = max(best, v if child_turn == turn else -v)
    return best


@pytest.mark.parametrize("heap", range(1, 15))
def test_extra_turns_match_minimax(heap):
    game = ExtraTurnGame()
    pos = game.new_position(f"{heap} 0")
    result = Searcher(1).search(game, pos, Limits(depth=2 * heap + 2))
    assert result.score == _extra_turn_value(heap, 0, -1, 0)
    pos.push(result.best)
    child = _extra_turn_value(pos.heap, pos.turn, pos.last, 1)
    assert (child if pos.turn == 0 else -child) == result.score
    pos.pop()
    assert (pos.heap, pos.turn, pos.key) == (heap, 0, pos.compute_key())


class TunedExtraTurnGame(ExtraTurnGame):
    """The toy game with every technique a game may opt into, its correction key the heap's residue."""

    capture_history = continuation_history = followup_history = correction_history = True
    singular_extensions = table_move_first = True
    delta_pruning = razoring = history_reduction = 1

    def new_position(self, text=None):
        heap, turn = (int(x) for x in (text or "11 0").split())
        return KeyedExtraTurnPosition(heap, turn)


class KeyedExtraTurnPosition(ExtraTurnPosition):
    def correction_key(self):
        return self.heap % 3


@pytest.mark.parametrize("heap", range(1, 15))
def test_opt_in_techniques_keep_the_exact_values(heap):
    game = TunedExtraTurnGame()
    searcher = Searcher(1)
    result = searcher.search(game, game.new_position(f"{heap} 0"), Limits(depth=2 * heap + 2))
    assert result.score == _extra_turn_value(heap, 0, -1, 0)
    assert searcher.corr_on and searcher.se_on


# -- Nim ---------------------------------------------------------------------------

@pytest.mark.parametrize("heap", range(1, 16))
def test_misere_subtraction_game(heap):
    # Published: the side to move loses exactly when heap = 1 (mod T+1).
    game = games.load("nim", heaps=(heap,), max_take=2)
    pos = game.new_position()
    result = Searcher(1).search(game, pos, Limits(depth=40))
    losing = heap % 3 == 1
    assert (result.score < 0) == losing
    assert mate_moves(result.score) is not None
    if not losing:
        assert (heap - (result.best & 0xFF)) % 3 == 1


@pytest.mark.parametrize("heaps", [(1, 2, 3), (3, 4, 5), (2, 5, 6), (1, 4, 6), (7, 7)])
def test_normal_nim_follows_bouton(heaps):
    game = games.load("nim", heaps=heaps, max_take=255, normal=True)
    pos = game.new_position()
    result = Searcher(4).search(game, pos, Limits(depth=30))
    nim_sum = functools.reduce(lambda a, b: a ^ b, heaps)
    assert (result.score > 0) == (nim_sum != 0)
    if nim_sum:
        pos.push(result.best)
        assert functools.reduce(lambda a, b: a ^ b, pos.heaps) == 0
        pos.pop()
    assert pos.heaps == list(heaps)


# -- solved values from the literature ----------------------------------------------

@pytest.mark.parametrize("name,params,text,depth,plies", [
    ("tictactoe", {}, None, 9, None),                  # 3x3: a draw
    ("kalah", dict(pits=3, seeds=3), None, 40, "win"),  # Kalah(3,3): first player wins by 2
    ("kalah", dict(pits=4, seeds=2), None, 40, "win"),  # Kalah(4,2): first player wins by 6
    ("connect4", {}, "4455", 8, 3),                    # scores 18: won with the 4th own disc
    ("connect4", {}, "44455554221", 8, -2),            # scores -15: lost to the 7th enemy disc
])
def test_published_values(name, params, text, depth, plies):
    game = games.load(name, **params)
    result = Searcher(16).search(game, game.new_position(text), Limits(depth=depth))
    if plies is None:
        assert result.score == 0
    elif plies == "win":
        assert mate_plies(result.score) > 0
    else:
        assert mate_plies(result.score) == plies


# -- limits, control and reports ---------------------------------------------------

def _big_nim():
    game = games.load("nim", heaps=(40, 41, 42, 43, 44, 45), max_take=6, normal=True)
    return game, game.new_position()


def test_depth_limit_and_infos():
    game, pos = _big_nim()
    infos: list[Info] = []
    result = Searcher(4).search(game, pos, Limits(depth=4), on_info=infos.append)
    assert result.depth == 4
    assert max(i.depth for i in infos) == 4
    legal = pos.legal_moves()
    for info in infos:
        assert info.pv and info.pv[0] in legal and info.multipv == 1
    final = [i for i in infos if i.bound is None][-1]
    assert final.pv[0] == result.best == result.pv[0]


def test_node_limit_and_position_restored():
    game, pos = _big_nim()
    text, key = pos.to_text(), pos.key
    for limit in (1, 50, 777, 3000):
        result = Searcher(4).search(game, pos, Limits(nodes=limit))
        assert result.nodes <= limit
        assert result.best in pos.legal_moves()
        assert (pos.to_text(), pos.key) == (text, key)


def test_stop_from_another_thread():
    game, pos = _big_nim()
    searcher = Searcher(4)
    box = {}
    worker = threading.Thread(target=lambda: box.update(r=searcher.search(game, pos, Limits(infinite=True))))
    worker.start()
    time.sleep(0.3)
    searcher.stop()
    worker.join(10)
    assert not worker.is_alive()
    assert box["r"].best in pos.legal_moves()


def test_late_stop_does_not_cut_the_next_search():
    game, pos = _big_nim()
    searcher = Searcher(4)
    searcher.stop()
    assert searcher.search(game, pos, Limits(depth=3)).depth == 3


def test_movetime_and_clock_end_the_search():
    game, pos = _big_nim()
    for limits in (Limits(movetime=100), Limits(time=(300, 300)), Limits(time=(None, None), movetime=50)):
        start = time.perf_counter()
        result = Searcher(4).search(game, pos, limits)
        assert time.perf_counter() - start < 3
        assert result.best in pos.legal_moves()


def test_ponderhit_turns_ponder_into_timed_search():
    game, pos = _big_nim()
    searcher = Searcher(4)
    box = {}
    limits = Limits(time=(400, 400), ponder=True)
    worker = threading.Thread(target=lambda: box.update(r=searcher.search(game, pos, limits)))
    worker.start()
    time.sleep(0.2)
    assert worker.is_alive()
    searcher.ponderhit()
    worker.join(10)
    assert not worker.is_alive()
    assert box["r"].best in pos.legal_moves()


def test_multipv_lines_distinct_and_sorted():
    game = games.load("nim", heaps=(3, 4, 5), max_take=3, normal=True)
    pos = game.new_position()
    infos: list[Info] = []
    result = Searcher(4).search(game, pos, Limits(depth=6), multipv=3, on_info=infos.append)
    last = {i.multipv: i for i in infos if i.bound is None and i.depth == 6}
    assert sorted(last) == [1, 2, 3]
    firsts = [last[k].pv[0] for k in (1, 2, 3)]
    assert len(set(firsts)) == 3
    scores = [last[k].score for k in (1, 2, 3)]
    assert scores == sorted(scores, reverse=True)
    assert result.best == firsts[0]


def test_searchmoves_restrict_the_root():
    game = games.load("nim", heaps=(3, 4, 5), max_take=3, normal=True)
    pos = game.new_position()
    winning = Searcher(4).search(game, pos, Limits(depth=8)).best
    others = [m for m in pos.legal_moves() if m != winning][:3]
    result = Searcher(4).search(game, pos, Limits(depth=8, searchmoves=others))
    assert result.best in others


def test_mate_limit_stops_once_found():
    game = games.load("nim", heaps=(9,), max_take=2)
    pos = game.new_position()
    result = Searcher(4).search(game, pos, Limits(mate=10, depth=60))
    assert 0 < mate_moves(result.score) <= 10
    assert result.depth < 60


def test_no_legal_move_gives_none():
    game = games.load("nim", heaps=(0,), max_take=2)
    result = Searcher(1).search(game, game.new_position(), Limits(depth=3))
    assert result.best is None


def test_tb_probe_values_are_node_relative():
    game = ExtraTurnGame()
    searcher = Searcher(1)
    calls = []

    def probe(pos):
        # Exact values with distances counted from the probed node.
        if pos.heap <= 4:
            calls.append(pos.heap)
            return _extra_turn_value(pos.heap, pos.turn, pos.last, 0)
        return None

    heap = 12
    result = searcher.search(game, game.new_position(f"{heap} 0"), Limits(depth=8), tables=TableHook(probe))
    assert calls
    assert result.score == _extra_turn_value(heap, 0, -1, 0)


def test_bench_is_deterministic():
    game = games.load("nim", heaps=(5, 6, 7), max_take=3, normal=False)
    texts = ["5,6,7 1", "2,6,7 2"]
    first, _ = run_bench(game, texts, 5)
    second, _ = run_bench(game, texts, 5)
    assert first == second > 0


# -- transposition table ------------------------------------------------------------

def test_tt_mate_scores_are_ply_adjusted():
    for ply in (0, 3, 17):
        for value in (WIN - 20, -WIN + 25, 123, -77, 0):
            assert value_from_tt(value_to_tt(value, ply), ply) == value
    # A mate in 5 plies seen 3 plies below the root is a mate in 2 from that node.
    assert value_to_tt(WIN - 5, 3) == WIN - 2


def test_tt_store_probe_and_hashfull():
    tt = TranspositionTable(1)
    tt.new_search()
    for key in range(1, 20000, 7):
        tt.store(key * 0x9E3779B97F4A7C15 & (1 << 64) - 1, key, 1, EXACT, key)
    assert 0 < tt.hashfull() <= 1000
    hit = tt.probe(8 * 0x9E3779B97F4A7C15 & (1 << 64) - 1)
    assert hit is None or hit[1] == 8
    tt.store(42, NO_MOVE, 5, EXACT, 1)
    tt.store(42, 9, 6, EXACT, 2)
    tt.store(42, NO_MOVE, 7, EXACT, 3)
    assert tt.probe(42)[1] == 9
    tt.clear()
    assert tt.probe(42) is None


@pytest.mark.parametrize("hash_mb", [1, 3, 16])
def test_tt_storage_follows_hash(hash_mb):
    tt = TranspositionTable(hash_mb)
    # Whole buckets of two 24-byte slots: at most Hash, and less than one bucket short of it.
    assert (hash_mb << 20) - 48 < tt.size_bytes() <= hash_mb << 20
    # Keys spread over every bucket, small ones too: equal depths all go to the first
    # slot of their bucket, so nearly half of the slots fill.
    for key in range(4 * tt.buckets):
        tt.store(key, key, 1, EXACT, key)
    assert tt.hashfull() > 450


def test_tt_keeps_64_bit_keys_and_48_bit_moves():
    tt = TranspositionTable(1)
    key, move = (1 << 64) - 1, (1 << 48) - 3
    tt.store(key, move, 200, EXACT, -WIN + 7)
    assert tt.probe(key)[1:5] == (move, 200, EXACT, -WIN + 7)
    assert tt.probe(key - 1) is None


# -- chess ----------------------------------------------------------------------------

chess = pytest.importorskip("chess")

# Mates verified with Stockfish and checked here with python-chess.
MATES = [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
    ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", 1),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
    ("r1bq2r1/b4pk1/p1pp1p2/1p2pP2/1P2P1PB/3P4/1PPQ2P1/R3K2R w - - 0 1", 2),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3),
    ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3),
]


@pytest.fixture(scope="module")
def chess_game():
    return games.load("chess")


def _board_after(pos, line):
    board = chess.Board(pos.to_text())
    for m in line:
        board.push_uci(pos.move_text(m))
        pos.push(m)
    for _ in line:
        pos.pop()
    return board


@pytest.mark.parametrize("fen,n", MATES)
def test_chess_mates(chess_game, fen, n):
    pos = chess_game.new_position(fen)
    result = Searcher(16).search(chess_game, pos, Limits(depth=2 * n + 1))
    assert mate_moves(result.score) == n
    assert len(result.pv) == 2 * n - 1
    assert _board_after(pos, result.pv).is_checkmate()
    assert pos.to_text() == fen


def test_chess_no_move_when_stalemated_or_mated(chess_game):
    for fen in ("k7/8/1QK5/8/8/8/8/8 b - - 0 1", "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"):
        assert Searcher(1).search(chess_game, chess_game.new_position(fen), Limits(depth=3)).best is None


def test_chess_draw_saves_the_lost_side(chess_game):
    # Stockfish: Qd8+ draws (perpetual or stalemate); every other move is mated in two.
    # Depth 9: razoring's quiescence fails the checking lines low near the horizon, so
    # the perpetual shows a ply later than it would without it.
    pos = chess_game.new_position("6k1/5pp1/8/8/8/8/r4q2/3Q3K w - - 0 1")
    result = Searcher(16).search(chess_game, pos, Limits(depth=9))
    assert pos.move_text(result.best) == "d1d8"
    assert abs(result.score) < 50


def test_chess_repetition_scores_a_draw(chess_game):
    pos = chess_game.new_position()
    knight_out = pos.parse_move("g1f3")
    plain = Searcher(1).search(chess_game, pos, Limits(depth=1, searchmoves=[knight_out]))
    for text in ("g1f3", "g8f6", "f3g1", "f6g8"):
        pos.push(pos.parse_move(text))
    repeated = Searcher(1).search(chess_game, pos, Limits(depth=1, searchmoves=[knight_out]))
    assert plain.score != 0 and repeated.score == 0


def test_chess_limits_and_restoration(chess_game):
    pos = chess_game.new_position(chess_game.bench_texts[-1])
    text, key = pos.to_text(), pos.key
    legal = pos.legal_moves()
    assert Searcher(4).search(chess_game, pos, Limits(nodes=1)).best in legal
    result = Searcher(4).search(chess_game, pos, Limits(nodes=500))
    assert result.nodes <= 500 and result.best in legal
    infos = []
    result = Searcher(4).search(chess_game, pos, Limits(depth=3), multipv=3, on_info=infos.append)
    last = {i.multipv: i for i in infos if i.bound is None and i.depth == 3}
    assert len({last[k].pv[0] for k in (1, 2, 3)}) == 3
    assert [last[k].score for k in (1, 2, 3)] == sorted((last[k].score for k in (1, 2, 3)), reverse=True)
    for info in infos:
        _board_after(pos, info.pv)  # every reported PV is a legal line
    assert (pos.to_text(), pos.key) == (text, key)


def test_chess_bench_is_deterministic(chess_game):
    texts = chess_game.bench_texts[:2]
    assert run_bench(chess_game, texts, 3)[0] == run_bench(chess_game, texts, 3)[0]


def test_chess_correction_key_is_the_pawns(chess_game):
    start = chess_game.new_position()
    key = start.correction_key()
    assert 0 <= key < 1 << 24
    # The same pawns with other pieces, and either side to move: the same key.
    assert chess_game.new_position("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 b - - 0 1").correction_key() == key
    start.push(start.parse_move("g1f3"))
    assert start.correction_key() == key
    start.push(start.parse_move("e7e5"))
    assert start.correction_key() != key
    start.pop()
    assert start.correction_key() == key


def test_chess_aspiration_failure_is_reported_as_a_bound(chess_game):
    # The sacrifice 1...Bc5+ mates in three; it appears only once the search is deep
    # enough, well outside the window set around the previous iteration's score.
    pos = chess_game.new_position(MATES[5][0])
    infos = []
    Searcher(16).search(chess_game, pos, Limits(depth=5), on_info=infos.append)
    lower = [i for i in infos if i.bound == "lower"]
    assert lower and all(i.score > 0 and i.pv for i in lower)
    exact_after = [i for i in infos[infos.index(lower[0]):] if i.bound is None and i.depth == lower[0].depth]
    assert exact_after and exact_after[0].score >= lower[0].score


@pytest.mark.both_builds
@pytest.mark.skipif(build.COMPILED, reason="a C method of the compiled build; there the bench signatures check it")
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=300))
def test_move_sort_matches_the_tuple_sort(keys):
    # The compiled build's insertion sort must order a stage exactly as the pure build's
    # tuple sort does (both keys descending, ties in generation order), or the two builds'
    # searches part ways.
    searcher = Searcher(1)
    moves = list(range(100, 100 + len(keys)))
    searcher._keys(len(keys))
    for i, (a, b) in enumerate(keys):
        searcher.key_a[i], searcher.key_b[i] = a, b
    expected = [m for _, _, _, m in sorted((-a, -b, i, m) for i, ((a, b), m) in enumerate(zip(keys, moves)))]
    assert searcher._ranked(moves) == expected
