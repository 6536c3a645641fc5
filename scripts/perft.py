"""Deep chess perft with zermelo's board, optionally checked against the published
figures and split over processes by root move; and perft of the games of more than
two players, checked against their simple versions (``tests/nplayer_simple.py``).

    nice python scripts/perft.py                      # start position, depth 6
    nice python scripts/perft.py --fen "<FEN>" --depth 5 --jobs 2 --divide
    nice python scripts/perft.py --published          # every published figure up to --max-nodes
    nice python scripts/perft.py --game rolit --players 3 --depth 8 --simple
    nice python scripts/perft.py --game mnkmulti --fen "6/6/2x3/2o+2/6/6 x" --depth 4 --simple
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from engine.perft import perft  # noqa: E402

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Chessprogramming wiki figures, as listed in the shared REFERENCE.md.
PUBLISHED = {
    START: {5: 4_865_609, 6: 119_060_324},
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1": {5: 193_690_690},
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1": {5: 674_624, 6: 11_030_083},
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1": {5: 15_833_292},
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8": {5: 89_941_194},
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10": {5: 164_075_551},
}


def _subtree(args: tuple[str, str, int]) -> tuple[str, int]:
    fen, move, depth = args
    pos = games.load("chess").new_position(fen)
    pos.push(pos.parse_move(move))
    return move, perft(pos, depth - 1) if depth > 1 else 1


def run(fen: str, depth: int, jobs: int, divide: bool) -> int:
    pos = games.load("chess").new_position(fen)
    work = [(fen, pos.move_text(m), depth) for m in pos.legal_moves()]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_subtree, work))
    else:
        parts = [_subtree(w) for w in work]
    if divide:
        for move, n in parts:
            print(f"{move}: {n}")
    return sum(n for _, n in parts)


def run_game(name: str, players: int | None, text: str | None, depth: int, simple: bool) -> int:
    """Perft of a game other than chess (start position unless ``text``), timed; with
    ``simple``, the simple version's count too, which must be equal."""
    game = games.load(name, **({"players": players} if players else {}))
    pos = game.new_position(text)
    t0 = time.perf_counter()
    n = perft(pos, depth)
    dt = time.perf_counter() - t0
    line = f"{game.name} {len(game.players)} players {pos.to_text()}  depth {depth}: {n:,} in {dt:.1f} s"
    failed = False
    if simple:
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
        from nplayer_simple import mnk_perft, rolit_perft

        t0 = time.perf_counter()
        if game.name == "rolit":
            expected = rolit_perft(pos.to_text(), len(game.players), depth)
        else:
            expected = mnk_perft(pos.to_text(), len(game.players), game.m, game.k, depth)
        failed = n != expected
        line += f"; simple version {expected:,} in {time.perf_counter() - t0:.1f} s {'MISMATCH' if failed else 'ok'}"
    print(line, flush=True)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="chess", help="chess (default), rolit or mnkmulti")
    ap.add_argument("--players", type=int, help="player count of rolit or mnkmulti")
    ap.add_argument("--simple", action="store_true", help="check rolit or mnkmulti against the simple version")
    ap.add_argument("--fen", default=START)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--published", action="store_true", help="run every published figure")
    ap.add_argument("--max-nodes", type=int, default=200_000_000)
    args = ap.parse_args(argv)
    if games.canonical(args.game) != "chess":
        return run_game(args.game, args.players, None if args.fen == START else args.fen, args.depth, args.simple)
    cases = ([(fen, d) for fen, figures in PUBLISHED.items() for d in figures
              if figures[d] <= args.max_nodes] if args.published else [(args.fen, args.depth)])
    failed = False
    for fen, depth in cases:
        t0 = time.perf_counter()
        n = run(fen, depth, args.jobs, args.divide)
        dt = time.perf_counter() - t0
        expected = PUBLISHED.get(fen, {}).get(depth)
        verdict = "" if expected is None else ("ok" if n == expected else f"MISMATCH (published {expected:,})")
        failed |= expected is not None and n != expected
        print(f"{fen}  depth {depth}: {n:,} nodes in {dt:.1f} s ({n / dt:,.0f} nodes/s, "
              f"{args.jobs} job(s)) {verdict}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
