"""``zermelo play`` driven through prompt_toolkit's pipe input, as a user types.

Whole games of every registered game (the engine against itself, and a human
typing random legal moves against the engine), undo with Kalah extra turns,
illegal and ambiguous input, the commands, records read back by python-chess,
and the boards checked against each game's own ``render()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import re
import sys

import chess
import chess.pgn
import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import games
from protocol import cli, records
from protocol.terminal.app import Terminal, build, move_rows
from protocol.terminal.boards import View, draw


async def until(predicate, timeout: float = 60.0) -> None:
    """Wait (on the event loop, so the application keeps running) for ``predicate()``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting for the terminal")
        await asyncio.sleep(0.005)


@contextlib.asynccontextmanager
async def terminal(*argv: str):
    """A running ``zermelo play`` whose keyboard is a pipe; ``type`` enters a line."""
    with create_pipe_input() as pipe:
        # prompt_toolkit reads its input through select(), which takes no descriptor past
        # 1,023: there the keyboard would go silent, so a leak elsewhere is named here.
        assert pipe.fileno() < 1024, f"the keyboard pipe got descriptor {pipe.fileno()}: descriptors leak"
        term = build(list(argv), input=pipe, output=DummyOutput())
        lines: list[str] = []
        submit = term.session.submit

        def counted(line: str) -> None:
            lines.append(line)
            submit(line)

        term.session.submit = counted

        async def type_line(text: str) -> None:
            done = len(lines)
            pipe.send_text(text + "\r")
            await until(lambda: len(lines) > done or term.app.is_done)

        term.type = type_line
        task = term.task = asyncio.create_task(term.run())
        await until(lambda: term.app.is_running)
        try:
            yield term
        finally:
            if not task.done():
                pipe.send_text("\x03")
            await asyncio.wait_for(task, 20)
            # What this test left behind is collected now, on its own loop, not in a later test.
            gc.collect()
    assert not term.session.engine.is_searching()
    assert term.errors == []


def settled(term: Terminal) -> bool:
    """The game is over, or it is the human's turn and the engine is idle."""
    s = term.session
    return s.thinking is None and (s.is_over() or s.position.turn in s.humans)


def check_record(session, tmp_path) -> records.GameRecord:
    """The saved record reads back to the same moves, and zermelo's referee accepts it."""
    rec = records.read_records((tmp_path / "game.txt").read_text())[0]
    assert rec.moves == session.moves
    assert records.verify(rec) == []
    return rec


def chess_agrees(start: str | None, moves: list[str], result: str) -> None:
    """python-chess replays the moves legally and ends the game with the same result."""
    board = chess.Board(start) if start else chess.Board()
    for text in moves:
        move = chess.Move.from_uci(text)
        assert move in board.legal_moves, text
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None and outcome.result() == result


# -- whole games -------------------------------------------------------------------

@pytest.mark.parametrize("name", games.names())
async def test_engine_plays_itself_to_the_end(name, tmp_path):
    async with terminal(name, "--human", "none", "--depth", "1") as term:
        s = term.session
        await until(lambda: s.is_over() and s.thinking is None, timeout=240)
        assert s.message.startswith("game over: ")
        await term.type(f"save {tmp_path / 'game.txt'}")
        rec = check_record(s, tmp_path)
        assert rec.result != "*" and rec.termination == "normal"
        await term.type("quit")
        await until(term.task.done, timeout=10)
    if name == "chess":
        chess_agrees(None, rec.moves, rec.result)


def _random_move(session, rng: random.Random) -> str:
    """A random legal move as a player types it: SAN (python-chess) for chess."""
    if session.game.name == "chess":
        board = chess.Board(session.position.to_text())
        return board.san(rng.choice(list(board.legal_moves)))
    pos = session.position
    return pos.move_text(rng.choice(pos.legal_moves()))


@pytest.mark.parametrize("name", games.names())
async def test_human_plays_the_engine_to_the_end(name, tmp_path):
    rng = random.Random(name)
    async with terminal(name, "--depth", "1") as term:
        s = term.session
        assert s.humans == {0}
        while True:
            await until(lambda: settled(term), timeout=60)
            if s.is_over():
                break
            plies = len(s.moves)
            await term.type(_random_move(s, rng))
            assert len(s.moves) > plies, s.message
            assert s.movers[plies] == 0
        await term.type(f"save {tmp_path / 'game.txt'}")
        rec = check_record(s, tmp_path)
        assert rec.players == ("Human",) + ("zermelo",) * (len(s.game.players) - 1)
    if name == "chess":
        chess_agrees(None, rec.moves, rec.result)


def test_cli_entry_point_plays_nim(tmp_path, monkeypatch):
    # 7 coins, take 1 or 2, last coin loses: after 2, 2, 2 the second player must take the last.
    record = tmp_path / "nim.txt"
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        # The screen runs when standard input is a terminal (else moves are read line by line).
        monkeypatch.setattr(sys, "stdin", type("Tty", (), {"isatty": lambda self: True})())
        pipe.send_text(f"2\r2\r2\r1\rsave {record}\rquit\r")
        assert cli.main(["play", "nim", "--human", "both"]) == 0
    rec = records.read_records(record.read_text())[0]
    assert rec.moves == ["2", "2", "2", "1"]
    assert rec.result == "1-0"


def test_bad_arguments_exit_with_a_message(capsys):
    for argv in (["nosuchgame"], ["chess", "--human", "south"], ["chess", "--depth", "0"],
                 ["chess", "--fen", "not a fen"], ["kalah", "--option", "kalah_pits=99"]):
        with pytest.raises(SystemExit) as exc:
            build(argv, output=DummyOutput())
        assert exc.value.code != 0


# -- undo --------------------------------------------------------------------------

async def test_undo_takes_back_the_move_pair():
    async with terminal("chess", "--depth", "1") as term:
        s = term.session
        await term.type("e4")
        await until(lambda: settled(term))
        assert len(s.moves) == 2 and s.moves[0] == "e2e4"
        await term.type("undo")
        assert s.moves == [] and s.position.to_text() == chess.STARTING_FEN
        assert s.thinking is None
        await term.type("undo")
        assert s.message == "nothing to undo"


async def test_undo_in_kalah_returns_to_the_humans_previous_turn():
    # South sows pit 3 into the store (an extra turn), then pit 1; North answers with
    # extra turns of its own: pit 6 and pit 5 each end in North's store.
    start = "4,4,4,4,4,4,10/0,0,0,0,2,1,11 1"
    async with terminal("kalah", "--depth", "1", "--fen", start) as term:
        s = term.session
        await term.type("3")
        assert s.moves == ["3"] and s.position.turn == 0 and s.thinking is None
        await term.type("1")
        await until(lambda: settled(term))
        engine_plies = s.movers[2:]
        assert len(engine_plies) >= 2 and set(engine_plies) == {1}
        await term.type("undo")
        after_3 = games.load("kalah").new_position(start)
        after_3.push(after_3.parse_move("3"))
        assert s.moves == ["3"] and s.movers == [0] and s.position.to_text() == after_3.to_text()
        assert s.position.turn == 0 and s.thinking is None
        await term.type("undo")
        assert s.moves == [] and s.position.to_text() == start


async def test_undo_with_the_engine_moving_first_keeps_its_move():
    async with terminal("tictactoe", "--human", "o", "--depth", "1") as term:
        s = term.session
        await until(lambda: settled(term))
        assert len(s.moves) == 1 and s.movers == [0]
        await term.type("undo")
        assert len(s.moves) == 1 and "nothing of yours" in s.message


# -- illegal and ambiguous input ---------------------------------------------------------

async def test_illegal_and_ambiguous_moves_leave_the_board_unchanged():
    fen = "4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1"
    async with terminal("chess", "--depth", "1", "--fen", fen) as term:
        s = term.session
        for text, expected in (("Ne4", "ambiguous move 'Ne4': Nce4 or Nge4"), ("Nb4", "illegal move 'Nb4'"),
                               ("e2e4", "illegal move 'e2e4': there is no piece on e2"),
                               ("hello", "illegal move 'hello': not a move")):
            await term.type(text)
            assert expected in s.message
            assert s.moves == [] and s.position.to_text() == fen
        await term.type("Nge4")
        await until(lambda: settled(term))
        assert s.moves[0] == "g3e4"


async def test_moves_out_of_turn_are_refused():
    async with terminal("connect4", "--human", "second", "--time", "30") as term:
        s = term.session
        await until(lambda: s.thinking is not None)
        await term.type("4")
        assert s.moves == [] and "engine's side" in s.message
        await term.type("")  # Enter: move now
        await until(lambda: settled(term), timeout=20)
        assert len(s.moves) == 1 and s.position.turn == 1
        await term.type("9")
        assert len(s.moves) == 1 and s.message


async def test_illegal_kalah_and_draughts_input():
    async with terminal("kalah", "--depth", "1") as term:
        await term.type("7")
        assert term.session.moves == [] and term.session.message
    async with terminal("checkers", "--depth", "1") as term:
        await term.type("21-17")  # a white man; Black moves first
        assert term.session.moves == [] and "illegal move" in term.session.message


# -- commands --------------------------------------------------------------------------

async def test_flip_swap_level_hint_and_new():
    async with terminal("chess", "--depth", "1") as term:
        s = term.session
        assert not s.flipped
        await term.type("flip")
        assert s.flipped
        await term.type("level depth 2")
        assert (s.depth, s.movetime) == (2, None)
        await term.type("level time 0")
        assert s.message.startswith("level: time must be positive") and s.depth == 2
        await term.type("hint")
        await until(lambda: s.thinking is None)
        hint = re.fullmatch(r"hint: (\S+) .*", s.message).group(1)
        assert hint in s.legal_texts() and s.moves == []
        await term.type("swap")  # the engine now plays White
        assert s.humans == {1} and s.flipped
        await until(lambda: settled(term))
        assert len(s.moves) == 1 and s.movers == [0]
        await term.type("a6")
        await until(lambda: settled(term))
        assert len(s.moves) == 3
        await term.type("new")  # the engine opens the new game at once
        await until(lambda: settled(term))
        assert len(s.moves) == 1 and s.before == [chess.STARTING_FEN] and s.humans == {1}
        await term.type("human both")
        assert s.humans == {0, 1}
        await term.type("help")
        assert s.panel == "help"
        await term.type("frobnicate")
        assert "not a move" in s.message and s.panel == "moves"


async def test_position_and_fen_commands():
    async with terminal("reversi", "--human", "both") as term:
        s = term.session
        await term.type("fen")
        assert s.message == games.load("reversi").new_position().to_text()
        await term.type("position nonsense")
        assert s.message.startswith("position:") and s.moves == []
        text = "---------------------------OX------XO--------------------------- O"
        await term.type(f"position {text}")
        assert s.position.to_text() == text and s.position.turn == 1
        await term.type("d6")
        assert s.moves == ["d6"]
        await term.type("position startpos")
        assert s.start is None and s.moves == []


async def test_save_and_load_chess_pgn_read_by_python_chess(tmp_path):
    # A PGN written by python-chess loads; the saved PGN replays in python-chess.
    game = chess.pgn.Game()
    node = game
    for san in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
        node = node.add_variation(node.board().parse_san(san))
    (tmp_path / "in.pgn").write_text(str(game) + "\n\n")
    async with terminal("chess", "--human", "black", "--depth", "1") as term:
        s = term.session
        await until(lambda: settled(term))
        await term.type(f"load {tmp_path / 'in.pgn'}")
        assert s.moves == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"] and s.position.turn == 1
        await term.type("a6")
        await until(lambda: settled(term))
        await term.type(f"save {tmp_path / 'out.pgn'}")
    with open(tmp_path / "out.pgn") as f:
        saved = chess.pgn.read_game(f)
    assert [m.uci() for m in saved.mainline_moves()] == s.moves
    assert saved.headers["White"] == "zermelo" and saved.headers["Black"] == "Human"
    assert saved.headers["Result"] == "*"


async def test_load_switches_game_and_reports_bad_files(tmp_path):
    async with terminal("chess", "--human", "both") as term:
        s = term.session
        await term.type("11-15")
        assert s.moves == [] and "not a move" in s.message
        rec = records.GameRecord("checkers", ("a", "b"), "*", moves=["11-15", "23-19", "8-11"])
        (tmp_path / "c.pdn").write_text(records.to_text(rec))
        await term.type(f"load {tmp_path / 'c.pdn'}")
        assert s.game.name == "checkers" and s.moves == ["11-15", "23-19", "8-11"]
        await term.type(f"load {tmp_path / 'missing.pdn'}")
        assert s.message.startswith("load:") and s.moves == ["11-15", "23-19", "8-11"]


async def test_an_error_on_the_loop_is_shown_and_play_goes_on():
    """A defect raised on the event loop is shown in the message line; the screen never
    waits for Enter (which would take the next typed line), so typing still plays."""
    def defect():
        raise ValueError("defect")

    async with terminal("nim", "--human", "both") as term:
        term._post(defect)
        await until(lambda: term.errors)
        assert term.session.message == "error: ValueError('defect')"
        await term.type(term.session.position.move_text(term.session.position.legal_moves()[0]))
        assert len(term.session.moves) == 1
        term.errors.clear()  # raised on purpose: the fixture fails on any other


# -- keys ------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["\x03", "\x04"])
async def test_ctrl_c_and_ctrl_d_exit_while_the_engine_thinks(key):
    async with terminal("chess", "--human", "none", "--time", "60") as term:
        await until(lambda: term.session.thinking is not None)
        term.app.input.send_text(key)
        await until(term.task.done, timeout=20)


async def test_completion_offers_the_legal_moves_and_san():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    async with terminal("chess", "--human", "both") as term:
        completer = term.buffer.completer
        words = {c.text for c in completer.get_completions(Document("N"), CompleteEvent())}
        board = chess.Board()
        assert words == {board.san(m) for m in board.legal_moves if board.san(m).startswith("N")} | {"new"}
        words = {c.text for c in completer.get_completions(Document("e2"), CompleteEvent())}
        assert words == {"e2e3", "e2e4"}
        words = {c.text for c in completer.get_completions(Document("level "), CompleteEvent())}
        assert words == {"time", "depth", "elo", "skill", "full"}
        words = {c.text for c in completer.get_completions(Document("human "), CompleteEvent())}
        assert words == {"white", "black", "both", "none"}


# -- boards ----------------------------------------------------------------------------

def _screen(view: View) -> list[str]:
    return "".join(text for _, text in draw(view)).splitlines()


def _random_position(name: str, plies: int, seed: int):
    game = games.load(name)
    pos = game.new_position()
    rng = random.Random(seed)
    last = None
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            break
        last = pos.to_text()
        pos.push(rng.choice(moves))
    return game, pos, last


#: Per game: how a cell of our board and a cell of ``render()`` name the same contents.
_SAME = {
    "chess": {c: c for c in "♔♕♖♗♘♙♚♛♜♝♞♟"} | {" ": "·"},
    "shashki": {"⛀": "w", "⛁": "W", "⛂": "b", "⛃": "B", " ": "-"},
    "reversi": {"●": "●", "○": "○", "·": "·", " ": "-"},
    "tictactoe": {"X": "x", "O": "o", "·": "."},
    "mnk": {"X": "x", "O": "o", "·": "."},
    "connect4": {"●": "●", "○": "○", "·": "·"},
}


def _render_cells(name: str, pos) -> list[list[str]]:
    """The cells of the game's own text board, rows from the top."""
    lines = pos.render().splitlines()
    if name == "connect4":
        return [line[1:-1].split(" ") for line in lines if line.startswith("|")]
    if name == "reversi":
        lines = [line for line in lines if re.match(r"\d ", line)]
        return [line[2:].split(" ")[:8] for line in lines]
    rows = [line for line in lines if re.match(r"\s*\d+ ", line)]
    cells = [re.sub(r"^\s*\d+\s", "", line).split() for line in rows]
    # The draughts board leaves light squares as '.'; keep the dark ones.
    return [[c for c in row if c != "."] for row in cells] if name == "shashki" else cells


def _our_cells(name: str, lines: list[str]) -> list[list[str]]:
    """The middle character of each 3-wide cell of our board, rows from the top."""
    if name == "connect4":
        width, bodies = len(lines[-1].split()), lines[:-1]
    else:
        width = len(lines[0].split())
        bodies = [re.sub(r"^\s*\d+ ", "", line) for line in lines if re.match(r"\s*\d+ ", line)]
    cells = [list(body[1:3 * width:3]) for body in bodies]
    if name == "shashki":
        cells = [[c for j, c in enumerate(row) if (i + j) % 2 == 1] for i, row in enumerate(cells)]
    return cells


@pytest.mark.parametrize("name", sorted(_SAME))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_board_agrees_with_the_games_own_render(name, seed):
    game, pos, _ = _random_position(name, 12 + 7 * seed, seed)
    # Without colour the sides are told apart by shape, as the games' own text boards do.
    ours = [[_SAME[name][c] for c in row] for row in _our_cells(name, _screen(View(game, pos, mono=True)))]
    assert ours == _render_cells(name, pos)


@pytest.mark.parametrize("name,size", [("checkers", 8), ("international", 10)])
def test_numbered_board_places_squares_as_render_numbers_them(name, size):
    game, pos, _ = _random_position(name, 20, 5)
    ours = _screen(View(game, pos, mono=True))
    theirs = [line for line in pos.render().splitlines() if re.match(r" [.bwBW-] ", line)]
    assert len(theirs) == size
    glyph = {"⛀": "w", "⛁": "W", "⛂": "b", "⛃": "B"}
    for r, (mine, text) in enumerate(zip(ours, theirs)):
        board = text[1:2 * size].split(" ")
        for c in range(size):
            cell = mine[3 * c + 1:3 * c + 2]
            if board[c] in "bwBW":
                assert glyph.get(cell) == board[c], (r, c)
            elif board[c] == "-":
                assert cell not in glyph


def _highlighted(view: View) -> set[tuple[int, int]]:
    """(row, column) of the highlighted cells of an 8x8 board with coordinates."""
    out, row, col = set(), 0, 0
    for style, text in draw(view):
        if text.endswith("\n"):
            row, col = row + 1, 0
        elif style.startswith("class:") and ("light" in style or "dark" in style or "felt" in style):
            if "last-" in style:
                out.add((row - 1, col))
            col += 1
    return out


def test_last_move_highlight():
    game = games.load("chess")
    pos = game.new_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    before = pos.to_text()
    pos.push(pos.parse_move("e1g1"))
    # King e1->g1 and rook h1->f1: rank 1 is row 7; columns e, f, g, h.
    assert _highlighted(View(game, pos, before)) == {(7, 4), (7, 5), (7, 6), (7, 7)}
    flipped = _highlighted(View(game, pos, before, flipped=True))
    assert flipped == {(0, 3), (0, 2), (0, 1), (0, 0)}
    assert _highlighted(View(game, pos)) == set()

    game = games.load("reversi")
    pos = game.new_position()
    before = pos.to_text()
    pos.push(pos.parse_move("d3"))
    # The disc placed on d3 and the one it flips on d4 (rows from 1 at the top).
    assert _highlighted(View(game, pos, before)) == {(2, 3), (3, 3)}


def test_every_game_draws_without_a_fallback():
    for name in games.names():
        game, pos, last = _random_position(name, 9, 0)
        lines = _screen(View(game, pos, last))
        assert lines and lines != pos.render().splitlines()


def test_move_rows_follow_extra_turns():
    assert move_rows([0, 1, 0], ["e4", "e5", "Nf3"]) == [(1, "e4", "e5"), (2, "Nf3", "")]
    assert move_rows([1, 0], ["e5", "d4"]) == [(1, "...", "e5"), (2, "d4", "")]
    # Kalah: South moves twice (an extra turn), North twice.
    assert move_rows([0, 0, 1, 1, 0], ["3", "1", "6", "5", "2"]) == [
        (1, "3", ""), (2, "1", "6"), (3, "...", "5"), (4, "2", "")]


# -- more than two players -----------------------------------------------------------

async def test_three_player_rolit_with_one_human(tmp_path):
    rng = random.Random(3)
    async with terminal("rolit", "--players", "3", "--human", "1", "--depth", "1") as term:
        s = term.session
        assert len(s.game.players) == 3 and s.humans == {0}
        header = "".join(text for _, text in term._header())
        assert "you play red, zermelo yellow and green" in header
        while True:
            await until(lambda: settled(term), timeout=60)
            if s.is_over():
                break
            plies = len(s.moves)
            await term.type(_random_move(s, rng))
            assert len(s.moves) > plies and s.movers[plies] == 0, s.message
            # The engine moves for yellow and green, then it is red's turn again.
            await until(lambda: settled(term), timeout=60)
            assert s.is_over() or s.movers[-2:] == [1, 2]
        # Every player's balls in its own colour.
        styles = {word for style, _ in term._board() for word in style.split()}
        assert {"class:red-ball", "class:yellow-ball", "class:green-ball"} <= styles
        ranking = s.engine.ranking()
        assert re.fullmatch(r"\d-\d-\d \w+( and \w+)* first", s.result_text())
        assert s.result_text().startswith("-".join(map(str, ranking)))
        assert all(len(row) == 4 for row in move_rows(s.movers, s.shown, 3))
        await term.type(f"save {tmp_path / 'game.txt'}")
        rec = check_record(s, tmp_path)
        assert rec.players == ("Human", "zermelo", "zermelo") and rec.params == {"players": "3"}
        await term.type("swap")
        assert s.humans == {1}
        await term.type("human 1,3")
        assert s.humans == {0, 2}


def test_players_and_humans_on_the_command_line():
    term = build(["mnkmulti", "--players", "4", "--human", "o,*", "--depth", "1"], output=DummyOutput())
    assert len(term.session.game.players) == 4 and term.session.humans == {1, 3}
    assert build(["rolit", "--human", "all"], output=DummyOutput()).session.humans == {0, 1, 2, 3}
    for argv in (["rolit", "--players", "5"], ["rolit", "--players", "3", "--human", "4"],
                 ["rolit", "--players", "3", "--human", "blue"]):
        with pytest.raises(SystemExit) as exc:
            build(argv, output=DummyOutput())
        assert exc.value.code != 0


def test_move_rows_of_three_players():
    assert move_rows([0, 1, 2, 0], ["d6", "c6", "c3", "b3"], 3) == [(1, "d6", "c6", "c3"), (2, "b3", "", "")]
    assert move_rows([2, 0], ["c3", "b3"], 3) == [(1, "...", "...", "c3"), (2, "b3", "", "")]
