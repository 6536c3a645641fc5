"""The chess evaluation's tunable weights and their features, for ``zermelo tune``.

A data record holds the side to move's network inputs (``chess768``: own pieces,
then the other side's, on the board mirrored for black), which rebuild the board
with the side to move as white; the evaluation is colour-symmetric, so that
board's white-view score is the record's side-to-move score. Castling rights and
the en-passant square are lost, and the evaluation does not read them.
"""

from __future__ import annotations

import numpy as np

from engine.nnue_data import Dataset
from engine.tuning import EvalWeights

from . import evaluate as ev


def weight_vector(values: tuple[int, ...]) -> EvalWeights:
    """The positional weights ``values``, with their names and bounds."""
    return EvalWeights(names=ev.WEIGHT_NAMES, values=values,
                       lower=tuple(row[2] for row in ev.WEIGHT_TABLE),
                       upper=tuple(row[3] for row in ev.WEIGHT_TABLE),
                       defaults=ev.DEFAULT_WEIGHTS)


def _board(indices) -> tuple[list[int], list[int]]:
    bb, board = [0] * 16, [0] * 64
    for index in indices:
        rel, rest = divmod(int(index), 384)
        pc, sq = rel << 3 | (rest >> 6) + 1, rest & 63
        bb[pc] |= 1 << sq
        bb[rel << 3] |= 1 << sq
        board[sq] = pc
    return bb, board


def features(data: Dataset) -> tuple[np.ndarray, np.ndarray]:
    """``(base, X)`` with each record's evaluation, side to move's view, ``base + X @ w``
    for the positional weights ``w``: material, the piece-square tables and the king
    danger (squared, so held fixed) in ``base``, each weight's tapered terms in ``X``.
    The draw scaling is taken as the weights in play give it and held fixed (it moves
    only where the score's sign does)."""
    boards = [_board(data.stm[data.stm_offsets[i]:data.stm_offsets[i + 1]]) for i in range(len(data))]
    bbs = [bb for bb, _ in boards]
    n, m = len(boards), len(ev.WEIGHT_NAMES)
    base = np.zeros(n)
    mid = np.zeros(n)  # the middlegame share of the taper, times the scaling
    end = np.zeros(n)
    for i, (bb, board) in enumerate(boards):
        mg, eg, phase = ev.material_scratch(board)
        phase = min(phase, ev.MAX_PHASE)
        p_mg, p_eg = ev.positional(bb)
        score = (mg + p_mg) * phase + (eg + p_eg) * (ev.MAX_PHASE - phase)
        factor = ev.scale(bb, score) / (64 * ev.MAX_PHASE) if score else 1 / ev.MAX_PHASE
        mid[i], end[i] = phase * factor, (ev.MAX_PHASE - phase) * factor
        base[i] = mg * mid[i] + eg * end[i]
    x = np.zeros((n, m))
    fixed, columns = ev.weight_terms(bbs)
    t = np.asarray(fixed, dtype=np.float64).reshape(n, 2)
    base += t[:, 0] * mid + t[:, 1] * end
    for j, terms in enumerate(columns):
        t = np.asarray(terms, dtype=np.float64).reshape(n, 2)
        x[:, j] = t[:, 0] * mid + t[:, 1] * end
    return base, x
