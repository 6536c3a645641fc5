"""The Hub dialect: the draughts engine protocol of Scan (Fabien Letouzey's
``protocol.txt``), which the Hub GUI, pydraughts' ``HubEngine`` and lidraughts-bot speak.

Every line is a command and ``name=value`` arguments, a value in double quotes
when it holds spaces. The GUI opens with ``hub``, answered by ``id``, one
``param`` per option and ``wait``; ``set-param name=N value=V`` sets an option
(zermelo's options and the draughts games' parameters, and ``variant``: which
game is played), ``init`` is answered ``ready``. Then per move: ``pos pos=<board>
moves="<moves>"``, ``level ...`` and ``go think|ponder|analyze``, answered by
``info`` lines and ``done move=<m> [ponder=<m>]``. During a search ``ping``
(``pong``), ``stop`` (``done`` at once) and ``ponder-hit`` are answered; other
commands first stop the search. ``new-game`` and ``quit`` do what they say.

Moves are ``32-28``, captures ``28x19x23``: from, to, then the squares taken,
and a position is ``W`` or ``B`` and one letter a square (``w``, ``b``, ``W``,
``B``, ``e``), all in the numbers of the game's notation
(``game.hub_notation()``); this module only parses and formats. Bad input is
answered ``error message="..."`` and changes nothing.
"""

from __future__ import annotations

import re
import sys
import time

from protocol.server.identity import AUTHOR, NAME, VERSION

#: The game a fresh Hub server plays: Scan's ``normal`` variant.
DEFAULT_GAME = "international"
#: The level before any ``level`` command: a second a move.
DEFAULT_LEVEL = {"movetime": 1000}
_ARG = re.compile(r'\s*([^\s=]+)(?:=("[^"]*"?|\S*))?')
_MOVE = re.compile(r"[0-9]{1,2}(?:[-x][0-9]{1,2})+")
#: Scores of a proven result without a distance, in men; a win in ``n`` plies is ``100 - n/100``.
_PROVEN_MEN = 90.0


def parse_args(text: str) -> dict[str, str]:
    """The ``name=value`` arguments (and bare flags, as ``""``) of a line's rest.

    >>> parse_args('pos=Wbbb moves="32-28 19-23" think')
    {'pos': 'Wbbb', 'moves': '32-28 19-23', 'think': ''}
    """
    out: dict[str, str] = {}
    pos = 0
    while pos < len(text):
        m = _ARG.match(text, pos)
        if m is None or m.end() == pos:
            break
        value = m.group(2) or ""
        out[m.group(1)] = value.strip('"')
        pos = m.end()
    return out


def quote(value: str) -> str:
    """A value as Hub writes it: in double quotes when empty or holding a space or ``=``."""
    return f'"{value}"' if not value or any(c in value for c in ' ="') else value


def move_parts(text: str) -> tuple[int, int, list[int]]:
    """``(from, to, taken)`` of a Hub move text.

    >>> move_parts("28x19x23x13"), move_parts("32-28")
    ((28, 19, [23, 13]), (32, 28, []))
    """
    if not _MOVE.fullmatch(text):
        raise ValueError(f"bad move {text[:40]!r}: expected e.g. 32-28 or 28x19x23")
    numbers = [int(n) for n in re.split("[-x]", text)]
    if "-" in text and len(numbers) != 2:
        raise ValueError(f"bad move {text[:40]!r}: a quiet move is from-to")
    return numbers[0], numbers[1], numbers[2:]


def move_text(frm: int, to: int, taken: list[int]) -> str:
    """The Hub text of a move's parts: ``32-28``, or ``28x19x23`` for a capture."""
    if not taken:
        return f"{frm}-{to}"
    return "x".join(str(n) for n in [frm, to, *taken])


def score_men(score: int) -> str:
    """An internal score (hundredths of a man) as Hub's men with two decimals; a
    proven win in ``n`` plies is ``100 - n/100`` (as pydraughts reads it)."""
    from engine.game import is_proven, mate_plies

    plies = mate_plies(score)
    if plies is not None:
        value = (100 - abs(plies) / 100) * (1 if plies > 0 else -1)
    elif is_proven(score):
        value = _PROVEN_MEN if score > 0 else -_PROVEN_MEN
    else:
        value = max(-_PROVEN_MEN + 0.01, min(score / 100, _PROVEN_MEN - 0.01))
    return f"{value:.2f}"


class HubError(ValueError):
    """A refused command: its text is the ``error`` line's message."""


class HubCommands:
    """The Hub command table against the line server's engine."""

    def __init__(self, server) -> None:
        self.server = server
        self.selected = False
        #: The ``level`` in force: search limits as :class:`engine.timeman.Limits` fields.
        self.level: dict = dict(DEFAULT_LEVEL)
        self.pending = None  # the running search's done event
        self.root = None  # the position searched, for the move texts of its answers

    # -- dispatch --------------------------------------------------------------------

    def write(self, line: str) -> None:
        self.server.write(line)

    def error(self, text: str) -> None:
        self.write(f"error message={quote(text.replace(chr(34), chr(39)))}")

    def say(self, text: str) -> None:
        """Notes go to standard error: Hub has no line for them."""
        print(text, file=sys.stderr, flush=True)

    async def handle(self, line: str) -> None:
        words = line.strip().split(None, 1)
        if not words:
            return
        cmd, rest = words[0], words[1] if len(words) > 1 else ""
        if cmd == "ping":
            self.write("pong")
            return
        if cmd == "stop":
            self.server.stop()
            return
        if cmd == "ponder-hit":
            if self.server._engine is not None:
                self.server.engine.ponderhit()
            return
        if cmd == "quit":
            self.server.running = False
            return
        method = self.commands().get(cmd)
        if method is None:
            self.error(f"unknown command {cmd[:40]!r}")
            return
        if self.pending is not None and not self.pending.is_set():
            await self.server.idle()
        try:
            await method(self, parse_args(rest))
        except Exception as e:  # bad input must never kill the server
            self.error(str(e).splitlines()[0] if str(e) else type(e).__name__)

    @classmethod
    def commands(cls) -> dict:
        return {"hub": cls.cmd_hub, "set-param": cls.cmd_set_param, "init": cls.cmd_init,
                "new-game": cls.cmd_new_game, "pos": cls.cmd_pos, "level": cls.cmd_level, "go": cls.cmd_go}

    # -- the engine's game -------------------------------------------------------------

    @property
    def engine(self):
        if not self.selected:
            self.server.engine.set_option("UCI_Variant", DEFAULT_GAME)
            self.selected = True
        return self.server.engine

    def notation(self):
        notation = self.engine.game.hub_notation()
        if notation is None:
            raise HubError(f"{self.engine.game.name} is not a draughts game Hub plays")
        return notation

    @staticmethod
    def variants() -> dict[str, str]:
        """Hub variant name -> registry name, for every draughts game."""
        import games

        out = {}
        for name in games.names():
            notation = games.load(name).hub_notation()
            if notation is not None:
                out[notation.variant] = name
        return out

    @staticmethod
    def variant_game(value: str) -> str | None:
        """The registry name of the draughts game a ``variant`` value names, or ``None``."""
        import games

        key = value.strip().lower()
        for name in games.names():
            notation = games.load(name).hub_notation()
            if notation is not None and key in notation.names:
                return name
        return None

    # -- commands --------------------------------------------------------------------

    async def cmd_hub(self, args: dict) -> None:
        from engine.options import all_specs, format_value
        import games

        lines = [f"id name={quote(NAME.split()[0])} version={quote(VERSION)} author={quote(AUTHOR)}"]
        variants = self.variants()
        lines.append(f"param name=variant value={games.load(DEFAULT_GAME).hub_notation().variant} type=enum "
                     f"values={quote(' '.join(variants))}")
        for spec in all_specs(games):
            if spec.name == "UCI_Variant" or spec.kind == "button":
                continue
            if spec.game is not None and spec.game not in variants.values():
                continue
            head = f"param name={quote(spec.name)} value={quote(format_value(spec.default))}"
            if spec.kind == "spin":
                lines.append(f"{head} type=int min={spec.min} max={spec.max}")
            elif spec.kind == "check":
                lines.append(f"{head} type=bool")
            elif spec.kind == "combo":
                lines.append(f"{head} type=enum values={quote(' '.join(spec.vars))}")
            else:
                lines.append(f"{head} type=string")
        lines.append("wait")
        self.server.write_lines(lines)

    async def cmd_set_param(self, args: dict) -> None:
        name, value = args.get("name"), args.get("value")
        if not name:
            raise HubError("set-param needs name=<param> value=<value>")
        if name == "variant":
            game = self.variant_game(value or "")
            if game is None:
                raise HubError(f"unknown variant {value!r}: one of {' '.join(self.variants())}")
            self.server.engine.set_option("UCI_Variant", game)
            self.selected = True
            return
        for note in self.engine.set_option(name, value):
            self.say(note)

    async def cmd_init(self, args: dict) -> None:
        self.notation()
        self.write("ready")

    async def cmd_new_game(self, args: dict) -> None:
        self.engine.new_game()

    async def cmd_pos(self, args: dict) -> None:
        """``pos [pos=<board>] [moves="<m> ..."]``: the position to search, and the
        moves played to it (they let the rules see repetitions)."""
        engine, notation = self.engine, self.notation()
        game = engine.game
        text = notation.position_text(args["pos"]) if args.get("pos") else None
        pos = game.new_position(text)
        texts = []
        for word in args.get("moves", "").split():
            frm, to, taken = move_parts(word)
            m = notation.find(pos, frm, to, taken)
            texts.append(pos.move_text(m))
            pos.push(m)
        engine.set_position(text, texts)

    async def cmd_level(self, args: dict) -> None:
        """``level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite``."""
        level: dict = {}
        try:
            if "depth" in args:
                level["depth"] = max(1, int(args["depth"]))
            if "nodes" in args:
                level["nodes"] = max(1, int(args["nodes"]))
            if "move-time" in args:
                level["movetime"] = max(1, round(float(args["move-time"]) * 1000))
            if "time" in args:
                level["time"] = max(0, round(float(args["time"]) * 1000))
                level["inc"] = max(0, round(float(args.get("inc", "0")) * 1000))
            if "moves" in args:
                level["movestogo"] = max(1, int(args["moves"])) or None
        except ValueError:
            raise HubError(f"bad level {' '.join(f'{k}={v}' for k, v in args.items())[:80]!r}") from None
        if "infinite" in args:
            level["infinite"] = True
        self.level = level

    async def cmd_go(self, args: dict) -> None:
        from engine.timeman import Limits

        started = time.perf_counter()
        mode = next(iter(args), "think")
        if mode not in ("think", "ponder", "analyze", "analyse"):
            raise HubError(f"go {mode[:20]!r}: think, ponder or analyze")
        engine, notation = self.engine, self.notation()
        level = dict(self.level)
        clock = level.pop("time", None)
        inc = level.pop("inc", 0)
        infinite = level.pop("infinite", False) or mode in ("analyze", "analyse")
        limits = Limits(time=(clock, clock), inc=(inc, inc), infinite=infinite, ponder=mode == "ponder",
                        **level)
        root = engine.position.copy()

        def texts(moves: list[str]) -> list[str]:
            pos, out = root.copy(), []
            for text in moves:
                try:
                    m = pos.parse_move(text)
                except ValueError:
                    break
                out.append(move_text(*notation.parts(pos, m)))
                pos.push(m)
            return out

        def on_info(info, pv: list[str]) -> None:
            seconds = max(info.time_ms, 1) / 1000
            line = (f"info depth={info.depth} mean-depth={info.seldepth} score={score_men(info.score)} "
                    f"nodes={info.nodes} time={seconds:.3f} nps={info.nps / 1e6:.3f}")
            hub_pv = texts(pv)
            if hub_pv:
                line += f' pv="{" ".join(hub_pv)}"'
            self.write(line)

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            moves = texts([m for m in (best, ponder) if m is not None])
            if not moves:
                self.error("no legal move")
                self.write("done")
                return
            self.write(f"done move={moves[0]}" + (f" ponder={moves[1]}" if len(moves) > 1 else ""))

        self.pending = self.server.search(limits, on_info, on_bestmove, self.say, started=started)
