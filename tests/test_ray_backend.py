"""The Ray backend against the local one: the same match totals, the same book file,
the same table files; a decided SPRT cancels the pairs not played; a worker dying
mid-game loses only its pair, played again; the engines are checked on every node.
One local Ray instance (2 CPUs) serves the whole module."""

from __future__ import annotations

import ipaddress
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from engine.execution import Backend, ExecutionError, ray_module
from protocol import cli
from protocol.book_cli import build_search
from protocol.match.openings import add_random_plies
from protocol.match.process import EngineSpec
from protocol.match.runner import Limits, Match, MatchConfig
from protocol.match.stats import Sprt
from protocol.records import read_records

import games

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAKE = pathlib.Path(__file__).parent / "fake_engines"
RAY = Backend("ray", num_cpus=2)
# One xdist worker runs the whole module, so that one Ray instance serves it.
pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module")
def ray_instance():
    ray = ray_module(RAY)
    yield ray
    ray.shutdown()


def spec(script: str, name: str, *args) -> EngineSpec:
    return EngineSpec.parse(f"cmd='{sys.executable} {FAKE / script} {' '.join(map(str, args))}' name={name}")


def config(tmp_path, backend: Backend, n_games: int = 16, b=None, **kw) -> MatchConfig:
    import random

    game = games.load("tictactoe")
    rng = random.Random(5)
    from protocol.match.openings import Opening

    openings = [add_random_plies(game, Opening(), 2, rng) for _ in range(n_games // 2)]
    return MatchConfig(game="tictactoe", specs=[spec("hasher.py", "a", 1), b or spec("hasher.py", "b", 2)],
                       limits=[Limits(nodes=1)] * 2, games=n_games, openings=openings, concurrency=2,
                       records=str(tmp_path / f"{backend.kind}.txt"), backend=backend, **kw)


def play(cfg: MatchConfig) -> Match:
    match = Match(cfg, out=open(os.devnull, "w"))
    match.run_everywhere()
    return match


def games_of(path) -> dict[str, tuple]:
    """Round -> (players, result, moves); fails on a game recorded twice."""
    recs = read_records(pathlib.Path(path).read_text())
    out = {r.tags["Round"]: (r.players, r.result, r.moves) for r in recs}
    assert len(out) == len(recs), "a game recorded twice"
    return out


def test_a_match_on_ray_has_the_local_totals_and_records(ray_instance, tmp_path):
    local = play(config(tmp_path, Backend()))
    remote = play(config(tmp_path, RAY))
    assert local.counts() == remote.counts() and sum(local.counts()) == 16
    assert local.penta == remote.penta
    assert games_of(tmp_path / "local.txt") == games_of(tmp_path / "ray.txt")
    # Not a trivial series: both engines win games.
    assert local.counts()[0] and local.counts()[2]


def test_a_dead_worker_loses_only_its_pair_which_is_played_again(ray_instance, tmp_path):
    local = play(config(tmp_path, Backend()))
    mark = tmp_path / "killed"
    killer = spec("worker_killer.py", "b", 2, mark)
    remote = play(config(tmp_path, RAY, b=killer))
    assert mark.exists() and remote.rescheduled == 1
    assert remote.counts() == local.counts() and remote.penta == local.penta
    assert games_of(tmp_path / "ray.txt") == games_of(tmp_path / "local.txt")


def test_a_decided_sprt_cancels_the_pairs_not_played(ray_instance, tmp_path):
    sprt = Sprt.parse(["elo0=0", "elo1=100", "alpha=0.1", "beta=0.1"])
    cfg = config(tmp_path, RAY, n_games=200, b=spec("illegal.py", "b"), sprt=sprt)
    cfg.openings = cfg.openings[:1]
    match = play(cfg)
    assert match.sprt_decision == "H1"
    played = len(match.results)
    assert played < 40 and played == len(games_of(tmp_path / "ray.txt"))
    assert f"{played} games played of 200 scheduled" in match.summary()


def test_missing_engines_are_one_error_before_any_game(ray_instance, tmp_path):
    cfg = config(tmp_path, RAY, b=EngineSpec.parse("cmd=no-such-engine-here name=b"))
    with pytest.raises(ExecutionError, match="no program 'no-such-engine-here'"):
        play(cfg)


def test_resume_keeps_every_game_and_plays_the_rest(tmp_path):
    full = play(config(tmp_path, Backend(), n_games=8))
    text = (tmp_path / "local.txt").read_text()
    recs = read_records(text)
    # Interrupted after five games: pairs 1 and 2 done, pair 3 half played.
    from protocol.records import to_text

    kept = "".join(to_text(r) for r in recs[:5])
    (tmp_path / "local.txt").write_text(kept)
    cfg = config(tmp_path, Backend(), n_games=8, resume=True)
    again = play(cfg)
    assert again.resumed == 5 and len(again.results) == 8
    assert again.counts() == full.counts() and again.penta == full.penta
    assert (tmp_path / "local.txt").read_text().startswith(kept)
    rounds = games_of(tmp_path / "local.txt")
    assert sorted(rounds, key=int) == [str(i) for i in range(1, 9)]
    assert rounds == {r.tags["Round"]: (r.players, r.result, r.moves) for r in recs}


def test_a_book_built_on_ray_is_the_local_file(ray_instance, tmp_path):
    settings = dict(plies=3, depth=4, max_moves=2)
    build_search("connect4", str(tmp_path / "local.zbook"), jobs=2, **settings).close()
    build_search("connect4", str(tmp_path / "ray.zbook"), jobs=2, backend=RAY, **settings).close()
    local, remote = (tmp_path / "local.zbook").read_bytes(), (tmp_path / "ray.zbook").read_bytes()
    assert len(local) > 4096 and local == remote


def test_tables_built_on_ray_are_the_local_files(ray_instance, tmp_path, capsys):
    for backend in ("local", "ray"):
        assert cli.main(["tables", "build", "checkers", "3", "--out", str(tmp_path / backend),
                         "--quiet", "--backend", backend]) == 0
    local = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert "checkers-MMvM.ztb" in local and "checkers-KvK.ztb" in local
    assert local == sorted(p.name for p in (tmp_path / "ray").iterdir())
    for name in local:
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes(), name


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_ray_backend_without_ray_is_one_error_line():
    hide = "import sys; sys.modules['ray'] = None; from protocol import cli; sys.argv[1:] = "
    for argv in (["match", "--game", "nim", "--engine", "cmd=x", "--engine", "cmd=y", "--nodes", "1",
                  "--backend", "ray"],
                 ["book", "build", "nim", "--out", "/tmp/never.zbook", "--backend", "ray"],
                 ["tables", "build", "checkers", "2", "--out", "/tmp/never", "--backend", "ray"]):
        proc = _run(hide + repr(argv) + "; sys.exit(cli.main())")
        assert proc.returncode == 2, (argv, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "pip install 'zermelo[ray]'" in lines[0], proc.stderr


def test_the_local_path_imports_no_ray(tmp_path):
    code = f"""
import sys
from protocol import cli
assert cli.main(["tables", "build", "checkers", "2", "--out", {str(tmp_path)!r}, "--quiet"]) == 0
from protocol.book_cli import build_search
build_search("nim", {str(tmp_path / 'b.zbook')!r}, plies=2, depth=2).close()
print("ray" in sys.modules)
"""
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "False"


def _descendants(pid: int) -> set[int]:
    """``pid`` and every process under it, from ``/proc``."""
    parent: dict[int, int] = {}
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, grew = {pid}, True
    while grew:
        more = {p for p, pp in parent.items() if pp in found} - found
        found |= more
        grew = bool(more)
    return found


@pytest.mark.skipif(not pathlib.Path("/proc").is_dir() or shutil.which("ss") is None, reason="needs /proc and ss")
def test_the_local_ray_instance_listens_on_loopback_only(ray_instance, tmp_path, capsys):
    fake = FAKE / "hasher.py"
    assert cli.main(["match", "--game", "nim", "--games", "2", "--nodes", "1", "--backend", "ray",
                     "--engine", f"cmd='{sys.executable} {fake} 1' name=a",
                     "--engine", f"cmd='{sys.executable} {fake} 2' name=b"]) == 0
    out = capsys.readouterr().out
    lines = [x for x in out.splitlines() if x.startswith("ray: ")]
    assert lines == ["ray: a local instance started here, listening on 127.0.0.1 only "
                     "(unreachable from other machines; give --address for a cluster)"]
    ours = _descendants(os.getpid())
    listening = []
    for line in subprocess.run(["ss", "-Hltnp"], capture_output=True, text=True, check=True).stdout.splitlines():
        pids = {int(p) for p in re.findall(r"pid=(\d+)", line)}
        if pids & ours:
            listening.append((line.split()[3], line))
    # The GCS, the raylet, the workers and the agents all listen: on loopback only.
    assert len(listening) >= 3, listening
    for address, line in listening:
        host = address.rsplit(":", 1)[0].strip("[]").removeprefix("::ffff:").replace("*", "::")
        assert ipaddress.ip_address(host).is_loopback, line
