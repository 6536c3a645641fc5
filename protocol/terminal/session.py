"""The game behind ``zermelo play``: moves, commands and the engine, without a screen.

A :class:`Session` holds the game record (start text and move texts), which
players the human moves for, the engine's level, and drives the same
:class:`engine.engine.Engine` facade as the protocol server: rules come from
the game's ``parse_move``/``legal_moves``, moves from ``Engine.go`` in its
worker thread. Every method runs on the caller's (the event loop's) thread;
the engine's callbacks are handed back to it through ``post``.

>>> s = Session("nim", humans={0, 1}, post=lambda fn, *args: fn(*args))
>>> s.submit("2"); s.submit("2"); s.moves
['2', '2']
>>> s.submit("undo"); s.moves
['2']
>>> s.submit("3"); s.message
"illegal move '3': take 1-2 coins from heap 1"
"""

from __future__ import annotations

import datetime
import pathlib
import random
import re
import time
from dataclasses import dataclass, field
from typing import Callable

import games
from engine.engine import Engine
from engine.files import read_text_bounded
from engine.game import IllegalMoveError, InvalidPositionError, Position, is_proven, mate_moves, mate_plies
from engine.options import OptionError, clamp_text, find_spec, parse_text
from engine.timeman import Limits
from protocol.records import GameRecord, final_result, read_records, result_token, rules_result, to_text
from protocol.match.recordfile import RECORDS_LIMIT
from protocol.match.sgf import go_board, to_sgf

#: The commands, with their one-line help, in the order ``help`` lists them.
COMMANDS: dict[str, str] = {
    "new": "a new game from the start position (Chess960: a new random one)",
    "undo": "take back your last move and the replies",
    "hint": "the engine's move for you (not played)",
    "stop": "make the engine move now (or Enter)",
    "go": "let the engine play the side to move",
    "flip": "turn the board around",
    "swap": "play the other side",
    "human": "PLAYER[,PLAYER…], both, all or none: the sides you play",
    "level": "time SECONDS | depth PLIES | elo N | skill 0-20 | full: engine limit and strength",
    "fen": "show the position text (fen TEXT: set up)",
    "position": "TEXT|startpos: set up a position",
    "save": "FILE: write the game (PGN, PDN, record; SGF for Go when FILE ends in .sgf)",
    "load": "FILE: replay the first game of a file",
    "help": "this list",
    "quit": "leave (also Ctrl-C, Ctrl-D)",
}

Post = Callable[..., None]


@dataclass
class Thinking:
    """One engine search: what it is for and what it has reported so far."""

    kind: str  # "move" (played when it ends) or "hint" (only shown)
    player: int
    started: float = field(default_factory=time.monotonic)
    depth: int = 0
    score: int | None = None
    nodes: int = 0
    pv: list[str] = field(default_factory=list)
    cancelled: bool = False


class Session:
    """One game at the terminal: the record, the human's sides, the engine's level.

    ``humans`` holds the player numbers the human moves for (empty: the engine
    plays itself). ``post(fn, *args)`` must call ``fn(*args)`` on the session's
    thread soon; the engine's worker thread reports through it. ``on_change`` is
    called after every change of what the screen shows.

    Chess960 (``chess960`` or ``UCI_Chess960``) starts from one of its 960 arrays:
    number ``array`` (0-959, the standard numbering) or a random one, unless
    ``start`` gives a position.
    """

    def __init__(self, game: str = "chess", *, humans: set[int] | None = None,
                 movetime: float | None = None, depth: int | None = None, start: str | None = None,
                 array: int | None = None, options: dict[str, str] | None = None, post: Post,
                 on_change: Callable[[], None] = lambda: None):
        self.engine = Engine(games)
        for name, value in (options or {}).items():
            self.engine.set_option(name, value)
        self.engine.set_option("UCI_Variant", games.canonical(game))
        self.chess960 = self.game.chess960
        if array is not None and not (self.chess960 and 0 <= array < 960):
            raise ValueError("a start array number (0-959) is for Chess960 only" if not self.chess960
                             else f"start array {array}: expected 0-959")
        self._fixed_array = array
        #: The Chess960 array number of the game's start (``None``: not an array of those).
        self.array: int | None = None
        if start is None and self.chess960:
            start = self._new_array()
        if start is not None:
            self.engine.set_position(start, [])
        self.start = start
        self.moves: list[str] = []
        #: Player who made each move (Kalah grants extra turns, so this is not parity).
        self.movers: list[int] = []
        #: Position text before each move, for the last-move highlight.
        self.before: list[str] = []
        #: How the move list shows each move (SAN for chess).
        self.shown: list[str] = []
        self.humans = {0} if humans is None else set(humans)
        self.movetime = movetime if movetime is not None or depth is not None else 2.0
        self.depth = depth
        self.flipped = 1 in self.humans and 0 not in self.humans
        self.message = ""
        self.panel = "moves"  # or "help"
        self.thinking: Thinking | None = None
        self.last_search = ""
        self.quit = False
        self._post = post
        self._on_change = on_change

    def begin(self) -> None:
        """Start play: the engine thinks at once if it has the first move."""
        self._advance()

    # -- state -----------------------------------------------------------------

    @property
    def game(self):
        return self.engine.game

    @property
    def position(self) -> Position:
        return self.engine.position

    def player_name(self, player: int) -> str:
        return self.game.players[player]

    @property
    def title(self) -> str:
        """The game as the screen names it: ``chess960, array 518`` for Chess960."""
        if not self.chess960:
            return self.game.name
        return "chess960" + (f", array {self.array}" if self.array is not None else "")

    @property
    def record_name(self) -> str:
        """The game's name in records: Chess960 under its own, so that a record replays
        with its castling rules."""
        return "chess960" if self.chess960 else self.game.name

    def _new_array(self) -> str:
        """The start text of the fixed Chess960 array, or of a random one."""
        import chess

        self.array = self._fixed_array if self._fixed_array is not None else random.randrange(960)
        return chess.Board.from_chess960_pos(self.array).fen()

    def is_over(self) -> bool:
        return self.engine.game_over()

    def result_text(self) -> str:
        """``1-0 white wins (checkmate)`` and the like for a finished game, else ``""``;
        with more players the places and who came first: ``1-3-2 red first``."""
        pos = self.position
        players = self.game.players
        if len(players) > 2:
            token = final_result(pos, len(players))
            if token is None:
                return ""
            ranking = self.engine.ranking()
            if ranking is None:
                return token
            return f"{token} {' and '.join(players[p] for p in range(len(players)) if ranking[p] == 1)} first"
        r0 = rules_result(pos)
        if r0 is None:
            return ""
        token = result_token(r0)
        winner = self.engine.winner()
        what = "draw" if winner is None else f"{self.player_name(winner)} wins"
        in_check_word, no_check_word = self.game.no_move_words
        if not pos.legal_moves() and in_check_word:
            what += f" ({in_check_word})" if pos.in_check() else f" ({no_check_word})"
        elif pos.outcome() == 0 and pos.legal_moves():
            what += " by rule"
        score = self.game.score_text(pos)
        return f"{token} {what}" + (f" ({score})" if score else "")

    def limits(self) -> Limits:
        movetime = round(self.movetime * 1000) if self.movetime is not None else None
        return Limits(movetime=movetime, depth=self.depth)

    def level_text(self) -> str:
        parts = []
        if self.movetime is not None:
            parts.append(f"{self.movetime:g} s/move")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        opts = self.engine.options
        if opts.limit_strength:
            parts.append(f"Elo {opts.elo}")
        elif opts.skill_level < 20:
            parts.append(f"skill {opts.skill_level}")
        return ", ".join(parts)

    def legal_texts(self) -> list[str]:
        """Legal moves in the game's notation, and in SAN for chess."""
        pos = self.position
        texts = [pos.move_text(m) for m in pos.legal_moves()]
        if self.game.san:
            board = self._chess_board()
            texts += [board.san(m) for m in board.legal_moves]
        return texts

    # -- input -----------------------------------------------------------------

    def submit(self, line: str) -> None:
        """Handle one input line: a command or a move; problems go to ``message``."""
        text = line.strip()
        self.panel = "moves"
        if not text:
            if self.thinking is not None:
                self.stop()
            return
        word, _, rest = text.partition(" ")
        handler = getattr(self, f"cmd_{word.lower()}", None)
        if handler is not None and word.lower() in COMMANDS:
            self.message = ""
            try:
                handler(rest.strip())
            except (OSError, ValueError) as e:
                self.message = f"{word}: {e}"
        else:
            self.human_move(text)
        self._on_change()

    def human_move(self, text: str) -> None:
        """Play ``text`` for the side to move if the human plays it; the board is
        unchanged when the move is illegal, ambiguous or not the human's to play."""
        if self.is_over():
            self.message = f"the game is over ({self.result_text()}); 'new' or 'undo'"
            return
        pos = self.position
        if pos.turn not in self.humans:
            self.message = (f"{self.player_name(pos.turn)} is the engine's side; "
                            "'stop' makes it move now, 'swap' or 'human' changes sides")
            return
        try:
            move = self._parse(text)
        except IllegalMoveError as e:
            self.message = str(e)
            return
        self._cancel()
        self.message = ""
        self._play(pos.move_text(move))

    def _parse(self, text: str) -> int:
        pos = self.position
        try:
            return pos.parse_move(text)
        except IllegalMoveError:
            if not self.game.san:
                raise
        import chess

        from protocol.terminal.chess_refusal import why_illegal

        board = self._chess_board()
        try:
            return pos.parse_move(board.parse_san(text).uci())
        except chess.AmbiguousMoveError:
            raise IllegalMoveError(f"ambiguous move {text!r}: {' or '.join(_candidates(board, text))}") from None
        except (ValueError, IllegalMoveError):
            # The rules only say "not legal"; the player is told why.
            raise IllegalMoveError(f"illegal move {text!r}: {why_illegal(board, text)}") from None

    def _chess_board(self):
        import chess

        return chess.Board(self.position.to_text(), chess960=self.game.chess960)

    def _play(self, text: str) -> None:
        """Record a legal move text of the side to move, then let the engine answer."""
        self._push(text)
        self._advance()

    def _push(self, text: str) -> None:
        pos = self.position
        before, mover, shown = pos.to_text(), pos.turn, self._show(text)
        self.engine.set_position(self.start, [*self.moves, text])
        self.moves.append(text)
        self.movers.append(mover)
        self.before.append(before)
        self.shown.append(shown)

    def _truncate(self, plies: int) -> None:
        self.engine.set_position(self.start, self.moves[:plies])
        self.last_search = ""
        del self.moves[plies:], self.movers[plies:], self.before[plies:], self.shown[plies:]

    def _advance(self) -> None:
        """After a change: announce the end, or start the engine on its turn."""
        if self.is_over():
            self.message = f"game over: {self.result_text()}"
        elif self.position.turn not in self.humans and self.thinking is None:
            self._think("move")
        self._on_change()

    # -- the engine ----------------------------------------------------------------

    def _think(self, kind: str) -> None:
        job = Thinking(kind, self.position.turn)
        self.thinking = job
        self.engine.go(self.limits(),
                       lambda info, pv: self._post(self._on_info, job, info, pv),
                       lambda best, ponder: self._post(self._on_bestmove, job, best),
                       lambda note: self._post(self._on_note, job, note))

    def _on_info(self, job: Thinking, info, pv: list[str]) -> None:
        if job is not self.thinking:
            return
        job.depth, job.score, job.nodes, job.pv = info.depth, info.score, info.nodes, pv
        self._on_change()

    def _on_note(self, job: Thinking, note: str) -> None:
        if job is self.thinking:
            self.message = note
            self._on_change()

    def _on_bestmove(self, job: Thinking, best: str | None) -> None:
        if job is not self.thinking or job.cancelled:
            return
        self.thinking = None
        summary = self.search_text(job)
        if best is None:
            self._advance()
            return
        if job.kind == "hint":
            self.message = f"hint: {self._show(best)}  ({summary})"
            self._on_change()
            return
        self.last_search = f"{self.player_name(job.player)} played {self._show(best)}: {summary}"
        self._play(best)

    def _show(self, text: str) -> str:
        if self.game.san:
            return self.show_line([text])[0]
        return text

    def show_line(self, texts: list[str]) -> list[str]:
        """Move texts of a line from the current position as the move list shows them."""
        if not self.game.san:
            return list(texts)
        import chess

        board = self._chess_board()
        out = []
        for text in texts:
            move = chess.Move.from_uci(text)
            if move not in board.legal_moves:
                break
            out.append(board.san(move))
            board.push(move)
        return out

    def search_text(self, job: Thinking) -> str:
        """``depth 7  score +0.35 for you  12.1k nodes  3.2 s`` for a search's last report."""
        elapsed = time.monotonic() - job.started
        parts = [f"depth {job.depth}"] if job.depth else []
        if job.score is not None:
            score, whom = self.viewed_score(job.player, job.score)
            parts.append(f"score {self.score_text(score)} for {whom}")
        if job.nodes:
            parts.append(f"{_count(job.nodes)} nodes")
        parts.append(f"{elapsed:.1f} s")
        return "  ".join(parts)

    def viewed_score(self, player: int, score: int) -> tuple[int, str]:
        """A search's score (from ``player``'s view) turned to a steady point of view:
        the human's when one side of two is theirs, else the first player's; with
        more players a score is only ever the searching player's."""
        if len(self.game.players) != 2:
            return score, "you" if self.humans == {player} else self.player_name(player)
        if len(self.humans) == 1:
            me = next(iter(self.humans))
            return (score if player == me else -score), "you"
        return (score if player == 0 else -score), self.player_name(0)

    def score_text(self, score: int) -> str:
        """A score: pawns (hundredths) or a counted win or loss."""
        if self.game.mate_in_moves:
            mate = mate_moves(score)
            if mate is not None:
                return f"#{mate}"
        plies = mate_plies(score)
        if plies is not None:
            n = abs(plies)
            return f"{'win' if plies > 0 else 'loss'} in {n} {'ply' if n == 1 else 'plies'}"
        if is_proven(score):
            return "win" if score > 0 else "loss"
        return f"{score / 100:+.2f}"

    def stop(self) -> None:
        """End the running search: its move (or hint) comes at once."""
        if self.thinking is not None:
            self.engine.stop()

    def _cancel(self) -> None:
        """End the running search and forget its move."""
        job = self.thinking
        if job is None:
            return
        job.cancelled = True
        self.thinking = None
        self.engine.stop()
        self.engine.wait()

    def close(self) -> None:
        """Stop any search; the session can be dropped."""
        self._cancel()

    # -- commands ----------------------------------------------------------------

    def cmd_quit(self, rest: str) -> None:
        self.close()
        self.quit = True

    def cmd_help(self, rest: str) -> None:
        self.panel = "help"

    def cmd_new(self, rest: str) -> None:
        self._cancel()
        self.engine.new_game()
        self.start = self._new_array() if self.chess960 else None
        self.engine.set_position(self.start, [])
        self._truncate(0)
        self.message = "new game"
        self._advance()

    def cmd_undo(self, rest: str) -> None:
        """Back to the human's previous turn: the human's last move and every engine
        move after it (one ply when the engine plays both sides)."""
        self._cancel()
        if not self.moves:
            self.message = "nothing to undo"
            return
        if self.humans:
            human_plies = [i for i, p in enumerate(self.movers) if p in self.humans]
            if not human_plies:
                self.message = "nothing of yours to undo"
                self._advance()
                return
            keep = human_plies[-1]
        else:
            keep = len(self.moves) - 1
        taken = self.shown[keep:]
        self._truncate(keep)
        self.message = f"took back {' '.join(taken)}"
        self._advance()

    def cmd_hint(self, rest: str) -> None:
        if self.is_over():
            self.message = "the game is over"
        elif self.thinking is not None:
            self.message = "the engine is thinking"
        else:
            self.message = "thinking about a hint..."
            self._think("hint")

    def cmd_stop(self, rest: str) -> None:
        if self.thinking is None:
            self.message = "the engine is not thinking"
        self.stop()

    def cmd_go(self, rest: str) -> None:
        if self.is_over():
            self.message = "the game is over"
        elif self.thinking is None or self.thinking.kind == "hint":
            self._cancel()
            self._think("move")

    def cmd_flip(self, rest: str) -> None:
        self.flipped = not self.flipped

    def cmd_swap(self, rest: str) -> None:
        if len(self.humans) != 1:
            self.message = "swap: the human plays several sides or none; use 'human PLAYER'"
            return
        # The next player in the order of play (the other side with two players).
        self._set_humans({(next(iter(self.humans)) + 1) % len(self.game.players)})

    def cmd_human(self, rest: str) -> None:
        self._set_humans(parse_humans(self.game, rest))

    def _set_humans(self, humans: set[int]) -> None:
        self._cancel()
        self.humans = humans
        if len(humans) == 1:
            self.flipped = 1 in humans
        names = [self.player_name(p) for p in sorted(humans)] or ["nobody (the engine plays itself)"]
        self.message = f"you play {' and '.join(names)}"
        self._advance()

    def cmd_level(self, rest: str) -> None:
        words = rest.split()
        notes: list[str] = []
        if words == ["full"]:
            notes = self._set_strength([("UCI_LimitStrength", "false"), ("Skill Level", "20")])
        elif words:
            if len(words) != 2 or words[0] not in ("time", "depth", "elo", "skill"):
                raise ValueError("expected 'level time SECONDS', 'level depth PLIES', 'level elo N', "
                                 "'level skill 0-20' or 'level full'")
            if words[0] == "elo":
                notes = self._set_strength([("UCI_Elo", words[1]), ("UCI_LimitStrength", "true")])
            elif words[0] == "skill":
                notes = self._set_strength([("Skill Level", words[1]), ("UCI_LimitStrength", "false")])
            elif words[0] == "time":
                value = float(words[1])
                if not value > 0:
                    raise ValueError("time must be positive")
                self.movetime, self.depth = value, None
            else:
                value = int(words[1])
                if value < 1:
                    raise ValueError("depth must be at least 1")
                self.depth, self.movetime = value, None
        self.message = f"level: {self.level_text()}" + "".join(f" ({note})" for note in notes)

    def _set_strength(self, settings: list[tuple[str, str]]) -> list[str]:
        """Set strength options; a bad value changes nothing (an Elo beyond the
        calibrated range is taken at its end, with a note). A running search is
        restarted at the new strength (options cannot change under it)."""
        for name, value in settings:
            spec = find_spec(name, games)
            parse_text(spec, clamp_text(spec, value)[0])
        self._cancel()
        notes = [note for name, value in settings for note in self.engine.set_option(name, value)]
        self._advance()
        return notes

    def cmd_fen(self, rest: str) -> None:
        if rest:
            self.cmd_position(rest)
        else:
            self.message = self.position.to_text()

    def cmd_position(self, rest: str) -> None:
        if not rest:
            raise ValueError("expected a position text or 'startpos'")
        text = None if rest == "startpos" else rest
        self._cancel()
        try:
            self.engine.set_position(text, [])
        except InvalidPositionError as e:
            self.engine.set_position(self.start, self.moves)
            raise ValueError(str(e)) from None
        self.start = text
        self.array = None
        self._truncate(0)
        self.message = f"position {self.position.to_text()}"
        self._advance()

    def record(self) -> GameRecord:
        """The game so far as a record of :mod:`protocol.records`."""
        n = len(self.game.players)
        result = final_result(self.position, n)
        names = tuple("Human" if p in self.humans else "zermelo" for p in range(n))
        # A parameter that sets the player count is part of the record (``[Params "players=3"]``).
        params = {"players": str(n)} if n != len(games.load(self.game.name).players) else {}
        return GameRecord(
            self.record_name, names, result or "*", self.start, list(self.moves),
            termination="normal" if result is not None else "unterminated",
            tags={"Event": "zermelo play", "Site": "?", "Date": datetime.date.today().strftime("%Y.%m.%d"),
                  "Round": "-"}, params=params)

    def cmd_save(self, rest: str) -> None:
        if not rest:
            raise ValueError("expected a file name")
        path = pathlib.Path(rest).expanduser()
        if path.suffix.lower() == ".sgf":
            if go_board(self.game) is None:
                raise ValueError("SGF holds Go games; save this game under another name")
            over = final_result(self.position, 2) is not None
            path.write_bytes(to_sgf(self.record(), self.game.score_text(self.position) if over else None, self.game))
        else:
            path.write_text(to_text(self.record()))
        self.message = f"saved {_plies(len(self.moves))} to {path}"

    def cmd_load(self, rest: str) -> None:
        if not rest:
            raise ValueError("expected a file name")
        path = pathlib.Path(rest).expanduser()
        records = read_records(read_text_bounded(path, RECORDS_LIMIT))
        if not records:
            raise ValueError(f"no game in {path}")
        rec = records[0]
        self._cancel()
        if rec.game != self.record_name:
            try:
                self.engine.set_option("UCI_Variant", rec.game)
            except OptionError as e:
                raise ValueError(str(e)) from None
        try:
            self.engine.set_position(rec.start, [])
        except (InvalidPositionError, IllegalMoveError) as e:
            raise ValueError(str(e)) from None
        self.start = rec.start
        self.chess960 = self.game.chess960
        self.array = None
        self._truncate(0)
        for i, text in enumerate(rec.moves):
            try:
                move = self.position.parse_move(text)
            except IllegalMoveError as e:
                self.message = f"{path}: move {i + 1}: {e}; loaded up to there"
                break
            self._push(self.position.move_text(move))
        else:
            self.message = f"loaded {_plies(len(self.moves))} from {path}"
        self._advance()


def parse_humans(game, text: str) -> set[int]:
    """Players named by ``text``: a player name of the game, ``first``/``second``,
    a player number ``1``…``N``, several of these separated by commas, ``both``
    or ``all`` (every player) or ``none``."""
    word = text.strip().lower()
    n = len(game.players)
    if word in ("both", "all"):
        return set(range(n))
    if word == "none":
        return set()
    if "," in word:
        return set().union(*(parse_humans(game, part) for part in word.split(",")))
    if word in game.players:
        return {game.players.index(word)}
    if word == "first":
        return {0}
    if word == "second":
        return {1}
    if word.isdigit() and 1 <= int(word) <= n:
        return {int(word) - 1}
    raise ValueError(f"unknown player {text!r}; expected {', '.join(game.players)}, 1-{n}, all or none")


def _candidates(board, text: str) -> list[str]:
    """SAN of the legal moves an ambiguous SAN text may mean: same piece, same target."""
    import chess

    squares = re.findall(r"[a-h][1-8]", text)
    piece = text[0] if text[:1] in "NBRQK" else "P"
    return sorted(board.san(m) for m in board.legal_moves
                  if squares and chess.square_name(m.to_square) == squares[-1]
                  and board.piece_at(m.from_square).symbol().upper() == piece)


def _plies(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"


def _count(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 1000:
        return f"{n / 1000:.1f}k"
    return str(n)
