"""FEN, UCI long algebraic move text, SAN (through python-chess) and a text board."""

from __future__ import annotations

import re
from typing import cast

from engine.game import IllegalMoveError, InvalidPositionError

from .bitboards import CASTLE, KING, PAWN, PROMO_SHIFT, ROOK, SQUARE_NAMES
from .board import STANDARD_ROOKS, castling_rule

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

_LETTERS = " pnbrqk"
_PIECE_OF = {c: i for i, c in enumerate(_LETTERS) if c != " "}
_PIECE_OF.update({c.upper(): 8 | i for c, i in list(_PIECE_OF.items())})
_SYMBOL = {v: k for k, v in _PIECE_OF.items()}
_UNICODE = dict(zip("KQRBNPkqrbnp", "♔♕♖♗♘♙♚♛♜♝♞♟"))
_SQUARE = re.compile(r"^[a-h][1-8]$")
_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])([qrbnQRBN]?)$")
_CASTLING_FIELD = re.compile(r"^[KQkqA-Ha-h]+$")


def parse_fen(text: str, chess960: bool = False):
    """Split and validate a FEN: ``(board, turn, castling, ep, halfmove, fullmove, rule)``
    with ``rule`` the castling rule (:func:`games.chess.board.castling_rule`).

    Tolerant where python-chess is: missing fields default to white to move, no
    castling, no en passant, clocks 0 and 1; castling rights that cannot be used
    are dropped (see :func:`_castling`); an en passant square is kept only when a
    legal capture onto it exists (the position checks that). Raises
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

    cfield = parts[2] if len(parts) > 2 else "-"
    if cfield != "-" and (not _CASTLING_FIELD.match(cfield) or len(set(cfield)) != len(cfield)):
        raise InvalidPositionError(f"bad FEN castling field {cfield!r}")

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
    castling, rule = _castling(board, "" if cfield == "-" else cfield, chess960)
    return board, turn, castling, ep, halfmove, fullmove, rule


def _castling(board: list[int], field: str, chess960: bool) -> tuple[int, tuple]:
    """Castling rights and rule from a FEN castling field, read as python-chess does.

    ``K``/``Q`` name the outermost rook on the king's h-/a-side (X-FEN), a file
    letter the rook on that file (Shredder-FEN, or X-FEN where the outermost rook
    is not meant). A right needs its king and rook on the back rank, the rook
    beyond the king, one rook per side (the outermost named); standard chess
    further needs the king on e1/e8 and the rook in the corner.
    """
    rights = 0
    rooks = [-1] * 4
    kings = [board.index(KING), board.index(8 | KING)]
    for colour in (0, 1):
        base = 56 * colour
        pc_rook, pc_king = colour << 3 | ROOK, colour << 3 | KING
        ksq = kings[colour]
        on_rank = [base + f for f in range(8) if board[base + f] == pc_rook]
        chosen = set()
        for c in field:
            if c.isupper() != (colour == 0):
                continue
            c = c.lower()
            if c == "k":
                chosen.add(on_rank[-1] if on_rank and ksq < on_rank[-1] else base + 7)
            elif c == "q":
                chosen.add(on_rank[0] if on_rank and on_rank[0] < ksq else base)
            else:
                chosen.add(base + "abcdefgh".index(c))
        chosen &= set(on_rank)
        if not chosen or board[ksq] != pc_king or ksq >> 3 != colour * 7:
            continue
        for side, rsq in ((0, max(chosen)), (1, min(chosen))):
            if (rsq > ksq) != (side == 0):
                continue
            if not chess960 and (ksq != base + 4 or rsq != STANDARD_ROOKS[2 * colour + side]):
                continue
            rights |= 1 << (2 * colour + side)
            rooks[2 * colour + side] = rsq
    # One rook square per right: white's two, then black's.
    return rights, castling_rule((kings[0], kings[1]), cast(tuple[int, int, int, int], tuple(rooks)))


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
    ep = SQUARE_NAMES[pos.ep] if pos.ep is not None else "-"
    return f"{'/'.join(rows)} {'wb'[pos.turn]} {castling_field(pos)} {ep} {pos.halfmove} {pos.fullmove}"


def castling_field(pos) -> str:
    """The castling rights as python-chess writes them (X-FEN): ``K``/``Q`` for
    the outermost rook on that side of the king, else the rook's file letter."""
    out = ""
    for colour in (0, 1):
        rook = (colour << 3) | ROOK
        base = 56 * colour
        for side in (0, 1):
            if not pos.castling >> (2 * colour + side) & 1:
                continue
            rsq = pos.rule[1][2 * colour + side]
            f = rsq & 7
            outer = range(f + 1, 8) if side == 0 else range(f)
            letter = "abcdefgh"[f] if any(pos.board[base + g] == rook for g in outer) else "kq"[side]
            out += letter.upper() if colour == 0 else letter
    return out or "-"


def move_text(move: int, pos=None) -> str:
    """UCI long algebraic notation: ``e2e4``, ``e1g1`` (castling), ``e7e8q``; in
    Chess960 (``pos`` given, its game in Chess960 mode) castling is written as the
    king taking its own rook (``e1h1``, ``b1a1``), as ``UCI_Chess960`` asks."""
    promo = move >> PROMO_SHIFT & 7
    to = move >> 6 & 63
    if move & CASTLE and pos is not None and pos.game.chess960:
        to = pos.rook_of(move)
    text = SQUARE_NAMES[move & 63] + SQUARE_NAMES[to]
    return text + _LETTERS[promo] if promo else text


def parse_move(pos, text: str) -> int:
    """The legal move for a UCI text; upper-case promotion letters are accepted, and
    castling both as king-takes-rook (``e1h1``) and as the king's own move
    (``e1g1``) where that is no other move. ``0000`` is not a move."""
    s = text.strip()
    m = _UCI.match(s)
    if not m:
        raise IllegalMoveError(f"bad chess move {text[:20]!r}; expected e.g. e2e4 or e7e8q")
    frm = SQUARE_NAMES.index(m.group(1))
    to = SQUARE_NAMES.index(m.group(2))
    promo = _LETTERS.index(m.group(3).lower()) if m.group(3) else 0
    king_move = None
    for move in pos.legal_moves():
        if move & 63 != frm or move >> PROMO_SHIFT & 7 != promo:
            continue
        if move & CASTLE:
            if pos.rook_of(move) == to:
                return move
            if move >> 6 & 63 == to:
                king_move = move
        elif move >> 6 & 63 == to:
            return move
    if king_move is not None:
        return king_move
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
    board = python_chess_board(pos)
    return board.san(board.parse_uci(move_text(move, pos)))


def parse_san(pos, text: str) -> int:
    """The legal move for a SAN text; raises :class:`IllegalMoveError`."""
    board = python_chess_board(pos)
    try:
        uci = board.uci(board.parse_san(text.strip()), chess960=True)
    except ValueError as exc:
        raise IllegalMoveError(f"bad or illegal move {text[:20]!r}: {exc}") from None
    return parse_move(pos, uci)


def python_chess_board(pos):
    """The position as a ``chess.Board`` (``chess960`` as the game's mode), without history."""
    import chess

    return chess.Board(fen(pos), chess960=pos.game.chess960)
