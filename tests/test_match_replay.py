"""``zermelo match --replay`` catches tampered records: an adjudicated result
changed, a game recorded twice (counted once), a game cut off at the end of the
file, a forfeit scored against the wrong player; each is one line and counts as
a problem. The matches and the replays run as ``zermelo match`` subprocesses."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

from protocol.match.recordfile import split_games
from protocol.match.runner import check_ending
from protocol.records import GameRecord, read_records, to_text

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAKE = pathlib.Path(__file__).parent / "fake_engines"


def zermelo(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", "match", *map(str, argv)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def play(records, game: str, n_games: int, *extra) -> str:
    proc = zermelo("--game", game, "--games", n_games, "--nodes", 1, "--random-plies", 2, "--seed", 5,
                   "--pgn", records, "--engine", f"cmd='{sys.executable} {FAKE / 'hasher.py'} 1' name=a",
                   "--engine", f"cmd='{sys.executable} {FAKE / 'hasher.py'} 2' name=b", *extra)
    assert proc.returncode == 0, proc.stderr
    return pathlib.Path(records).read_text()


def replay(path) -> tuple[int, str]:
    proc = zermelo("--replay", path)
    assert proc.stderr == "", proc.stderr
    return proc.returncode, proc.stdout


def test_an_adjudicated_result_changed_is_caught(tmp_path):
    records = tmp_path / "games.txt"
    # The fake engines always score 0: every game is adjudicated a draw after two moves each.
    text = play(records, "connect4", 4, "--adjudicate", "draw=10:2:1")
    assert text.count('[Termination "adjudication"]') == 4 and '[Adjudication "draw=10:2:1 maxplies=600"]' in text
    code, out = replay(records)
    assert code == 0 and "4 games, 0 with problems" in out
    first = split_games(text)[0]
    tampered = first.text.replace('[Result "1/2-1/2"]', '[Result "1-0"]').replace(" 1/2-1/2\n", " 1-0\n")
    assert tampered != first.text
    records.write_text(tampered + text[len(first.text):])
    code, out = replay(records)
    assert code == 1 and "4 games, 1 with problems" in out
    (line,) = [x for x in out.splitlines() if "gives" in x]
    assert line.startswith("game 1:") and "adjudicated 1-0, but both engines score within ±10 gives 1/2-1/2" in line


def test_a_game_recorded_twice_is_reported_and_counted_once(tmp_path):
    records = tmp_path / "games.txt"
    text = play(records, "tictactoe", 4)
    _, clean = replay(records)
    second = split_games(text)[1]
    records.write_text(text + second.text)
    code, out = replay(records)
    assert code == 1 and "5 games, 1 with problems" in out
    twice = [x for x in out.splitlines() if "recorded twice" in x]
    assert len(twice) == 1 and "round 2 recorded twice (first at line" in twice[0]
    # The per-engine totals are those of the four games.
    totals = [x for x in clean.splitlines() if re.match(r"[ab]: \+", x)]
    assert len(totals) == 2 and all(x in out.splitlines() for x in totals)


def test_a_game_cut_off_at_the_end_is_reported(tmp_path):
    for game, extra in (("chess", ["--adjudicate", "maxplies=16"]), ("tictactoe", [])):
        records = tmp_path / f"{game}.txt"
        text = play(records, game, 2, *extra)
        last = split_games(text)[-1]
        # Cut in the tags, and in the moves.
        for cut in (last.text.index("[Round"), len(last.text) // 2 + 40):
            records.write_text(text[:last.start + cut])
            code, out = replay(records)
            assert code == 1, (game, cut, out)
            assert "2 games, 1 with problems" in out, (game, cut, out)
            (line,) = [x for x in out.splitlines() if "cut off" in x]
            assert f"game at line {last.line}" in line and "cut off at the end of the file" in line


def _won_by_score(result: str, more_moves: int = 0, termination: str = "adjudication") -> GameRecord:
    """A Nim game adjudicated by ``win=500:2``: both engines score +6 for the first
    player on their last two moves (comments give each engine's own view)."""
    moves = ["1", "2", "1", "2"] + ["1"] * more_moves
    comments = ["+6.00/3 0.010s", "-7.00/3 0.010s", "+5.00/3 0.010s", "-6.00/3 0.010s"]
    comments += ["+1.00/3 0.010s"] * more_moves
    return GameRecord("nim", ("a", "b"), result, "12 1", moves, comments, termination,
                      "both engines score at least 500 for the first player",
                      {"Round": "1", "Adjudication": "win=500:2 maxplies=600"})


def test_adjudication_rules_are_applied_again():
    # Through the file format and back.
    sound = read_records(to_text(_won_by_score("1-0")))[0]
    assert check_ending(sound) == []
    assert "gives 1-0" in check_ending(read_records(to_text(_won_by_score("0-1")))[0])[0]
    assert "gives 1-0" in check_ending(_won_by_score("1/2-1/2"))[0]
    assert "end the game at ply 4" in check_ending(_won_by_score("1-0", more_moves=1))[0]
    # A game that ended normally while the rules should have stopped it earlier.
    assert "end the game at ply 4" in check_ending(_won_by_score("1-0", 1, "time forfeit"))[0]
    # Without the tag, the reason's words are checked.
    old = _won_by_score("0-1")
    del old.tags["Adjudication"]
    assert "gives 1-0" in check_ending(old)[0]
    capped = GameRecord("nim", ("a", "b"), "1-0", "12 1", ["1", "1"], ["0.010s", "0.010s"], "adjudication",
                        "draw at the 2-ply limit", {"Adjudication": "maxplies=2"})
    assert "gives 1/2-1/2" in check_ending(capped)[0]


def test_a_forfeit_scored_against_the_wrong_player_is_caught():
    # The second player was to move after "1" and lost on time: 1-0.
    rec = GameRecord("nim", ("a", "b"), "1-0", "12 1", ["1"], ["0.010s"], "time forfeit", "b loses on time")
    assert check_ending(rec) == []
    rec.result = "0-1"
    assert check_ending(rec) == ["time forfeit scored 0-1, but second was to move and forfeits"]
