"""``zermelo match`` for games of more than two players: N engines per game.

Every game seats the N engines in one order (engine ``seat[p]`` plays player
``p``, player 0 moving first). For each opening the games run through all N!
orders, so every engine plays every seat equally often and follows and precedes
every other engine equally often (3 engines: 6 games per opening; 4: 24);
``--games`` is rounded up to whole rounds of N! games.

Points go by place: with N players, place *q* is worth (N − q) / (N − 1) (1 for
first, 0 for last); players sharing places split them, each getting the mean of
the places they occupy (``[1, 1, 3]`` gives 0.75, 0.75, 0). Every game hands out
N / 2 points in all. An engine that forfeits (time, illegal move, crash, hang)
is placed last alone and the others share first place.

The runner keeps every player's clock and tells the mover all of them with the
N-player UGI words ``go p1time … pNtime p1inc … pNinc`` (``movetime``, ``depth``
and ``nodes`` as in two-player matches); each engine is told the game
(``UCI_Variant``) and its player count (``<game>_players``). Records are plain
records with one player tag per player and the places as result (see
:mod:`protocol.records`), re-verified by ``zermelo match --replay``. Pondering,
score adjudication, the SPRT and Ray are two-player only.
"""

from __future__ import annotations

import asyncio
import datetime
import itertools
import random
import socket
import sys
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

import games
from protocol.match import recordfile
from protocol.match.openings import Opening, add_random_plies
from protocol.match.process import EngineError, EngineProcess, EngineSpec
from protocol.records import GameRecord, to_text, verify


def place_points(ranking: list[int]) -> list[float]:
    """Points per player for the places ``ranking`` (1 = first; ties share a place).

    >>> place_points([1, 3, 2]), place_points([1, 1, 3]), place_points([2, 1, 2])
    ([1.0, 0.0, 0.5], [0.75, 0.75, 0.0], [0.25, 1.0, 0.25])
    """
    n = len(ranking)
    out = []
    for place in ranking:
        # Players sharing `place` occupy it and the places after it.
        shared = ranking.count(place)
        occupied = range(place, place + shared)
        out.append(sum((n - q) / (n - 1) for q in occupied) / shared)
    return out


def seatings(engines: int) -> list[tuple[int, ...]]:
    """One round: every order of the engines over the seats (``seat[player] = engine``)."""
    return list(itertools.permutations(range(engines)))


@dataclass
class MultiJob:
    number: int
    """1-based game number, also the record's Round."""
    seat: tuple[int, ...]
    """Engine index playing each player (player 0 moves first)."""
    opening: Opening


@dataclass
class MultiResult:
    job: MultiJob
    ranking: list[int]
    """Each player's place."""
    termination: str
    reason: str
    record: GameRecord
    offender: int | None = None
    """Engine index that forfeited, if any."""

    def points(self) -> list[float]:
        """Points per player (seat), by place."""
        return place_points(self.ranking)

    def engine_points(self, engine: int) -> float:
        return self.points()[self.job.seat.index(engine)]


@dataclass
class MultiConfig:
    game: str
    players: int
    specs: list[EngineSpec]
    limits: list  # protocol.match.runner.Limits, one per engine (the runner imports this module)
    games: int
    openings: list[Opening] = field(default_factory=lambda: [Opening()])
    concurrency: int = 1
    records: str | None = None
    force: bool = False
    """Replace an existing records file (without it, the match refuses one)."""
    margin_ms: int = 250
    start_timeout: float = 10.0
    ping_timeout: float = 10.0
    hang_timeout: float = 60.0
    stop_grace: float = 1.0
    max_plies: int = 1000
    event: str = "zermelo match"
    log: Callable[[str], None] | None = None


class MultiMatch:
    """Plays the scheduled games ``concurrency`` at a time; progress goes to ``out``."""

    def __init__(self, config: MultiConfig, out=None):
        self.cfg = config
        self.out = out or sys.stdout
        self.params = {} if config.players == len(games.load(config.game).players) else \
            {"players": str(config.players)}
        self.game = games.load(config.game, **self.params)
        if len(self.game.players) != config.players:
            raise ValueError(f"{config.game} is played by {len(self.game.players)} players, not {config.players}")
        if len(config.specs) != config.players:
            raise ValueError(f"{config.game} with {config.players} players needs {config.players} --engine specs")
        self.results: list[MultiResult] = []
        self.jobs: list[MultiJob] = []
        rounds = seatings(config.players)
        n = len(rounds) * -(-config.games // len(rounds))
        for i in range(n):
            opening = config.openings[(i // len(rounds)) % len(config.openings)]
            self.jobs.append(MultiJob(i + 1, rounds[i % len(rounds)], opening))
        self._records_file: recordfile.RecordsWriter | None = None

    def print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def new_engines(self) -> list[EngineProcess]:
        """One game slot's engines, each told the game and its player count."""
        option = {f"{self.game.name}_players": str(self.cfg.players)}
        return [EngineProcess(replace(spec, options={**option, **spec.options}), spec.proto or "ugi",
                              self.game.name, log=self.cfg.log)
                for spec in self.cfg.specs]

    def run(self) -> list[MultiResult]:
        return asyncio.run(self._run())

    async def _run(self) -> list[MultiResult]:
        self.open_records()
        queue = list(reversed(self.jobs))
        try:
            await asyncio.gather(*(self._worker(queue) for _ in range(max(1, self.cfg.concurrency))))
        finally:
            if self._records_file:
                self._records_file.close()
        return self.results

    def open_records(self) -> None:
        """Open the records file, once (:class:`recordfile.RecordsFileError` if it may not be used)."""
        if self.cfg.records and self._records_file is None:
            self._records_file = recordfile.open_new(self.cfg.records, self.cfg.force)

    async def _worker(self, queue: list[MultiJob]) -> None:
        engines = self.new_engines()
        try:
            while queue:
                result = await self.play(queue.pop(), engines)
                self.results.append(result)
                if self._records_file:
                    self._records_file.append(to_text(result.record))
                self.print(self.progress_line(result))
        finally:
            await asyncio.gather(*(e.close() for e in engines), return_exceptions=True)

    # -- one game -----------------------------------------------------------------

    async def play(self, job: MultiJob, engines: list[EngineProcess]) -> MultiResult:
        cfg, n = self.cfg, self.cfg.players
        record = GameRecord(cfg.game, tuple(engines[e].name for e in job.seat), "*", job.opening.start,
                            list(job.opening.moves), [None] * len(job.opening.moves),
                            tags={"Event": cfg.event, "Site": socket.gethostname(),
                                  "Date": datetime.date.today().strftime("%Y.%m.%d"),
                                  "Round": str(job.number)},
                            params=self.params)

        def end(ranking: list[int], termination: str, reason: str, offender: int | None = None) -> MultiResult:
            record.result = "-".join(map(str, ranking))
            record.termination, record.reason = termination, reason
            return MultiResult(job, ranking, termination, reason, record, offender)

        def forfeit(player: int, termination: str, reason: str) -> MultiResult:
            return end([n if p == player else 1 for p in range(n)], termination, reason, job.seat[player])

        for player, engine in enumerate(job.seat):
            eng = engines[engine]
            try:
                if not eng.alive:
                    await eng.start(cfg.start_timeout)
                await eng.new_game(cfg.ping_timeout)
            except EngineError as exc:
                await eng.close()
                return forfeit(player, "abandoned", f"{eng.name} failed to start: {exc}")

        pos = self.game.new_position(job.opening.start)
        for text in job.opening.moves:
            pos.push(pos.parse_move(text))
        limits = [cfg.limits[e] for e in job.seat]
        clocks: list[float | None] = [lim.tc.base_ms if lim.tc else None for lim in limits]
        moved = [0] * n
        startpos = "position startpos" if job.opening.start is None else f"position fen {job.opening.start}"
        while True:
            ranking = pos.ranking()
            if ranking is not None:
                winners = [self.game.players[p] for p in range(n) if ranking[p] == 1]
                return end(list(ranking), "normal", f"{' and '.join(winners)} first")
            if len(record.moves) >= cfg.max_plies:
                return end([1] * n, "adjudication", f"shared at the {cfg.max_plies}-ply limit")
            player = pos.turn
            eng, lim = engines[job.seat[player]], limits[player]
            go, deadline_ms = self.go_command(player, limits, clocks)
            moves = record.moves
            position = f"{startpos} moves {' '.join(moves)}" if moves else startpos
            try:
                await eng.ping(cfg.ping_timeout)
                reply = await eng.go(position, go, deadline_ms / 1000)
            except EngineError as exc:
                if exc.kind == "crash":
                    await eng.close()
                    return forfeit(player, "abandoned", f"crash: {exc}")
                if not await eng.stop_search(cfg.stop_grace):
                    await eng.close()
                if lim.tc or lim.movetime:
                    return forfeit(player, "time forfeit", f"{eng.name} loses on time")
                return forfeit(player, "abandoned", f"{eng.name} gave no move within {cfg.hang_timeout:g} s")
            used = reply.elapsed_ms
            clock = clocks[player]  # None without a time control
            if clock is not None and clock - used < -cfg.margin_ms or \
                    lim.movetime and used > lim.movetime + cfg.margin_ms:
                return forfeit(player, "time forfeit", f"{eng.name} loses on time ({used:.0f} ms used)")
            try:
                move = pos.parse_move(reply.move or "")
            except ValueError:
                return forfeit(player, "rules infraction", f"{eng.name} played the illegal move {reply.move!r}")
            record.moves.append(pos.move_text(move))
            record.comments.append(f"{reply.score:+d}/{reply.depth} {used / 1000:.3f}s"
                                   if reply.score is not None and reply.depth is not None else f"{used / 1000:.3f}s")
            pos.push(move)
            moved[player] += 1
            if lim.tc and clock is not None:
                clock += lim.tc.inc_ms - used
                if lim.tc.moves and moved[player] % lim.tc.moves == 0:
                    clock += lim.tc.base_ms
                clocks[player] = clock

    def go_command(self, player: int, limits: list, clocks: list[float | None]) -> tuple[str, float]:
        """The ``go`` line for ``player`` and the deadline (ms after ``go``) past which
        it has lost on time (or, without a clock, hung)."""
        lim = limits[player]
        words: list = ["go"]
        deadline = self.cfg.hang_timeout * 1000
        own = clocks[player]  # None without a time control
        if lim.tc and own is not None:
            # A player searching without a clock is shown the mover's own figures.
            words += [w for p, c in enumerate(clocks) for w in (f"p{p + 1}time", max(1, round(own if c is None else c)))]
            words += [w for p, other in enumerate(limits)
                      for w in (f"p{p + 1}inc", other.tc.inc_ms if other.tc else lim.tc.inc_ms)]
            deadline = max(0.0, own) + self.cfg.margin_ms
        words += lim.fixed_words()
        if lim.movetime:
            deadline = min(deadline, lim.movetime + self.cfg.margin_ms)
        return " ".join(map(str, words)), deadline

    # -- reporting ----------------------------------------------------------------

    def progress_line(self, result: MultiResult) -> str:
        names = [self.cfg.specs[e].name for e in result.job.seat]
        totals = ", ".join(f"{spec.name} {self.points(e):g}" for e, spec in enumerate(self.cfg.specs))
        return (f"game {result.job.number}/{len(self.jobs)}: {' - '.join(names)} {result.record.result}"
                f" ({result.reason}) | points {totals}")

    def points(self, engine: int) -> float:
        return sum(r.engine_points(engine) for r in self.results)

    def summary(self) -> str:
        return summary(self.cfg.game, list(self.game.players), [s.name for s in self.cfg.specs],
                       [(r.job.seat, r.ranking) for r in self.results],
                       [r.offender for r in self.results if r.offender is not None])


def summary(game: str, players: list[str], names: list[str], games_played: list[tuple[tuple[int, ...], list[int]]],
            offenders: Sequence[int] = ()) -> str:
    """The results tables: per engine (games, points, share, places) and per engine
    and seat; ``games_played`` holds each game's seating and places."""
    n = len(players)
    played = len(games_played)
    lines = [f"{game} ({n} players): {', '.join(names)}, {played} games; points by place "
             f"(N - place) / (N - 1), shared places split"]
    if not played:
        return "\n".join(lines + ["no games finished"])
    per_seat = [[0.0] * n for _ in names]
    seat_games = [[0] * n for _ in names]
    places = [[0] * n for _ in names]
    for seat, ranking in games_played:
        pts = place_points(ranking)
        for player, engine in enumerate(seat):
            per_seat[engine][player] += pts[player]
            seat_games[engine][player] += 1
            places[engine][ranking[player] - 1] += 1
    width = max(8, *(len(x) for x in names)) + 2
    ordinal = ["1st", "2nd", "3rd"] + [f"{k}th" for k in range(4, n + 1)]
    lines.append(f"{'engine':<{width}}{'games':>6}{'points':>9}{'share':>8}"
                 + "".join(f"{o:>6}" for o in ordinal[:n]))
    for e, name in enumerate(names):
        games_e = sum(seat_games[e])
        won = sum(per_seat[e])
        # The share of the points an engine could have won: 1 per game.
        lines.append(f"{name:<{width}}{games_e:>6}{won:>9.2f}{100 * won / max(games_e, 1):>7.1f}%"
                     + "".join(f"{c:>6}" for c in places[e]))
    lines.append(f"{'points (games) by seat':<{width + 16}}" + "".join(f"{p:>14}" for p in players))
    for e, name in enumerate(names):
        lines.append(f"{name:<{width}}" + " " * 16 + "".join(
            f"{per_seat[e][p]:>8.2f} ({seat_games[e][p]:>3})" for p in range(n)))
    total = [sum(per_seat[e][p] for e in range(len(names))) for p in range(n)]
    lines.append(f"{'all':<{width}}" + " " * 16 + "".join(f"{total[p]:>8.2f} ({played:>3})" for p in range(n)))
    for e, name in enumerate(names):
        if offenders.count(e):
            lines.append(f"forfeits by {name}: {offenders.count(e)}")
    return "\n".join(lines)


def replay_records(records: list[GameRecord], out, in_file: int | None = None, bad: int = 0) -> int:
    """Re-verify N-player records and sum their points by engine name; 0 if all are
    sound. ``in_file`` games were in the file, ``bad`` of them already found unsound
    (cut off, unreadable, recorded twice) and left out of ``records``."""
    names: list[str] = []
    played = []
    for i, rec in enumerate(records, 1):
        problems = verify(rec)
        bad += bool(problems)
        status = "ok" if not problems else "; ".join(problems)
        print(f"game {rec.tags.get('Round', i)}: {' - '.join(rec.players)} {rec.result}"
              f" [{rec.termination}] {len(rec.moves)} plies: {status}", file=out)
        # Only a sound record counts in the tables (a damaged one is reported above).
        if rec.result != "*" and not problems:
            for name in rec.players:
                if name not in names:
                    names.append(name)
            played.append((tuple(names.index(p) for p in rec.players), [int(x) for x in rec.result.split("-")]))
    if records:
        rec = records[0]
        players = list(games.load(rec.game, **rec.params).players)
        # The tables are of one game's player count: records of another are left out.
        played = [(seat, ranking) for seat, ranking in played if len(seat) == len(ranking) == len(players)
                  and all(1 <= r <= len(players) for r in ranking)]
        if len(names) == len(players):
            print(summary(rec.game, players, names, played), file=out)
    print(f"{len(records) if in_file is None else in_file} games, {bad} with problems", file=out)
    return 1 if bad else 0


def is_multi(records: list[GameRecord]) -> bool:
    return any(len(rec.players) > 2 for rec in records)


def wanted(args) -> bool:
    """True when parsed ``zermelo match`` arguments ask for this runner: a game of more
    than two players, or a player count other than the game's default."""
    default = len(games.load(args.game).players)
    return (args.players or default) > 2 or args.players not in (None, default)


def config_from_args(args, engine_limits: Callable) -> MultiConfig:
    """A :class:`MultiConfig` from parsed ``zermelo match`` arguments (``ValueError`` on
    bad input); ``engine_limits(args, spec)`` gives an engine's limits."""

    game = games.canonical(args.game)
    players = args.players or len(games.load(game).players)
    refused = [flag for flag, given in (("--sprt", args.sprt), ("--ponder", args.ponder),
                                        ("--resume", args.resume), ("--adjudicate", args.adjudicate),
                                        ("--openings", args.openings), ("--backend ray", args.backend == "ray"),
                                        ("-p", args.param))
               if given]
    if refused:
        raise ValueError(f"{', '.join(refused)}: two-player matches only ({game} with {players} players)")
    specs = [EngineSpec.parse(text) for text in args.engine]
    seen: dict[str, int] = {}
    for spec in specs:
        seen[spec.name] = seen.get(spec.name, 0) + 1
        if seen[spec.name] > 1:
            spec.name += f"-{seen[spec.name]}"
    limits = [engine_limits(args, spec) for spec in specs]
    openings = [Opening()]
    if args.random_plies > 0:
        rng = random.Random(args.seed)
        g = games.load(game, **({"players": players} if players != len(games.load(game).players) else {}))
        rounds = -(-args.games // len(seatings(players)))
        openings = [add_random_plies(g, Opening(), args.random_plies, rng) for _ in range(rounds)]
    return MultiConfig(game=game, players=players, specs=specs, limits=limits, games=args.games,
                       openings=openings, concurrency=args.concurrency or 1, records=args.records,
                       force=args.force,
                       margin_ms=args.margin_ms, start_timeout=args.start_timeout,
                       ping_timeout=args.ping_timeout, hang_timeout=args.timeout, event=args.event)


def main(args, engine_limits: Callable) -> int:
    """``zermelo match`` with N engines: play, print the tables; exit status as two-player matches."""
    try:
        config = config_from_args(args, engine_limits)
        match = MultiMatch(config)
        # A records file that may not be used is refused before anything is played.
        match.open_records()
    except (ValueError, KeyError, OSError) as exc:
        print(f"zermelo match: {exc}", file=sys.stderr)
        return 2
    limits = ", ".join(f"{s.name} ({lim.describe()})" for s, lim in zip(config.specs, config.limits))
    match.print(f"{config.game} ({config.players} players): {limits}, {len(match.jobs)} games "
                f"(every seating of {len(seatings(config.players))} per opening), concurrency {config.concurrency}")
    try:
        match.run()
    except KeyboardInterrupt:
        match.print(match.summary())
        match.print("match interrupted")
        return 130
    match.print(match.summary())
    return 0
