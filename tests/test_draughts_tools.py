"""The draughts measuring scripts: Scan's stand-in weights file and the tables check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from protocol import cli

REPO = Path(__file__).resolve().parents[1]


def test_scan_weights_file_has_scan_31_layout(tmp_path):
    out = tmp_path / "eval"
    subprocess.run([sys.executable, "scripts/scan_eval_weights.py", str(out), "--material"], cwd=REPO, check=True)
    # 2 x 2,125,820 signed 16-bit big-endian weights, (middle game, endgame) per feature.
    w = np.fromfile(out, dtype=">i2").reshape(-1, 2)
    assert w.shape == (2_125_820, 2)
    # Men, the first king, each further king: 1.00 and 3.00 men in both phases
    # (10 units a centipawn); nothing else.
    assert w[:3].tolist() == [[1000, 1000], [3000, 3000], [3000, 3000]]
    assert not w[3:].any()
    subprocess.run([sys.executable, "scripts/scan_eval_weights.py", str(out)], cwd=REPO, check=True)
    assert not np.fromfile(out, dtype=">i2").any()


def test_tables_check_agrees_on_small_classes(tmp_path):
    assert cli.main(["tables", "build", "international", "KKvK", "--out", str(tmp_path), "--quiet"]) == 0
    proc = subprocess.run([sys.executable, "scripts/draughts_tables_check.py", "international", str(tmp_path),
                           "--positions", "15", "--horizon", "3"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "30 positions over 2 classes" in proc.stdout and "0 disagreements" in proc.stdout
