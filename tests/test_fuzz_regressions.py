"""Inputs the file and protocol fuzzers found: a PGN that crashes python-chess's
reader, a table header with a side that does not exist, files too big to be
books, and a ``go`` that must get its ``bestmove`` whatever comes after it."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from protocol.records import read_records

REPO = pathlib.Path(__file__).resolve().parents[1]

#: A closing parenthesis after an illegal move, then a NAG: python-chess's reader
#: raises IndexError from its own visitor (not a game error).
CRASHING_GAME = '[Event "bad"]\n[Result "*"]\n\n1. e4 e5 2. Kf3 ) ? *\n\n'
GOOD_GAME = '[Event "good"]\n[Result "1-0"]\n\n1. d4 d5 2. c4 1-0\n\n'


def zermelo(*args: str, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_a_game_python_chess_cannot_read_is_skipped_and_the_rest_is_read():
    skipped = []
    recs = read_records(GOOD_GAME + CRASHING_GAME + GOOD_GAME, lambda n, why: skipped.append((n, why)))
    assert [(r.number, r.moves) for r in recs] == [(1, ["d2d4", "d7d5", "c2c4"]), (3, ["d2d4", "d7d5", "c2c4"])]
    assert [n for n, _ in skipped] == [2] and "IndexError" in skipped[0][1]
    with pytest.raises(ValueError, match="^game 2: "):
        read_records(GOOD_GAME + CRASHING_GAME)


@pytest.mark.parametrize("tail", [")", ") ?", "{", "(", "))) ? ? {x}", "\x00\x1b)?"])
def test_a_pgn_ending_in_any_fragment_ends(tail):
    # Whatever python-chess makes of the last line, the reader gets to the end.
    recs = read_records(GOOD_GAME + "1. g2 " + tail, lambda n, why: None)
    assert recs[0].moves == ["d2d4", "d7d5", "c2c4"]


def test_a_book_import_with_a_crashing_game_names_it_and_goes_on(tmp_path):
    pgn = tmp_path / "c.pgn"
    pgn.write_bytes((GOOD_GAME + CRASHING_GAME + GOOD_GAME).encode() + b"\x00\x9c\xff)?\n")
    out = zermelo("book", "build", "chess", "--source", "games", "--input", str(pgn), "--out",
                  str(tmp_path / "c.zbook"), "--plies", "4", "--min-games", "1")
    text = out.stdout + out.stderr
    assert out.returncode == 0 and "Traceback" not in text, text
    assert f"{pgn}: game 2 skipped: " in text, text


def test_pgn_openings_with_illegal_moves_print_no_python_chess_log(tmp_path):
    pgn = tmp_path / "o.pgn"
    pgn.write_text('1. e4 e5 2. Ke3 *\n\n1. d4 d5 *\n\n1. Qh5 *\n\n' + CRASHING_GAME)
    engine = f"cmd='{sys.executable} {REPO / 'scripts' / 'random_engine.py'} 1'"
    out = zermelo("match", "--game", "chess", "--openings", str(pgn), "--games", "2", "--depth", "1",
                  "--adjudicate", "maxplies=8", "--seed", "1", "--engine", f"{engine} name=a",
                  "--engine", f"{engine} name=b")
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert "error during pgn parsing" not in text and "Traceback" not in text, text
    # Each skip names the file (a reader of a long match log may have several).
    assert [line.split(" skipped")[0] for line in text.splitlines() if " skipped: " in line] == [
        f"openings {pgn}: game 1", f"openings {pgn}: game 3", f"openings {pgn}: game 4"], text


# -- table headers ------------------------------------------------------------------------

def _table(tmp_path, entries=8, **fields):
    """A table file whose header has ``fields`` (``None`` removes one) over the written ones."""
    import json
    import struct

    import numpy as np

    from engine import tablefile

    path = tablefile.write(tmp_path / "t.ztb", np.arange(entries, dtype=np.int16) % 7 - 3, game="demo",
                           material="X", stm_convention="single", extra={"sides": 2, "players": ["a", "b"]})
    header, _ = tablefile.read_header(path)
    header = {k: v for k, v in {**header, **fields}.items() if v is not None}
    data = path.read_bytes()
    (old,) = struct.unpack("<I", data[8:12])
    text = json.dumps(header).encode()
    path.write_bytes(data[:8] + struct.pack("<I", len(text)) + text + data[12 + old:])
    return path


BAD_SIDES = [{"sides": 1 << 64}, {"sides": 0}, {"sides": -2}, {"sides": True}, {"sides": "2"}, {"sides": 2.0},
             {"sides": 3}, {"sides": 1 << 40, "entries": 0}, {"players": ["a"]}, {"players": "ab"},
             {"players": [1, 2]}, {"players": ["a", ""]}, {"players": {"0": "a", "1": "b"}},
             {"players": ["x" * 10_000, "b"]}]


@pytest.mark.parametrize("fields", BAD_SIDES, ids=[str(sorted(f.items()))[:40] for f in BAD_SIDES])
def test_a_header_whose_sides_or_players_do_not_fit_is_a_table_error(tmp_path, fields):
    from engine import tablefile

    path = _table(tmp_path, **fields)
    with pytest.raises(tablefile.TableError, match=r"t\.ztb: corrupt header \((sides|players)"):
        tablefile.read_header(path)


@pytest.mark.parametrize("fields", [{}, {"players": None}, {"sides": None, "players": None},
                                    {"sides": 1, "players": ["a side", "b side"]}, {"sides": 4, "players": None}])
def test_headers_the_builders_write_still_open(tmp_path, fields):
    from engine import tablefile

    assert tablefile.open_table(_table(tmp_path, **fields)).values.size == 8


def test_tables_info_refuses_a_header_with_too_many_sides_in_one_line(tmp_path):
    path = _table(tmp_path, sides=1 << 64)
    out = zermelo("tables", "info", str(path))
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.splitlines() == [f"error: {path}: corrupt header (sides {1 << 64} is not a count "
                                       f"of parts from 1 to 16 dividing the 8 entries)"], out.stderr


# -- books too big to be books ------------------------------------------------------------

#: Three GiB, made sparse: no disk space is used.
HUGE = 3 << 30


def _under_address_limit():
    # The limit the file fuzzer runs zermelo under: a book must not need the file's size in memory.
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def _huge(tmp_path, name: str, head: bytes = b""):
    path = tmp_path / name
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(HUGE)
    return path


@pytest.mark.parametrize("name", ["b.bin", "b.zbook"])
def test_a_huge_book_file_is_refused_by_its_size(tmp_path, name):
    from engine import book as bk

    path = _huge(tmp_path, name)
    with pytest.raises(bk.BookError, match=rf"^{path}: .*3,221,225,472 bytes.* at most 1,073,741,824"):
        bk.open_book(path)


def test_a_huge_book_file_is_one_setoption_error_over_the_protocol(tmp_path):
    path = _huge(tmp_path, "big.bin")
    lines = ["uci", "setoption name UCI_Variant value chess", "setoption name OwnBook value true",
             f"setoption name BookFile value {path}", "isready", "position startpos", "go depth 1", "isready",
             "quit"]
    out = subprocess.run([sys.executable, "-m", "protocol"], cwd=REPO, input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120, preexec_fn=_under_address_limit)
    got = out.stdout.splitlines()
    errors = [line for line in got if line.startswith("info string error")]
    assert errors == [f"info string error: setoption: BookFile: {path}: neither a zermelo book nor a Polyglot "
                      f"book (3,221,225,472 bytes, at most 1,073,741,824)"], got
    assert sum(line.startswith("bestmove ") for line in got) == 1 and got.count("readyok") == 2, got
    assert out.returncode == 0 and not out.stderr, out.stderr


def test_a_huge_openings_book_refuses_the_match_in_one_line(tmp_path):
    path = _huge(tmp_path, "o.bin")
    engine = f"cmd='{sys.executable} {REPO / 'scripts' / 'random_engine.py'} 1'"
    out = subprocess.run([sys.executable, "-m", "protocol", "match", "--game", "chess", "--openings", str(path),
                          "--games", "2", "--depth", "1", "--engine", f"{engine} name=a", "--engine",
                          f"{engine} name=b"], cwd=REPO, capture_output=True, text=True, timeout=120,
                         preexec_fn=_under_address_limit)
    assert out.returncode == 2 and out.stderr.splitlines() == [
        f"zermelo match: {path}: neither a zermelo book nor a Polyglot book (3,221,225,472 bytes, "
        f"at most 1,073,741,824)"], out.stderr


def test_the_polyglot_order_check_reads_in_chunks_and_sees_a_break_between_them(tmp_path, monkeypatch):
    import struct

    from engine import book as bk

    monkeypatch.setattr(bk, "_ORDER_CHUNK", 64)  # four entries a chunk
    keys = list(range(1, 9))
    path = tmp_path / "p.bin"
    path.write_bytes(b"".join(struct.pack(">QHHI", k, 796, 1, 0) for k in keys))
    bk.open_book(path).close()
    keys[4] = 3  # the first key of the second chunk is below the last of the first
    path.write_bytes(b"".join(struct.pack(">QHHI", k, 796, 1, 0) for k in keys))
    with pytest.raises(bk.BookError, match="unsorted"):
        bk.open_book(path)


# -- every go of Kalah gets its bestmove -------------------------------------------------

def test_kalah_gos_interrupted_while_the_table_is_built_each_get_one_bestmove():
    # Five pits: no shipped table, so isready starts building one in memory and each
    # go resumes the build under its own control until stop, ucinewgame or a new go.
    lines = ["uci", "setoption name UCI_Variant value kalah", "setoption name kalah_pits value 5", "isready",
             "go infinite", "ucinewgame", "go movetime 5", "stop", "go mate 2 movetime 100", "stop", "isready",
             "go ponder movetime 50", "position startpos moves 1", "go depth 3", "ponderhit", "stop",
             "setoption name kalah_empty_capture value true", "go nodes 500", "stop", "isready", "quit"]
    out = subprocess.run([sys.executable, "-m", "protocol"], cwd=REPO, input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120)
    got = out.stdout.splitlines()
    bestmoves = [line for line in got if line.startswith("bestmove ")]
    assert len(bestmoves) == sum(line.startswith("go ") for line in lines), got
    assert got.count("readyok") == 3 and out.returncode == 0 and not out.stderr, (got, out.stderr)


@pytest.mark.parametrize("table,column", [("sqlite_master", "sql"), ("meta", "value"), ("moves", "text")])
def test_text_that_is_not_utf8_in_a_book_is_a_book_error_naming_it(tmp_path, table, column):
    import sqlite3

    import games
    from engine import book as bk

    game = games.load("connect4")
    path = tmp_path / "c.zbook"
    book = bk.ZermeloBook.create(path, game)
    pos = game.new_position()
    book.put(pos.key, [bk.Entry(pos.parse_move("4"), "4", 1)])
    book.close()
    if table == "sqlite_master":
        # A byte of a table's name in the schema overwritten in the file: SQLite's
        # message naming the table is then not UTF-8 either.
        data = bytearray(path.read_bytes())
        data[data.index(b"tablemovesmoves") + 7] = 0xFF
        path.write_bytes(bytes(data))
    else:
        conn = sqlite3.connect(path)
        conn.execute(f"UPDATE {table} SET {column} = CAST(X'41ff42' AS TEXT)")
        conn.commit()
        conn.close()
    with pytest.raises(bk.BookError, match=f"^{path}: "):
        bk.open_book(path).entries(pos)


def test_replay_of_shuffled_nplayer_records_reports_without_a_traceback():
    """A Rolit records file whose lines the file fuzzer shuffled (games of 3 and 4
    players mixed, result tokens of other games): every game reported, the tables
    made of the sound ones only, and no traceback."""
    path = pathlib.Path(__file__).parent / "data" / "fuzz" / "replay-shuffled-rolit.txt"
    out = subprocess.run([sys.executable, "-m", "protocol", "match", "--replay", str(path)],
                         capture_output=True, text=True, timeout=120, cwd=pathlib.Path(__file__).parents[1])
    assert "Traceback" not in out.stderr + out.stdout
    assert out.returncode == 1 and "with problems" in out.stdout.splitlines()[-1]


def test_replay_refuses_a_huge_records_file_before_reading_it(tmp_path):
    """A sparse file of 3 GB given to --replay: one line naming it and its size, no
    attempt to read it whole (which ran out of memory)."""
    path = tmp_path / "huge.pgn"
    with open(path, "wb") as f:
        f.truncate(3 * 1024 ** 3)
    out = subprocess.run([sys.executable, "-m", "protocol", "match", "--replay", str(path)],
                         capture_output=True, text=True, timeout=120, cwd=pathlib.Path(__file__).parents[1])
    assert "Traceback" not in out.stderr and out.returncode != 0
    assert "huge.pgn" in out.stderr and "3,221,225,472 bytes" in out.stderr, out.stderr


def test_book_build_refuses_a_huge_records_file_before_reading_it(tmp_path):
    """A sparse file of 3 GB given to ``book build --source games``: one line naming it
    and its size, no attempt to read it whole (which ran out of memory), no book made."""
    path = tmp_path / "huge.pgn"
    with open(path, "wb") as f:
        f.truncate(3 * 1024 ** 3)
    out = subprocess.run([sys.executable, "-m", "protocol", "book", "build", "connect4", "--source", "games",
                          "--input", str(path), "--out", str(tmp_path / "out.zbook"), "--plies", "6",
                          "--min-games", "1"],
                         capture_output=True, text=True, timeout=120, cwd=pathlib.Path(__file__).parents[1])
    assert "Traceback" not in out.stderr and out.returncode == 1, out.stderr
    assert "huge.pgn" in out.stderr and "3,221,225,472 bytes" in out.stderr, out.stderr
    assert not (tmp_path / "out.zbook").exists()
