"""The table file format: round trip, and a clear error for every defect."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine import retro, tablefile


def _values(top: int) -> np.ndarray:
    return np.array([0, 1, -1, top, -top, retro.ILLEGAL, 5, -6], np.int16)


def _write(tmp_path, values):
    return tablefile.write(tmp_path / "t.ztb", values, game="demo", material="X",
                           stm_convention="single", extra={"sides": 1})


@pytest.mark.parametrize("top, dtype", [(127, np.int8), (128, np.int16), (32767, np.int16)])
def test_round_trip_picks_the_narrowest_dtype(tmp_path, top, dtype):
    values = _values(top)
    table = tablefile.open_table(_write(tmp_path, values))
    assert table.values.dtype == dtype
    assert table.header["material"] == "X" and table.header["sides"] == 1
    assert table.values[5] == table.illegal == np.iinfo(dtype).min
    legal = values != retro.ILLEGAL
    assert np.array_equal(table.values[legal].astype(np.int32), values[legal].astype(np.int32))
    assert isinstance(table.values, np.memmap)


def test_summary_counts(tmp_path):
    table = tablefile.open_table(_write(tmp_path, _values(40)))
    assert tablefile.summary(table.values) == {
        "wins": 3, "draws": 1, "losses": 3, "illegal": 1, "longest_win_plies": 39, "longest_loss_plies": 39}


def test_missing_file(tmp_path):
    with pytest.raises(tablefile.TableError, match="no such table file"):
        tablefile.open_table(tmp_path / "absent.ztb")


def test_bad_magic(tmp_path):
    path = tmp_path / "t.ztb"
    path.write_bytes(b"not a table at all")
    with pytest.raises(tablefile.TableError, match="bad magic"):
        tablefile.open_table(path)


def test_truncated_payload(tmp_path):
    path = _write(tmp_path, _values(300))
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(tablefile.TableError, match="truncated payload"):
        tablefile.open_table(path)


def test_truncated_header(tmp_path):
    path = _write(tmp_path, _values(3))
    path.write_bytes(path.read_bytes()[:20])
    with pytest.raises(tablefile.TableError, match="truncated header"):
        tablefile.open_table(path)


def test_corrupt_payload_fails_the_checksum(tmp_path):
    path = _write(tmp_path, _values(3))
    data = bytearray(path.read_bytes())
    data[-2] ^= 0x10
    path.write_bytes(bytes(data))
    with pytest.raises(tablefile.TableError, match="CRC-32"):
        tablefile.open_table(path)
    assert tablefile.open_table(path, verify=False).values.size == 8


def test_unknown_version(tmp_path):
    path = _write(tmp_path, _values(3))
    data = path.read_bytes()
    head = data.index(b"{")
    header = json.loads(data[head:data.index(b"}") + 1])
    patched = json.dumps({**header, "format": 99}, sort_keys=True).encode()
    patched += b" " * (data.index(b"}") + 1 - head - len(patched))
    path.write_bytes(data[:head] + patched + data[head + len(patched):])
    with pytest.raises(tablefile.TableError, match="unsupported table format"):
        tablefile.open_table(path)


def _patch_header(path, make):
    """Replace the JSON header by ``make(header)``, padded to the same length."""
    data = path.read_bytes()
    head, end = data.index(b"{"), data.index(b"}") + 1
    patched = json.dumps(make(json.loads(data[head:end])), sort_keys=True).encode()
    assert len(patched) <= end - head
    path.write_bytes(data[:head] + patched + b" " * (end - head - len(patched)) + data[end:])


@pytest.mark.parametrize("make", [
    lambda h: {k: v for k, v in h.items() if k != "crc32"},
    lambda h: {**h, "crc32": "x"},
    lambda h: [h["format"]],
])
def test_malformed_header_fields(tmp_path, make):
    path = _write(tmp_path, _values(3))
    _patch_header(path, make)
    with pytest.raises(tablefile.TableError, match="corrupt header"):
        tablefile.open_table(path)


def test_xz_files_read_like_plain_ones(tmp_path):
    import lzma

    path = _write(tmp_path, _values(40))
    packed = tmp_path / "t.ztb.xz"
    packed.write_bytes(lzma.compress(path.read_bytes()))
    table = tablefile.open_table(packed)
    assert np.array_equal(table.values, tablefile.open_table(path).values)
    assert tablefile.read_header(packed)[0] == table.header
    # Defects inside the compressed stream are reported like those of a plain file.
    packed.write_bytes(lzma.compress(path.read_bytes()[:-3]))
    with pytest.raises(tablefile.TableError, match="truncated payload"):
        tablefile.open_table(packed)
    packed.write_bytes(lzma.compress(path.read_bytes())[:-20])
    with pytest.raises(tablefile.TableError, match="corrupt xz stream"):
        tablefile.open_table(packed)
    packed.write_bytes(b"not xz at all")
    with pytest.raises(tablefile.TableError, match="corrupt xz stream"):
        tablefile.open_table(packed)
