"""GTP (Go Text Protocol version 2) conformance of ``zermelo gtp`` over real pipes:
every command it lists, ids echoed, bad input answered ``? ...`` with the state
kept, genmove's moves legal, interrupt, quit and end of input."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.both_builds

REPO = Path(__file__).resolve().parents[1]
#: Generous: the machine may be loaded; no test measures time.
TIMEOUT = 60.0
REQUIRED = {"protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
            "clear_board", "komi", "play", "genmove"}
MORE = {"undo", "time_settings", "time_left", "final_score", "final_status_list", "showboard", "loadsgf",
        "printsgf", "reg_genmove", "fixed_handicap", "set_free_handicap", "gogui-analyze_commands",
        "gogui-interrupt", "lz-analyze", "kata-analyze", "lz-genmove_analyze", "kata-genmove_analyze",
        "zermelo-ownership"}


class Gtp:
    """A GTP engine process: commands in, answers ``(ok, id, text)`` out."""

    def __init__(self, *args: str, command: tuple[str, ...] = ("gtp", "--movetime", "100")):
        self.proc = subprocess.Popen([sys.executable, "-m", "protocol", *command, *args], cwd=REPO,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.err: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=lambda: self.err.append(self.proc.stderr.read()), daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode())
        self.lines.put(None)

    def send_raw(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def answer(self) -> tuple[bool, str, str]:
        """One answer: its status, its id and its text (lines joined by newlines)."""
        lines = []
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            assert line is not None, "the engine closed its output"
            assert line.endswith("\n"), line
            if line == "\n":
                break
            lines.append(line[:-1])
        m = re.fullmatch(r"([=?])([0-9]*) ?(.*)", lines[0], re.DOTALL)
        assert m, lines
        return m.group(1) == "=", m.group(2), "\n".join([m.group(3), *lines[1:]]).strip()

    def ok(self, command: str) -> str:
        self.send_raw(command.encode() + b"\n")
        ok, _, text = self.answer()
        assert ok, f"{command!r}: {text}"
        return text

    def refused(self, command: str | bytes) -> str:
        self.send_raw((command if isinstance(command, bytes) else command.encode()) + b"\n")
        ok, _, text = self.answer()
        assert not ok, f"{command!r} was accepted: {text}"
        return text

    def close(self) -> int:
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        return self.proc.wait(TIMEOUT)


@pytest.fixture
def gtp():
    engine = Gtp()
    yield engine
    try:
        assert engine.close() == 0
    finally:
        if engine.proc.poll() is None:
            engine.proc.kill()
            engine.proc.wait()


def board(gtp: Gtp) -> list[str]:
    """The rows of ``showboard``, top first, as ``X``/``O``/``.`` strings."""
    return [re.sub(r"[^XO.]", "", line[3:-2]) for line in gtp.ok("showboard").splitlines()
            if re.match(r"\s*[0-9]+ ", line)]


def test_the_required_commands_and_ids(gtp):
    gtp.send_raw(b"12 protocol_version\n")
    assert gtp.answer() == (True, "12", "2")
    assert gtp.ok("name") == "zermelo"
    assert re.fullmatch(r"[0-9.]+", gtp.ok("version"))
    listed = set(gtp.ok("list_commands").split())
    assert REQUIRED | MORE <= listed
    for command in sorted(listed):
        gtp.send_raw(f"7 known_command {command}\n".encode())
        assert gtp.answer() == (True, "7", "true")
    assert gtp.ok("known_command frobnicate") == "false"
    gtp.send_raw(b"3 frobnicate\n")
    ok, ident, text = gtp.answer()
    assert (ok, ident) == (False, "3") and "unknown command" in text
    # Comments, tabs, carriage returns and empty lines are what the specification says.
    gtp.send_raw(b"# a comment\n\n   \n4\tboardsize\t5 # five\r\n")
    assert gtp.answer() == (True, "4", "")
    assert board(gtp) == ["....."] * 5


def test_play_undo_komi_and_the_score(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("clear_board")
    gtp.ok("komi 6.5")
    gtp.ok("play b e5")
    gtp.ok("play white C3")
    gtp.ok("play B pass")
    rows = board(gtp)
    assert rows[4][4] == "X" and rows[6][2] == "O"
    gtp.ok("undo")
    gtp.ok("undo")
    assert board(gtp)[6] == "........."
    # One stone on an empty board owns it all: Black 81 against komi.
    assert gtp.ok("final_score") == "B+74.5"
    gtp.ok("komi 90")
    assert gtp.ok("final_score") == "W+9"
    assert board(gtp)[4] == "....X....", "a new komi keeps the stones"
    assert gtp.ok("final_status_list alive") == "E5"
    assert gtp.ok("final_status_list dead") == ""
    gtp.ok("undo")
    assert gtp.refused("undo") == "cannot undo"


def test_bad_input_is_refused_and_the_state_kept(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("play b e5")
    gtp.ok("play w a2")
    gtp.ok("play w b1")  # GTP allows a colour to play twice
    before = board(gtp)
    assert "point is taken" in gtp.refused("play b e5")
    assert "suicide" in gtp.refused("play b a1")
    assert "invalid vertex" in gtp.refused("play b z9")
    assert "invalid vertex" in gtp.refused("play b e10")
    assert "invalid vertex" in gtp.refused("play b i5")  # the letter I is skipped
    assert "invalid color" in gtp.refused("play x e4")
    assert "syntax error" in gtp.refused("play b")
    assert gtp.refused("boardsize 0") == "unacceptable size"
    assert gtp.refused("boardsize 20") == "unacceptable size"
    assert "syntax error" in gtp.refused("boardsize nine")
    assert "komi" in gtp.refused("komi 0.3")
    assert "syntax error" in gtp.refused("komi much")
    assert "unknown command" in gtp.refused(b"\xff\xfe\x01 \x00garbage")
    assert "syntax error" in gtp.refused("time_left b x 0")
    assert "final_status_list" in gtp.refused("final_status_list maybe")
    assert "board not empty" in gtp.refused("fixed_handicap 2")
    assert "cannot load file" in gtp.refused("loadsgf /nonexistent/game.sgf")
    assert board(gtp) == before
    gtp.ok("play b d4")  # still playing on
    assert board(gtp)[5][3] == "X"


def test_ko_and_superko_are_refused(gtp):
    gtp.ok("boardsize 9")
    for move in ("b d5", "w f6", "b e6", "w f4", "b e4", "w g5", "b c9", "w e5", "b f5"):
        gtp.ok(f"play {move}")  # Black takes the ko at F5
    assert "ko" in gtp.refused("play w e5")
    # On 2x2, Black at A1 after the cycle recreates the board of move 1: positional superko.
    gtp.ok("boardsize 2")
    for move in ("b a1", "w b2", "b a2", "w b1", "b a1", "w a2"):
        gtp.ok(f"play {move}")
    before = board(gtp)
    assert "superko" in gtp.refused("play b a1")
    assert board(gtp) == before == ["OO", ".O"]


def test_genmove_plays_legal_moves_and_reg_genmove_does_not_play(gtp):
    gtp.ok("boardsize 7")
    gtp.ok("komi 0")
    for i, colour in enumerate("bwbwbw"):
        gtp.send_raw(f"{i + 1} genmove {colour}\n".encode())
        ok, ident, move = gtp.answer()
        assert ok and ident == str(i + 1)
        assert re.fullmatch(r"[A-G][1-7]|pass", move), move
        if move != "pass":  # played: the point holds the mover's stone
            assert board(gtp)[7 - int(move[1])]["ABCDEFG".index(move[0])] == "XO"[i % 2]
    rows = board(gtp)
    move = gtp.ok("reg_genmove b")
    assert re.fullmatch(r"[A-HJ]\d|pass", move) and board(gtp) == rows
    if move != "pass":
        gtp.ok(f"play b {move}")  # the move it proposed is legal
    # With the controller's clock, genmove still answers a legal move.
    gtp.ok("time_settings 30 5 1")
    gtp.ok("time_left w 2 1")
    assert re.fullmatch(r"[A-HJ]\d|pass", gtp.ok("genmove w"))


def test_genmove_out_of_turn_and_after_the_game_ended(gtp):
    gtp.ok("boardsize 5")
    gtp.ok("play b c3")
    move = gtp.ok("genmove b")  # Black again: GTP allows it
    assert move == "pass" or board(gtp)[5 - int(move[1:])]["ABCDE".index(move[0])] == "X"
    gtp.ok("clear_board")
    gtp.ok("play b pass")
    gtp.ok("play w pass")
    assert gtp.ok("final_score") == "0"
    gtp.ok("play b c3")  # the game goes on after two passes, as GNU Go and GUIs let it
    assert board(gtp)[2][2] == "X"


def test_handicap(gtp):
    gtp.ok("boardsize 9")
    assert gtp.ok("fixed_handicap 4").split() == ["C3", "G7", "C7", "G3"]
    rows = board(gtp)
    assert rows[6][2] == rows[2][6] == rows[2][2] == rows[6][6] == "X"
    assert gtp.ok("genmove w")  # White moves first after handicap
    gtp.ok("clear_board")
    assert "invalid handicap" in gtp.refused("fixed_handicap 10")
    assert "invalid handicap" in gtp.refused("fixed_handicap 1")
    assert len(gtp.ok("fixed_handicap 9").split()) == 9
    gtp.ok("clear_board")
    assert "bad vertex list" in gtp.refused("set_free_handicap a1")
    assert "bad vertex list" in gtp.refused("set_free_handicap a1 a1")
    gtp.ok("set_free_handicap a1 j9 e5")
    assert board(gtp)[0][8] == "X" and board(gtp)[8][0] == "X"


def test_sgf_round_trip(gtp, tmp_path):
    gtp.ok("boardsize 9")
    gtp.ok("komi 5.5")
    moves = ["b e5", "w c3", "b g7", "w pass", "b c7"]
    for move in moves:
        gtp.ok(f"play {move}")
    rows = board(gtp)
    sgf = gtp.ok("printsgf")
    assert "SZ[9]" in sgf and "KM[5.5]" in sgf and ";W[cg]" in sgf
    path = tmp_path / "game.sgf"
    gtp.ok(f"printsgf {path}")
    gtp.ok("boardsize 13")
    assert gtp.ok(f"loadsgf {path}") == "white"
    assert board(gtp) == rows and gtp.ok("final_score") == "W+3.5"  # 3 stones to 1, 5.5 komi
    assert gtp.ok(f"loadsgf {path} 3") == "black"  # the position before move 3
    assert sum(row.count("X") + row.count("O") for row in board(gtp)) == 2
    gtp.ok("undo")
    assert sum(row.count("X") + row.count("O") for row in board(gtp)) == 1
    # A damaged file is refused and the game kept.
    kept = board(gtp)
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;GM[1]SZ[9];B[ee];W[ee" + bytes(range(256)))
    assert "cannot load file" in gtp.refused(f"loadsgf {bad}")
    big = tmp_path / "big.sgf"
    big.write_text("(;GM[1]SZ[25])")
    assert "cannot load file" in gtp.refused(f"loadsgf {big}")
    assert board(gtp) == kept


def test_interrupt_ends_a_long_genmove(gtp):
    gtp.ok("gogui-interrupt")
    gtp.ok("boardsize 9")
    gtp.ok("zermelo-movetime 600000")  # ten minutes: only the interrupt can end it in time
    gtp.send_raw(b"5 genmove b\n")
    gtp.send_raw(b"# interrupt\n")
    ok, ident, move = gtp.answer()
    assert ok and ident == "5" and re.fullmatch(r"[A-HJ]\d|pass", move)
    assert gtp.ok("version")


def test_quit_and_end_of_input_end_the_process():
    engine = Gtp()
    engine.send_raw(b"9 quit\n")
    assert engine.answer() == (True, "9", "")
    assert engine.proc.wait(TIMEOUT) == 0
    # End of input during a search: the move is still answered, then the process ends.
    engine = Gtp()
    engine.ok("zermelo-movetime 600000")
    engine.send_raw(b"genmove b\n")
    engine.proc.stdin.close()
    ok, _, move = engine.answer()
    assert ok and re.fullmatch(r"[A-HJ]\d|pass", move)
    assert engine.proc.wait(TIMEOUT) == 0


def test_the_plain_server_switches_to_gtp_on_a_gtp_command():
    engine = Gtp(command=())
    engine.send_raw(b"1 protocol_version\n")
    assert engine.answer() == (True, "1", "2")
    engine.ok("boardsize 5")
    assert board(engine) == ["....."] * 5
    assert engine.close() == 0


def test_analyze_commands_are_commands(gtp):
    gtp.ok("boardsize 5")
    gtp.ok("play b c3")
    for line in gtp.ok("gogui-analyze_commands").splitlines():
        kind, label, command = line.split("/", 2)
        assert kind in ("string", "plist", "none", "sboard", "dboard", "gfx") and label
        gtp.ok(command.replace("%c", "w"))
    assert "C3" not in gtp.ok("all_legal w").split()


def test_time_settings_become_the_search_limits():
    from engine.timeman import GtpClock, byo_yomi_budget
    from protocol.server.gtp import GtpCommands

    table = GtpCommands(server=None)
    table.movetime = 250
    assert table.limits(0).movetime == 250  # no settings: the fixed move time
    table.clock = GtpClock(600_000, 30_000, 5)  # 10 minutes, then 30 s per 5 stones
    # Main time: a share of it, plus what a byo-yomi move gets (6 s), less the margin.
    assert table.limits(1).movetime == byo_yomi_budget(600_000 // 50 + 6_000)
    table.left[1] = (1_000, 0)  # main time nearly out: the period carries the move
    assert table.limits(1).movetime == byo_yomi_budget(1_000 // 50 + 6_000)
    table.left[1] = (20_000, 4)  # in byo-yomi: 20 s for 4 stones
    assert table.limits(1).movetime == byo_yomi_budget(5_000)
    table.clock = GtpClock(0, 1, 0)  # GTP's "no time limits"
    assert table.limits(1).movetime == 250
    table.clock, table.left = GtpClock(300_000, 0, 0), [(42_000, 0), None]  # absolute time
    limits = table.limits(0)
    assert (limits.time, limits.inc, limits.movestogo, limits.movetime) == ((42_000, None), (0, 0), None, None)
    table.clock, table.left = GtpClock(60_000, 10_000, 3, japanese=True), [(7_000, 2), None]
    assert table.limits(0).movetime == byo_yomi_budget(7_000)  # Japanese: the period's time left
    # time_left without time_settings still gives the clock.
    table = GtpCommands(server=None)
    table.left[0] = (5_000, 0)
    assert table.limits(0).time == (5_000, None)


@pytest.mark.parametrize("strategy", ["mcts", "alphabeta"])
def test_byo_yomi_of_one_stone_spends_most_of_the_period(strategy):
    """The match runner's "2 s a move" (Canadian byo-yomi of one stone in 2 s) over
    pipes: the budget the server announces for the engine's clock is most of the 2 s,
    whatever the strategy. GoGui's interrupt ends the search at once: the budget is
    tested, not the time taken."""
    gtp = Gtp()
    gtp.ok("boardsize 7")
    gtp.ok(f"zermelo-setoption Strategy {strategy}")
    gtp.ok("time_settings 0 2 1")
    gtp.ok("time_left b 2 1")
    gtp.send_raw(b"9 genmove b\n# interrupt\n")
    assert gtp.answer()[:2] == (True, "9")
    assert gtp.close() == 0
    said = b"".join(gtp.err).decode()
    soft, hard = map(int, re.search(r"genmove b: ([0-9]+) ms, at most ([0-9]+) ms", said).groups())
    assert 1_700 <= soft == hard < 2_000


def test_kgs_time_settings(gtp):
    from engine.timeman import GtpClock

    gtp.ok("kgs-time_settings byoyomi 60 10 3")
    gtp.ok("kgs-time_settings canadian 60 30 5")
    gtp.ok("kgs-time_settings absolute 300")
    gtp.ok("kgs-time_settings none")
    for bad in ("kgs-time_settings", "kgs-time_settings byoyomi 60 10", "kgs-time_settings sudden 5",
                "kgs-time_settings canadian 60 -1 5", "kgs-time_settings byoyomi 60 10 0"):
        assert "syntax error" in gtp.refused(bad)
    assert GtpClock(0, 5_000, 0).unlimited and not GtpClock(0, 5_000, 0, japanese=True).unlimited


#: One candidate of an analysis line, as Leela Zero writes it (KataGo's win rate is a fraction).
CANDIDATE = re.compile(r"info move (\S+) visits ([1-9][0-9]*) winrate ([0-9.]+) prior 0 order ([0-9]+) pv \1((?: \S+)*?)")


def candidates(line: str) -> list[tuple[str, int, str, int]]:
    """The ``(move, visits, winrate, order)`` of each candidate of one analysis line, the
    ownership cut off; asserts the line is nothing but candidates."""
    line = line.rstrip("\n").split(" ownership ")[0]
    found = []
    for piece in re.split(r" (?=info move )", line):
        m = CANDIDATE.fullmatch(piece)
        assert m, piece
        found.append((m.group(1), int(m.group(2)), m.group(3), int(m.group(4))))
    return found


def analysis_lines(gtp, command: str, ident: str, stop: str) -> list[str]:
    """The lines an analysis streams: at least one before ``stop`` (a command) ends it."""
    gtp.send_raw(f"{ident} {command}\n".encode())
    assert gtp.lines.get(timeout=TIMEOUT) == f"={ident}\n"
    infos = [gtp.lines.get(timeout=TIMEOUT)]
    gtp.send_raw(f"{stop}\n".encode())
    while (line := gtp.lines.get(timeout=TIMEOUT)) != "\n":
        infos.append(line)
    return infos


def test_lz_analyze_streams_until_the_next_command(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("play b e5")
    rows = board(gtp)
    legal = set(gtp.ok("all_legal w").split())
    # A pass is a candidate as any point is (KataGo lists it too); all_legal names points only.
    for line in analysis_lines(gtp, "lz-analyze w interval 5", "4", "5 version"):
        found = candidates(line)
        assert [order for *_, order in found] == list(range(len(found))) and len(found) <= 10, line
        for move, _, winrate, _ in found:
            assert move in legal | {"pass"} and winrate.isdigit() and 0 <= int(winrate) <= 10000, line
    assert gtp.answer()[:2] == (True, "5")
    assert board(gtp) == rows and gtp.ok("genmove w") in legal


def test_kata_analyze_adds_the_ownership_sabaki_asks_for(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("play b e5")
    gtp.ok("play w d5")
    gtp.ok("play b f4")
    rows = board(gtp)
    for line in analysis_lines(gtp, "kata-analyze w 5 ownership true", "6", "7 name"):
        found = candidates(line)
        assert all(0 <= float(winrate) <= 1 and "." in winrate for _, _, winrate, _ in found), line
        owner = [float(v) for v in line.split(" ownership ")[1].split()]
        # White's view, rows from the top: Black's E5 (row 5 from the top, column 5) is White's loss.
        assert len(owner) == 81 and all(-1 <= v <= 1 for v in owner)
        assert owner[4 * 9 + 4] < 0 < owner[4 * 9 + 3], owner
    assert gtp.answer() == (True, "7", "zermelo")
    assert board(gtp) == rows
    dboard = [[float(v) for v in row.split()] for row in gtp.ok("zermelo-ownership").splitlines()]
    assert len(dboard) == 9 and all(len(row) == 9 for row in dboard)
    assert dboard[4][4] > 0 > dboard[4][3]  # Black's view: E5 Black's, D5 White's


def test_gogui_candidates_are_graphics(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("play b e5")
    rows = board(gtp)
    legal = set(gtp.ok("all_legal w").split())
    gfx = dict(line.split(" ", 1) for line in gtp.ok("zermelo-candidates w").splitlines())
    influence = gfx["INFLUENCE"].split()
    assert len(influence) == 2 * 81 and influence[:2] == ["A9", influence[1]] and -1 <= float(influence[1]) <= 1
    labels = gfx["LABEL"].split()
    assert set(labels[::2]) <= legal and all(re.fullmatch(r"[0-9]{1,3}%", label) for label in labels[1::2])
    var = gfx["VAR"].split()
    assert var[1] in legal and var[0::2] == ["wb"[i % 2] for i in range(len(var) // 2)], var
    assert re.fullmatch(r"White [0-9]{1,3}%, [1-9][0-9]* visits", gfx["TEXT"])
    assert board(gtp) == rows


def test_genmove_analyze_streams_then_plays(gtp):
    gtp.ok("boardsize 9")
    gtp.ok("play b e5")
    legal = set(gtp.ok("all_legal w").split())
    gtp.send_raw(b"3 lz-genmove_analyze w 5\n")
    assert gtp.lines.get(timeout=TIMEOUT) == "=3\n"
    lines = []
    while (line := gtp.lines.get(timeout=TIMEOUT)) != "\n":
        lines.append(line.rstrip("\n"))
    assert lines[-1].startswith("play ") and lines[-1][5:] in legal, lines
    for line in lines[:-1]:
        assert all(move in legal | {"pass"} for move, *_ in candidates(line)), line
    # The move is played: its point is taken.
    assert gtp.refused(f"play b {lines[-1][5:]}").startswith("illegal move")


@pytest.mark.parametrize("command", ["lz-analyze w interval", "kata-analyze b 5 ownership maybe",
                                     "kata-analyze b 5 depth 3", "lz-genmove_analyze", "lz-analyze purple 5",
                                     "kata-genmove_analyze b 5 interval"])
def test_bad_analysis_arguments_are_refused(gtp, command):
    gtp.ok("boardsize 9")
    gtp.ok("play b e5")
    rows = board(gtp)
    assert gtp.refused(command).startswith(("syntax error", "invalid color"))
    assert board(gtp) == rows and gtp.ok("name") == "zermelo"


def test_stones_the_opponent_owns_at_the_end_are_dead(gtp):
    """Black's wall A4-E4 with B5 and E5 lives unconditionally (A5 and D5 are two vital
    regions: White can fill neither), so the White stone on C5, in a region every point
    of which touches that wall, is dead: the score counts C5 and D5 for Black."""
    gtp.ok("boardsize 5")
    for vertex in ("a4", "b4", "c4", "d4", "e4", "b5", "e5"):
        gtp.ok(f"play b {vertex}")
    gtp.ok("play w c5")
    assert board(gtp)[:2] == [".XO.X", "XXXXX"]
    assert gtp.ok("final_status_list dead") == "C5"
    assert set(gtp.ok("final_status_list alive").split()) == {"A4", "B4", "C4", "D4", "E4", "B5", "E5"}
    assert gtp.ok("final_status_list seki") == ""
    # Tromp-Taylor would give Black 7 stones, A5 and the 15 points below: B+22 less White's stone.
    assert gtp.ok("final_score") == "B+25"
    # A wall with one region above it is not proven alive (Benson), but a lone White
    # stone cannot live on its edge either: the playouts' owner marks it dead, as a
    # player would, and the area is Black's.
    gtp.ok("clear_board")
    for vertex in ("a4", "b4", "c4", "d4", "e4"):
        gtp.ok(f"play b {vertex}")
    gtp.ok("play w c5")
    assert gtp.ok("final_status_list dead") == "C5"
    assert len(gtp.ok("final_status_list alive").split()) == 5
    assert gtp.ok("final_score") == "B+25"
