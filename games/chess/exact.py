"""Chess's exact knowledge in play: its endgame tables behind the search and the root.

- ``SyzygyPath`` and ``TablePath`` (zermelo's own ``.ztb`` tables, see
  :mod:`games.chess.tables`): when this provider is made (as the option is set),
  every file's header is checked against the role its name gives, and a file of
  another material is refused with one error line; :meth:`ChessExact.prepare`
  (the background preparation of ``isready``, or the first go) then opens the own
  tables and verifies their checksums, and verifies the Syzygy files' checksums
  (``SyzygyVerify``), admitting each file as it passes. python-chess maps a Syzygy
  file on its first probe. Once the own tables are open the provider is usable
  (:attr:`ChessExact.usable`): a go that stops the preparation plays with the
  Syzygy files admitted so far, the others counting as absent.
- In the search (:meth:`ChessExact.score`, the search's table hook): the own
  tables give exact distance-to-mate scores at any node they cover; Syzygy gives
  WDL scores (a win of unknown distance, ``KNOWN_WIN``) at nodes right after a
  capture or pawn move, as engines do, since a WDL table assumes a fresh
  fifty-move counter, and only up to ``SyzygyProbeLimit`` pieces.
  ``SyzygyProbeDepth`` is the least remaining depth of a probed node.
- At the root (:meth:`ChessExact.root`), when the position is covered: the own
  table's fastest mate (or longest defence), else the DTZ-optimal move of the
  Syzygy tables, which wins won endings within the fifty-move rule (with
  ``Syzygy50MoveRule``, cursed wins count as draws). Both give a score and a
  principal line.
"""

from __future__ import annotations

import math
import os
import time

from engine.control import Control, Stopped
from engine.game import KNOWN_WIN, NO_MOVE, WIN, Exact, ExactConfig, Move, bits, result_score
from games.chess.syzygy import SyzygyTables
from games.chess.tables import ChessTables

_CACHE_LIMIT = 1 << 18
#: Seconds a go that time does not limit (infinite, depth, nodes) verifies Syzygy files
#: before it searches with those verified so far.
UNTIMED_VERIFY = 0.5
_UNSEEN = object()
#: Longest principal line read from the tables at the root (plies).
_PV_PLIES_DTM = 40
_PV_PLIES_DTZ = 8


class ChessExact(Exact):
    """Chess's tables under one configuration: zermelo's own (``TablePath``) and
    Syzygy's (``SyzygyPath``); see the module doc. Made by
    :meth:`games.chess.ChessGame.exact` when either is set."""

    #: Table wins without a distance keep Stockfish's ``cp 20000 - ply``: no line is followed.
    follow_lines = False

    def __init__(self, config: ExactConfig):
        self.config = config
        self.report = config.report
        #: ``SyzygyProbeDepth``: least remaining depth of a probed node.
        self.probe_depth = config.syzygy_probe_depth
        path = config.syzygy_path.strip()
        self.syzygy = SyzygyTables(path, report=self.report, verify=config.syzygy_verify) if path else None
        path = config.table_path.strip()
        self.own = ChessTables(path, on_error=self.report) if path and os.path.isdir(path) else None
        if self.own is not None:
            self.own.check()
        #: True once the own tables are open: the search may then use the provider
        #: while Syzygy files still wait for their checksum (see :meth:`prepare`).
        self.usable = self.own is None
        #: Values by Zobrist key: Syzygy (positions after a zeroing move) and own tables.
        self.cache: dict[int, int | None] = {}
        self.own_cache: dict[int, int | None] = {}

    def prepare(self, control) -> None:
        """Open the own tables, verifying each file (a defective one is reported and
        left out), then verify the Syzygy files held back; raises
        :class:`engine.control.Stopped` when ``control`` expires (a next call resumes)."""
        if self.own is not None and not self.usable:
            self.own.load(control)
            self.usable = True
        if self.syzygy is not None:
            if control.deadline == math.inf and control.clock is not None:
                # A go with no share of a clock would wait for the whole set (minutes
                # for 6 pieces): it verifies for a moment; the next isready resumes.
                control = _Until(control, time.perf_counter() + UNTIMED_VERIFY)
            self.syzygy.verify(control)

    # -- the search hook -------------------------------------------------------------

    def score(self, pos) -> int | None:
        """Exact value of a chess position for the side to move, or ``None`` (see the module doc)."""
        if pos.castling:
            return None
        key = pos.key
        if self.own is not None:
            value = self.own_cache.get(key, _UNSEEN)
            if value is _UNSEEN:
                value = self.own_cache[key] = self._own_value(pos)
                if len(self.own_cache) >= _CACHE_LIMIT:
                    self.own_cache.clear()
            if value is not None:
                # Not the sentinel, which mypy cannot narrow away with ``is``.
                return value  # type: ignore[return-value]
        # A WDL table assumes the fifty-move counter was just reset.
        if self.syzygy is None or pos.halfmove:
            return None
        value = self.cache.get(key, _UNSEEN)
        if value is _UNSEEN:
            value = self.cache[key] = self._syzygy_value(pos)
            if len(self.cache) >= _CACHE_LIMIT:
                self.cache.clear()
        return value  # type: ignore[return-value]  # not the sentinel (see above)

    def _own_value(self, pos) -> int | None:
        own = self.own
        if own is None or pos.piece_count() > 4:
            return None
        bb = pos.bb
        white = [(t, s) for t in range(1, 7) for s in bits(bb[t])]
        black = [(t, s) for t in range(1, 7) for s in bits(bb[8 | t])]
        found = own.probe_squares(white, black, pos.turn)
        if found is None:
            return None
        wdl, plies = found
        return 0 if wdl == 0 else (WIN - plies if wdl > 0 else plies - WIN)

    def _syzygy_value(self, pos) -> int | None:
        tb = self.syzygy
        if tb is None:
            return None
        n = pos.piece_count()
        if n > self.config.syzygy_probe_limit or n > tb.cardinality or not tb.covers(pos):
            return None
        wdl = tb.probe_wdl(tb.board(pos), tb.material(pos))
        if wdl is None:
            return None
        return self._wdl_score(wdl)

    def _wdl_score(self, wdl: int) -> int:
        if wdl == 0 or (abs(wdl) == 1 and self.config.syzygy_50_move_rule):
            return 0
        # Cursed wins without the fifty-move rule rank just below real wins.
        return (KNOWN_WIN - (wdl == 1)) if wdl > 0 else -(KNOWN_WIN - (wdl == -1))

    # -- root oracles ------------------------------------------------------------------

    def root(self, pos, moves: list[Move], control=None) -> tuple[Move, int, list[Move], int] | None:
        """``(move, score, line, table hits)`` when the root is covered: the own table's
        fastest mate (or longest defence) first, then Syzygy's DTZ-optimal move."""
        if pos.castling:
            return None
        if self.own is not None and self._own_value(pos) is not None:
            answer = self._own_root(pos, moves)
            if answer is not None:
                return answer
        tb = self.syzygy
        if (tb is not None and pos.piece_count() <= min(self.config.syzygy_probe_limit, tb.cardinality)
                and tb.covers(pos) and tb.material(pos) in tb.has_dtz):
            return self._syzygy_root(pos, moves)
        return None

    def _own_child(self, pos, move: Move) -> int | None:
        """Our value after ``move`` through the own tables (None if not covered)."""
        pos.push(move)
        result = pos.outcome()
        if result is None and not pos.legal_moves():
            result = pos.no_moves_value()
        theirs = result_score(result, 0) if result is not None else self._own_value(pos)
        pos.pop()
        if theirs is None:
            return None
        # One ply further from the end than the child: a win one ply longer.
        return -theirs - 1 if theirs < 0 else -theirs + 1 if theirs > 0 else 0

    def _own_best(self, pos, moves) -> tuple[Move, int] | None:
        best, best_value = NO_MOVE, None
        for m in moves:
            v = self._own_child(pos, m)
            if v is None:
                return None
            if best_value is None or v > best_value:
                best, best_value = m, v
        if best_value is None:  # no moves
            return None
        return best, best_value

    def _own_root(self, pos, moves):
        found = self._own_best(pos, moves)
        if found is None:
            return None
        move, value = found
        pv = [move]
        pos.push(move)
        while len(pv) < _PV_PLIES_DTM:
            legal = pos.legal_moves()
            if not legal or pos.outcome() is not None:
                break
            step = self._own_best(pos, legal)
            if step is None:
                break
            pv.append(step[0])
            pos.push(step[0])
        for _ in pv:
            pos.pop()
        return move, value, pv, len(pv)

    def _syzygy_root(self, pos, moves):
        tb = self.syzygy
        ranked = self._dtz_ranks(pos, moves)
        if ranked is None:
            return None
        rank, move = max(ranked)
        pv = [move]
        pos.push(move)
        while len(pv) < _PV_PLIES_DTZ:
            legal = pos.legal_moves()
            if not legal or pos.outcome() is not None or not tb.covers(pos):
                break
            step = self._dtz_ranks(pos, legal)
            if step is None:
                break
            pv.append(max(step)[1])
            pos.push(pv[-1])
        for _ in pv:
            pos.pop()
        kind, distance = rank
        if kind == 3:
            score = WIN - 1
        elif kind == 2:
            score = KNOWN_WIN + distance  # the tiebreak of a win is minus its plies
        elif kind == 0:
            score = -(KNOWN_WIN - distance)
        else:
            score = 0
        return move, score, pv, len(ranked) + len(pv)

    def _dtz_ranks(self, pos, moves) -> list[tuple[tuple[int, int], Move]] | None:
        """``((kind, tiebreak), move)`` for every move, higher is better: kind 3 mates,
        2 wins (fewest plies to the next zeroing move first), 1 draws, 0 loses
        (longest first). ``None`` if a table is missing."""
        tb = self.syzygy
        assert tb is not None  # only asked by root when the tables cover the position
        rule50 = self.config.syzygy_50_move_rule
        halfmove = pos.halfmove
        out = []
        for m in moves:
            zeroing = pos.is_noisy(m) or pos.board[m & 63] & 7 == 1
            pos.push(m)
            if not pos.legal_moves():
                kind, tie = (3, 0) if pos.no_moves_value() < 0 else (1, 0)
            else:
                board, name = tb.board(pos), tb.material(pos)
                board.halfmove_clock = 0
                wdl = tb.probe_wdl(board, name)
                dtz = tb.probe_dtz(board, name) if wdl is not None and wdl != 0 else 0
                if wdl is None or dtz is None:
                    pos.pop()
                    return None
                ours = -wdl
                # Plies from the root to the next zeroing move (or mate).
                plies = 1 if zeroing else abs(dtz) + 1
                if ours > 0 and (ours == 2 or not rule50):
                    # Without a capture or pawn move on the way, the counter keeps running.
                    within = zeroing or not rule50 or halfmove + plies <= 100
                    kind, tie = (2, -plies) if within else (1, 0)
                elif ours < 0 and (ours == -2 or not rule50):
                    kind, tie = 0, plies
                else:
                    kind, tie = 1, 0
            pos.pop()
            out.append(((kind, tie), m))
        return out


class _Until:
    """A go's control with a nearer deadline, for the Syzygy verification alone."""

    __slots__ = ("control", "until")

    def __init__(self, control: Control, until: float):
        self.control, self.until = control, until

    def check(self) -> None:
        self.control.check()
        if time.perf_counter() >= self.until:
            raise Stopped
