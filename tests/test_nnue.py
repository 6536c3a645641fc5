"""The network kernel: the weights file, its refusals, and the quantised arithmetic."""

from __future__ import annotations

import random
import struct
import zlib

import numpy as np
import pytest

from engine import nnue
from engine.nnue import QA, QB, NetworkFileError, load_network, save_network

pytestmark = pytest.mark.both_builds


def random_float_net(inputs: int, acc: int, seed: int, spread: float = 0.3):
    rng = np.random.default_rng(seed)
    return dict(ft_weight=rng.uniform(-spread, spread, (inputs, acc)),
                ft_bias=rng.uniform(-spread, spread, acc),
                out_weight=rng.uniform(-1.0, 1.0, 2 * acc),
                out_bias=float(rng.uniform(-0.5, 0.5)))


def write(path, inputs=40, acc=16, seed=1, game="chess", features="test40", scale=400):
    w = random_float_net(inputs, acc, seed)
    save_network(path, game=game, features=features, scale=scale, **w)
    return w


def load(path, **kw):
    args = dict(game="chess", features="test40", inputs=40)
    args.update(kw)
    return load_network(path, **args)


def test_round_trip(tmp_path):
    path = tmp_path / "n.znn"
    w = write(path)
    net = load(path)
    assert (net.game, net.features, net.inputs, net.acc, net.scale) == ("chess", "test40", 40, 16, 400)
    assert np.array_equal(net.ft, np.rint(w["ft_weight"] * QA).astype(np.int16))
    assert np.array_equal(net.bias, np.rint(w["ft_bias"] * QA).astype(np.int16))
    assert np.array_equal(net.out, np.rint(w["out_weight"] * QB).astype(np.int16))
    assert net.out_bias == round(w["out_bias"] * QA * QB)
    # Saving what was loaded gives the same bytes.
    again = tmp_path / "again.znn"
    save_network(again, game="chess", features="test40", ft_weight=net.ft / QA, ft_bias=net.bias / QA,
                 out_weight=net.out / QB, out_bias=net.out_bias / (QA * QB), scale=400)
    assert again.read_bytes() == path.read_bytes()


def _reseal(data: bytes) -> bytes:
    """``data`` (without its checksum) with a valid checksum appended."""
    return data + struct.pack("<I", zlib.crc32(data))


@pytest.mark.parametrize("case, needle", [
    ("missing", "cannot read"),
    ("empty", "bad magic"),
    ("magic", "bad magic"),
    ("version", "version 2"),
    ("truncated_header", "truncated"),
    ("truncated", "truncated"),
    ("trailing", "after the network"),
    ("flipped", "checksum"),
    ("game", "for the game 'reversi'"),
    ("features", "feature set 'other'"),
    ("inputs", "the feature set 'test40' has 41"),
    ("acc", "sizes out of range"),
    ("quantisation", "quantisation"),
    ("overflow", "beyond int16"),
])
def test_bad_files_are_refused_with_one_line(tmp_path, case, needle):
    path = tmp_path / "n.znn"
    write(path)
    good = path.read_bytes()
    body = good[:-4]
    head = len(nnue.MAGIC) + 4 + 2 + 5 + 2 + 6  # up to the sizes
    kw = {}
    if case == "missing":
        path = tmp_path / "absent.znn"
    elif case == "empty":
        path.write_bytes(b"")
    elif case == "magic":
        path.write_bytes(b"X" + good[1:])
    elif case == "version":
        path.write_bytes(_reseal(body[:8] + struct.pack("<I", 2) + body[12:]))
    elif case == "truncated_header":
        path.write_bytes(good[:head + 3])
    elif case == "truncated":
        path.write_bytes(good[:-100])
    elif case == "trailing":
        path.write_bytes(good + b"\0\0")
    elif case == "flipped":
        data = bytearray(good)
        data[len(data) // 2] ^= 0x10
        path.write_bytes(bytes(data))
    elif case == "game":
        write(path, game="reversi")
    elif case == "features":
        write(path, features="other")
    elif case == "inputs":
        kw = {"inputs": 41}
    elif case == "acc":
        path.write_bytes(_reseal(body[:head + 4] + struct.pack("<I", 0) + body[head + 8:]))
    elif case == "quantisation":
        path.write_bytes(_reseal(body[:head + 8] + struct.pack("<H", 127) + body[head + 10:]))
    elif case == "overflow":
        w = random_float_net(40, 16, 3)
        w["ft_weight"][:, 0] = 4.0  # 40 inputs of 1020 each: far beyond int16 together
        save_network(path, game="chess", features="test40", scale=400, **w)
    with pytest.raises(NetworkFileError) as e:
        load(path, **kw)
    message = str(e.value)
    assert needle in message and "\n" not in message


def test_overflow_bound_follows_the_most_active_inputs(tmp_path):
    path = tmp_path / "n.znn"
    w = random_float_net(40, 16, 3)
    w["ft_weight"][:, 0] = 4.0
    w["ft_bias"][0] = 0.0
    save_network(path, game="chess", features="test40", scale=400, **w)
    # 32 active inputs of 1020 reach 32640 (fits); 33 would not.
    assert load(path, max_active=32).acc == 16
    with pytest.raises(NetworkFileError, match="beyond int16"):
        load(path, max_active=33)


def test_save_refuses_what_cannot_be_quantised(tmp_path):
    w = random_float_net(8, 4, 1)
    w["ft_weight"][0, 0] = 200.0
    with pytest.raises(ValueError, match="ft_weight"):
        save_network(tmp_path / "x.znn", game="chess", features="f", scale=400, **w)
    w = random_float_net(8, 4, 1)
    with pytest.raises(ValueError, match="out_weight"):
        save_network(tmp_path / "x.znn", game="chess", features="f", scale=400,
                     **{**w, "out_weight": np.zeros(5)})


def float_model(w, stm, other, scale):
    def ft(active):
        return np.clip(w["ft_bias"] + w["ft_weight"][active].sum(axis=0), 0.0, 1.0)
    return float((np.concatenate([ft(stm), ft(other)]) @ w["out_weight"] + w["out_bias"]) * scale)


@pytest.mark.parametrize("seed", range(6))
def test_quantised_forward_pass_follows_the_float_model(tmp_path, seed):
    """The integer score is the float model's within the quantisation error.

    Each quantised weight is off by at most half a step: a feature weight or bias by
    1/(2·QA), so an accumulator entry with k active inputs by (k + 1)/(2·QA) (clipping
    only shrinks it); an output weight by 1/(2·QB) on an activation of at most 1; the
    output bias by 1/(2·QA·QB); the final floor division by one unit. So
    |int − float| ≤ scale · (Σ_i |w_i|·e_i + 2·acc·(1/(2·QB)) + 1/(2·QA·QB)) + 1,
    with e_i the accumulator error bound of its perspective.
    """
    inputs, acc, scale = 64, 24, 400
    path = tmp_path / "n.znn"
    w = random_float_net(inputs, acc, seed)
    save_network(path, game="chess", features="f64", scale=scale, **w)
    net = load_network(path, game="chess", features="f64", inputs=inputs)
    rng = random.Random(seed)
    for _ in range(30):
        stm = rng.sample(range(inputs), rng.randint(0, 20))
        other = rng.sample(range(inputs), rng.randint(0, 20))
        exact = float_model(w, stm, other, scale)
        got = net.evaluate_features(stm, other)
        e = np.concatenate([np.full(acc, (len(stm) + 1) / (2 * QA)), np.full(acc, (len(other) + 1) / (2 * QA))])
        bound = scale * (np.abs(w["out_weight"]) @ e + 2 * acc / (2 * QB) + 1 / (2 * QA * QB)) + 1
        assert abs(got - exact) <= bound, (got, exact, bound)


def test_accumulator_evaluate_equals_the_reference(tmp_path):
    """The accumulator's incremental rows and output (C arrays in the compiled build)
    give exactly the integers of the reference's full refresh."""
    inputs, acc = 64, 24
    path = tmp_path / "n.znn"
    save_network(path, game="chess", features="f64", scale=400, **random_float_net(inputs, acc, 7, 0.6))
    net = load_network(path, game="chess", features="f64", inputs=inputs)
    rng = random.Random(7)
    views = [rng.sample(range(inputs), 10), rng.sample(range(inputs), 10)]
    a = net.accumulator(views[0], views[1])
    history = []
    for _ in range(300):
        if history and rng.random() < 0.4:
            a.pop()
            views = history.pop()
        else:
            history.append([v[:] for v in views])
            a.push()
            for p in range(2):
                if views[p] and rng.random() < 0.7:
                    f = views[p].pop(rng.randrange(len(views[p])))
                    a.sub_one(p, f)
                free = [f for f in range(inputs) if f not in views[p]]
                f = rng.choice(free)
                views[p].append(f)
                a.add_one(p, f)
        for p in range(2):
            assert a.view(p) == net.refresh(views[p])
        for turn in range(2):
            assert a.evaluate(turn) == net.evaluate_features(views[turn], views[turn ^ 1])
