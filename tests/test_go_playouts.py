"""Random Go games checked move by move against the simple implementation
(``tests/go_simple.py``, which shares no code with ``games/go``): the legal moves,
the playouts' moves (the eye rule), the board after every move (captures), the single-move legality the text parser
uses, the refusals by ko and superko, and the area score."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import games
from go_simple import SimpleGo

pytestmark = pytest.mark.both_builds

#: (size, games, most plies, ko rule): a few games on each board; enough for every
#: kind of refusal to occur (checked below), small enough for about ten seconds.
PASS_RATE = 0.03
RUNS = [(5, 16, 300, "superko"), (5, 10, 300, "simple"), (7, 6, 300, "superko"), (9, 3, 300, "superko")]


def play_and_compare(size: int, count: int, plies: int, ko: str, seed: str) -> Counter:
    """Play ``count`` random games on both implementations; returns the events seen."""
    rng = random.Random(seed)
    game = games.load("go", size=size, ko=ko, komi=0.5)
    events: Counter = Counter()
    for _ in range(count):
        pos = game.new_position()
        simple = SimpleGo(size, size, superko=ko == "superko")
        for _ in range(plies):
            legal = {pos.move_text(m) for m in pos.legal_moves()}
            if simple.passes >= 2:
                assert not legal
                break
            whys = {simple.name(pt): simple.after(pt)[1] for pt in simple.points()}
            assert legal == {name for name, why in whys.items() if not why} | {"pass"}, pos.to_text()
            eyes = {pos.move_text(m) for m in pos.playout_moves()}
            assert eyes == simple.playout_plays(), pos.to_text()
            events["eye"] += len(legal) - 1 - len(eyes - {"pass"})
            for name, why in whys.items():
                events[why or "legal"] += 1
                assert pos.is_legal(pos.game.parse_point(name)) == (not why), (pos.to_text(), name, why)
            # Rare passes: the games run long enough for captures, kos and superko.
            plays = sorted(legal - {"pass"})
            move = rng.choice(plays) if plays and rng.random() > PASS_RATE else "pass"
            before = sum(r.count("x") + r.count("o") for r in simple.rows())
            pos.push(pos.parse_move(move))
            simple.play(move)
            if move != "pass" and sum(r.count("x") + r.count("o") for r in simple.rows()) <= before:
                events["capture"] += 1
            assert pos.rows() == simple.rows()
            assert pos.key == pos.compute_key()
        assert pos.area() == simple.area()
        events["ended" if pos.passes >= 2 else "cut"] += 1
        if pos.passes >= 2:
            black, white = simple.area()
            margin = black - white - 0.5
            assert pos.outcome() == (1 if (margin > 0) == (pos.turn == 0) else -1)
    return events


@pytest.mark.parametrize("size,count,plies,ko", RUNS, ids=[f"{s}x{s}-{k}" for s, _, _, k in RUNS])
def test_random_games_agree_with_the_simple_implementation(size, count, plies, ko):
    events = play_and_compare(size, count, plies, ko, f"go-simple/{size}/{ko}")
    # The games must have exercised the rules, not just filled the board.
    assert events["capture"] and events["suicide"] and events["occupied"] and events["eye"]
    if size == 5:
        assert events["ko"]
        if ko == "superko":
            assert events["superko"]
