"""Resignation over GTP (``ResignThreshold``): ``genmove`` answers ``resign`` once the
Monte-Carlo search finds the game lost three moves in a row, never with the option at
0; the match runner scores a GTP resignation as a loss, ``B+R``/``W+R`` in SGF."""

from __future__ import annotations

import subprocess
import sys

from test_gtp import REPO, Gtp
from test_match_gtp import fake, run  # noqa: F401 - the fake GTP engine's fixture

import games
from engine.game import WIN
from engine.mcts import RESIGN_MOVES, MCTSSearcher, Resignation, win_rate
from engine.search import Info
from engine.timeman import Limits


def info(score: int, nodes: int = 1000) -> Info:
    return Info(depth=5, seldepth=5, multipv=1, score=score, bound=None, nodes=nodes, time_ms=1000,
                nps=1000, hashfull=0, tbhits=0, pv=[1])


def test_resignation_counts_lost_searches_in_a_row():
    r = Resignation()
    lost = -700  # a win rate of 1.7 %
    assert [r.hopeless(0, info(lost), 5) for _ in range(RESIGN_MOVES)] == [False] * (RESIGN_MOVES - 1) + [True]
    r.clear()
    # One search that is not lost, or too small to judge, starts the count again.
    assert not any(r.hopeless(0, info(score, nodes), 5)
                   for score, nodes in [(lost, 1000), (lost, 1000), (0, 1000), (lost, 1000), (lost, 100)])
    assert not r.hopeless(1, info(lost), 5) and not r.hopeless(1, info(lost), 0)
    assert not any(r.hopeless(0, info(lost), 0) for _ in range(5))
    # A proven loss resigns at once, whatever the count.
    assert r.hopeless(1, info(-WIN + 9, 50), 5)
    # The playouts' win rate, when given, decides rather than the score.
    r.clear()
    assert not any(r.hopeless(0, info(lost), 5, 0.2) for _ in range(RESIGN_MOVES))
    assert [r.hopeless(0, info(0), 5, 0.01) for _ in range(RESIGN_MOVES)][-1]


def test_the_playouts_win_rate_leaves_the_priors_out():
    game = games.load("go", size=5, komi=40)
    searcher = MCTSSearcher(seed=1)
    assert searcher.win_rate() is None
    result = searcher.search(game, game.new_position(), Limits(nodes=300))
    # Black cannot win: no playout is won, whatever the priors count as won.
    assert searcher.win_rate() == 0.0 and win_rate(result.score) > 0.01
    assert sum(n for _, n, _ in searcher.root_simulations()) == 300


#: Monte-Carlo on the small board too (its default is alpha-beta, which never resigns).
SETTINGS = ("--option", "Strategy=mcts")


def hopeless_game() -> Gtp:
    """5x5 with a komi Black cannot make up: every Black search finds the game lost."""
    gtp = Gtp(command=("gtp", "--movetime", "1500", *SETTINGS))
    for command in ("boardsize 5", "komi 40"):
        gtp.ok(command)
    return gtp


def test_genmove_resigns_a_lost_game_and_never_with_the_option_off():
    gtp = hopeless_game()
    answers = [gtp.ok("genmove b") for _ in range(RESIGN_MOVES + 2)]
    assert "resign" in answers, answers
    first = answers.index("resign")
    assert all(a != "resign" and a for a in answers[:first])
    # The record is as it was: the resignation plays nothing.
    assert gtp.ok("showboard").count("X") == first
    gtp.ok("zermelo-setoption ResignThreshold 0")
    assert "resign" not in [gtp.ok("genmove b") for _ in range(RESIGN_MOVES)]
    gtp.ok("clear_board")
    gtp.ok("zermelo-setoption ResignThreshold 5")
    assert gtp.ok("genmove b") != "resign"  # a new game counts again
    assert gtp.close() == 0


def test_the_match_runner_scores_zermelo_s_resignation(tmp_path, capsys, fake):
    zermelo = f"cmd='{sys.executable} -m protocol gtp {' '.join(SETTINGS)}' name=zermelo protocol=gtp"
    code, out, recs, trees = run(tmp_path, capsys, "-p", "size=5", "-p", "komi=40", "--movetime", "3000",
                                 "--engine", zermelo, "--engine", fake("random"), games=1)
    assert code == 0
    (rec,), (tree,) = recs, trees
    assert rec.players[0] == "zermelo" and rec.termination == "resignation", rec
    assert rec.result == "0-1" and rec.reason.endswith("zermelo resigns")
    assert tree.get_root().get("RE") == "W+R"


def test_a_refused_option_on_the_command_line_is_a_usage_error():
    for bad in ("ResignThreshold=101", "Nonsense=1", "go_komi=5", "UCI_Variant=chess"):
        run = subprocess.run([sys.executable, "-m", "protocol", "gtp", "--option", bad], cwd=REPO,
                             input="", capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and f"--option {bad}" in run.stderr, run.stderr


def test_genmove_analyze_resigns_as_genmove_does():
    # KataGo's genmove_analyze ends a resignation with "play resign", the stream before it.
    gtp = hopeless_game()
    ends = []
    for n in range(RESIGN_MOVES + 2):
        gtp.send_raw(f"{n + 10} kata-genmove_analyze b 50\n".encode())
        assert gtp.lines.get(timeout=60) == f"={n + 10}\n"
        lines = []
        while (line := gtp.lines.get(timeout=60)) != "\n":
            lines.append(line.rstrip("\n"))
        ends.append(lines[-1])
        if lines[-1] == "play resign":
            break
    assert ends[-1] == "play resign" and all(e.startswith("play ") and e != "play resign" for e in ends[:-1]), ends
    # The resignation plays nothing.
    assert gtp.ok("showboard").count("X") == len(ends) - 1
    assert gtp.close() == 0
