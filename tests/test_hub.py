"""The Hub server (Scan's draughts protocol): its parsing, a session by hand, and
pydraughts' ``HubEngine`` driving ``zermelo hub`` over pipes through whole games
of international, Russian and Brazilian draughts, every move legal by pydraughts'
rules."""

from __future__ import annotations

import subprocess
import sys

import pytest

from protocol.server.hub import move_parts, move_text, parse_args, score_men
from tests.conftest import ROOT

START = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"


def session(lines: list[str], *args: str) -> list[str]:
    """The output lines of ``zermelo [args]`` fed ``lines`` (and end of input)."""
    out = subprocess.run([sys.executable, "-m", "protocol", *args], cwd=ROOT, input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120)
    return out.stdout.splitlines()


def test_parsing():
    assert parse_args('name=variant value="a b" flag') == {"name": "variant", "value": "a b", "flag": ""}
    assert move_parts("28x19x23x13") == (28, 19, [23, 13])
    assert move_text(28, 19, [23]) == "28x19x23" and move_text(32, 28, []) == "32-28"
    with pytest.raises(ValueError):
        move_parts("32--28")
    assert score_men(-1) == "-0.01"


def test_session_by_hand():
    """``hub`` as the first line selects Hub; a search answers info lines and done;
    bad input is one error line, and the session goes on."""
    out = session(["hub", "init", "pos pos=nonsense", "ping",
                   f'pos pos={START} moves="32-28 19-23 28x19x23"', "level depth=3", "go think",
                   "quit"])
    assert out[0].startswith("id name=zermelo")
    assert "wait" in out and "ready" in out and "pong" in out
    assert any(line.startswith("error message=") for line in out)
    done = [line for line in out if line.startswith("done")]
    # Black must retake: 14x23x19, 13x24x19 or 14x23x19's twin.
    assert len(done) == 1 and "x19" in done[0].split()[1]
    infos = [line for line in out if line.startswith("info")]
    assert infos and all("score=" in line and "nodes=" in line for line in infos)


def test_ponder_and_analyze_answer_done_when_told():
    """``go ponder`` waits for ``ponder-hit``, ``go analyze`` for ``stop``; each
    search answers one ``done``, and ``ping`` is answered during both."""
    proc = subprocess.Popen([sys.executable, "-m", "protocol", "hub"], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(word: str) -> list[str]:
        seen = []
        while True:
            line = proc.stdout.readline()
            assert line, f"no {word} before the end of output: {seen[-3:]}"
            seen.append(line.strip())
            if line.split()[0] == word:
                return seen

    try:
        for line in ("hub", "init"):
            send(line)
        until("ready")
        send(f"pos pos={START}")
        send("level move-time=0.2")
        send("go ponder")
        send("ping")
        assert not any(line.startswith("done") for line in until("pong"))
        send("ponder-hit")
        assert until("done")[-1].startswith("done move=")
        send("level infinite")
        send("go analyze")
        send("ping")
        assert not any(line.startswith("done") for line in until("pong"))
        send("stop")
        assert until("done")[-1].startswith("done move=")
        send("quit")
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()


def test_params_are_zermelos_options():
    out = session(["hub", "quit"], "hub")
    params = [line for line in out if line.startswith("param")]
    assert params[0].startswith("param name=variant value=normal type=enum")
    assert any("name=Hash" in p and "type=int" in p for p in params)
    assert any("name=international_draw_moves" in p for p in params)
    assert not any("go_komi" in p for p in params)


def test_set_param_variant_and_error():
    out = session(["hub", "set-param name=variant value=brazilian", "init",
                   "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "level depth=2", "go think",
                   "set-param name=variant value=xiangqi", "quit"], "hub")
    assert any(line.startswith("done move=") and "-" in line for line in out)
    assert any("unknown variant" in line for line in out)


@pytest.mark.parametrize("variant", ["standard", "russian", "brazilian"])
def test_pydraughts_hub_engine_plays_whole_games(variant):
    """pydraughts' HubEngine, as lidraughts-bot uses it, plays zermelo against
    itself to the end of the game; pydraughts checks every move."""
    draughts = pytest.importorskip("draughts", reason="pydraughts is in the test extra")
    from draughts.engine import HubEngine, Limit

    engine = HubEngine([sys.executable, "-m", "protocol", "hub"], cwd=str(ROOT))
    try:
        if variant != "standard":
            engine.setoption("variant", variant)
        engine.init()
        board = draughts.Board(variant=variant)
        plies = 0
        while not board.is_over() and plies < 300:
            result = engine.play(board, Limit(depth=2), ponder=False)
            assert result.move is not None
            board.push(result.move)  # raises on a move illegal by pydraughts' rules
            plies += 1
        assert board.is_over(), f"{variant}: no result after {plies} plies: {board.fen}"
    finally:
        engine.quit()
        engine.p.wait(timeout=30)


@pytest.mark.parametrize("game", ["international", "brazilian"])
def test_match_runner_referees_a_hub_engine(tmp_path, capsys, game):
    """``zermelo match`` drives ``zermelo hub`` (proto=hub) against zermelo over UCI,
    every move refereed by zermelo's rules and the records verified."""
    from protocol.match.runner import main
    from protocol.records import read_records, verify

    records = tmp_path / "games.rec"
    hub = f"cmd='{sys.executable} -m protocol hub' name=hub proto=hub option.Hash=8"
    uci = f"cmd='{sys.executable} -m protocol' name=uci"
    code = main(["--game", game, "--games", "2", "--depth", "2", "--engine", hub, "--engine", uci,
                 "--records", str(records)])
    out = capsys.readouterr().out
    assert code == 0, out
    recs = read_records(records.read_text())
    assert len(recs) == 2 and all(rec.termination == "normal" for rec in recs), [r.reason for r in recs]
    assert all(verify(rec) == [] for rec in recs)


def test_hub_engines_play_draughts_only(capsys):
    from protocol.match.runner import main

    hub = f"cmd='{sys.executable} -m protocol hub' proto=hub"
    assert main(["--game", "connect4", "--depth", "1", "--engine", hub, "--engine", hub]) == 2
    assert "Hub engines play draughts" in capsys.readouterr().err
