"""Books over the real server pipes: book moves answered at once, bad books
reported with one ``info string error`` line, play going on."""

from __future__ import annotations

import random
import struct

import chess
import chess.polyglot
import pytest

from conftest import POLYGLOT_BOOK
from test_protocol import Pipe, bestmove, infos, legal_texts, pipe, start  # noqa: F401 (fixture)



def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error")]


def go(pipe: Pipe, args: str = "depth 2") -> list[str]:
    pipe.send(f"go {args}")
    return pipe.until("bestmove ")


def test_book_move_at_once_from_the_polyglot_book(pipe):
    start(pipe, "chess")
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {POLYGLOT_BOOK}",
              "position startpos moves e2e4 c7c5 c2c3")
    pipe.ready()
    lines = go(pipe, "wtime 60000 btime 60000")
    reader = chess.polyglot.open_reader(POLYGLOT_BOOK)
    board = chess.Board()
    for m in ("e2e4", "c7c5", "c2c3"):
        board.push_uci(m)
    listed = {e.move.uci() for e in reader.find_all(board)}
    move = bestmove(lines)
    assert move in listed
    assert f"info string book move {move} (weight" in "\n".join(lines)
    assert not infos(lines) and not errors(lines)  # no search at all


def test_shipped_book_over_pipes(pipe):
    start(pipe, "connect4")
    pipe.send("setoption name OwnBook value true")
    lines = go(pipe, "movetime 5000")
    move = bestmove(lines)
    assert any(line.startswith(f"info string book move {move}") for line in lines)
    # The shipped books carry the builder's score: one depth-0 line with the move.
    (info,) = infos(lines)
    assert info.startswith("info depth 0 ") and info.endswith(f"pv {move}")


def write_bad(tmp_path, kind: str):
    path = tmp_path / kind
    if kind == "random":
        path.write_bytes(random.Random(5).randbytes(3200))
    elif kind == "truncated":
        path.write_bytes(POLYGLOT_BOOK.read_bytes()[:777])
    elif kind == "empty":
        path.write_bytes(b"")
    return path


@pytest.mark.parametrize("kind", ["missing", "empty", "random", "truncated"])
def test_unusable_book_file_gives_one_error_line(pipe, tmp_path, kind):
    path = write_bad(tmp_path, kind)
    start(pipe, "chess")
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {path}", "isready")
    lines = pipe.until("readyok")
    assert len(errors(lines)) == 1 and "BookFile" in errors(lines)[0]
    pipe.send("position startpos moves e2e4")
    lines = go(pipe) + go(pipe)
    assert not errors(lines)
    assert bestmove(lines) in legal_texts("chess", None, ("e2e4",))


def test_book_for_another_game_reported_once(pipe):
    start(pipe, "connect4")
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {POLYGLOT_BOOK}")
    first, second = go(pipe), go(pipe)
    assert len(errors(first)) == 1 and "not connect4" in errors(first)[0] and not errors(second)
    assert bestmove(first) in legal_texts("connect4") and infos(first)


def test_polyglot_with_illegal_moves_reported_once(pipe, tmp_path):
    board = chess.Board()
    path = tmp_path / "illegal.bin"
    with open(path, "wb") as f:
        f.write(struct.pack(">QHHI", chess.polyglot.zobrist_hash(board), chess.A8 | chess.A1 << 6, 9, 0))
    start(pipe, "chess")
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {path}")
    first, second = go(pipe), go(pipe)
    assert len(errors(first)) == 1 and "a1a8" in errors(first)[0] and not errors(second)
    assert bestmove(first) in legal_texts("chess") and bestmove(second) in legal_texts("chess")


def test_infinite_search_ignores_the_book(pipe):
    start(pipe, "chess")
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {POLYGLOT_BOOK}", "go infinite")
    assert not any(line.startswith("bestmove") or "book move" in line for line in pipe.quiet(0.5))
    pipe.send("stop")
    lines = pipe.until("bestmove ")
    assert bestmove(lines) in legal_texts("chess") and not any("book move" in line for line in lines)
