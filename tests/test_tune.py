"""``zermelo tune``: the chess evaluation's weights as one vector, their features
agreeing with the evaluation, Texel tuning lowering the loss on a little self-play,
and the weights file it writes loaded through ``EvalWeights``, changing the evaluation.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import games
from engine.nnue_data import read
from games.chess import evaluate as ev
from protocol import tune_cli
from protocol.datagen_cli import Settings, generate

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8"


@pytest.fixture(scope="module")
def chess_data(tmp_path_factory):
    path = tmp_path_factory.mktemp("data") / "chess.zdata"
    generate("chess", str(path), games_total=6, concurrency=2,
             settings=Settings(nodes=60, random_plies=6, seed=1, max_plies=80, hash_mb=1))
    return path


@pytest.fixture(autouse=True)
def built_in_weights():
    yield
    games.load("chess")  # back to the built-in weights, process-wide


def _fen(bb: list[int]) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            sq = rank * 8 + f
            pc = next((p for p in (*range(1, 7), *range(9, 15)) if bb[p] >> sq & 1), 0)
            if not pc:
                empty += 1
                continue
            row += (str(empty) if empty else "") + " PNBRQK"[pc & 7].swapcase() if pc & 8 else \
                (str(empty) if empty else "") + " PNBRQK"[pc]
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " w - - 0 1"


def test_the_features_give_the_evaluation(chess_data):
    from games.chess.tuning import _board

    game = games.load("chess")
    data = read([chess_data])
    base, x = game.eval_features(data)
    w = np.asarray(game.eval_weights().values, float)
    assert x.shape == (len(data), len(ev.WEIGHT_NAMES)) and len(data) > 100
    for i in range(0, len(data), 7):
        bb, _ = _board(data.stm[data.stm_offsets[i]:data.stm_offsets[i + 1]])
        # The model is the evaluation before its rounding toward zero.
        assert abs(base[i] + x[i] @ w - game.new_position(_fen(bb)).evaluate()) < 1, i


def test_tuning_lowers_the_loss_resumes_and_writes_weights_the_game_loads(chess_data, tmp_path, capsys):
    out = tmp_path / "weights.json"
    assert tune_cli.main(["chess", "--data", str(chess_data), "--out", str(out), "--steps", "100"]) == 0
    first = json.loads(out.read_text())
    assert first["loss_after"] < first["loss_before"]
    # The same command with more steps resumes the run from its state.
    assert tune_cli.main(["chess", "--data", str(chess_data), "--out", str(out), "--steps", "200"]) == 0
    second = json.loads(out.read_text())
    assert second["steps"] == 200 and second["loss_after"] < first["loss_after"]
    assert second["loss_before"] == first["loss_before"]
    assert "step 200/200" in capsys.readouterr().out
    before = games.load("chess").new_position(MIDDLEGAME).evaluate()
    tuned = games.load("chess", eval_weights=str(out))
    assert tuned.eval_weights().values == tuple(second["weights"].values())
    assert tuned.new_position(MIDDLEGAME).evaluate() != before
    assert games.load("chess").new_position(MIDDLEGAME).evaluate() == before


def test_holdout_keeps_the_last_games_out_and_reports_their_loss(chess_data, tmp_path, capsys):
    from engine.tuning import loss

    out = tmp_path / "weights.json"
    args = ["chess", "--data", str(chess_data), "--out", str(out), "--steps", "100"]
    assert tune_cli.main([*args, "--holdout", "0.25"]) == 0
    body = json.loads(out.read_text())
    data = read([chess_data])
    cut = len(data) - round(len(data) * 0.25)
    assert (body["positions"], body["held_out"]) == (cut, len(data) - cut)
    # The held-out loss is the last records' own, at the K fitted without them.
    game = games.load("chess")
    held = data.take(np.arange(cut, len(data)))
    base, x = game.eval_features(held)
    target = (held.result.astype(np.float64) + 1) / 2
    for key, w in (("held_out_before", game.eval_weights().values), ("held_out_after", body["weights"].values())):
        assert body[key] == round(loss(base, x, target, body["k"], np.asarray(list(w), float)), 6)
    printed = capsys.readouterr().out
    assert f"({len(data) - cut} held out)" in printed and "held out" in printed.splitlines()[-1]
    # Another split is another run: its state is refused, not resumed.
    assert tune_cli.main([*args, "--holdout", "0.5"]) == 1
    assert "other weights or data" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        tune_cli.main([*args, "--holdout", "1"])


def test_a_bad_weights_file_is_one_error_and_the_weights_stay(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "chess", "weights": {"shield": 10_000}}))
    with pytest.raises(ValueError, match="shield"):
        games.load("chess", eval_weights=str(bad))
    assert games.load("chess").eval_weights().values == ev.DEFAULT_WEIGHTS
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "reversi", "weights": {}}))
    with pytest.raises(ValueError, match="reversi"):
        games.load("chess", eval_weights=str(other))


def test_set_terms_still_switches_groups_off_and_back():
    pos = games.load("chess").new_position(MIDDLEGAME)
    full = pos.evaluate()
    ev.set_terms(())
    try:
        assert pos.evaluate() != full
    finally:
        ev.set_terms()
    assert pos.evaluate() == full


def test_a_game_without_weights_is_refused(tmp_path, capsys):
    assert tune_cli.main(["connect4", "--data", str(tmp_path / "none.zdata"), "--out", str(tmp_path / "w")]) == 1
    assert "no tunable evaluation weights" in capsys.readouterr().err
