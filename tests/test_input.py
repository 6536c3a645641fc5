"""Hostile input over the real server: huge and odd numbers, floods of junk words,
strict move texts, and options GUIs send that the engine does not declare.

Every bad line must give at most one ``info string error`` line, keep the state,
and a ``go`` must still end in exactly one legal ``bestmove`` without a failed search.
"""

from __future__ import annotations

import random
import re

import pytest

import games
from engine.game import IllegalMoveError
from protocol.server import uci
from test_protocol import Pipe, bestmove, legal_texts, pipe, start  # noqa: F401 (fixture)

HUGE = "9" * 400


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error")]


def search_ok(lines: list[str], game: str, *moves: str) -> None:
    """One bestmove, legal, and no search failure before it."""
    assert not any("search failed" in line or "Traceback" in line for line in lines), lines
    assert sum(line.startswith("bestmove") for line in lines) == 1
    assert bestmove(lines) in legal_texts(game, None, moves)


# -- go numbers ----------------------------------------------------------------------


def test_parse_int_is_strict_ascii_and_clamps():
    assert uci.parse_int("42", 0, 100) == (42, False)
    assert uci.parse_int("+7", 0, 100) == (7, False)
    assert uci.parse_int(HUGE, 0, 100) == (100, True)
    assert uci.parse_int("-" + HUGE, 0, 100) == (0, True)
    for bad in ("²", "٣", "1_000", " 5", "5.0", "0x10", "", "-", "١٢"):
        with pytest.raises(ValueError):
            uci.parse_int(bad, 0, 100)


def test_parse_go_clamps_every_number_into_its_range():
    go = uci.parse_go(f"movetime {HUGE} p1inc {HUGE} wtime -5 depth 0 mate 749731 nodes {HUGE}".split())
    assert go.ints == {"movetime": uci.MAX_MS, "p1inc": uci.MAX_MS, "wtime": 0, "depth": 1,
                       "mate": uci.MAX_DEPTH, "nodes": uci.GO_RANGES["nodes"][1]}
    assert len(go.errors) == 1 and "clamped" in go.errors[0]


def test_max_depth_matches_the_search():
    from engine.search import MAX_DEPTH

    assert uci.MAX_DEPTH == MAX_DEPTH


@pytest.mark.parametrize("game", ["nim", "connect4"])
@pytest.mark.parametrize("line", [
    f"go movetime {HUGE}",
    f"go depth 2 p1inc {HUGE} p1time {HUGE}",
    "go depth 1 foo p1inc -2147483649 mate 749731 movetime 50",
    f"go mate {HUGE} movetime 50",
    f"go nodes {HUGE} depth 2",
], ids=["movetime", "clock", "mixed", "mate", "nodes"])
def test_huge_go_numbers_are_clamped_with_one_line(pipe, line, game):
    start(pipe, game)
    pipe.send(line)
    lines = pipe.quiet(0.5)
    if not any(line.startswith("bestmove") for line in lines):
        pipe.send("stop")
        lines += pipe.until("bestmove")
    assert len(errors(lines)) == 1, lines
    assert "clamped" in errors(lines)[0]
    search_ok(lines, game)


def test_a_flood_of_unknown_words_gives_one_line(pipe):
    start(pipe, "tictactoe")
    pipe.send("go movetime 10 " + " ".join(random.Random(1).choice("abc") for _ in range(300_000)))
    lines = pipe.until("bestmove", timeout=30)
    assert len(errors(lines)) == 1, lines[:5]
    assert re.search(r"ignored 300000 unknown words: '[abc]'", errors(lines)[0])
    search_ok(lines, "tictactoe")


def test_junk_searchmoves_give_one_line(pipe):
    start(pipe, "connect4")
    pipe.send("go depth 2 searchmoves 4 x 99 " + " ".join(["junk"] * 1000))
    lines = pipe.until("bestmove")
    assert len(errors(lines)) == 1, lines
    assert "1002" in errors(lines)[0] and "'x'" in errors(lines)[0]
    assert bestmove(lines) == "4"


# -- setoption -----------------------------------------------------------------------


def test_setoption_refusals_count_one_line_each(pipe):
    pipe.handshake()
    bad = ("٣٢", "²", "1_0", HUGE, "-" + HUGE)
    pipe.send(*(f"setoption name {name} value {v}" for v in bad for name in ("Hash", "kalah_seeds")), "isready")
    lines = pipe.until("readyok")
    assert len(errors(lines)) == 2 * len(bad), lines
    assert "invalid literal" not in "".join(lines)
    assert all(len(line) < 200 for line in lines)
    pipe.send("setoption name nim_heaps value 3,²,5", "isready")
    lines = pipe.until("readyok")
    assert len(errors(lines)) == 1 and "invalid literal" not in lines[0] and "heaps" in lines[0], lines


def test_missing_syzygy_directory_and_bare_debug_are_accepted(pipe):
    pipe.handshake()
    pipe.send("setoption name SyzygyPath value /nonexistent/egtb", "setoption name debug", "isready")
    assert pipe.until("readyok") == ["readyok"]
    # debug is on now: skipped words are reported.
    pipe.send("joho isready")
    assert pipe.until("readyok")[0].startswith("info string ignored")
    pipe.send("setoption name debug value false", "joho isready")
    assert pipe.until("readyok") == ["readyok"]
    pipe.send("setoption name debug value maybe", "isready")
    assert len(errors(pipe.until("readyok"))) == 1


# -- move texts ----------------------------------------------------------------------

#: Games whose move parsers this file holds to the strict forms (chess has its own tests).
MOVE_GAMES = [g for g in games.names() if g != "chess"]
#: Characters that look like digits or separators to a lenient parser.
ODD = ["²", "٣", "１", "0", "00", "+", "-", " ", "_", "x", ":", "\t", "9", "1", "256", "٠", "ⅰ", "a", "Z", ".", ","]


def spellings(pos, move: int) -> set[str]:
    """Every text a game documents for ``move`` (lower case; draughts separators as ``x``)."""
    text = pos.move_text(move)
    game = pos.game.name
    out = {text.lower()}
    if game == "nim" and ":" not in text:
        out.add(f"1:{text}")
    if game in ("mnk", "tictactoe", "mnkmulti"):
        g = pos.game
        r, c = divmod(move, g.width if game != "mnkmulti" else g.m)
        out.add(str((g.n - 1 - r) * g.m + c + 1))
    if game == "reversi" and text == "pass":
        out |= {"pass", "pa", "ps", "@@", "--"}
    if game in ("checkers", "shashki", "brazilian", "international"):
        path = [pos.game.square_name(sq) for sq in pos.path(move)]
        out = {"x".join(path), f"{path[0]}x{path[-1]}"}
    return out


def normalise(game: str, text: str) -> str:
    text = text.strip().lower()
    if game in ("checkers", "shashki", "brazilian", "international"):
        text = text.replace("-", "x").replace(":", "x")
    return text


def mutations(rng: random.Random, text: str) -> list[str]:
    out = [text.upper(), " " + text, "0" + text, "+" + text, text + "0", text * 2, text[::-1]]
    for _ in range(12):
        t = list(text)
        i = rng.randrange(len(t) + 1)
        kind = rng.randrange(3)
        if kind == 0:
            t.insert(i, rng.choice(ODD))
        elif kind == 1 and t:
            del t[min(i, len(t) - 1)]
        elif t:
            t[min(i, len(t) - 1)] = rng.choice(ODD)
        out.append("".join(t))
    # Numbers shifted by multiples of 256 and 65536: parsers that pack fields into
    # bits must not let one field spill into the next.
    for n in set(re.findall(r"[0-9]+", text)):
        for shift in (256, 65536, 10**20):
            out.append(text.replace(n, str(int(n) + shift), 1))
    return out


def random_positions(game_name: str, rng: random.Random, count: int):
    game = games.load(game_name)
    for _ in range(count):
        pos = game.new_position()
        for _ in range(rng.randrange(12)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves():
            yield pos


@pytest.mark.parametrize("game_name", MOVE_GAMES)
def test_move_texts_parse_strictly(game_name):
    rng = random.Random(game_name)
    for pos in random_positions(game_name, rng, 25):
        legal = pos.legal_moves()
        for move in legal:
            for text in spellings(pos, move):
                assert pos.parse_move(text) == move, text
        texts = [pos.move_text(m) for m in legal]
        candidates = [t for text in texts for t in mutations(rng, text)]
        candidates += ["".join(rng.choice("0123456789:-x²٣ab ") for _ in range(rng.randrange(1, 6)))
                       for _ in range(200)]
        candidates += ["", " ", "1:258", "0", "-1", "9" * 5000, "1:1:1", ":", "x", "²", "1²", "01"]
        for text in candidates:
            try:
                move = pos.parse_move(text)
            except IllegalMoveError as e:
                message = str(e)
                assert "invalid literal" not in message and "Exceeds" not in message, message
                assert len(message) < 300, message
                continue
            assert move in legal, (text, move)
            assert normalise(game_name, text) in spellings(pos, move), (text, pos.move_text(move))


def test_nim_take_does_not_spill_into_the_heap_number():
    pos = games.load("nim", heaps=(3, 4, 5)).new_position()
    with pytest.raises(IllegalMoveError):
        pos.parse_move("1:258")


def test_digit_lookalikes_are_refused_in_the_game_terms():
    pos = games.load("connect4").new_position()
    with pytest.raises(IllegalMoveError, match=r"illegal move '²': expected a column number 1-7"):
        pos.parse_move("²")
    pos = games.load("kalah").new_position()
    with pytest.raises(IllegalMoveError, match=r"expected a pit number 1-6"):
        pos.parse_move("²")


# -- proven results in a GUI's terms -------------------------------------------------


def exact_go(game: str, text: str, **options) -> tuple[list[str], list[str]]:
    """Info lines (as printed) and notes of a short ``go`` in-process."""
    import threading

    from engine.engine import Engine
    from engine.timeman import Limits

    engine = Engine(games)
    engine.set_option("UCI_Variant", game)
    for name, value in options.items():
        engine.set_option(name, str(value))
    engine.set_position(text, [])
    lines, notes, done = [], [], threading.Event()
    engine.go(Limits(depth=6), lambda info, pv: lines.append(uci.format_info(info, pv)),
              lambda best, ponder: done.set(), notes.append)
    assert done.wait(60)
    return lines, notes


def python_chess_score(line: str):
    import chess
    import chess.engine

    fields = line.removeprefix("info ").split(" pv ")[0]
    return chess.engine._parse_uci_info(fields, chess.Board())["score"].relative


def endgame_positions(game_name: str, seed: int, covered) -> list:
    """Positions reached by random play that ``covered`` accepts, one per game played."""
    rng = random.Random(seed)
    game = games.load(game_name)
    out = []
    while len(out) < 4:
        pos = game.new_position()
        while pos.legal_moves() and pos.outcome() is None and not covered(pos):
            pos.push(rng.choice(pos.legal_moves()))
        if pos.legal_moves() and pos.outcome() is None:
            out.append(pos)
    return out


def check_exact_line(game_name: str, pos, line: str, margin: int) -> None:
    """The printed score is python-chess's Mate(N) (Cp(0) for a draw) and the PV runs
    to the game's end in as many plies as N says."""
    from engine.game import WIN, mate_moves

    score = python_chess_score(line)
    pv = line.split(" pv ")[1].split()
    end = pos.copy()
    for text in pv:
        end.push(end.parse_move(text))
    assert end.outcome() is not None or not end.legal_moves(), "the PV stops before the end"
    if margin == 0:
        assert score.score() == 0 and not score.is_mate()
        return
    assert score.is_mate(), line
    plies = len(pv)
    assert score.mate() == mate_moves(WIN - plies if margin > 0 else plies - WIN)


@pytest.mark.parametrize("game_name", ["reversi", "kalah"])
def test_proven_results_print_as_mate_with_the_margin_in_a_note(game_name):
    if game_name == "reversi":
        from games.reversi.endgame import solve

        covered = lambda pos: 64 - (pos.own | pos.opp).bit_count() <= 10  # noqa: E731
        exact = lambda pos: solve(pos)[0]  # noqa: E731
    else:
        from games.kalah import solve_margin

        covered = lambda pos: sum(pos.board[:6]) + sum(pos.board[7:13]) <= 8  # noqa: E731
        exact = solve_margin
    for pos in endgame_positions(game_name, 7, covered):
        margin = exact(pos)
        lines, notes = exact_go(game_name, pos.to_text())
        check_exact_line(game_name, pos, lines[-1], margin)
        unit = "discs" if game_name == "reversi" else "seeds"
        note = next(n for n in notes if n.startswith("exact: "))
        if margin:
            word = "win" if margin > 0 else "loss"
            assert re.fullmatch(rf"exact: {word} by {abs(margin)} {unit} in \d+ moves?", note), note
        else:
            assert note == "exact: draw"


def test_proven_margins_found_by_the_search_print_as_mate():
    # The root is beyond the solver's reach (EndgameEmpties 8), the search's nodes are not.
    from games.reversi.endgame import solve

    pos = endgame_positions("reversi", 3, lambda p: 64 - (p.own | p.opp).bit_count() <= 10)[0]
    lines, notes = exact_go("reversi", pos.to_text(), EndgameEmpties=8)
    assert not notes
    assert "cp 200" not in " ".join(lines) and "cp -200" not in " ".join(lines)
    check_exact_line("reversi", pos, lines[-1], solve(pos)[0])


def test_counted_wins_keep_their_distance_and_chess_tables_their_convention():
    from engine.game import KNOWN_WIN, WIN

    assert uci.format_score(WIN - 9) == "mate 5"
    # A chess table win without a distance: Stockfish's cp 20000 - ply.
    assert uci.format_score(KNOWN_WIN - 3) == "cp 19997"


def test_a_search_of_another_game_never_reads_the_previous_game_tables(pipe):
    # Oracles (which install the table hook) are skipped by go infinite; the hook of the
    # 4x4 Connect Four game then solved 7x6 positions from the start (stop never
    # answered) and Nim's solver read Kalah positions (AttributeError).
    start(pipe, "connect4")
    pipe.send(*(f"setoption name connect4_{k} value {v}" for k, v in (("width", 4), ("height", 4), ("connect", 3))))
    pipe.send("go depth 2")
    pipe.until("bestmove")
    pipe.send(*(f"setoption name connect4_{k} value {v}" for k, v in (("width", 7), ("height", 6), ("connect", 4))))
    for game in (None, "kalah"):
        if game:
            pipe.send("setoption name UCI_Variant value nim", "go depth 2")
            pipe.until("bestmove")
            pipe.send(f"setoption name UCI_Variant value {game}")
        pipe.send("go infinite")
        lines = pipe.quiet(1.0)
        pipe.send("stop")
        lines += pipe.until("bestmove", timeout=5)
        assert not errors(lines), lines
