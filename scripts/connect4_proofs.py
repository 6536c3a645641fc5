"""Confirm the Connect Four distances of ``tests/test_connect4_proofs.py`` with OpenSpiel.

    nice python scripts/connect4_proofs.py

For every position (columns 1-7 played from the start), OpenSpiel's ``connect_four``
with a depth-limited alpha-beta (non-terminal leaves worth 0) must find a forced win
for the eventual winner within the listed number of plies and none two plies sooner.
Prints one line per position with its time; about three minutes in all on a loaded machine.
"""

from __future__ import annotations

import time

import pyspiel
from open_spiel.python.algorithms.minimax import alpha_beta_search

#: (columns played, plies to the end with best play); the test's list.
KNOWN = [("4455", 3), ("44455554221", 2), ("565463", 11), ("343265", 13), ("45532254", 11),
         ("45624362", 9), ("52245542", 5), ("36352366", 9)]


def main() -> None:
    game = pyspiel.load_game("connect_four")
    failures = 0
    for text, plies in KNOWN:
        state = game.new_initial_state()
        for ch in text:
            state.apply_action(int(ch) - 1)
        # The winner is the side to move after an odd distance, the other side after an even one.
        winner = state.current_player() if plies % 2 else 1 - state.current_player()
        t0 = time.monotonic()
        within = alpha_beta_search(game, state.clone(), value_function=lambda s: 0.0,
                                   maximum_depth=plies, maximizing_player_id=winner)[0]
        sooner = alpha_beta_search(game, state.clone(), value_function=lambda s: 0.0,
                                   maximum_depth=plies - 2, maximizing_player_id=winner)[0]
        ok = within == 1.0 and sooner == 0.0
        failures += not ok
        print(f"{text}: player {winner + 1} wins in {plies} plies: "
              f"{'confirmed' if ok else f'NOT confirmed ({within}, {sooner})'} ({time.monotonic() - t0:.1f}s)",
              flush=True)
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
