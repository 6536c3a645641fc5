"""py-draughts (PyPI ``py-draughts``), a second independent draughts library,
against zermelo over the Hub protocol: its own Hub client drives ``zermelo hub``
through whole games of international draughts (the client plays 10x10 boards
only), a relay on its boards does the same in Russian, Brazilian and English
draughts, ``zermelo match`` referees py-draughts' engine behind Hub
(``scripts/py_draughts_hub.py``) in all four, and the two libraries' square
numbers and legal moves agree on random positions. Every move is checked by
py-draughts' rules.

py-draughts imports as ``draughts``, as pydraughts (a test dependency) does, so
it lives in an environment of its own that ``.ci/peers`` makes outside the clone
(``$ZERMELO_PY_DRAUGHTS_ENV``, by default ``~/.cache/zermelo/py-draughts``); these
tests run its Python in a child process and skip when it is missing.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import games
from protocol.server.hub import move_text
from tests.conftest import ROOT

CLIENT = ROOT / "tests" / "py_draughts_client.py"
ADAPTER = ROOT / "scripts" / "py_draughts_hub.py"
#: zermelo's game of each Hub variant py-draughts plays.
GAMES = {"normal": "international", "russian": "shashki", "brazilian": "brazilian", "english": "checkers"}


def py_draughts_python() -> str:
    """The Python of py-draughts' environment, or skip the test."""
    env = os.environ.get("ZERMELO_PY_DRAUGHTS_ENV") or \
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "zermelo" / "py-draughts"
    python = Path(env) / "bin" / "python"
    try:
        found = subprocess.run([str(python), "-c", "import draughts; print(draughts.HubEngine.__name__)"],
                               capture_output=True, text=True, timeout=120)
    except OSError:
        pytest.skip(f"py-draughts is not installed: no {python} (.ci/peers makes its environment)")
    if found.returncode != 0:
        pytest.skip(f"py-draughts cannot be imported by {python}: {found.stderr.strip()[-200:]}")
    return str(python)


def client(*args: str, timeout: float = 900) -> list[dict]:
    """The JSON lines of ``tests/py_draughts_client.py ARGS`` run by py-draughts' Python."""
    out = subprocess.run([py_draughts_python(), str(CLIENT), *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=timeout)
    assert out.returncode == 0, out.stderr[-3000:]
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_py_draughts_hub_client_plays_whole_games(tmp_path):
    """``draughts.HubEngine`` starts ``<path> hub`` from the path's folder: a small
    executable there runs ``zermelo hub`` on this checkout."""
    executable = tmp_path / "zermelo"
    executable.write_text(f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(ROOT))} exec "
                          f"{shlex.quote(sys.executable)} -m protocol \"$@\"\n")
    executable.chmod(0o755)
    games_played = client("hubengine", str(executable), "2", "2")
    assert len(games_played) == 2
    for game in games_played:
        assert game["result"] in ("1-0", "0-1", "1/2-1/2"), game


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_relay_on_py_draughts_boards_plays_whole_games(variant):
    played = client("relay", variant, "1", "2", "--", sys.executable, "-m", "protocol", "hub")
    assert len(played) == 1 and played[0]["result"] in ("1-0", "0-1", "1/2-1/2"), played


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_square_numbers_and_legal_moves_agree(variant):
    """py-draughts' positions read through Hub's board string are zermelo's, and
    the legal moves in Hub's numbers are the same set: the conversion of
    ``scripts/py_draughts_hub.py`` is right square for square."""
    game = games.load(GAMES[variant])
    notation = game.hub_notation()
    positions = client("moves", variant, "300", "7")
    assert len(positions) == 300
    for item in positions:
        pos = game.new_position(notation.position_text(item["pos"]))
        assert notation.board_string(pos) == item["pos"]
        ours = sorted(move_text(*notation.parts(pos, m)) for m in pos.legal_moves())
        assert ours == item["moves"], f"{variant} {item['pos']} ({pos.to_text()})"


@pytest.mark.parametrize("game", sorted(GAMES.values()))
def test_match_referees_py_draughts_engine(tmp_path, capsys, game):
    """``zermelo match`` plays zermelo against py-draughts' engine behind Hub; py-draughts
    replays every move it is sent and refuses none."""
    from protocol.match.runner import main
    from protocol.records import read_records, verify

    records, refused = tmp_path / "games.rec", tmp_path / "refused.txt"
    peer = f"{py_draughts_python()} {ADAPTER} --log {refused}"
    code = main(["--game", game, "--games", "2", "--depth", "2", "--random-plies", "2", "--seed", "3",
                 "--engine", f"cmd='{sys.executable} -m protocol hub' name=zermelo proto=hub",
                 "--engine", f"cmd='{peer}' name=py-draughts proto=hub", "--records", str(records)])
    out = capsys.readouterr().out
    assert code == 0, out
    recs = read_records(records.read_text())
    assert len(recs) == 2 and all(rec.termination == "normal" for rec in recs), [r.reason for r in recs]
    assert all(verify(rec) == [] for rec in recs)
    assert not refused.exists() or refused.read_text() == ""
