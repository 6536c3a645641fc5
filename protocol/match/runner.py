"""``zermelo match``: engine-vs-engine matches refereed by zermelo's own rules.

Two engines (UCI, or UGI) play pairs of games from each opening, one with each
colour, ``--concurrency`` games at once; each concurrent game slot owns its
own pair of engine processes. The runner keeps the clocks (time from writing
``go`` to reading ``bestmove``, increment added after the move; a pondering
engine's clock runs from the ``ponderhit``, as in cutechess), pings engines
with ``isready`` before every game and every ``go``, checks every move with
``pos.parse_move`` and ends games by the rules (``legal_moves()``/``outcome()``;
the result scored as the game scores a finished game where that differs, Go's area
with the dead stones taken off, :func:`protocol.records.scored_result`),
by adjudication (scores, tables hook, ply cap) or by forfeit: losing on time
(clock overrun beyond ``--margin-ms``), an illegal or missing move, a crash or a
hang. A failed engine is restarted for the next game. Records are appended as
each game ends (PGN, PDN or plain, see :mod:`protocol.records`), each game made
durable before the next; an existing file is never overwritten (see
:mod:`protocol.match.recordfile`). ``--resume`` continues an interrupted match
from its records: every game in the file is kept and counted, only the games
missing are played. ``zermelo match --replay FILE`` re-verifies a records file:
every game replayed by the rules, adjudicated and forfeited results checked
against the rules recorded with the game, games recorded twice and a game cut
off at the end of the file reported.

With ``--backend ray`` the unit of work is a pair of games from one opening, one
with each colour, so the pentanomial statistics stay exact whichever workers
played: the pairs are tasks on a Ray cluster (:mod:`engine.execution`), each Ray
worker process keeps a :class:`PairPlayer` (its two engine processes) from pair to
pair, and :meth:`Match.run_distributed` counts the results, writes the records
and prints the progress lines here as they come back. When the SPRT decides, the
pairs not done are cancelled; a pair whose worker or node dies is played again
from its start, so each game is counted once. Before the first pair every node
is asked whether it has the engines' programs.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime
import math
import os
import random
import re
import signal
import socket
import sys
import time
from dataclasses import dataclass, field
from typing import BinaryIO, Callable, Sequence

import games
from engine.execution import Backend, ExecutionError, cluster_cpus, local_ray_address, map_unordered, on_each_node
from engine.options import all_specs
from protocol import backend as backend_args
from protocol.match import multi, recordfile
from protocol.match.gtp import GtpEngine, gtp_rules, same_score
from protocol.match.hub import HubEngine
from protocol.match.sgf import go_board
from protocol.match.process import MATE_CP, EngineError, EngineProcess, EngineSpec, Reply, missing_programs
from protocol.match.openings import Opening, add_random_plies, load_openings
from protocol.records import RESULTS, GameRecord, record_game, result_token, rules_result, scored_result, to_text, \
    verify
from protocol.match.sgf import game_spans, to_sgf, tree_round
from protocol.match.stats import Sprt, los, pair_bucket, pentanomial, trinomial
from protocol.tools import game_params

#: Consecutive failed starts after which an engine is given up and the match ends.
MAX_START_FAILURES = 3


@dataclass(frozen=True)
class TimeControl:
    """``[moves/]base[+inc]`` in seconds (``base`` may be ``m:ss``), as cutechess writes it.

    >>> TimeControl.parse("40/1:30+0.5")
    TimeControl(moves=40, base_ms=90000, inc_ms=500)
    """

    moves: int | None
    base_ms: int
    inc_ms: int

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        m = re.fullmatch(r"(?:(\d+)/)?(?:(\d+):)?(\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?", text.strip())
        if not m:
            raise ValueError(f"bad time control {text!r}; expected e.g. 10+0.1 or 40/60+0.5")
        moves, minutes, seconds, inc = m.groups()
        base = float(seconds) + 60 * int(minutes or 0)
        tc = cls(int(moves) if moves else None, round(base * 1000), round(float(inc or 0) * 1000))
        if tc.base_ms <= 0 and tc.inc_ms <= 0 or tc.moves == 0:
            raise ValueError(f"time control {text!r} gives no time")
        return tc

    def __str__(self) -> str:
        s = f"{self.base_ms / 1000:g}+{self.inc_ms / 1000:g}"
        return f"{self.moves}/{s}" if self.moves else s


@dataclass(frozen=True)
class Limits:
    """What one engine is told to search with; the clock is kept by the runner."""

    tc: TimeControl | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None

    def fixed_words(self) -> list:
        """The ``go`` words of the limits the engine keeps by itself: movetime, depth, nodes."""
        return [w for key, value in (("movetime", self.movetime), ("depth", self.depth), ("nodes", self.nodes))
                if value for w in (key, value)]

    def describe(self) -> str:
        parts = [f"tc {self.tc}"] if self.tc else []
        parts += [f"{k} {v}" for k, v in (("movetime", self.movetime), ("depth", self.depth),
                                            ("nodes", self.nodes)) if v is not None]
        return ", ".join(parts)


@dataclass
class Adjudication:
    """Ending games early. Scores are centipawn-like values the engines report.

    - win: both engines' last ``win_moves`` scores agree that one side stands at
      least ``win_score`` ahead;
    - draw: from move ``draw_from`` (plies / 2) on, both engines' last
      ``draw_moves`` scores are within ``±draw_score``;
    - ``max_plies``: a draw when the game reaches that many plies;
    - ``oracle``: a hook ``pos -> +1/0/-1 | None`` (side to move's view) with an
      exact value, e.g. an endgame-table probe; consulted before every move.
    """

    win_score: int | None = None
    win_moves: int = 4
    draw_score: int | None = None
    draw_moves: int = 8
    draw_from: int = 40
    max_plies: int = 600
    oracle: Callable | None = None

    @classmethod
    def parse(cls, words: list[str]) -> "Adjudication":
        """From ``win=SCORE[:MOVES] draw=SCORE[:MOVES[:FROM]] maxplies=N`` words."""
        adj = cls()
        for word in words:
            key, sep, value = word.partition("=")
            nums = [int(x) for x in value.split(":")] if sep else []
            if key == "win" and 1 <= len(nums) <= 2:
                adj.win_score = nums[0]
                adj.win_moves = nums[1] if len(nums) > 1 else adj.win_moves
            elif key == "draw" and 1 <= len(nums) <= 3:
                adj.draw_score = nums[0]
                adj.draw_moves = nums[1] if len(nums) > 1 else adj.draw_moves
                adj.draw_from = nums[2] if len(nums) > 2 else adj.draw_from
            elif key == "maxplies" and len(nums) == 1:
                adj.max_plies = nums[0]
            else:
                raise ValueError(f"bad --adjudicate word {word!r}; expected win=S[:N], "
                                 "draw=S[:N[:M]], maxplies=N")
        return adj

    def words(self) -> str:
        """The rules in :meth:`parse`'s words, as recorded with every game (the
        ``Adjudication`` tag) so that ``--replay`` can apply them again."""
        parts = []
        if self.win_score is not None:
            parts.append(f"win={self.win_score}:{self.win_moves}")
        if self.draw_score is not None:
            parts.append(f"draw={self.draw_score}:{self.draw_moves}:{self.draw_from}")
        return " ".join(parts + [f"maxplies={self.max_plies}"])

    def by_score(self, scores: tuple[list, list], plies: int) -> tuple[int, str] | None:
        """``(result for player 0, reason)`` if the scores (player 0's view, per player) decide."""
        if self.win_score is not None:
            last = [s[-self.win_moves:] for s in scores]
            if all(len(x) == self.win_moves and None not in x for x in last):
                if all(v >= self.win_score for x in last for v in x):
                    return 1, f"both engines score at least {self.win_score} for the first player"
                if all(v <= -self.win_score for x in last for v in x):
                    return -1, f"both engines score at least {self.win_score} for the second player"
        if self.draw_score is not None and plies >= 2 * self.draw_from:
            last = [s[-self.draw_moves:] for s in scores]
            if all(len(x) == self.draw_moves and None not in x for x in last):
                if all(abs(v) <= self.draw_score for x in last for v in x):
                    return 0, f"both engines score within ±{self.draw_score}"
        return None


@dataclass
class MatchConfig:
    game: str
    specs: list[EngineSpec]
    limits: list[Limits]
    games: int = 2
    openings: list[Opening] = field(default_factory=lambda: [Opening()])
    concurrency: int = 1
    records: str | None = None
    sprt: Sprt | None = None
    adjudication: Adjudication = field(default_factory=Adjudication)
    margin_ms: int = 250
    start_timeout: float = 10.0
    ping_timeout: float = 10.0
    hang_timeout: float = 60.0
    stop_grace: float = 1.0
    ponder: bool = False
    """Engines think on the opponent's time (an engine spec's ``ponder=`` overrides)."""
    event: str = "zermelo match"
    log: Callable[[str], None] | None = None
    backend: Backend = field(default_factory=Backend)
    """Where the games are played: this machine's slots, or pairs as tasks on Ray."""
    resume: bool = False
    """Keep every game of an existing records file of this match and play only the others."""
    force: bool = False
    """Replace an existing records file (without it, a new match refuses one)."""
    sgf: str | None = None
    """Go: also append every game to this file as an SGF game tree."""
    params: dict[str, str] = field(default_factory=dict)
    """The game's parameters (``{"size": "19"}``): the referee's rules, the engines'
    options (GTP: ``boardsize`` and ``komi``) and the records' ``Params`` tag."""


@dataclass
class GameJob:
    number: int
    """1-based game number, also the record's Round."""
    pair: int
    seat: tuple[int, int]
    """Engine index (0 = first --engine) playing player 0 and player 1."""
    opening: Opening


@dataclass
class GameResult:
    job: GameJob
    r0: int
    """Result for player 0 (the first mover): +1, 0, -1."""
    termination: str
    reason: str
    record: GameRecord
    offender: int | None = None
    """Engine index that forfeited (time, illegal move, crash), if any."""
    fault: str | None = None
    """``time``, ``illegal``, ``crash``, ``hang`` or ``start`` for forfeits."""

    def score(self, engine: int) -> float:
        """Points (1, 0.5, 0) scored by engine index ``engine``."""
        first = (self.r0 + 1) / 2
        return first if self.job.seat[0] == engine else 1.0 - first


class MatchAborted(Exception):
    """The match cannot go on (an engine fails to start again and again)."""


class Match:
    """Runs one match; :meth:`run` returns when all games are played, the SPRT
    decides, or the match is aborted. Progress goes to ``out``."""

    def __init__(self, config: MatchConfig, out=None):
        self.cfg = config
        self.out = out or sys.stdout
        self.game = games.load(config.game, **config.params)
        # UCI and UGI engines are told the parameters as the options the server declares
        # for them (``go_size``), GTP engines by ``boardsize`` and ``komi``.
        names = {spec.field: spec.name for spec in all_specs(games) if spec.game == self.game.name}
        self.game_options = {names[k]: v for k, v in config.params.items()}
        # Engines are told the variant unless it is the game UCI engines play by
        # default; a preset (chess960) is always named.
        preset = config.game != self.game.name
        self.variant = None if self.game.uci_default and not preset else config.game
        self.chess_endings = self.game.san and not preset
        self.white = self.game.players.index("white") if "white" in self.game.players else 0
        self.results: list[GameResult] = []
        self.pairs: dict[int, list[GameResult]] = {}
        self.penta = [0, 0, 0, 0, 0]
        self.sprt_decision: str | None = None
        self.aborted: str | None = None
        self.engines: list[EngineProcess] = []
        self.start_failures = [0, 0]
        #: Per engine, the least clock (ms) left after a move: keyed by the move that
        #: ends a repeating control (40, 80, ...), or by 0 without one.
        self.clock_left: list[dict[int, float]] = [{}, {}]
        self.pids: list[int] = []
        self._records_file: recordfile.RecordsWriter | None = None
        self._workers: list[asyncio.Task] = []
        self._jobs: list[GameJob] = []
        #: Games taken from the records by ``--resume``, and pairs played again
        #: because their worker died (Ray).
        self.resumed = 0
        self.rescheduled = 0
        #: Per GTP engine index, its final scores that agreed with the referee's, that
        #: did not, and that it could not give.
        self.final_scores: dict[int, list[int]] = {}
        self._sgf_file: BinaryIO | None = None
        n_pairs = (config.games + 1) // 2
        for pair in range(n_pairs):
            opening = config.openings[pair % len(config.openings)]
            for k in range(2):
                number = 2 * pair + k + 1
                if number <= config.games:
                    self._jobs.append(GameJob(number, pair, (0, 1) if k == 0 else (1, 0), opening))

    # -- orchestration ------------------------------------------------------------

    def print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run_everywhere(self) -> list[GameResult]:
        """Play the match on its backend: :meth:`run` in an event loop here, or the
        pairs as Ray tasks."""
        if self.cfg.backend.is_ray:
            return self.run_distributed()
        return asyncio.run(_run(self))

    def run_distributed(self) -> list[GameResult]:
        """Play the match's pairs as tasks of its Ray backend; returns the results
        as :meth:`run` does."""
        cfg = self.cfg
        problems = [p for found in on_each_node(cfg.backend, missing_programs, cfg.specs).values()
                    for p in found]
        if problems:
            raise ExecutionError("engines missing on the workers: " + "; ".join(problems))
        if self._records_file is None:
            for line in self.open_records():
                self.print(line)
        pairs: dict[int, list[GameJob]] = {}
        for job in self._jobs:
            pairs.setdefault(job.pair, []).append(job)
        work = list(pairs.values())
        # What the workers need: the rules and the engines; records, logs and the backend stay here.
        shipped = dataclasses.replace(cfg, records=None, log=None, backend=Backend(), resume=False, sprt=None)

        def rescheduled(index: int, why: str) -> None:
            self.rescheduled += 1
            self.print(f"pair {work[index][0].pair + 1}: its worker was lost ({why}); played again")

        results = map_unordered(cfg.backend, (PairPlayer, (shipped,)), _play_pair, work,
                                jobs=cfg.concurrency or cluster_cpus(cfg.backend), on_reschedule=rescheduled)
        try:
            for _, (played, clock_left, aborted) in results:
                for result in played:
                    self._finish(result)
                for engine, left in enumerate(clock_left):
                    for key, value in left.items():
                        best = self.clock_left[engine].get(key)
                        self.clock_left[engine][key] = value if best is None else min(best, value)
                self.aborted = self.aborted or aborted
                if self.sprt_decision is not None or self.aborted:
                    break
        finally:
            # Closing drops the pairs not done: cancelled before they start, or stopped.
            results.close()
            self.close_records()
        return self.results

    def open_records(self) -> list[str]:
        """Open the records file (raises :class:`recordfile.RecordsFileError` with one
        line when it may not be used); with ``resume``, first take this match's games
        from it. Returns the lines to tell the user."""
        path = self.cfg.records
        if not path:
            return []
        if not self.cfg.resume:
            self._records_file = recordfile.open_new(path, self.cfg.force)
            return []
        writer, text, found = recordfile.open_for_resume(path)
        try:
            kept = self._resume(found)
            sgf_note = self._resume_sgf() if self.cfg.sgf else None
            writer, partial = recordfile.resume(writer, text, found)
        except BaseException:
            writer.close()
            raise
        self._records_file = writer
        lines = []
        if partial is not None:
            lines.append(f"{path}: the game cut off at its end (line {partial.line}) dropped; it is played again")
        if kept:
            pairs = sum(1 for results in self.pairs.values() if len(results) == 2)
            lines.append(f"resumed: {kept} games from {path} ({pairs} whole pairs), {len(self._jobs)} to play")
        if sgf_note:
            lines.append(sgf_note)
        return lines

    def _resume_sgf(self) -> str | None:
        """Make the ``--sgf`` file of a resumed match hold each game of the records once,
        as the records hold it: a tree of a round the records lack (written just before
        an interruption, or cut off) is dropped, since that round is played again, and a
        round the records hold but the file lacks is written from its record. A tree
        of another match is refused, the file left as it is. Returns what was changed."""
        path = self.cfg.sgf
        assert path is not None  # called with --sgf only
        refuse = recordfile.RecordsFileError
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            data = b""
        except OSError as exc:
            raise refuse(f"{path}: {exc}") from None
        spans, cut = game_spans(data)
        held = {str(r.job.number): r for r in self.results}
        rounds = {str(n) for n in range(1, self.cfg.games + 1)}
        kept: list[bytes] = []
        seen: set[str] = set()
        for start, end in spans:
            tree = data[start:end]
            try:
                event, number = tree_round(tree)
            except ValueError as exc:
                raise refuse(f"{path}: the game tree at byte {start} cannot be read ({exc}); "
                             "the file is left as it is") from None
            if event != self.cfg.event or number not in rounds:
                raise refuse(f"{path}: the game tree at byte {start} (round {number}) is not one of this "
                             "match's games; resume with the settings that wrote it, or another --sgf file")
            if number in held and number not in seen:
                kept.append(tree)
                seen.add(number)
        added = [to_sgf(r.record, r.record.tags.get("FinalScore"), self.game)
                 for number, r in sorted(held.items(), key=lambda item: int(item[0])) if number not in seen]
        dropped = len(spans) - len(kept) + (cut < len(data.rstrip()))
        if not dropped and not added:
            return None
        if not data:
            open(path, "ab").close()  # replaced below, with its mode
        recordfile.replace_atomically(path, b"".join(tree.rstrip() + b"\n" for tree in kept + added))
        return (f"{path}: {dropped} game tree(s) of rounds not in the records dropped (played again), "
                f"{len(added)} written from the records; it holds each of their {len(held)} games once")

    def close_records(self) -> None:
        if self._records_file is not None:
            self._records_file.close()
        if self._sgf_file is not None:
            self._sgf_file.close()
            self._sgf_file = None

    def _resume(self, found: list[recordfile.FileGame]) -> int:
        """Count the games of ``found`` (a records file being resumed) and take them off
        the schedule; every one must be a sound game of this match, else the file is
        refused and left as it is. Returns the number of games taken."""
        path = self.cfg.records
        jobs = {str(job.number): job for job in self._jobs}
        taken: dict[str, tuple[GameJob, GameRecord]] = {}
        refuse = recordfile.RecordsFileError
        for k, game in enumerate(found):
            where = f"{path}: the game at line {game.line}"
            if not game.whole:
                if k == len(found) - 1:
                    continue  # a partial last game: dropped by recordfile.resume
                raise refuse(f"{where} is cut off (no result token); the file is left as it is")
            if game.record is None:
                raise refuse(f"{where} cannot be read ({game.error}); the file is left as it is")
            rec = game.record
            job = jobs.get(rec.tags.get("Round", ""))
            if job is None:
                raise refuse(f"{where} (Round {rec.tags.get('Round', '?')!r}) is not one of this match's "
                             f"{self.cfg.games} games; resume with the settings that wrote the file")
            if rec.tags["Round"] in taken:
                raise refuse(f"{where}: round {job.number} is recorded twice; check the file with --replay")
            names = tuple(self.cfg.specs[e].name for e in job.seat)
            recorded_rules = rec.tags.get("Adjudication")
            if rec.game != self.cfg.game or rec.params != self.cfg.params or tuple(rec.players) != names \
                    or rec.start != job.opening.start or rec.moves[:len(job.opening.moves)] != list(job.opening.moves) \
                    or rec.tags.get("Event") != self.cfg.event \
                    or recorded_rules not in (None, self.cfg.adjudication.words()):
                raise refuse(f"{where} (round {job.number}) is not this match's (other game, parameters, "
                             "engines, openings, event or adjudication); resume with the same settings")
            problems = verify(rec) + ([] if rec.result in RESULTS[:3] else [f"result {rec.result!r}"])
            if problems:
                raise refuse(f"{where} (round {job.number}) does not replay: {problems[0]}; "
                             "check the file with --replay")
            taken[rec.tags["Round"]] = (job, rec)
        for job, rec in sorted(taken.values(), key=lambda pair: pair[0].number):
            r0 = {"1-0": 1, "0-1": -1}.get(rec.result, 0)
            fault = _recorded_fault(rec) if r0 else None
            offender = job.seat[0 if r0 < 0 else 1] if fault else None
            self._count(GameResult(job, r0, rec.termination, rec.reason, rec, offender, fault))
        self._jobs = [job for job in self._jobs if str(job.number) not in taken]
        self.resumed = len(taken)
        return len(taken)

    async def run(self) -> list[GameResult]:
        if self._records_file is None:
            for line in self.open_records():
                self.print(line)
        queue = list(self._jobs)
        queue.reverse()
        workers = [asyncio.create_task(self._worker(queue)) for _ in range(max(1, self.cfg.concurrency))]
        self._workers = workers
        try:
            done, pending = await asyncio.wait(workers, return_when=asyncio.FIRST_EXCEPTION)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            for task in done:
                error = None if task.cancelled() else task.exception()
                if error is not None and not isinstance(error, MatchAborted):
                    raise error
        finally:
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            await asyncio.gather(*(e.close() for e in self.engines), return_exceptions=True)
            self.close_records()
        return self.results

    def ponders(self, engine: int) -> bool:
        spec = self.cfg.specs[engine]
        return self.cfg.ponder if spec.ponder is None else spec.ponder

    def new_engines(self) -> list[EngineProcess]:
        """One game slot's engine processes (started at its first game)."""
        rules = gtp_rules(self.game)
        out: list[EngineProcess] = []
        for i, spec in enumerate(self.cfg.specs):
            if spec.proto == "gtp" and rules:
                out.append(GtpEngine(spec, rules, log=self.cfg.log))
            elif spec.proto == "hub":
                out.append(HubEngine(spec, self.game, log=self.cfg.log))
            else:
                out.append(EngineProcess(spec, spec.proto or "uci", self.variant, log=self.cfg.log,
                                         ponder=self.ponders(i), game_options=self.game_options))
        return out

    async def _worker(self, queue: list[GameJob]) -> None:
        engines = self.new_engines()
        self.engines += engines
        try:
            while queue and self.sprt_decision is None and self.aborted is None:
                job = queue.pop()
                result = await self.play(job, engines)
                self._finish(result)
                if self.aborted:
                    raise MatchAborted(self.aborted)
        finally:
            await asyncio.gather(*(e.close() for e in engines), return_exceptions=True)

    def _count(self, result: GameResult) -> None:
        self.results.append(result)
        self._count_final_scores(result.record)
        pair = self.pairs.setdefault(result.job.pair, [])
        pair.append(result)
        if len(pair) == 2:
            self.penta[pair_bucket(pair[0].score(0), pair[1].score(0))] += 1

    def _count_final_scores(self, rec: GameRecord) -> None:
        """Tally the GTP engines' final scores from the game's ``GtpScores`` tag, so that
        games read back by ``--resume`` or played by a remote worker count as well."""
        said = rec.tags.get("GtpScores")
        if not said:
            return
        index = {spec.name: i for i, spec in enumerate(self.cfg.specs)}
        for entry in said.split("; "):
            # "NAME SCORE agrees", "NAME SCORE differs" or "NAME none".
            column = {"agrees": 0, "differs": 1, "none": 2}.get(entry.rpartition(" ")[2])
            if column is None:
                continue
            name = entry.rsplit(" ", 1 if column == 2 else 2)[0]
            if name in index:
                self.final_scores.setdefault(index[name], [0, 0, 0])[column] += 1

    def _finish(self, result: GameResult) -> None:
        self._count(result)
        if self.cfg.sgf:
            self._append_sgf(result)
        if self._records_file:
            try:
                self._records_file.append(to_text(result.record))
            except ValueError as exc:
                self.print(f"warning: game {result.job.number} not written: {exc}")
            except OSError as exc:
                # A records file that cannot be written would lose every game from here on.
                self.aborted = f"game {result.job.number} could not be written to {self.cfg.records}: {exc}"
        self.print(self.progress_line(result))
        if self.cfg.sprt is not None and self.sprt_decision is None:
            self.sprt_decision = self.cfg.sprt.decision(self.cfg.sprt.llr_pentanomial(self.penta))
            if self.sprt_decision is not None:
                # Decided: games still being played are dropped, as fastchess does.
                for task in self._workers:
                    if task is not asyncio.current_task():
                        task.cancel()

    def _append_sgf(self, result: GameResult) -> None:
        """Append the game to the ``--sgf`` file (made durable before the next game)."""
        path = self.cfg.sgf
        assert path is not None  # called with --sgf only
        try:
            out = self._sgf_file
            if out is None:
                out = self._sgf_file = open(path, "ab" if self.cfg.resume else "wb" if self.cfg.force else "xb")
            out.write(to_sgf(result.record, result.record.tags.get("FinalScore"), self.game))
            out.flush()
            os.fsync(out.fileno())
        except (OSError, ValueError) as exc:
            self.print(f"warning: game {result.job.number} not written to {self.cfg.sgf}: {exc}")

    # -- one game -----------------------------------------------------------------

    async def play(self, job: GameJob, engines: list[EngineProcess]) -> GameResult:
        """Play one game; a Go game the rules ended gets the referee's area score, and
        the GTP engines' own final scores beside it (``FinalScore``, ``GtpScores``)."""
        result = await self._play(job, engines)
        if result.termination == "normal" and any(isinstance(engines[e], GtpEngine) for e in job.seat):
            await self._final_scores(result, [engines[e] for e in job.seat])
        return result

    async def _final_scores(self, result: GameResult, seated: list[EngineProcess]) -> None:
        rec = result.record
        pos = self.game.new_position(rec.start)
        for text in rec.moves:
            pos.push(pos.parse_move(text))
        rules = gtp_rules(self.game)
        assert rules is not None  # GTP engines play only games that have GTP rules
        # The game's own GTP count (Othello's discs), else its final score (Go's area
        # once the dead stones are taken off, as the result was scored), else its score.
        referee = rules.final_score(pos) or self.game.final_score(pos) or self.game.score_text(pos)
        rec.tags["FinalScore"] = referee
        said = []
        for eng in seated:
            if not isinstance(eng, GtpEngine) or not eng.alive:
                continue
            score = await eng.final_score(self.cfg.ping_timeout, rec.moves)
            if score is None:
                said.append(f"{eng.name} none")
                continue
            agrees = same_score(score, referee)
            said.append(f"{eng.name} {score} {'agrees' if agrees else 'differs'}")
        if said:
            rec.tags["GtpScores"] = "; ".join(said)

    async def _play(self, job: GameJob, engines: list[EngineProcess]) -> GameResult:
        cfg = self.cfg
        names = tuple(engines[e].name for e in job.seat)
        record = GameRecord(cfg.game, names, "*", job.opening.start, list(job.opening.moves),
                            [None] * len(job.opening.moves),
                            tags={"Event": cfg.event, "Site": socket.gethostname(),
                                  "Date": datetime.date.today().strftime("%Y.%m.%d"),
                                  "Round": str(job.number), "Adjudication": cfg.adjudication.words()},
                            params=dict(cfg.params))

        def end(r0: int, termination: str, reason: str, player: int | None = None,
                fault: str | None = None) -> GameResult:
            record.result, record.termination, record.reason = result_token(r0), termination, reason
            offender = job.seat[player] if player is not None else None
            return GameResult(job, r0, termination, reason, record, offender, fault)

        def forfeit(player: int, termination: str, reason: str, fault: str) -> GameResult:
            return end(-1 if player == 0 else 1, termination, reason, player, fault)

        failed = await self._start_game(job, engines)
        if failed is not None:
            return forfeit(failed[0], "abandoned", failed[1], failed[2])

        pos = self.game.new_position(job.opening.start)
        for text in job.opening.moves:
            pos.push(pos.parse_move(text))
        limits = [cfg.limits[e] for e in job.seat]
        clocks: list[float | None] = [lim.tc.base_ms if lim.tc else None for lim in limits]
        moved = [0, 0]
        scores: tuple[list, list] = ([], [])
        startpos = "position startpos" if job.opening.start is None else f"position fen {job.opening.start}"
        adj = cfg.adjudication
        # Per player, the reply its engine is pondering on (None: not pondering).
        pondering: list = [None, None]
        last_move = None

        def position(extra: Sequence[str] = ()) -> str:
            moves = record.moves + list(extra)
            return f"{startpos} moves {' '.join(moves)}" if moves else startpos

        try:
            while True:
                r0 = scored_result(self.game, pos)
                if r0 is not None:
                    return end(r0, "normal", self.describe_end(record, pos, r0))
                if adj.oracle is not None:
                    value = adj.oracle(pos)
                    if value is not None:
                        return end(value if pos.turn == 0 else -value, "adjudication", "table adjudication")
                if len(record.moves) >= adj.max_plies:
                    return end(0, "adjudication", f"draw at the {adj.max_plies}-ply limit")

                player = pos.turn
                eng, lim = engines[job.seat[player]], limits[player]
                expected, pondering[player] = pondering[player], None
                if expected is not None and expected != last_move and not await eng.stop_search(cfg.stop_grace):
                    # A ponder miss: the ponder search's bestmove is read and dropped.
                    await eng.close()
                    return forfeit(player, "abandoned", f"{eng.name} did not stop pondering", "hang")
                try:
                    await eng.ping(cfg.ping_timeout)
                except EngineError as exc:
                    await eng.close()
                    fault = "crash" if exc.kind == "crash" else "hang"
                    return forfeit(player, "abandoned", f"{eng.name} did not answer isready: {exc}", fault)

                go, deadline_ms = self.go_command(eng.proto, player, limits, clocks, moved[player])
                try:
                    if expected is not None and expected == last_move:
                        reply = await eng.ponderhit(deadline_ms / 1000)
                    else:
                        reply = await eng.go(position(), go, deadline_ms / 1000)
                except EngineError as exc:
                    if exc.kind == "crash":
                        await eng.close()
                        return forfeit(player, "abandoned", f"crash: {exc}", "crash")
                    if not await eng.stop_search(cfg.stop_grace):
                        await eng.close()
                    if lim.tc or lim.movetime:
                        return forfeit(player, "time forfeit", f"{eng.name} loses on time", "time")
                    return forfeit(player, "abandoned",
                                   f"{eng.name} gave no move within {cfg.hang_timeout:g} s", "hang")

                used = reply.elapsed_ms
                clock = clocks[player]  # None without a time control
                if clock is not None and clock - used < -cfg.margin_ms or \
                        lim.movetime and used > lim.movetime + cfg.margin_ms:
                    return forfeit(player, "time forfeit",
                                   f"{eng.name} loses on time ({used:.0f} ms used)", "time")
                if reply.move is None:
                    return forfeit(player, "rules infraction", f"{eng.name} returned no move", "illegal")
                if reply.move == "resign" and isinstance(eng, GtpEngine):
                    return end(-1 if player == 0 else 1, "resignation", f"{eng.name} resigns")
                try:
                    move = pos.parse_move(reply.move)
                except ValueError:  # IllegalMoveError, or a parser tripping over garbage
                    return forfeit(player, "rules infraction",
                                   f"{eng.name} played the illegal move {reply.move!r}", "illegal")
                record.moves.append(pos.move_text(move))
                record.comments.append(_comment(reply))
                pos.push(move)
                last_move = move

                moved[player] += 1
                if lim.tc and clock is not None:
                    clock += lim.tc.inc_ms - used
                    self._note_clock(job.seat[player], lim.tc, moved[player], clock)
                    if lim.tc.moves and moved[player] % lim.tc.moves == 0:
                        clock += lim.tc.base_ms
                    clocks[player] = clock
                score = reply.score
                scores[player].append(None if score is None else score if player == 0 else -score)
                decided = adj.by_score(scores, len(record.moves))
                if decided is not None and rules_result(pos) is None:
                    return end(decided[0], "adjudication", decided[1])
                if eng.ponders and reply.ponder and rules_result(pos) is None:
                    pondering[player] = await self._ponder(eng, pos, position, reply.ponder,
                                                           go_command=self.go_command(
                                                               eng.proto, player, limits, clocks, moved[player])[0])
        finally:
            # A game that ends while an engine ponders: its search is stopped and dropped.
            for p in (0, 1):
                if pondering[p] is not None:
                    eng = engines[job.seat[p]]
                    if not await eng.stop_search(cfg.stop_grace):
                        await eng.close()

    async def _ponder(self, eng: EngineProcess, pos, position, text: str, go_command: str):
        """Start ``eng`` pondering on the reply ``text``; the reply's move, or None
        when it is not a legal move or the engine fails (noticed at its next turn)."""
        try:
            expected = pos.parse_move(text)
        except ValueError:
            return None
        try:
            await eng.ponder(position([pos.move_text(expected)]), go_command.replace("go", "go ponder", 1))
        except EngineError:
            return None
        return expected

    def _note_clock(self, engine: int, tc: TimeControl, moved: int, left: float) -> None:
        """Keep the least clock left: at each control's last move, or after any move without one."""
        if tc.moves:
            if moved % tc.moves:
                return
            key = moved
        else:
            key = 0
        best = self.clock_left[engine].get(key)
        self.clock_left[engine][key] = left if best is None else min(best, left)

    async def _start_game(self, job: GameJob, engines: list[EngineProcess]) -> tuple[int, str, str] | None:
        """Start the engines of ``job`` that are not running and announce a new game;
        ``(player, reason, fault)`` for the first that fails, else ``None``."""
        cfg = self.cfg
        for player in (0, 1):
            seat = job.seat[player]
            eng = engines[seat]
            if not eng.alive:
                try:
                    await eng.start(cfg.start_timeout)
                    if eng.pid is not None:  # started: it has a process
                        self.pids.append(eng.pid)
                    self.start_failures[seat] = 0
                except EngineError as exc:
                    self.start_failures[seat] += 1
                    if self.start_failures[seat] >= MAX_START_FAILURES:
                        self.aborted = f"{eng.name} failed to start {MAX_START_FAILURES} times in a row"
                    return player, str(exc), "start"
            try:
                await eng.new_game(cfg.ping_timeout)
            except EngineError as exc:
                await eng.close()
                return player, f"{eng.name} failed at the new game: {exc}", "crash"
        return None

    def go_command(self, proto: str, player: int, limits: list[Limits], clocks: list[float | None],
                   moved: int) -> tuple[str, float]:
        """The ``go`` line for ``player`` and the deadline (ms after ``go``) past
        which it has lost on time (or, without a clock, hung)."""
        lim = limits[player]
        words: list = ["go"]
        deadline = self.cfg.hang_timeout * 1000
        own = clocks[player]  # None without a time control
        if lim.tc and own is not None:
            # An opponent searching without a clock is shown the mover's own figures.
            times = [max(1, round(own if c is None else c)) for c in clocks]
            incs = [other.tc.inc_ms if other.tc else lim.tc.inc_ms for other in limits]
            if proto == "ugi":
                words += ["p1time", times[0], "p2time", times[1], "p1inc", incs[0], "p2inc", incs[1]]
            else:
                w, b = self.white, 1 - self.white
                words += ["wtime", times[w], "btime", times[b], "winc", incs[w], "binc", incs[b]]
                if lim.tc.moves:
                    words += ["movestogo", lim.tc.moves - moved % lim.tc.moves]
            deadline = max(0.0, own) + self.cfg.margin_ms
        words += lim.fixed_words()
        if lim.movetime:
            deadline = min(deadline, lim.movetime + self.cfg.margin_ms)
        return " ".join(map(str, words)), deadline

    def describe_end(self, record: GameRecord, pos, r0: int) -> str:
        """Why the rules ended the game, in words."""
        players = self.game.players
        if self.chess_endings:
            reason = _chess_reason(record, r0)
            if reason:
                return reason
        why = f"no legal move for {players[pos.turn]}" if pos.outcome() is None else "end by the rules"
        score = self.game.final_score(pos) or self.game.score_text(pos)
        margin = f" ({score})" if score else ""
        if r0 == 0:
            return f"{why}: draw{margin}"
        return f"{why}: {players[0 if r0 > 0 else 1]} wins{margin}"

    # -- reporting ----------------------------------------------------------------

    def counts(self) -> tuple[int, int, int]:
        """Wins, draws, losses of the first engine."""
        w = sum(1 for r in self.results if r.score(0) == 1.0)
        l_ = sum(1 for r in self.results if r.score(0) == 0.0)
        return w, len(self.results) - w - l_, l_

    def progress_line(self, result: GameResult) -> str:
        w, d, l_ = self.counts()
        n = w + d + l_
        est = trinomial(w, d, l_)
        white, black = result.record.players
        won, lost = self.forfeits()
        by_forfeit = f" (forfeits +{sum(won.values())} -{sum(lost.values())})" if won or lost else ""
        line = (f"game {result.job.number}/{self.cfg.games}: {white} - {black} {result.record.result}"
                f" ({result.reason}) | {self.cfg.specs[0].name}: +{w} ={d} -{l_}{by_forfeit},"
                f" {100 * (w + d / 2) / n:.1f}%, Elo {est}")
        if self.cfg.sprt is not None:
            llr = self.cfg.sprt.llr_pentanomial(self.penta)
            line += f", LLR {llr:.2f} ({self.cfg.sprt.lower:.2f}, {self.cfg.sprt.upper:.2f})"
        return line

    def forfeits(self) -> tuple[dict[str, int], dict[str, int]]:
        """The first engine's wins that were the second's forfeits and its losses that were
        its own, each counted by cause (``time``, ``illegal``, ...)."""
        won: dict[str, int] = {}
        lost: dict[str, int] = {}
        for r in self.results:
            if r.offender is not None and r.fault is not None:
                side = lost if r.offender == 0 else won
                side[r.fault] = side.get(r.fault, 0) + 1
        return won, lost

    def summary(self) -> str:
        a, b = (s.name for s in self.cfg.specs)
        w, d, l_ = self.counts()
        n = w + d + l_
        lines = [f"{self.cfg.game}: {a} vs {b}, {n} games"]
        if n == 0:
            return "\n".join(lines + ["no games finished"])
        tri, pen = trinomial(w, d, l_), pentanomial(self.penta)
        lines += [
            f"{'engine':<16}{'W':>5}{'D':>5}{'L':>5}{'score':>9}{'Elo (trinomial)':>20}{'LOS':>8}",
            f"{a:<16}{w:>5}{d:>5}{l_:>5}{100 * tri.score:>8.1f}%{str(tri):>20}{100 * los(w, l_):>7.1f}%",
        ]
        won, lost = self.forfeits()
        if won or lost:
            # Beside the score: which of its wins and losses no game decided.
            def tally(faults: dict[str, int], name: str) -> str:
                causes = ", ".join(f"{_FAULT_WORDS[k]} {n}" for k, n in faults.items())
                return f"{sum(faults.values())} ({name}: {causes})" if faults else "0"

            lines.append(f"{'':<16}of these by forfeit: wins {tally(won, b)}, losses {tally(lost, a)};"
                         f" played out: +{w - sum(won.values())} ={d} -{l_ - sum(lost.values())}")
        tri_note = tri.unknown_error("games")
        if tri_note and math.isinf(tri.elo):
            # A sweep's bound is the table's Elo: what it means goes under it.
            lines.append(f"{'':<16}({tri_note})")
            tri_note = None
        lines.append(f"pentanomial [LL LD DD+WL WD WW]: {self.penta} over {sum(self.penta)} pairs, Elo {pen}")
        notes = [why for why in (tri_note, pen.unknown_error("pairs")) if why]
        if notes:
            lines[-1] += f" ({'; '.join(notes)})"
        for idx, spec in enumerate(self.cfg.specs):
            left = self.clock_left[idx]
            if list(left) == [0]:
                lines.append(f"clock left by {spec.name}: min {left[0]:.0f} ms")
            elif left:
                lines.append(f"clock left by {spec.name} at move " +
                             ", ".join(f"{k}: min {v:.0f} ms" for k, v in sorted(left.items())))
        if self.cfg.sprt is not None:
            s = self.cfg.sprt
            llr = s.llr_pentanomial(self.penta)
            verdict = {"H1": f"H1 accepted (elo >= {s.elo1:g})", "H0": f"H0 accepted (elo <= {s.elo0:g})",
                       None: "no decision"}[self.sprt_decision]
            lines.append(f"SPRT elo0={s.elo0:g} elo1={s.elo1:g} alpha={s.alpha:g} beta={s.beta:g}:"
                         f" LLR {llr:.2f} ({s.lower:.2f}, {s.upper:.2f}), {verdict}; {n} games played"
                         f" of {self.cfg.games} scheduled")
        for idx, (agree, differ, none) in sorted(self.final_scores.items()):
            lines.append(f"final scores of {self.cfg.specs[idx].name} against the referee's: "
                         f"{agree} agree, {differ} differ" + (f", {none} not given" if none else ""))
        if self.rescheduled:
            lines.append(f"pairs played again after their worker died: {self.rescheduled}")
        if self.aborted:
            lines.append(f"match aborted: {self.aborted}")
        return "\n".join(lines)


class PairPlayer:
    """A Ray worker's engines, kept from pair to pair as a local game slot keeps
    them; the games are refereed by :meth:`Match.play` as locally."""

    def __init__(self, config: MatchConfig):
        self.match = Match(config, out=open(os.devnull, "w"))
        self.loop = asyncio.new_event_loop()
        self.engines = self.match.new_engines()

    def play(self, jobs: list[GameJob]) -> tuple[list[GameResult], list[dict], str | None]:
        """The pair's results, the least clocks left, and why the match must stop (if so)."""
        self.match.clock_left = [{}, {}]

        async def both() -> list[GameResult]:
            return [await self.match.play(job, self.engines) for job in jobs]

        return self.loop.run_until_complete(both()), self.match.clock_left, self.match.aborted

    def close(self) -> None:
        async def close_all() -> None:
            await asyncio.gather(*(e.close() for e in self.engines), return_exceptions=True)

        self.loop.run_until_complete(close_all())
        self.loop.close()


def _play_pair(player: PairPlayer, jobs: list[GameJob]):
    return player.play(jobs)


def _comment(reply: Reply) -> str | None:
    parts = []
    if reply.score is not None:
        if abs(reply.score) > MATE_CP // 2:
            moves = MATE_CP - abs(reply.score)
            parts.append(f"{'+' if reply.score > 0 else '-'}M{moves}")
        else:
            parts.append(f"{reply.score / 100:+.2f}")
        if reply.depth is not None:
            parts[-1] += f"/{reply.depth}"
    parts.append(f"{reply.elapsed_ms / 1000:.3f}s")
    return " ".join(parts)


def _chess_reason(record: GameRecord, r0: int) -> str | None:
    import chess

    board = chess.Board(record.start) if record.start else chess.Board()
    for text in record.moves:
        board.push_uci(text)
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.result() != result_token(r0):
        return None
    t = chess.Termination
    return {
        t.CHECKMATE: f"{'White' if outcome.winner else 'Black'} mates",
        t.STALEMATE: "draw by stalemate",
        t.INSUFFICIENT_MATERIAL: "draw by insufficient material",
        t.SEVENTYFIVE_MOVES: "draw by the fifty-move rule",
        t.FIFTY_MOVES: "draw by the fifty-move rule",
        t.FIVEFOLD_REPETITION: "draw by repetition",
        t.THREEFOLD_REPETITION: "draw by repetition",
    }.get(outcome.termination)


# -- command line ---------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="zermelo match", description="Engine-vs-engine matches refereed by zermelo's rules.",
        epilog='engine spec: cmd="PROGRAM ARGS" name=N proto=uci|ugi|gtp|hub dir=D args="..." option.NAME=V '
               "tc=.. movetime=.. depth=.. nodes=.. (per-engine limits); a gtp engine plays Go or Othello, "
               "a hub engine draughts")
    p.add_argument("--game", default="chess", help="game name or alias (default chess)")
    p.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the game (repeatable), as in zermelo play: -p size=19 -p komi=6.5; "
                        "UCI and UGI engines are told it as the option GAME_NAME (go_size), GTP engines "
                        "by boardsize and komi, and the records keep it")
    p.add_argument("--players", type=int, help="players per game for games of more than two players "
                                                "(default: the game's; give one --engine per player)")
    p.add_argument("--engine", action="append", default=[], metavar="SPEC",
                   help="an engine (give two; one per player with more players)")
    p.add_argument("--games", type=int, default=2, help="number of games (the maximum with --sprt)")
    p.add_argument("--tc", help="time control [moves/]seconds[+increment], e.g. 10+0.1 or 40/60")
    p.add_argument("--movetime", type=int, help="fixed time per move, ms")
    p.add_argument("--depth", type=int, help="fixed search depth")
    p.add_argument("--nodes", type=int, help="fixed node count")
    p.add_argument("--openings", help="EPD/FEN/position lines, .pgn, .bin (Polyglot) or a zermelo book; "
                                      "'startpos' for the start position only")
    p.add_argument("--opening-plies", type=int, help="cap on plies taken from PGN lines and books")
    p.add_argument("--random-plies", type=int, default=0, help="random moves added after each opening")
    p.add_argument("--seed", type=int, help="shuffle the openings and seed random choices")
    p.add_argument("--concurrency", type=int,
                   help="games played at once (default 1; with --backend ray, pairs at once: the cluster's CPUs)")
    backend_args.add_arguments(p)
    existing = p.add_mutually_exclusive_group()
    existing.add_argument("--resume", action="store_true",
                          help="continue an interrupted match from its --pgn/--records file: every game in it "
                               "is kept and counted, only the missing ones are played (give the same settings)")
    existing.add_argument("--force", action="store_true",
                          help="replace an existing --pgn/--records file (without it a new match refuses one)")
    p.add_argument("--pgn", "--records", dest="records", metavar="FILE",
                   help="append the games as they end (PGN for chess, PDN for draughts, plain records "
                        "otherwise); an existing file is refused unless --resume or --force")
    p.add_argument("--sgf", metavar="FILE",
                   help="Go: also append every game to FILE as an SGF game tree (--resume and --force apply)")
    p.add_argument("--sprt", nargs="+", metavar="K=V", help="elo0=0 elo1=10 alpha=0.05 beta=0.05")
    p.add_argument("--adjudicate", nargs="+", metavar="K=V", default=[],
                   help="win=SCORE[:MOVES] draw=SCORE[:MOVES[:FROM_MOVE]] maxplies=N")
    p.add_argument("--ponder", action="store_true",
                   help="engines think on the opponent's time (go ponder, ponderhit or stop)")
    p.add_argument("--margin-ms", type=int, default=250, help="clock overrun tolerated, ms (default 250)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds an engine without a clock may think before it forfeits (default 60)")
    p.add_argument("--ping-timeout", type=float, default=10.0, help="seconds to answer isready")
    p.add_argument("--start-timeout", type=float, default=10.0, help="seconds to start and answer uci/ugi")
    p.add_argument("--event", default="zermelo match", help="Event tag of the records")
    p.add_argument("--log", metavar="FILE", help="log every line exchanged with the engines")
    p.add_argument("--replay", metavar="FILE", help="re-verify the games of a record file and exit")
    return p


def _limits(args, spec: EngineSpec) -> Limits:
    given = {"tc": args.tc, "movetime": args.movetime, "depth": args.depth, "nodes": args.nodes}
    given.update(spec.limits)
    tc = given["tc"]
    lim = Limits(TimeControl.parse(tc) if isinstance(tc, str) else None,
                 *(int(given[k]) if given[k] is not None else None for k in ("movetime", "depth", "nodes")))
    if not (lim.tc or lim.movetime or lim.depth or lim.nodes):
        raise ValueError(f"{spec.name}: no limit; give --tc, --movetime, --depth or --nodes")
    return lim


def config_from_args(args, warn=print) -> MatchConfig:
    """A :class:`MatchConfig` from parsed arguments (raises ``ValueError`` on bad input)."""
    game = games.canonical(args.game)
    params = match_params(game, vars(args).get("params") or {})
    if len(args.engine) != 2:
        raise ValueError("give exactly two --engine specs")
    specs = [EngineSpec.parse(text) for text in args.engine]
    if specs[0].name == specs[1].name:
        specs[1].name += "-2"
    limits = [_limits(args, spec) for spec in specs]
    rng = random.Random(args.seed)
    n_pairs = (args.games + 1) // 2
    openings = load_openings(args.openings, game, plies=args.opening_plies, count=n_pairs,
                             rng=rng, warn=warn, params=params)
    if args.seed is not None:
        rng.shuffle(openings)
    if args.random_plies > 0:
        g = games.load(game, **params)
        openings = [add_random_plies(g, openings[i % len(openings)], args.random_plies, rng)
                    for i in range(n_pairs)]
    backend = Backend(args.backend, args.address)
    # GTP is Go's and Othello's (the games whose rules say how); SGF is Go's.
    is_go = go_board(games.load(game, **params)) is not None
    if any(spec.proto == "hub" for spec in specs) and games.load(game, **params).hub_notation() is None:
        raise ValueError("Hub engines play draughts (--game international, shashki, brazilian or checkers)")
    if any(spec.proto == "gtp" for spec in specs):
        if gtp_rules(games.load(game, **params)) is None:
            raise ValueError("GTP engines play Go (--game go) and Othello (--game reversi)")
        untold = sorted(set(params) - {"size", "komi"})
        if untold:
            raise ValueError(f"GTP tells an engine the board size and komi only, not {', '.join(untold)}")
        if any(opening.start for opening in openings):
            raise ValueError("GTP engines play from the empty board: openings may be moves, not positions")
        if backend.is_ray:
            raise ValueError("GTP engines play on this machine's backend only")
    if args.sgf and not is_go:
        raise ValueError("--sgf writes Go games")
    if (args.resume or args.force) and not args.records:
        raise ValueError(f"{'--resume' if args.resume else '--force'} is about the --pgn/--records file; give it")
    return MatchConfig(
        game=game, specs=specs, limits=limits, games=args.games, openings=openings,
        # 0 on Ray: as many pairs at once as the cluster has CPUs.
        concurrency=args.concurrency or (0 if backend.is_ray else 1), records=args.records,
        backend=backend, resume=args.resume, force=args.force, sgf=args.sgf, params=params,
        sprt=Sprt.parse(args.sprt) if args.sprt else None,
        adjudication=Adjudication.parse(args.adjudicate), margin_ms=args.margin_ms, ponder=args.ponder,
        start_timeout=args.start_timeout, ping_timeout=args.ping_timeout, hang_timeout=args.timeout,
        event=args.event)


async def _run(match: Match) -> list[GameResult]:
    task = asyncio.current_task()
    assert task is not None  # asyncio.run runs this coroutine as a task
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        return await match.run()
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


#: How each forfeit's cause reads in the summary.
_FAULT_WORDS = {"time": "on time", "illegal": "illegal move", "crash": "crash", "hang": "hang",
                "start": "failed start"}
_ENGINE_COMMENT = re.compile(r"^(?:([+-]\d+\.\d\d|[+-]M\d+)(?:/\d+)?\s+)?\d+\.\d{3}s")
_FORFEITS = ("time forfeit", "rules infraction")


def _recorded_fault(rec: GameRecord) -> str | None:
    """The cause of a forfeit read back from its record (the loser forfeited), as
    :class:`GameResult` names it; ``None`` for a game not forfeited."""
    if rec.termination == "time forfeit":
        return "time"
    if rec.termination == "rules infraction":
        return "illegal"
    if rec.termination != "abandoned":
        return None
    if "failed to start" in rec.reason:
        return "start"
    return "hang" if "gave no move" in rec.reason or "did not stop" in rec.reason else "crash"


def _comment_score(comment: str | None) -> tuple[bool, int | None]:
    """Whether a move's comment is an engine's (``score/depth time``), and its score
    in centipawns from the mover's view (mates as :data:`MATE_CP` less the moves)."""
    m = _ENGINE_COMMENT.match(comment or "")
    if not m:
        return False, None
    text = m.group(1)
    if text is None:
        return True, None
    if "M" in text:
        cp = MATE_CP - int(text[2:])
        return True, cp if text[0] == "+" else -cp
    return True, round(float(text) * 100)


def _reason_rules(reason: str, plies: int) -> tuple[int, str] | None:
    """The result an adjudication reason written by :meth:`Adjudication.by_score` or
    the ply cap stands for (records without an ``Adjudication`` tag)."""
    if "for the first player" in reason:
        return 1, reason
    if "for the second player" in reason:
        return -1, reason
    if "score within" in reason:
        return 0, reason
    m = re.search(r"at the (\d+)-ply limit", reason)
    if m:
        return (0, reason) if plies == int(m.group(1)) else None
    return None


def check_ending(rec: GameRecord) -> list[str]:
    """The problems of a two-player record's ending that the rules of play alone do
    not show: a game the recorded adjudication rules (its ``Adjudication`` tag) end
    earlier or otherwise, an adjudicated result those rules (or the recorded reason)
    do not give, a forfeit not scored against the player who was to move."""
    try:
        adj = Adjudication.parse(rec.tags["Adjudication"].split()) if "Adjudication" in rec.tags else None
    except ValueError as exc:
        return [f"bad Adjudication tag: {exc}"]
    game = record_game(rec)
    pos = game.new_position(rec.start)
    scores: tuple[list, list] = ([], [])
    decided = None
    for i, text in enumerate(rec.moves):
        if adj is not None and decided is None and i >= adj.max_plies:
            return [f"played past the {adj.max_plies}-ply limit of its adjudication rules"]
        player = pos.turn
        pos.push(pos.parse_move(text))
        engine, score = _comment_score(rec.comments[i] if i < len(rec.comments) else None)
        if engine and adj is not None:
            scores[player].append(None if score is None else score if player == 0 else -score)
            verdict = adj.by_score(scores, i + 1)
            if verdict is not None and rules_result(pos) is None and decided is None:
                decided = (i + 1, verdict)
    if decided is not None and decided[0] < len(rec.moves):
        return [f"its adjudication rules end the game at ply {decided[0]} ({decided[1][1]}), "
                f"yet it goes on to ply {len(rec.moves)}"]
    result = rec.result
    if rec.termination == "adjudication":
        expected: tuple[int, str] | None
        if decided is not None:
            expected = decided[1]
        elif adj is not None and len(rec.moves) == adj.max_plies:
            expected = (0, f"draw at the {adj.max_plies}-ply limit")
        elif adj is None:
            expected = _reason_rules(rec.reason, len(rec.moves))
        else:
            expected = None
        if expected is None:
            if "table adjudication" in rec.reason:
                return []  # an exact value from tables the record does not name: not re-checked
            return [f"adjudicated, but no recorded adjudication rule ends the game here ({rec.reason!r})"]
        if result_token(expected[0]) != result:
            return [f"adjudicated {result}, but {expected[1]} gives {result_token(expected[0])}"]
    elif rec.termination in _FORFEITS:
        loser_first = pos.turn == 0
        if result != ("0-1" if loser_first else "1-0"):
            return [f"{rec.termination} scored {result}, but {game.players[pos.turn]} was to move and forfeits"]
    elif rec.termination == "abandoned" and result not in ("1-0", "0-1"):
        return [f"abandoned game scored {result}; a forfeit is a loss"]
    return []


def _file_problems(path: str, found: list[recordfile.FileGame], out) -> set[int]:
    """Report, one line each, the games of a records file that cannot count: cut
    off, unreadable, or recorded twice (same event, round and players); returns
    their indices in ``found``."""
    bad: set[int] = set()
    first_at: dict[tuple, recordfile.FileGame] = {}
    for k, game in enumerate(found):
        where = f"game at line {game.line}" + (f" (round {game.round})" if game.round else "")
        if not game.whole:
            why = ("cut off at the end of the file (a partial last game)" if k == len(found) - 1
                   else "cut off: its moves end without a result token")
            print(f"{where}: {why}; not counted", file=out)
            bad.add(k)
        elif game.record is None:
            print(f"{where}: cannot be read: {game.error}; not counted", file=out)
            bad.add(k)
        elif game.round not in (None, "", "?", "-"):
            key = (game.tags.get("Event"), game.round, tuple(sorted(game.record.players)))
            if key in first_at:
                print(f"{where}: round {game.round} recorded twice (first at line {first_at[key].line});"
                      " not counted again", file=out)
                bad.add(k)
            else:
                first_at[key] = game
    return bad


def replay(path: str, out=None) -> int:
    """Re-verify every game of a record file; 0 if all are sound."""
    out = out or sys.stdout
    _, found = recordfile.read_games(path)
    bad_games = _file_problems(path, found, out)
    # A game without a record is among the bad ones.
    records = [g.record for k, g in enumerate(found) if k not in bad_games and g.record is not None]
    if multi.is_multi(records):
        return multi.replay_records(records, out, len(found), len(bad_games))
    bad = len(bad_games)
    points: dict[str, list[float]] = {}
    for i, rec in enumerate(records, 1):
        problems = verify(rec)
        if not problems:
            problems = check_ending(rec)
        bad += bool(problems)
        status = "ok" if not problems else "; ".join(problems)
        print(f"game {rec.tags.get('Round', i)}: {rec.players[0]} - {rec.players[1]} {rec.result}"
              f" [{rec.termination}] {len(rec.moves)} plies: {status}", file=out)
        if rec.result != "*":
            first = {"1-0": 1.0, "0-1": 0.0}.get(rec.result, 0.5)
            points.setdefault(rec.players[0], []).append(first)
            points.setdefault(rec.players[1], []).append(1.0 - first)
    for name, pts in points.items():
        print(f"{name}: +{pts.count(1.0)} ={pts.count(0.5)} -{pts.count(0.0)}", file=out)
    print(f"{len(found)} games, {bad} with problems", file=out)
    return 1 if bad else 0


def match_params(game: str, params: dict[str, str]) -> dict[str, str]:
    """``-p`` parameters of ``game`` checked by its model (``ValueError`` for a name the
    game does not have or a value it refuses), as given."""
    if not params:
        return {}
    cls = games.game_class(game)
    unknown = sorted(set(params) - set(cls.Params.model_fields))
    if unknown:
        known = ", ".join(cls.Params.model_fields) or "none"
        raise ValueError(f"{game} has no parameter {unknown[0]!r} (its parameters: {known})")
    if cls.record_format == "pgn":
        raise ValueError(f"{game} records (PGN) keep no game parameters")
    games.load(game, **params)
    return dict(params)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.params = game_params(parser, args.param)
    if args.replay:
        try:
            return replay(args.replay)
        except (OSError, ValueError, KeyError) as exc:
            print(f"zermelo match: {exc}", file=sys.stderr)
            return 2
    try:
        if multi.wanted(args):
            return multi.main(args, _limits)
    except (ValueError, KeyError) as exc:
        print(f"zermelo match: {exc}", file=sys.stderr)
        return 2
    try:
        config = config_from_args(args)
        match = Match(config)
        # Before anything is played or the backend started: a records file that may
        # not be used is the only line.
        notes = match.open_records()
    except (ValueError, KeyError, OSError) as exc:
        print(f"zermelo match: {exc}", file=sys.stderr)
        return 2
    try:
        backend_args.from_args(args)
    except (ValueError, KeyError, OSError, ImportError, AttributeError, ExecutionError) as exc:
        match.close_records()
        print(f"zermelo match: {exc}", file=sys.stderr)
        return 2
    log_file = None
    if args.log:
        log_file = open(args.log, "w", encoding="utf-8")
        t0 = time.monotonic()
        config.log = lambda line: print(f"{time.monotonic() - t0:10.3f} {line}", file=log_file, flush=True)
    a, b = config.specs
    given = ", ".join(f"{k}={v}" for k, v in config.params.items())
    match.print(f"{config.game}{f' ({given})' if given else ''}: {a.name} ({config.limits[0].describe()}) vs {b.name} "
                f"({config.limits[1].describe()}), {config.games} games, {len(config.openings)} "
                f"opening(s), concurrency {config.concurrency or 'all CPUs'}, backend {config.backend.describe()}")
    if config.backend.is_ray and local_ray_address():
        match.print(f"ray: a local instance started here, listening on {local_ray_address()} only "
                    "(unreachable from other machines; give --address for a cluster)")
    for line in notes:
        match.print(line)
    interrupted = False
    try:
        match.run_everywhere()
    except (KeyboardInterrupt, asyncio.CancelledError):
        interrupted = True
    except (ExecutionError, ValueError) as exc:
        print(f"zermelo match: {exc}", file=sys.stderr)
        return 2
    finally:
        if log_file:
            log_file.close()
    match.print(match.summary())
    if interrupted:
        match.print("match interrupted")
        return 130
    return 3 if match.aborted else 0
