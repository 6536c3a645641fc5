"""``zermelo book``: building by search and from games, merging, Polyglot export,
show and stats. Oracles: python-chess (PGN replay, Polyglot reading) and a
brute-force minimax of tic-tac-toe."""

from __future__ import annotations

import functools

import chess
import chess.pgn
import chess.polyglot
import pytest

import games
from engine import book as bk
from protocol import book_cli
from protocol.records import GameRecord, to_text

PGN = """
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O 1-0

[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Bc5 1/2-1/2

[Result "0-1"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 0-1

[Result "1-0"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 Nbd7 7. Qc2 c5 8. O-O-O 1-0

[Result "*"]

1. e4 e5 *
"""


def python_chess_counts(text: str, plies: int) -> dict[tuple[str, str], list[int]]:
    """(position without move counters, move) -> [games, wins, draws, losses] of the mover."""
    import io

    out: dict[tuple[str, str], list[int]] = {}
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        result = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}.get(game.headers["Result"])
        if result is None:
            continue
        board = game.board()
        for move in list(game.mainline_moves())[:plies]:
            mover = result if board.turn == chess.WHITE else -result
            c = out.setdefault((" ".join(board.fen().split()[:4]), move.uci()), [0, 0, 0, 0])
            c[0] += 1
            c[1 + (1 - mover)] += 1
            board.push(move)
    return out


def book_counts(book: bk.ZermeloBook, game) -> dict[tuple[str, str], list[int]]:
    """The same table read back from a book, over its stored positions."""
    out = {}
    for text in book.position_texts():
        pos = game.new_position(text)
        for e in book.entries(pos)[0]:
            out[(" ".join(pos.to_text().split()[:4]), e.text)] = [e.games, e.wins, e.draws, e.losses]
    return out


def test_games_source_counts_like_python_chess(tmp_path):
    (tmp_path / "g.pgn").write_text(PGN)
    out = tmp_path / "g.zbook"
    book = book_cli.build_games("chess", str(out), [str(tmp_path / "g.pgn")], plies=12, min_games=1,
                                min_score=0.0, warn=lambda text: None)
    expected = {k: v for k, v in python_chess_counts(PGN, 12).items() if v[1] * 2 + v[2] > 0}
    assert book_counts(book, games.load("chess")) == expected
    assert book.count()[1] == len(expected)


def test_games_source_filters_by_count_and_score(tmp_path):
    (tmp_path / "g.pgn").write_text(PGN)
    book = book_cli.build_games("chess", str(tmp_path / "g.zbook"), [str(tmp_path / "g.pgn")], plies=12,
                                min_games=2, min_score=0.5, warn=lambda text: None)
    kept = book_counts(book, games.load("chess"))
    expected = {k: v for k, v in python_chess_counts(PGN, 12).items()
                if v[0] >= 2 and (v[1] + v[2] / 2) / v[0] >= 0.5}
    assert kept == expected
    assert kept[(" ".join(chess.STARTING_FEN.split()[:4]), "e2e4")] == [3, 1, 1, 1]


def test_pdn_and_plain_records(tmp_path):
    pdn = tmp_path / "c.pdn"
    recs = [GameRecord("checkers", ("a", "b"), "1-0", None, ["11-15", "23-19", "8-11"]),
            GameRecord("checkers", ("a", "b"), "0-1", None, ["11-15", "22-17"])]
    pdn.write_text("\n\n".join(to_text(r) for r in recs))
    book = book_cli.build_games("checkers", str(tmp_path / "c.zbook"), [str(pdn)], plies=10, min_games=1,
                                min_score=0.0, warn=lambda text: None)
    game = games.load("checkers")
    pos = game.new_position()
    (first,), _ = book.entries(pos)
    assert (first.text, first.games, first.wins, first.losses) == ("11-15", 2, 1, 1)
    pos.push(first.move)
    assert [(e.text, e.wins) for e in book.entries(pos)[0]] == [("22-17", 1)]  # 23-19 lost for White

    plain = tmp_path / "k.txt"
    plain.write_text(to_text(GameRecord("kalah", ("a", "b"), "1/2-1/2", None, ["3", "6"])))
    kbook = book_cli.build_games("kalah", str(tmp_path / "k.zbook"), [str(plain)], plies=10, min_games=1,
                                 min_score=0.0, warn=lambda text: None)
    kpos = games.load("kalah").new_position()
    assert [(e.text, e.draws, e.weight) for e in kbook.entries(kpos)[0]] == [("3", 1, 1)]


def test_export_reads_back_through_python_chess(tmp_path):
    (tmp_path / "g.pgn").write_text(PGN)
    zbook = tmp_path / "g.zbook"
    book = book_cli.build_games("chess", str(zbook), [str(tmp_path / "g.pgn")], plies=30, min_games=1,
                                min_score=0.0, warn=lambda text: None)
    book.close()
    out = tmp_path / "g.bin"
    n = book_cli.export_polyglot(str(zbook), str(out))
    reader = chess.polyglot.open_reader(out)
    assert len(reader) == n
    book = bk.ZermeloBook(zbook)
    checked = castles = 0
    game = games.load("chess")
    texts = book.position_texts()
    assert len(texts) == book.count()[0]
    for text in texts:
        pos = game.new_position(text)
        entries = book.entries(pos)[0]
        board = chess.Board(text)
        assert {e.move.uci(): e.weight for e in reader.find_all(board)} == {e.text: e.weight for e in entries}
        checked += len(entries)
        castles += sum(e.text in ("e1g1", "e1c1", "e8g8") for e in entries)
    assert checked == n and castles >= 3


def test_export_refuses_other_games(tmp_path):
    path = tmp_path / "k.zbook"
    bk.ZermeloBook.create(path, games.load("kalah")).close()
    with pytest.raises(bk.BookError, match="chess"):
        book_cli.export_polyglot(str(path), str(tmp_path / "k.bin"))


def test_merge_adds_counts_and_keeps_the_deeper_score(tmp_path):
    game = games.load("kalah")
    pos = game.new_position()
    m3, m6 = pos.parse_move("3"), pos.parse_move("6")
    a = bk.ZermeloBook.create(tmp_path / "a.zbook", game)
    a.put(pos.key, [bk.Entry(m3, "3", 10, 50, 4, 2, 1, 1, 0)])
    a.close()
    b = bk.ZermeloBook.create(tmp_path / "b.zbook", game)
    b.put(pos.key, [bk.Entry(m3, "3", 5, 80, 8, 1, 0, 0, 1), bk.Entry(m6, "6", 1)])
    b.close()
    merged = book_cli.merge(str(tmp_path / "m.zbook"), [str(tmp_path / "a.zbook"), str(tmp_path / "b.zbook")])
    assert merged.entries(pos)[0] == [bk.Entry(m3, "3", 15, 80, 8, 3, 1, 1, 1), bk.Entry(m6, "6", 1)]


@functools.lru_cache(maxsize=None)
def _minimax(cells: str, turn: str) -> int:
    """Tic-tac-toe value for the side to move (+1/0/-1), by brute force over the 3x3 grid."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    other = "o" if turn == "x" else "x"
    if any(cells[a] == cells[b] == cells[c] == other for a, b, c in lines):
        return -1
    if "." not in cells:
        return 0
    return max(-_minimax(cells[:i] + turn + cells[i + 1:], other) for i in range(9) if cells[i] == ".")


def optimal_cells(moves: list[int]) -> set[int]:
    cells = ["."] * 9
    for i, m in enumerate(moves):
        cells[m] = "xo"[i % 2]
    turn = "xo"[len(moves) % 2]
    other = "o" if turn == "x" else "x"
    best = _minimax("".join(cells), turn)
    return {i for i in range(9) if cells[i] == "." and
            -_minimax("".join(cells[:i] + [turn] + cells[i + 1:]), other) == best}


def test_search_source_keeps_exactly_the_optimal_moves(tmp_path):
    out = tmp_path / "t.zbook"
    notes = []
    book_cli.build_search("tictactoe", str(out), plies=2, depth=9, movetime=None, margin=0, max_moves=9, jobs=2,
                          progress=notes.append).close()
    assert notes and "positions searched" in notes[-1] and "left" in notes[-1]
    book = bk.ZermeloBook(out)
    game = games.load("tictactoe")
    start = game.new_position()
    # The cells of the board as move texts, in index order (a tic-tac-toe move is a cell).
    cells = sorted(start.legal_moves())
    first, _ = book.entries(start)
    assert {cells.index(e.move) for e in first} == optimal_cells([]) and all(e.weight == 100 for e in first)
    for e in first:
        pos = start.copy()
        pos.push(e.move)
        replies, _ = book.entries(pos)
        assert {cells.index(r.move) for r in replies} == optimal_cells([cells.index(e.move)])
    assert book.count()[0] == 1 + len(first)


def test_search_build_resumes(tmp_path):
    one, two = tmp_path / "one.zbook", tmp_path / "two.zbook"
    args = dict(depth=3, movetime=None, margin=30, max_moves=2, jobs=1)
    book_cli.build_search("reversi", str(one), plies=3, **args).close()
    book_cli.build_search("reversi", str(two), plies=1, **args).close()
    notes = []
    book_cli.build_search("reversi", str(two), plies=3, progress=notes.append, **args).close()
    rows = [sorted(bk.ZermeloBook(p).all_rows()) for p in (one, two)]
    assert rows[0] == rows[1]
    # The resumed run searched only the positions after the first ply.
    assert sum(1 for n in notes if n.startswith("ply 1/")) == 0


def test_cli_show_and_stats(tmp_path, capsys):
    out = tmp_path / "c.zbook"
    assert book_cli.main(["build", "connect4", "--out", str(out), "--plies", "2", "--depth", "2",
                          "--max-moves", "2", "--jobs", "1"]) == 0
    book = bk.ZermeloBook(out)
    positions, entries = book.count()
    capsys.readouterr()
    assert book_cli.main(["show", "connect4", str(out)]) == 0
    shown = capsys.readouterr().out.splitlines()
    start = games.load("connect4").new_position()
    assert {line.split()[0] for line in shown[2:]} == {e.text for e in book.entries(start)[0]}
    assert book_cli.main(["stats", str(out)]) == 0
    stats = capsys.readouterr().out
    assert f"positions: {positions}, entries: {entries}" in stats and "keys match" in stats
    assert "reach from the start: 2 plies" in stats
    assert book_cli.main(["show", "chess", str(out)]) == 1  # a connect4 book
    assert "not chess" in capsys.readouterr().err
