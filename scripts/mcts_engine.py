"""OpenSpiel's MCTS bot as a UCI engine, for matches against zermelo.

The bot is ``open_spiel.python.algorithms.mcts.MCTSBot`` with a
``RandomRolloutEvaluator`` (one random rollout per leaf, UCT constant 2,
solver on). ``go nodes N`` runs N simulations per move (default
``--simulations``); the bot has no clock, so matches give it ``nodes=N`` and
tune N for about a second per move.

The engine keeps a zermelo position (the referee's rules and notation) and an
OpenSpiel state in step, translating every move:

- connect4 (``connect_four``): zermelo column ``c`` (1-7) is action ``c - 1``;
- reversi (``othello``): zermelo's move ints are OpenSpiel's actions
  (row * 8 + column from a1 at the top, pass 64);
- kalah (``mancala``): pit ``k`` from the mover's left is action ``k`` for the
  first player and ``7 + k`` for the second;
- checkers (``checkers``): OpenSpiel's board is zermelo's turned by 180°; a
  capture sequence is one OpenSpiel action per jump. OpenSpiel draws after 40
  plies without a capture, zermelo after 40 moves without a capture or a man
  move: where OpenSpiel's game is over and zermelo's is not, the bot plays a
  random move.

``--check GAME N`` plays N random games in both implementations and reports
the first difference in legal moves, side to move, end or result, so that a
game is only played after its rules were found to agree.

    python scripts/mcts_engine.py [--simulations N] [--seed S]
    python scripts/mcts_engine.py --check kalah 200
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

import games  # noqa: E402


def _checkers_square(name: str) -> int:
    """Zermelo's square number (1-32) of an OpenSpiel square such as ``a3``."""
    col, row = 7 - (ord(name[0]) - ord("a")), int(name[1]) - 1
    return row * 4 + col // 2 + 1


class Adapter:
    """Moves of one game between zermelo and OpenSpiel."""

    spiel_name: str

    def actions(self, pos, move: int, state) -> list[int]:
        """OpenSpiel actions that play zermelo's ``move`` from ``state``."""
        raise NotImplementedError

    def first_steps(self, pos) -> set:
        """Zermelo's legal moves as comparable keys of OpenSpiel's first action."""
        return {tuple(self.actions(pos, m, None)[:1]) for m in pos.legal_moves()}


class Connect4(Adapter):
    spiel_name = "connect_four"

    def actions(self, pos, move, state):
        return [int(pos.move_text(move)) - 1]


class Reversi(Adapter):
    spiel_name = "othello"

    def actions(self, pos, move, state):
        return [move]


class Kalah(Adapter):
    spiel_name = "mancala"

    def actions(self, pos, move, state):
        return [move if pos.turn == 0 else 7 + move]


class Checkers(Adapter):
    spiel_name = "checkers"

    @staticmethod
    def _path(pos, move) -> list[int]:
        return [int(s) for s in re.split(r"[-x]", pos.move_text(move))]

    def actions(self, pos, move, state):
        # Jumps are matched by their squares, one OpenSpiel action at a time.
        path = self._path(pos, move)
        if state is None:
            return [tuple(path[:2])]
        state = state.clone()
        out = []
        for a, b in zip(path, path[1:]):
            for act in state.legal_actions():
                text = state.action_to_string(state.current_player(), act)
                if (_checkers_square(text[:2]), _checkers_square(text[2:4])) == (a, b):
                    out.append(act)
                    state.apply_action(act)
                    break
            else:
                raise ValueError(f"no OpenSpiel action for {a}-{b}")
        return out

    def first_steps(self, pos):
        steps = set()
        for m in pos.legal_moves():
            path = self._path(pos, m)
            steps.add((path[0], path[1]))
        return steps

    @staticmethod
    def spiel_steps(state) -> set:
        return {(_checkers_square(t[:2]), _checkers_square(t[2:4]))
                for t in (state.action_to_string(state.current_player(), a)
                          for a in state.legal_actions())}


ADAPTERS = {"connect4": Connect4, "reversi": Reversi, "kalah": Kalah, "checkers": Checkers}


def check(name: str, n: int, seed: int = 1, out=sys.stdout) -> int:
    """Play ``n`` random games in both implementations; print and count differences."""
    adapter = ADAPTERS[name]()
    game, sgame = games.load(name), pyspiel.load_game(adapter.spiel_name)
    rng = random.Random(seed)
    for i in range(n):
        pos, state, ply = game.new_position(), sgame.new_initial_state(), 0
        while True:
            zmoves = pos.legal_moves()
            z_over = pos.outcome() is not None or not zmoves
            if z_over != state.is_terminal():
                print(f"game {i} ply {ply}: end differs (zermelo {z_over}, OpenSpiel "
                      f"{state.is_terminal()})\n{pos.render()}\n{state}", file=out)
                return 1
            if z_over:
                result = pos.outcome() if pos.outcome() is not None else pos.no_moves_value()
                first = result if pos.turn == 0 else -result
                if np.sign(state.returns()[0]) != first:
                    print(f"game {i}: result differs (zermelo {first}, OpenSpiel "
                          f"{state.returns()})", file=out)
                    return 1
                break
            if state.current_player() != pos.turn:
                print(f"game {i} ply {ply}: side to move differs", file=out)
                return 1
            steps = (adapter.spiel_steps(state) if isinstance(adapter, Checkers)
                     else {(a,) for a in state.legal_actions()})
            if steps != adapter.first_steps(pos):
                print(f"game {i} ply {ply}: legal moves differ: zermelo "
                      f"{sorted(adapter.first_steps(pos))}, OpenSpiel {sorted(steps)}\n"
                      f"{pos.render()}\n{state}", file=out)
                return 1
            move = rng.choice(zmoves)
            for act in adapter.actions(pos, move, state):
                state.apply_action(act)
            pos.push(move)
            ply += 1
    print(f"{name}: {n} random games, rules agree", file=out)
    return 0


class Player:
    """The UCI loop around one MCTS bot."""

    def __init__(self, simulations: int, seed: int):
        self.simulations = simulations
        self.rng = np.random.RandomState(seed)
        self.variant = "chess"

    def bestmove(self, pos, state, simulations: int) -> str:
        if pos.outcome() is not None or not pos.legal_moves():
            return "(none)"
        if state.is_terminal():
            # OpenSpiel's checkers is drawn after 40 plies without a capture while zermelo's
            # game goes on: the bot has nothing left to search and plays a random move.
            moves = pos.legal_moves()
            return pos.move_text(moves[self.rng.randint(len(moves))])
        bot = mcts.MCTSBot(state.get_game(), 2.0, simulations,
                           mcts.RandomRolloutEvaluator(1, self.rng), random_state=self.rng)
        me = state.current_player()
        actions = []
        # A capture sequence is several OpenSpiel moves by the same player.
        while True:
            act = bot.step(state)
            actions.append(act)
            state.apply_action(act)
            if state.is_terminal() or state.current_player() != me or self.variant != "checkers":
                break
        for m in pos.legal_moves():
            if ADAPTERS[self.variant]().actions(pos, m, _replay_start(state, len(actions))) == actions:
                return pos.move_text(m)
        raise ValueError(f"OpenSpiel actions {actions} are no zermelo move")

    def run(self, inp=sys.stdin, out=sys.stdout) -> None:
        pos = state = None
        for line in inp:
            words = line.split()
            if not words:
                continue
            if words[0] == "uci":
                print("id name mcts\nid author the zermelo authors", file=out)
                print("option name UCI_Variant type combo default connect4 "
                      + " ".join(f"var {n}" for n in ADAPTERS), file=out)
                print("uciok", file=out, flush=True)
            elif words[0] == "isready":
                print("readyok", file=out, flush=True)
            elif words[0] == "setoption" and len(words) >= 5 and words[2].lower() == "uci_variant":
                self.variant = games.canonical(words[4])
            elif words[0] == "position":
                adapter = ADAPTERS[self.variant]()
                pos = games.load(self.variant).new_position()
                state = pyspiel.load_game(adapter.spiel_name).new_initial_state()
                if "moves" in words:
                    for text in words[words.index("moves") + 1:]:
                        move = pos.parse_move(text)
                        if not state.is_terminal():
                            for act in adapter.actions(pos, move, state):
                                state.apply_action(act)
                        pos.push(move)
            elif words[0] == "go" and pos is not None:
                sims = int(words[words.index("nodes") + 1]) if "nodes" in words else self.simulations
                print(f"bestmove {self.bestmove(pos, state.clone(), sims)}", file=out, flush=True)
            elif words[0] == "quit":
                return


def _replay_start(state, n: int):
    """``state`` with its last ``n`` actions undone."""
    start = state.get_game().new_initial_state()
    for act in state.history()[:len(state.history()) - n]:
        start.apply_action(act)
    return start


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--simulations", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check", nargs=2, metavar=("GAME", "N"))
    args = p.parse_args()
    if args.check:
        return check(games.canonical(args.check[0]), int(args.check[1]), args.seed)
    Player(args.simulations, args.seed).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
