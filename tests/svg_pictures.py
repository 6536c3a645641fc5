"""Reading the pictures ``zermelo`` draws, as the picture tests do: the command run
as a user runs it, and an SVG's groups, width and texts (shared by
tests/test_pictures.py, tests/test_graph_pictures.py and tests/test_chapters.py)."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
#: The widest picture a page shows at its size: 1000 px, 750 pt.
PAGE_PT = 750


def zermelo(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "protocol", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def groups(svg: Path) -> list[str]:
    return [g.get("id", "") for g in ET.parse(svg).iter(f"{SVG}g")]


def width_pt(svg: Path) -> float:
    return float(ET.parse(svg).getroot().get("width", "0").removesuffix("pt"))


def texts(svg: Path) -> list[str]:
    return ["".join(t.itertext()) for t in ET.parse(svg).iter(f"{SVG}text")]
