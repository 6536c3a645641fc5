"""The draughts measuring scripts: Scan's stand-in weights file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np


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

