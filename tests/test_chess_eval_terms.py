"""Switching chess evaluation term groups off (``games.chess.evaluate.set_terms``).

With every group off the evaluation is tapered PeSTO alone; each group removes
exactly its own share of the positional score; the caches never serve values
computed under other switches; colour mirroring (python-chess's
``Board.mirror``) flips nothing whatever is switched off.
"""

from __future__ import annotations

import random

import chess
import pytest

import games
from games.chess.evaluate import MAX_PHASE, TERMS, material_scratch, positional, set_terms

GAME = games.load("chess")


@pytest.fixture(autouse=True)
def _all_terms():
    set_terms()
    yield
    set_terms()


def _positions(count_per_start: int = 25, seed: int = 7):
    """Positions from random playouts of the benchmark positions."""
    rng = random.Random(seed)
    out = []
    for text in GAME.bench_texts:
        pos = GAME.new_position(text)
        for _ in range(count_per_start):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
            out.append(GAME.new_position(pos.to_text()))
    return out


POSITIONS = _positions()


def test_unknown_group_is_rejected():
    with pytest.raises(ValueError, match="unknown"):
        set_terms(["mobility", "tempo"])


def test_no_groups_is_tapered_pesto():
    set_terms(())
    for pos in POSITIONS:
        mg, eg, phase = material_scratch(pos.board)
        phase = min(phase, MAX_PHASE)
        white = mg * phase + eg * (MAX_PHASE - phase)
        value = abs(white) // MAX_PHASE * (1 if white > 0 else -1)
        assert pos.evaluate() == (value if pos.turn == 0 else -value), pos.to_text()


def test_each_group_removes_its_own_share():
    # The king danger squares one count that the king and checks groups share, so
    # those two shares add up only together; every other group's share adds alone.
    together = ("king", "checks")
    touched = set()
    for pos in POSITIONS:
        set_terms()
        full = positional(pos.bb)
        set_terms(())
        bare = positional(pos.bb)
        shares = []
        for group in TERMS:
            set_terms([t for t in TERMS if t != group])
            without = positional(pos.bb)
            if without != full:
                touched.add(group)
            if group not in together:
                shares.append((full[0] - without[0], full[1] - without[1]))
        set_terms([t for t in TERMS if t not in together])
        without = positional(pos.bb)
        shares.append((full[0] - without[0], full[1] - without[1]))
        assert (sum(s[0] for s in shares), sum(s[1] for s in shares)) == (full[0] - bare[0], full[1] - bare[1])
    # Scaling is not part of the positional score; every other group matters somewhere.
    assert touched == set(TERMS) - {"scale"}


def test_switching_drops_cached_evaluations():
    full = [pos.evaluate() for pos in POSITIONS]
    set_terms(())
    bare = [pos.evaluate() for pos in POSITIONS]
    assert sum(a != b for a, b in zip(full, bare)) > len(POSITIONS) // 2
    set_terms()
    assert [pos.evaluate() for pos in POSITIONS] == full
    assert [pos.evaluate_scratch() for pos in POSITIONS] == full


def test_scale_group():
    # King and bishop against a lone king cannot win: scaled to zero, unless scaling is off.
    pos = GAME.new_position("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1")
    assert pos.evaluate() == 0
    set_terms([t for t in TERMS if t != "scale"])
    assert pos.evaluate() > 200


@pytest.mark.parametrize("group", TERMS)
def test_mirror_symmetry_with_a_group_off(group):
    set_terms([t for t in TERMS if t != group])
    for pos in POSITIONS[::3]:
        mirrored = GAME.new_position(chess.Board(pos.to_text()).mirror().fen())
        assert pos.evaluate() == mirrored.evaluate(), pos.to_text()
