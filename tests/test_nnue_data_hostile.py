"""Hostile training data: ``zermelo train`` and ``datagen``'s resume stay bounded in
memory and time, and refuse with one line, whatever the ``.zdata`` file or its
``.progress`` sidecar holds (a FIFO, a device, nesting, millions of empty records)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from engine import nnue_data
from engine.nnue_data import DataFileError, DataWriter, Header, read, sidecar

REPO = pathlib.Path(__file__).resolve().parent.parent
HEADER = Header("connect4", "test-discs", 84)
EMPTY_RECORD = b"\0" * 5


def zermelo(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120)


def test_records_beyond_the_cap_are_refused_as_soon_as_met(tmp_path, monkeypatch):
    monkeypatch.setattr(nnue_data, "MAX_RECORDS", 100)
    a, b = tmp_path / "a.zdata", tmp_path / "b.zdata"
    a.write_bytes(HEADER.encode() + EMPTY_RECORD * 100)
    assert len(read([a])) == 100
    a.write_bytes(HEADER.encode() + EMPTY_RECORD * 101)
    with pytest.raises(DataFileError, match=f"{a}: more than the 100 records one training run reads"):
        read([a])
    # The cap is the run's: over several files.
    a.write_bytes(HEADER.encode() + EMPTY_RECORD * 60)
    b.write_bytes(HEADER.encode() + EMPTY_RECORD * 60)
    with pytest.raises(DataFileError, match=f"{b}: more than the 100 records"):
        read([a, b])


def test_a_deeply_nested_sidecar_is_refused_in_one_line(tmp_path):
    path = tmp_path / "a.zdata"
    DataWriter(path, HEADER, {"nodes": 1}).close()
    sidecar(path).write_text("[" * 100_000)
    for attempt in (lambda: read([path]), lambda: DataWriter(path, HEADER, {"nodes": 1})):
        with pytest.raises(DataFileError, match="not a progress file"):
            attempt()
    done = zermelo("train", "reversi", "--data", str(path), "--out", str(tmp_path / "n.znn"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith(f"{sidecar(path)}: not a progress file (bad JSON)")
    done = zermelo("datagen", "reversi", "--games", "1", "--nodes", "10", "--out", str(path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{sidecar(path)}: not a progress file (bad JSON)" in done.stderr


def test_fifos_and_devices_are_refused_at_once(tmp_path):
    fifo = tmp_path / "a.zdata"
    os.mkfifo(fifo)
    for data in (str(fifo), "/dev/zero"):
        done = zermelo("train", "reversi", "--data", data, "--out", str(tmp_path / "n.znn"))
        assert done.returncode == 1 and "not a regular file" in done.stderr and "Traceback" not in done.stderr
    # A FIFO as the sidecar of a real file, read by train and by datagen's resume.
    path = tmp_path / "b.zdata"
    path.write_bytes(HEADER.encode())
    os.mkfifo(sidecar(path))
    done = zermelo("train", "reversi", "--data", str(path), "--out", str(tmp_path / "n.znn"))
    assert done.returncode == 1 and "not a regular file (a FIFO)" in done.stderr
    done = zermelo("datagen", "reversi", "--games", "1", "--nodes", "10", "--out", str(path))
    assert done.returncode == 1 and "not a regular file (a FIFO)" in done.stderr
    # A FIFO as the output of datagen.
    done = zermelo("datagen", "reversi", "--games", "1", "--nodes", "10", "--out", str(fifo))
    assert done.returncode == 1 and "not a regular file" in done.stderr
