"""Opening books: the key pins, Polyglot reading against python-chess, zermelo's
format, the weighted choice and the book as the engine's root oracle."""

from __future__ import annotations

import random
import struct
import threading

import chess
import chess.polyglot
import pytest

import games
from conftest import POLYGLOT_BOOK
from engine import book as bk
from engine.engine import Engine
from engine.game import NO_MOVE
from engine.options import OptionError
from engine.timeman import Limits


#: Keys along each game's key-check line. Books are keyed by them: a change here
#: makes every book built before it unusable, so it must be deliberate (and
#: ``engine.book.KEY_VERSION`` raised).
PINNED_KEYS = {
    "chess": "cb45d1d4543e839b,0e4cb00d3107128d,cc8471129f40f4bd,0af88ecd3567ee7b,1cb414b50eb7f94e",
    "checkers": "774a6632e9049323,d0bd10e8141fd099,11d96f7cd0f0d523,8bb3758a18f9588e,2ab8b6df3f42f1ac",
    "shashki": "68d222e051fc3d48,6086ec01ff69a792,14a7fee58df3e8bb,6742220960dff893,61fa811e16bf48ea",
    "international": "183bf0de17d4a76e,866776386efddcb4,bb64567cf73bccc3,2144584bbed7bf49,24debbc518ba0053",
    "brazilian": "e255b47599cd0510,93665e4ddc32d7c7,4f1fe961e06ee27c,2962dc930d4da773,dca082df7a9e4456",
    "reversi": "8e2452c9fde7253c,b4e45bc2d3dec417,a81f71104ed56dec,45dc8944c927ceeb,d770ae2f26ae6a95",
    "kalah": "6e621adf903a7f19,3ca349cbd6378908,98973921b57c2775,b9a5a17464b84a5b,6bcc98aa53b3e0b9",
    "tictactoe": "0000000000000000,da7b0f829b43b6a2,2316bd173851bd18,2ada9ffcadf5b65f,09327ed4b18282ca",
    "mnk": "0000000000000000,22d58722a919d5ea,255280a16504ef86,f730c5adb94e0bb4,dd5b8720dc65d3e2",
    "nim": "9c3918ea205a38dd,e8359a553c4dd1d1,7d3a33a5bac6364f,a5ca70bfc9049723,45561d32538797ff",
    "connect4": "0000000000000000,8d249dde845a8ebe,1355ee7004244e19,70430dea29514056,b459cb8ad11950cf",
    "rolit": "f4b8328465470d13,a569850da4c75ddd,62136dcff31108c2,232fe87e81b88fe2,1a01b95168efa5ec",
    "mnkmulti": "0000000000000000,cef0aafdb0660da8,36854521e65ee0ac,aec16adda25fbff1,875a2b4538630072",
    "go": "0000000000000000,483136c181daaae5,8946f173234e073e,e58dfbac3265fa80,f3d57df50be8064a",
}

#: Upper 0.1% points of the chi-square distribution by degrees of freedom.
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32}


def test_every_game_has_pinned_keys():
    assert set(PINNED_KEYS) == set(games.names())


@pytest.mark.parametrize("name", sorted(PINNED_KEYS))
def test_zobrist_keys_are_stable(name):
    assert bk.key_check(games.load(name)) == PINNED_KEYS[name]


def position(name: str, moves=(), text=None):
    pos = games.load(name).new_position(text)
    for m in moves:
        pos.push(pos.parse_move(m))
    return pos


def chi_square(counts: dict[str, int], weights: dict[str, float]) -> float:
    n, total = sum(counts.values()), sum(weights.values())
    return sum((counts.get(m, 0) - n * w / total) ** 2 / (n * w / total) for m, w in weights.items())


def draw(engine: Engine, n: int, limits: Limits | None = None) -> dict[str, int]:
    counts: dict[str, int] = {}
    pos = engine.position
    for _ in range(n):
        answer = engine.book_probe(engine.game, pos, limits or Limits(), engine.context())
        text = pos.move_text(answer.move)
        counts[text] = counts.get(text, 0) + 1
    return counts


def book_engine(path, *moves: str, **options) -> Engine:
    engine = Engine(games)
    engine.set_option("OwnBook", "true")
    engine.set_option("BookFile", str(path))
    for name, value in options.items():
        engine.set_option(name, value)
    engine.set_position(None, list(moves))
    engine.book_probe.rng.seed(7)
    return engine


# -- Polyglot --------------------------------------------------------------------------


@pytest.mark.parametrize("line", [(), ("e2e4", "c7c5", "c2c3"), ("d2d4", "g8f6", "c1g5"),
                                  ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5")])
def test_polyglot_entries_match_python_chess(line):
    book = bk.PolyglotBook(POLYGLOT_BOOK)
    board = chess.Board()
    for m in line:
        board.push_uci(m)
    expected = {e.move.uci(): e.weight for e in chess.polyglot.open_reader(POLYGLOT_BOOK).find_all(board)}
    entries, bad = book.entries(position("chess", line))
    assert {e.text: e.weight for e in entries} == expected and not bad


@pytest.mark.parametrize("line", [(), ("e2e4", "c7c5", "c2c3")])
def test_polyglot_draws_follow_the_weights(line):
    engine = book_engine(POLYGLOT_BOOK, *line)
    board = chess.Board()
    for m in line:
        board.push_uci(m)
    weights = {e.move.uci(): e.weight for e in chess.polyglot.open_reader(POLYGLOT_BOOK).find_all(board)}
    counts = draw(engine, 1000)
    assert set(counts) <= set(weights)
    assert chi_square(counts, weights) < CHI2_999[len(weights) - 1]


def test_variety_and_best_only_reshape_the_odds():
    line = ("e2e4", "c7c5", "c2c3")
    board = chess.Board()
    for m in line:
        board.push_uci(m)
    weights = {e.move.uci(): e.weight for e in chess.polyglot.open_reader(POLYGLOT_BOOK).find_all(board)}
    flat = draw(book_engine(POLYGLOT_BOOK, *line, BookVariety="100"), 1000)
    assert chi_square(flat, {m: w ** 0.5 for m, w in weights.items()}) < CHI2_999[len(weights) - 1]
    heaviest = max(weights, key=weights.get)
    assert draw(book_engine(POLYGLOT_BOOK, *line, BookBestOnly="true"), 50) == {heaviest: 50}
    assert draw(book_engine(POLYGLOT_BOOK, *line, BookVariety="0"), 50) == {heaviest: 50}


def write_polyglot(path, rows):
    with open(path, "wb") as f:
        for key, move, weight in sorted(rows):
            f.write(struct.pack(">QHHI", key, move, weight, 0))


def test_polyglot_illegal_entries_are_skipped_and_reported(tmp_path):
    start = chess.polyglot.zobrist_hash(chess.Board())
    e2e4 = chess.E4 | chess.E2 << 6
    e1e8 = chess.E8 | chess.E1 << 6
    path = tmp_path / "illegal.bin"
    write_polyglot(path, [(start, e1e8, 50), (start, e2e4, 1)])
    entries, bad = bk.PolyglotBook(path).entries(position("chess"))
    assert [e.text for e in entries] == ["e2e4"] and len(bad) == 1 and "e1e8" in bad[0]
    engine = book_engine(path)
    first, second = go(engine), go(engine)
    assert first.best == second.best == "e2e4"
    lines = [line for m in first.messages + second.messages for line in m.splitlines()]
    assert sum(line.startswith("error:") for line in lines) == 1


def test_polyglot_castling_is_read_as_the_king_move(tmp_path):
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    path = tmp_path / "castle.bin"
    write_polyglot(path, [(chess.polyglot.zobrist_hash(board), chess.H1 | chess.E1 << 6, 3),
                          (chess.polyglot.zobrist_hash(board), chess.A1 | chess.E1 << 6, 1)])
    entries, bad = bk.PolyglotBook(path).entries(position("chess", text=board.fen()))
    assert {e.text: e.weight for e in entries} == {"e1g1": 3, "e1c1": 1} and not bad


# -- zermelo's format -------------------------------------------------------------------------


def make_book(path, name, lines: dict[tuple[str, ...], list[tuple[str, int]]], **params):
    game = games.load(name, **params) if params else games.load(name)
    book = bk.ZermeloBook.create(path, game)
    for line, moves in lines.items():
        pos = game.new_position()
        for m in line:
            pos.push(pos.parse_move(m))
        book.put(pos.key, [bk.Entry(pos.parse_move(m), m, w, 10 * w, 5) for m, w in moves])
    book.close()
    return path


def test_own_book_round_trip_and_depth_zero_score(tmp_path):
    path = make_book(tmp_path / "k.zbook", "kalah", {(): [("3", 4), ("6", 1)], ("3",): [("6", 2)]})
    book = bk.open_book(path)
    assert isinstance(book, bk.ZermeloBook) and book.game_name == "kalah"
    book.check_game(games.load("kalah"))
    entries, bad = book.entries(position("kalah"))
    assert [(e.text, e.weight, e.score, e.depth) for e in entries] == [("3", 4, 40, 5), ("6", 1, 10, 5)]
    assert not bad
    engine = book_engine(path, UCI_Variant="kalah")
    run = go(engine)
    assert run.best in ("3", "6") and run.messages[0].startswith(f"book move {run.best}")
    (info, pv), = run.infos
    assert info.depth == 0 and pv == [run.best] and info.score == {"3": 40, "6": 10}[run.best]
    counts = draw(engine, 500)
    assert chi_square(counts, {"3": 4, "6": 1}) < CHI2_999[1]


def test_own_book_skips_entries_that_are_not_legal(tmp_path):
    game = games.load("connect4")
    path = tmp_path / "c.zbook"
    book = bk.ZermeloBook.create(path, game)
    pos = game.new_position()
    legal = pos.legal_moves()
    book.put(pos.key, [bk.Entry(legal[3], pos.move_text(legal[3]), 5),
                       bk.Entry(10_000, "9", 50),                          # no such move
                       bk.Entry(legal[0], pos.move_text(legal[1]), 50)])   # text of another move
    book.close()
    entries, bad = bk.open_book(path).entries(pos)
    assert [e.move for e in entries] == [legal[3]] and len(bad) == 2


def test_writing_needs_the_same_game(tmp_path):
    path = make_book(tmp_path / "k.zbook", "kalah", {(): [("3", 1)]})
    with pytest.raises(bk.BookError, match="not chess"):
        bk.ZermeloBook.create(path, games.load("chess"))
    with pytest.raises(bk.BookError, match="parameters"):
        bk.ZermeloBook.create(path, games.load("kalah", seeds=3))


def test_a_book_with_other_keys_is_refused(tmp_path):
    path = make_book(tmp_path / "k.zbook", "kalah", {(): [("3", 1)]})
    import sqlite3

    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = 'x' WHERE name = 'key_check'")
    with pytest.raises(bk.BookError, match="keys"):
        bk.open_book(path).check_game(games.load("kalah"))


# -- bad books -------------------------------------------------------------------------------


def bad_books(tmp_path) -> dict[str, object]:
    """Files that no game may use: name -> path."""
    good = make_book(tmp_path / "good.zbook", "connect4", {(): [("4", 1)]})
    data = good.read_bytes()
    rng = random.Random(3)
    out = {"missing": tmp_path / "missing.zbook"}
    for name, content in {"empty": b"", "truncated": data[:len(data) // 2 + 7],
                          "random": rng.randbytes(4096), "random-odd": rng.randbytes(1001),
                          "bad-pages": data[:100] + rng.randbytes(len(data) - 100),
                          "truncated-bin": POLYGLOT_BOOK.read_bytes()[:1000 * 16 + 5]}.items():
        (tmp_path / name).write_bytes(content)
        out[name] = tmp_path / name
    return out


def test_bad_files_raise_book_errors(tmp_path):
    for name, path in bad_books(tmp_path).items():
        with pytest.raises(bk.BookError):
            bk.open_book(path)


@pytest.mark.parametrize("name", ["missing", "empty", "truncated", "random", "random-odd", "bad-pages",
                                  "truncated-bin"])
def test_a_bad_book_file_is_refused_with_one_error(tmp_path, name):
    path = bad_books(tmp_path)[name]
    engine = Engine(games)
    engine.set_option("OwnBook", "true")
    with pytest.raises(OptionError, match="BookFile"):
        engine.set_option("BookFile", str(path))
    assert engine.options.book_file == ""


@pytest.mark.parametrize("variant, book", [("chess", "kalah"), ("connect4", "polyglot"),
                                           ("kalah", "kalah-3-seeds")])
def test_a_book_for_another_game_gives_one_error_and_a_search(tmp_path, variant, book):
    if book == "polyglot":
        path = POLYGLOT_BOOK
    elif book == "kalah":
        path = make_book(tmp_path / "k.zbook", "kalah", {(): [("3", 1)]})
    else:
        path = make_book(tmp_path / "k3.zbook", "kalah", {(): [("3", 1)]}, seeds=3)
    engine = book_engine(path, UCI_Variant=variant)
    runs = [go(engine, Limits(depth=2)) for _ in range(2)]
    errors = [m for run in runs for m in run.messages if m.startswith("error:")]
    assert len(errors) == 1 and str(path) in errors[0]
    legal = {engine.position.move_text(m) for m in engine.position.legal_moves()}
    for run in runs:
        assert run.best in legal and any(info.depth >= 1 for info, _ in run.infos)


# -- the oracle --------------------------------------------------------------------------------


class Run:
    def __init__(self):
        self.infos, self.messages, self.best = [], [], None
        self.done = threading.Event()


def go(engine: Engine, limits: Limits | None = None) -> Run:
    run = Run()

    def on_bestmove(best, ponder):
        run.best = best
        run.done.set()

    engine.go(limits or Limits(depth=3), lambda info, pv: run.infos.append((info, pv)), on_bestmove,
              run.messages.append)
    assert run.done.wait(30)
    engine.wait(5)
    return run


def test_book_depth_limits_the_book():
    engine = book_engine(POLYGLOT_BOOK, "e2e4", BookDepth="1")
    assert engine.book_probe(engine.game, engine.position, Limits(), engine.context()) is None
    engine.set_option("BookDepth", "2")
    assert engine.book_probe(engine.game, engine.position, Limits(), engine.context()) is not None


def test_searchmoves_restrict_the_book():
    engine = book_engine(POLYGLOT_BOOK)
    d2d4 = engine.position.parse_move("d2d4")
    assert set(draw(engine, 30, Limits(searchmoves=[d2d4]))) == {"d2d4"}
    knight = engine.position.parse_move("g1f3")  # not in the book: the search decides
    assert engine.book_probe(engine.game, engine.position, Limits(searchmoves=[knight]), engine.context()) is None


def test_own_book_off_infinite_and_analysis_search():
    engine = book_engine(POLYGLOT_BOOK)
    engine.set_option("OwnBook", "false")
    assert not any(m.startswith("book move") for m in go(engine).messages)
    engine.set_option("OwnBook", "true")
    assert go(engine).messages[0].startswith("book move")
    engine.set_option("UCI_AnalyseMode", "true")
    assert not any(m.startswith("book move") for m in go(engine).messages)
    engine.set_option("UCI_AnalyseMode", "false")
    run = Run()
    engine.go(Limits(infinite=True, depth=2), lambda i, p: None,
              lambda b, p: (setattr(run, "best", b), run.done.set()), run.messages.append)
    assert not run.done.wait(0.5)  # held until stop, and searched
    engine.stop()
    assert run.done.wait(10) and not any(m.startswith("book move") for m in run.messages)


@pytest.mark.parametrize("name, plies, every_move", [
    ("connect4", 8, False), ("reversi", 6, False), ("kalah", 4, False), ("chess", 6, False),
    # Checkers: every 3-move opening (any legal first three moves), and the reply after it.
    ("checkers", 4, True), ("checkers", 16, False)])
def test_shipped_books_cover_the_opening(name, plies, every_move):
    game = games.load(name)
    path = bk.default_book_path(game)
    assert path is not None
    book = bk.open_book(path)
    book.check_game(game)
    # Every book line (or every legal line) from the start stays in the book for `plies` plies.
    layer, depth = [game.new_position()], 0
    while layer and depth < plies:
        nxt = []
        for pos in layer:
            entries, bad = book.entries(pos)
            assert entries and not bad, pos.to_text()
            for move in pos.legal_moves() if every_move else [e.move for e in entries]:
                child = pos.copy()
                child.push(move)
                if child.outcome() is None and child.legal_moves():
                    nxt.append(child)
        layer, depth = nxt, depth + 1
    assert depth == plies


def test_shipped_book_is_used_without_book_file():
    engine = Engine(games)
    engine.set_option("UCI_Variant", "connect4")
    engine.set_option("OwnBook", "true")
    run = go(engine)
    assert run.messages and run.messages[0].startswith(f"book move {run.best}")
    engine.set_option("connect4_width", "6")  # other parameters: the shipped book does not apply
    run = go(engine)
    assert not run.messages and run.best is not None


def test_opening_lines_are_distinct_book_walks():
    game = games.load("chess")
    lines = bk.opening_lines(POLYGLOT_BOOK, game, plies=6, count=20, rng=random.Random(1))
    assert len(lines) == 20 and len({tuple(line) for line in lines}) == 20
    reader = chess.polyglot.open_reader(POLYGLOT_BOOK)
    for line in lines:
        board = chess.Board()
        assert 1 <= len(line) <= 6
        for m in line:
            assert m in {e.move.uci() for e in reader.find_all(board)}
            board.push_uci(m)


def test_no_move_answers_only_carry_notes():
    engine = Engine(games)
    engine.set_option("OwnBook", "true")
    engine.oracles[0] = lambda game, pos, limits, context: bk_answer()
    run = go(engine, Limits(depth=1))
    assert run.messages == ["error: note only"] and run.best is not None


def bk_answer():
    from engine.oracle import RootAnswer

    return RootAnswer(NO_MOVE, note="error: note only")
