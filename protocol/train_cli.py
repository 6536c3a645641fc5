"""``zermelo train``: the evaluation network trained on ``zermelo datagen``'s files.

::

    zermelo train GAME [-p K=V ...] --data FILE.zdata [FILE ...] --out net.bin [--acc 256] [--epochs 10]
                  [--lr 0.001] [--wdl 0.5] [--scale 400] [--batch 4096] [--seed 1]
                  [--val-split 0.05] [--plot loss.png] [--trainer auto|numpy|torch]

The files must hold ``GAME``'s positions in its own feature set (which may follow the
game's parameters, e.g. the board of ``-p m=9 -p n=9``, as ``zermelo datagen`` had them). A share
``--val-split`` of them (drawn with ``--seed``) is kept apart to measure the
validation loss after every epoch; the loss is the mean squared error between
the network's ``sigmoid(eval / scale)`` and ``λ · result + (1 − λ) · sigmoid(score
/ scale)`` with λ = ``--wdl`` (see :mod:`engine.train`). ``--scale`` is the
evaluation units of one unit of the network's output (400 centipawns in chess),
written into the weights file. The network is written quantised by
:func:`engine.nnue.save_network`; ``--plot`` draws the training and validation
loss by epoch (matplotlib). ``--trainer auto`` takes PyTorch when it is installed
(``pip install 'zermelo[train]'``), numpy otherwise; the same seed gives the same
network with one trainer on one machine.
"""

from __future__ import annotations

import argparse
import sys
import time

import games
from engine.nnue import save_network
from engine.nnue_data import DataFileError, read
from engine.train import History, TrainConfig, fit_scale, torch_available, train
from protocol import draw
from protocol.tools import game_params


def plot_loss(history: History, path: str, title: str) -> None:
    """The training loss of each epoch and the validation loss before and after each."""
    draw.plot_lines(path, {"training (mean over the epoch)": (list(range(1, len(history.train) + 1)), history.train),
                           "validation (after the epoch)": (list(range(len(history.val))), history.val)},
                    title, "epoch", "loss (mean squared error)")


class Bar:
    """One progress line on stderr, redrawn in place (a plain line: no extra dependency)."""

    def __init__(self, epochs: int, stream=None):
        self.epochs, self.began, self.last = epochs, time.monotonic(), 0.0
        self.stream = stream or sys.stderr

    def __call__(self, epoch: int, batch: int, batches: int, loss: float) -> None:
        now = time.monotonic()
        if now - self.last < 0.5 and batch != batches:
            return
        self.last = now
        done = ((epoch - 1) * batches + batch) / (self.epochs * batches)
        filled = int(30 * done)
        left = (now - self.began) / done * (1 - done)
        self.stream.write(f"\repoch {epoch}/{self.epochs} [{'#' * filled}{'.' * (30 - filled)}] {100 * done:5.1f}% "
                          f"loss {loss:.5f}, {left:.0f} s left ")
        if batch == batches:
            self.stream.write("\n")
        self.stream.flush()


def _scale(text: str) -> int | str:
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer or auto, not {text!r}") from None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="zermelo train", description="Train the evaluation network on .zdata files.")
    p.add_argument("game", help=f"game name or alias (known: {', '.join(games.names())})")
    p.add_argument("--param", "-p", action="append", default=[], metavar="K=V",
                   help="a game parameter (repeatable), as the data was made with")
    p.add_argument("--data", nargs="+", required=True, metavar="FILE", help="training data (.zdata) files")
    p.add_argument("--out", required=True, help="weights file to write")
    p.add_argument("--acc", type=int, default=256, help="accumulator size per perspective (default 256)")
    p.add_argument("--epochs", type=int, default=10, help="passes over the training data (default 10)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (default 0.001)")
    p.add_argument("--wdl", type=float, default=0.5, help="λ: the result's share of the target (default 0.5)")
    p.add_argument("--scale", type=_scale, default="auto",
                   help="evaluation units per unit of network output, the sigmoid's K; auto (default): "
                        "the K by which the data's scores best predict its results")
    p.add_argument("--batch", type=int, default=4096, help="positions per Adam step (default 4096)")
    p.add_argument("--seed", type=int, default=1, help="seed of the split, the start and the order (default 1)")
    p.add_argument("--val-split", type=float, default=0.05, help="share kept for validation (default 0.05)")
    p.add_argument("--plot", metavar="FILE", help="loss by epoch, a .png or .svg picture")
    p.add_argument("--trainer", choices=("auto", "numpy", "torch"), default="auto",
                   help="auto (default): PyTorch when installed, else numpy")
    return p


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    params = game_params(parser, args.param)
    for flag, value in (("--acc", args.acc), ("--epochs", args.epochs), ("--batch", args.batch),
                        ("--scale", 1 if args.scale == "auto" else args.scale)):
        if value < 1:
            parser.error(f"{flag} must be at least 1")
    if not 0 <= args.wdl <= 1 or not 0 <= args.val_split < 1 or not args.lr > 0:
        parser.error("--wdl must be in [0, 1], --val-split in [0, 1) and --lr above 0")
    trainer = args.trainer if args.trainer != "auto" else ("torch" if torch_available() else "numpy")
    if trainer == "torch" and not torch_available():
        print("zermelo train: --trainer torch needs PyTorch: pip install 'zermelo[train]'", file=sys.stderr)
        return 2
    try:
        if args.plot:
            draw.check_picture_path(args.plot)
    except ValueError as exc:
        # As every picture option: refused before the work, a usage error.
        print(f"zermelo train: {exc}", file=sys.stderr)
        return 2
    try:
        game = games.load(args.game, **params)
        name = games.canonical(args.game)
        inputs = game.inputs
        if inputs is None:
            raise ValueError(f"{name} has no network inputs (no feature set)")
        data = read(args.data, game=name, features=inputs.name)
        if data.header.inputs != inputs.size:
            raise ValueError(f"the data has {data.header.inputs} inputs, {name}'s feature set "
                             f"{inputs.name!r} has {inputs.size}")
        scale = fit_scale(data) if args.scale == "auto" else args.scale
        config = TrainConfig(acc=args.acc, epochs=args.epochs, lr=args.lr, wdl=args.wdl, scale=scale,
                             batch=args.batch, seed=args.seed, val_split=args.val_split, trainer=trainer)
        print(f"{len(data)} positions, {trainer} trainer, {args.acc}x2 accumulator, "
              f"scale {scale}{' (fitted)' if args.scale == 'auto' else ''}", file=sys.stderr)
        weights, history = train(data, config, progress=Bar(args.epochs))
        save_network(args.out, game=name, features=data.header.features, ft_weight=weights.ft_weight,
                     ft_bias=weights.ft_bias, out_weight=weights.out_weight, out_bias=weights.out_bias,
                     scale=scale)
        if args.plot:
            plot_loss(history, args.plot, f"{name}: {len(data)} positions, {args.acc}x2, λ={args.wdl}")
    except draw.PlotsUnavailable as exc:
        print(f"zermelo train: {exc}", file=sys.stderr)
        return 2
    except (DataFileError, ValueError, KeyError, OSError) as exc:
        print(f"zermelo train: {exc.args[0] if isinstance(exc, KeyError) and exc.args else exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("zermelo train: interrupted; nothing written", file=sys.stderr)
        return 130
    print(f"{args.out}: validation loss {history.val[0]:.5f} before, {history.val[-1]:.5f} after "
          f"{args.epochs} epochs")
    return 0
