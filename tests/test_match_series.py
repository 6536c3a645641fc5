"""A match's records file is never lost: an existing file is refused unless the
match resumes it (every game kept byte for byte, only the missing ones played) or
is told to replace it; a foreign file given to --resume is left untouched; a match
interrupted with Ctrl-C or killed outright and resumed ends with every game
recorded exactly once. The matches run as ``zermelo match`` subprocesses."""

from __future__ import annotations

import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import chess
import chess.pgn

from protocol.match.recordfile import split_games
from protocol.records import read_records, to_text
from tests.conftest import interruptible

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAKE = pathlib.Path(__file__).parent / "fake_engines"


def engines(delay_ms: int = 0) -> list[str]:
    script = FAKE / ("sleepy.py" if delay_ms else "hasher.py")
    extra = f" {delay_ms}" if delay_ms else ""
    return ["--engine", f"cmd='{sys.executable} {script} 1{extra}' name=a",
            "--engine", f"cmd='{sys.executable} {script} 2{extra}' name=b"]


def match_argv(records, n_games: int, *extra, delay_ms: int = 0, game: str = "tictactoe") -> list[str]:
    return [sys.executable, "-m", "protocol", "match", "--game", game, "--games", str(n_games),
            "--nodes", "1", "--random-plies", "2", "--seed", "3", "--pgn", str(records),
            *engines(delay_ms), *extra]


def zermelo_match(records, n_games: int, *extra, game: str = "tictactoe") -> subprocess.CompletedProcess:
    return subprocess.run(match_argv(records, n_games, *extra, game=game), cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def rounds(path) -> list[str]:
    return re.findall(r'^\[Round "([^"]*)"\]', pathlib.Path(path).read_text(), re.M)


def games_by_round(path) -> dict[str, tuple]:
    recs = read_records(pathlib.Path(path).read_text())
    return {r.tags["Round"]: (r.players, r.result, r.moves) for r in recs}


def own_pgn() -> bytes:
    """A PGN of one's own games, as a GUI writes them: no rounds."""
    out = []
    for round_tag, moves in (("?", ["e4", "e5", "Nf3"]), ("-", ["d4", "d5"])):
        game = chess.pgn.Game()
        game.headers.update(Event="Casual game", White="me", Black="friend", Round=round_tag, Result="*")
        node = game
        for san in moves:
            node = node.add_variation(node.board().parse_san(san))
        out.append(str(game))
    return ("\n\n".join(out) + "\n").encode()


def test_an_existing_file_is_refused_unless_resumed_or_replaced(tmp_path):
    records = tmp_path / "games.txt"
    records.write_bytes(b"notes that are not games\n")
    proc = zermelo_match(records, 2)
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(records) in lines[0] and "--force" in lines[0], proc.stderr
    assert records.read_bytes() == b"notes that are not games\n"
    # --force replaces it with the match's games.
    proc = zermelo_match(records, 2, "--force")
    assert proc.returncode == 0, proc.stderr
    assert rounds(records) == ["1", "2"] and "notes" not in records.read_text()
    # An empty file (from mktemp, say) is a new file.
    empty = tmp_path / "empty.txt"
    empty.touch()
    assert zermelo_match(empty, 2).returncode == 0 and rounds(empty) == ["1", "2"]


def test_resume_leaves_a_foreign_pgn_untouched(tmp_path):
    records = tmp_path / "mine.pgn"
    records.write_bytes(own_pgn())
    proc = zermelo_match(records, 4, "--resume", game="chess")
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "mine.pgn" in lines[0] and "Round '?'" in lines[0], proc.stderr
    assert records.read_bytes() == own_pgn()
    # A records file of another match (other engines) is refused the same way.
    other = tmp_path / "other.txt"
    assert zermelo_match(other, 2).returncode == 0
    before = other.read_bytes()
    proc = subprocess.run([a.replace("name=b", "name=c") for a in match_argv(other, 4, "--resume")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "not this match's" in proc.stderr
    assert other.read_bytes() == before


def test_resume_keeps_every_game_and_only_adds(tmp_path):
    full = tmp_path / "full.txt"
    assert zermelo_match(full, 10).returncode == 0
    records = tmp_path / "games.txt"
    assert zermelo_match(records, 6).returncode == 0
    six = records.read_bytes()
    # A smaller --games deletes nothing: the file is refused as it is.
    proc = zermelo_match(records, 4, "--resume")
    assert proc.returncode == 2 and "Round '5'" in proc.stderr and records.read_bytes() == six
    # A larger one keeps the six games byte for byte and adds four.
    proc = zermelo_match(records, 10, "--resume")
    assert proc.returncode == 0, proc.stderr
    assert "resumed: 6 games" in proc.stdout and "4 to play" in proc.stdout
    assert records.read_bytes().startswith(six)
    assert sorted(rounds(records), key=int) == [str(i) for i in range(1, 11)]
    assert games_by_round(records) == games_by_round(full)
    # Everything played: resuming again plays nothing and changes nothing.
    done = records.read_bytes()
    proc = zermelo_match(records, 10, "--resume")
    assert proc.returncode == 0 and "0 to play" in proc.stdout and records.read_bytes() == done


def test_a_half_pair_and_a_game_cut_off_at_the_end(tmp_path):
    full = tmp_path / "full.txt"
    assert zermelo_match(full, 8).returncode == 0
    text = full.read_text()
    found = split_games(text)
    # Five whole games (pair 3 half played), then the start of the sixth, as a crash
    # in the middle of writing it would leave.
    kept = text[:found[5].start]
    records = tmp_path / "games.txt"
    records.write_text(kept + found[5].text[:len(found[5].text) // 2])
    proc = zermelo_match(records, 8, "--resume")
    assert proc.returncode == 0, proc.stderr
    assert "cut off at its end (line" in proc.stdout and "resumed: 5 games" in proc.stdout
    after = records.read_text()
    assert after.startswith(kept)
    assert sorted(rounds(records), key=int) == [str(i) for i in range(1, 9)]
    assert games_by_round(records) == games_by_round(full)
    # Totals as the uninterrupted match's.
    assert proc.stdout.splitlines()[-3:] == zermelo_match(tmp_path / "again.txt", 8).stdout.splitlines()[-3:]


def test_a_records_file_of_another_writer_without_a_trailing_blank_line(tmp_path):
    full = tmp_path / "full.txt"
    assert zermelo_match(full, 4).returncode == 0
    recs = read_records(full.read_text())
    records = tmp_path / "games.txt"
    # The first two games, the last one without its final newlines (an editor's save).
    records.write_text("".join(to_text(r) for r in recs[:2]).rstrip("\n"))
    before = records.read_bytes()
    assert zermelo_match(records, 4, "--resume").returncode == 0
    assert records.read_bytes().startswith(before)
    assert games_by_round(records) == games_by_round(full)


def _whole_games(path) -> int:
    if not path.exists():
        return 0
    return sum(1 for g in split_games(path.read_text()) if g.whole)


def test_interrupted_and_killed_then_resumed_every_game_once(tmp_path):
    n_games = 12
    reference = tmp_path / "reference.txt"
    assert zermelo_match(reference, n_games).returncode == 0
    records = tmp_path / "games.txt"
    left = ""
    for k, how in enumerate((signal.SIGINT, signal.SIGKILL, signal.SIGINT, signal.SIGKILL)):
        start = _whole_games(records)
        argv = match_argv(records, n_games, *(["--resume"] if k else []), delay_ms=30)
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=interruptible)
        try:
            deadline = time.monotonic() + 120
            # Stopped with a pair half played: its first game must be kept, the second played.
            while time.monotonic() < deadline and proc.poll() is None \
                    and not (_whole_games(records) > start and _whole_games(records) % 2):
                time.sleep(0.02)
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)  # into the next game
            before = records.read_text()
            # What the last run left is kept byte for byte (the half-played pair's game too).
            assert before.startswith(left)
            proc.send_signal(how)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if how == signal.SIGINT:
            assert proc.returncode == 130 and "match interrupted" in out, (out, err)
        else:
            assert proc.returncode == -signal.SIGKILL
        # Nothing written before the signal is lost or changed.
        left = records.read_text()
        assert left.startswith(before)
    proc = subprocess.run(match_argv(records, n_games, "--resume", delay_ms=30), cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert records.read_text().startswith(left)
    assert sorted(rounds(records), key=int) == [str(i) for i in range(1, n_games + 1)]
    assert games_by_round(records) == games_by_round(reference)
    assert subprocess.run([sys.executable, "-m", "protocol", "match", "--replay", str(records)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120).returncode == 0


def test_two_matches_on_one_file_are_refused(tmp_path):
    records = tmp_path / "games.txt"
    proc = subprocess.Popen(match_argv(records, 8, delay_ms=30), cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while _whole_games(records) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        second = zermelo_match(records, 8, "--resume")
        assert second.returncode == 2 and "another match is writing it" in second.stderr
    finally:
        proc.kill()
        proc.communicate()
