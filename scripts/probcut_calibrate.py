"""ProbCut's margin for a game, from its own search: the deep score regressed on the
shallow one over positions of the game's own self-play (Buro's calibration).

Self-play games (the first ``--random-plies`` moves at random, then the search at
``--play-depth``) give the positions; each is searched from a fresh table to every
depth of the ``--pairs`` (``shallow:deep``) with ProbCut off, evaluated as in play
(the game's shipped network, where one ships). For each pair it prints the least
squares fit deep ≈ a·shallow + b, the residuals' σ, and how often the deep score
strays from the shallow one past t·σ: a game's ``ProbCut.margin`` is t·σ, its
``reduction`` deep − shallow. Proven scores are left out.

    nice -n 19 python scripts/probcut_calibrate.py --game reversi --positions 400 --pairs 1:3 2:4 3:5 4:6
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


def score(game: Game, text: str, depth: int, network) -> int:
    pos = game.new_position(text)
    if network is not None:
        pos.nn_attach(network)
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
    args = parser.parse_args()
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
    for shallow, deep in pairs:
        xy = [(s[shallow], s[deep]) for s in scores if abs(s[shallow]) < EVAL_LIMIT and abs(s[deep]) < EVAL_LIMIT]
        xs, ys = [x for x, _ in xy], [y for _, y in xy]
        fit = statistics.linear_regression(xs, ys)
        sigma = statistics.pstdev([y - (fit.slope * x + fit.intercept) for x, y in xy])
        spread = statistics.pstdev(xs)
        past = {t: sum(abs(y - x) > t * sigma for x, y in xy) / len(xy) for t in (1.0, 1.5, 2.0)}
        print(f"shallow {shallow} deep {deep}: n {len(xy)}  a {fit.slope:.3f}  b {fit.intercept:+.1f}  "
              f"sigma {sigma:.1f}  (shallow scores' sd {spread:.1f})  "
              + "  ".join(f"|deep-shallow| > {t}σ: {share:.1%}" for t, share in past.items()))


if __name__ == "__main__":
    main()
