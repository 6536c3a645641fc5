"""``zermelo explain``: the static evaluation's terms, for a position and after each legal move.

    zermelo explain mnk -p m=4 -p n=4 -p k=4 --fen ".o../.xx./..../.... o"   # the open-lines example
    zermelo explain checkers --fen "B:W21-32:B1-12"
    zermelo explain chess --fen "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"

The terms are the game's own (its ``eval_terms``), from the side to move's view,
and they add up to ``evaluate()``, the value the search uses at its leaves. After
each move the terms are shown from the mover's view (the negated child value
when the turn passes), so the moves can be compared by them.

A game with network inputs also shows the network's score beside the terms (and
after each move): the network of ``--eval-file``, else the one shipped for the game.

A game of more than two players has no single value to negate: its evaluation is
a vector, one value per player (``values()``), shown for the position and after
each move, the moves ranked by the mover's own entry minus the best other entry
(the scalar the N-player searches use).
"""

from __future__ import annotations

import argparse
import sys

from engine.position import Position


def _terms_text(terms: list[tuple[str, int, str]]) -> list[str]:
    width = max(len(name) for name, _, _ in terms)
    return [f"  {name.ljust(width)}  {value:>+7d}" + (f"   {detail}" if detail else "") for name, value, detail in terms]


def main(argv: list[str]) -> int:
    from protocol.tree_cli import add_position_arguments, load_position

    parser = argparse.ArgumentParser(prog="zermelo explain", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    add_position_arguments(parser, game_help="game name (as UCI_Variant)")
    parser.add_argument("--no-moves", action="store_true", help="only the position, not each legal move")
    parser.add_argument("--eval-file", metavar="PATH", default="",
                        help="network weights (.znn) whose score is shown beside the terms "
                             "(default: the network shipped for the game, if any)")
    args = parser.parse_args(argv)
    game, pos = load_position(parser, args)
    from engine import nnue

    try:
        network = nnue.chosen_for(game, args.eval_file)
    except ValueError as e:
        print(f"zermelo explain: {e}", file=sys.stderr)
        return 2
    if len(game.players) > 2:
        return _vectors(game, pos, args.no_moves)
    if game.eval_terms(pos) is None and network is None:
        print(f"zermelo explain: {game.name} does not break its evaluation into terms", file=sys.stderr)
        return 2

    def eval_terms(p: Position) -> list[tuple[str, int, str]]:
        terms = game.eval_terms(p)
        return terms if terms is not None else [("evaluation", p.evaluate(), "hand-written, not broken into terms")]
    mover = game.players[pos.turn]
    print(f"game: {game.name}; position: {pos.to_text()}")
    print(pos.render())
    marked = game.marked_board(pos)
    if marked is not None:
        # A game may show what its evaluation knows on the board (Go: unconditional life).
        print()
        print(marked)
    print()
    terms = eval_terms(pos)
    print(f"evaluation for {mover} (to move): {pos.evaluate():+d}")
    for line in _terms_text(terms):
        print(line)
    total = sum(value for _, value, _ in terms)
    print(f"  {'sum'.ljust(max(len(n) for n, _, _ in terms))}  {total:>+7d}" + ("" if total == pos.evaluate() else "  (differs!)"))
    if network is not None:
        print(f"network ({network[0]}) for {mover}: {network[1].evaluate_features(*pos.nn_features()):+d}")
    if args.no_moves or pos.outcome() is not None:
        return 0
    moves = pos.legal_moves()
    if not moves:
        return 0
    print()
    print(f"after each move, for {mover}:")
    rows = []
    for m in moves:
        text = pos.move_text(m)
        pos.push(m)
        sign = -1 if pos.turn != game.players.index(mover) else 1
        child = [(name, sign * value, detail) for name, value, detail in eval_terms(pos)]
        if network is not None:
            child.append(("network", sign * network[1].evaluate_features(*pos.nn_features()), ""))
        rows.append((sign * pos.evaluate(), text, child))
        pos.pop()
    rows.sort(key=lambda row: -row[0])
    names = [name for name, _, _ in rows[0][2]]
    short = [name.split(",")[0].split(":")[0][:14] for name in names]
    width = max(len(text) for _, text, _ in rows)
    print(f"  {'move'.ljust(width)}  {'value':>7}" + "".join(f"  {s:>14}" for s in short))
    for value, text, child in rows:
        print(f"  {text.ljust(width)}  {value:>+7d}" + "".join(f"  {v:>+14d}" for _, v, _ in child))
    return 0


def _vectors(game, pos, no_moves: bool) -> int:
    """The evaluation of an N-player game: its value vector, before and after each move."""
    from engine.textbook import engine_scalar

    players = game.players
    mover = pos.turn
    width = max(len(p) for p in players)

    def row(vector) -> str:
        return "  ".join(f"{v:>{max(width, 5)}d}" for v in vector)

    def vector_of() -> list[int]:
        result = pos.result()
        return result if result is not None else pos.values()

    print(f"game: {game.name}; position: {pos.to_text()}")
    print(pos.render())
    print()
    final = pos.result() is not None
    print(f"{'final result' if final else 'evaluation'}: one value per player (at most {game.value_sum} in all)")
    print("  " + "  ".join(f"{p:>{max(width, 5)}}" for p in players))
    print("  " + row(vector_of()))
    print(f"{players[mover]} (to move): own value minus the best other: {engine_scalar(vector_of(), mover):+d}")
    moves = pos.legal_moves()
    if no_moves or final or not moves:
        return 0
    rows = []
    for m in moves:
        text = pos.move_text(m)
        pos.push(m)
        vector = vector_of()
        pos.pop()
        rows.append((engine_scalar(vector, mover), text, vector))
    rows.sort(key=lambda r: -r[0])
    print()
    print(f"after each move, ranked for {players[mover]} (own value minus the best other):")
    mw = max(len(text) for _, text, _ in rows)
    print(f"  {'move'.ljust(mw)}  {'value':>6}  " + "  ".join(f"{p:>{max(width, 5)}}" for p in players))
    for value, text, vector in rows:
        print(f"  {text.ljust(mw)}  {value:>+6d}  {row(vector)}")
    return 0
