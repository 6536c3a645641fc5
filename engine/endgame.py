"""Exact knowledge for the games other than chess, behind the search's table hook.

Each game that has some supplies an *exact provider*: an object whose
``score(pos)`` returns ``None`` (not covered) or the exact value of ``pos`` for the
side to move in search units, as :attr:`engine.search.Searcher.tb_probe` expects:
``WIN - n`` for a win ``n`` plies ahead, ``0`` for a draw, the negatives for losses,
and for games scored by a margin (Kalah stores, reversi discs) :func:`margin_score`.
A provider may also have ``best(pos) -> (move, score) | None`` when it finds the
root move faster than by scoring every child (the reversi solver).

============  ==========================================================  =================
game          provider                                                    needs
============  ==========================================================  =================
checkers      :class:`games.draughts_retro.DraughtsExact` (≤ 4 pieces)    tables in a path
shashki       the same                                                    tables in a path
kalah         :class:`games.kalah_retro.KalahExact` (few seeds left)      file, shipped, built
reversi       :class:`games.reversi_endgame.ReversiExact` (few empties)   nothing
connect4      :class:`games.small_retro.Connect4Exact` (few empties)      nothing
tictactoe,    :class:`games.small_retro.SolvedGame` (the whole game)      nothing
mnk, nim
============  ==========================================================  =================

:class:`Endgames` holds the providers of one configuration (table directory,
reversi empties); :meth:`Endgames.hook` gives the search hook of a game and
:meth:`Endgames.oracle` answers at the root with a best move and its score, without
searching. :func:`attach` wires both into an :class:`engine.engine.Engine`.

Making a provider is cheap; slow work (building or reading a table, solving a whole
small game) is done by its ``prepare(control) -> None``, which raises
:class:`engine.control.Stopped` when the control expires and resumes where it
stopped on the next call. Until it has finished, the game has no hook and no
oracle. Root solvers (``best``) take the control too and give up the same way.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Callable

from engine.control import Control, Stopped
from engine.game import KNOWN_WIN, WIN, WIN_BOUND, Move, is_proven, mate_moves, mate_plies, result_score

if TYPE_CHECKING:
    from engine.engine import Engine, RootAnswer
    from engine.game import Game, Position
    from engine.timeman import Limits

#: Default reversi endgame: solved exactly at the root from this many empties, and in
#: the search (at every node, so much smaller) from ``SEARCH_EMPTIES``.
ROOT_EMPTIES = 12
SEARCH_EMPTIES = 8
#: Connect Four positions with at most this many empty cells are solved in the search.
CONNECT4_EMPTIES = 14
#: Kalah table built in memory when neither a file nor a shipped table covers the rules
#: (seeds left in the pits; Kalah(6, any seeds) ships with 14).
KALAH_BUILD_SEEDS = 8


def margin_score(margin: int) -> int:
    """Search score of a proven final margin (positive: the side to move wins by it).

    Wins and losses sit beside :data:`engine.game.KNOWN_WIN` (a proven result of unknown
    distance), moved by the margin so that larger wins and smaller losses rank higher;
    a zero margin is a draw.

    >>> margin_score(0), margin_score(3) - margin_score(1), margin_score(-2) == -margin_score(2)
    (0, 2, True)
    """
    if margin > 0:
        return KNOWN_WIN + margin
    if margin < 0:
        return -KNOWN_WIN + margin
    return 0


#: What the margin of a game counts, for :func:`describe`.
MARGIN_UNITS = {"reversi": "discs", "kalah": "seeds"}
#: Longest line :meth:`Endgames.principal_line` follows (no game here lasts longer).
LINE_LIMIT = 400


def describe(score: int, plies: int | None = None, unit: str = "") -> str:
    """Words for an exact score: ``win in 4 moves``, ``loss by 4 seeds in 3 moves``, ``draw``.

    ``plies`` is the length of the line to the game's end when the score does not carry
    it (margins); moves count as in ``score mate N`` (:func:`engine.game.mate_moves`).

    >>> describe(WIN - 7), describe(margin_score(-4), 6, "seeds"), describe(0)
    ('win in 4 moves', 'loss by 4 seeds in 3 moves', 'draw')
    """
    if score == 0:
        return "draw"
    word = "win" if score > 0 else "loss"
    if mate_plies(score) is not None:
        plies = abs(mate_plies(score))
    margin = f" by {abs(score) - KNOWN_WIN}{' ' + unit if unit else ''}" if mate_plies(score) is None else ""
    if plies is None:
        return word + margin
    moves = abs(mate_moves(WIN - plies if score > 0 else plies - WIN))
    return f"{word}{margin} in {moves} move{'s' if moves != 1 else ''}"


class Endgames:
    """The exact providers of every game, for one table directory and reversi setting.

    Providers are made on first use per game object (a Kalah table may be built then).
    Table files that cannot be read are reported to ``on_error`` (an ``info string`` text).
    """

    def __init__(self, table_path: str = "", root_empties: int = ROOT_EMPTIES,
                 search_empties: int = SEARCH_EMPTIES, on_error: Callable[[str], None] | None = None):
        self.table_path = table_path
        self.on_error = on_error
        self.root_empties = root_empties
        self.search_empties = min(search_empties, root_empties)
        self._providers: dict[int, tuple[Game, object | None, bool]] = {}
        #: Held while a provider is made or prepared: by a go's worker, or by the
        #: background preparation of ``isready``, never both.
        self._lock = threading.Lock()

    def provider(self, game: Game, control: Control | None = None):
        """The exact provider of ``game`` once it is prepared, or ``None`` when the game
        has none. Raises :class:`engine.control.Stopped` when ``control`` expires first
        (the preparation resumes at the next call)."""
        entry = self._providers.get(id(game))
        if entry is not None and entry[0] is game and entry[2]:
            return entry[1]
        control = control if control is not None else Control()
        while not self._lock.acquire(timeout=0.005):
            control.check()
        try:
            entry = self._providers.get(id(game))
            if entry is None or entry[0] is not game:
                entry = self._providers[id(game)] = (game, self._make(game), False)
            provider = entry[1]
            if not entry[2]:
                if provider is not None and hasattr(provider, "prepare"):
                    provider.prepare(control)
                self._providers[id(game)] = (game, provider, True)
            return provider
        finally:
            self._lock.release()

    def _make(self, game: Game):
        name = game.name
        directory = _first_directory(self.table_path)
        if name in ("checkers", "shashki"):
            from games.draughts_retro import DraughtsExact

            return DraughtsExact(game, directory, self.on_error) if directory else None
        if name == "kalah":
            from games.kalah_retro import KalahExact

            return KalahExact(game, directory, KALAH_BUILD_SEEDS, self.on_error)
        if name == "reversi":
            from games.reversi_endgame import ReversiExact

            return ReversiExact(game, self.search_empties, self.root_empties)
        if name == "connect4":
            from games.small_retro import Connect4Exact

            return Connect4Exact(game, CONNECT4_EMPTIES)
        from games import small_retro

        if small_retro.solvable(game):
            return small_retro.SolvedGame(game)
        return None

    def hook(self, game: Game, control: Control | None = None) -> Callable[[Position], int | None] | None:
        """The search hook (``Searcher.tb_probe``) for ``game``, or ``None``; raises
        :class:`engine.control.Stopped` if the provider's preparation is cut short."""
        provider = self.provider(game, control)
        return None if provider is None else provider.score

    def best(self, game: Game, pos: Position, control: Control | None = None) -> tuple[int, int] | None:
        """``(move, score)``: a best move of ``pos`` and its exact score, or ``None``
        when the position is not covered. Leaves ``pos`` as it found it; raises
        :class:`engine.control.Stopped` when ``control`` expires first."""
        provider = self.provider(game, control)
        if provider is None:
            return None
        if hasattr(provider, "best"):
            return provider.best(pos, control)
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            return None
        best = None
        turn = pos.turn
        for move in moves:
            pos.push(move)
            try:
                v = provider.score(pos)
                if v is None and (pos.outcome() is not None or not pos.legal_moves()):
                    v = result_score(pos.outcome() if pos.outcome() is not None
                                     else pos.no_moves_value(), 0)
                changed = pos.turn != turn
            finally:
                pos.pop()
            if v is None:
                return None
            # One ply further from the end; margins do not depend on the distance.
            if v >= WIN_BOUND:
                v -= 1
            elif v <= -WIN_BOUND:
                v += 1
            if changed:
                v = -v
            if best is None or v > best[1]:
                best = (move, v)
        return best

    def principal_line(self, game: Game, pos: Position, first: Move,
                       control: Control | None = None) -> list[Move] | None:
        """The exact line from ``pos`` starting with ``first``: best moves of the provider
        to the game's end, or ``None`` when a position on the way is not covered.
        Leaves ``pos`` as it found it."""
        return self.extend(game, pos, [first], control)

    def extend(self, game: Game, pos: Position, pv: list[Move],
               control: Control | None = None) -> list[Move] | None:
        """``pv`` (legal from ``pos``) continued by the provider's best moves to the
        game's end, or ``None`` when a move is not legal or a position on the way is
        not covered. Leaves ``pos`` as it found it; raises
        :class:`engine.control.Stopped` when ``control`` expires first."""
        line: list[Move] = []
        try:
            for move in pv:
                if pos.outcome() is not None or move not in pos.legal_moves():
                    return None
                line.append(move)
                pos.push(move)
            while len(line) < LINE_LIMIT and pos.outcome() is None and pos.legal_moves():
                found = self.best(game, pos, control)
                if found is None:
                    return None
                line.append(found[0])
                pos.push(found[0])
        finally:
            for _ in line:
                pos.pop()
        return line

    def report(self, game: Game, pos: Position, pv: list[Move], score: int,
               control: Control | None = None) -> tuple[int, list[Move]] | None:
        """The search's reporting hook (``Searcher.tb_report``): a proven score without
        a distance and its PV become a win or loss in as many plies as the PV extended
        to the game's end, so that it prints as ``score mate N``."""
        try:
            line = self.extend(game, pos, pv, control) if pv else None
        except Stopped:
            return None
        if not line:
            return None
        return (WIN - len(line) if score > 0 else len(line) - WIN), line

    def oracle(self, game: Game, pos: Position, limits: Limits,
               control: Control | None = None) -> RootAnswer | None:
        """Root oracle (:data:`engine.engine.Oracle`): the table's move, reported with
        its exact score.

        The reported line runs to the game's end. A proven result whose score has no
        distance (Kalah and reversi margins) is reported as a win or loss in as many
        plies as that line has, so that it prints as ``score mate N``; the margin goes
        to the note (``exact: win by 12 discs in 9 moves``). ``None`` too when
        ``control`` expires first."""
        from engine.engine import RootAnswer
        from engine.search import Info

        t0 = time.monotonic()
        try:
            found = self.best(game, pos, control)
        except Stopped:
            return None
        if found is None:
            return None
        move, score = found
        if limits.searchmoves and move not in limits.searchmoves:
            return None
        try:
            line = self.principal_line(game, pos, move, control) or [move]
        except Stopped:
            line = [move]
        complete = len(line) > 1 or _ends(pos, move)
        words = describe(score, len(line) if complete else None, MARGIN_UNITS.get(game.name, ""))
        if is_proven(score) and mate_plies(score) is None and complete:
            score = WIN - len(line) if score > 0 else len(line) - WIN
        ms = int((time.monotonic() - t0) * 1000)
        info = Info(depth=len(line), seldepth=len(line), multipv=1, score=score, bound=None, nodes=len(line),
                    time_ms=ms, nps=0, hashfull=0, tbhits=len(line), pv=line)
        return RootAnswer(move, info, f"exact: {words}")


def _ends(pos: Position, move: Move) -> bool:
    """True if ``move`` ends the game."""
    pos.push(move)
    try:
        return pos.outcome() is not None or not pos.legal_moves()
    finally:
        pos.pop()


def _first_directory(path: str) -> str | None:
    """The first directory of a ``:``-separated (``;`` on Windows) path list."""
    import os

    for part in path.split(os.pathsep):
        if part.strip():
            return part.strip()
    return None


def attach(engine: Engine) -> None:
    """Give ``engine`` the exact knowledge of the non-chess games: a root oracle that
    plays the exact move, and, for the search of the game being played, the table hook.

    The configuration follows the options ``EndgameEmpties`` and, when the engine has
    it, ``TablePath``. The hook is a hook source (:attr:`engine.engine.Engine.hook_sources`)
    for every game but chess, whose tables are :mod:`engine.probe`'s.
    """
    state: dict = {"key": None, "endgames": None}

    def report(text: str) -> None:
        # Table defects surface as one ``info string`` of the running ``go``.
        job = engine._job
        if job is not None:
            job.on_message(text)

    def current() -> Endgames:
        options = engine.options
        key = (getattr(options, "table_path", ""), options.endgame_empties)
        if state["key"] != key:
            state["key"] = key
            state["endgames"] = Endgames(key[0], root_empties=key[1], on_error=report)
        return state["endgames"]

    def source(game: Game, control: Control):
        if game.name == "chess":
            return None
        endgames = current()
        try:
            hook = endgames.hook(game, control)
        except Stopped:
            return None, 1, None  # not built yet: the search goes without; the next go resumes
        if hook is None:
            return None, 1, None
        # Margin scores (Kalah seeds, reversi discs) carry no distance: the reporter
        # follows the PV to the game's end so that they print as ``score mate N``.
        return hook, 1, lambda root, pv, score: endgames.report(game, root, pv, score, control)

    def oracle(game: Game, pos: Position, limits: Limits) -> RootAnswer | None:
        if game.name == "chess":
            return None
        return current().oracle(game, pos, limits, engine.control)

    engine.hook_sources.append(source)
    engine.oracles.append(oracle)
    # Build the current game's tables after ``isready``, in the background.
    engine.prepare_hooks.append(lambda control: current().provider(engine.game, control))
