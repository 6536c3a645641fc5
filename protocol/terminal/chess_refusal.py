"""Why a chess move typed at the terminal is refused, in words.

The engine's rules only say that a text is not one of the legal moves; a player
wants to know what is wrong with it. :func:`why_illegal` reads the text as SAN
(``Ke3``, ``exd5``, ``O-O``) or as UCI (``e1e3``) and names the reason with
python-chess: nothing on the square, a piece that cannot go there, a king that
would stand in check, a pinned piece, castling without the right or through
attacked squares.

>>> import chess
>>> why_illegal(chess.Board("4k3/8/8/8/8/4r3/8/4K3 w - - 0 1"), "Ke2")
'the king would be in check on e2'
>>> why_illegal(chess.Board(), "Nd4")
'no knight can reach d4'
>>> why_illegal(chess.Board(), "Ke3")
'the king on e1 cannot reach e3'
"""

from __future__ import annotations

import re

import chess

_SAN = re.compile(r"([NBRQK])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([NBRQnbrq]))?[+#]?[!?]*")
_UCI = re.compile(r"([a-h][1-8])([a-h][1-8])([nbrqNBRQ])?")
_CASTLE = re.compile(r"([O0])-\1(-\1)?[+#]?[!?]*")


def why_illegal(board: chess.Board, text: str) -> str:
    """The reason ``text`` is not a legal move of ``board`` (which it must not be)."""
    text = text.strip()
    if m := _CASTLE.fullmatch(text):
        return _castling(board, queenside=bool(m.group(2)))
    if m := _UCI.fullmatch(text):
        return _from_to(board, chess.parse_square(m.group(1)), chess.parse_square(m.group(2)),
                        m.group(3) is not None)
    if m := _SAN.fullmatch(text):
        piece, file, rank, capture, target, promotion = m.groups()
        return _san(board, chess.PIECE_SYMBOLS.index((piece or "p").lower()), file, rank, bool(capture),
                    chess.parse_square(target), promotion is not None)
    return "not a move; expected e.g. e4, Nf3, exd5, O-O, e7e8q or e2e4"


def _colour(colour: chess.Color) -> str:
    return chess.COLOR_NAMES[colour]


def _name(piece_type: chess.PieceType) -> str:
    return chess.piece_name(piece_type)


def _from_to(board: chess.Board, frm: chess.Square, to: chess.Square, promotes: bool) -> str:
    piece = board.piece_at(frm)
    if piece is None:
        return f"there is no piece on {chess.square_name(frm)}"
    if piece.color != board.turn:
        return f"the {_name(piece.piece_type)} on {chess.square_name(frm)} is {_colour(piece.color)}'s"
    target = board.piece_at(to)
    if piece.piece_type == chess.KING and chess.square_rank(to) == chess.square_rank(frm) and (
            abs(chess.square_file(to) - chess.square_file(frm)) > 1
            or (target is not None and target.color == board.turn and target.piece_type == chess.ROOK)):
        # The king's two steps (e1g1) or the king taking its own rook (e1h1, Chess960) is castling.
        return _castling(board, queenside=chess.square_file(to) < chess.square_file(frm))
    moves = list(board.generate_pseudo_legal_moves(chess.BB_SQUARES[frm], chess.BB_SQUARES[to]))
    if not moves:
        return _cannot_reach(board, piece.piece_type, frm, to)
    if moves[0].promotion and not promotes:
        return f"a pawn reaching the last rank promotes: add the piece, e.g. {moves[0].uci()[:4]}q"
    if not moves[0].promotion and promotes:
        return "only a pawn reaching the last rank promotes"
    return _leaves_check(board, moves[0])


def _cannot_reach(board: chess.Board, piece_type: chess.PieceType, frm: chess.Square, to: chess.Square) -> str:
    own = board.piece_at(to)
    if own is not None and own.color == board.turn:
        return f"{chess.square_name(to)} holds {_colour(board.turn)}'s own {_name(own.piece_type)}"
    return f"the {_name(piece_type)} on {chess.square_name(frm)} cannot move to {chess.square_name(to)}"


def _san(board: chess.Board, piece_type: chess.PieceType, file: str | None, rank: str | None, capture: bool,
         to: chess.Square, promotes: bool) -> str:
    origins = board.pieces_mask(piece_type, board.turn)
    if file:
        origins &= chess.BB_FILES[chess.FILE_NAMES.index(file)]
    if rank:
        origins &= chess.BB_RANKS[int(rank) - 1]
    square = chess.square_name(to)
    name = _name(piece_type)
    if not origins:
        return f"{_colour(board.turn)} has no {name}" + (" there" if file or rank else "")
    moves = list(board.generate_pseudo_legal_moves(origins, chess.BB_SQUARES[to]))
    if not moves:
        own = board.piece_at(to)
        if own is not None and own.color == board.turn:
            return f"{square} holds {_colour(board.turn)}'s own {_name(own.piece_type)}"
        if piece_type == chess.PAWN:
            return f"no pawn can {'capture on' if capture else 'move to'} {square}"
        if chess.popcount(origins) == 1:
            return f"the {name} on {chess.square_name(chess.lsb(origins))} cannot reach {square}"
        return f"no {name} can reach {square}"
    if capture and not any(board.is_capture(m) for m in moves):
        return f"there is nothing to capture on {square}"
    if moves[0].promotion and not promotes:
        return f"a pawn reaching the last rank promotes: add the piece, e.g. {square}=Q"
    if not moves[0].promotion and promotes:
        return "only a pawn reaching the last rank promotes"
    return _leaves_check(board, moves[0])


def _leaves_check(board: chess.Board, move: chess.Move) -> str:
    """The reason a pseudo-legal move is illegal: it leaves (or puts) the king in check."""
    if board.piece_type_at(move.from_square) == chess.KING:
        return f"the king would be in check on {chess.square_name(move.to_square)}"
    if board.is_check():
        return f"{_colour(board.turn)} is in check and this move does not end it"
    if board.is_pinned(board.turn, move.from_square):
        piece = _name(board.piece_type_at(move.from_square) or chess.PAWN)
        return f"the {piece} on {chess.square_name(move.from_square)} is pinned to its king"
    return "it would leave the king in check"


def _castling(board: chess.Board, queenside: bool) -> str:
    side = "queenside" if queenside else "kingside"
    colour = board.turn
    rights = board.clean_castling_rights() & (chess.BB_RANK_1 if colour == chess.WHITE else chess.BB_RANK_8)
    king = board.king(colour)
    if king is None:
        return f"{_colour(colour)} has no king"
    rooks = [sq for sq in chess.scan_forward(rights)
             if (chess.square_file(sq) < chess.square_file(king)) == queenside]
    if not rooks:
        return f"{_colour(colour)} may no longer castle {side} (the king or that rook has moved)"
    if board.is_check():
        return f"{_colour(colour)} may not castle out of check"
    rook = rooks[0]
    back = chess.square_rank(king)
    king_to = chess.square(2 if queenside else 6, back)
    rook_to = chess.square(3 if queenside else 5, back)
    path = (chess.between(king, king_to) | chess.BB_SQUARES[king_to] | chess.between(rook, rook_to)
            | chess.BB_SQUARES[rook_to]) & ~chess.BB_SQUARES[king] & ~chess.BB_SQUARES[rook]
    if board.occupied & path:
        return "the squares between the king and the rook are not empty"
    return "the king would pass through or land on an attacked square"
