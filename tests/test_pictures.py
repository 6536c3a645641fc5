"""Pictures fit for a lecture: every tree picture has a legend, one box per node
(counted by the SVG groups ``node-N-KIND``), stays within the page's width by
folding, shows a PVS re-search once, and is written as a PNG wide enough to
project; a table's plot counts on a logarithmic axis and marks the longest win.
All through the ``zermelo`` command, as a user draws them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from tests.svg_pictures import PAGE_PT, SVG, groups, texts, width_pt, zermelo  # noqa: E402

AIMA = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"


def nodes(svg: Path) -> list[str]:
    return [i for i in groups(svg) if re.fullmatch(r"node-\d+-(best|visited|cut|more)", i)]


def drawn(out: str) -> int:
    return int(re.search(r"picture: .* \((\d+) nodes drawn", out).group(1))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_textbook_tree_has_every_node_a_legend_and_the_cut_rule(tmp_path):
    tree = tmp_path / "aima.json"
    tree.write_text(AIMA)
    svg = tmp_path / "t.svg"
    out = zermelo("tree", "--file", str(tree), "--algorithm", "alphabeta", "--svg", str(svg))
    ids = nodes(svg)
    # 13 nodes, none folded: the 2 leaves alpha-beta skips are drawn as cut, 3 on the principal line.
    assert len(ids) == drawn(out) == 13
    assert sum(i.endswith("-cut") for i in ids) == 2 and sum(i.endswith("-best") for i in ids) == 3
    assert "legend" in groups(svg)
    words = texts(svg)
    assert "max to move (the root player)" in words and "[α, β]: the window it was searched with" in words
    assert any(w.startswith("(a) at 2: α-cut: 2 ≤ α=3 from root") for w in words)
    assert "α-cut (a)" in words
    assert width_pt(svg) <= PAGE_PT


def test_a_large_tree_is_folded_to_the_page_with_its_principal_line(tmp_path):
    svg = tmp_path / "perfect.svg"
    out = zermelo("tree", "tree", "-p", "branching=3", "-p", "depth=4", "--algorithm", "alphabeta",
                  "--order", "perfect", "--svg", str(svg))
    assert "of 121)" in out  # 1 + 3 + 9 + 27 + 81 nodes in the tree
    ids = nodes(svg)
    assert len(ids) == drawn(out) < 121
    assert width_pt(svg) <= PAGE_PT
    # The whole principal line (root to a leaf, 5 nodes), and boxes standing for the rest.
    assert sum(i.endswith("-best") for i in ids) == 5
    assert any(i.endswith("-more") for i in ids) and any(i.endswith("-cut") for i in ids)
    words = texts(svg)
    assert "legend" in groups(svg)
    assert any(w.startswith("Folded to fit the page") for w in words)


def test_the_engine_tree_shows_a_re_search_once_and_open_windows_as_infinite(tmp_path):
    svg = tmp_path / "chess.svg"
    out = zermelo("tree", "chess", "--depth", "2", "--algorithm", "engine", "--svg", str(svg), "--text")
    below_d2d4 = out.split("├─ d2d4")[1].split("├─ g1f3")[0]
    # PVS probes d7d5 with a null window and searches it again: one node, the re-search noted.
    assert below_d2d4.count("d7d5") == 1
    assert "(re-searched: first [0,1] gave 0)" in below_d2d4
    # The window at ply 2 is open: the mate-distance bounds are no bound on any value there.
    assert "loss/" not in out and "win/" not in out
    assert width_pt(svg) <= PAGE_PT and "legend" in groups(svg)
    assert len(nodes(svg)) == drawn(out)
    # The picture notes the re-searches on the line it draws as the text shows them.
    notes = [re.match(r"\([a-z]\) at (.+?): (re-searched: first \S+ gave [^,]+)", w) for w in texts(svg)]
    notes = [m for m in notes if m]
    assert notes
    for m in notes:
        move, first = m.group(1).split()[-1], m.group(2)
        assert any(f"─ {move} " in line and f"({first}" in line for line in out.splitlines()), m.group(0)


def test_the_tic_tac_toe_solution_tree_fits_the_page(tmp_path):
    svg = tmp_path / "ttt.svg"
    out = zermelo("solve", "tictactoe", "--tree", str(svg))
    assert len(nodes(svg)) == drawn(out)
    assert width_pt(svg) <= PAGE_PT
    words = texts(svg)
    assert "OR node: the prover chooses one move" in words and "AND node: every move of the opponent" in words
    # Positions drawn as boards, a row a line.
    assert words.count("...") >= 3


def test_a_png_is_wide_enough_to_project(tmp_path):
    tree = tmp_path / "aima.json"
    tree.write_text(AIMA)
    png = tmp_path / "t.png"
    zermelo("tree", "--file", str(tree), "--png", str(png))
    assert png_size(png)[0] >= 1200
    plot = tmp_path / "lab.png"
    zermelo("lab", "alphabeta", "--branching", "2", "--depth", "3", "--plot", str(plot))
    assert png_size(plot)[0] >= 1200


def _bar_heights(svg: Path) -> list[float]:
    heights = []
    for g in ET.parse(svg).iter(f"{SVG}g"):
        if g.get("id") == "bars":
            path = next(g.iter(f"{SVG}path"))
            ys = [float(v) for v in re.findall(r"[ML] [-\d.]+ ([-\d.]+)", path.get("d"))]
            heights.append(max(ys) - min(ys))
    return heights


def test_the_table_plot_counts_on_a_log_axis_and_marks_the_longest_win(tmp_path):
    svg = tmp_path / "krk.svg"
    out = zermelo("tables", "build", "chess", "KRK", "--out", str(tmp_path), "--quiet", "--stats", "--plot", str(svg))
    assert "won: 16-move maximum" in out
    heights = _bar_heights(svg)
    assert len(heights) == 16
    # KRK's counts run from 139 (16 moves) to 2,759: a linear axis draws the shortest bar
    # at a twentieth of the tallest, the logarithmic one at more than half of it.
    assert min(heights) / max(heights) > 0.5
    words = texts(svg)
    assert "longest win: 16 moves" in words and "(139 positions)" in words
