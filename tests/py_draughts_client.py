"""py-draughts' side of tests/test_py_draughts.py, run by the Python of an
environment holding py-draughts (which imports as ``draughts``, as pydraughts
does, so the two never share one). It imports nothing of zermelo: it drives a
``zermelo hub`` command line over pipes, or describes py-draughts' own view of
positions, and prints one JSON line per game or position.

    python tests/py_draughts_client.py hubengine ZERMELO_EXECUTABLE GAMES DEPTH
    python tests/py_draughts_client.py relay VARIANT GAMES DEPTH -- ZERMELO COMMAND...
    python tests/py_draughts_client.py moves VARIANT POSITIONS SEED

``hubengine``: py-draughts' own Hub client (``draughts.HubEngine``, 10x10 only,
its line reader replaced: see :class:`HubEngine`) plays international draughts
against itself through the engine, to the end by py-draughts' rules. ``relay``: the same through Hub lines written here, for any
variant of ``scripts/py_draughts_hub.py`` (its square numbers), with the moves
played so far in each ``pos``. ``moves``: random positions of random games, each
as its Hub board string and the Hub texts of its legal moves.
"""

from __future__ import annotations

import json
import queue
import random
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import draughts  # noqa: E402
from py_draughts_hub import BOARDS, board_string, find_move, move_text  # noqa: E402

MAX_PLIES = 400


def result(board) -> str:
    return board.result if board.game_over else "*"


class HubEngine(draughts.HubEngine):
    """py-draughts' Hub client with its line reader replaced, and nothing else.

    Its ``_read_line`` waits on the pipe with select() and then reads through
    Python's buffered stream: lines an engine writes at once (zermelo answers
    ``hub`` in one write, and ``info`` and ``done`` may arrive together) go into
    the buffer, select() sees an empty pipe, and the handshake times out or a
    search waits forever. Here a thread reads the engine's lines into a queue.
    """

    lines: queue.Queue | None = None

    def _read_line(self, timeout: float = 1.0):
        if self.lines is None and self.process is not None:
            self.lines = queue.Queue()
            threading.Thread(target=lambda out=self.process.stdout: [self.lines.put(s) for s in out],
                             daemon=True).start()
        try:
            return self.lines.get(timeout=timeout).strip()
        except queue.Empty:
            return None


def hubengine(executable: str, games: int, depth: int) -> None:
    for _ in range(games):
        engine = HubEngine(executable, depth_limit=depth, init_timeout=60)
        engine.start()
        board = draughts.StandardBoard()
        try:
            while not board.game_over and len(board._moves_stack) < MAX_PLIES:
                # parse_hub_move finds the answer among py-draughts' legal moves or raises;
                # an ``error`` line from the engine raises too.
                board.push(engine.get_best_move(board))
        finally:
            engine.quit()
        print(json.dumps({"result": result(board), "plies": len(board._moves_stack), "fen": board.fen}), flush=True)


class Relay:
    """A Hub client of one engine process, on py-draughts' boards."""

    def __init__(self, command: list[str]) -> None:
        self.p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, word: str) -> list[str]:
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine closed its output waiting for {word!r}: {lines[-3:]}")
            line = line.strip()
            if line.startswith("error"):
                raise RuntimeError(f"protocol error: {line}")
            lines.append(line)
            if line.split(" ", 1)[0] == word:
                return lines


def relay(variant: str, games: int, depth: int, command: list[str]) -> None:
    hub = Relay(command)
    hub.send("hub")
    declared = hub.until("wait")
    assert any(line.startswith("param name=variant") for line in declared), declared
    hub.send(f"set-param name=variant value={variant}")
    hub.send("init")
    hub.until("ready")
    for _ in range(games):
        hub.send("new-game")
        board = BOARDS[variant]()
        start, played = board_string(board), []
        while not board.game_over and len(played) < MAX_PLIES:
            moves = f' moves="{" ".join(played)}"' if played else ""
            hub.send(f"pos pos={start}{moves}")
            hub.send(f"level depth={depth}")
            hub.send("go think")
            done = hub.until("done")[-1]
            text = done.split("move=", 1)[1].split()[0]
            board.push(find_move(variant, board, text))  # raises on a move py-draughts refuses
            played.append(text)
        print(json.dumps({"result": result(board), "plies": len(played), "fen": board.fen}), flush=True)
    hub.send("quit")
    hub.p.wait(timeout=30)


def moves(variant: str, positions: int, seed: int) -> None:
    rng = random.Random(seed)
    board, count = BOARDS[variant](), 0
    while count < positions:
        legal = board.legal_moves
        if board.game_over or not legal or len(board._moves_stack) > 150:
            board = BOARDS[variant]()
            continue
        print(json.dumps({"pos": board_string(board), "moves": sorted(move_text(variant, m) for m in legal)}))
        count += 1
        board.push(rng.choice(legal))


def main() -> None:
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "hubengine":
        hubengine(args[0], int(args[1]), int(args[2]))
    elif mode == "relay":
        relay(args[0], int(args[1]), int(args[2]), args[args.index("--") + 1:])
    elif mode == "moves":
        moves(args[0], int(args[1]), int(args[2]))
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main()
