"""AND/OR graph pictures fit for a lecture: one box per node (the SVG groups
``node-N-KIND``), a legend, the solution graph in bold, within the page's width,
a PNG wide enough to project; and a layout whose arcs end at node borders and
never pass through another node's box (checked on the layout itself).
The pictures are drawn through the ``zermelo`` command, as a user draws them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

import games  # noqa: E402
from engine import andor  # noqa: E402
from protocol import draw  # noqa: E402
from tests.svg_pictures import PAGE_PT, groups, texts, width_pt, zermelo  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIG10 = str(ROOT / "docs" / "graphs" / "fig10.json")


def node_kinds(svg: Path) -> list[str]:
    return [m.group(1) for i in groups(svg) if (m := re.fullmatch(r"node-\d+-(solution|solvable|other)", i))]


def png_width(path: Path) -> int:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big")


def test_fig10_every_node_a_legend_and_the_smallest_solution_in_bold(tmp_path):
    picture = tmp_path / "fig10.svg"
    out = zermelo("solve", "--file", FIG10, "--draw", str(picture))
    assert "(10 nodes drawn, 5 in bold)" in out
    kinds = node_kinds(picture)
    # Bold: P0, M1, P1, P2, P5; solvable besides: M2, P3, P4; M3 and P6 not.
    assert len(kinds) == 10 and kinds.count("solution") == 5 and kinds.count("solvable") == 3
    ids = groups(picture)
    assert "legend" in ids
    words = " ".join(texts(picture))
    for name in ("P0", "M1", "M2", "M3", "P1", "P2", "P3", "P4", "P5", "P6"):
        assert name in texts(picture)
    assert "OR node" in words and "AND node" in words and "terminal" in words and "solvable" in words
    assert "solution graph" in words
    # P0 -> M1 and M1's three arcs are the smallest solution graph: four bold arcs of the eleven.
    arcs = [i.split("-")[-1] for i in ids if re.fullmatch(r"arc-\d+-\w+", i)]
    assert len(arcs) == 11 and arcs.count("solution") == 4
    # The textbook's arc across the successors of each AND node with two or more.
    assert sum(i.startswith("and-mark-") for i in ids) == 3
    assert width_pt(picture) <= PAGE_PT


def test_seven_coins_fourteen_nodes_eight_in_bold(tmp_path):
    picture = tmp_path / "nim.svg"
    out = zermelo("solve", "nim", "--graph", str(picture))
    assert "(14 nodes drawn, 8 in bold)" in out
    kinds = node_kinds(picture)
    assert len(kinds) == 14 and kinds.count("solution") == 8
    assert "legend" in groups(picture)
    assert width_pt(picture) <= PAGE_PT
    # Positions reached by different moves are one node: the legend says so.
    assert any("drawn once" in t for t in texts(picture))


def test_graph_png_is_wide_enough_to_project(tmp_path):
    picture = tmp_path / "nim.png"
    zermelo("solve", "nim", "--graph", str(picture), "--problem", "V")
    assert png_width(picture) >= draw.PNG_WIDTH >= 1200


def test_a_wide_graph_is_scaled_to_the_page_and_says_so(tmp_path):
    # Tic-tac-toe after four moves: 73 positions, wider than a page at full size.
    picture = tmp_path / "ttt.svg"
    out = zermelo("solve", "tictactoe", "--moves", "b2 a1 c3 b1", "--graph", str(picture), "--problem", "W")
    drawn = int(re.search(r"\((\d+) nodes drawn", out).group(1))
    assert len(node_kinds(picture)) == drawn > 30
    assert width_pt(picture) <= PAGE_PT
    assert any(t.startswith("Scaled to ") for t in texts(picture))


def _inside(p: tuple[float, float], q: tuple[float, float], box) -> bool:
    """Whether the segment p-q enters the open interior of ``box`` (Liang-Barsky clipping)."""
    cx, cy, w, h = box
    eps = 1e-6
    lo_x, hi_x, lo_y, hi_y = cx - w / 2 + eps, cx + w / 2 - eps, cy - h / 2 + eps, cy + h / 2 - eps
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, low, high, start in ((dx, lo_x, hi_x, p[0]), (dy, lo_y, hi_y, p[1])):
        if abs(d) < 1e-12:
            if not low < start < high:
                return False
            continue
        a, b = (low - start) / d, (high - start) / d
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    return t0 < t1


def _graphs():
    nim = games.load("nim")
    ttt = games.load("tictactoe")
    pos = ttt.new_position()
    for m in ("b2", "a1", "c3", "c1"):
        pos.push(pos.parse_move(m))
    fig10 = andor.load(FIG10)
    return [
        ("fig10", fig10, andor.mark(fig10, "W")),
        ("nim", (g := andor.from_game(nim, nim.new_position(), 1, label=nim.graph_label)), andor.mark(g, "W")),
        ("tictactoe", (t := andor.pose(andor.from_game(ttt, pos, pos.turn), "V")), andor.mark(t, "V")),
    ]


@pytest.mark.parametrize("name, graph, marking", _graphs(), ids=lambda v: v if isinstance(v, str) else "")
def test_arcs_end_at_borders_and_pass_no_other_box(name, graph, marking):
    layout = draw.layout_graph(graph, marking)
    assert set(layout.box) == set(graph.kind)
    assert set(layout.arcs) == set(graph.edges())
    assert sorted(n for layer in layout.layers for n in layer) == sorted(graph.kind)
    for (a, b), points in layout.arcs.items():
        (ax, ay, aw, ah), (bx, by, bw, bh) = layout.box[a], layout.box[b]
        # From the middle of a's bottom border to a point of b's top border (y grows down).
        assert points[0] == pytest.approx((ax, ay + ah / 2))
        assert points[-1][1] == pytest.approx(by - bh / 2) and abs(points[-1][0] - bx) < bw / 2
        for p, q in zip(points, points[1:]):
            for n, box in layout.box.items():
                assert not _inside(p, q, box), f"{name}: the arc {a} -> {b} passes through {n}"
    # Boxes of one layer do not overlap.
    for layer in layout.layers:
        for left, right in zip(layer, layer[1:]):
            (x0, _, w0, _), (x1, _, w1, _) = layout.box[left], layout.box[right]
            assert x0 + w0 / 2 < x1 - w1 / 2


def _fewest_crossings(graph) -> int:
    """The fewest crossings of any order of the layers (a slot per layer an arc passes), by
    trying them all, layer after layer: a check of the sweeps on small graphs."""
    import itertools

    level = draw._graph_levels(graph)
    layers: list[list] = [[] for _ in range(max(level.values()) + 1)]
    below: dict = {}
    for n in graph.kind:
        layers[level[n]].append(n)
        below.setdefault(n, [])
    for a, b in graph.edges():
        chain = [a] + [(a, b, lv) for lv in range(level[a] + 1, level[b])] + [b]
        for slot in chain[1:-1]:
            layers[slot[2]].append(slot)
            below[slot] = []
        for u, v in zip(chain, chain[1:]):
            below[u].append(v)

    def crossings(upper, lower) -> int:
        at = {item: i for i, item in enumerate(lower)}
        arcs = [(i, at[v]) for i, u in enumerate(upper) for v in below[u]]
        return sum(1 for (a, b), (c, d) in itertools.combinations(arcs, 2) if (a - c) * (b - d) < 0)

    cost = {order: 0 for order in itertools.permutations(layers[0])}
    for layer in layers[1:]:
        cost = {order: min(c + crossings(before, order) for before, c in cost.items())
                for order in itertools.permutations(layer)}
    return min(cost.values())


def _drawn_crossings(layout) -> int:
    """Pairs of arcs whose polylines cross, measured on the drawing (touching ends do not count)."""
    def side(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    def cross(p, q, r, s) -> bool:
        return side(p, q, r) * side(p, q, s) < -1e-12 and side(r, s, p) * side(r, s, q) < -1e-12

    arcs = list(layout.arcs.values())
    return sum(any(cross(p, q, r, s) for p, q in zip(a, a[1:]) for r, s in zip(b, b[1:]))
               for i, a in enumerate(arcs) for b in arcs[i + 1:])


def test_layers_ordered_with_few_crossings():
    """The barycentre sweeps draw Fig. 10 without a crossing and the seven coins within one
    crossing of the fewest possible; every arc points down (a node's layer is its longest
    distance from the root)."""
    for name, graph, marking in _graphs()[:2]:
        layout = draw.layout_graph(graph, marking)
        assert _drawn_crossings(layout) == layout.crossings <= _fewest_crossings(graph) + (name == "nim"), name
        for a, b in graph.edges():
            assert layout.box[a][1] < layout.box[b][1]
    fig10 = _graphs()[0][1]
    assert draw.layout_graph(fig10, andor.mark(fig10, "W")).crossings == 0
