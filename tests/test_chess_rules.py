"""Chess rules against python-chess as the oracle, on random playouts.

Conventions checked: FEN equals python-chess's ``board.fen()`` (its default
``en_passant="legal"``: the square is written only when a legal en passant
capture exists); moves are UCI text; ``outcome()`` draws by fifty moves (unless
mated), insufficient material (python-chess's rule) and threefold repetition.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from engine import build
from engine.game import EVAL_LIMIT, IllegalMoveError, InvalidPositionError
from games.chess.evaluate import material_scratch

from test_chess_perft import KIWIPETE, POS3, POS4, POS5, POS6, START

GAME = games.load("chess")
STARTS = [
    START, KIWIPETE, POS3, POS4, POS5, POS6,
    # En passant, promotions and castling close at hand.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1",
    "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
    # Few pieces: insufficient material, fifty moves and repetitions come quickly.
    "8/8/4k3/8/8/2B5/4K3/6n1 w - - 90 80",
    "8/3k4/8/8/8/4B3/3K4/8 w - - 0 1",
    "7k/8/8/8/8/8/8/R6K w - - 80 70",
]


def _our_moves(pos) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def _check_against(pos, board: chess.Board) -> list[int]:
    """Every invariant on one position; returns our legal moves."""
    assert pos.to_text() == board.fen()
    assert pos.turn == (0 if board.turn == chess.WHITE else 1)
    assert pos.key == pos.compute_key()
    moves = pos.legal_moves()
    assert len(moves) == len(set(moves))
    assert {pos.move_text(m) for m in moves} == {m.uci() for m in board.legal_moves}
    assert pos.in_check() == board.is_check()
    # Incremental material/PST against a recount, and the full evaluation.
    assert (pos.mg, pos.eg, pos.phase) == material_scratch(pos.board)
    value = pos.evaluate()
    assert value == pos.evaluate_scratch()
    assert abs(value) < EVAL_LIMIT
    # Noisy moves: exactly the legal captures and promotions, best victim first.
    noisy = pos.noisy_moves()
    assert {pos.move_text(m) for m in noisy} == {
        m.uci() for m in board.legal_moves if board.is_capture(m) or m.promotion}
    assert all(pos.is_noisy(m) == (m in noisy) for m in moves)
    scores = [pos.move_score(m) for m in noisy]
    assert scores == sorted(scores, reverse=True)
    # Game ends.
    if not moves:
        assert pos.no_moves_value() == (-1 if board.is_checkmate() else 0)
        assert board.is_checkmate() or board.is_stalemate()
    draw = (board.is_insufficient_material() or board.is_repetition(3)
            or board.halfmove_clock >= 100 and not board.is_checkmate())
    assert pos.outcome() == (0 if draw else None)
    assert pos.is_insufficient_material() == board.is_insufficient_material()
    assert pos.is_repetition() == board.is_repetition(2)
    return moves


def _playout(fen: str, rng: random.Random, plies: int, stats: dict) -> None:
    pos = GAME.new_position(fen)
    board = chess.Board(fen)
    texts, history = [], []
    for _ in range(plies):
        moves = _check_against(pos, board)
        stats["positions"] += 1
        if not moves or pos.outcome() is not None:
            break
        move = rng.choice(moves)
        if len(history) >= 2 and rng.random() < 0.4:
            # Undo our previous move now and then, so that positions repeat.
            back = history[-2][2:4] + history[-2][0:2]
            move = next((m for m in moves if pos.move_text(m) == back), move)
        history.append(pos.move_text(move))
        texts.append(pos.to_text())
        board.push_uci(pos.move_text(move))
        pos.push(move)
    for text in reversed(texts):
        pos.pop()
        assert pos.to_text() == text and pos.key == pos.compute_key()


@pytest.mark.parametrize("fen", STARTS, ids=lambda f: f[:16])
def test_random_playouts_agree_with_python_chess(fen):
    rng = random.Random(f"chess-rules/{fen}")
    stats = {"positions": 0}
    while stats["positions"] < 400:
        _playout(fen, rng, 160, stats)


def _random_walk(pos, choices):
    played = []
    for c in choices:
        moves = pos.legal_moves()
        if not moves:
            break
        before = (pos.to_text(), pos.key, pos.evaluate())
        move = moves[c % len(moves)]
        pos.push(move)
        assert pos.key == pos.compute_key()
        assert (pos.mg, pos.eg, pos.phase) == material_scratch(pos.board)
        assert pos.evaluate() == pos.evaluate_scratch()
        again = GAME.new_position(pos.to_text())
        assert again.key == pos.key and again.to_text() == pos.to_text()
        played.append(before)
    for text, key, value in reversed(played):
        pos.pop()
        assert (pos.to_text(), pos.key, pos.evaluate()) == (text, key, value)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STARTS), st.lists(st.integers(0, 1 << 16), max_size=40))
def test_push_pop_round_trip(fen, choices):
    _random_walk(GAME.new_position(fen), choices)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(STARTS), st.lists(st.integers(0, 1 << 16), max_size=30))
def test_null_move_keeps_keys(fen, choices):
    pos = GAME.new_position(fen)
    for c in choices:
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(moves[c % len(moves)])
    if pos.in_check():
        return
    text, key = pos.to_text(), pos.key
    pos.push_null()
    assert pos.key == pos.compute_key() and pos.ep is None
    board = chess.Board(text)
    board.push(chess.Move.null())
    assert pos.to_text().split()[:4] == board.fen().split()[:4]
    assert _our_moves(pos) == {m.uci() for m in board.legal_moves}
    pos.pop()
    assert (pos.to_text(), pos.key) == (text, key)


def test_threefold_and_twofold_repetition():
    pos = GAME.new_position()
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    for i, text in enumerate(shuffle):
        pos.push(pos.parse_move(text))
        assert not pos.is_repetition() or i == 3
    assert pos.is_repetition() and pos.outcome() is None
    for text in shuffle:
        pos.push(pos.parse_move(text))
    assert pos.outcome() == 0
    # A null move cuts the search's repetition window.
    pos.push_null()
    pos.push_null()
    assert not pos.is_repetition()


def test_fifty_move_rule_except_mate():
    assert GAME.new_position("7k/8/8/8/8/8/8/R6K w - - 100 90").outcome() == 0
    assert GAME.new_position("7k/8/8/8/8/8/8/R6K w - - 99 90").outcome() is None
    mated = GAME.new_position("R6k/8/7K/8/8/8/8/8 b - - 100 90")
    assert mated.legal_moves() == [] and mated.outcome() is None and mated.no_moves_value() == -1
    stalemate = GAME.new_position("7k/5Q2/6K1/8/8/8/8/8 b - - 3 90")
    assert stalemate.legal_moves() == [] and stalemate.no_moves_value() == 0


@pytest.mark.parametrize("fen,drawn", [
    ("8/8/4k3/8/8/8/4K3/8 w - - 0 1", True),
    ("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1", True),
    ("8/8/4k3/8/8/2N5/4K3/8 b - - 0 1", True),
    ("8/8/4k3/4b3/8/2B5/4K3/8 w - - 0 1", True),
    ("8/8/4k3/3b4/8/2B5/4K3/8 w - - 0 1", False),
    ("8/8/4k3/4n3/8/2N5/4K3/8 w - - 0 1", False),
    ("8/8/4k3/8/8/2NN4/4K3/8 w - - 0 1", False),
    ("8/8/4k3/8/8/2P5/4K3/8 w - - 0 1", False),
])
def test_insufficient_material(fen, drawn):
    pos = GAME.new_position(fen)
    assert chess.Board(fen).is_insufficient_material() == drawn
    assert pos.is_insufficient_material() == drawn
    assert (pos.outcome() == 0) == drawn


@pytest.mark.parametrize("fen", [
    "", "garbage", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2K w - - 0 1",
    "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
    "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    "qqqqkqqq/qqqqqqqq/qqqqqqqq/8/8/8/8/4K3 w - - 0 1",
])
def test_bad_fen_rejected(fen):
    with pytest.raises(InvalidPositionError):
        GAME.new_position(fen)


def test_fen_input_is_tolerant():
    short = GAME.new_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3")
    assert short.to_text() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    # Castling rights without their rook or king are dropped, as python-chess does.
    fen = "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"
    assert GAME.new_position(fen).to_text() == chess.Board(fen).fen() == "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1"
    # A legal en passant square is kept, an unusable one dropped.
    ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    assert GAME.new_position(ep).to_text() == ep
    assert GAME.new_position(ep.replace("f6", "c6")).to_text() == ep.replace("f6", "-")
    # En passant that would expose the king along the rank is not legal.
    pinned = "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"
    assert GAME.new_position(pinned).to_text() == chess.Board(pinned).fen()
    assert "e5d6" not in _our_moves(GAME.new_position(pinned))


def test_move_text():
    pos = GAME.new_position("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert pos.parse_move("e1h1") == pos.parse_move("e1g1")
    assert pos.parse_move("e1a1") == pos.parse_move("e1c1")
    assert pos.parse_move("b7a8Q") == pos.parse_move("b7a8q")
    assert pos.move_text(pos.parse_move("b7b8N")) == "b7b8n"
    for bad in ("0000", "e1e3", "b7b8", "b7b8k", "e1g1q", "e2e4", " ", "e1"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(bad)
    pos.push(pos.parse_move("e1g1"))
    assert pos.to_text() == "r3k2r/1P6/8/8/8/8/8/R4RK1 b kq - 1 1"


def test_san_helpers():
    pos = GAME.new_position(KIWIPETE)
    assert pos.san(pos.parse_move("e1g1")) == "O-O"
    assert pos.san(pos.parse_move("e2a6")) == "Bxa6"
    assert pos.parse_san("Qxf6") == pos.parse_move("f3f6")
    with pytest.raises(IllegalMoveError):
        pos.parse_san("Ke3")
    assert "a b c d e f g h" in pos.render()


def _mirror(fen: str) -> str:
    return chess.Board(fen).mirror().fen()


@pytest.mark.parametrize("fen", GAME.bench_texts)
def test_evaluation_is_colour_symmetric(fen):
    assert GAME.new_position(fen).evaluate() == GAME.new_position(_mirror(fen)).evaluate()


def test_evaluation_sense():
    assert abs(GAME.new_position().evaluate()) < 50
    # A queen up is clearly winning, for whichever side is to move.
    up = GAME.new_position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert up.evaluate() > 700
    assert GAME.new_position(_mirror(up.to_text())).evaluate() > 700
    # Drawish material is pulled toward zero; a real material edge is not.
    assert GAME.new_position("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1").evaluate() == 0
    assert abs(GAME.new_position("8/8/4k3/3n4/8/2R5/4K3/8 w - - 0 1").evaluate()) < 40
    assert GAME.new_position("8/8/4k3/8/8/2R5/4K3/8 w - - 0 1").evaluate() > 400
    # A passed pawn on the sixth beats one on the third.
    far = GAME.new_position("8/8/4P3/8/8/8/k6K/8 w - - 0 1").evaluate()
    near = GAME.new_position("8/8/8/8/8/4P3/k6K/8 w - - 0 1").evaluate()
    assert far > near


def test_null_move_allowed_needs_a_piece():
    assert GAME.new_position().null_move_allowed()
    assert not GAME.new_position("4k3/4p3/8/8/8/8/4P3/4KN2 b - - 0 1").null_move_allowed()
    assert GAME.new_position("4k3/4p3/8/8/8/8/4P3/4KN2 w - - 0 1").null_move_allowed()


def test_attack_tables_match_python_chess():
    from games.chess import bitboards as bbs

    rng = random.Random("chess-tables")
    for sq in range(64):
        assert bbs.KNIGHT_ATTACKS[sq] == chess.BB_KNIGHT_ATTACKS[sq]
        assert bbs.KING_ATTACKS[sq] == chess.BB_KING_ATTACKS[sq]
        assert bbs.PAWN_ATTACKS[0][sq] == chess.BB_PAWN_ATTACKS[chess.WHITE][sq]
        assert bbs.PAWN_ATTACKS[1][sq] == chess.BB_PAWN_ATTACKS[chess.BLACK][sq]
        for occ in [0, chess.BB_ALL] + [rng.getrandbits(64) & rng.getrandbits(64) for _ in range(20)]:
            assert bbs.bishop_attacks(sq, occ) == chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occ]
            assert bbs.rook_attacks(sq, occ) == (chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occ]
                                                 | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occ])
        for other in range(64):
            assert bbs.BETWEEN[sq][other] == chess.between(sq, other)
            assert bbs.LINE[sq][other] == chess.ray(sq, other)


@pytest.mark.both_builds
@pytest.mark.skipif(build.COMPILED, reason="a C method of the compiled build; there the bench signatures check it")
@pytest.mark.parametrize("fen", [KIWIPETE, POS3, POS4, POS5, POS6])
def test_capture_sort_matches_the_list_sort(fen):
    # The compiled build sorts captures by an insertion sort; it must give the order of
    # the pure build's stable list sort (highest score first, ties in generation order).
    pos = games.load("chess").new_position(fen)
    moves = pos.legal_moves()
    expected = sorted(moves, key=pos.move_score, reverse=True)
    pos._by_score(moves)
    assert moves == expected
