"""What the chess evaluation terms beyond material+PST are worth, in games.

For each comparison, zermelo with the full evaluation plays zermelo with some
term groups switched off (:func:`games.chess.evaluate.set_terms`), in-process:
one :class:`engine.search.Searcher` per side, a fixed node budget per move
(deterministic and independent of the machine's load), from the built-in
openings of ``zermelo match`` (``protocol.match.openings.CHESS_OPENINGS``), each
played twice with colours swapped. The two sides differ only in the evaluation:
at a fixed node budget a term's time cost is not charged, so the figures are
the knowledge gained.

Games end by the rules (mate, stalemate, fifty moves, threefold repetition,
insufficient material) or by adjudication on both sides' search scores:
a win when both scores favour one side by ``--resign-cp`` or more for the last
3 moves of each side; a draw from move 40 when both are within 10 cp for the
last 8 moves of each side; a draw after ``--max-plies``.

Comparisons (``--compare``): ``mobility``, ``pawns`` (doubled, isolated and
passed pawns), ``king`` (king attackers and pawn shield), ``pieces`` (bishop
pair, rooks on open files), ``scale`` (drawish material) -- one group off --
and ``all``: every group off, i.e. tapered PeSTO alone. Prints, per
comparison, the full evaluation's wins/draws/losses, score, and Elo with its 95%
interval from opening pairs (``protocol.match.stats.pentanomial``) and LOS.
Each finished game is appended to ``--out`` (JSON lines); games already there
are not replayed, so an interrupted run resumes.

    nice python scripts/eval_gain.py --compare mobility,pawns,king,all --openings 32 --out /tmp/eval_gain.jsonl
    nice python scripts/eval_gain.py --compare pieces --nodes 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from engine.search import Searcher  # noqa: E402
from engine.timeman import Limits  # noqa: E402
from games.chess.evaluate import TERMS, set_terms  # noqa: E402
from protocol.match.openings import builtin_chess  # noqa: E402
from protocol.match.stats import los, pair_bucket, pentanomial, trinomial  # noqa: E402

#: Term groups switched off for the weaker side, by comparison name.
COMPARISONS = {name: (name,) for name in TERMS} | {"all": TERMS}
RESIGN_MOVES = 3
DRAW_FROM_PLY = 80
DRAW_MOVES = 8
DRAW_CP = 10


def play(opening: tuple[str, ...], full_side: int, off: tuple[str, ...], nodes: int,
         resign_cp: int, max_plies: int) -> tuple[float, str, int]:
    """One game from ``opening`` (UCI moves): the full evaluation's score (1, 0.5, 0),
    how the game ended, and its length in plies."""
    game = games.load("chess")
    pos = game.new_position()
    for text in opening:
        pos.push(pos.parse_move(text))
    terms = [TERMS, TERMS]
    terms[1 - full_side] = tuple(t for t in TERMS if t not in off)
    searchers = (Searcher(8), Searcher(8))
    white_scores: list[int] = []
    result, reason = None, ""
    try:
        while result is None:
            plies = len(opening) + len(white_scores)
            done = pos.outcome()
            if done is not None or not pos.legal_moves():
                value = done if done is not None else pos.no_moves_value()
                white = value if pos.turn == 0 else -value
                result, reason = (white + 1) / 2, _rule_reason(pos, done, value)
                break
            tail = white_scores[-2 * RESIGN_MOVES:]
            if len(tail) == 2 * RESIGN_MOVES and (min(tail) >= resign_cp or max(tail) <= -resign_cp):
                result, reason = (1.0 if tail[0] > 0 else 0.0), "adjudicated win"
                break
            tail = white_scores[-2 * DRAW_MOVES:]
            if (plies >= DRAW_FROM_PLY and len(tail) == 2 * DRAW_MOVES
                    and max(abs(s) for s in tail) <= DRAW_CP):
                result, reason = 0.5, "adjudicated draw"
                break
            if plies >= max_plies:
                result, reason = 0.5, "move limit"
                break
            set_terms(terms[pos.turn])
            found = searchers[pos.turn].search(game, pos, Limits(nodes=nodes))
            white_scores.append(found.score if pos.turn == 0 else -found.score)
            pos.push(found.best)
    finally:
        set_terms()
    score = result if full_side == 0 else 1.0 - result
    return score, reason, len(opening) + len(white_scores)


def _rule_reason(pos, done: int | None, value: int) -> str:
    if done is None:
        return "checkmate" if value else "stalemate"
    if pos.is_insufficient_material():
        return "insufficient material"
    return "fifty moves" if pos.halfmove >= 100 else "repetition"


def _task(args: tuple) -> dict:
    compare, index, opening, full_side, nodes, resign_cp, max_plies = args
    start = time.perf_counter()
    score, reason, plies = play(opening, full_side, COMPARISONS[compare], nodes, resign_cp, max_plies)
    return {"compare": compare, "opening": index, "full_side": full_side, "nodes": nodes,
            "score": score, "reason": reason, "plies": plies,
            "seconds": round(time.perf_counter() - start, 1)}


def report(records: list[dict], compares: list[str], nodes: int, out=sys.stdout) -> None:
    """One table row per comparison: the full evaluation's results."""
    print(f"Full evaluation against the same engine with term groups off, {nodes} nodes per move.", file=out)
    print("| terms off | games | W-D-L (full) | score | Elo ± 95% (pairs) | LOS | adjudicated |", file=out)
    print("|---|---:|---:|---:|---:|---:|---:|", file=out)
    for compare in compares:
        rows = [r for r in records if r["compare"] == compare and r["nodes"] == nodes]
        if not rows:
            continue
        w = sum(r["score"] == 1.0 for r in rows)
        d = sum(r["score"] == 0.5 for r in rows)
        lo = len(rows) - w - d
        by_opening: dict[int, dict[int, float]] = {}
        for r in rows:
            by_opening.setdefault(r["opening"], {})[r["full_side"]] = r["score"]
        penta = [0] * 5
        for pair in by_opening.values():
            if len(pair) == 2:
                penta[pair_bucket(pair[0], pair[1])] += 1
        est = pentanomial(penta) if sum(penta) else trinomial(w, d, lo)
        adjudicated = sum(r["reason"].startswith("adjudicated") or r["reason"] == "move limit" for r in rows)
        label = "all (PeSTO only)" if compare == "all" else compare
        print(f"| {label} | {len(rows)} | {w}-{d}-{lo} | {100 * (w + d / 2) / len(rows):.1f}% | {est} "
              f"| {100 * los(w, lo):.0f}% | {adjudicated} |", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", default="mobility,pawns,king,all",
                        help=f"comma-separated, from: {', '.join(COMPARISONS)}")
    parser.add_argument("--openings", type=int, default=42, help="how many of the 42 built-in openings")
    parser.add_argument("--nodes", type=int, default=3000, help="node budget per move")
    parser.add_argument("--resign-cp", type=int, default=600)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, help="JSON-lines file of finished games (resumed if present)")
    args = parser.parse_args(argv)
    compares = args.compare.split(",")
    unknown = [c for c in compares if c not in COMPARISONS]
    if unknown:
        parser.error(f"unknown comparison {unknown}; known: {', '.join(COMPARISONS)}")
    openings = builtin_chess()
    n = min(args.openings, len(openings))
    # Spread over the whole list: it is grouped by first move.
    chosen = [(i * len(openings) // n, openings[i * len(openings) // n].moves) for i in range(n)]
    records: list[dict] = []
    if args.out and args.out.exists():
        records = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    done = {(r["compare"], r["opening"], r["full_side"], r["nodes"]) for r in records}
    tasks = [(c, i, moves, side, args.nodes, args.resign_cp, args.max_plies)
             for i, moves in chosen for c in compares for side in (0, 1)
             if (c, i, side, args.nodes) not in done]
    print(f"{len(tasks)} games to play ({len(records)} on file), {args.jobs} job(s)", file=sys.stderr)
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for k, rec in enumerate(pool.imap_unordered(_task, tasks), 1):
            records.append(rec)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(rec) + "\n")
            print(f"[{k}/{len(tasks)} {time.perf_counter() - start:.0f}s] {rec['compare']} opening {rec['opening']} "
                  f"full={'wb'[rec['full_side']]}: {rec['score']} ({rec['reason']}, {rec['plies']} plies, "
                  f"{rec['seconds']}s)", file=sys.stderr, flush=True)
    report(records, compares, args.nodes)
    return 0


class _Serial:
    """``multiprocessing.Pool``'s ``imap_unordered`` in this process."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def imap_unordered(self, fn, items):
        return map(fn, items)


if __name__ == "__main__":
    raise SystemExit(main())
