"""Limited strength: the options, weaker but plausible moves, every game, the terminal.

Move quality is judged by zermelo's own full-strength search at a fixed depth
(the reference), never by the weak search that chose the move.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import games
from engine import options as opt
from engine import skill
from engine.engine import Engine
from engine.search import Searcher
from engine.timeman import Limits

REPO = Path(__file__).resolve().parents[1]
CHESS = games.load("chess")
#: Middlegame positions of the chess bench (no forced mates, no bare endgames).
MIDDLEGAMES = [CHESS.bench_texts[i] for i in (2, 3, 4, 5, 7, 9)]
#: A loss beyond this is a gross blunder (a piece or more for nothing).
REF_CLAMP = 1000
#: The declared UCI_Elo range (engine/options.py).
ELO_MIN, ELO_MAX = opt.find_spec("UCI_Elo", games).min, opt.find_spec("UCI_Elo", games).max


def weak_engine(game: str = "chess", seed: int = 1, **settings: str) -> Engine:
    engine = Engine(games)
    engine.set_option("UCI_Variant", game)
    for name, value in settings.items():
        engine.set_option("Skill Level" if name == "Skill_Level" else name, value)
    engine.skill.rng.seed(seed)
    return engine


def play(engine: Engine, text: str | None, limits: Limits | None = None) -> str:
    """The move ``engine`` chooses in ``text`` through ``go`` (oracles, search, pick)."""
    engine.set_position(text, [])
    # The weak levels cap their own nodes; full strength gets a few thousand.
    return play_on(engine, limits or Limits(nodes=30000 if skill.level_of(engine.options) is not None else 3000))


def play_on(engine: Engine, limits: Limits) -> str:
    done, out = threading.Event(), []
    engine.go(limits, lambda info, pv: None, lambda best, ponder: (out.append(best), done.set()))
    assert done.wait(60)
    return out[0]


class Reference:
    """Full-strength scores of moves at a fixed depth, cached, clamped to ±REF_CLAMP."""

    def __init__(self, game, depth: int = 4):
        self.game, self.depth, self.searcher, self.cache = game, depth, Searcher(16), {}

    def score(self, text: str, move: str | None = None) -> int:
        if (text, move) not in self.cache:
            pos = self.game.new_position(text)
            only = None if move is None else [pos.parse_move(move)]
            score = self.searcher.search(self.game, pos, Limits(depth=self.depth, searchmoves=only)).score
            self.cache[text, move] = max(-REF_CLAMP, min(score, REF_CLAMP))
        return self.cache[text, move]

    def loss(self, text: str, move: str) -> int:
        return self.score(text) - self.score(text, move)


@pytest.fixture(scope="module")
def reference():
    return Reference(CHESS)


# -- options -----------------------------------------------------------------------

def test_option_lines_and_ranges():
    lines = {spec.name: spec.uci_line() for spec in opt.engine_specs(games)}
    assert lines["Skill Level"] == "option name Skill Level type spin default 20 min 0 max 20"
    assert lines["UCI_LimitStrength"] == "option name UCI_LimitStrength type check default false"
    assert lines["UCI_Elo"] == (f"option name UCI_Elo type spin default 1400 "
                                f"min {ELO_MIN} max {ELO_MAX}")


@pytest.mark.parametrize("name, text", [("Skill Level", "21"), ("Skill Level", "-1"), ("Skill Level", "x"),
                                        ("UCI_Elo", "x"), ("UCI_LimitStrength", "yes")])
def test_bad_values_are_refused_and_keep_the_state(name, text):
    engine = Engine(games)
    engine.set_option(name, {"Skill Level": "7", "UCI_Elo": "1500", "UCI_LimitStrength": "true"}[name])
    before = engine.options
    with pytest.raises(opt.OptionError):
        engine.set_option(name, text)
    assert engine.options == before


@pytest.mark.parametrize("text, level", [(str(ELO_MAX + 280), None), ("99", skill.elo_level(ELO_MIN)),
                                         ("9" * 40, None)])
def test_an_elo_beyond_the_range_is_clamped_with_a_note(text, level):
    engine = Engine(games)
    engine.set_option("UCI_LimitStrength", "true")
    notes = engine.set_option("UCI_Elo", text)
    assert len(notes) == 1 and "UCI_Elo" in notes[0] and "calibrated range" in notes[0]
    assert engine.options.elo in (ELO_MIN, ELO_MAX) and skill.level_of(engine.options) == level
    assert engine.set_option("UCI_Elo", "1500") == []


def test_handshake_and_setoption_over_the_protocol():
    script = "\n".join(["uci", "setoption name UCI_Elo value x", "setoption name skill level value 3",
                        "setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 1500",
                        "position startpos", "go nodes 500", "isready", "quit", ""])
    out = subprocess.run([sys.executable, "-m", "protocol"], cwd=REPO, input=script, capture_output=True,
                         text=True, timeout=60).stdout.splitlines()
    assert "option name Skill Level type spin default 20 min 0 max 20" in out
    assert "option name UCI_LimitStrength type check default false" in out
    assert any(line.startswith("option name UCI_Elo type spin") for line in out)
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 1 and "UCI_Elo" in errors[0]
    assert any(line.startswith("bestmove ") for line in out) and "readyok" in out


def test_an_elo_above_the_range_plays_at_the_top_level_over_the_protocol():
    script = "\n".join(["uci", "setoption name UCI_LimitStrength value true",
                        f"setoption name UCI_Elo value {ELO_MAX + 280}", f"setoption name UCI_Elo value {ELO_MIN - 500}",
                        "position startpos", "go nodes 500", "isready", "quit", ""])
    out = subprocess.run([sys.executable, "-m", "protocol"], cwd=REPO, input=script, capture_output=True,
                         text=True, timeout=60).stdout.splitlines()
    notes = [line for line in out if "calibrated range" in line]
    assert len(notes) == 2 and all(line.startswith("info string UCI_Elo") for line in notes), out
    assert f"playing at {ELO_MAX}" in notes[0] and f"playing at {ELO_MIN}" in notes[1]
    assert not [line for line in out if line.startswith("info string error")]
    assert any(line.startswith("bestmove ") for line in out) and "readyok" in out


def test_uci_elo_takes_precedence_over_skill_level():
    engine = Engine(games)
    engine.set_option("Skill Level", "0")
    assert skill.level_of(engine.options) == 0
    engine.set_option("UCI_LimitStrength", "true")
    engine.set_option("UCI_Elo", str(ELO_MAX))
    assert skill.level_of(engine.options) is None  # the top Elo is full strength
    engine.set_option("UCI_Elo", str(ELO_MIN))
    assert skill.level_of(engine.options) == skill.elo_level(ELO_MIN) < 10
    engine.set_option("UCI_LimitStrength", "false")
    engine.set_option("Skill Level", "20")
    assert skill.level_of(engine.options) is None


def test_elo_mapping_is_monotone_and_covers_the_levels():
    # The top of the declared range is full strength.
    assert skill.ELO_LEVELS[-1] == (ELO_MAX, skill.MAX_LEVEL)
    levels = [skill.elo_level(elo) for elo in [*range(ELO_MIN, ELO_MAX, 10), ELO_MAX]]
    assert levels == sorted(levels)
    assert 0 <= levels[0] < 10 and levels[-1] == skill.MAX_LEVEL


def test_caps_grow_with_the_level_and_open_below_full_strength():
    caps = [(skill.strength(i / 20).nodes, skill.strength(i / 20).depth) for i in range(401)]
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(caps, caps[1:]))
    # Up to OPEN_LEVEL each level keeps its own caps; above, they open toward full
    # strength's search rather than leaving a jump at level 20.
    assert skill.strength(skill.OPEN_LEVEL).nodes == round(200 * 2 ** (skill.OPEN_LEVEL / 2.5))
    assert skill.strength(19.99).nodes > 50 * skill.strength(skill.OPEN_LEVEL).nodes


# -- the choice ----------------------------------------------------------------------

def test_pick_never_exceeds_the_margin_and_prefers_small_losses():
    rng = random.Random(3)
    s = skill.strength(5)
    lines = [(100, [1]), (100 - s.margin // 4, [2]), (100 - s.margin, [3]), (100 - s.margin - 1, [4])]
    picks = [skill.pick(lines, s, rng) for _ in range(2000)]
    counts = [picks.count(i) for i in range(4)]
    assert counts[3] == 0
    assert counts[0] > counts[1] > counts[2] > 0


def test_weak_levels_stray_but_never_blunder(reference):
    # UCI_Elo 1400 (and the weakest level) sometimes leave the best move, and may miss a
    # short tactic worth a minor piece, but never drop a rook or the queen for nothing.
    for settings, bound in (({"UCI_LimitStrength": "true", "UCI_Elo": "1400"}, 450),
                            ({"Skill_Level": "0"}, 500)):
        engine = weak_engine(**settings)
        losses = [reference.loss(text, play(engine, text)) for text in MIDDLEGAMES for _ in range(2)]
        assert max(losses) <= bound, (settings, losses)
        assert any(loss > 0 for loss in losses), (settings, losses)


def test_mean_loss_grows_as_the_level_drops(reference):
    means = {}
    for level in (0, 10, 20):
        engine = weak_engine(Skill_Level=str(level), seed=level)
        means[level] = statistics.mean(reference.loss(text, play(engine, text))
                                       for text in MIDDLEGAMES for _ in range(2))
    tolerance = 15
    assert means[0] + tolerance >= means[10] and means[10] + tolerance >= means[20], means
    assert means[0] > means[20], means


def test_a_seed_repeats_the_choices():
    runs = []
    for _ in range(2):
        engine = weak_engine(Skill_Level="3", seed=42)
        runs.append([play(engine, text) for text in MIDDLEGAMES[:4] for _ in range(2)])
    assert runs[0] == runs[1]


def test_a_weak_level_in_a_timed_game_neither_blitzes_nor_overspends():
    engine = weak_engine(Skill_Level="0")
    engine.set_position(None, [])
    done, times = threading.Event(), []
    start = time.monotonic()
    engine.go(Limits(time=(10_000, 10_000)), lambda info, pv: None,
              lambda best, ponder: (times.append(time.monotonic() - start), done.set()))
    assert done.wait(10)
    # Level 0 searches a few hundred nodes (milliseconds), yet waits a share of its
    # soft budget (about 100 ms of a 10 s clock), and stays far below what the clock allows.
    assert 0.05 <= times[0] <= 2.0, times


# -- every game ---------------------------------------------------------------------

def test_every_game_plays_legal_moves_at_the_weakest_level(game):
    engine = weak_engine(game.name, Skill_Level="0")
    engine.set_position(None, [])
    for _ in range(6):
        if engine.game_over():
            break
        move = play_on(engine, Limits(nodes=2000))
        assert move in {engine.position.move_text(m) for m in engine.position.legal_moves()}
        engine.set_position(engine.root_text, [*engine.moves, move])


def test_solved_games_keep_their_mistakes_at_a_low_level():
    # Nim is solved by the root oracle and the evaluation alike; level 0 must still
    # err sometimes from a won position, and full strength never.
    texts = ["7 1", "8 1", "10 1", "11 1"]
    full = weak_engine("nim")
    winning = {text: play(full, text) for text in texts}
    weak = weak_engine("nim", Skill_Level="0", seed=5)
    choices = [(text, play(weak, text)) for text in texts for _ in range(6)]
    assert any(move != winning[text] for text, move in choices)
    assert all(play(full, text) == winning[text] for text in texts)


# -- terminal play -------------------------------------------------------------------

async def test_terminal_elo_and_level_arguments_and_command():
    from prompt_toolkit.output import DummyOutput

    from test_terminal import settled, terminal, until

    async with terminal("chess", "--elo", "1400", "--time", "0.2") as term:
        s = term.session
        assert s.engine.options.limit_strength and s.engine.options.elo == 1400
        assert "Elo 1400" in s.level_text()
        await term.type("level skill 3")
        assert not s.engine.options.limit_strength and s.engine.options.skill_level == 3
        assert s.message == "level: 0.2 s/move, skill 3"
        await term.type("level elo x")
        assert s.message.startswith("level: UCI_Elo") and s.engine.options.skill_level == 3
        await term.type(f"level elo {ELO_MAX + 300}")
        assert s.engine.options.limit_strength and s.engine.options.elo == ELO_MAX
        assert "calibrated range" in s.message
        await term.type("level skill 3")
        await term.type("e4")
        await until(lambda: settled(term))
        assert len(s.moves) == 2
        await term.type("level elo 1500")
        assert s.engine.options.limit_strength and s.engine.options.elo == 1500
        await term.type("level full")
        assert skill.level_of(s.engine.options) is None and s.message == "level: 0.2 s/move"
    async with terminal("kalah", "--level", "2", "--human", "none", "--depth", "3") as term:
        # The engine plays itself at level 2; changing the strength mid-search restarts it.
        s = term.session
        assert s.engine.options.skill_level == 2
        await term.type("level skill 4")
        await until(lambda: len(s.moves) >= 4)
        assert s.engine.options.skill_level == 4
    from protocol.terminal.app import build
    for argv in (["chess", "--elo", "x"], ["chess", "--level", "21"]):
        with pytest.raises(SystemExit):
            build(argv, output=DummyOutput())
