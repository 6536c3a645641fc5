"""Books from anywhere: SQLite files whose schema was rewritten (endless views,
triggers, other columns, huge values), queries that must stop with the ``go``,
and Polyglot files with garbage entries. Each is refused at ``setoption`` with
one ``info string error`` line naming the file, or its bad entries skipped with
one line, and play goes on."""

from __future__ import annotations

import shutil
import sqlite3
import struct
import time

import chess
import chess.polyglot
import pytest

import games
from engine import book as bk
from engine.control import Control, Stopped
from test_protocol import Pipe, bestmove, legal_texts, pipe, start  # noqa: F401 (fixture)

#: The endless row source of the hostile views: 1, 2, 3, ... for ever.
ENDLESS = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)"
COLUMNS = "key, move, text, weight, score, depth, games, wins, draws, losses"


def good_book(path):
    """A valid connect4 book: the start position and one reply."""
    game = games.load("connect4")
    book = bk.ZermeloBook.create(path, game)
    pos = game.new_position()
    book.put(pos.key, [bk.Entry(pos.parse_move("4"), "4", 3, 10, 5), bk.Entry(pos.parse_move("3"), "3", 1)],
             pos.to_text())
    pos.push(pos.parse_move("4"))
    book.put(pos.key, [bk.Entry(pos.parse_move("4"), "4", 1)], pos.to_text())
    book.close()
    return path


#: name -> SQL that turns a valid book into a hostile or malformed one.
MUTATIONS = {
    "meta-endless-view": "ALTER TABLE meta RENAME TO meta0; "
                         f"CREATE VIEW meta AS {ENDLESS} SELECT 'k' || x AS name, 'v' AS value FROM r",
    # The first row comes at once (an opening LIMIT 1 passes); a lookup by key never ends.
    "moves-endless-view": f"ALTER TABLE moves RENAME TO moves0; CREATE VIEW moves AS SELECT {COLUMNS} FROM moves0 "
                          f"UNION ALL SELECT * FROM ({ENDLESS} SELECT -x, 0, 'a', 1, NULL, NULL, 0, 0, 0, 0 "
                          "FROM r WHERE x > 0)",
    "positions-view": "DROP TABLE positions; CREATE VIEW positions AS SELECT key, text FROM moves",
    "virtual-table": "DROP TABLE positions; CREATE VIRTUAL TABLE positions USING fts5(key, text)",
    "trigger": "CREATE TRIGGER t AFTER INSERT ON moves BEGIN DELETE FROM moves; END",
    "extra-table": "CREATE TABLE notes(x)",
    "expression-index": "CREATE INDEX w ON moves(weight * 2)",
    "extra-column": "ALTER TABLE moves ADD COLUMN extra INTEGER",
    "no-primary-key": f"ALTER TABLE moves RENAME TO moves0; CREATE TABLE moves({COLUMNS}); "
                      f"INSERT INTO moves SELECT * FROM moves0; DROP TABLE moves0",
    "huge-meta-value": "UPDATE meta SET value = '[' || replace(hex(zeroblob(700000)), '00', 'null,') || 'null]' "
                       "WHERE name = 'roots'",
    "params-not-json": "UPDATE meta SET value = '{{{' WHERE name = 'params'",
}


def go(pipe: Pipe) -> list[str]:
    """A timed go's lines: it must answer within a few seconds, book or not."""
    pipe.send("go movetime 200")
    return pipe.until("bestmove ", timeout=5)


def hostile(tmp_path, name: str):
    path = good_book(tmp_path / f"{name}.zbook")
    conn = sqlite3.connect(path)
    conn.executescript(MUTATIONS[name])
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("name", [n for n in MUTATIONS if "endless" not in n])
def test_a_book_of_another_schema_is_refused(tmp_path, name):
    path = hostile(tmp_path, name)
    with pytest.raises(bk.BookError) as err:
        bk.open_book(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("name", ["meta-endless-view", "moves-endless-view"])
def test_an_endless_view_is_refused_at_setoption_and_play_goes_on(pipe, tmp_path, name):
    path = hostile(tmp_path, name)
    start(pipe, "connect4")
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {path}", "isready")
    lines = pipe.until("readyok$", timeout=5)
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1 and "BookFile" in errors[0] and str(path) in errors[0], lines
    lines = go(pipe)
    assert bestmove(lines) in legal_texts("connect4")
    assert not any(line.startswith("info string error") for line in lines)


def test_a_valid_book_still_plays(tmp_path):
    path = good_book(tmp_path / "good.zbook")
    book = bk.open_book(path)
    book.check_game(games.load("connect4"))
    entries, bad = book.entries(games.load("connect4").new_position())
    assert [(e.text, e.weight, e.score) for e in entries] == [("4", 3, 10), ("3", 1, None)] and not bad
    assert book.count() == (2, 3) and len(book.position_texts()) == 2


def test_every_query_of_a_book_stops_with_the_go(tmp_path):
    """A book changed on disk after it was opened (SQLite reloads the schema) may
    hold an endless view again: a lookup ends when the go's stop flag or
    deadline does, and otherwise at its step budget."""
    path = good_book(tmp_path / "later.zbook")
    book = bk.open_book(path)
    conn = sqlite3.connect(path)
    conn.executescript(MUTATIONS["moves-endless-view"])
    conn.close()
    pos = games.load("connect4").new_position()
    with pytest.raises(Stopped):
        book.entries(pos, Control(deadline=time.perf_counter()))
    control = Control()
    control.stop()
    with pytest.raises(Stopped):
        book.entries(pos, control)
    with pytest.raises(bk.BookError, match="budget"):
        book.entries(pos)


def test_rows_of_the_wrong_types_are_skipped_as_bad_entries(tmp_path):
    path = good_book(tmp_path / "types.zbook")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE moves SET weight = 'heavy' WHERE text = '3'")
    conn.commit()
    conn.close()
    entries, bad = bk.open_book(path).entries(games.load("connect4").new_position())
    assert [e.text for e in entries] == ["4"] and len(bad) == 1 and "heavy" in bad[0]


def polyglot_file(path, raw_moves: list[int]):
    """A Polyglot book of the start position with the given raw move words."""
    key = chess.polyglot.zobrist_hash(chess.Board())
    with open(path, "wb") as f:
        for raw in raw_moves:
            f.write(struct.pack(">QHHI", key, raw, 5, 0))
    return path


#: Raw Polyglot move words of no chess move: promotion codes 5-7 (a king, then no piece) and a drop.
GARBAGE = [(5 << 12) | (chess.E2 << 6) | chess.E4, (6 << 12) | (chess.E2 << 6) | chess.E4,
           (7 << 12) | (chess.E2 << 6) | chess.E4, (3 << 12) | (chess.E2 << 6) | chess.E2]


def test_polyglot_garbage_moves_are_bad_entries(tmp_path):
    e2e4 = (chess.E2 << 6) | chess.E4
    path = polyglot_file(tmp_path / "garbage.bin", GARBAGE + [e2e4])
    entries, bad = bk.open_book(path).entries(games.load("chess").new_position())
    assert [e.text for e in entries] == ["e2e4"] and len(bad) == len(GARBAGE)


def test_polyglot_garbage_gives_one_book_error_and_a_move(pipe, tmp_path):
    path = polyglot_file(tmp_path / "garbage.bin", GARBAGE)
    start(pipe, "chess")
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {path}")
    first, second = go(pipe), go(pipe)
    errors = [line for line in first + second if line.startswith("info string error")]
    assert len(errors) == 1 and errors[0].startswith(f"info string error: book {path}"), errors
    assert bestmove(first) in legal_texts("chess") and bestmove(second) in legal_texts("chess")


@pytest.mark.parametrize("content", [b"\x01" * 33, struct.pack(">QHHIQHHI", 2, 796, 1, 0, 1, 796, 1, 0)],
                         ids=["not-16-bytes", "unsorted"])
def test_polyglot_of_wrong_size_or_order_is_refused(pipe, tmp_path, content):
    path = tmp_path / "bad.bin"
    path.write_bytes(content)
    start(pipe, "chess")
    pipe.send("setoption name OwnBook value true", f"setoption name BookFile value {path}", "isready")
    lines = pipe.until("readyok$")
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1 and str(path) in errors[0]
    assert bestmove(go(pipe)) in legal_texts("chess")


def test_a_copy_of_a_shipped_book_opens(tmp_path):
    shipped = bk.default_book_path(games.load("checkers"))
    path = tmp_path / "checkers.zbook"
    shutil.copy(shipped, path)
    book = bk.open_book(path)
    book.check_game(games.load("checkers"))
    assert book.entries(games.load("checkers").new_position())[0]


def test_a_book_of_a_game_with_a_list_parameter_opens(tmp_path):
    """Nim's heaps are a list: its books record them as one, and open again."""
    import games
    from engine import book as bk

    game = games.load("nim", heaps="3 4 5")
    path = tmp_path / "nim.zbook"
    bk.ZermeloBook.create(path, game).close()
    bk.open_book(path).check_game(game)
