"""The .zdata training-data file and ``zermelo datagen``'s self-play.

Connect Four's inputs here are a stand-in written in this file (a disc of the
side to move or of the other side on each of the 42 squares), so that the data
path is tested whatever network inputs the games themselves offer.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import signal
import struct
import subprocess
import sys
import time
from dataclasses import replace

import chess
import pytest

import games
from engine import nnue
from engine.game import is_proven
from engine.nnue_data import (DataFileError, DataWriter, Header, MAGIC, encode_record, iter_records, read,
                              read_progress, sidecar)
from engine.search import Searcher
from engine.timeman import Limits
from protocol import datagen_cli
from protocol.datagen_cli import Features, SelfPlay, Settings, generate, opening_of
from protocol.match.openings import Opening, load_openings
from protocol.records import rules_result
from tests.conftest import interruptible

HEADER = Header("connect4", "test-discs", 84)


def discs(pos) -> tuple[list[int], list[int]]:
    """Stand-in inputs: square + 42 * (0 own disc, 1 the other side's), from each side's view."""
    rows, mover = pos.to_text().split()
    cells = "".join(rows.split("/"))
    own = [i for i, c in enumerate(cells) if c == mover]
    theirs = [i for i, c in enumerate(cells) if c not in (".", mover)]
    return own + [42 + i for i in theirs], theirs + [42 + i for i in own]


FEATURES = Features("test-discs", 84, discs)


def test_records_round_trip(tmp_path):
    path = tmp_path / "a.zdata"
    games_in = [[([1, 2, 3], [4, 5], 120, 1), ([], [83], -40000, -1)], [([0], [0], 7, 0)]]
    with DataWriter(path, HEADER, {"nodes": 1}) as writer:
        writer.append(games_in[:1])
        writer.append(games_in[1:])
    assert (writer.games, writer.positions) == (2, 3)
    # The score is clipped to the i16 range the format keeps.
    assert list(iter_records(path)) == [([1, 2, 3], [4, 5], 120, 1), ([], [83], -32000, -1), ([0], [0], 7, 0)]
    data = read([path, path], game="connect4", features="test-discs")
    assert len(data) == 6 and data.header == HEADER
    assert data.stm_offsets.tolist() == [0, 3, 3, 4, 7, 7, 8]
    assert data.other[data.other_offsets[4]:data.other_offsets[5]].tolist() == [83]
    assert data.score.tolist() == [120, -32000, 7] * 2 and data.result.tolist() == [1, -1, 0] * 2


def _write(path, body: bytes, header: Header = HEADER) -> None:
    path.write_bytes(header.encode() + body)


@pytest.mark.parametrize("body, header_bytes, message", [
    (b"", b"NOTZD\x01", "not a zermelo training-data file"),
    (b"", MAGIC + b"\x07", "version 7"),
    (b"", MAGIC + b"\x01\x08conn", "truncated header"),
    (encode_record([1], [2], 3, 1)[:-1], None, "truncated record"),
    (encode_record([84], [2], 3, 1), None, "input 84, beyond the 84 inputs"),
    (encode_record([1], [2], 3, 1)[:-1] + b"\x05", None, "bad result"),
    (encode_record([1], [2], 0, 1)[:-3] + struct.pack("<hb", -32001, 0), None, "bad score"),
])
def test_bad_files_are_one_line_naming_the_file(tmp_path, body, header_bytes, message):
    path = tmp_path / "bad.zdata"
    if header_bytes is None:
        _write(path, encode_record([5], [6], 1, 0) + body)
    else:
        path.write_bytes(header_bytes)
    with pytest.raises(DataFileError) as info:
        read([path])
    text = str(info.value)
    assert message in text and str(path) in text and "\n" not in text


def test_files_of_other_games_or_inputs_are_refused(tmp_path):
    a, b = tmp_path / "a.zdata", tmp_path / "b.zdata"
    _write(a, b"")
    _write(b, b"", Header("connect4", "test-discs", 90))
    with pytest.raises(DataFileError, match="unlike the files before it"):
        read([a, b])
    with pytest.raises(DataFileError, match="data of connect4, not chess"):
        read([a], game="chess")
    with pytest.raises(DataFileError, match="cannot read"):
        read([tmp_path / "missing.zdata"])


def test_reader_reads_only_committed_bytes_and_writer_cuts_the_rest(tmp_path):
    path = tmp_path / "a.zdata"
    with DataWriter(path, HEADER, {"nodes": 1}) as writer:
        writer.append([[([1], [2], 3, 1)]])
    committed = path.stat().st_size
    # A chunk written but never counted (killed before the sidecar was replaced).
    with open(path, "ab") as f:
        f.write(encode_record([7], [8], 9, 0) + b"\x01")
    assert list(iter_records(path)) == [([1], [2], 3, 1)]
    with DataWriter(path, HEADER, {"nodes": 1}) as writer:
        assert path.stat().st_size == committed and writer.games == 1
        writer.append([[([4], [5], 6, -1)]])
    assert list(iter_records(path)) == [([1], [2], 3, 1), ([4], [5], 6, -1)]
    assert read_progress(path)["games"] == 2


def test_writer_refuses_other_settings_and_files_without_progress(tmp_path):
    path = tmp_path / "a.zdata"
    DataWriter(path, HEADER, {"nodes": 1}).close()
    with pytest.raises(DataFileError, match=r"nodes 1 \(now 2\)"):
        DataWriter(path, HEADER, {"nodes": 2})
    with pytest.raises(DataFileError, match="not test-discs/connect4|holds connect4/test-discs data with 84"):
        DataWriter(path, Header("connect4", "test-discs", 90), {"nodes": 1})
    sidecar(path).unlink()
    with pytest.raises(DataFileError, match="exists without its progress file"):
        DataWriter(path, HEADER, {"nodes": 1})
    sidecar(path).write_text(json.dumps({"games": "x"}))
    with pytest.raises(DataFileError, match="not a progress file"):
        read([path])


SETTINGS = Settings(nodes=300, random_plies=4, seed=7, max_plies=60, hash_mb=1)


def _played(count: int) -> list:
    worker = SelfPlay("connect4", {}, SETTINGS, FEATURES)
    game = games.load("connect4")
    return [worker.play(opening_of(game, [Opening()], SETTINGS, i)) for i in range(count)]


def test_results_are_from_the_movers_view_of_the_replayed_game():
    game = games.load("connect4")
    results = set()
    for i, played in enumerate(_played(6)):
        opening = opening_of(game, [Opening()], SETTINGS, i)
        assert len(opening.moves) == 4
        pos = game.new_position()
        for text in opening.moves + tuple(played.moves):
            pos.push(pos.parse_move(text))
        ended = rules_result(pos)
        if ended is None:
            # The game was cut where a search proved it: a longer one agrees on the winner.
            score = Searcher(1).search(game, pos, Limits(nodes=20000)).score
            assert is_proven(score)
            ended = 1 if (score > 0) == (pos.turn == 0) else -1
        assert played.result == ended
        results.add(ended)
        for stm, other, score, result in played.records:
            # Equal disc counts: the first player is to move.
            first_to_move = sum(1 for x in stm if x < 42) == sum(1 for x in stm if x >= 42)
            assert result == (ended if first_to_move else -ended)
            assert sorted(other) == sorted((x + 42) % 84 for x in stm)
            assert not is_proven(score)
    assert len(results) > 1, "the games all ended alike"


def chess_pieces(pos) -> tuple[list[int], list[int]]:
    """Stand-in chess inputs by python-chess: colour-relative piece and square (768)."""
    board = chess.Board(pos.to_text())

    def view(side: bool) -> list[int]:
        return sorted(64 * (6 * (piece.color != side) + piece.piece_type - 1) + (sq if side else sq ^ 56)
                      for sq, piece in board.piece_map().items())

    return view(board.turn), view(not board.turn)


def test_only_quiet_positions_are_kept():
    # Chess, checked by python-chess: a position is dropped when in check or when the
    # move played from it (the search's best) captures or promotes.
    settings = Settings(nodes=300, random_plies=2, seed=3, max_plies=40, hash_mb=1)
    game = games.load("chess")
    worker = SelfPlay("chess", {}, settings, Features("test-pieces", 768, chess_pieces))
    openings = load_openings(None, "chess")
    dropped = kept = 0
    for i in range(3):
        opening = opening_of(game, openings, settings, i)
        played = worker.play(opening)
        board = chess.Board()
        for text in opening.moves:
            board.push_uci(text)
        quiet = []
        for text in played.moves:
            move = chess.Move.from_uci(text)
            if board.is_check() or board.is_capture(move) or move.promotion:
                dropped += 1
            else:
                quiet.append(chess_pieces(game.new_position(board.fen()))[0])
            board.push(move)
        assert [r[0] for r in played.records] == quiet
        kept += len(quiet)
    assert dropped and kept


def test_generate_resumes_without_duplicating_and_matches_one_run(tmp_path):
    whole, parts = tmp_path / "whole.zdata", tmp_path / "parts.zdata"
    generate("connect4", str(whole), games_total=5, settings=SETTINGS, features=FEATURES, concurrency=2, chunk=2)
    generate("connect4", str(parts), games_total=2, settings=SETTINGS, features=FEATURES, concurrency=1, chunk=2)
    assert read_progress(parts)["games"] == 2
    # A torn chunk at the end, as a kill between write and sidecar would leave.
    with open(parts, "ab") as f:
        f.write(b"\x02\x03\x04")
    generate("connect4", str(parts), games_total=5, settings=SETTINGS, features=FEATURES, concurrency=2, chunk=2)
    assert parts.read_bytes() == whole.read_bytes()
    expected = [r for p in _played(5) for r in p.records]
    assert list(iter_records(whole)) == expected
    again = generate("connect4", str(parts), games_total=3, settings=SETTINGS, features=FEATURES)
    assert again.games == 5 and parts.read_bytes() == whole.read_bytes()


def test_a_network_plays_and_scores_with_eval_file(tmp_path, capsys):
    # The shipped reversi network: its games and scores are not the hand-written
    # evaluation's, the file's digest is in the sidecar, and a resume without it is refused.
    net = nnue.shipped("reversi")
    settings = Settings(nodes=300, random_plies=4, seed=3, max_plies=70, hash_mb=1)
    by_hand, by_net = tmp_path / "hand.zdata", tmp_path / "net.zdata"
    generate("reversi", str(by_hand), games_total=2, settings=settings)
    generate("reversi", str(by_net), games_total=2, settings=replace(settings, eval_file=str(net)))
    assert list(iter_records(by_hand)) != list(iter_records(by_net))
    digest = hashlib.sha256(net.read_bytes()).hexdigest()
    assert read_progress(by_net)["settings"]["eval_file_sha256"] == digest
    with pytest.raises(DataFileError, match="eval_file_sha256"):
        generate("reversi", str(by_net), games_total=3, settings=settings)
    out = tmp_path / "x.zdata"
    assert datagen_cli.main(["reversi", "--games", "1", "--nodes", "10", "--out", str(out),
                             "--eval-file", str(nnue.shipped("checkers"))]) == 1
    assert "for the game 'checkers'" in capsys.readouterr().err
    assert not out.exists()


def test_cli_errors_are_one_line(tmp_path, capsys):
    out = tmp_path / "x.zdata"
    assert datagen_cli.main(["nim", "--games", "1", "--nodes", "10", "--out", str(out)]) == 1
    assert "has no network inputs" in capsys.readouterr().err
    assert datagen_cli.main(["nosuchgame", "--games", "1", "--nodes", "10", "--out", str(out)]) == 1
    assert "nosuchgame" in capsys.readouterr().err
    assert datagen_cli.main(["rolit", "--games", "1", "--nodes", "10", "--out", str(out)]) == 1
    assert "two-player" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        datagen_cli.main(["connect4", "--games", "0", "--nodes", "10", "--out", str(out)])
    assert not out.exists()


REPO = pathlib.Path(__file__).resolve().parent.parent


def _datagen(out, games_total: int, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "protocol", "datagen", "chess", "--games", str(games_total),
                             "--nodes", "100", "--max-plies", "12", "--random-plies", "2", "--chunk", "1",
                             "--concurrency", "1", "--out", str(out)], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=interruptible, **kwargs)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_ctrl_c_keeps_the_games_written_and_the_run_resumes(tmp_path, stop):
    out, fresh = tmp_path / "a.zdata", tmp_path / "b.zdata"
    proc = _datagen(out, 10_000)
    deadline = time.monotonic() + 600
    while (read_progress(out) or {}).get("games", 0) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.2)
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    done = read_progress(out)["games"]
    assert len(list(iter_records(out))) == read_progress(out)["positions"]
    for path in (out, fresh):
        proc = _datagen(path, done + 1)
        stdout, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert f"{done + 1} games" in stdout
    assert out.read_bytes() == fresh.read_bytes()
