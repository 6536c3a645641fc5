"""``zermelo play [GAME]``: play against the engine in the terminal.

A full-screen prompt_toolkit application on asyncio: the board in colour
(:mod:`protocol.terminal.boards`), the move list, a status bar with the
engine's live depth, score and principal variation, and an input line with
completion of the legal moves and the commands. The game and the engine are a
:class:`protocol.terminal.session.Session` around the same engine facade as
the protocol server; the search runs in its worker thread, so the screen keeps
answering while the engine thinks.

::

    zermelo play chess                          # you play White, 2 s per engine move
    zermelo play kalah --human north --depth 8
    zermelo play connect4 --human none --time 0.5   # the engine against itself
    zermelo play rolit --players 3 --human 1        # you play red, the engine yellow and green
    zermelo play chess960                       # from a random one of the 960 arrays (--array N)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import textwrap

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import (ConditionalContainer, Float, FloatContainer, HSplit, Layout, VSplit,
                                   Window)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

import games
from protocol.terminal.boards import STYLE_RULES, View, draw
from protocol.terminal.session import COMMANDS, Session, parse_humans
from protocol.tools import game_params

STYLE = Style.from_dict({
    **STYLE_RULES,
    "header": "bg:#303030 #ffffff bold",
    "status": "bg:#3a3a3a #e0e0e0",
    "status.thinking": "bg:#3a3a3a #ffd75f",
    "message": "#ff8787",
    "prompt": "#87d7ff bold",
    "panel.title": "bold underline",
    "panel.number": "#8a8a8a",
    "panel.last": "reverse",
    "turn": "#ffd75f bold",
})


class MoveCompleter(Completer):
    """Completes the commands and the legal moves (SAN too for chess) of the first
    word, the arguments of ``level`` and ``human``, and file names after ``save``/``load``."""

    def __init__(self, session: Session):
        self.session = session
        self._paths = PathCompleter(expanduser=True)
        self._cache: tuple[str, list[str]] = ("", [])

    def _moves(self) -> list[str]:
        text = self.session.position.to_text()
        if self._cache[0] != text:
            self._cache = (text, list(dict.fromkeys(self.session.legal_texts())))
        return self._cache[1]

    def get_completions(self, document: Document, complete_event: CompleteEvent):
        line = document.text_before_cursor
        if not line.strip() and not complete_event.completion_requested:
            return
        # The words before the one being typed (which is "" right after a space).
        *done, prefix = line.lstrip().split(" ")
        if not done:
            candidates = [*self._moves(), *COMMANDS]
        elif done[0].lower() in ("save", "load"):
            path = line.lstrip()[len(done[0]):].lstrip()
            yield from self._paths.get_completions(Document(path, len(path)), complete_event)
            return
        elif len(done) == 1 and done[0].lower() == "level":
            candidates = ["time", "depth", "elo", "skill", "full"]
        elif len(done) == 1 and done[0].lower() == "human":
            candidates = [*self.session.game.players, "both", "none"]
        else:
            return
        low = prefix.lower()
        for word in candidates:
            if word.lower().startswith(low):
                yield Completion(word, -len(prefix))


class Terminal:
    """The application around one :class:`Session`."""

    def __init__(self, args: argparse.Namespace, *, input: Input | None = None, output: Output | None = None):
        self.session = Session(args.game, humans=args.humans, movetime=args.time, depth=args.depth,
                               start=args.fen, array=args.array, options=args.options, post=self._post,
                               on_change=self._invalidate)
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Exceptions raised on the event loop and caught by nothing else, as shown.
        self.errors: list[str] = []
        self.buffer = Buffer(multiline=False, completer=MoveCompleter(self.session),
                             complete_while_typing=True, accept_handler=self._accept)
        self.app: Application[None] = Application(layout=self._layout(), key_bindings=self._bindings(), style=STYLE,
                               full_screen=True, refresh_interval=0.5, input=input, output=output)

    # -- thread hand-over ---------------------------------------------------------

    def _post(self, fn, *args) -> None:
        """Run ``fn(*args)`` on the event loop; the engine calls this from its thread."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(fn, *args)

    def _invalidate(self) -> None:
        if self.app.is_running:
            self.app.invalidate()

    # -- input ------------------------------------------------------------------------

    def _accept(self, buffer: Buffer) -> bool:
        self.session.submit(buffer.text)
        if self.session.quit:
            self.app.exit()
        return False

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        @kb.add("c-c", eager=True)
        def _(event):
            self.session.close()
            event.app.exit()

        @kb.add("c-d", filter=Condition(lambda: not self.buffer.text))
        def _(event):
            self.session.close()
            event.app.exit()

        return kb

    # -- layout -----------------------------------------------------------------------

    def _layout(self) -> Layout:
        board = Window(FormattedTextControl(self._board), dont_extend_width=True, wrap_lines=False)
        panel = Window(FormattedTextControl(self._panel), wrap_lines=True)
        body = VSplit([Window(width=1), board, Window(width=4), panel])
        root = HSplit([
            Window(FormattedTextControl(self._header), height=1, style="class:header"),
            body,
            Window(FormattedTextControl(self._status), height=1, style="class:status"),
            ConditionalContainer(Window(FormattedTextControl(self._message), height=Dimension(min=1, max=3),
                                        dont_extend_height=True, wrap_lines=True, style="class:message"),
                                 Condition(lambda: bool(self.session.message))),
            Window(BufferControl(self.buffer, input_processors=[BeforeInput(self._prompt)]), height=1),
        ])
        floats = [Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=10, scroll_offset=1))]
        return Layout(FloatContainer(root, floats), focused_element=self.buffer)

    def _prompt(self) -> StyleAndTextTuples:
        s = self.session
        return [("class:prompt", f"{s.player_name(s.position.turn)}> ")]

    def _header(self) -> StyleAndTextTuples:
        s = self.session
        return [("", f" zermelo play {s.title}   {sides_text(s)}   level {s.level_text()}")]

    def _board(self) -> StyleAndTextTuples:
        s = self.session
        last = s.before[-1] if s.before else None
        out: StyleAndTextTuples = [("", "\n")]
        mono = self.app.color_depth == ColorDepth.DEPTH_1_BIT
        out += draw(View(s.game, s.position, last, s.flipped, mono))
        out.append(("", "\n"))
        if s.is_over():
            out.append(("class:turn", f"game over: {s.result_text()}"))
        else:
            turn = s.position.turn
            who = "you" if turn in s.humans else "zermelo"
            out.append(("class:turn", f"{s.player_name(turn)} to move ({who})"))
        if s.shown:
            out.append(("", f"   last: {s.player_name(s.movers[-1])} {s.shown[-1]}"))
        return out

    def _panel(self) -> StyleAndTextTuples:
        s = self.session
        if s.panel == "help":
            # Wrapped here at word boundaries, under the text's own column (the window
            # would break words wherever the line ends).
            width = max(self._panel_width() - 9, 20)
            out: StyleAndTextTuples = [("class:panel.title", "commands\n")]
            for name, text in COMMANDS.items():
                lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
                out += [("class:prompt", f"{name:<9}"), ("", "\n".join([lines[0], *(" " * 9 + x for x in lines[1:])])
                                                          + "\n")]
            footer = ("moves in the game's notation" + (" or SAN" if s.game.san else "") + "; Tab completes")
            out.append(("", "\n" + "\n".join(textwrap.wrap(footer, width + 9))))
            return out
        out = [("class:panel.title", "moves\n")]
        rows = move_rows(s.movers, s.shown, len(s.game.players))
        height = max(self.app.output.get_size().rows - 8, 5) if self.app.is_running else 30
        for number, *texts in rows[-height:]:
            out.append(("class:panel.number", f"{number:>3}. "))
            out.append(("", " ".join(f"{t:<9}" for t in texts[:-1]) + f" {texts[-1]}\n"))
        return out

    def _panel_width(self) -> int:
        """Columns left to the panel beside the board (as laid out by :meth:`_layout`)."""
        columns = self.app.output.get_size().columns if self.app.is_running else 100
        board = "".join(fragment[1] for fragment in self._board())
        return columns - 5 - max(get_cwidth(line) for line in board.split("\n"))

    def _status(self) -> StyleAndTextTuples:
        s = self.session
        job = s.thinking
        if job is None:
            return [("", " " + (s.last_search or "Tab completes moves and commands; 'help' lists the commands"))]
        what = "hint" if job.kind == "hint" else f"{s.player_name(job.player)} thinks"
        pv = " ".join(s.show_line(job.pv))
        text = f" {what}: {s.search_text(job)}" + (f"  pv {pv}" if pv else "")
        return [("class:status.thinking", text + "   (Enter: move now)")]

    def _message(self) -> StyleAndTextTuples:
        return [("", " " + self.session.message)]

    # -- running ----------------------------------------------------------------------

    async def run(self) -> None:
        """Run until ``quit``, Ctrl-C or Ctrl-D; the engine is stopped on the way out."""
        loop = self._loop = asyncio.get_running_loop()
        self.app.pre_run_callables.append(self.session.begin)
        previous = loop.get_exception_handler()
        # prompt_toolkit's own handler would halt the screen on "Press ENTER" and
        # take the next typed line for it: a defect is shown instead, and play goes on.
        loop.set_exception_handler(self._on_loop_error)
        try:
            await self.app.run_async(set_exception_handler=False)
        finally:
            loop.set_exception_handler(previous)
            self.session.close()

    def _on_loop_error(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        """An exception no callback caught: kept in :attr:`errors`, shown in the message line."""
        error = context.get("exception")
        text = f"error: {error!r}" if error is not None else f"error: {context.get('message')}"
        self.errors.append(text)
        self.session.message = text
        self._invalidate()


def sides_text(s: Session) -> str:
    """Who plays what: ``you play white, zermelo black``."""
    players = range(len(s.game.players))
    mine = [s.player_name(p) for p in players if p in s.humans]
    engine = [s.player_name(p) for p in players if p not in s.humans]
    if not mine:
        return "zermelo plays every side"
    if not engine:
        return "you play every side"
    return f"you play {' and '.join(mine)}, zermelo {' and '.join(engine)}"


def move_rows(movers: list[int], shown: list[str], players: int = 2) -> list[tuple]:
    """The move list in numbered rows, one column per player in the order of play; a
    player moving out of that order (a Kalah extra turn) starts a new row, the
    columns before its move holding ``...``."""
    rows: list[list] = []
    for mover, text in zip(movers, shown):
        row = rows[-1] if rows else None
        if row is None or any(row[1 + p] for p in range(mover, players)):
            row = [len(rows) + 1] + ["..." if p < mover else "" for p in range(players)]
            rows.append(row)
        row[1 + mover] = text
    return [tuple(r) for r in rows]


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="zermelo play", description="Play against the engine in the terminal.")
    parser.add_argument("game", nargs="?", default="chess", help=f"one of: {', '.join(games.names())}")
    parser.add_argument("--human", default=None,
                        help="the sides you play: a player of the game (white, black, south, x, red, ...), "
                             "first, second, a player number 1-N, several separated by commas, both or all, "
                             "or none (the engine plays itself); default: the first player")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players of a game that has several (rolit 2-4, mnkmulti 2-4)")
    parser.add_argument("--time", type=float, default=None, help="engine seconds per move (default 2)")
    parser.add_argument("--depth", type=int, default=None, help="engine search depth per move")
    parser.add_argument("--elo", type=int, default=None,
                        help="engine strength as an Elo (UCI_LimitStrength and UCI_Elo; calibrated in chess)")
    parser.add_argument("--level", type=int, default=None, help="engine skill level, 0 (weakest) to 20 (full)")
    parser.add_argument("--fen", default=None, help="start position text (FEN or the game's equivalent)")
    parser.add_argument("--array", type=int, default=None, metavar="N",
                        help="Chess960: the start array by its number, 0-959 (518 is the standard one); "
                             "default: a random array, a new one at each 'new'")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="engine option or game parameter, as in setoption (e.g. Hash=64, kalah_seeds=3)")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a parameter of the game, its option without the game's prefix (go: size=9, komi=6.5)")
    args = parser.parse_args(argv)
    try:
        args.game = games.canonical(args.game)
    except KeyError as e:
        parser.error(e.args[0])
    options = {}
    try:
        if args.players is not None:
            # The player count is the game's parameter, set as a GUI would set it.
            options[f"{args.game}_players"] = str(args.players)
            game = games.load(args.game, players=args.players)
        else:
            game = games.load(args.game)
        args.humans = {0} if args.human is None else parse_humans(game, args.human)
    except ValueError as e:
        parser.error(str(e).splitlines()[0])
    if args.time is not None and not args.time > 0:
        parser.error("--time must be positive")
    if args.depth is not None and args.depth < 1:
        parser.error("--depth must be at least 1")
    for name, value in game_params(parser, args.param).items():
        options[f"{args.game}_{name}"] = value
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option {item!r}: expected NAME=VALUE")
        options[name.strip()] = value.strip()
    # The strength is set as the options a GUI would set; UCI_Elo wins over the skill level.
    if args.level is not None:
        options["Skill Level"] = str(args.level)
    if args.elo is not None:
        options.update({"UCI_LimitStrength": "true", "UCI_Elo": str(args.elo)})
    args.options = options
    return args


def build(argv: list[str], *, input: Input | None = None, output: Output | None = None) -> Terminal:
    """The terminal for a ``zermelo play`` command line (exits on bad arguments)."""
    args = parse_args(argv)
    try:
        return Terminal(args, input=input, output=output)
    except ValueError as e:
        raise SystemExit(f"zermelo play: {e}") from None


def main(argv: list[str] | None = None) -> int:
    """``zermelo play``: run the terminal game until the player quits; without a
    terminal on standard input, read the moves line by line instead."""
    if not sys.stdin.isatty():
        from protocol.terminal.lines import play_lines

        args = parse_args(list(argv or []))
        try:
            return play_lines(args, sys.stdin, sys.stdout, sides_text)
        except ValueError as e:
            raise SystemExit(f"zermelo play: {e}") from None
    terminal = build(list(argv or []))
    try:
        asyncio.run(terminal.run())
    except KeyboardInterrupt:
        terminal.session.close()
    return 0
