"""``zermelo tables`` for draughts and Kalah, the games without table files, and defective
draughts and Kalah tables in play (one ``info string error`` line, then play on)."""

from __future__ import annotations

import threading

import games
from engine.control import Control
from engine.engine import Engine
from engine.timeman import Limits
from games.draughts import retro as dr
from games.kalah import retro as kr
from games.kalah import solve_margin
from protocol import cli


def tables(*argv) -> int:
    return cli.main(["tables", *map(str, argv)])


def go(engine: Engine, text: str, movetime: int = 200):
    infos, notes, out = [], [], {}
    done = threading.Event()
    engine.set_position(text, [])
    engine.go(Limits(movetime=movetime), lambda info, pv: infos.append((info, pv)),
              lambda best, ponder: (out.update(best=best), done.set()), notes.append)
    assert done.wait(30)
    return out["best"], infos, notes


def test_draughts_build_by_piece_count_and_by_class(tmp_path, capsys):
    assert tables("build", "checkers", 2, "--out", tmp_path, "--quiet") == 0
    out = capsys.readouterr().out
    assert {f.name for f in tmp_path.iterdir()} == {"checkers-KvK.ztb", "checkers-KvM.ztb",
                                                    "checkers-MvM.ztb"}
    assert "KvK: 1,024 entries" in out
    assert tables("build", "shashki", "kkvk", "--out", tmp_path, "--quiet") == 0
    assert "KKvK: 31,744 entries" in capsys.readouterr().out
    assert (tmp_path / "shashki-KvK.ztb").exists()  # the class it reaches, built first
    assert tables("build", "shashki", "KKvK", "--out", tmp_path, "--quiet") == 0
    assert "exists" in capsys.readouterr().out


def test_checkers_info_and_the_built_file_in_play(tmp_path, capsys):
    assert tables("build", "checkers", "KKvK", "--out", tmp_path, "--quiet") == 0
    capsys.readouterr()
    assert tables("info", tmp_path / "checkers-KKvK.ztb") == 0
    out = capsys.readouterr().out
    assert "game: checkers" in out and "material: KKvK" in out
    # Two kings beat one in checkers: the lone king's side never wins from a quiet start,
    # and the two kings never lose.
    kk = next(line for line in out.splitlines() if "KK side to move:" in line)
    assert "losses 0," in kk
    engine = Engine(games)
    engine.set_option("UCI_Variant", "checkers")
    engine.set_option("TablePath", str(tmp_path))
    best, infos, notes = go(engine, "B:WK28:BK14,K18")
    assert any(n.startswith("exact: win in") for n in notes), notes
    pos = games.load("checkers").new_position("B:WK28:BK14,K18")
    assert best in [pos.move_text(m) for m in pos.legal_moves()]
    assert not any("error" in n for n in notes)


def test_kalah_build_by_seeds_and_info(tmp_path, capsys):
    assert tables("build", "kalah", "--seeds", 6, "--pits", 4, "--out", tmp_path, "--quiet") == 0
    assert tables("build", "kalah", "s5", "--pits", 4, "--empty-capture", "--out", tmp_path, "--quiet") == 0
    out = capsys.readouterr().out
    assert "s6: 3,003 entries" in out and "s5: 1,287 entries" in out
    path = kr.table_path(tmp_path, 4, 6, False)
    assert tables("info", path) == 0
    out = capsys.readouterr().out
    assert "encoding: margin" in out and "margins -6 to +6" in out
    # The file is the one play uses: exact margins equal the margin solver's.
    game = games.load("kalah", pits=4, seeds=3)
    exact = kr.KalahExact(game, tmp_path)
    exact.prepare(Control())
    assert exact.tables.max_seeds == 6
    pos = game.new_position("0,0,1,1,10/2,0,0,1,9 1")
    assert exact.tables.value(pos) == solve_margin(pos)
    # --xz adds the compressed copy; play reads it alone as well.
    assert tables("build", "kalah", "--seeds", 7, "--pits", 4, "--out", tmp_path / "xz", "--quiet", "--xz") == 0
    packed = tmp_path / "xz" / (kr.table_path(".", 4, 7, False).name + ".xz")
    kr.table_path(tmp_path / "xz", 4, 7, False).unlink()
    assert tables("info", packed) == 0 and "max_seeds: 7" in capsys.readouterr().out
    exact = kr.KalahExact(game, tmp_path / "xz")
    exact.prepare(Control())
    assert exact.tables.max_seeds == 7 and exact.tables.value(pos) == solve_margin(pos)


def test_games_without_table_files_say_so(tmp_path, capsys):
    # Tic-tac-toe's whole game is written to a file (tests/test_tables_tictactoe.py).
    for game in ("nim", "mnk"):
        assert tables("build", game, "--out", tmp_path) == 0
        assert "solved on first use" in capsys.readouterr().out
    for game in ("reversi", "connect4"):
        assert tables("build", game, "--out", tmp_path) == 0
        assert "solved exactly in play" in capsys.readouterr().out
    assert not any(tmp_path.iterdir())


def test_bad_requests_are_refused(tmp_path, capsys):
    assert tables("build", "checkers", 5, "--out", tmp_path) == 2
    assert tables("build", "shashki", "KKKvKK", "--out", tmp_path) == 2
    assert tables("build", "checkers", "QvK", "--out", tmp_path) == 2
    assert tables("build", "kalah", "x9", "--out", tmp_path) == 2
    assert tables("build", "kalah", "--out", tmp_path) == 2
    assert tables("build", "shogi", "KvK", "--out", tmp_path) == 2
    err = capsys.readouterr().err
    assert "at most 4 pieces" in err and "bad draughts class" in err and "s13" in err
    assert not any(tmp_path.iterdir())


def test_defective_draughts_table_in_play(tmp_path):
    t = dr.DraughtsTables(games.load("checkers"), tmp_path, build=True)
    t.values("KKvK")
    path = dr.table_path(tmp_path, "checkers", "KKvK")
    path.write_bytes(path.read_bytes()[:-100])
    engine = Engine(games)
    engine.set_option("UCI_Variant", "checkers")
    engine.set_option("TablePath", str(tmp_path))
    best, _, notes = go(engine, "B:WK28:BK14,K18")
    errors = [n for n in notes if n.startswith("error:")]
    assert len(errors) == 1 and "checkers-KKvK.ztb" in errors[0] and "truncated" in errors[0]
    pos = games.load("checkers").new_position("B:WK28:BK14,K18")
    assert best in [pos.move_text(m) for m in pos.legal_moves()]
    # Reported once: the next search plays on without the class.
    _, _, notes = go(engine, "B:WK28:BK14,K18")
    assert not any(n.startswith("error:") for n in notes)


def test_corrupt_kalah_table_in_play(tmp_path):
    path = kr.table_path(tmp_path, 4, 6, False)
    kr.KalahTables(4, 6, False, tmp_path)
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x55
    path.write_bytes(bytes(data))
    engine = Engine(games)
    engine.set_option("UCI_Variant", "kalah")
    engine.set_option("kalah_pits", "4")
    engine.set_option("kalah_seeds", "3")
    engine.set_option("TablePath", str(tmp_path))
    text = "0,0,1,1,10/2,0,0,1,9 1"
    # Time enough for the build in memory (a timed go gives tables half its budget).
    best, infos, notes = go(engine, text, movetime=20_000)
    errors = [n for n in notes if n.startswith("error:")]
    assert len(errors) == 1 and "CRC-32" in errors[0], notes
    # Played on with the table built in memory: still the exact move.
    pos = engine.game.new_position(text)
    assert best in [pos.move_text(m) for m in pos.legal_moves()]
    assert any(n.startswith("exact: ") for n in notes)
