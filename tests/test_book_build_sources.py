"""Book building from a Polyglot file, and books that answer replies."""

from __future__ import annotations

import chess
import chess.polyglot

import games
from engine.book import open_book
from protocol.book_cli import main
from tests.conftest import POLYGLOT_BOOK



def test_polyglot_source_keeps_the_moves_at_least_keep_share_as_heavy(tmp_path):
    out = tmp_path / "chess.zbook"
    assert main(["build", "chess", "--source", "polyglot", "--input", str(POLYGLOT_BOOK),
                 "--out", str(out), "--plies", "2", "--keep-share", "0.5"]) == 0
    game = games.load("chess")
    book = open_book(out)
    with chess.polyglot.open_reader(POLYGLOT_BOOK) as reader:
        for line in ([], ["e2e4"], ["d2d4"]):
            board, pos = chess.Board(), game.new_position()
            for m in line:
                board.push_uci(m)
                pos.push(pos.parse_move(m))
            listed = {e.move.uci(): e.weight for e in reader.find_all(board)}
            heaviest = max(listed.values())
            playable, bad = book.entries(pos)
            assert not bad
            assert {e.text: e.weight for e in playable} == {
                m: w for m, w in listed.items() if w >= 0.5 * heaviest}


def test_search_source_with_replies_answers_a_move_it_would_not_play(tmp_path):
    out = tmp_path / "ttt.zbook"
    assert main(["build", "tictactoe", "--out", str(out), "--plies", "2", "--depth", "3",
                 "--margin", "0", "--max-moves", "3", "--replies", "--jobs", "1"]) == 0
    game = games.load("tictactoe")
    book = open_book(out)
    start = game.new_position()
    rows = book.rows(start.key)
    played = [e for e in rows if e.weight > 0]
    replies = [e for e in rows if e.weight == 0]
    assert played and replies and len(played) + len(replies) <= 3
    pos = start.copy()
    pos.push(pos.parse_move(replies[0].text))
    answers, bad = book.entries(pos)
    assert answers and not bad


def test_full_plies_answer_every_position_of_the_first_plies(tmp_path):
    out = tmp_path / "c4.zbook"
    assert main(["build", "connect4", "--out", str(out), "--plies", "3", "--full-plies", "2", "--depth", "2",
                 "--margin", "0", "--max-moves", "1", "--jobs", "1"]) == 0
    game = games.load("connect4")
    book = open_book(out)
    layer = [game.new_position()]
    for ply in range(3):
        # 1, 7 and 49 positions, each with a move the book plays.
        assert len({p.key for p in layer}) == 7 ** ply
        nxt = []
        for pos in layer:
            playable, bad = book.entries(pos)
            assert len(playable) == 1 and not bad
            for m in pos.legal_moves():
                child = pos.copy()
                child.push(m)
                nxt.append(child)
        layer = nxt
    assert book.count()[0] == 1 + 7 + 49


def test_max_moves_schedule_and_several_reply_times(tmp_path):
    out = tmp_path / "ttt.zbook"
    assert main(["build", "tictactoe", "--out", str(out), "--plies", "3", "--depth", "2", "--margin", "1000",
                 "--max-moves", "9", "1", "--replies", "--reply-movetime", "5", "10", "--jobs", "1"]) == 0
    game = games.load("tictactoe")
    book = open_book(out)
    start = game.new_position()
    # MultiPV 9 at the root keeps all nine moves (the margin keeps everything) ...
    assert len(book.entries(start)[0]) == 9
    for m in start.legal_moves():
        pos = start.copy()
        pos.push(m)
        # ... and MultiPV 1 afterwards plays one move; the short searches' picks are replies.
        rows = book.rows(pos.key)
        assert len([e for e in rows if e.weight > 0]) == 1 and len(rows) <= 3


def test_a_forced_move_is_stored_without_a_search(tmp_path):
    out = tmp_path / "forced.zbook"
    fen = "B:W18,30:B14,1"  # the capture 14x23 is compulsory
    assert main(["build", "checkers", "--out", str(out), "--fen", fen, "--plies", "1", "--depth", "4",
                 "--jobs", "1"]) == 0
    rows = open_book(out).rows(games.load("checkers").new_position(fen).key)
    assert [(e.text, e.weight, e.score) for e in rows] == [("14x23", 100, None)]
