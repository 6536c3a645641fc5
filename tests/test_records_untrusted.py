"""Game records and opening files from anywhere: a game that cannot be read is
reported with its number and skipped, by every reader (PGN through python-chess,
PDN and the plain records, EPD/FEN and position lines, books); an openings
source that yields nothing refuses the match with one line."""

from __future__ import annotations

import pathlib
import random
import subprocess
import sys

import pytest

import games
from engine import book as bk
from protocol import book_cli
from protocol.match.openings import Opening, load_openings
from protocol.records import read_records

REPO = pathlib.Path(__file__).resolve().parents[1]

#: Three chess games, the second with an illegal move (a king two squares up).
MIXED_PGN = ('[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'
             '[Event "b"]\n[Result "0-1"]\n\n1. e4 e5 2. Ke3 Nc6 0-1\n\n'
             '[Event "c"]\n[Result "1/2-1/2"]\n\n1. d4 d5 1/2-1/2\n\n')


def zermelo(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120)


def test_a_pgn_game_that_cannot_be_read_is_skipped_by_number():
    skipped = []
    recs = read_records(MIXED_PGN, lambda n, why: skipped.append((n, why)))
    assert [(r.number, r.moves) for r in recs] == [(1, ["e2e4", "e7e5", "g1f3", "b8c6"]), (3, ["d2d4", "d7d5"])]
    assert len(skipped) == 1 and skipped[0][0] == 2 and "Ke3" in skipped[0][1]
    with pytest.raises(ValueError, match="^game 2: .*Ke3"):
        read_records(MIXED_PGN)


def test_pgn_fen_and_variant_problems_are_bad_games():
    text = ('[SetUp "1"]\n[FEN "garbage"]\n\n1. e4 *\n\n'
            '[Variant "crazyhouse"]\n\n1. e4 *\n\n'
            '[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n1. O-O *\n\n')
    skipped = []
    recs = read_records(text, lambda n, why: skipped.append(n))
    # python-chess plays the moves from a FEN tag with or without SetUp: so does the record.
    assert [(r.number, r.start, r.moves) for r in recs] == [(3, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", ["e1g1"])]
    assert skipped == [1, 2]


def test_plain_and_pdn_records_skip_the_games_they_cannot_read():
    text = ('[Game "nim"]\n[Result "1-0"]\n\n1 1 1-0\n\n'
            '[Game "nosuchgame"]\n[Result "1-0"]\n\n1 1-0\n\n'
            '[Game "nim"]\n[Params "heaps=x"]\n[Result "1-0"]\n\n1 1-0\n\n'
            '[GameType "99"]\n[Result "1-0"]\n\n1. 11-15 1-0\n\n'
            '[Event "no game tag"]\n\n1 1-0\n\n'
            '[GameType "21"]\n[Result "*"]\n\n1. 11-15 *\n\n')
    skipped = []
    recs = read_records(text, lambda n, why: skipped.append((n, why)))
    assert [(r.number, r.game) for r in recs] == [(1, "nim"), (6, "checkers")]
    assert [n for n, _ in skipped] == [2, 3, 4, 5]
    assert "nosuchgame" in skipped[0][1] and "GameType" in skipped[2][1]


def test_random_bytes_in_a_pgn_give_one_line_per_game_and_no_traceback(tmp_path):
    pgn = tmp_path / "random.pgn"
    pgn.write_bytes(random.Random(1).randbytes(3000))
    out = zermelo("book", "build", "chess", "--out", str(tmp_path / "r.zbook"), "--source", "games",
                  "--input", str(pgn), "--min-games", "1")
    text = out.stdout + out.stderr
    assert "Traceback" not in text and f"{pgn}: game 1 skipped" in text, text


def test_a_book_import_skips_the_bad_game_and_keeps_the_others(tmp_path):
    pgn = tmp_path / "mixed.pgn"
    pgn.write_text(MIXED_PGN)
    warnings = []
    book = book_cli.build_games("chess", str(tmp_path / "m.zbook"), [str(pgn)], plies=4, min_games=1,
                                min_score=0.0, warn=warnings.append)
    book.close()
    assert any(w.startswith(f"{pgn}: game 2 skipped: ") and "Ke3" in w for w in warnings), warnings
    entries, _ = bk.open_book(tmp_path / "m.zbook").entries(games.load("chess").new_position())
    # Game 1 (won with e4) and game 3 (drawn with d4) are both in; game 2 is not counted.
    assert {e.text: (e.games, e.wins, e.draws) for e in entries} == {"e2e4": (1, 1, 0), "d2d4": (1, 0, 1)}


def test_pgn_openings_skip_the_bad_game(tmp_path):
    pgn = tmp_path / "o.pgn"
    pgn.write_text(MIXED_PGN)
    warnings = []
    got = load_openings(str(pgn), "chess", warn=warnings.append)
    assert got == [Opening(None, ("e2e4", "e7e5", "g1f3", "b8c6")), Opening(None, ("d2d4", "d7d5"))]
    assert len(warnings) == 1 and warnings[0].startswith(f"openings {pgn}: game 2 skipped")


def test_text_openings_name_the_line_they_skip(tmp_path):
    f = tmp_path / "o.epd"
    f.write_text("# two good, two bad\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n"
                 "not a position at all\nstartpos moves e2e4 e7e5\nstartpos moves e2e5\n")
    warnings = []
    got = load_openings(str(f), "chess", warn=warnings.append)
    assert len(got) == 2 and len(warnings) == 2
    assert all(str(f) in w for w in warnings), warnings  # each names the file
    assert "line 3" in warnings[0] and "line 5" in warnings[1]


def openings_sources(tmp_path) -> dict[str, tuple[str, pathlib.Path]]:
    """Files that yield no opening: name -> (game, path)."""
    rng = random.Random(7)
    files = {"random-bin": ("chess", "r.bin", rng.randbytes(1600)),
             "random-odd-bin": ("chess", "o.bin", rng.randbytes(1001)),
             "random-nim": ("nim", "r.book", rng.randbytes(999)),
             "empty": ("nim", "e.txt", b""),
             "only-comments": ("nim", "c.txt", b"# nothing here\n\n"),
             "all-refused": ("nim", "a.txt", b"x y z\n7 1 moves 99\n"),
             "all-bad-pgn": ("chess", "b.pgn", b"1. e4 e5 2. Ke3 *\n\n1. Qh5 *\n")}
    out = {}
    for name, (game, file, content) in files.items():
        (tmp_path / file).write_bytes(content)
        out[name] = (game, tmp_path / file)
    return out


@pytest.mark.parametrize("name", ["random-bin", "random-odd-bin", "random-nim", "empty", "only-comments",
                                  "all-refused", "all-bad-pgn"])
def test_an_openings_source_that_yields_nothing_is_an_error(tmp_path, name):
    game, path = openings_sources(tmp_path)[name]
    with pytest.raises(ValueError, match=str(path)):
        load_openings(str(path), game, warn=lambda text: None)


@pytest.mark.parametrize("name", ["random-bin", "empty", "all-refused"])
def test_a_match_without_openings_refuses_to_start(tmp_path, name):
    game, path = openings_sources(tmp_path)[name]
    engine = f"cmd='{sys.executable} -m protocol'"
    out = zermelo("match", "--game", game, "--engine", f"{engine} name=a", "--engine", f"{engine} name=b",
                  "--depth", "1", "--games", "2", "--openings", str(path))
    errors = out.stderr.strip().splitlines()
    assert out.returncode == 2 and len(errors) == 1 and str(path) in errors[0], (out.stdout, out.stderr)
    assert "games" not in out.stdout  # nothing was played


def test_book_openings_are_walks_of_a_zermelo_book(tmp_path):
    game = games.load("connect4")
    book = bk.ZermeloBook.create(tmp_path / "c.zbook", game)
    pos = game.new_position()
    book.put(pos.key, [bk.Entry(pos.parse_move("4"), "4", 1)])
    book.close()
    assert load_openings(str(tmp_path / "c.zbook"), "connect4", warn=pytest.fail) == [Opening(None, ("4",))]


def test_a_large_pgn_of_openings_is_read_up_to_the_limit(tmp_path, monkeypatch):
    """A collection of any size starts the match at once: its first games are read
    (one line says so), not all of them."""
    from protocol.match import openings

    monkeypatch.setattr(openings, "PGN_OPENINGS_LIMIT", 3)
    pgn = tmp_path / "big.pgn"
    pgn.write_text("".join(f"1. {m} *\n\n" for m in ("e4", "d4", "c4", "Nf3", "g3")))
    warnings = []
    got = load_openings(str(pgn), "chess", warn=warnings.append)
    assert [o.moves for o in got] == [("e2e4",), ("d2d4",), ("c2c4",)]
    assert warnings == [f"openings {pgn}: its first 3 games are used"]
