"""A random-move engine speaking UCI/UGI with the N-player words: every ``go``
(whatever its clocks, ``p1time … pNtime`` included) answers a uniformly random
legal move at once. It understands ``UCI_Variant`` and the game parameters
(``setoption name rolit_players value 3``), so ``zermelo match`` can seat it in
games of any number of players::

    python -m protocol match --game rolit --players 3 --movetime 100 \\
        --engine cmd="python -m protocol" name=zermelo \\
        --engine cmd="python scripts/random_engine.py 1" name=random1 \\
        --engine cmd="python scripts/random_engine.py 2" name=random2

The argument seeds the generator (default 1).
"""

from __future__ import annotations

import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import games  # noqa: E402


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    game_name, params, pos = "chess", {}, None

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd in ("uci", "ugi"):
            say("id name random")
            say(f"{cmd}ok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "setoption" and "value" in words:
            name = " ".join(words[2:words.index("value")])
            value = " ".join(words[words.index("value") + 1:])
            if name == "UCI_Variant":
                game_name = games.canonical(value)
            elif name.startswith(f"{game_name}_"):
                params[name[len(game_name) + 1:]] = value
        elif cmd == "position":
            game = games.load(game_name, **params)
            rest = words[1:]
            cut = rest.index("moves") if "moves" in rest else len(rest)
            pos = game.new_position(None if rest[0] == "startpos" else " ".join(rest[1:cut]))
            for move in rest[cut + 1:]:
                pos.push(pos.parse_move(move))
        elif cmd == "go":
            moves = pos.legal_moves() if pos is not None else []
            say(f"bestmove {pos.move_text(rng.choice(moves))}" if moves else "bestmove (none)")
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
