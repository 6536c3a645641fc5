"""``zermelo tune spsa``: the search's tunable numbers as options, SPSA's schedule and
update on a synthetic objective (no engine), a run stopped and resumed giving the same
run, and a tiny real run through the match runner."""

from __future__ import annotations

import json

import pytest

import games
from engine import spsa
from engine.options import EngineOptions, SearchParams, engine_specs, find_spec, search_params, set_value
from engine.search import DEFAULT_PARAMS, Searcher
from engine.timeman import Limits
from protocol import tune_cli

PARAMS = [spsa.Param("x", 50, 0, 100, 5, 0.02), spsa.Param("y", 10, -40, 40, 2, 0.02)]
OPTIMUM = (70, -20)
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8"


def _synthetic(trials: list[spsa.Trial]) -> list[float]:
    """A pair scores by which side is nearer the optimum: +1, -1, or 0 on a tie."""

    def loss(values: tuple[int, ...]) -> int:
        return sum((v - o) ** 2 for v, o in zip(values, OPTIMUM))

    return [float((loss(t.minus) > loss(t.plus)) - (loss(t.minus) < loss(t.plus))) for t in trials]


def test_the_search_options_default_to_the_search_s_numbers():
    assert search_params(SearchParams()) == DEFAULT_PARAMS
    assert search_params(EngineOptions()) == DEFAULT_PARAMS
    names = [spec.name for spec in engine_specs(games)]
    assert names[-len(DEFAULT_PARAMS):] == [info.alias for info in SearchParams.model_fields.values()]
    assert find_spec("LMRBase", games).uci_line() == "option name LMRBase type spin default 75 min 0 max 200"


def test_a_search_option_reaches_the_searcher_and_changes_the_tree():
    opts = set_value(EngineOptions(), find_spec("RFPMargin", games), "150", games)
    searcher = Searcher()
    searcher.configure(search_params(opts))
    assert searcher.rfp_margin == 150
    game = games.load("chess")

    def nodes(params: dict[str, int]) -> int:
        searcher = Searcher(1)
        searcher.configure(params)
        return searcher.search(game, game.new_position(MIDDLEGAME), Limits(depth=6)).nodes

    default = nodes(DEFAULT_PARAMS)
    assert nodes(dict(DEFAULT_PARAMS)) == default
    for name, value in (("lmr_base", 150), ("rfp_margin", 30), ("null_base", 5), ("aspiration_delta", 8)):
        assert nodes({**DEFAULT_PARAMS, name: value}) != default, name


def test_the_schedule_ends_at_c_end_and_r_end():
    n = 400
    for p in PARAMS:
        a_end, c_end = spsa.gains(p, n - 1, n)
        assert c_end == pytest.approx(p.c_end)
        assert a_end / c_end ** 2 == pytest.approx(p.r_end)
        assert spsa.gains(p, 0, n)[1] > c_end  # the perturbation shrinks over the run


def test_spsa_on_a_synthetic_objective_is_deterministic_and_climbs(tmp_path):
    state = spsa.start(tmp_path / "s.json", PARAMS, 300, 7, {})
    state = spsa.run(state, tmp_path / "s.json", tmp_path / "p.csv", _synthetic, batch=4)
    assert state.done == 300
    x, y = state.theta
    # From (50, 10) towards (70, -20): each a long way along, none past its bounds.
    assert 60 < x <= 100 and -40 <= y < 0
    again = spsa.run(spsa.start(tmp_path / "t.json", PARAMS, 300, 7, {}), tmp_path / "t.json",
                     tmp_path / "q.csv", _synthetic, batch=4)
    assert again.theta == state.theta
    assert (tmp_path / "p.csv").read_text() == (tmp_path / "q.csv").read_text()
    t = spsa.trial(PARAMS, [50.0, 10.0], 0, 300, 7)
    assert t.plus == tuple(round(50 + d * spsa.gains(p, 0, 300)[1]) if p.name == "x"
                           else round(10 + d * spsa.gains(p, 0, 300)[1]) for p, d in zip(PARAMS, t.delta))


def test_a_stopped_run_resumes_to_the_same_run(tmp_path):
    whole = spsa.run(spsa.start(tmp_path / "w.json", PARAMS, 40, 3, {"nodes": 1}), tmp_path / "w.json",
                     tmp_path / "w.csv", _synthetic, batch=3)
    calls = []

    def stopping(trials):
        calls.append(len(trials))
        if len(calls) == 4:
            raise KeyboardInterrupt
        return _synthetic(trials)

    path, progress = tmp_path / "r.json", tmp_path / "r.csv"
    with pytest.raises(KeyboardInterrupt):
        spsa.run(spsa.start(path, PARAMS, 40, 3, {"nodes": 1}), path, progress, stopping, batch=3)
    assert json.loads(path.read_text())["done"] == 9
    # A line written after the state was saved (a stop between the two) is dropped on resume.
    with progress.open("a") as f:
        f.write("10,1,0,0\n")
    state = spsa.start(path, PARAMS, 40, 3, {"nodes": 1})
    assert state.done == 9
    state = spsa.run(state, path, progress, _synthetic, batch=3)
    assert state.theta == whole.theta
    assert progress.read_text() == (tmp_path / "w.csv").read_text()
    with pytest.raises(ValueError, match="other parameters, seed or settings"):
        spsa.start(path, PARAMS, 40, 3, {"nodes": 2})


def test_a_tiny_real_run_plays_pairs_writes_its_progress_and_resumes(tmp_path, capsys):
    args = ["spsa", "chess", "--tune", "RFPMargin", "lmrbase", "--iterations", "2", "--nodes", "40",
            "--adjudicate", "maxplies=40", "--concurrency", "2", "--state", str(tmp_path / "s.json"),
            "--csv", str(tmp_path / "p.csv"), "--plot", str(tmp_path / "p.png")]
    assert tune_cli.main(args) == 0
    out = capsys.readouterr().out
    assert "2 iterations" in out and "tuned: option.RFPMargin=" in out
    lines = (tmp_path / "p.csv").read_text().splitlines()
    assert lines[0] == "iteration,result,RFPMargin,LMRBase" and len(lines) == 3
    assert all(int(float(line.split(",")[1])) in (-2, -1, 0, 1, 2) for line in lines[1:])
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    assert json.loads((tmp_path / "s.json").read_text())["done"] == 2
    # Done: the same command plays nothing more; another seed is refused.
    assert tune_cli.main(args) == 0
    assert len((tmp_path / "p.csv").read_text().splitlines()) == 3
    assert tune_cli.main(args + ["--seed", "2"]) == 1
    assert "remove it to start afresh" in capsys.readouterr().err
