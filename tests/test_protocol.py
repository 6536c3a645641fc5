"""Scripted dialogues with the real server over pipes (``python -m protocol``).

Each test starts a server process and checks what a GUI or match runner
relies on: the handshake, exactly one ``bestmove`` per ``go``, a reader that
stays live during the search, ponder and infinite searches that wait for
``stop``/``ponderhit``, error lines for bad input with the state kept, UGI
queries, long lines and a clean exit at end of input. Facts about the games
come from published figures (perft) and the rules, not from zermelo.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import games
from protocol.server import uci

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 10.0


class Pipe:
    """A server process spoken to line by line; its stderr must stay empty."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "protocol", *args], cwd=REPO, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.err: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self._err_reader = threading.Thread(target=lambda: self.err.append(self.proc.stderr.read()), daemon=True)
        self._err_reader.start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode().rstrip("\r\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
        self.proc.stdin.flush()

    def line(self, timeout: float = TIMEOUT) -> str:
        line = self.lines.get(timeout=timeout)
        assert line is not None, "server closed its output"
        return line

    def until(self, pattern: str, timeout: float = TIMEOUT) -> list[str]:
        """Lines up to and including the first that matches ``pattern`` (a regex, from the start)."""
        out, deadline = [], time.monotonic() + timeout
        while True:
            out.append(self.line(max(0.01, deadline - time.monotonic())))
            if re.match(pattern, out[-1]):
                return out

    def quiet(self, seconds: float) -> list[str]:
        """Every line that arrives within ``seconds``."""
        out, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            out.append(line)
        return out

    def handshake(self, dialect: str = "uci") -> list[str]:
        self.send(dialect)
        return self.until(f"{dialect}ok$")

    def ready(self) -> None:
        self.send("isready")
        self.until("readyok$")

    def close(self) -> int:
        """Close the server's input (end of file) and return its exit status."""
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        code = self.proc.wait(TIMEOUT)
        self._err_reader.join(TIMEOUT)
        return code


@pytest.fixture
def pipe():
    p = Pipe()
    yield p
    try:
        assert p.close() == 0  # end of input is a clean exit, whatever state the test left
    finally:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()
    assert not b"".join(p.err), b"".join(p.err).decode()


def start(pipe: Pipe, game: str, dialect: str = "uci") -> None:
    pipe.handshake(dialect)
    pipe.send(f"setoption name UCI_Variant value {game}")
    pipe.ready()


def bestmove(lines: list[str]) -> str:
    assert lines[-1].startswith("bestmove "), lines
    return lines[-1].split()[1]


def infos(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info ") and not line.startswith("info string")]


def legal_texts(game: str, text: str | None = None, moves: tuple[str, ...] = ()) -> set[str]:
    pos = games.load(game).new_position(text)
    for m in moves:
        pos.push(pos.parse_move(m))
    return {pos.move_text(m) for m in pos.legal_moves()}


# -- parsing (no process) ------------------------------------------------------------


def test_split_command_skips_unknown_words():
    assert uci.split_command("\t  debug \t on\t") == ("debug", ["on"], [])
    assert uci.split_command("joho debug on") == ("debug", ["on"], ["joho"])
    assert uci.split_command("nonsense here")[0] is None


def test_parse_go_collects_errors_and_searchmoves():
    go = uci.parse_go("wtime 1000 btime x depth searchmoves e2e4 0000 d2d4".split())
    assert go.ints == {"wtime": 1000}
    assert go.searchmoves == ["e2e4", "d2d4"]
    assert len(go.errors) == 1 and "btime" in go.errors[0] and "depth" in go.errors[0]
    assert uci.parse_go(["searchmoves", "0000"]).searchmoves == []


def test_parse_setoption_and_position():
    assert uci.parse_setoption("name Clear Hash".split()) == ("Clear Hash", None)
    assert uci.parse_setoption("name BookFile value".split()) == ("BookFile", "")
    assert uci.parse_position(["startpos", "moves"]) == (None, [])
    with pytest.raises(ValueError):
        uci.parse_position(["moves", "e2e4"])


def test_scores_follow_uci_conventions():
    from engine.game import KNOWN_WIN, WIN

    assert uci.format_score(WIN - 1) == "mate 1"  # a win one ply away is mate in 1 move
    assert uci.format_score(WIN - 3) == "mate 2"
    assert uci.format_score(-WIN + 2) == "mate -1"
    assert uci.format_score(KNOWN_WIN - 4) == f"cp {uci.TABLE_WIN_CP - 4}"
    assert uci.format_score(-35) == "cp -35"
    assert uci.wdl(WIN - 5) == (1000, 0, 0) and uci.wdl(-WIN + 8) == (0, 0, 1000)
    w, d, l = uci.wdl(0)
    assert w == l and w + d + l == 1000
    assert uci.wdl(300)[0] > uci.wdl(100)[0] > uci.wdl(-100)[0]
    # Heuristic scores reach up to EVAL_LIMIT.
    from engine.game import EVAL_LIMIT

    assert uci.wdl(EVAL_LIMIT - 1) == (1000, 0, 0) and uci.wdl(1 - EVAL_LIMIT) == (0, 0, 1000)


# -- handshake and options ---------------------------------------------------------


def test_handshake_lists_every_option_once(pipe):
    lines = pipe.handshake()
    assert lines[0].startswith("id name ") and lines[1].startswith("id author ")
    options = [line for line in lines if line.startswith("option ")]
    # id name, id author, the options, the build's info string, uciok.
    assert lines[-2].startswith("info string build: ")
    assert len(options) == len(lines) - 4
    names = [re.match(r"option name (.+?) type ", line).group(1) for line in options]
    assert len(names) == len(set(names))
    for required in ("Hash", "Threads", "Clear Hash", "Ponder", "MultiPV", "Move Overhead", "UCI_ShowWDL",
                     "UCI_Chess960", "OwnBook", "BookFile", "SyzygyPath", "SyzygyProbeDepth",
                     "Syzygy50MoveRule", "SyzygyProbeLimit", "UCI_Variant", "UCI_AnalyseMode", "UCI_Opponent"):
        assert required in names
    variant = next(line for line in options if line.startswith("option name UCI_Variant "))
    assert variant.split(" var ")[1:] == games.names()
    assert "option name Move Overhead type spin default 10 min 0 max 5000" in options
    assert "option name kalah_pits type spin default 6 min 3 max 8" in options
    assert pipe.close() == 0


def test_probes_before_the_handshake_get_one_plain_line_each(pipe):
    # An xboard GUI probing ignores lines it does not know; nothing else comes unasked.
    pipe.send("xboard", "protover 2")
    assert [pipe.line(), pipe.line()] == [
        f"unknown command {word!r}; type 'uci' (or 'ugi') to start, or 'help'" for word in ("xboard", "protover 2")]
    assert pipe.quiet(0.3) == []
    pipe.send("blah blah")
    assert pipe.line().startswith("unknown command 'blah blah'")
    pipe.handshake()
    pipe.send("blah blah")
    assert pipe.quiet(0.3) == ["info string error: unknown command 'blah blah'"]


def test_bad_option_values_are_reported_and_ignored(pipe):
    pipe.handshake()
    for cmd in ("setoption name Hash value 0", "setoption name Hash value lots", "setoption name NoSuch value 1",
                "setoption name UCI_Chess960 value maybe", "setoption name Ponder value maybe",
                "setoption name UCI_Variant value shogi", "setoption name kalah_pits value 99", "setoption Hash"):
        pipe.send(cmd)
        line = pipe.line()
        assert line.startswith("info string error: "), (cmd, line)
    pipe.send("setoption name move   overhead value 100", "setoption name clear hash",
              "setoption name SyzygyPath value /no where/at all", "setoption name BookFile value <empty>",
              "setoption name UCI_Opponent value GM 2800 human Some One")
    pipe.ready()
    pipe.send("setoption name Threads value 4")
    assert pipe.line().startswith("info string Threads 4: two-player games are searched by ")


def test_variant_and_game_parameters_reset_the_position(pipe):
    start(pipe, "nim")
    pipe.send("position startpos moves 2 1", "d")
    assert "Text: 4 1" in pipe.until("Legal moves")
    pipe.send("setoption name nim_heaps value 3, 4, 5", "d")
    assert "Text: 3,4,5 1" in pipe.until("Legal moves")
    pipe.send("position fen 3,4,5 2 moves 3:5", "setoption name UCI_Variant value othello", "d")
    assert "Game: reversi" in pipe.until("Legal moves")
    pipe.send("setoption name UCI_Variant value nim", "d")
    assert "Text: 3,4,5 1" in pipe.until("Legal moves")  # the parameter outlives the game switch


# -- go and bestmove ---------------------------------------------------------------


def test_go_depth_info_lines_and_one_bestmove(pipe):
    start(pipe, "reversi")
    pipe.send("position startpos moves f5", "go depth 3")
    lines = pipe.until("bestmove")
    best = bestmove(lines)
    assert best in legal_texts("reversi", moves=("f5",))
    info = infos(lines)
    assert info
    pattern = (r"info depth \d+ seldepth \d+ multipv 1 score (cp|mate) -?\d+( lowerbound| upperbound)? "
               r"nodes \d+ nps \d+ hashfull \d+ tbhits \d+ time \d+ pv (\S+)( \S+)*$")
    for line in info:
        assert re.match(pattern, line), line
    assert info[-1].split(" pv ")[1].split()[0] == best
    ponder = lines[-1].split()
    if len(ponder) == 4:
        assert ponder[2] == "ponder" and ponder[3] in legal_texts("reversi", moves=("f5", best))
    assert pipe.quiet(0.3) == []


def test_show_wdl_and_multipv(pipe):
    start(pipe, "connect4")
    pipe.send("setoption name UCI_ShowWDL value true", "setoption name MultiPV value 3", "go depth 2")
    lines = pipe.until("bestmove")
    last = {int(re.search(r"multipv (\d+)", line).group(1)): line for line in infos(lines)}
    assert sorted(last) == [1, 2, 3]
    firsts = {last[k].split(" pv ")[1].split()[0] for k in last}
    assert len(firsts) == 3
    for line in last.values():
        w, d, l = map(int, re.search(r" wdl (\d+) (\d+) (\d+) nodes ", line).groups())
        assert w + d + l == 1000


def test_isready_answered_during_search_without_stopping_it(pipe):
    start(pipe, "reversi")
    pipe.send("go infinite")
    time.sleep(0.2)
    pipe.send("isready")
    lines = pipe.until("readyok")
    assert not any(line.startswith("bestmove") for line in lines)
    assert not any(line.startswith("bestmove") for line in pipe.quiet(0.3))
    pipe.send("stop")
    assert bestmove(pipe.until("bestmove")) in legal_texts("reversi")
    assert pipe.quiet(0.3) == []


def test_infinite_search_holds_its_bestmove_until_stop(pipe):
    # Misère Nim with 5 coins, take 1 or 2: solved within a few plies, so the
    # search ends by itself long before the stop.
    start(pipe, "nim")
    pipe.send("position fen 5 1", "go infinite")
    assert not any(line.startswith("bestmove") for line in pipe.quiet(0.5))
    pipe.send("stop")
    assert bestmove(pipe.until("bestmove")) == "1"  # leave 4 ≡ 1 (mod 3): the only winning move
    pipe.send("stop")
    assert pipe.quiet(0.3) == []


def test_ponder_then_ponderhit_becomes_a_timed_search(pipe):
    start(pipe, "reversi")
    pipe.send("setoption name Ponder value true", "position startpos moves f5 d6", "go ponder wtime 300 btime 300")
    assert not any(line.startswith("bestmove") for line in pipe.quiet(0.5))
    pipe.send("ponderhit")
    best = bestmove(pipe.until("bestmove"))  # a ponder search that stayed one would never end
    assert best in legal_texts("reversi", moves=("f5", "d6"))


def test_ponder_miss_stop_then_new_search(pipe):
    start(pipe, "reversi")
    pipe.send("position startpos moves f5 d6", "go ponder wtime 60000 btime 60000")
    time.sleep(0.2)
    pipe.send("stop")
    assert bestmove(pipe.until("bestmove")) in legal_texts("reversi", moves=("f5", "d6"))
    pipe.send("position startpos moves f5 f6", "go movetime 100")
    assert bestmove(pipe.until("bestmove")) in legal_texts("reversi", moves=("f5", "f6"))


def test_position_during_search_first_finishes_it(pipe):
    start(pipe, "reversi")
    pipe.send("go infinite")
    time.sleep(0.2)
    pipe.send("position startpos moves f5", "go depth 1")
    first = pipe.until("bestmove")
    second = pipe.until("bestmove")
    assert bestmove(first) in legal_texts("reversi")
    assert bestmove(second) in legal_texts("reversi", moves=("f5",))
    assert pipe.quiet(0.3) == []


def test_setoption_and_ucinewgame_during_search_first_finish_it(pipe):
    start(pipe, "connect4")
    for cmd in ("setoption name Hash value 8", "ucinewgame"):
        pipe.send("go infinite")
        time.sleep(0.1)
        pipe.send(cmd, "isready")
        lines = pipe.until("readyok")
        assert [line for line in lines if line.startswith("bestmove")] == lines[-2:-1], lines
        assert not any(line.startswith("info string error") for line in lines)


def test_bestmove_none_when_the_game_is_over(pipe):
    start(pipe, "nim")
    pipe.send("position fen 0 1", "go depth 3")
    assert pipe.until("bestmove")[-1] == "bestmove (none)"
    pipe.send("go infinite")
    assert pipe.quiet(0.4) == []
    pipe.send("stop")
    assert pipe.until("bestmove")[-1] == "bestmove (none)"


def test_searchmoves_restricts_the_root(pipe):
    start(pipe, "reversi")
    pipe.send("go depth 3 searchmoves c4")
    assert bestmove(pipe.until("bestmove")) == "c4"
    pipe.send("go depth 2 searchmoves 0000")  # python-chess's way to write an empty list
    assert bestmove(pipe.until("bestmove")) in legal_texts("reversi")


def test_every_go_parameter_is_accepted(pipe):
    start(pipe, "connect4")
    pipe.send("go wtime 1000 btime 1200 winc 10 binc 10 movestogo 20 depth 3 nodes 100000 mate 5 movetime 500")
    lines = pipe.until("bestmove")
    assert not any(line.startswith("info string") for line in lines)
    assert bestmove(lines) in legal_texts("connect4")


def test_nonsense_go_values_still_give_one_bestmove(pipe):
    start(pipe, "connect4")
    pipe.send("go depth banana wtime -5 btime -5 nodes")
    lines = pipe.until("bestmove")
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1  # one line per bad input line, however many bad values
    assert bestmove(lines) in legal_texts("connect4")


def test_go_perft_matches_published_counts(pipe):
    start(pipe, "reversi")
    pipe.send("go perft 4")
    lines = pipe.until("Nodes searched")
    assert lines[-1] == "Nodes searched: 244"  # Othello perft(4) from the start
    assert lines[-2] == ""
    divided = dict(line.split(": ") for line in lines[:-2])
    assert set(divided) == {"d3", "c4", "f5", "e6"}
    assert sum(map(int, divided.values())) == 244


# -- bad input ---------------------------------------------------------------------


def test_bad_positions_keep_the_previous_one(pipe):
    start(pipe, "reversi")
    pipe.send("position startpos moves f5 d6", "d")
    before = [line for line in pipe.until("Legal moves") if line.startswith("Text: ")]
    for bad in ("position fen this is not a board", "position startpos moves f5 d6 a1",
                "position startpos moves f5 zz9", "position", "position moves f5", "position fen"):
        pipe.send(bad)
        lines = pipe.quiet(0.3)
        assert len(lines) == 1 and lines[0].startswith("info string error: "), (bad, lines)
    pipe.send("d")
    assert [line for line in pipe.until("Legal moves") if line.startswith("Text: ")] == before
    pipe.send("position startpos moves")
    pipe.ready()


def test_garbage_and_long_lines_do_not_kill_the_server(pipe):
    start(pipe, "nim")
    pipe.send("x" * 1_000_000)
    assert pipe.line().startswith("info string error: unknown command")
    pipe.send("\x00\x01\xff garbage", "go", "setoption", "debug maybe", "query what")
    errors = pipe.quiet(0.5)
    bests = [line for line in errors if line.startswith("bestmove")]
    assert len(bests) == 1
    assert all(line.startswith(("info", "bestmove")) for line in errors)
    pipe.ready()


def test_six_hundred_plies_replay(pipe):
    # Nim with 16 heaps of 255 coins, taking one at a time: 4080 plies are possible.
    start(pipe, "nim")
    pipe.send("setoption name nim_heaps value " + ",".join(["255"] * 16), "setoption name nim_max_take value 1")
    moves = [f"{ply % 16 + 1}:1" for ply in range(640)]
    pipe.send("position startpos moves " + " ".join(moves), "d")
    lines = pipe.until("Legal moves")
    assert "Text: " + ",".join(["215"] * 16) + " 1" in lines
    pipe.send("position startpos moves " + " ".join(moves + ["1:1"]), "go depth 1")
    assert bestmove(pipe.until("bestmove")).endswith(":1")


# -- UGI -----------------------------------------------------------------------------


def test_ugi_dialogue(pipe):
    lines = pipe.handshake("ugi")
    assert lines[-1] == "ugiok" and "uciok" not in lines
    pipe.send("setoption name UCI_Variant value nim", "uginewgame", "isready")
    pipe.until("readyok")
    pipe.send("position startpos", "query gameover", "query p1turn", "query result")
    assert [pipe.line(), pipe.line(), pipe.line()] == ["response false", "response true", "response none"]
    pipe.send("go p1time 1000 p2time 1000 p1inc 10 p2inc 10")
    line = pipe.until("bestmove")[-1]
    assert len(line.split()) == 2 and line.split()[1] in {"1", "2"}
    # Misère Nim: the player who takes the last coin loses, so with no coins
    # left and player 1 to move, player 2 took the last one and player 1 won.
    pipe.send("position fen 0 1", "query gameover", "query p1turn", "query result")
    assert [pipe.line(), pipe.line(), pipe.line()] == ["response true", "response true", "response p1win"]
    pipe.send("position fen 0 2", "query result")
    assert pipe.line() == "response p2win"
    # Tic-tac-toe: X (the first player) completes the a-file.
    pipe.send("setoption name UCI_Variant value tictactoe", "position startpos moves a1 b1 a2 b2 a3",
              "query gameover", "query result", "go depth 2")
    assert [pipe.line(), pipe.line(), pipe.line()] == ["response true", "response p1win", "bestmove (none)"]


def test_ugi_kalah_extra_turn_keeps_the_mover(pipe):
    # Kalah(6,4): the 4 seeds of pit 3 go to pits 4, 5, 6 and the store, so the
    # mover plays again; from pit 4 the last seed reaches the opponent's side.
    start(pipe, "kalah", "ugi")
    pipe.send("position startpos moves 3", "query p1turn")
    assert pipe.line() == "response true"
    pipe.send("position startpos moves 4", "query p1turn")
    assert pipe.line() == "response false"
    pipe.send("go depth 2")
    assert len(pipe.until("bestmove")[-1].split()) == 2


# -- process lifetime -------------------------------------------------------------


def test_end_of_input_mid_search_exits_cleanly(pipe):
    start(pipe, "reversi")
    pipe.send("go infinite")
    time.sleep(0.2)
    assert pipe.close() == 0  # within the pipe's timeout, although the search was infinite


def test_quit_exits_cleanly(pipe):
    start(pipe, "nim")
    pipe.send("quit")
    assert pipe.proc.wait(TIMEOUT) == 0


def test_debug_reports_skipped_words(pipe):
    pipe.handshake()
    pipe.send("joho debug on", "joho isready")
    lines = pipe.until("readyok")
    assert lines == ["info string ignored 'joho'", "readyok"]
