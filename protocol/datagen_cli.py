"""``zermelo datagen``: training data for the evaluation network from zermelo's own play.

::

    zermelo datagen GAME [-p K=V ...] --games N --nodes K --out FILE.zdata
                    [--random-plies R] [--openings FILE] [--seed S] [--max-plies P]
                    [--chunk G] [--hash MB] [--concurrency C | --backend ray [--address ADDR]]

Game ``i`` of a run starts from an opening drawn with the seed ``(S, i)``: one of
the game's opening sources (``--openings``, as ``zermelo match`` reads them;
chess's built-in short main lines by default, the start position for the other
games) followed by ``R`` uniformly random legal plies. From there the engine plays
both sides by its own search, in this process's workers (no protocol pipes), at
``K`` nodes a move with one table per worker cleared before each game, so a game
depends only on the seed, its number and the settings, whichever worker plays it.
The engine plays with the game's hand-written evaluation, also where a network
ships: the data is what a network learns from, and the shipped networks are
remade byte for byte from such data (:mod:`engine.session` builds the positions).
``--eval-file NET`` has that network play and score instead (a next generation's
data, from a network that learned from zermelo's own games; the file's digest is
kept in the sidecar, so a run resumes only with the same network).
A game ends by the rules, when a search proves the result (its winner wins), or at
``P`` plies of play after the opening as a draw.

Each position searched is kept unless it is not quiet, as NNUE trainers filter:
the side to move in check, or the best move noisy (a capture, a promotion, a
threat quiescence resolves); positions with a proven score are never reached (the
game ends there). A kept position stores its network inputs, the search score
and, once the game has ended, the result, both from the side to move's view
(:mod:`engine.nnue_data`).

Games are played ``--concurrency`` at a time (every core by default) by local
worker processes, or as tasks on a Ray cluster with ``--backend ray``
(:mod:`engine.execution`, as the match runner and the book builder spread their
work), and written in game order a chunk of ``G`` games at a time, each chunk
fsync'd before the file's progress sidecar counts it. ``--games N`` is the total
the file should hold: run the same command again (after Ctrl-C, a crash, or with
a larger N) and it continues where the file ends, with the same games it would
have played.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import signal
import sys
import time
from dataclasses import dataclass
from typing import Callable

import games
from engine import nnue
from engine.execution import Backend, ExecutionError, cluster_cpus, map_unordered
from engine.game import Game, Position, is_proven
from engine.nnue_data import DataFileError, DataWriter, Header, Record, clip_score
from engine.search import Searcher
from engine.session import open_position
from engine.timeman import Limits
from protocol import backend as backend_args
from protocol.match.openings import Opening, add_random_plies, load_openings
from protocol.records import rules_result
from protocol.tools import game_params

FeatureFunction = Callable[[Position], tuple[list[int], list[int]]]


def position_features(pos: Position) -> tuple[list[int], list[int]]:
    """The game's own network inputs of ``pos`` (side to move, other side)."""
    return pos.nn_features()


@dataclass(frozen=True)
class Features:
    """A feature set: its name and input count (the data file's header) and the
    function giving a position's active inputs from both sides."""

    name: str
    inputs: int
    of: FeatureFunction = position_features

    @classmethod
    def of_game(cls, game: Game) -> Features:
        if game.inputs is None:
            raise ValueError(f"{type(game).name} has no network inputs (no feature set)")
        return cls(game.inputs.name, game.inputs.size)


@dataclass(frozen=True)
class Settings:
    """What makes the games: the same settings give the same games (kept in the sidecar)."""

    nodes: int
    random_plies: int = 6
    seed: int = 1
    max_plies: int = 400
    hash_mb: int = 16
    openings: str | None = None
    eval_file: str | None = None
    """The network that plays and scores (``None``: the hand-written evaluation)."""

    def describe(self) -> dict:
        described = {"nodes": self.nodes, "random_plies": self.random_plies, "seed": self.seed,
                     "max_plies": self.max_plies, "hash_mb": self.hash_mb, "openings": self.openings}
        if self.eval_file is not None:
            with open(self.eval_file, "rb") as f:
                described["eval_file_sha256"] = hashlib.sha256(f.read()).hexdigest()
        return described


@dataclass
class GameResult:
    records: list[Record]
    result: int
    """From the first player's view."""
    moves: list[str]
    """The moves played after the opening, in the game's notation."""


class SelfPlay:
    """A worker's state: the game, its searcher, the settings and the openings."""

    def __init__(self, name: str, params: dict, settings: Settings, features: Features,
                 openings: tuple[Opening, ...] = (Opening(),)):
        self.game = games.load(name, **params)
        self.settings = settings
        self.features = features
        self.openings = list(openings)
        self.searcher = Searcher(settings.hash_mb)
        self.network = None if settings.eval_file is None else nnue.load_for_game(self.game, settings.eval_file)

    def play(self, opening: Opening) -> GameResult:
        game, searcher, settings = self.game, self.searcher, self.settings
        # The hand-written evaluation plays unless --eval-file names a network.
        pos = open_position(game, opening.start, opening.moves, self.network)
        # A fresh table makes the game a function of its opening alone.
        searcher.clear()
        kept: list[tuple[list[int], list[int], int, int]] = []
        limits = Limits(nodes=settings.nodes)
        result = 0
        played: list[str] = []
        for _ in range(settings.max_plies):
            ended = rules_result(pos)
            if ended is not None:
                result = ended
                break
            found = searcher.search(game, pos, limits, move_overhead_ms=0)
            best, score = found.best, found.score
            assert best is not None  # the rules say play goes on
            if is_proven(score):
                # A proven score is the result: its side wins from here.
                result = 1 if (score > 0) == (pos.turn == 0) else -1
                break
            if not pos.in_check() and not pos.is_noisy(best):
                stm, other = self.features.of(pos)
                kept.append((list(stm), list(other), clip_score(score), pos.turn))
            played.append(pos.move_text(best))
            pos.push(best)
        records = [(stm, other, score, result if turn == 0 else -result) for stm, other, score, turn in kept]
        return GameResult(records, result, played)


def _play(state: SelfPlay, index: int) -> GameResult:
    # The worker draws the opening, so that a long run hands out only numbers.
    return state.play(opening_of(state.game, state.openings, state.settings, index))


def opening_of(game: Game, openings: list[Opening], settings: Settings, index: int) -> Opening:
    """Game ``index``'s opening: drawn from ``openings`` and extended by random plies,
    seeded by the run's seed and the game's number."""
    rng = random.Random(f"{settings.seed}:{index}")
    return add_random_plies(game, rng.choice(openings), settings.random_plies, rng)


def generate(name: str, out: str, *, games_total: int, settings: Settings, params: dict | None = None,
             features: Features | None = None, concurrency: int = 1, backend: Backend = Backend(),
             chunk: int = 50, progress: Callable[[str], None] | None = None) -> DataWriter:
    """Play games until ``out`` holds ``games_total`` (resuming what it has); returns
    the closed writer (its counts). Raises ``ValueError`` (``DataFileError``) for a
    bad game, parameters or file."""
    params = params or {}
    game = games.load(name, **params)
    if len(game.players) != 2:
        raise ValueError(f"{name}: training data is for two-player games")
    features = features or Features.of_game(game)
    if settings.eval_file is not None:
        nnue.load_for_game(game, settings.eval_file)  # a file that cannot serve is refused before any game
    say = progress or (lambda text: None)
    openings = load_openings(settings.openings, games.canonical(name), warn=say)
    header = Header(games.canonical(name), features.name, features.inputs)
    described = {**settings.describe(), "params": params}
    with DataWriter(out, header, described) as writer:
        first = writer.games
        items = list(range(first, games_total))
        if not items:
            say(f"{out}: already holds {writer.games} games ({writer.positions} positions)")
            return writer
        init = (SelfPlay, (games.canonical(name), params, settings, features, tuple(openings)))
        began = last = time.monotonic()
        done: dict[int, GameResult] = {}
        written, positions = 0, writer.positions
        wins = [0, 0, 0]
        with contextlib.closing(map_unordered(backend, init, _play, items, jobs=concurrency)) as results:
            for index, played in results:
                done[index] = played
                # Written in game order, a chunk at a time (the last one may be short).
                while written < len(items):
                    size = min(chunk, len(items) - written)
                    if not all(i in done for i in range(written, written + size)):
                        break
                    batch = [done.pop(i) for i in range(written, written + size)]
                    writer.append([g.records for g in batch])
                    for g in batch:
                        wins[1 - g.result] += 1
                    written += size
                now = time.monotonic()
                if now - last >= 10 or written == len(items):
                    last = now
                    hours = max(now - began, 1e-3) / 3600
                    say(f"{writer.games}/{games_total} games written, {writer.positions} positions; "
                        f"this run: {written + len(done)} games played, first player +{wins[0]} ={wins[1]} "
                        f"-{wins[2]} of those written, {(writer.positions - positions) / hours:.0f} positions/hour")
    return writer


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="zermelo datagen",
                                description="Self-play training data for the evaluation network (.zdata).")
    p.add_argument("game", help=f"game name or alias (known: {', '.join(games.names())})")
    p.add_argument("--param", "-p", action="append", default=[], metavar="K=V", help="a game parameter (repeatable)")
    p.add_argument("--games", type=int, required=True, help="games the file should hold (resumes toward it)")
    p.add_argument("--nodes", type=int, required=True, help="search nodes per move")
    p.add_argument("--out", required=True, help="data file (.zdata); its progress sidecar is FILE.progress")
    p.add_argument("--random-plies", type=int, default=6, metavar="R",
                   help="uniformly random plies after each opening (default 6)")
    p.add_argument("--openings", metavar="FILE",
                   help="opening positions, as zermelo match reads them (default: chess's built-in lines, "
                        "the start position for other games)")
    p.add_argument("--seed", type=int, default=1, help="seed of the openings (default 1)")
    p.add_argument("--max-plies", type=int, default=400, help="a game this many plies past its opening is a draw (default 400)")
    p.add_argument("--chunk", type=int, default=50, help="games per fsync'd chunk (default 50)")
    p.add_argument("--hash", type=int, default=16, help="MB of hash per worker (default 16)")
    p.add_argument("--eval-file", metavar="NET",
                   help="this network plays and scores (default: the hand-written evaluation)")
    p.add_argument("--concurrency", type=int,
                   help="games at once (default: every core here, or the Ray cluster's CPUs)")
    backend_args.add_arguments(p)
    return p


def _stopper(main_pid: int) -> Callable[[int, object], None]:
    def interrupt(signum: int, frame: object) -> None:
        if os.getpid() == main_pid:
            raise KeyboardInterrupt
        # A forked worker ended by its pool dies by the signal, as it would have.
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    return interrupt


def main(argv: list[str]) -> int:
    # A run in the background is stopped by SIGTERM (its SIGINT is often ignored there):
    # both end it as Ctrl-C does, the games written kept.
    signal.signal(signal.SIGTERM, _stopper(os.getpid()))
    parser = _parser()
    args = parser.parse_args(argv)
    params = game_params(parser, args.param)
    for flag, value, least in (("--games", args.games, 1), ("--nodes", args.nodes, 1),
                               ("--random-plies", args.random_plies, 0), ("--max-plies", args.max_plies, 1),
                               ("--chunk", args.chunk, 1), ("--hash", args.hash, 1)):
        if value < least:
            parser.error(f"{flag} must be at least {least}")
    if args.concurrency is not None and args.concurrency < 1:
        parser.error("--concurrency must be at least 1")
    settings = Settings(nodes=args.nodes, random_plies=args.random_plies, seed=args.seed,
                        max_plies=args.max_plies, hash_mb=args.hash, openings=args.openings,
                        eval_file=args.eval_file)
    try:
        backend = backend_args.from_args(args)
        jobs = args.concurrency or (cluster_cpus(backend) if backend.is_ray else os.cpu_count() or 1)
        writer = generate(args.game, args.out, games_total=args.games, settings=settings, params=params,
                          concurrency=jobs, backend=backend, chunk=args.chunk,
                          progress=lambda text: print(text, file=sys.stderr, flush=True))
    except ExecutionError as exc:
        print(f"zermelo datagen: {exc}", file=sys.stderr)
        return 2
    except (DataFileError, ValueError, KeyError, OSError) as exc:
        print(f"zermelo datagen: {exc.args[0] if isinstance(exc, KeyError) and exc.args else exc}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("zermelo datagen: interrupted; the games written are kept, run the same command to resume",
              file=sys.stderr)
        return 130
    print(f"{args.out}: {writer.games} games, {writer.positions} positions")
    return 0
