"""Reversi's exact solver under the one clock of a go (``EndgameEmpties`` up to the
whole board): a position it can finish is answered with its exact score; one it cannot
is answered, within the clock, with the search's own score, never an exact one."""

from __future__ import annotations

import re

from tests.test_protocol import Pipe, bestmove, infos, legal_texts, start
from tests.test_reversi_ffo import load_ffo

#: FFO #54: 28 empties, Black to move, -2 with perfect play (published).
FFO_54 = load_ffo()[54][0]
#: FFO #1 after its best g8 h7: 12 empties, Black to move, +18.
TWELVE = "--XXXXX--OOOXX-O-OOOXXOO-OXOOOXOOXXXOOXO--XOXOOO-XXXOOOO-OOOOOX- X"


def go(text: str, clock: int) -> list[str]:
    pipe = Pipe()
    try:
        start(pipe, "reversi")
        pipe.send("setoption name EndgameEmpties value 60", f"position fen {text}")
        pipe.ready()
        pipe.send(f"go wtime {clock} btime {clock}")
        return pipe.until("bestmove", timeout=120)
    finally:
        pipe.close()


def test_28_empties_on_a_small_clock_answer_with_the_searchs_score():
    lines = go(FFO_54, 3000)
    assert bestmove(lines) in legal_texts("reversi", FFO_54)
    assert not any(line.startswith("info string exact") for line in lines), lines
    last = infos(lines)[-1]
    # The search's score, not a proof: no mate score, and within the whole clock.
    assert re.search(r" score cp -?\d+", last), last
    assert int(last.split(" time ")[1].split()[0]) <= 3000, last


def test_an_endgame_it_can_finish_is_answered_exactly():
    lines = go(TWELVE, 60000)
    assert "info string exact: win by 18 discs in" in " ".join(lines), lines
    assert " score mate " in infos(lines)[-1]
    assert bestmove(lines) in legal_texts("reversi", TWELVE)
