"""A chess book walked into Polyglot entries."""

from __future__ import annotations

import pathlib

from engine.book import ZermeloBook
from engine.books.writer import write_polyglot
from engine.game import Game


def polyglot_move(board, uci: str) -> int:
    """The Polyglot encoding of ``uci`` on ``board`` (a :class:`chess.Board`):
    castling is written as the king taking its own rook."""
    import chess

    move = chess.Move.from_uci(uci)
    to = move.to_square
    if board.piece_type_at(move.from_square) == chess.KING and abs(chess.square_file(to) -
                                                                     chess.square_file(move.from_square)) == 2:
        to = chess.square(7 if chess.square_file(to) == 6 else 0, chess.square_rank(to))
    promo = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}[move.promotion]
    return to | move.from_square << 6 | promo << 12


def export_polyglot(path: str | pathlib.Path, game: Game, out: str | pathlib.Path, plies: int = 1000) -> int:
    """Write the chess book at ``path`` (for ``game``, chess) as a Polyglot ``.bin``:
    its stored positions and every position reachable from its roots through its
    moves (at most ``plies`` from a root); returns the number of entries."""
    import chess
    import chess.polyglot

    book = ZermeloBook(path)
    try:
        weights: dict[tuple[int, int], int] = {}
        seen: set[int] = set()
        stack = [(game.new_position(text), 0) for text in book.position_texts()]
        stack += [(game.new_position(root), 0) for root in book.roots]
        while stack:
            pos, ply = stack.pop()
            if pos.key in seen or ply >= plies:
                continue
            seen.add(pos.key)
            entries, _ = book.entries(pos)
            board = chess.Board(pos.to_text())
            key = chess.polyglot.zobrist_hash(board)
            for e in entries:
                weights[(key, polyglot_move(board, e.text))] = e.weight
                child = pos.copy()
                child.push(e.move)
                stack.append((child, ply + 1))
    finally:
        book.close()
    return write_polyglot(out, weights)
