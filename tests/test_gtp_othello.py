"""GTP for Othello: ``zermelo gtp --game reversi`` (and GRhino's ``set_game``) with
Othello's coordinates (``A1`` top left), passes left out as Othello controllers do,
``final_score`` in discs; and the match runner refereeing GTP Othello engines,
zermelo's own and GRhino's ``gtp-rhino`` where it is installed."""

from __future__ import annotations

import random
import shutil
import sys

import pytest
from test_gtp import Gtp

import games
from protocol.match.runner import main
from protocol.records import read_records, verify

pytestmark = pytest.mark.both_builds

RHINO = shutil.which("gtp-rhino") or shutil.which("/usr/games/gtp-rhino")


@pytest.fixture
def othello():
    engine = Gtp("--game", "reversi")
    yield engine
    try:
        assert engine.close() == 0
    finally:
        if engine.proc.poll() is None:
            engine.proc.kill()
            engine.proc.wait()


def squares(gtp: Gtp) -> str:
    """The 64 squares of ``showboard``, from A1 (top left) row by row."""
    rows = [line.split()[1:9] for line in gtp.ok("showboard").splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 8
    return "".join("".join(row) for row in rows).replace(".", "-")


def random_game(seed: int) -> list[str]:
    """The moves of a random game of reversi to its end, passes included."""
    rng = random.Random(seed)
    pos = games.load("reversi").new_position()
    moves = []
    while legal := pos.legal_moves():
        move = rng.choice(legal)
        moves.append(pos.move_text(move))
        pos.push(move)
    return moves


def test_the_commands_and_the_start(othello):
    listed = set(othello.ok("list_commands").split())
    assert {"genmove", "play", "undo", "showboard", "final_score", "time_settings", "time_left",
            "set_game", "list_games"} <= listed
    assert not listed & {"loadsgf", "fixed_handicap", "final_status_list"}  # Go's only
    assert othello.ok("list_games").splitlines() == ["Othello", "Go"]
    othello.ok("boardsize 8")
    assert othello.refused("boardsize 9") == "unacceptable size"
    othello.ok("komi 0")
    othello.ok("clear_board")
    assert squares(othello) == "-" * 27 + "OX------XO" + "-" * 27


def test_play_genmove_undo_and_bad_input(othello):
    othello.ok("play b d3")
    othello.ok("play W C3")
    start = squares(othello)
    assert start[8 * 2 + 2] == "O" and start[8 * 2 + 3] == "X"  # C3 White, D3 Black
    for bad in ("play b a1", "play b i9", "play b \u212a3", "play b d", "play green d3"):
        othello.refused(bad)
    assert squares(othello) == start
    move = othello.ok("genmove b")
    assert move.upper() == move and (move == "pass" or ("A" <= move[0] <= "H" and "1" <= move[1] <= "8"))
    othello.ok("undo")
    assert squares(othello) == start
    othello.ok("time_settings 0 1 1")
    othello.ok("time_left b 1 1")
    assert othello.ok("genmove b") != "pass"


def test_a_game_with_passes_left_out_and_its_final_score():
    """A controller that sends no pass (GRhino refuses them): the colour of the next
    play says it; the board and the score follow the rules."""
    seed = next(s for s in range(100) if "pass" in random_game(s))
    moves = random_game(seed)
    gtp = Gtp("--game", "reversi")
    try:
        pos = games.load("reversi").new_position()
        for move in moves:
            if move != "pass":
                gtp.ok(f"play {'bw'[pos.turn]} {move.upper()}")
            pos.push(pos.parse_move(move))
        board = pos.to_text().split()[0]
        assert squares(gtp) == board
        black, white = board.count("X"), board.count("O")
        margin = abs(black - white) + 64 - black - white
        assert gtp.ok("final_score") == ("0" if black == white else f"{'B' if black > white else 'W'}+{margin}")
        assert gtp.ok("genmove b") == "pass"  # the game is over
        gtp.ok("undo")
        assert squares(gtp) == board
    finally:
        gtp.close()


def test_set_game_switches_a_go_server_to_othello():
    gtp = Gtp()
    try:
        gtp.ok("boardsize 9")
        gtp.ok("play b E5")
        gtp.ok("set_game Othello")
        assert squares(gtp) == "-" * 27 + "OX------XO" + "-" * 27
        gtp.ok("play b D3")
        assert gtp.refused("set_game Chess").startswith("unknown game")
        gtp.ok("set_game Go")
        assert "E5" not in gtp.ok("showboard").split()
    finally:
        gtp.close()


def match(tmp_path, capsys, *engines: str, games_total: int = 2) -> tuple[int, str, list]:
    records = tmp_path / "games.rec"
    code = main(["--game", "reversi", "--games", str(games_total), "--depth", "1", "--timeout", "120",
                 "--start-timeout", "120", "--ping-timeout", "120", "--log", str(tmp_path / "log.txt"),
                 "--records", str(records), *(a for e in engines for a in ("--engine", e))])
    out = capsys.readouterr().out
    recs = read_records(records.read_text()) if records.exists() else []
    for rec in recs:
        assert verify(rec) == [], rec
    return code, out, recs


ZERMELO = f"cmd='{sys.executable} -m protocol gtp --game reversi --movetime 50' protocol=gtp"


def test_the_match_runner_referees_zermelo_over_gtp_othello(tmp_path, capsys):
    code, out, recs = match(tmp_path, capsys, ZERMELO + " name=one", ZERMELO + " name=two")
    assert code == 0, out
    assert len(recs) == 2
    for rec in recs:
        assert rec.termination == "normal" and rec.result in ("1-0", "0-1", "1/2-1/2"), rec.reason
        assert rec.tags["FinalScore"] and "differs" not in rec.tags["GtpScores"], rec.tags
        assert rec.tags["GtpScores"].count("agrees") == 2


@pytest.mark.skipif(RHINO is None, reason="GRhino (gtp-rhino) is not installed: .ci/peers installs it")
def test_gtp_rhino_plays_zermelo_over_gtp(tmp_path, capsys):
    code, out, recs = match(tmp_path, capsys, f"cmd='{RHINO} -l 1' name=rhino protocol=gtp", ZERMELO + " name=zermelo")
    assert code == 0, out
    assert len(recs) == 2
    for rec in recs:
        assert rec.termination == "normal", rec.reason
        assert "zermelo" in rec.tags["GtpScores"] and "zermelo " + rec.tags["FinalScore"] in rec.tags["GtpScores"]
