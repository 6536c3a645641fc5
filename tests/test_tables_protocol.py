"""Defective table files over real pipes (``python -m protocol``): each is refused with
one ``info string error`` line naming it, when the option is set or as soon as the
background load meets it (without a go), and play goes on with a real search."""

from __future__ import annotations

import os
import re
import shutil

import chess
import pytest

from games.chess.tables import ChessTables
from games.kalah import retro as kr
from tests.conftest import SYZYGY_DIR
from tests.test_protocol import Pipe, legal_texts
from tests.test_tables_hardening import xz_bomb

#: Seconds a server may take to answer (generous: the machine is shared; no timing is asserted).
WAIT = 60.0


@pytest.fixture
def pipe():
    p = Pipe()
    yield p
    try:
        p.send("quit")
        assert p.proc.wait(WAIT) == 0  # quit is honoured whatever the tables are doing
    finally:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()
    assert not b"".join(p.err), b"".join(p.err).decode()


@pytest.fixture(scope="module")
def krk(tmp_path_factory):
    """A real KRvK table file."""
    directory = tmp_path_factory.mktemp("krk")
    ChessTables(directory, build=True).build("KRvK")
    return directory / "chess-KRvK.ztb"


def start(pipe: Pipe, variant: str = "chess") -> None:
    pipe.handshake()
    pipe.send(f"setoption name UCI_Variant value {variant}", "isready")
    pipe.until("readyok$")


def set_and_ready(pipe: Pipe, option: str, value) -> list[str]:
    """Set ``option`` and return the error lines that come before ``readyok``."""
    pipe.send(f"setoption name {option} value {value}", "isready")
    return [line for line in pipe.until("readyok$", WAIT) if line.startswith("info string error")]


def searched(pipe: Pipe, text: str, legal: set[str], go: str = "go movetime 300") -> list[str]:
    """Search ``text`` (a FEN or a position text): a real search (info lines of
    several depths) and a legal bestmove."""
    pipe.send(f"position fen {text}", go)
    lines = pipe.until("bestmove ", WAIT)
    depths = {int(m.group(1)) for line in lines if (m := re.match(r"info depth (\d+) ", line))}
    assert len(depths) >= 2, lines
    assert lines[-1].split()[1] in legal, lines
    return lines


def chess_legal(fen: str) -> set[str]:
    return {m.uci() for m in chess.Board(fen).legal_moves}


def test_a_syzygy_file_of_another_material_is_refused_when_the_path_is_set(pipe, tmp_path):
    for path in SYZYGY_DIR.iterdir():
        if not path.name.startswith("KBNvK."):
            shutil.copy(path, tmp_path / path.name)
    for suffix in (".rtbw", ".rtbz"):
        shutil.copy(SYZYGY_DIR / f"KRvK{suffix}", tmp_path / f"KBNvK{suffix}")
    start(pipe)
    errors = set_and_ready(pipe, "SyzygyPath", tmp_path)
    assert len(errors) == 2, errors
    assert {re.search(r"KBNvK\.rtb[wz]", e).group(0) for e in errors} == {"KBNvK.rtbw", "KBNvK.rtbz"}
    assert all(str(tmp_path) in e and "not KBNvK" in e for e in errors), errors
    fen = "8/8/8/4k3/8/8/8/KBN5 w - - 0 1"
    lines = searched(pipe, fen, chess_legal(fen))
    assert not any("error" in line for line in lines), lines
    # stop brings the bestmove of an infinite search.
    pipe.send(f"position fen {fen}", "go infinite")
    pipe.until("info depth 2 ", WAIT)
    pipe.send("stop")
    assert pipe.until("bestmove ", WAIT)[-1].split()[1] in chess_legal(fen)
    # The other tables are still in use: KRvK is a Syzygy win at the root.
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    pipe.send(f"position fen {fen}", "go movetime 300")
    lines = pipe.until("bestmove ", WAIT)
    assert any("tbhits" in line and " tbhits 0" not in line for line in lines), lines


def test_a_syzygy_file_whose_checksum_fails_is_refused_and_not_probed(pipe, tmp_path):
    """A byte of KQvKR.rtbw's body flipped (size, magic and header intact, so the header
    check passes): its checksum refuses it with one error line naming it, the other
    tables are still used, and a KQvKR position is searched without its table."""
    shutil.copytree(SYZYGY_DIR, tmp_path, dirs_exist_ok=True)
    corrupt = tmp_path / "KQvKR.rtbw"
    os.chmod(corrupt, 0o644)
    data = bytearray(corrupt.read_bytes())
    data[len(data) // 2] ^= 0x10
    corrupt.write_bytes(bytes(data))
    start(pipe)
    # Verified in the background after isready: the line may come before readyok or after.
    errors = set_and_ready(pipe, "SyzygyPath", tmp_path) or [pipe.until("info string error", WAIT)[-1]]
    assert len(errors) == 1, errors
    assert f"SyzygyPath: {corrupt}: " in errors[0] and "checksum" in errors[0], errors
    assert errors[0].endswith("; playing on without it"), errors
    # Another material: KRvK is a Syzygy win at the root, with its table's score.
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    pipe.send(f"position fen {fen}", "go movetime 300")
    lines = pipe.until("bestmove ", WAIT)
    assert any(re.search(r" score (mate \d+|cp \d{4,}) ", line) and " tbhits 0" not in line for line in lines), lines
    assert not any("error" in line for line in lines), lines
    # The corrupt material is not answered from its table: a real search, a legal move.
    fen = "8/8/8/4k3/8/2r5/8/1Q2K3 w - - 0 1"
    lines = searched(pipe, fen, chess_legal(fen))
    assert not any("error" in line for line in lines), lines


def test_a_chess_table_of_another_class_is_refused_when_the_path_is_set(pipe, tmp_path, krk):
    shutil.copy(krk, tmp_path / "chess-KQvK.ztb")
    shutil.copy(krk, tmp_path / "chess-KRvK.ztb")
    start(pipe)
    errors = set_and_ready(pipe, "TablePath", tmp_path)
    assert len(errors) == 1 and "chess-KQvK.ztb" in errors[0] and "KRvK" in errors[0], errors
    fen = "8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1"
    lines = searched(pipe, fen, chess_legal(fen))
    assert not any("error" in line for line in lines), lines
    # The table of its own class is used: the root answers from it with the mate distance.
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    wdl, plies = ChessTables(tmp_path).probe(fen)
    pipe.send(f"position fen {fen}", "go movetime 300")
    assert any(f" score mate {(plies + 1) // 2} " in line for line in pipe.until("bestmove ", WAIT))


def test_a_deeply_nested_header_is_refused_and_the_search_runs(pipe, tmp_path, krk):
    data = krk.read_bytes()
    (length,) = (int.from_bytes(data[8:12], "little"),)
    nested = b"[" * 50_000 + b"]" * 50_000
    (tmp_path / "chess-KRvK.ztb").write_bytes(data[:8] + len(nested).to_bytes(4, "little") + nested
                                              + data[12 + length:])
    start(pipe)
    errors = set_and_ready(pipe, "TablePath", tmp_path)
    assert len(errors) == 1 and "chess-KRvK.ztb" in errors[0], errors
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    lines = searched(pipe, fen, chess_legal(fen))
    assert not any("error" in line for line in lines), lines


def test_a_corrupt_chess_table_is_reported_by_the_background_load(pipe, tmp_path, krk):
    data = bytearray(krk.read_bytes())
    data[-1000] ^= 0x01  # the header is sound: the checksum finds it
    (tmp_path / "chess-KRvK.ztb").write_bytes(bytes(data))
    start(pipe)
    assert set_and_ready(pipe, "TablePath", tmp_path) == []
    line = pipe.until("info string error", WAIT)[-1]
    assert "chess-KRvK.ztb" in line and "CRC-32" in line, line
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    lines = searched(pipe, fen, chess_legal(fen))
    assert not any("error" in line for line in lines), lines


def kalah_table(directory, seeds: int = 5) -> os.PathLike:
    path = kr.table_path(directory, 6, seeds, False)
    kr.write_table(path, kr.solve(6, seeds), 6, seeds, False)
    return path


KALAH_START = "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1"


def test_a_broken_kalah_table_is_reported_without_a_go(pipe, tmp_path):
    path = kalah_table(tmp_path)
    data = bytearray(path.read_bytes())
    data[-100] ^= 0x01  # the header is sound: the checksum finds it
    path.write_bytes(bytes(data))
    start(pipe, "kalah")
    assert set_and_ready(pipe, "TablePath", tmp_path) == []
    # The background load (isready) meets the defect: reported with no go asked.
    line = pipe.until("info string error", WAIT)[-1]
    assert path.name in line and "CRC-32" in line, line
    pipe.send("isready")
    assert not any("error" in line for line in pipe.until("readyok$", WAIT))
    searched(pipe, KALAH_START, legal_texts("kalah", KALAH_START))


def test_a_kalah_xz_bomb_is_refused_in_bounded_memory(pipe, tmp_path):
    """A 150 KB file that expands to half a gigabyte: read no further than its
    header's payload, refused with one line, the server's memory stays small."""
    plain = kalah_table(tmp_path / "plain")
    bomb = tmp_path / (plain.name + ".xz")
    bomb.write_bytes(xz_bomb(plain.read_bytes(), 512))
    start(pipe, "kalah")
    assert set_and_ready(pipe, "TablePath", tmp_path) == []
    line = pipe.until("info string error", WAIT)[-1]
    assert bomb.name in line and "trailing bytes" in line, line
    peak_kb = int(re.search(r"VmHWM:\s+(\d+) kB", open(f"/proc/{pipe.proc.pid}/status").read()).group(1))
    assert peak_kb < 300_000, peak_kb
    searched(pipe, KALAH_START, legal_texts("kalah", KALAH_START))


def test_a_fifo_as_table_is_refused_and_play_goes_on(pipe, tmp_path):
    """A named pipe would block its reader for ever: refused unopened when the path
    is set; isready, go and quit are answered."""
    fifo = kr.table_path(tmp_path, 6, 5, False)
    os.mkfifo(fifo)
    start(pipe, "kalah")
    errors = set_and_ready(pipe, "TablePath", tmp_path)
    assert len(errors) == 1 and fifo.name in errors[0] and "not a regular file" in errors[0], errors
    searched(pipe, KALAH_START, legal_texts("kalah", KALAH_START))
