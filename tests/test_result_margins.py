"""Scores where the game has one: reversi's discs beside the board during play and
in the result, Go's area result at the end of ``zermelo play`` (the saved SGF's
``RE``, by the game's own count), and the margin in a match's end reasons."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sgfmill import sgf

import games
from protocol.match.runner import main
from protocol.records import read_records, record_game
from protocol.terminal.boards import View, draw
from protocol.terminal.session import Session

RANDOM = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'scripts' / 'random_engine.py'}"


def session(game: str, **kwargs) -> Session:
    return Session(game, humans={0, 1}, post=lambda fn, *args: fn(*args), **kwargs)


def board_text(s: Session) -> str:
    return "".join(text for _, text in draw(View(s.game, s.position, mono=True)))


def test_reversi_shows_its_discs_during_play_and_at_the_end():
    s = session("reversi")
    assert "black 2" in board_text(s) and "white 2" in board_text(s)
    s.submit("d3")
    assert "black 4" in board_text(s) and "white 1" in board_text(s)
    full = session("reversi", start="X" * 40 + "O" * 24 + " X")
    assert full.is_over()
    assert full.result_text() == "1-0 black wins (black 40, white 24)"
    assert "black 40" in board_text(full)


def test_go_shows_the_saved_sgf_score_at_the_end(tmp_path):
    s = session("go", options={"go_size": "5"})
    for move in ("C3", "pass", "pass"):
        s.submit(move)
    assert s.is_over()
    assert s.result_text() == "1-0 black wins (B+25)"
    assert s.message == "game over: 1-0 black wins (B+25)"
    s.submit(f"save {tmp_path / 'g.sgf'}")
    root = sgf.Sgf_game.from_bytes((tmp_path / "g.sgf").read_bytes()).get_root()
    assert root.get("RE") == "B+25"


def test_kalah_result_gives_the_seeds():
    s = session("kalah", options={"kalah_pits": "3", "kalah_seeds": "1"})
    while not s.is_over():
        pos = s.position
        s.submit(pos.move_text(pos.legal_moves()[0]))
    assert re.fullmatch(r"\S+ (south wins|north wins|draw) \(south \d+, north \d+\)", s.result_text())


def final_position(rec):
    pos = record_game(rec).new_position(rec.start)
    for text in rec.moves:
        pos.push(pos.parse_move(text))
    return pos


def test_match_results_give_the_margin(tmp_path, capsys):
    for game, params in (("reversi", []), ("kalah", ["-p", "pits=4"]), ("go", ["-p", "size=5"])):
        records = tmp_path / f"{game}.rec"
        code = main(["--game", game, *params, "--games", "2", "--depth", "1", "--records", str(records),
                     "--adjudicate", "maxplies=400",
                     "--engine", f"cmd='{RANDOM} 1' name=r1", "--engine", f"cmd='{RANDOM} 2' name=r2"])
        out = capsys.readouterr().out
        assert code == 0, out
        for rec in read_records(records.read_text()):
            if rec.termination != "normal":
                continue
            # Go's as the referee scores it, the dead stones taken off (GTP's final_score).
            played, pos = games.load(game, **rec.params), final_position(rec)
            score = played.final_score(pos) or played.score_text(pos)
            assert score and rec.reason.endswith(f"({score})"), (rec.reason, score)
            assert f"({score})" in out
