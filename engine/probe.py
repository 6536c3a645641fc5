"""Endgame tables and proofs in play: the search's ``tb_probe`` hook and two root oracles.

:func:`attach` wires a :class:`TableProbe` into an :class:`engine.engine.Engine`:

- ``SyzygyPath`` and ``TablePath`` (zermelo's own ``.ztb`` tables, see
  :mod:`games.chess_retro`) are opened when set; a bad directory refuses the
  value. Tables themselves are read on first probe, never before ``uciok``.
- In the search (:attr:`engine.search.Searcher.tb_probe`): the own tables give
  exact distance-to-mate scores at any node they cover; Syzygy gives WDL
  scores (a win of unknown distance, ``KNOWN_WIN``) at nodes right after a
  capture or pawn move, as engines do, since a WDL table assumes a fresh
  fifty-move counter, and only up to ``SyzygyProbeLimit`` pieces.
  ``SyzygyProbeDepth`` is the least remaining depth of a probed node.
- At the root, when the position is covered: the own table's fastest mate (or
  longest defence), else the DTZ-optimal move of the Syzygy tables, which wins
  won endings within the fifty-move rule (with ``Syzygy50MoveRule``, cursed
  wins count as draws). Both report a score and a principal line.
- ``go mate N``: a depth-limited proof-number search (:func:`engine.pns.find_mate`)
  for any game; a proof answers with ``score mate N`` and its line, a
  disproof reports ``no mate found`` and leaves the move to the search.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from engine import options as opt
from engine.game import KNOWN_WIN, NO_MOVE, WIN, Game, Move, Position, bits, result_score

if TYPE_CHECKING:
    from engine.engine import Engine, RootAnswer
    from engine.timeman import Limits

_CACHE_LIMIT = 1 << 18
_UNSEEN = object()
#: Longest principal line read from the tables at the root (plies).
_PV_PLIES_DTM = 40
_PV_PLIES_DTZ = 8


class TableProbe:
    """Table probing for one engine; its methods are the hooks :func:`attach` installs."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.syzygy = None
        self.own = None
        #: Values by Zobrist key: Syzygy (positions after a zeroing move) and own tables.
        self.cache: dict[int, int | None] = {}
        self.own_cache: dict[int, int | None] = {}
        self._chess_type: type | None = None
        #: The bound method installed as ``Searcher.tb_probe`` (kept to recognise it).
        self._hook = self.probe

    # -- options -------------------------------------------------------------------

    def on_syzygy_path(self, engine: Engine) -> None:
        path = engine.options.syzygy_path.strip()
        if not path:
            self.syzygy = None
        else:
            from engine.syzygy import SyzygyTables

            self.syzygy = SyzygyTables(path, report=self.report)
        self.refresh(engine)

    def on_table_path(self, engine: Engine) -> None:
        path = engine.options.table_path.strip()
        if not path:
            self.own = None
        else:
            if not os.path.isdir(path):
                raise opt.OptionError(f"TablePath: no such directory: {path}")
            from games.chess_retro import ChessTables

            self.own = ChessTables(path)
        self.refresh(engine)

    def refresh(self, engine: Engine) -> None:
        """Forget cached values after an option changed."""
        self.cache.clear()
        self.own_cache.clear()

    def source(self, game: Game, control) -> tuple | None:
        """The search hook for chess (:attr:`engine.engine.Engine.hook_sources`): the
        probe while tables are set, with ``SyzygyProbeDepth``; ``None`` for other games."""
        if game.name != "chess":
            return None
        if self.syzygy is None and self.own is None:
            return None, 1, None
        # Table wins without a distance keep Stockfish's ``cp 20000 - ply``: no reporter.
        return self._hook, self.engine.options.syzygy_probe_depth, None

    def report(self, text: str) -> None:
        """An ``info string`` for the running ``go`` (table errors found mid-search)."""
        job = self.engine._job
        if job is not None:
            job.on_message(text)

    # -- the search hook -------------------------------------------------------------

    def _is_chess(self, pos: Position) -> bool:
        if self._chess_type is None:
            from games.chess import ChessPosition

            self._chess_type = ChessPosition
        return isinstance(pos, self._chess_type)

    def probe(self, pos: Position) -> int | None:
        """Exact value of a chess position for the side to move, or ``None`` (see the module doc)."""
        if pos.castling or not self._is_chess(pos):
            return None
        key = pos.key
        if self.own is not None:
            value = self.own_cache.get(key, _UNSEEN)
            if value is _UNSEEN:
                value = self.own_cache[key] = self._own_value(pos)
                if len(self.own_cache) >= _CACHE_LIMIT:
                    self.own_cache.clear()
            if value is not None:
                return value
        # A WDL table assumes the fifty-move counter was just reset.
        if self.syzygy is None or pos.halfmove:
            return None
        value = self.cache.get(key, _UNSEEN)
        if value is _UNSEEN:
            value = self.cache[key] = self._syzygy_value(pos)
            if len(self.cache) >= _CACHE_LIMIT:
                self.cache.clear()
        return value

    def _own_value(self, pos) -> int | None:
        own = self.own
        if own is None or pos.piece_count() > 4:
            return None
        from engine.tablefile import TableError

        bb = pos.bb
        white = [(t, s) for t in range(1, 7) for s in bits(bb[t])]
        black = [(t, s) for t in range(1, 7) for s in bits(bb[8 | t])]
        try:
            found = own.probe_squares(white, black, pos.turn)
        except (TableError, ValueError) as e:
            self.report(f"error: TablePath: {e}; playing on without it")
            self.own = None
            return None
        if found is None:
            return None
        wdl, plies = found
        return 0 if wdl == 0 else (WIN - plies if wdl > 0 else plies - WIN)

    def _syzygy_value(self, pos) -> int | None:
        tb = self.syzygy
        if tb is None:
            return None
        n = pos.piece_count()
        if n > self.engine.options.syzygy_probe_limit or n > tb.cardinality or not tb.covers(pos):
            return None
        wdl = tb.probe_wdl(tb.board(pos), tb.material(pos))
        if wdl is None:
            return None
        return self._wdl_score(wdl)

    def _wdl_score(self, wdl: int) -> int:
        if wdl == 0 or (abs(wdl) == 1 and self.engine.options.syzygy_50_move_rule):
            return 0
        # Cursed wins without the fifty-move rule rank just below real wins.
        return (KNOWN_WIN - (wdl == 1)) if wdl > 0 else -(KNOWN_WIN - (wdl == -1))

    # -- root oracles ------------------------------------------------------------------

    def root(self, game: Game, pos: Position, limits: Limits) -> RootAnswer | None:
        """The table move when the root is covered (own tables first, then Syzygy)."""
        if (self.syzygy is None and self.own is None) or not self._is_chess(pos) or pos.castling:
            return None
        moves = pos.legal_moves()
        if limits.searchmoves:
            moves = [m for m in moves if m in limits.searchmoves] or moves
        if not moves:
            return None
        start = time.perf_counter()
        if self.own is not None and self._own_value(pos) is not None:
            answer = self._own_root(pos, moves, start)
            if answer is not None:
                return answer
        tb = self.syzygy
        if (tb is not None and pos.piece_count() <= min(self.engine.options.syzygy_probe_limit, tb.cardinality)
                and tb.covers(pos)):
            return self._syzygy_root(pos, moves, start)
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
        return best, best_value

    def _own_root(self, pos, moves, start) -> RootAnswer | None:
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
        return self._answer(move, value, pv, start, len(pv))

    def _syzygy_root(self, pos, moves, start) -> RootAnswer | None:
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
        return self._answer(move, score, pv, start, len(ranked) + len(pv))

    def _dtz_ranks(self, pos, moves) -> list[tuple[tuple[int, int], Move]] | None:
        """``((kind, tiebreak), move)`` for every move, higher is better: kind 3 mates,
        2 wins (fewest plies to the next zeroing move first), 1 draws, 0 loses
        (longest first). ``None`` if a table is missing."""
        tb = self.syzygy
        rule50 = self.engine.options.syzygy_50_move_rule
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

    def _answer(self, move: Move, score: int, pv: list[Move], start: float, hits: int) -> RootAnswer:
        from engine.engine import RootAnswer
        from engine.search import Info

        ms = int((time.perf_counter() - start) * 1000)
        info = Info(depth=len(pv), seldepth=len(pv), multipv=1, score=score, bound=None, nodes=len(pv),
                    time_ms=ms, nps=len(pv) * 1000 // max(ms, 1), hashfull=0, tbhits=hits, pv=pv)
        return RootAnswer(move, info=info)

    def mate(self, game: Game, pos: Position, limits: Limits) -> RootAnswer | None:
        """``go mate N``: a proof of the shortest forced win within N moves, any game."""
        if not limits.mate:
            return None
        from engine.engine import RootAnswer
        from engine.pns import find_mate
        from engine.search import Info

        start = time.perf_counter()
        # The go's control carries the stop flag and the share of the clock left to oracles.
        found = find_mate(game, pos, limits.mate, max_nodes=limits.nodes,
                          should_stop=self.engine.control.expired)
        if found.found is None:
            return None
        if not found.found:
            return RootAnswer(NO_MOVE, note="no mate found")
        ms = int((time.perf_counter() - start) * 1000)
        info = Info(depth=found.plies, seldepth=found.plies, multipv=1, score=WIN - found.plies, bound=None,
                    nodes=found.nodes, time_ms=ms, nps=found.nodes * 1000 // max(ms, 1), hashfull=0,
                    tbhits=0, pv=found.pv)
        return RootAnswer(found.pv[0], info=info)


def attach(engine: Engine) -> TableProbe:
    """Install the table hooks and the root oracles (mate proofs, then tables) in ``engine``."""
    probe = TableProbe(engine)
    engine.oracles.insert(0, probe.mate)
    engine.oracles.append(probe.root)
    engine.hook_sources.append(probe.source)
    hooks = engine.option_hooks
    hooks.setdefault("syzygy_path", []).append(probe.on_syzygy_path)
    hooks.setdefault("table_path", []).append(probe.on_table_path)
    for field in ("syzygy_probe_depth", "syzygy_50_move_rule", "syzygy_probe_limit", "variant"):
        hooks.setdefault(field, []).append(probe.refresh)
    return probe
