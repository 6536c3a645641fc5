"""What a person or a GUI meets at the protocol, over real pipes: ``help`` and
unknown input before the handshake, ``go mate`` with more than two players, the
figures of an exact root answer, options of a game not being played,
``UCI_Chess960`` against ``UCI_Variant``, N-player info lines, a damaged option
cache and the signals a GUI's Ctrl-C sends."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import time

from test_protocol import REPO, TIMEOUT, Pipe, bestmove, infos, legal_texts, pipe, start  # noqa: F401 - fixture

# -- help and unknown input --------------------------------------------------------------


def test_unknown_input_before_the_handshake_says_how_to_start(pipe):
    pipe.send("foo bar")
    line = pipe.line()
    assert "unknown command 'foo bar'" in line and "'uci'" in line and "'help'" in line, line
    assert pipe.quiet(0.3) == []  # one line per unknown line
    pipe.send("", "   ")  # blank lines stay unanswered
    assert pipe.quiet(0.3) == []
    pipe.send("help")
    text = pipe.quiet(0.5)
    assert text and not any(line.startswith("info") for line in text), text
    assert any(line.split()[:1] == ["uci"] for line in text) and any("quit" in line for line in text)
    pipe.handshake()
    pipe.send("foo bar")  # after the handshake: the error line clients already know
    assert pipe.quiet(0.3) == ["info string error: unknown command 'foo bar'"]
    pipe.send("help")
    text = pipe.quiet(0.5)
    assert text and all(line.startswith("info string ") for line in text), text
    assert any("go" in line for line in text)


# -- go mate with more than two players ---------------------------------------------------


def test_go_mate_with_three_players_answers_without_stop(pipe):
    pipe.handshake("ugi")
    pipe.send("setoption name UCI_Variant value rolit", "setoption name rolit_players value 3",
              "position startpos moves d6", "go mate 1")
    lines = pipe.until("bestmove")  # before the change: searched until stop, no bestmove here
    assert bestmove(lines) in legal_texts("rolit", None, ()) | {"c4", "c6", "e6"}
    notes = [line for line in lines if line.startswith("info string") and "go mate" in line]
    assert len(notes) == 1, lines
    # The search stops at the mate bound: mate 1 is at most 3 plies with 3 players.
    assert all(int(line.split()[2]) <= 3 for line in infos(lines)), lines
    pipe.ready()


# -- the figures of an exact root answer ---------------------------------------------------

#: A reversi position with 12 empty squares (the exact root solve answers at once).
REVERSI_12 = "-XXXXX---OOOOX--XOOXOOOO-OXOOOOXOOXOOXX-OOXXOOOOOXXXXXXXX----XXX X"


def test_an_exact_root_answer_reports_the_solvers_nodes(pipe):
    start(pipe, "reversi")
    pipe.send("setoption name EndgameEmpties value 14", f"position fen {REVERSI_12}", "go depth 3")
    lines = pipe.until("bestmove")
    assert any(line.startswith("info string exact:") for line in lines), lines
    (info,) = infos(lines)
    fields = dict(re.findall(r"(depth|seldepth|nodes|nps|time) (\d+)", info))
    depth, nodes, nps, ms = (int(fields[k]) for k in ("depth", "nodes", "nps", "time"))
    pv = info.split(" pv ")[1].split()
    # The depth is the plies to the end; the nodes are the solver's, far more than the line.
    assert depth == len(pv) and 12 <= depth <= 14, info
    assert nodes > 10 * depth, info
    assert nps == nodes * 1000 // max(ms, 1), info


# -- options of a game not being played -----------------------------------------------------


def test_a_refused_parameter_of_another_game_never_blocks_the_game_played(pipe):
    start(pipe, "chess")
    pipe.send("setoption name mnk_m value 0")
    assert pipe.line().startswith("info string error: setoption: mnk_m")
    for _ in range(2):
        pipe.send("position startpos", "go depth 1")
        lines = pipe.until("bestmove")
        assert bestmove(lines) != "(none)" and not any("error" in line for line in lines), lines
    # The refusal is about the m,n,k-game: playing it, the go answers no move until it is set.
    pipe.send("setoption name UCI_Variant value mnk", "position startpos", "go depth 1")
    assert pipe.until("bestmove")[-1] == "bestmove (none)"
    pipe.send("setoption name mnk_m value 5", "position startpos", "go depth 1")
    assert pipe.until("bestmove")[-1] != "bestmove (none)"
    # And back in chess a refused chess rule still blocks chess.
    pipe.send("setoption name UCI_Variant value chess", "setoption name UCI_Chess960 value maybe")
    assert pipe.line().startswith("info string error: setoption: UCI_Chess960")
    pipe.send("position startpos", "go depth 1")
    assert pipe.until("bestmove")[-1] == "bestmove (none)"


# -- UCI_Chess960 against UCI_Variant ---------------------------------------------------------

#: Standard chess with the castling squares free: e1g1 castles, e1h1 is how Chess960 writes it.
CASTLE_READY = "r3k2r/pppqbppp/2npbn2/4p3/4P3/2NPBN2/PPPQBPPP/R3K2R w KQkq - 0 1"


def test_chess960_false_after_the_chess960_variant_is_standard_chess(pipe):
    pipe.handshake()
    for name in ("chess960", "frc", "fischerandom"):
        pipe.send(f"setoption name UCI_Variant value {name}", "setoption name UCI_Chess960 value false",
                  f"position fen {CASTLE_READY}", "isready")
        assert pipe.until("readyok") == ["readyok"]  # accepted without a word
        pipe.send("d")
        legal = next(line for line in pipe.until("Legal moves") if line.startswith("Legal moves"))
        assert "e1g1" in legal.split() and "e1h1" not in legal.split(), (name, legal)
        pipe.send("go depth 1 searchmoves e1g1")
        assert bestmove(pipe.until("bestmove")) == "e1g1"
    # UCI_Chess960 true turns it back on, as cutechess sends it for a Fischer random game.
    pipe.send("setoption name UCI_Chess960 value true", f"position fen {CASTLE_READY}", "d")
    legal = next(line for line in pipe.until("Legal moves") if line.startswith("Legal moves"))
    assert "e1h1" in legal.split() and "e1g1" not in legal.split(), legal


# -- N-player info lines ----------------------------------------------------------------------


def test_n_player_scores_agree_with_their_vectors_on_a_second_go(pipe):
    pipe.handshake("ugi")
    pipe.send("setoption name UCI_Variant value rolit", "setoption name rolit_players value 3")
    for algorithm in ("brs", "paranoid", "maxn"):
        pipe.send(f"setoption name MultiplayerSearch value {algorithm}", "position startpos")
        for _ in range(2):
            pipe.send("go depth 3")
            for line in infos(pipe.until("bestmove")):
                score = re.search(r" score cp (-?\d+) ", line)
                vector = [int(x) for x in line.split(" string vector ")[1].split()]
                # The mover (player 1 here) minus the best other player.
                assert score and int(score.group(1)) == vector[0] - max(vector[1:]), (algorithm, line)


# -- a damaged option cache --------------------------------------------------------------------


def test_a_damaged_option_cache_is_rebuilt_and_uci_answers(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = Pipe()
    good = first.handshake()
    assert first.close() == 0
    path = tmp_path / "zermelo" / "options.json"
    cached = json.loads(path.read_text())
    options = [line for line in good if line.startswith("option ")]
    for damage in ([3, None, {}], "option name Hash", [["x"]], ["option name A\nuciok"], None, 7):
        path.write_text(json.dumps({**cached, "lines": damage}))  # a valid signature, bad lines
        p = Pipe()
        try:
            lines = p.handshake()
            assert [line for line in lines if line.startswith("option ")] == options, damage
            assert lines[-1] == "uciok" and lines.count("uciok") == 1
            notes = [line for line in lines if line.startswith("info string") and "build:" not in line]
            assert len(notes) <= 1 and all(str(path) in line for line in notes), notes
            assert p.close() == 0 and not b"".join(p.err)
        finally:
            if p.proc.poll() is None:
                p.proc.kill()
        assert json.loads(path.read_text())["lines"] == options  # rebuilt on disk


# -- signals ----------------------------------------------------------------------------------


def _errors(p: Pipe) -> str:
    return b"".join(p.err).decode()


def test_sigterm_ends_a_search_with_its_bestmove_and_a_clean_exit():
    p = Pipe()
    try:
        start(p, "chess")
        p.send("position startpos", "go infinite")
        p.until("info depth")
        p.proc.send_signal(signal.SIGTERM)
        lines = p.until("bestmove")
        assert bestmove(lines) in legal_texts("chess")
        assert p.proc.wait(TIMEOUT) == 0
        p._err_reader.join(TIMEOUT)
        assert _errors(p) == ""
    finally:
        if p.proc.poll() is None:
            p.proc.kill()


def test_sigint_under_a_gui_is_ignored(pipe):
    # A GUI's Ctrl-C reaches its whole process group; the GUI ends the engine itself.
    start(pipe, "chess")
    pipe.send("position startpos", "go infinite")
    pipe.until("info depth")
    pipe.proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    pipe.ready()  # still alive, still searching
    pipe.send("stop")
    assert bestmove(pipe.until("bestmove")) in legal_texts("chess")


def test_ctrl_c_at_a_terminal_ends_the_search_and_the_server():
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "protocol"], cwd=REPO, stdin=terminal,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    os.close(terminal)
    try:
        os.write(controller, b"uci\nposition startpos\ngo infinite\n")
        out = b""
        deadline = time.monotonic() + TIMEOUT
        while b"info depth" not in out and time.monotonic() < deadline:
            out += os.read(proc.stdout.fileno(), 1 << 16)
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=TIMEOUT)
        lines = (out + rest).decode().splitlines()
        assert [line for line in lines if line.startswith("bestmove")][-1].split()[1] in legal_texts("chess")
        assert proc.returncode == 0 and err == b"", err.decode()
    finally:
        os.close(controller)
        if proc.poll() is None:
            proc.kill()
