"""The match runner drives GTP engines (protocol/match/gtp.py): Go games between GTP
engines and against a UCI zermelo, refereed by zermelo's rules, with the engines'
final scores compared with the referee's, and SGF records read back with sgfmill.

The GTP engines here are a small script over ``tests/go_simple.py`` (Go rules that
share no code with ``games/go``), written into the test's directory; it can also
play an illegal move, resign, give a wrong final score or answer the wrong protocol
version. GNU Go plays one game where it is installed."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from protocol.match.runner import main
from protocol.records import read_records, verify

TESTS = Path(__file__).resolve().parent
GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")

FAKE_GTP = '''
import random, sys
sys.path.insert(0, {tests!r})
from go_simple import SimpleGo

mode = sys.argv[1] if len(sys.argv) > 1 else "random"
rng = random.Random(7)
size, komi, game, own = 9, 0.0, None, 0

def score():
    black, white = game.area()
    margin = black - white - komi
    return "0" if margin == 0 else ("B" if margin > 0 else "W") + "+" + format(abs(margin), "g")

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    ident = words.pop(0) if words[0].isdigit() else ""
    cmd, args = words[0], words[1:]
    answer, ok = "", True
    if cmd == "quit":
        print("=" + ident + "\\n", flush=True)
        break
    if cmd == "protocol_version":
        answer = "1" if mode == "version" else "2"
    elif cmd == "boardsize":
        size = int(args[0])
    elif cmd == "komi":
        komi = float(args[0])
    elif cmd == "clear_board":
        game, own = SimpleGo(size, size), 0
    elif cmd == "play":
        game.play("pass" if args[1].lower() == "pass" else args[1].upper())
    elif cmd == "genmove":
        own += 1
        # Black builds a wall on column E, White on F, random points on the sides
        # first: no stone ends dead, so every count of the end agrees.
        wall = "E" if args[0].lower().startswith("b") else "F"
        side = [p for p in sorted(game.legal() - {{"pass"}}) if p[0] in ("AB" if wall == "E" else "HJ")]
        legal = [wall + str(own - 3)] if own > 3 else [rng.choice(side)] if side else []
        if mode == "invade" and own == 1:
            legal = ["B5"]  # inside Black's side: a stone left dead on the board
        legal = [p for p in legal if p in game.legal()]
        last_pass = game.passes > 0
        if mode == "crash" and own == 3:
            sys.exit(3)
        if mode == "resign" and own == 3:
            answer = "resign"
        elif mode == "illegal" and own == 3:
            answer = sorted(SimpleGo.name(pt) for pt in game.board)[0]
        elif last_pass or not legal:
            answer = "pass"
        else:
            answer = rng.choice(legal)
        if answer not in ("resign",) and not (mode == "illegal" and own == 3):
            game.play(answer)
    elif cmd in ("time_settings", "time_left"):
        pass
    elif cmd == "final_score":
        answer = "B+100" if mode == "wrong" else score()
    else:
        ok, answer = False, "unknown command"
    print(("=" if ok else "?") + ident + " " + answer + "\\n", flush=True)
'''


@pytest.fixture
def fake(tmp_path):
    script = tmp_path / "fake_gtp.py"
    script.write_text(FAKE_GTP.format(tests=str(TESTS)))

    def spec(name, mode="random"):
        return f"cmd='{sys.executable} {script} {mode}' name={name} protocol=gtp"
    return spec


def run(tmp_path, capsys, *argv, games=2):
    records, sgf_path = tmp_path / "games.rec", tmp_path / "games.sgf"
    code = main(["--game", "go", "--games", str(games), *argv, "--records", str(records), "--sgf", str(sgf_path),
                 "--log", str(tmp_path / "log.txt")])
    out = capsys.readouterr().out
    recs = read_records(records.read_text()) if records.exists() else []
    for rec in recs:
        assert verify(rec) == [], rec
    trees = sgf_trees(sgf_path)
    return code, out, recs, trees


def sgf_trees(path: Path) -> list:
    """The game trees of an SGF collection, each parsed by sgfmill."""
    if not path.exists():
        return []
    data, trees, depth, start = path.read_bytes(), [], 0, 0
    for i, byte in enumerate(data):
        if byte == ord("(") and depth == 0:
            start = i
        if byte in b"()":
            depth += 1 if byte == ord("(") else -1
            if depth == 0:
                trees.append(sgf.Sgf_game.from_bytes(data[start:i + 1]))
    return trees


def sgf_moves(tree) -> list[str]:
    from sgfmill import common
    out = []
    for node in tree.get_main_sequence()[1:]:
        colour, move = node.get_move()
        out.append("pass" if move is None else common.format_vertex(move))
    return out


def test_two_gtp_engines_play_go_with_final_scores_and_sgf(tmp_path, capsys, fake):
    code, out, recs, trees = run(tmp_path, capsys, "--movetime", "2000",
                                 "--engine", fake("alpha"), "--engine", fake("beta"))
    assert code == 0, out
    assert len(recs) == 2 and len(trees) == 2
    for rec, tree in zip(recs, trees):
        assert rec.termination == "normal" and rec.moves[-2:] == ["pass", "pass"]
        assert "FinalScore" in rec.tags
        assert rec.tags["GtpScores"].count("agrees") == 2, rec.tags
        root = tree.get_root()
        assert tree.get_size() == 9 and root.get("KM") == 7.5
        assert root.get("PB") == rec.players[0] and root.get("RE") == rec.tags["FinalScore"]
        assert sgf_moves(tree) == rec.moves
    assert "final scores of alpha against the referee's: 2 agree, 0 differ" in out
    log = (tmp_path / "log.txt").read_text()
    for command in ("boardsize 9", "komi 7.5", "clear_board", "time_settings 0 2 1", "time_left b 2 1",
                    "genmove b", "final_score"):
        assert command in log, command


def test_a_final_score_that_differs_is_counted(tmp_path, capsys, fake):
    code, out, recs, _ = run(tmp_path, capsys, "--movetime", "2000",
                             "--engine", fake("alpha"), "--engine", fake("liar", "wrong"))
    assert code == 0
    assert "final scores of liar against the referee's: 0 agree, 2 differ" in out
    assert all("liar B+100 differs" in rec.tags["GtpScores"] for rec in recs)


def test_the_referee_takes_the_dead_stones_off_as_final_score_does(tmp_path, capsys, fake):
    """White leaves a dead stone in Black's area and both pass: counted as the board
    stands (the engines here count so) White wins by 32.5, the stone and Black's
    region being White's and no one's; the referee scores as GTP's final_score does,
    the dead stone taken off, and Black wins by 1.5: the result, FinalScore and RE."""
    import games
    from games.go import score

    code, out, recs, trees = run(tmp_path, capsys, "--movetime", "2000", "--engine", fake("alpha"),
                                 "--engine", fake("invader", "invade"), games=1)
    assert code == 0, out
    rec, tree = recs[0], trees[0]
    game = games.load("go", **rec.params)
    pos = game.new_position()
    for move in rec.moves:
        pos.push(pos.parse_move(move))
    assert game.dead_stones(pos) == {(1, 4)}
    assert game.score_text(pos) == "W+32.5" and score.final_score(game, pos) == "B+1.5"
    assert rec.result == "1-0" and rec.tags["FinalScore"] == "B+1.5" == tree.get_root().get("RE")
    assert "(B+1.5)" in rec.reason
    assert rec.tags["GtpScores"] == "alpha W+32.5 differs; invader W+32.5 differs"


def test_a_resumed_match_counts_the_final_scores_of_every_game(tmp_path, capsys, fake):
    # The summary's agreement counts, like its results, cover the games read back by
    # --resume, from their GtpScores tags.
    engines = ("--movetime", "2000", "--engine", fake("alpha"), "--engine", fake("liar", "wrong"))
    code, out, recs, _ = run(tmp_path, capsys, *engines)
    assert code == 0 and len(recs) == 2
    code, out, recs, _ = run(tmp_path, capsys, *engines, "--resume", games=4)
    assert code == 0 and len(recs) == 4, out
    assert "resumed: 2 games" in out
    assert "final scores of alpha against the referee's: 4 agree, 0 differ" in out
    assert "final scores of liar against the referee's: 0 agree, 4 differ" in out


def test_an_illegal_gtp_move_loses(tmp_path, capsys, fake):
    code, out, recs, trees = run(tmp_path, capsys, "--movetime", "2000",
                                 "--engine", fake("alpha"), "--engine", fake("cheat", "illegal"))
    assert code == 0
    for rec, tree in zip(recs, trees):
        assert rec.termination == "rules infraction" and "cheat played the illegal move" in rec.reason
        cheat_black = rec.players[0] == "cheat"
        assert rec.result == ("0-1" if cheat_black else "1-0")
        assert tree.get_root().get("RE") == ("W+F" if cheat_black else "B+F")


def test_a_gtp_resignation_ends_the_game(tmp_path, capsys, fake):
    code, out, recs, trees = run(tmp_path, capsys, "--movetime", "2000",
                                 "--engine", fake("alpha"), "--engine", fake("quitter", "resign"))
    assert code == 0
    for rec, tree in zip(recs, trees):
        assert rec.termination == "resignation" and rec.reason.endswith("quitter resigns")
        quitter_black = rec.players[0] == "quitter"
        assert tree.get_root().get("RE") == ("W+R" if quitter_black else "B+R")
        assert "FinalScore" not in rec.tags


def test_a_gtp_engine_that_dies_forfeits_with_its_exit_code(tmp_path, capsys, fake):
    code, out, recs, _ = run(tmp_path, capsys, "--movetime", "2000",
                             "--engine", fake("alpha"), "--engine", fake("dead", "crash"), games=1)
    (rec,) = recs
    assert rec.termination == "abandoned", rec
    assert "dead: output closed (exit code 3)" in rec.reason, rec.reason


def test_a_wrong_protocol_version_is_a_failed_start(tmp_path, capsys, fake):
    code, out, recs, _ = run(tmp_path, capsys, "--movetime", "500", "--engine", fake("alpha"),
                             "--engine", fake("old", "version"), games=1)
    assert recs and recs[0].termination == "abandoned" and "protocol version '1'" in recs[0].reason


def test_zermelo_over_uci_against_a_gtp_engine(tmp_path, capsys, fake):
    zermelo = f"cmd='{sys.executable} -m protocol' name=zermelo option.Strategy=mcts"
    code, out, recs, trees = run(tmp_path, capsys, "--nodes", "40", "--movetime", "3000",
                                 "--engine", zermelo, "--engine", fake("alpha"))
    assert code == 0, out
    assert len(recs) == 2 and all(rec.result in ("1-0", "0-1", "1/2-1/2") for rec in recs)
    assert all(sgf_moves(tree) == rec.moves for rec, tree in zip(recs, trees))


def test_gtp_is_refused_for_other_games(capsys, fake):
    assert main(["--game", "connect4", "--movetime", "100", "--engine", fake("a"), "--engine", fake("b")]) == 2
    assert "GTP engines play Go" in capsys.readouterr().err


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed")
def test_gnu_go_plays_a_game(tmp_path, capsys, fake):
    gnugo = f"cmd='{GNUGO} --mode gtp --level 0 --chinese-rules' name=gnugo protocol=gtp"
    code, out, recs, trees = run(tmp_path, capsys, "--movetime", "5000", "--engine", gnugo,
                                 "--engine", fake("alpha"), games=1)
    assert code == 0, out
    assert recs[0].result in ("1-0", "0-1") and "gnugo" in recs[0].tags.get("GtpScores", "gnugo")


def sgf_rounds(path: Path) -> list[str]:
    return [tree.get_root().get("RO") for tree in sgf_trees(path)]


def test_resume_keeps_each_round_once_in_the_sgf_file(tmp_path, capsys, fake):
    # Interrupted after game 2 reached the SGF file but not the records: resuming plays
    # round 2 again, and the SGF file must not hold it twice (nor the records' rounds
    # it lacks, once a tree is cut off, not at all).
    engines = ("--movetime", "2000", "--engine", fake("alpha"), "--engine", fake("beta"))
    code, out, recs, _ = run(tmp_path, capsys, *engines)
    assert code == 0 and sgf_rounds(tmp_path / "games.sgf") == ["1", "2"]
    records = tmp_path / "games.rec"
    text = records.read_text()
    records.write_text(text[:text.index('[Game "go"]', 1)])
    code, out, recs, _ = run(tmp_path, capsys, *engines, "--resume", games=3)
    assert code == 0, out
    assert "games.sgf: 1 game tree(s) of rounds not in the records dropped" in out
    assert [rec.tags["Round"] for rec in recs] == ["1", "2", "3"]
    assert sgf_rounds(tmp_path / "games.sgf") == ["1", "2", "3"]
    # A tree cut off at the end and a round missing: the file is made whole from the records.
    sgf_path = tmp_path / "games.sgf"
    data = sgf_path.read_bytes()
    first_end = data.index(b")\n(") + 2
    sgf_path.write_bytes(data[:first_end] + data[data.rindex(b"(;"):][:40])
    code, out, recs, _ = run(tmp_path, capsys, *engines, "--resume", games=4)
    assert code == 0, out
    assert sgf_rounds(sgf_path) == ["1", "2", "3", "4"]
    for rec, tree in zip(recs, sgf_trees(sgf_path)):
        assert sgf_moves(tree) == rec.moves


def test_resume_refuses_an_sgf_file_of_another_match(tmp_path, capsys, fake):
    engines = ("--movetime", "2000", "--engine", fake("alpha"), "--engine", fake("beta"))
    assert run(tmp_path, capsys, *engines)[0] == 0
    sgf_path = tmp_path / "games.sgf"
    before = sgf_path.read_bytes().replace(b"EV[zermelo match]", b"EV[another]", 1)
    sgf_path.write_bytes(before)
    assert main(["--game", "go", "--games", "4", *engines, "--records", str(tmp_path / "games.rec"),
                 "--sgf", str(sgf_path), "--resume"]) == 2
    assert "is not one of this match's games" in capsys.readouterr().err
    assert sgf_path.read_bytes() == before
