"""Book files byte for byte: every ``zermelo book`` command that writes a file
(a build by search, from game records and from a Polyglot book, learn, merge
and export) run on small inputs and compared with the files the same commands
wrote when these fixtures were made, so that a change in what a book holds or
in the order it is written shows here.

The searches are depth-limited with one process, so their results do not depend
on the machine's speed or on the order of the work. After a deliberate change
of the book files, regenerate the fixtures with
``ZERMELO_BOOK_FIXTURES=write python -m pytest tests/test_book_files.py``.
"""

from __future__ import annotations

import os
import pathlib
import shutil


from protocol.book_cli import main
from tests.conftest import POLYGLOT_BOOK

DATA = pathlib.Path(__file__).parent / "data" / "books"
WRITE = os.environ.get("ZERMELO_BOOK_FIXTURES") == "write"

# name of the file written -> the command line that writes it, in order (later ones read earlier files).
COMMANDS: list[tuple[str, list[str]]] = [
    ("tictactoe.zbook", ["build", "tictactoe", "--plies", "3", "--depth", "3", "--max-moves", "3", "2",
                         "--margin", "50", "--replies", "--full-plies", "1", "--jobs", "1"]),
    ("mnk.zbook", ["build", "mnk", "--param", "m=4", "--param", "n=4", "--param", "k=3", "--plies", "2",
                   "--depth", "2", "--max-moves", "2", "--jobs", "1"]),
    ("connect4.zbook", ["build", "connect4", "--plies", "2", "--depth", "3", "--max-moves", "3", "--margin", "1", "--replies",
                        "--jobs", "1"]),
    ("chess-games.zbook", ["build", "chess", "--source", "games", "--input", "{data}/games.pgn", "--plies", "12",
                           "--min-games", "1", "--min-score", "0"]),
    ("checkers-games.zbook", ["build", "checkers", "--source", "games", "--input", "{data}/checkers.pdn",
                              "--plies", "10", "--min-games", "1", "--min-score", "0.3"]),
    ("chess-polyglot.zbook", ["build", "chess", "--source", "polyglot", "--input", str(POLYGLOT_BOOK), "--plies", "2",
                              "--max-moves", "4", "--keep-share", "0.7"]),
    ("checkers-learned.zbook", ["learn", "{copy:checkers-games.zbook}", "--input", "{data}/checkers.pdn",
                                "--min-games", "1"]),
    ("chess-learned.zbook", ["learn", "{copy:chess-games.zbook}", "--input", "{data}/games.pgn", "--plies", "8"]),
    ("chess-merged.zbook", ["merge", "{out}", "{tmp}/chess-games.zbook", "{tmp}/chess-learned.zbook",
                            "{tmp}/chess-polyglot.zbook"]),
    ("chess-games.bin", ["export", "{tmp}/chess-merged.zbook", "--plies", "6"]),
]


def _argv(name: str, argv: list[str], tmp: pathlib.Path) -> list[str]:
    out = []
    for arg in argv:
        if arg.startswith("{copy:"):
            # learn rewrites its book in place: it works on a copy of an earlier output.
            shutil.copy(tmp / arg[len("{copy:"):-1], tmp / name)
            arg = "{out}"
        out.append(arg.format(data=DATA, tmp=tmp, out=tmp / name))
    if argv[0] in ("build", "export"):
        out += ["--out", str(tmp / name)]
    return out


def test_book_commands_write_the_same_files(tmp_path, capsys):
    differ = []
    for name, argv in COMMANDS:
        assert main(_argv(name, argv, tmp_path)) == 0, (name, capsys.readouterr().err)
        written = (tmp_path / name).read_bytes()
        fixture = DATA / name
        if WRITE:
            fixture.write_bytes(written)
        elif written != fixture.read_bytes():
            differ.append(name)
    assert not differ, f"book files differ from the fixtures: {differ}"
