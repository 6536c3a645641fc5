"""``zermelo train``: the trainer learns, is reproducible, agrees between numpy and
PyTorch, and writes a network the engine loads.

The learning tests train on Connect Four self-play data whose inputs are the
stand-in of ``tests/test_nnue_data.py`` (discs of each side on each square).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.nnue import load_network
from engine.nnue_data import DataWriter, Dataset, Header, read
from engine.train import TrainConfig, Weights, fit_scale, torch_available, train
from protocol import train_cli
from protocol.datagen_cli import Settings, generate
from test_nnue_data import FEATURES

SCALE = 100
CONFIG = TrainConfig(acc=16, epochs=25, lr=0.01, wdl=0.5, scale=SCALE, batch=64, seed=1, val_split=0.1)

#: The side to move has three discs stacked in the centre column (it wins next move);
#: the other side has three on the edges. The lost position is the same from the other side.
WON = ([38, 31, 24, 42 + 35, 42 + 41, 42 + 28], [35, 41, 28, 42 + 38, 42 + 31, 42 + 24])
LOST = (WON[1], WON[0])


@pytest.fixture(scope="module")
def connect4_data(tmp_path_factory):
    path = tmp_path_factory.mktemp("data") / "c4.zdata"
    generate("connect4", str(path), games_total=24, features=FEATURES, concurrency=2,
             settings=Settings(nodes=250, random_plies=4, seed=1, max_plies=60, hash_mb=1))
    return read([path])


def test_loss_falls_and_a_won_position_scores_above_a_lost_one(connect4_data):
    untrained = Weights.initial(84, CONFIG.acc, np.random.default_rng(5))
    weights, history = train(connect4_data, CONFIG)
    assert len(history.train) == CONFIG.epochs and len(history.val) == CONFIG.epochs + 1
    assert history.val[-1] < 0.5 * history.val[0]
    assert history.train[-1] < 0.5 * history.train[0]
    won, lost = weights.evaluate(*WON, SCALE), weights.evaluate(*LOST, SCALE)
    assert won > 0 > lost, (won, lost)
    assert abs(untrained.evaluate(*WON, SCALE) - untrained.evaluate(*LOST, SCALE)) < (won - lost) / 4


def test_the_same_seed_gives_the_same_network(connect4_data):
    config = TrainConfig(acc=8, epochs=2, lr=0.01, scale=SCALE, batch=64, seed=3)
    a, _ = train(connect4_data, config)
    b, _ = train(connect4_data, config)
    c, _ = train(connect4_data, TrainConfig(acc=8, epochs=2, lr=0.01, scale=SCALE, batch=64, seed=4))
    assert np.array_equal(a.ft_weight, b.ft_weight) and a.out_bias == b.out_bias
    assert not np.array_equal(a.ft_weight, c.ft_weight)


@pytest.mark.skipif(not torch_available(), reason="PyTorch is not installed (pip install 'zermelo[train]')")
def test_torch_and_numpy_train_the_same_network(connect4_data):
    config = TrainConfig(acc=8, epochs=3, lr=0.01, scale=SCALE, batch=64, seed=2)
    a, ha = train(connect4_data, config)
    b, hb = train(connect4_data, TrainConfig(**{**config.__dict__, "trainer": "torch"}))
    assert np.allclose(a.ft_weight, b.ft_weight, atol=1e-4) and np.allclose(a.out_weight, b.out_weight, atol=1e-4)
    assert np.allclose(ha.val, hb.val, rtol=1e-4)


def test_the_float_model_matches_the_quantised_network(tmp_path, connect4_data):
    from engine.nnue import save_network

    weights, _ = train(connect4_data, TrainConfig(acc=16, epochs=3, lr=0.01, scale=SCALE, batch=64))
    path = tmp_path / "c4.bin"
    save_network(path, game="connect4", features="test-discs", ft_weight=weights.ft_weight,
                 ft_bias=weights.ft_bias, out_weight=weights.out_weight, out_bias=weights.out_bias, scale=SCALE)
    net = load_network(path, game="connect4", features="test-discs", inputs=84)
    for stm, other in (WON, LOST, ([], []), ([3, 45], [45, 3])):
        assert abs(net.evaluate_features(stm, other) - weights.evaluate(stm, other, SCALE)) <= 3


def _chess_data(path):
    """A few chess records (the inputs of chess768 need only be in range here)."""
    rng = np.random.default_rng(0)
    with DataWriter(path, Header("chess", "chess768", 768), {"nodes": 1}) as writer:
        writer.append([[(sorted(rng.choice(768, 20, replace=False).tolist()),
                         sorted(rng.choice(768, 20, replace=False).tolist()), int(rng.integers(-300, 300)),
                         int(rng.integers(-1, 2))) for _ in range(50)]])


def test_cli_trains_writes_a_loadable_network_and_a_plot(tmp_path, capsys):
    data, net, plot = tmp_path / "c.zdata", tmp_path / "net.bin", tmp_path / "loss.png"
    _chess_data(data)
    assert train_cli.main(["chess", "--data", str(data), "--out", str(net), "--acc", "8", "--epochs", "2",
                           "--batch", "16", "--plot", str(plot), "--trainer", "numpy"]) == 0
    captured = capsys.readouterr()
    assert "epoch 2/2" in captured.err and "validation loss" in captured.out
    load_network(net, game="chess", features="chess768", inputs=768)
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_cli_errors_are_one_line(tmp_path, capsys):
    data, net = tmp_path / "c.zdata", tmp_path / "net.bin"
    _chess_data(data)
    for argv, message, status in ((["nim", "--data", str(data)], "no network inputs", 1),
                                  (["chess", "--data", str(tmp_path / "none.zdata")], "cannot read", 1),
                                  (["chess", "--data", str(data), "--plot", str(tmp_path / "x.gif")],
                                   ".svg or .png", 2),
                                  (["chess", "--data", str(data), "--plot", str(tmp_path / "no" / "x.png")],
                                   "no such directory", 2)):
        assert train_cli.main(argv + ["--out", str(net)]) == status
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
    assert not net.exists()


def test_the_fitted_scale_is_the_one_the_results_were_drawn_with():
    """Results drawn as wins with probability sigmoid(score / 300): the fit finds about 300."""
    rng = np.random.default_rng(5)
    score = rng.integers(-1500, 1500, 40_000)
    won = rng.random(len(score)) < 1 / (1 + np.exp(-score / 300))
    none = np.zeros(len(score) + 1, dtype=np.int64)
    data = Dataset(Header("connect4", "connect4-7x6", 84), np.zeros(0, np.int32), none, np.zeros(0, np.int32),
                   none, score.astype(np.int16), np.where(won, 1, -1).astype(np.int8))
    assert 270 <= fit_scale(data) <= 330
