"""The network pipeline of docs/guide/networks.md, end to end on a tiny scale:
``scripts/pipeline.py`` plays self-play data, trains a network on it, shows the
server loads it, and plays it against the hand-written evaluation."""

from __future__ import annotations

import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "pipeline.py"


def test_datagen_train_and_match_from_nothing(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "connect4", "--dir", str(tmp_path), "--games", "16", "--nodes", "200",
         "--random-plies", "4", "--acc", "8", "--epochs", "2", "--match-games", "2", "--tc", "2+0.02",
         "--match-random-plies", "2", "--concurrency", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert done.returncode == 0, done.stdout
    out = done.stdout
    assert "16/16 games written" in out
    assert "== loaded: Evaluation:" in out and f"(network {tmp_path / 'connect4.znn'})" in out
    assert "connect4: net vs hand, 2 games" in out
    for step in ("datagen", "train", "match", "total"):
        assert any(line.startswith(step) and line.endswith(" s") for line in out.splitlines()), step
    assert len((tmp_path / "match.txt").read_text().strip()) > 0
