"""A deliberately plain UCI engine for measuring zermelo's search against.

It plays every registered game with zermelo's rules (``games.load``,
``legal_moves``/``push``/``pop``/``outcome``/``no_moves_value``) but its own
search: negamax alpha-beta with iterative deepening and nothing else — no
transposition table, no quiescence, no book, no move ordering beyond trying
the previous iteration's best root move first, no pruning beyond alpha-beta.

The evaluation is material only, from the side to move's view:

- reversi: own discs minus the opponent's discs;
- kalah: own store minus the opponent's store (seeds in the pits are ignored);
- checkers, shashki: man = 100, king = 130, own minus the opponent's;
- every other game (connect4, chess, nim, tic-tac-toe, m,n,k): 0, so only
  the ends of the game found by the search count.

A score is negated only when the move changed the side to move (Kalah extra
turns). Speaks UCI with ``setoption name UCI_Variant value GAME``; ``go``
understands ``movetime``, ``wtime``/``btime``/``winc``/``binc``, ``depth``.

    python scripts/baseline_engine.py
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import games  # noqa: E402

WIN = 1_000_000
MAX_DEPTH = 64


def _reversi(pos) -> int:
    return pos.own.bit_count() - pos.opp.bit_count()


def _kalah(pos) -> int:
    b, p = pos.board, pos.game.pits
    diff = b[p] - b[2 * p + 1]
    return diff if pos.turn == 0 else -diff


def _draughts(pos) -> int:
    own, opp = pos.occ[pos.turn], pos.occ[pos.turn ^ 1]
    k = pos.kings
    return (100 * ((own & ~k).bit_count() - (opp & ~k).bit_count())
            + 130 * ((own & k).bit_count() - (opp & k).bit_count()))


EVALUATIONS = {"reversi": _reversi, "kalah": _kalah, "checkers": _draughts, "shashki": _draughts}


class _Timeout(Exception):
    pass


class Baseline:
    """Iterative-deepening alpha-beta over one position of one game."""

    def __init__(self, game):
        self.game = game
        self.evaluate = EVALUATIONS.get(game.name, lambda pos: 0)
        self.nodes = 0
        self.deadline = float("inf")
        self.root_best = None
        self.root_improved = False

    def search(self, pos, budget_s: float | None, max_depth: int, out) -> str | None:
        """Search ``pos`` for ``budget_s`` seconds (None: no limit) or ``max_depth``
        plies; print ``info`` lines to ``out``; return the best move's text."""
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            return None
        start = time.monotonic()
        self.deadline = start + budget_s if budget_s is not None else float("inf")
        self.nodes = 0
        best = moves[0]
        for depth in range(1, max_depth + 1):
            ordered = [best] + [m for m in moves if m != best]
            try:
                score, best = self._root(pos, ordered, depth)
            except _Timeout:
                # Root moves that beat the previous best move at the new depth are better.
                if self.root_improved:
                    best = self.root_best
                break
            ms = int((time.monotonic() - start) * 1000)
            print(f"info depth {depth} score {_uci_score(score)} nodes {self.nodes} time {ms} "
                  f"pv {pos.move_text(best)}", file=out, flush=True)
            if abs(score) > WIN - 1000:
                break
        return pos.move_text(best)

    def _root(self, pos, moves, depth):
        alpha, best = -WIN - 1, moves[0]
        self.root_best, self.root_improved = best, False
        me = pos.turn
        for i, m in enumerate(moves):
            pos.push(m)
            try:
                if pos.turn == me:
                    v = self._negamax(pos, depth - 1, alpha, WIN + 1, 1)
                else:
                    v = -self._negamax(pos, depth - 1, -WIN - 1, -alpha, 1)
            finally:
                pos.pop()
            if v > alpha:
                alpha, best = v, m
                self.root_best, self.root_improved = m, i > 0
        return alpha, best

    def _negamax(self, pos, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 255 and time.monotonic() > self.deadline:
            raise _Timeout
        result = pos.outcome()
        if result is not None:
            return result * (WIN - ply)
        moves = pos.legal_moves()
        if not moves:
            return pos.no_moves_value() * (WIN - ply)
        if depth <= 0:
            return self.evaluate(pos)
        me = pos.turn
        for m in moves:
            pos.push(m)
            try:
                if pos.turn == me:
                    v = self._negamax(pos, depth - 1, alpha, beta, ply + 1)
                else:
                    v = -self._negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            finally:
                pos.pop()
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        return alpha


def _uci_score(score: int) -> str:
    if abs(score) > WIN - 1000:
        plies = WIN - abs(score)
        moves = (plies + 1) // 2
        return f"mate {moves if score > 0 else -moves}"
    return f"cp {score}"


def _budget(words: list[str], turn: int) -> tuple[float | None, int]:
    """Seconds to think and the depth cap from the words of a ``go`` command."""
    args = {}
    for i, w in enumerate(words[:-1]):
        if words[i + 1].lstrip("-").isdigit():
            args[w] = int(words[i + 1])
    depth = args.get("depth", MAX_DEPTH)
    if "movetime" in args:
        return max(0.01, args["movetime"] / 1000 - 0.03), depth
    clock = args.get("wtime" if turn == 0 else "btime")
    if clock is not None:
        inc = args.get("winc" if turn == 0 else "binc", 0)
        return max(0.01, (clock / 30 + 0.8 * inc) / 1000 - 0.03), depth
    return None, depth


def main(inp=sys.stdin, out=sys.stdout) -> None:
    variant = "chess"
    game = None
    pos = None
    for line in inp:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            print("id name baseline", file=out)
            print("id author the zermelo authors", file=out)
            print("option name UCI_Variant type combo default chess "
                  + " ".join(f"var {n}" for n in games.names()), file=out)
            print("uciok", file=out, flush=True)
        elif cmd == "isready":
            print("readyok", file=out, flush=True)
        elif cmd == "setoption" and len(words) >= 5 and words[2].lower() == "uci_variant":
            variant = games.canonical(words[4])
            game = None
        elif cmd == "position":
            game = game or games.load(variant)
            rest = line.split(None, 1)[1] if len(words) > 1 else "startpos"
            head, _, moves = rest.partition(" moves ")
            head = head.strip()
            if head.endswith(" moves"):
                head = head[:-6]
            text = None if head == "startpos" else head.split(None, 1)[1]
            pos = game.new_position(text)
            for m in moves.split():
                pos.push(pos.parse_move(m))
        elif cmd == "go" and pos is not None:
            budget, depth = _budget(words[1:], pos.turn)
            best = Baseline(game).search(pos, budget, depth, out)
            print(f"bestmove {best or '(none)'}", file=out, flush=True)
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
