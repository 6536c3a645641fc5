"""FEN, UCI long algebraic move text, SAN (through python-chess) and a text board."""

from __future__ import annotations

import re

from engine.game import IllegalMoveError, InvalidPositionError

from .bitboards import KING, PAWN, ROOK, SQUARE_NAMES
from .board import CASTLE, PROMO_SHIFT, BK, BQ, WK, WQ

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

_LETTERS = " pnbrqk"
_PIECE_OF = {c: i for i, c in enumerate(_LETTERS) if c != " "}
_PIECE_OF.update({c.upper(): 8 | i for c, i in list(_PIECE_OF.items())})
_SYMBOL = {v: k for k, v in _PIECE_OF.items()}
_UNICODE = dict(zip("KQRBNPkqrbnp", "♔♕♖♗♘♙♚♛♜♝♞♟"))
_SQUARE = re.compile(r"^[a-h][1-8]$")
_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])([qrbnQRBN]?)$")
# Castling right -> (king square, rook square, colour bit of the pieces).
_CASTLING_ORIGINS = {WK: (4, 7, 0), WQ: (4, 0, 0), BK: (60, 63, 8), BQ: (60, 56, 8)}


def parse_fen(text: str):
    """Split and validate a FEN: ``(board, turn, castling, ep, halfmove, fullmove)``.

    Tolerant where python-chess is: missing fields default to white to move, no
    castling, no en passant, clocks 0 and 1; castling rights without their king
    and rook on the original squares are dropped; an en passant square is kept
    only when a legal capture onto it exists (the position checks that). Raises
    :class:`InvalidPositionError` for bad syntax, not exactly one king per side,
    pawns on the back ranks and too many pieces (the game rejects the side not
    to move being in check).
    """
    parts = text.split()
    if not 1 <= len(parts) <= 6:
        raise InvalidPositionError(f"bad FEN {text[:80]!r}: expected 1 to 6 fields")
    rows = parts[0].split("/")
    if len(rows) != 8:
        raise InvalidPositionError(f"bad FEN placement {parts[0][:80]!r}: expected 8 ranks")
    board = [0] * 64
    for i, row in enumerate(rows):
        rank = 7 - i
        f = 0
        for c in row:
            if c in "12345678":
                f += int(c)
            elif c in _PIECE_OF and f < 8:
                board[rank * 8 + f] = _PIECE_OF[c] ^ 8  # white (upper case) is colour 0
                f += 1
            else:
                raise InvalidPositionError(f"bad FEN rank {row!r}")
        if f != 8:
            raise InvalidPositionError(f"bad FEN rank {row!r}: {f} squares instead of 8")
    side = parts[1] if len(parts) > 1 else "w"
    if side not in ("w", "b"):
        raise InvalidPositionError(f"bad FEN side to move {side!r}")
    turn = 0 if side == "w" else 1

    castling = 0
    cfield = parts[2] if len(parts) > 2 else "-"
    if cfield != "-":
        bits = {"K": WK, "Q": WQ, "k": BK, "q": BQ}
        if not cfield or any(c not in bits for c in cfield) or len(set(cfield)) != len(cfield):
            raise InvalidPositionError(f"bad FEN castling field {cfield!r}")
        for c in cfield:
            right = bits[c]
            ksq, rsq, colour = _CASTLING_ORIGINS[right]
            if board[ksq] == colour | KING and board[rsq] == colour | ROOK:
                castling |= right

    ep = None
    efield = parts[3] if len(parts) > 3 else "-"
    if efield != "-":
        if not _SQUARE.match(efield):
            raise InvalidPositionError(f"bad FEN en passant square {efield!r}")
        ep = SQUARE_NAMES.index(efield)
    try:
        halfmove = int(parts[4]) if len(parts) > 4 else 0
        fullmove = int(parts[5]) if len(parts) > 5 else 1
    except ValueError:
        raise InvalidPositionError(f"bad FEN move counters in {text[:80]!r}") from None
    if halfmove < 0 or fullmove < 0:
        raise InvalidPositionError("FEN move counters must not be negative")
    fullmove = max(fullmove, 1)

    for colour, name in ((0, "white"), (8, "black")):
        pieces = [pc for pc in board if pc and pc & 8 == colour]
        if pieces.count(colour | KING) != 1:
            raise InvalidPositionError(f"{name} must have exactly one king")
        if len(pieces) > 16 or pieces.count(colour | PAWN) > 8:
            raise InvalidPositionError(f"{name} has too many pieces")
    if any(board[sq] & 7 == PAWN for sq in list(range(8)) + list(range(56, 64))):
        raise InvalidPositionError("pawns on the first or eighth rank")
    return board, turn, castling, ep, halfmove, fullmove


def fen(pos) -> str:
    """The full six-field FEN (en passant written only when a legal capture exists)."""
    board = pos.board
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            pc = board[rank * 8 + f]
            if pc:
                if empty:
                    row += str(empty)
                    empty = 0
                row += _SYMBOL[pc ^ 8]
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    rights = "".join(c for c, bit in zip("KQkq", (WK, WQ, BK, BQ)) if pos.castling & bit) or "-"
    ep = SQUARE_NAMES[pos.ep] if pos.ep is not None else "-"
    return f"{'/'.join(rows)} {'wb'[pos.turn]} {rights} {ep} {pos.halfmove} {pos.fullmove}"


def move_text(move: int) -> str:
    """UCI long algebraic notation: ``e2e4``, ``e1g1`` (castling), ``e7e8q``."""
    promo = move >> PROMO_SHIFT & 7
    text = SQUARE_NAMES[move & 63] + SQUARE_NAMES[move >> 6 & 63]
    return text + _LETTERS[promo] if promo else text


def parse_move(pos, text: str) -> int:
    """The legal move for a UCI text; upper-case promotion letters and castling
    written as king-takes-rook (``e1h1``) are accepted. ``0000`` is not a move."""
    s = text.strip()
    m = _UCI.match(s)
    if not m:
        raise IllegalMoveError(f"bad chess move {text[:20]!r}; expected e.g. e2e4 or e7e8q")
    frm = SQUARE_NAMES.index(m.group(1))
    to = SQUARE_NAMES.index(m.group(2))
    promo = _LETTERS.index(m.group(3).lower()) if m.group(3) else 0
    for move in pos.legal_moves():
        if move & 63 != frm or move >> PROMO_SHIFT & 7 != promo:
            continue
        mto = move >> 6 & 63
        if mto == to:
            return move
        # King takes own rook: the rook stands two or more squares beyond the king's target.
        if move & CASTLE and to == (frm + 3 if mto > frm else frm - 4):
            return move
    raise IllegalMoveError(f"illegal move {s!r} in {fen(pos)}")


def render(pos) -> str:
    """The board from white's side with file and rank labels, then the FEN."""
    lines = []
    for rank in range(7, -1, -1):
        cells = []
        for f in range(8):
            pc = pos.board[rank * 8 + f]
            cells.append(_UNICODE[_SYMBOL[pc ^ 8]] if pc else "·")
        lines.append(f"{rank + 1} " + " ".join(cells))
    lines.append("  a b c d e f g h")
    lines.append(f"{pos.game.players[pos.turn]} to move; {fen(pos)}")
    return "\n".join(lines)


def san(pos, move: int) -> str:
    """Standard algebraic notation of a legal move (``Nf3``, ``O-O``, ``exd8=Q+``)."""
    import chess

    return chess.Board(fen(pos)).san(chess.Move.from_uci(move_text(move)))


def parse_san(pos, text: str) -> int:
    """The legal move for a SAN text; raises :class:`IllegalMoveError`."""
    import chess

    try:
        uci = chess.Board(fen(pos)).parse_san(text.strip()).uci()
    except ValueError as exc:
        raise IllegalMoveError(f"bad or illegal move {text[:20]!r}: {exc}") from None
    return parse_move(pos, uci)
