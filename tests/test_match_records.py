"""Match records (PGN, PDN, plain) round-trip and re-verify; openings load and
are checked with zermelo's rules."""

from __future__ import annotations

import random

import pytest

import games
from protocol.match.openings import Opening, add_random_plies, builtin_chess, load_openings
from protocol.records import GameRecord, final_result, read_records, rules_result, result_token, to_text, verify
from tests.conftest import POLYGLOT_BOOK


def _load(name):
    try:
        return games.load(name)
    except (ImportError, AttributeError) as exc:
        pytest.skip(f"{name} is not available yet: {exc}")


def random_record(name: str, seed: int, start_plies: int = 0, max_plies: int = 400) -> GameRecord:
    """A random game played to its end by the rules (or cut at ``max_plies``)."""
    game = _load(name)
    rng = random.Random(seed)
    pos = game.new_position()
    for _ in range(start_plies):
        pos.push(rng.choice(pos.legal_moves()))
    start = pos.to_text() if start_plies else None
    moves = []
    while rules_result(pos) is None and len(moves) < max_plies:
        m = rng.choice(pos.legal_moves())
        moves.append(pos.move_text(m))
        pos.push(m)
    r0 = rules_result(pos)
    n = len(game.players)
    result = result_token(0 if r0 is None else r0) if n == 2 else final_result(pos, n) or "*"
    return GameRecord(name, ("alpha", "beta \"b\"", "gamma", "delta")[:n], result, start,
                      moves, [f"+0.{i % 10}/3 0.01s" if i % 3 else None for i in range(len(moves))],
                      "normal" if r0 is not None else "adjudication", "the end",
                      {"Event": "test", "Round": str(seed)})


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("start_plies", [0, 3])
def test_round_trip_and_verify(name, start_plies):
    recs = [random_record(name, seed, start_plies, max_plies=120) for seed in (1, 2)]
    text = "".join(to_text(r) for r in recs)
    back = read_records(text)
    assert len(back) == 2
    for rec, got in zip(recs, back):
        assert got.game == name
        assert got.players == rec.players
        assert got.start == rec.start
        assert got.moves == rec.moves
        assert got.result == rec.result
        assert got.termination == rec.termination
        assert got.tags["Round"] == rec.tags["Round"]
        assert verify(got) == []
    if name == "chess":
        assert '[White "alpha"]' in text and ("[SetUp \"1\"]" in text) == bool(start_plies)
    elif name in ("checkers", "shashki", "brazilian", "international"):
        gametype = {"checkers": "21", "shashki": "25", "brazilian": "26", "international": "20"}[name]
        assert f'[GameType "{gametype}"]' in text
        assert "1. " in text
    else:
        assert f'[Game "{name}"]' in text


@pytest.mark.parametrize("name", ["nim", "checkers", "chess", "reversi", "connect4"])
def test_verify_catches_tampering(name):
    rec = random_record(name, 5)
    assert verify(rec) == []
    wrong = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[rec.result]
    assert "the rules give" in verify(GameRecord(**{**rec.__dict__, "result": wrong}))[0]
    cut = GameRecord(**{**rec.__dict__, "moves": rec.moves[:-1]})
    assert "not ended" in verify(cut)[0]
    assert "after the game ended" in verify(GameRecord(**{**rec.__dict__, "moves": rec.moves + rec.moves[:1]}))[0]
    bad = list(rec.moves)
    bad[1] = "zz99"
    assert "move 2 (zz99) is illegal" in verify(GameRecord(**{**rec.__dict__, "moves": bad}))[0]


def test_plain_record_text_format():
    # Misere Nim: whoever faces the empty heap (here the second player) wins.
    rec = GameRecord("nim", ("a", "b"), "1-0", "5 1", ["2", "2", "1"], [None, "+1.00/2 0.1s", None],
                     "normal", "no legal move for second: second wins", {"Round": "7"})
    text = to_text(rec)
    assert text.startswith('[Game "nim"]\n')
    assert '[First "a"]' in text and '[Second "b"]' in text and '[Start "5 1"]' in text
    assert text.rstrip().endswith("2 2 {+1.00/2 0.1s} 1 {no legal move for second: second wins} 1-0")
    assert verify(read_records(text)[0]) == ["the rules give 0-1, the record says 1-0"]


def test_builtin_chess_openings_are_legal_and_distinct():
    _load("chess")
    lines = builtin_chess()
    assert len({o.moves for o in lines}) == len(lines) >= 30
    assert len(load_openings(None, "chess", warn=pytest.fail)) == len(lines)


def test_text_openings(tmp_path):
    f = tmp_path / "nim.txt"
    f.write_text("# heaps then player\n7 1\n7 2 moves 1\nstartpos moves 2 2\n8 1 moves 9\n\n")
    warnings = []
    got = load_openings(str(f), "nim", warn=warnings.append)
    assert got == [Opening("7 1"), Opening("7 2", ("1",)), Opening(None, ("2", "2"))]
    assert len(warnings) == 1 and "opening 4" in warnings[0]
    assert load_openings("startpos", "nim") == [Opening()]


def test_chess_epd_pgn_and_polyglot_openings(tmp_path):
    _load("chess")
    epd = tmp_path / "o.epd"
    epd.write_text('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "e4";\n'
                   "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 moves f1b5\n")
    got = load_openings(str(epd), "chess", warn=pytest.fail)
    assert got[0].start.startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq")
    assert got[1].moves == ("f1b5",)
    pgn = tmp_path / "o.pgn"
    pgn.write_text('[Event "x"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *\n\n[Event "y"]\n\n1. e4 c5 *\n')
    got = load_openings(str(pgn), "chess", plies=4, warn=pytest.fail)
    assert got == [Opening(None, ("d2d4", "g8f6", "c2c4", "e7e6")), Opening(None, ("e2e4", "c7c5"))]
    book = POLYGLOT_BOOK
    got = load_openings(str(book), "chess", plies=6, count=5, rng=random.Random(3), warn=pytest.fail)
    assert len(got) == 5 and all(len(o.moves) == 6 for o in got)
    assert len({o.moves for o in got}) == 5


def test_unknown_binary_file_is_refused(tmp_path):
    f = tmp_path / "x.book"
    f.write_bytes(b"\x00\x01\x02\xff" * 10)
    with pytest.raises(ValueError, match="x.book"):
        load_openings(str(f), "nim", warn=pytest.fail)


def test_random_plies_are_legal_and_seeded():
    game = games.load("nim", heaps=(9, 9), max_take=3)
    a = add_random_plies(game, Opening(), 3, random.Random(1))
    b = add_random_plies(game, Opening(), 3, random.Random(1))
    assert a == b and len(a.moves) == 3
    pos = game.new_position()
    for text in a.moves:
        pos.push(pos.parse_move(text))
    assert pos.legal_moves()


def test_random_go_openings_never_pass():
    # A random pass let the next player pass at once and win the empty board by the count.
    game = games.load("go", size=9, komi=7)
    openings = [add_random_plies(game, Opening(), 2, random.Random(seed)) for seed in range(200)]
    assert all(len(o.moves) == 2 and "pass" not in o.moves for o in openings)
