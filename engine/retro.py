"""Retrograde analysis: the exact value of every position of a finite game class.

Zermelo's theorem made constructive. A class (e.g. king and rook against king) is
indexed ``0 .. size-1``, side to move included; the driver generates every move once,
in bulk, and then sweeps backwards from the game ends:

- positions without a move take their terminal value (mate: lost in 0; stalemate: draw);
- a position is won in ``k`` plies if some move reaches a position lost in ``k - 1``;
- a position is lost in ``k`` plies if every move reaches a position won in at most
  ``k - 1``, and the longest of those is exactly ``k - 1``;
- whatever is never marked is a draw.

Moves that leave the class (captures, promotions) are *exits*: the class indexing
resolves them by probing already solved smaller classes and hands the driver their
value. The sweep counts, for every position, the moves not yet known to lose
(Thompson's counting method), so every move is looked at a constant number of times.
The driver assumes that every move passes the turn to the opponent.

Values use the ``dtm1`` encoding, from the side to move's point of view:
``0`` draw, ``n + 1`` won with the game's end ``n`` plies away, ``-(n + 1)`` lost
``n`` plies away, :data:`ILLEGAL` for indices that are not a legal position.
"""

from __future__ import annotations

import time
from typing import Callable, NamedTuple, Protocol

import numpy as np

VALUE_DTYPE = np.int16
ILLEGAL = int(np.iinfo(VALUE_DTYPE).min)
DRAW = 0


def win_in(plies):
    """``dtm1`` value of a win for the side to move ``plies`` plies before the end."""
    return plies + 1


def loss_in(plies):
    """``dtm1`` value of a loss for the side to move ``plies`` plies before the end."""
    return -(plies + 1)


def decode(value: int, illegal: int = ILLEGAL) -> tuple[int, int] | None:
    """``(wdl, plies)`` for a ``dtm1`` value: wdl is +1/0/-1 for the side to move,
    plies the distance to the game's end (0 for draws); ``None`` for ``illegal``
    (the minimum of the array's dtype)."""
    if value > 0:
        return 1, value - 1
    if value == 0:
        return 0, 0
    if value == illegal:
        return None
    return -1, -value - 1


class Moves(NamedTuple):
    """The moves of a batch of positions, as flat arrays.

    ``src``/``dst``: one entry per move staying inside the class (absolute indices).
    ``exit_src``/``exit_value``: one entry per move leaving it, with the ``dtm1`` value
    of the position reached, from *its* side to move's point of view.
    """

    src: np.ndarray
    dst: np.ndarray
    exit_src: np.ndarray
    exit_value: np.ndarray


class Indexing(Protocol):
    """What a game supplies to have a class solved."""

    size: int
    """Number of indices, side to move included."""

    def valid(self, idx: np.ndarray) -> np.ndarray:
        """Boolean mask: which of ``idx`` are legal positions."""

    def moves(self, idx: np.ndarray) -> Moves:
        """Every legal move of the (valid) positions ``idx``."""

    def terminal(self, idx: np.ndarray) -> np.ndarray:
        """``dtm1`` values (win/loss in 0, or draw) of positions ``idx`` that have no move."""


Progress = Callable[[str], None]
#: Told each round of the marking: ``(ply, won, lost)``, the indices first marked won and
#: lost ``ply`` plies from the end (round 0: the positions without a move).
RoundReport = Callable[[int, np.ndarray, np.ndarray], None]


def _ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(starts[i], stops[i])`` for all ``i``."""
    lengths = stops - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return offsets + np.arange(total)


def solve(ix: Indexing, *, batch: int = 1 << 16, progress: Progress | None = None,
          on_round: RoundReport | None = None) -> np.ndarray:
    """Solve every position of ``ix``; returns the ``dtm1`` values as an int16 array.

    ``progress`` receives one status line now and then (positions generated, then
    plies swept and positions resolved); ``on_round`` the positions each round of
    the sweep marks, as it marks them.
    """
    n = ix.size
    t0 = time.monotonic()
    idx_type = np.int32 if n < 2**31 else np.int64
    valid = np.zeros(n, bool)
    moves_left = np.zeros(n, np.int32)
    srcs, dsts, exit_srcs, exit_values = [], [], [], []
    for lo in range(0, n, batch):
        idx = np.arange(lo, min(n, lo + batch), dtype=np.int64)
        ok = ix.valid(idx)
        valid[idx] = ok
        m = ix.moves(idx[ok])
        srcs.append(m.src.astype(idx_type))
        dsts.append(m.dst.astype(idx_type))
        exit_srcs.append(m.exit_src.astype(idx_type))
        exit_values.append(m.exit_value.astype(np.int32))
        if progress and (lo // batch) % 16 == 15:
            progress(f"moves: {lo + len(idx):,}/{n:,} positions, {time.monotonic() - t0:.1f}s")
    src = np.concatenate(srcs)
    dst = np.concatenate(dsts)
    exit_src = np.concatenate(exit_srcs)
    exit_value = np.concatenate(exit_values)
    del srcs, dsts, exit_srcs, exit_values
    if np.any(exit_value == ILLEGAL):
        raise ValueError("a move leaves the class for an illegal position")
    moves_left += np.bincount(src, minlength=n).astype(np.int32)
    moves_left += np.bincount(exit_src, minlength=n).astype(np.int32)

    value = np.zeros(n, VALUE_DTYPE)
    value[~valid] = ILLEGAL
    resolved = ~valid
    ends = np.flatnonzero(valid & (moves_left == 0))
    value[ends] = ix.terminal(ends)
    resolved[ends] = True

    # Predecessor lists: the moves sorted by the position they reach.
    order = np.argsort(dst)
    pred = src[order]
    pstart = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=pstart[1:])
    del order, dst, src

    def preds(frontier: np.ndarray) -> np.ndarray:
        return pred[_ranges(pstart[frontier], pstart[frontier + 1])]

    # Exits by the distance at which they take effect: a move to a position lost in
    # n wins in n + 1; a move to a position won in n counts as lost once the sweep
    # has passed n.
    exit_loss = exit_value < 0
    exit_win_src, exit_win_at = exit_src[exit_loss], -exit_value[exit_loss]  # = n + 1
    exit_bad = exit_value > 0
    exit_bad_src, exit_bad_at = exit_src[exit_bad], exit_value[exit_bad] - 1  # = n
    o = np.argsort(exit_win_at, kind="stable")
    exit_win_src, exit_win_at = exit_win_src[o], exit_win_at[o]
    o = np.argsort(exit_bad_at, kind="stable")
    exit_bad_src, exit_bad_at = exit_bad_src[o], exit_bad_at[o]
    last_exit = int(max(exit_win_at.max(initial=0), exit_bad_at.max(initial=-1) + 1))

    lost = ends[value[ends] < 0].astype(np.int64)
    won = ends[value[ends] > 0].astype(np.int64)
    if on_round:
        on_round(0, won, lost)
    ply = 0
    while len(lost) or len(won) or ply < last_exit:
        ply += 1
        # Won in `ply`: a move to a position lost in ply - 1.
        lo, hi = np.searchsorted(exit_win_at, [ply, ply + 1])
        cand = np.concatenate([preds(lost), exit_win_src[lo:hi]])
        cand = np.unique(cand[~resolved[cand]]).astype(np.int64)
        value[cand] = win_in(ply)
        resolved[cand] = True
        # Lost in `ply`: the last move not known to lose reaches a win in ply - 1.
        lo, hi = np.searchsorted(exit_bad_at, [ply - 1, ply])
        hit = np.concatenate([preds(won), exit_bad_src[lo:hi]])
        hit, count = np.unique(hit, return_counts=True)
        moves_left[hit] -= count.astype(np.int32)
        newly = hit[(moves_left[hit] == 0) & ~resolved[hit]].astype(np.int64)
        value[newly] = loss_in(ply)
        resolved[newly] = True
        won, lost = cand, newly
        if on_round:
            on_round(ply, won, lost)
        if progress:
            progress(f"sweep: ply {ply}, {int(resolved.sum()):,}/{n:,} resolved, "
                     f"{time.monotonic() - t0:.1f}s")
    return value
