"""``zermelo book learn``: game results added to a book's entries and the
re-weighting that follows. Counts are checked against hand counts of the
records written here and against python-chess's replay of a PGN."""

from __future__ import annotations

import pytest

import games
from engine import book as bk
from engine.books.learn import wilson_upper
from engine.engine import Engine
from engine.timeman import Limits
from protocol import book_cli
from protocol.records import GameRecord, to_text
from tests.test_book_cli import PGN, python_chess_counts


def checkers_book(path, start: dict[str, int], after_11_15: dict[str, int]) -> None:
    """A checkers book: ``start`` (move text -> weight) at the start position and
    ``after_11_15`` after 11-15."""
    game = games.load("checkers")
    book = bk.ZermeloBook.create(path, game)
    book.add_root(None)
    for line, moves in (([], start), (["11-15"], after_11_15)):
        pos = game.new_position()
        for text in line:
            pos.push(pos.parse_move(text))
        book.put(pos.key, [bk.Entry(pos.parse_move(t), t, w, 0, 8) for t, w in moves.items()], pos.to_text())
    book.close()


def write_records(path, records: list[GameRecord]) -> str:
    path.write_text("\n".join(to_text(r) for r in records))
    return str(path)


def rows(path, line: list[str]) -> dict[str, tuple[int, int, int, int, int]]:
    """move text -> (weight, games, wins, draws, losses) of every entry after ``line``."""
    game = games.load("checkers")
    pos = game.new_position()
    for text in line:
        pos.push(pos.parse_move(text))
    book = bk.ZermeloBook(path)
    try:
        return {e.text: (e.weight, e.games, e.wins, e.draws, e.losses) for e in book.rows(pos.key)}
    finally:
        book.close()


def rec(result: str, moves: str, game: str = "checkers") -> GameRecord:
    return GameRecord(game, ("a", "b"), result, None, moves.split())


def test_counts_match_a_hand_count_and_bad_records_are_skipped(tmp_path):
    path = tmp_path / "c.zbook"
    checkers_book(path, {"11-15": 100, "9-14": 80, "12-16": 50}, {"22-17": 60, "23-19": 0})
    good = write_records(tmp_path / "good.pdn", [
        rec("1-0", "11-15 23-19 8-11 22-17"),
        rec("0-1", "11-15 22-17 15-19"),
        rec("1/2-1/2", "9-14 22-18"),
        rec("1-0", "11-15 23-19"),
        rec("*", "12-16 24-20"),                  # unfinished
        rec("0-1", "12-16 24-20 16-19 23x16 30-26"),  # Black has no man on 30
    ])
    other = write_records(tmp_path / "kalah.txt", [rec("1-0", "3 6", game="kalah")])
    warnings: list[str] = []
    report = book_cli.learn(str(path), [good, other], min_games=2, warn=warnings.append)
    assert (report.used, report.skipped) == (4, 3)
    assert sum(" skipped: " in w for w in warnings) == 3
    assert any("kalah" in w for w in warnings) and any("30-26" in w for w in warnings)
    # 11-15: won by Black in games 1 and 4, lost in game 2; 9-14: one draw; 12-16 only in skipped games.
    # After 11-15 White's 23-19 lost games 1 and 4, 22-17 won game 2.
    start, after = rows(path, []), rows(path, ["11-15"])
    assert {t: r[1:] for t, r in start.items()} == {"11-15": (3, 2, 0, 1), "9-14": (1, 0, 1, 0),
                                                    "12-16": (0, 0, 0, 0)}
    assert {t: r[1:] for t, r in after.items()} == {"22-17": (1, 1, 0, 0), "23-19": (2, 0, 0, 2)}
    assert report.entries == 4 and report.positions == 2
    # Only 11-15 reached 2 games; it is the best estimate (3/5 above the prior 1/2), the rest is untouched.
    assert {t: r[0] for t, r in start.items()} == {"11-15": 100, "9-14": 80, "12-16": 50}
    assert {t: r[0] for t, r in after.items()} == {"22-17": 60, "23-19": 0}


def test_a_move_that_lost_every_game_loses_its_weight(tmp_path):
    path = tmp_path / "c.zbook"
    checkers_book(path, {"11-15": 100, "9-14": 60, "12-16": 50, "10-15": 40}, {"22-17": 60})
    records = write_records(tmp_path / "r.pdn", [rec("0-1", "11-15")] * 3 + [rec("1-0", "9-14")] * 3
                            + [rec("1-0", "10-15"), rec("1/2-1/2", "10-15")])
    report = book_cli.learn(str(path), [records], warn=lambda text: None)
    start = rows(path, [])
    assert start["11-15"][:2] == (0, 3)     # three losses: dropped, counts kept
    assert start["9-14"][:2] == (100, 3)    # three wins: the best
    assert start["12-16"][0] == 50          # never played: its search weight
    # 10-15 scored 1.5 of 2, not clearly below 9-14: weight 100 * (2.5/4) / (4/5) = 78.1.
    assert start["10-15"][0] == 78
    assert (report.changed, report.dropped) == (3, 1)

    engine = Engine(games)
    engine.set_option("UCI_Variant", "checkers")
    engine.set_option("OwnBook", "true")
    engine.set_option("BookFile", str(path))
    played = {engine.position.move_text(engine.book_probe(engine.game, engine.position, Limits(), engine.context()).move)
              for _ in range(200)}
    assert played == {"9-14", "12-16", "10-15"}


def test_learn_twice_counts_twice_like_python_chess(tmp_path):
    (tmp_path / "g.pgn").write_text(PGN)
    path = tmp_path / "g.zbook"
    book_cli.build_games("chess", str(path), [str(tmp_path / "g.pgn")], plies=12, min_games=1, min_score=0.0,
                         warn=lambda text: None).close()
    book_cli.learn(str(path), [str(tmp_path / "g.pgn")], plies=12, warn=lambda text: None)
    game = games.load("chess")
    book = bk.ZermeloBook(path)
    counts = {}
    for text in book.position_texts():
        pos = game.new_position(text)
        for e in book.rows(pos.key):
            counts[(" ".join(text.split()[:4]), e.text)] = [e.games, e.wins, e.draws, e.losses]
    book.close()
    expected = {k: [2 * x for x in v] for k, v in python_chess_counts(PGN, 12).items() if 2 * v[1] + v[2] > 0}
    assert counts == expected


def test_cli_learn_then_show(tmp_path, capsys):
    path = tmp_path / "c.zbook"
    checkers_book(path, {"11-15": 100, "9-14": 60}, {"22-17": 60})
    records = write_records(tmp_path / "r.pdn", [rec("0-1", "11-15")] * 4 + [rec("1/2-1/2", "9-14")] * 2)
    assert book_cli.main(["learn", str(path), "--input", records, "--min-games", "2"]) == 0
    assert "6 games used, 0 skipped" in capsys.readouterr().err
    assert book_cli.main(["show", "checkers", str(path)]) == 0
    shown = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[2:]}
    assert shown["9-14"].split()[1] == "100" and shown["9-14"].endswith("+0 =2 -0")
    assert "reply" in shown["11-15"] and shown["11-15"].endswith("+0 =0 -4")
    assert book_cli.main(["learn", str(path), "--input", str(tmp_path / "missing.pdn")]) == 1


def test_wilson_bound_closed_forms():
    # With z = 1 the upper bound is 1/(n+1) after n losses and 1 after n wins.
    for n in (1, 4, 30):
        assert wilson_upper(0, n) == pytest.approx(1 / (n + 1))
        assert wilson_upper(n, n) == pytest.approx(1)
