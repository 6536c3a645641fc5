"""Table files are untrusted: every defect found on opening is a :class:`TableError`
naming the file, and a file is used only in the role its header declares. Also
``zermelo tables info`` on both sides of a class."""

from __future__ import annotations

import json
import lzma
import os
import struct
import threading
import tracemalloc

import numpy as np
import pytest

from engine import tablefile
from protocol import cli


def test_info_shows_the_losing_sides_longest_loss(tmp_path, capsys):
    assert cli.main(["tables", "build", "chess", "KRK", "--out", str(tmp_path), "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["tables", "info", str(tmp_path / "chess-KRvK.ztb")]) == 0
    lines = capsys.readouterr().out.splitlines()
    white = next(line for line in lines if "white to move:" in line)
    black = next(line for line in lines if "black to move:" in line)
    assert "longest win 31 plies (mate in 16)" in white and "longest loss" not in white
    # Black never wins KRvK: its longest loss is what the table tells about it.
    assert "longest loss 32 plies (mated in 16)" in black and "longest win" not in black


# -- the file format ------------------------------------------------------------------

def _write(tmp_path, name="t.ztb", entries=8, **header):
    values = np.arange(entries, dtype=np.int16) % 7 - 3
    return tablefile.write(tmp_path / name, values, game="demo", material="X", stm_convention="single",
                           extra={"sides": 1, **header})


def _with_header(path, text: bytes, length: int | None = None):
    """``path`` with its JSON header replaced by ``text`` (the length field ``length``)."""
    data = path.read_bytes()
    (old,) = struct.unpack("<I", data[8:12])
    path.write_bytes(data[:8] + struct.pack("<I", len(text) if length is None else length)
                     + text + data[12 + old:])


def test_a_deeply_nested_header_is_a_table_error(tmp_path):
    path = _write(tmp_path)
    _with_header(path, b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(tablefile.TableError, match="nested"):
        tablefile.open_table(path)
    # Nesting inside strings is text, not structure.
    path = _write(tmp_path, note="[[[[[[[[{{{{{{{{")
    assert tablefile.open_table(path).header["note"] == "[[[[[[[[{{{{{{{{"


def test_an_overlong_header_is_refused_before_it_is_read(tmp_path):
    """The header's length field comes from the file: a compressed file claiming a
    4 GB header is refused before anything is decompressed."""
    path = _write(tmp_path)
    _with_header(path, b"{}", length=0xFFFFFFF0)
    with pytest.raises(tablefile.TableError, match="header"):
        tablefile.open_table(path)
    bomb = tmp_path / "t.ztb.xz"
    bomb.write_bytes(xz_bomb(path.read_bytes(), 256))
    tracemalloc.start()
    try:
        with pytest.raises(tablefile.TableError, match=r"t\.ztb\.xz: corrupt header"):
            tablefile.open_table(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak


@pytest.mark.parametrize("fields", [{"entries": -1}, {"entries": True}, {"crc32": 1 << 40},
                                    {"dtype": []}, {"dtype": {}}])
def test_header_numbers_out_of_range(tmp_path, fields):
    path = _write(tmp_path)
    header, _ = tablefile.read_header(path)
    _with_header(path, json.dumps({**header, **fields}).encode())
    with pytest.raises(tablefile.TableError, match="corrupt header"):
        tablefile.open_table(path)


def test_a_header_without_its_encoding_is_corrupt(tmp_path):
    path = _write(tmp_path)
    header, _ = tablefile.read_header(path)
    del header["encoding"]
    _with_header(path, json.dumps(header).encode())
    with pytest.raises(tablefile.TableError, match="corrupt header"):
        tablefile.read_header(path, encoding=None)  # any encoding, as zermelo tables info reads it


def test_a_header_of_another_role_is_refused(tmp_path):
    path = _write(tmp_path)
    assert tablefile.open_table(path, expect={"game": "demo", "entries": 8}).values.size == 8
    with pytest.raises(tablefile.TableError, match=r"t\.ztb: the header gives material 'X'.*'Y'"):
        tablefile.open_table(path, expect={"material": "Y"})
    with pytest.raises(tablefile.TableError, match="entries"):
        tablefile.read_header(path, expect={"entries": 9})


def xz_bomb(table: bytes, megabytes: int) -> bytes:
    """``table`` compressed, followed by ``megabytes`` MiB of zeros as further xz
    streams (which ``lzma.open`` reads as more data): a small file that expands far."""
    return lzma.compress(table) + lzma.compress(bytes(1 << 20), preset=1) * megabytes


def test_an_xz_bomb_is_refused_without_expanding_it(tmp_path):
    """Decompression stops where the header's payload ends: the zeros that follow
    are never expanded."""
    path = _write(tmp_path, entries=1000)
    bomb = tmp_path / "t.ztb.xz"
    bomb.write_bytes(xz_bomb(path.read_bytes(), 256))
    assert bomb.stat().st_size < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(tablefile.TableError, match=r"t\.ztb\.xz: trailing bytes"):
            tablefile.open_table(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak
    # Within the table's own stream, too.
    packer = lzma.LZMACompressor(preset=1)
    bomb.write_bytes(packer.compress(path.read_bytes()) + packer.compress(bytes(8 << 20)) + packer.flush())
    with pytest.raises(tablefile.TableError, match="trailing bytes"):
        tablefile.open_table(bomb)


def test_an_xz_payload_beyond_the_limit_is_refused_from_its_header(tmp_path, monkeypatch):
    path = _write(tmp_path, entries=1000)
    packed = tmp_path / "t.ztb.xz"
    packed.write_bytes(lzma.compress(path.read_bytes()))
    monkeypatch.setattr(tablefile, "XZ_PAYLOAD_LIMIT", 999)  # the payload: 1,000 int8
    with pytest.raises(tablefile.TableError, match="too large"):
        tablefile.open_table(packed)


def test_a_fifo_is_not_read(tmp_path):
    """A named pipe would block the reader for ever: it is refused unopened."""
    fifo = tmp_path / "t.ztb"
    os.mkfifo(fifo)
    box: dict = {}

    def read():
        try:
            tablefile.open_table(fifo)
        except tablefile.TableError as e:
            box["error"] = str(e)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():  # let the blocked open() return, then fail
        with open(fifo, "wb"):
            pass
        pytest.fail("open_table blocked on a FIFO")
    assert "not a regular file" in box["error"]


def test_a_build_refuses_a_subclass_file_of_another_class(tmp_path, capsys):
    """The files already on disk that a build reads as subclasses are checked too."""
    assert cli.main(["tables", "build", "checkers", "KvM", "--out", str(tmp_path), "--quiet"]) == 0
    (tmp_path / "checkers-KvK.ztb").write_bytes((tmp_path / "checkers-KvM.ztb").read_bytes())
    capsys.readouterr()
    assert cli.main(["tables", "build", "checkers", "KKvK", "--out", str(tmp_path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "checkers-KvK.ztb" in err and "KvM" in err, err
    assert not (tmp_path / "checkers-KKvK.ztb").exists()


def test_an_xz_table_in_concatenated_streams_reads_like_one(tmp_path):
    """The ``xz`` tool reads concatenated streams as one file: so does the reader."""
    path = _write(tmp_path, entries=1000)
    data = path.read_bytes()
    packed = tmp_path / "t.ztb.xz"
    packed.write_bytes(lzma.compress(data[:500]) + lzma.compress(data[500:]))
    assert np.array_equal(tablefile.open_table(packed).values, tablefile.open_table(path).values)
    packed.write_bytes(lzma.compress(data) + b"not xz")
    with pytest.raises(tablefile.TableError, match="corrupt xz stream"):
        tablefile.open_table(packed)
