"""``zermelo dxp``: a game of international draughts over DXP, the DamExchange
protocol (TCP), against Scan, Kingsrow or another zermelo.

Usage::

    zermelo dxp --follow [--port 27531] [--movetime 1000 | --depth N | --nodes N]
    zermelo dxp --connect 127.0.0.1:27531 --color white [--time 10 --moves 75] [limits]

The follower listens and accepts one game; the initiator connects and asks for
one (``GAMEREQ``: its name, the follower's colour, the game's time in minutes and
moves, the start position or ``--fen``). The follower accepts (``GAMEACC``), and
the two exchange ``MOVE`` messages (time used, from, to and the squares taken)
until the rules end the game; the side that sees the end first sends ``GAMEEND``
with the result from its side (1 I lose, 2 draw, 3 I win), which the other
confirms with its own. ``CHAT`` is printed; ``BACKREQ`` (take back to a move) is
accepted (``BACKACC``). Messages are ASCII, ended by a NUL byte.

Each side prints the moves and a last line ``result <white>-<black>`` (``2-0``,
``1-1``, ``0-2``) and ``agreed`` or ``disputed``: whether the opponent's
``GAMEEND`` gave the same result. A move the rules refuse ends the game with
an error and exit status 1. Numbers and board letters come from the game's
notation (``game.hub_notation()``); this module only reads and writes messages.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time

#: DXP's customary port.
PORT = 27531
#: ``GAMEEND`` reasons, from the sender's side.
UNKNOWN, I_LOSE, DRAW, I_WIN = "0", "1", "2", "3"
#: Longest message the protocol allows (127 characters and the NUL).
MESSAGE_LIMIT = 128


class DxpError(Exception):
    """The connection or the other side broke the protocol or the rules."""


class Link:
    """NUL-terminated messages over a connected socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def send(self, message: str) -> None:
        self.sock.sendall(message.encode("ascii", "replace") + b"\0")

    def receive(self) -> str:
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise DxpError("the connection was closed")
            self.buffer += chunk
            if len(self.buffer) > 64 * MESSAGE_LIMIT and b"\0" not in self.buffer:
                raise DxpError("a message without its end")
        message, self.buffer = self.buffer.split(b"\0", 1)
        return message.decode("ascii", "replace")


def game_request(name: str, follower_white: bool, minutes: int, moves: int, board: str | None) -> str:
    """``GAMEREQ``: ``R01``, the initiator's name in 32 characters, the follower's
    colour (``W`` or ``Z``), minutes and moves in 3 digits, ``A`` for the start
    position or ``B``, the side to move and 50 squares (``e w z W Z``).

    >>> game_request("zermelo", False, 10, 75, None)
    'R01zermelo                         Z010075A'
    """
    head = f"R01{name[:32]:<32}{'W' if follower_white else 'Z'}{minutes % 1000:03d}{moves % 1000:03d}"
    if board is None:
        return head + "A"
    return head + "B" + board[0].replace("B", "Z") + board[1:].replace("b", "z").replace("B", "Z")


def move_message(seconds: int, frm: int, to: int, taken: list[int]) -> str:
    """``MOVE``: ``M``, seconds used (4 digits), from, to, the count taken and each square (2 digits).

    >>> move_message(12, 28, 19, [23])
    'M001228190123'
    """
    return f"M{min(seconds, 9999):04d}{frm:02d}{to:02d}{len(taken):02d}" + "".join(f"{n:02d}" for n in taken)


def parse_move(message: str) -> tuple[int, int, list[int]]:
    """``(from, to, taken)`` of a ``MOVE`` message."""
    try:
        frm, to, count = int(message[5:7]), int(message[7:9]), int(message[9:11])
        taken = [int(message[11 + 2 * k:13 + 2 * k]) for k in range(count)]
    except ValueError:
        raise DxpError(f"bad MOVE {message[:60]!r}") from None
    if len(message) < 11 + 2 * count:
        raise DxpError(f"bad MOVE {message[:60]!r}: fewer squares than its count")
    return frm, to, taken


class Player:
    """One side of a DXP game: zermelo's engine, its colour, and the game so far."""

    def __init__(self, link: Link, args: argparse.Namespace, white: bool) -> None:
        import games
        from engine.engine import Engine

        self.link = link
        self.args = args
        self.engine = Engine(games)
        self.engine.set_option("UCI_Variant", args.game)
        for setting in args.option:
            name, _, value = setting.partition("=")
            self.engine.set_option(name, value)
        self.game = self.engine.game
        self.notation = self.game.hub_notation()
        self.white = white
        self.start: str | None = None
        self.moves: list[str] = []
        self.sent_end = False
        self.their_end: str | None = None

    def say(self, text: str) -> None:
        print(text, flush=True)

    @property
    def position(self):
        return self.engine.position

    def my_turn(self) -> bool:
        return (self.position.turn == self.notation.white) == self.white

    def setup(self, start: str | None) -> None:
        self.start = start
        self.engine.set_position(start, [])

    def think(self):
        """The engine's move in the current position, searched to the given limits."""
        from engine.timeman import Limits

        done = threading.Event()
        answer: list = []
        limits = Limits(movetime=self.args.movetime if not (self.args.depth or self.args.nodes) else None,
                        depth=self.args.depth, nodes=self.args.nodes)
        self.engine.go(limits, lambda info, pv: None, lambda best, ponder: (answer.append(best), done.set()))
        done.wait()
        if not answer or answer[0] is None:
            raise DxpError("no move to play")
        return self.position.parse_move(answer[0])

    def play(self, move) -> None:
        pos = self.position
        text = pos.move_text(move)
        self.say(f"{'white' if pos.turn == self.notation.white else 'black'} {text}")
        self.moves.append(text)
        self.engine.set_position(self.start, self.moves)

    def result(self) -> tuple[int, int] | None:
        """The points of White and Black (2 a win, 1 a draw) once the rules end the game."""
        pos = self.position
        outcome = pos.outcome()
        if outcome is None and pos.legal_moves():
            return None
        if outcome is None:
            outcome = pos.no_moves_value()
        mover_white = pos.turn == self.notation.white
        if outcome == 0:
            return 1, 1
        mover_wins = outcome > 0
        return (2, 0) if mover_wins == mover_white else (0, 2)

    def end_reason(self, points: tuple[int, int]) -> str:
        mine = points[0] if self.white else points[1]
        return {0: I_LOSE, 1: DRAW, 2: I_WIN}[mine]

    # -- the game ----------------------------------------------------------------

    def run(self) -> int:
        while True:
            points = self.result()
            if points is not None:
                return self.finish(points)
            if self.my_turn():
                started = time.monotonic()
                move = self.think()
                frm, to, taken = self.notation.parts(self.position, move)
                self.link.send(move_message(round(time.monotonic() - started), frm, to, taken))
                self.play(move)
                continue
            message = self.link.receive()
            kind = message[:1]
            if kind == "M":
                frm, to, taken = parse_move(message)
                try:
                    move = self.notation.find(self.position, frm, to, taken)
                except ValueError as e:
                    self.link.send("E00")
                    raise DxpError(f"the other side's move: {e}") from None
                self.play(move)
            elif kind == "C":
                self.say(f"chat {message[1:]}")
            elif kind == "B":
                self.take_back(message)
            elif kind == "E":
                self.their_end = message[1:2]
                return self.finish(self.result())
            else:
                self.say(f"ignored message {message[:40]!r}")

    def take_back(self, message: str) -> None:
        """``BACKREQ``: back to move number ``message[1:4]`` with ``message[4]`` to move."""
        try:
            number = int(message[1:4])
        except ValueError:
            self.link.send("K1")
            return
        black_to_move = message[4:5] == "Z"
        first_black = self.start is not None and self.start.startswith("B")
        plies = 2 * (number - 1) + (1 if black_to_move != first_black else 0)
        if not 0 <= plies <= len(self.moves):
            self.link.send("K1")
            return
        self.moves = self.moves[:plies]
        self.engine.set_position(self.start, self.moves)
        self.link.send("K0")
        self.say(f"took back to move {number}")

    def finish(self, points: tuple[int, int] | None) -> int:
        """Exchange ``GAMEEND`` messages and print the result."""
        if not self.sent_end:
            reason = self.end_reason(points) if points is not None else UNKNOWN
            self.link.send(f"E{reason}1")
            self.sent_end = True
        while self.their_end is None:
            message = self.link.receive()
            if message[:1] == "E":
                self.their_end = message[1:2]
            elif message[:1] == "C":
                self.say(f"chat {message[1:]}")
        theirs = {I_LOSE: I_WIN, I_WIN: I_LOSE, DRAW: DRAW}.get(self.their_end)
        if points is None:
            self.say(f"result unknown; the other side ended the game ({self.their_end})")
            return 1
        agreed = theirs == self.end_reason(points)
        self.say(f"result {points[0]}-{points[1]} {'agreed' if agreed else 'disputed'}")
        return 0 if agreed else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="zermelo dxp", description=__doc__.splitlines()[0])
    side = parser.add_mutually_exclusive_group(required=True)
    side.add_argument("--follow", action="store_true", help="listen and accept one game (the follower)")
    side.add_argument("--connect", metavar="HOST:PORT", help="connect and ask for a game (the initiator)")
    parser.add_argument("--host", default="127.0.0.1", help="where the follower listens (default %(default)s)")
    parser.add_argument("--port", type=int, default=PORT, help="the follower's port (default %(default)s)")
    parser.add_argument("--color", choices=("white", "black"), default="white", help="the initiator's colour")
    parser.add_argument("--time", type=int, default=10, help="the game's minutes, for GAMEREQ")
    parser.add_argument("--moves", type=int, default=75, help="the game's moves, for GAMEREQ")
    parser.add_argument("--fen", help="start from this position (the game's FEN) instead of the start")
    parser.add_argument("--game", default="international", help="a 10×10 draughts game (default %(default)s)")
    parser.add_argument("--movetime", type=int, default=1000, metavar="MS", help="milliseconds a move")
    parser.add_argument("--depth", type=int, help="search this deep instead")
    parser.add_argument("--nodes", type=int, help="search this many nodes instead")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set an engine option (repeatable), e.g. Hash=64")
    parser.add_argument("--name", default="zermelo", help="the name sent to the other side")
    args = parser.parse_args(argv)
    try:
        if args.follow:
            return follow(args)
        return initiate(args)
    except (DxpError, OSError, ValueError) as e:
        print(f"zermelo dxp: {e}", file=sys.stderr)
        return 1


def _check_game(player: Player) -> None:
    if player.notation is None or player.notation.squares != 50:
        raise DxpError(f"DXP plays 10×10 draughts; {player.game.name} is not one")


def follow(args: argparse.Namespace) -> int:
    with socket.create_server((args.host, args.port)) as server:
        print(f"listening on {args.host}:{server.getsockname()[1]}", flush=True)
        conn, peer = server.accept()
    with conn:
        link = Link(conn)
        request = link.receive()
        if request[:1] != "R" or len(request) < 43:
            raise DxpError(f"expected GAMEREQ, got {request[:40]!r}")
        white = request[35:36] == "W"
        player = Player(link, args, white)
        _check_game(player)
        start = None
        if request[42:43] == "B":
            board = request[43:44].replace("Z", "B") + request[44:94].replace("z", "b").replace("Z", "B")
            try:
                start = player.notation.position_text(board)
                player.game.new_position(start)
            except ValueError as e:
                link.send(f"A{args.name[:32]:<32}3")
                raise DxpError(f"refused the position: {e}") from None
        player.setup(start)
        link.send(f"A{args.name[:32]:<32}0")
        print(f"game with {request[3:35].strip()} from {peer[0]}, playing {'white' if white else 'black'}",
              flush=True)
        return player.run()


def initiate(args: argparse.Namespace) -> int:
    host, _, port = args.connect.rpartition(":")
    with socket.create_connection((host or "127.0.0.1", int(port)), timeout=30) as conn:
        conn.settimeout(None)
        link = Link(conn)
        white = args.color == "white"
        player = Player(link, args, white)
        _check_game(player)
        board = None
        if args.fen:
            player.setup(args.fen)
            board = player.notation.board_string(player.position)
        link.send(game_request(args.name, not white, args.time, args.moves, board))
        answer = link.receive()
        if answer[:1] != "A" or answer[33:34] != "0":
            raise DxpError(f"the game was refused: {answer[:40]!r}")
        print(f"game with {answer[1:33].strip()}, playing {args.color}", flush=True)
        player.setup(args.fen)
        return player.run()
