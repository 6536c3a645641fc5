"""Training speed of the numpy and the PyTorch trainer on the same data.

Both take the same batches of the same data from the same start (``engine.train``);
each Adam step (batch to one-hot or bags, forward, backward, update) is timed,
and the median and worst are printed as positions per second, with the hours an
epoch over a million positions takes at the median. Both the wall time and the
process's CPU time are shown: on a shared machine the CPU time is the fair one.

    nice -n 19 python scripts/train_speed.py [--data FILE.zdata ...] [--positions 100000]
                                             [--acc 256] [--batch 4096] [--steps 20] [--threads 1]

Without ``--data`` the positions are chess-like: 768 inputs, 26 to 32 active per view.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine.nnue_data import Dataset, Header, read  # noqa: E402
from engine.train import NumpyModel, TorchModel, Weights, _one_hot, targets, torch_available  # noqa: E402


def chess_like(n: int, rng: np.random.Generator) -> Dataset:
    counts = rng.integers(26, 33, n)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    views = [np.concatenate([np.sort(rng.choice(768, c, replace=False)) for c in counts]).astype(np.int32)
             for _ in range(2)]
    return Dataset(Header("chess", "chess768", 768), views[0], offsets, views[1], offsets.copy(),
                   rng.integers(-600, 600, n).astype(np.int16), rng.integers(-1, 2, n).astype(np.int8))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", nargs="*", help=".zdata files (default: synthetic chess-like positions)")
    p.add_argument("--positions", type=int, default=100_000)
    p.add_argument("--acc", type=int, default=256)
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--threads", type=int, default=1, help="PyTorch's and BLAS's threads are not set here: "
                   "run with OMP_NUM_THREADS; this sets torch.set_num_threads")
    args = p.parse_args()
    rng = np.random.default_rng(1)
    data = read(args.data) if args.data else chess_like(args.positions, rng)
    t = targets(data, 0.5, 400)
    start = Weights.initial(data.header.inputs, args.acc, rng)
    batches = [rng.choice(len(data), args.batch, replace=False) for _ in range(args.steps)]
    print(f"{len(data)} positions, {data.header.inputs} inputs, {len(data.stm) / len(data):.1f} active per view, "
          f"acc {args.acc}, batch {args.batch}, {args.steps} steps")
    trainers = ["numpy"] + (["torch"] if torch_available() else [])
    for name in trainers:
        times, cpu = [], []
        if name == "torch":
            import torch

            torch.set_num_threads(args.threads)
            tm = TorchModel(start, 1e-3)
            for rows in batches:
                began, began_cpu = time.perf_counter(), time.process_time()
                tm.step(data, rows, t)
                times.append(time.perf_counter() - began)
                cpu.append(time.process_time() - began_cpu)
        else:
            nm = NumpyModel(start, 1e-3)
            for rows in batches:
                began, began_cpu = time.perf_counter(), time.process_time()
                nm.step(_one_hot(data, rows, "stm"), _one_hot(data, rows, "other"), t[rows])
                times.append(time.perf_counter() - began)
                cpu.append(time.process_time() - began_cpu)
        for what, spent in (("wall", times[1:]), ("cpu", cpu[1:])):  # the first step warms caches
            median, worst = statistics.median(spent), max(spent)
            print(f"{name:6} {what:4} median {args.batch / median:9.0f} positions/s ({1000 * median:7.1f} ms a "
                  f"step), worst {args.batch / worst:9.0f} positions/s; an epoch of 1M positions "
                  f"{1e6 / (args.batch / median) / 3600:.2f} h")
    if "torch" not in trainers:
        print("torch  not installed (pip install 'zermelo[train]')")


if __name__ == "__main__":
    main()
