"""Chess960: castling, FEN, move text, options, books and a whole game, with
python-chess's ``chess.Board(..., chess960=True)`` as the oracle throughout."""

from __future__ import annotations

import random
import sys

import chess
import chess.engine
import chess.polyglot
import pytest
from conftest import SYZYGY_DIR

import games
from engine import book as bk
from engine.engine import Engine
from engine.game import IllegalMoveError, InvalidPositionError
from engine.perft import perft
from engine.timeman import Limits
from games.chess import CASTLE
from test_book import write_polyglot
from test_protocol import REPO

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

C960 = games.load("chess", chess960=True)
STANDARD = games.load("chess")
#: Every 19th start position from 0, then a few more including 518 (standard chess).
STARTS = sorted(set(range(0, 960, 19)) | {1, 518, 700, 959})

# Depth-4 counts from python-chess (the first two are also the published
# chessprogramming Chess960 figures).
PINNED = {
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9": 326_672,
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9": 667_366,
    "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAb - 0 1": 363_970,
    "r1k1r3/8/8/8/8/8/8/R2KR3 w EAea - 0 1": 215_538,
}


def oracle_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += oracle_perft(board, depth - 1)
        board.pop()
    return total


def texts(pos) -> list[str]:
    return sorted(pos.move_text(m) for m in pos.legal_moves())


def same_as_oracle(pos, board: chess.Board) -> None:
    assert pos.to_text() == board.fen()
    assert texts(pos) == sorted(m.uci() for m in board.legal_moves), board.fen()
    assert pos.key == pos.compute_key()


# -- rules --------------------------------------------------------------------------


def test_start_positions_perft_agrees_with_python_chess():
    for n in STARTS:
        board = chess.Board.from_chess960_pos(n)
        pos = C960.new_position(board.fen())
        assert pos.to_text() == board.fen()
        assert [perft(pos, d) for d in (1, 2, 3)] == [oracle_perft(board, d) for d in (1, 2, 3)], n


@pytest.mark.parametrize("fen", PINNED)
def test_perft_depth_4_with_castling(fen):
    assert perft(C960.new_position(fen), 4) == PINNED[fen]


def playout(board: chess.Board, rng: random.Random, plies: int) -> None:
    """Random moves on both boards, compared at every ply; now and then a piece
    goes back where it came from, so that positions repeat (with and without the
    castling rights a king or rook move gave up)."""
    pos = C960.new_position(board.fen())
    seen: dict[int, object] = {}
    last: dict[bool, chess.Move] = {}
    for _ in range(plies):
        same_as_oracle(pos, board)
        assert pos.is_repetition() == board.is_repetition(2), board.fen()
        # Equal keys exactly where python-chess sees equal positions.
        assert seen.setdefault(pos.key, board._transposition_key()) == board._transposition_key()
        moves = list(board.legal_moves)
        if not moves:
            return
        back = last.get(board.turn)
        undo = back and chess.Move(back.to_square, back.from_square)
        move = undo if undo in moves and rng.random() < 0.6 else rng.choice(moves)
        if board.is_castling(move) and rng.random() < 0.5:
            castles = [m for m in moves if board.is_castling(m)]
            move = rng.choice(castles)
        last[board.turn] = move
        pos.push(pos.parse_move(move.uci()))
        board.push(move)
    same_as_oracle(pos, board)


def test_random_games_from_many_starts_agree_with_python_chess():
    rng = random.Random(960)
    for n in rng.sample(range(960), 40):
        playout(chess.Board.from_chess960_pos(n), rng, 60)


def castling_positions(count: int, seed: int):
    """Start positions with some pieces between king and rooks gone and enemy
    pieces dropped in, castling rights kept: boards python-chess accepts."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        for sq in chess.SquareSet(board.occupied):
            piece = board.piece_at(sq)
            if piece.piece_type not in (chess.KING, chess.ROOK) and rng.random() < 0.6:
                board.remove_piece_at(sq)
        for _ in range(rng.randrange(4)):
            sq = rng.choice([s for s in chess.SQUARES if not board.piece_at(s) and 8 <= s < 56])
            board.set_piece_at(sq, chess.Piece(rng.choice([chess.ROOK, chess.BISHOP, chess.QUEEN, chess.KNIGHT]),
                                               rng.choice(chess.COLORS)))
        board.turn = rng.choice(chess.COLORS)
        if board.is_valid():
            found += 1
            yield board


def test_castling_with_open_and_attacked_paths_agrees_with_python_chess():
    castles = 0
    for board in castling_positions(150, 7):
        pos = C960.new_position(board.shredder_fen())
        same_as_oracle(pos, board)
        assert perft(pos, 2) == oracle_perft(board, 2), board.fen()
        for move in board.legal_moves:
            if board.is_castling(move):
                castles += 1
                pos.push(pos.parse_move(move.uci()))
                board.push(move)
                same_as_oracle(pos, board)
                board.pop()
                pos.pop()
    assert castles > 30
    for board in castling_positions(20, 8):
        playout(board, random.Random(board.fen()), 40)


@pytest.mark.parametrize("fen, castles", [
    # The king already on its destination: only the rook moves.
    ("3k4/8/8/8/8/8/8/1R4KR w HB - 0 1", {"g1h1", "g1b1"}),
    # The rook on the king's destination, the king beside it.
    ("3k4/8/8/8/8/8/8/R4KR1 w GA - 0 1", {"f1g1", "f1a1"}),
    # King b1 and rook a1: the king lands on c1, the rook jumps it to d1.
    ("1k6/8/8/8/8/8/8/RK5R w HA - 0 1", {"b1a1", "b1h1"}),
    # An enemy rook behind the castling rook: after castling it would see the king.
    ("1k6/8/8/8/8/8/8/r1RK4 w C - 0 1", set()),
    # The same rook one file further: c1 attacked, no long castling.
    ("1k6/8/8/8/8/8/8/2rRK3 w D - 0 1", set()),
    # A bishop attacking the square the king passes.
    ("1k6/8/8/8/8/6b1/8/3K3R w H - 0 1", set()),
    # A piece between king and rook.
    ("6k1/8/8/8/8/8/8/1R1K1N1R w HB - 0 1", {"d1b1"}),
])
def test_castling_special_cases(fen, castles):
    board = chess.Board(fen, chess960=True)
    pos = C960.new_position(fen)
    same_as_oracle(pos, board)
    assert {pos.move_text(m) for m in pos.legal_moves() if m & CASTLE} == castles
    for text in castles:
        pos.push(pos.parse_move(text))
        board.push_uci(text)
        same_as_oracle(pos, board)
        pos.pop()
        board.pop()


@pytest.mark.parametrize("moves, rights", [
    (["b8b7"], "GBg"),           # a rook move
    (["h3g5", "e1d1"], "gb"),    # a king move
    (["h3g5", "g1g2"], "Bgb"),   # the other rook
    (["h3g1"], "Bgb"),           # a rook taken
    (["h3g5", "b1b8"], "Gg"),    # a rook taking a rook: both rights go
])
def test_castling_rights_go_with_the_king_the_rook_and_its_capture(moves, rights):
    fen = "1r2k1r1/8/8/8/8/7n/8/1R2K1R1 b GBgb - 0 1"
    pos = C960.new_position(fen)
    board = chess.Board(fen, chess960=True)
    for m in moves:
        pos.push(pos.parse_move(m))
        board.push_uci(m)
    same_as_oracle(pos, board)
    assert board.castling_shredder_fen() == rights


# -- text ---------------------------------------------------------------------------


@pytest.mark.parametrize("field, expected", [
    ("DAda", "KQkq"), ("KQkq", "KQkq"), ("Da", "Kq"), ("AD", "KQ"), ("-", "-"), ("Ha", "q"),
])
def test_shredder_and_x_fen_castling_fields(field, expected):
    fen = f"rqkrbbnn/pppppppp/8/8/8/8/PPPPPPPP/RQKRBBNN w {field} - 0 1"
    board = chess.Board(fen, chess960=True)
    assert board.fen().split()[2] == expected  # the oracle agrees with the expectation
    pos = C960.new_position(fen)
    assert pos.to_text() == board.fen()
    assert C960.new_position(board.fen()).key == pos.key


def test_x_fen_names_an_inner_rook_by_its_file():
    # Two white rooks on the king's h-side: the inner one's right is written with its file.
    fen = "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK2R1R w FBgb - 0 1"
    board = chess.Board(fen, chess960=True)
    pos = C960.new_position(fen)
    assert pos.to_text() == board.fen() and "F" in board.fen().split()[2]
    assert C960.new_position(board.fen()).key == pos.key
    same_as_oracle(pos, board)


def test_standard_mode_drops_other_rooks_and_keeps_its_notation():
    pos = STANDARD.new_position("rqkrbbnn/pppppppp/8/8/8/8/PPPPPPPP/RQKRBBNN w DAda - 0 1")
    assert pos.to_text().split()[2] == "-"  # as python-chess's standard board
    pos = STANDARD.new_position("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
    assert pos.to_text().split()[2] == "KQkq"
    assert "e1g1" in texts(pos) and "e1h1" not in texts(pos)
    assert pos.parse_move("e1h1") == pos.parse_move("e1g1")
    with pytest.raises(InvalidPositionError):
        STANDARD.new_position("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1")


def test_chess960_move_text_is_king_takes_rook():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    pos = C960.new_position(fen)
    assert {"e1h1", "e1a1"} <= set(texts(pos)) and "e1g1" not in texts(pos)
    assert pos.parse_move("e1g1") == pos.parse_move("e1h1")  # python-chess accepts both too
    assert pos.san(pos.parse_move("e1h1")) == "O-O" and pos.san(pos.parse_move("e1a1")) == "O-O-O"
    assert pos.parse_san("O-O-O") == pos.parse_move("e1a1")
    with pytest.raises(IllegalMoveError):
        pos.parse_move("e1f2f")


# -- options, books, tables ------------------------------------------------------------


def test_uci_chess960_option_switches_chess_to_chess960():
    engine = Engine(games)
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    engine.set_option("UCI_Chess960", "true")
    assert engine.game.chess960
    engine.set_position(fen, [])
    assert engine.position.to_text() == chess.Board(fen, chess960=True).fen()
    engine.set_option("UCI_Chess960", "false")
    assert not engine.game.chess960
    engine.set_option("UCI_Variant", "fischerandom")
    assert engine.game.chess960 and engine.game.name == "chess"
    engine.set_option("UCI_Variant", "chess")
    assert not engine.game.chess960


def test_book_moves_only_where_standard_chess_has_the_position(tmp_path):
    castle = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    odd = chess.Board("rk4r1/8/8/8/8/8/8/RK4R1 w GAga - 0 1", chess960=True)
    path = tmp_path / "castle.bin"
    write_polyglot(path, [(chess.polyglot.zobrist_hash(castle), chess.H1 | chess.E1 << 6, 3),
                          (chess.polyglot.zobrist_hash(chess.Board(odd.fen())), chess.B2 | chess.B1 << 6, 3)])
    engine = Engine(games)
    engine.set_option("UCI_Chess960", "true")
    engine.set_option("OwnBook", "true")
    engine.set_option("BookFile", str(path))
    engine.set_position(castle.fen(), [])
    answer = engine.book_probe(engine.game, engine.position, Limits(), engine.context())
    assert engine.position.move_text(answer.move) == "e1h1" and "book move e1h1 " in answer.note
    engine.set_position(odd.fen(), [])  # rights on the g-file: no Polyglot key for them
    assert engine.book_probe(engine.game, engine.position, Limits(), engine.context()) is None
    # The shipped zermelo book answers the standard start position in Chess960 mode too.
    engine.set_option("BookFile", "")
    engine.set_position(None, [])
    answer = engine.book_probe(engine.game, engine.position, Limits(), engine.context())
    assert answer is not None and answer.move in engine.position.legal_moves()
    assert bk._standard_twin(C960, C960.new_position(odd.fen()))[1] is None


def test_tables_are_not_probed_with_castling_rights():
    engine = Engine(games)
    engine.set_option("UCI_Chess960", "true")
    engine.set_option("SyzygyPath", str(SYZYGY_DIR))
    engine.set_position("7k/8/8/8/8/8/8/1R2K3 w B - 0 1", [])
    assert engine.position.castling
    assert all(oracle(engine.game, engine.position, Limits(), engine.context()) is None for oracle in engine.oracles)
    engine.set_position("7k/8/8/8/8/8/8/1R2K3 w - - 0 1", [])
    assert any(oracle(engine.game, engine.position, Limits(), engine.context()) is not None for oracle in engine.oracles)


# -- a game through python-chess's engine client -----------------------------------------


def test_a_chess960_game_through_python_chess():
    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "protocol"], cwd=REPO, timeout=20)
    try:
        # Castling first: python-chess turns UCI_Chess960 on by itself for a Chess960 board.
        board = chess.Board("3k4/8/8/8/8/8/5PPP/1R3K1R w HB - 0 1", chess960=True)
        castle = chess.Move(chess.F1, chess.H1)
        info = engine.analyse(board, chess.engine.Limit(depth=2), root_moves=[castle])
        assert info["pv"][0] == castle
        board = chess.Board.from_chess960_pos(611)  # castling comes early from this start
        for _ in range(40):
            if board.is_game_over():
                break
            move = engine.play(board, chess.engine.Limit(depth=2)).move
            assert move in board.legal_moves, (board.fen(), move)
            board.push(move)
        assert len(board.move_stack) >= 20
    finally:
        engine.quit()


def test_terminal_reads_and_shows_castling_in_san():
    from protocol.terminal.session import Session

    session = Session("chess960", humans={0, 1}, start="3k4/8/8/8/8/8/5PPP/1R3K1R w HB - 0 1",
                      post=lambda fn, *args: fn(*args))
    assert session.engine.game.chess960
    assert session.show_line(["f1h1", "d8c7", "g1h1"]) == ["O-O", "Kc7", "Kh1"]
    assert session.engine.position.move_text(session._parse("O-O-O")) == "f1b1"
