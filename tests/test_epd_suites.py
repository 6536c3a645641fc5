"""The chess test suites shipped for scripts/epd_suite.py read as published: every
position legal, every best and avoided move a legal move of it, the ids in order."""

from pathlib import Path

import chess
import pytest

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name, count, prefix", [("wac.epd", 300, "WAC."), ("bk.epd", 24, "BK.")])
def test_a_suite_reads_whole(name, count, prefix):
    lines = (DATA / name).read_text().splitlines()
    assert len(lines) == count
    for i, line in enumerate(lines, 1):
        board, ops = chess.Board.from_epd(line)
        assert board.is_valid(), line
        assert ops["id"] == f"{prefix}{i:0{len(str(count))}d}"
        moves = ops.get("bm", []) + ops.get("am", [])
        assert moves and all(board.is_legal(m) for m in moves), line
