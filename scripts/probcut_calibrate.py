"""ProbCut's margin for a game, from its own search: the deep score regressed on the
shallow one over positions of the game's own self-play (Buro's calibration).

Self-play games (the first ``--random-plies`` moves at random, then the search at
``--play-depth``) give the positions; each is searched from a fresh table to every
depth of the ``--pairs`` (``shallow:deep``) with ProbCut off, evaluated as in play
(the game's shipped network, where one ships). For each pair it prints the least
squares fit deep ≈ a·shallow + b, the residuals' σ, and how often the deep score
strays from the shallow one past t·σ: a game's ``ProbCut.margin`` is t·σ, its
``reduction`` deep − shallow. Proven scores are left out.

``--ladder T`` calibrates Multi-ProbCut instead: for every depth from ``--min-depth``
to ``--max-depth`` the shallow depth of Edax's rule (about half, of the same parity),
the fit at that pair, and the ``ProbCut.ladder`` entry ``(shallow, t·σ - b, t·σ + b)``.

    nice -n 19 python scripts/probcut_calibrate.py --game reversi --positions 400 --pairs 1:3 2:4 3:5 4:6
    nice -n 19 python scripts/probcut_calibrate.py --game reversi --positions 300 --ladder 1.5 --min-depth 4 --max-depth 12
"""

from __future__ import annotations

import argparse
import random
import statistics

import games
from engine import nnue
from engine.game import EVAL_LIMIT, Game
from engine.search import Searcher
from engine.timeman import Limits


def positions(game: Game, count: int, seed: int, random_plies: int, play_depth: int,
              min_empty_plies: int) -> list[str]:
    """``count`` position texts sampled along self-play games, at most one in four plies,
    each game ending at least ``min_empty_plies`` before its end is known."""
    rng = random.Random(seed)
    chosen = nnue.chosen_for(game)
    out: list[str] = []
    while len(out) < count:
        pos = game.new_position()
        if chosen:
            pos.nn_attach(chosen[1])
        searcher = Searcher(16)
        texts = []
        ply = 0
        while pos.outcome() is None and pos.legal_moves():
            moves = pos.legal_moves()
            if ply < random_plies:
                move = rng.choice(moves)
            else:
                result = searcher.search(game, pos, Limits(depth=play_depth))
                if abs(result.score) >= EVAL_LIMIT:
                    break
                move = result.best
            pos.push(move)
            ply += 1
            if ply > random_plies:
                texts.append(pos.to_text())
        texts = texts[:max(0, len(texts) - min_empty_plies)]
        out.extend(texts[rng.randrange(4)::4])
    return out[:count]


def shallow_of(depth: int) -> int:
    """Edax's shallow depth for a node ``depth`` deep: about half, of the same parity
    (the evaluation's odd-even swing then cancels), at least 1 and below ``depth``."""
    shallow = 2 * (depth // 4) + depth % 2
    return shallow if 0 < shallow < depth - 1 else max(1, depth - 2)


def fit(scores: list[dict[int, int]], shallow: int, deep: int) -> tuple[float, float, float, list[tuple[int, int]]]:
    """Least squares deep ≈ a·shallow + b over the unproven scores: (a, b, σ, pairs)."""
    xy = [(s[shallow], s[deep]) for s in scores if abs(s[shallow]) < EVAL_LIMIT and abs(s[deep]) < EVAL_LIMIT]
    xs, ys = [x for x, _ in xy], [y for _, y in xy]
    line = statistics.linear_regression(xs, ys)
    sigma = statistics.pstdev([y - (line.slope * x + line.intercept) for x, y in xy])
    return line.slope, line.intercept, sigma, xy


def score(game: Game, text: str, depth: int, network) -> int:
    """The search's score of ``text`` at ``depth`` from a fresh table; depth 0 is the
    static evaluation (what a gate on it, as Edax's, compares)."""
    pos = game.new_position(text)
    if network is not None:
        pos.nn_attach(network)
    if depth == 0:
        return pos.evaluate()
    return Searcher(16).search(game, pos, Limits(depth=depth)).score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="reversi")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--pairs", nargs="+", default=["1:3", "2:4", "3:5", "4:6"])
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--play-depth", type=int, default=3)
    parser.add_argument("--end-plies", type=int, default=14, help="plies left out before each game's end")
    parser.add_argument("--ladder", type=float, metavar="T", help="Multi-ProbCut: the ladder at t = T")
    parser.add_argument("--min-depth", type=int, default=4)
    parser.add_argument("--max-depth", type=int, default=12)
    args = parser.parse_args()
    if args.ladder is not None:
        args.pairs = [f"{shallow_of(d)}:{d}" for d in range(args.min_depth, args.max_depth + 1)]
    game = games.load(args.game)
    type(game).probcut = None
    chosen = nnue.chosen_for(game)
    network = chosen[1] if chosen else None
    texts = positions(game, args.positions, args.seed, args.random_plies, args.play_depth, args.end_plies)
    pairs = [tuple(int(d) for d in pair.split(":")) for pair in args.pairs]
    depths = sorted({d for pair in pairs for d in pair})
    scores = [{d: score(game, text, d, network) for d in depths} for text in texts]
    print(f"{args.game}: {len(texts)} positions of self-play (seed {args.seed}, {args.random_plies} random plies, "
          f"then depth {args.play_depth}), evaluation {'network ' + chosen[0].rsplit('/', 1)[-1] if chosen else 'hand-written'}")
    ladder = []
    for shallow, deep in pairs:
        a, b, sigma, xy = fit(scores, shallow, deep)
        spread = statistics.pstdev([x for x, _ in xy])
        past = {t: sum(abs(y - x) > t * sigma for x, y in xy) / len(xy) for t in (1.0, 1.5, 2.0)}
        print(f"shallow {shallow} deep {deep}: n {len(xy)}  a {a:.3f}  b {b:+.1f}  "
              f"sigma {sigma:.1f}  (shallow scores' sd {spread:.1f})  "
              + "  ".join(f"|deep-shallow| > {t}σ: {share:.1%}" for t, share in past.items()))
        if args.ladder is not None:
            margin = args.ladder * sigma
            ladder.append((shallow, max(1, round(margin - b)), max(1, round(margin + b))))
    if args.ladder is not None:
        print(f"ProbCut(min_depth={args.min_depth}, reduction=2, margin=..., ladder={tuple(ladder)})")

if __name__ == "__main__":
    main()
