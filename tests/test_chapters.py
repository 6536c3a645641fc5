"""The chapters page (docs/chapters.md): every figure of the five textbook chapters
has its row, every command on it runs and prints what the page shows, and each
row's output holds the chapter's figure, checked here against the chapters'
numbers and independent formulas (not against the page). Commands marked
``<!-- slow -->`` are not run here; their figures are checked on the page, and
their builds by the tests of those tools.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from tests.console import shown_in
from tests.svg_pictures import groups, texts

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "chapters.md"
ROWS = [f"1.{i}" for i in range(1, 17)] + [f"2.{i}" for i in range(1, 6)] + [f"3.{i}" for i in range(1, 4)] + \
    [f"4.{i}" for i in range(1, 8)] + [f"5.{i}" for i in range(1, 9)]


def _script():
    """scripts/make_chapters.py as a module: its rows and its way of running a command."""
    if "make_chapters" not in sys.modules:
        spec = importlib.util.spec_from_file_location("make_chapters", ROOT / "scripts" / "make_chapters.py")
        module = importlib.util.module_from_spec(spec)
        # Its dataclasses look their module up while being made.
        sys.modules["make_chapters"] = module
        spec.loader.exec_module(module)
    return sys.modules["make_chapters"]


def page_rows() -> dict[str, list[tuple[str, list[str], bool]]]:
    """Row number -> its commands: (command, the output lines shown, slow)."""
    rows: dict[str, list[tuple[str, list[str], bool]]] = {}
    row = None
    lines = PAGE.read_text().splitlines()
    i = 0
    while i < len(lines):
        heading = re.match(r"### (\d\.\d+) ", lines[i])
        if heading:
            row = heading.group(1)
            rows[row] = []
        elif lines[i] == "```console" and row is not None:
            before = [line for line in lines[:i] if line.strip()]
            slow = len(before) > 1 and before[-2] == "<!-- slow -->"
            assert before[-1] == "<!-- not-run -->", f"{row}: every block is run here, not by the docs test"
            body = []
            i += 1
            while lines[i] != "```":
                body.append(lines[i])
                i += 1
            assert body[0].startswith("$ ")
            rows[row].append((body[0][2:], body[1:], slow))
        i += 1
    return rows


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, str]:
    """Every row's commands run (pictures and tables into a temporary directory): row -> output."""
    script = _script()
    tmp = tmp_path_factory.mktemp("chapters")
    (tmp / "img").mkdir()
    (tmp / "tables").mkdir()
    shims = script.shim_dir(tmp_path_factory.mktemp("bin"))
    out: dict[str, str] = {}
    for row, commands in page_rows().items():
        texts = []
        for command, shown, slow in commands:
            if slow:
                continue
            # Pictures and tables are written into the temporary directory, not the checkout.
            run = re.sub(r"docs/img/(chapters-[\w-]+\.svg)", rf"{tmp}/img/\1", command)
            run = run.replace("tables/", f"{tmp}/tables/")
            status, output = script.run(run, shims)
            assert status == 0, f"{row}: {command}\n{output[-2000:]}"
            output = output.replace(f"{tmp}/img/", "docs/img/").replace(f"{tmp}/tables/", "tables/")
            missing = shown_in(shown, output.splitlines())
            assert missing is None, f"{row}: {command}: the page shows {missing!r}; got:\n{output[-2000:]}"
            texts.append(output)
        out[row] = "\n".join(texts)
    out["img"] = str(tmp / "img")
    return out


def page_section(row: str) -> str:
    return PAGE.read_text().split(f"### {row} ")[1].split("\n### ")[0]


def page_text(row: str) -> str:
    return "\n".join("\n".join([c] + shown) for c, shown, _ in page_rows()[row])


def test_every_figure_of_the_chapters_has_its_row():
    rows = page_rows()
    assert list(rows) == ROWS
    for row in ROWS:
        assert rows[row] or "**Not yet:**" in page_section(row), f"{row}: neither a command nor 'not yet'"


def test_the_page_is_what_the_script_writes():
    # The rows the script holds are the page's rows, in order, with the same commands.
    script = _script()
    commands = {row.number: [c.text for c in row.commands] for _, rows in script.CHAPTERS for row in rows}
    assert {row: [c for c, _, _ in cmds] for row, cmds in page_rows().items()} == commands


def test_chapter_1_figures(outputs):
    o = outputs
    counts = dict(re.findall(r"perft -g (\w+) 1\n.*?Nodes searched: (\d+)", page_text("1.1"), re.S))
    assert counts == {"chess": "20", "checkers": "7", "reversi": "4", "kalah": "6", "tictactoe": "9"}
    assert "Nodes searched: 20" in o["1.1"] and "Nodes searched: 9" in o["1.1"]
    # 1.2 and 1.3: the coin game's graph; W(7+) unsolvable; V(7+), MINUS can win, as the chapter
    # defines it: the second player's solution graph, the chapter's 8 positions.
    assert "W(7+) has no solution graph" in o["1.2"]
    assert "14 positions (repeated positions merged)" in o["1.3"]
    assert "V(7+): second (MINUS) can force a win" in o["1.3"] and "cannot lose" not in o["1.2"] + o["1.3"]
    graph = re.search(r"solution graphs: 1\n  1: (.*?)  \(8 nodes\)", o["1.3"]).group(1)
    assert set(graph.split(", ")) == {"7+", "6−", "5−", "4+", "3−", "2−", "1+", "0−"}
    ids = groups(Path(o["img"]) / "chapters-coins.svg")
    assert sum(i.startswith("node-") for i in ids) == 14 and sum(i.endswith("-solution") for i in ids
                                                                  if i.startswith("node-")) == 8
    assert re.search(r"complete games: ≈ [\d.]+ × 10\^\d+", o["1.4"]) and "chapters: ≈ 10^40 " in o["1.4"]
    assert "complete games: 255,168" in o["1.5"]
    assert "x - o = 8 - 5 = 3" in o["1.6"]
    assert "value: 3 for max; best move: 1" in o["1.7"]
    lines = o["1.8"].splitlines()
    assert next(x for x in lines if x.startswith("alpha-beta, depth 1")).split()[-1] == "d1d6"
    assert next(x for x in lines if x.startswith("engine search, depth 1")).split()[-1] != "d1d6"
    # Fig. 5: 11 of the 17 nodes below the root, 6 of the 10 leaves; a β-cut under W3, an α-cut under W4.
    assert "visited: 12 nodes in all; 6 leaves evaluated" in o["1.9"]
    assert "at W1 W3: β-cut: 4 ≥ β=3 from W1" in o["1.9"] and "at W4: α-cut: 3 ≤ α=3 from root" in o["1.9"]
    ids = [i for i in groups(Path(o["img"]) / "chapters-fig5.svg") if i.startswith("node-")]
    assert len(ids) == 18 and sum(i.endswith("-cut") for i in ids) == 6
    assert "α-cut: 4 ≤ α=5 from root, deep" in o["1.10"]
    assert o["1.11"].count("value: 3 for max; best move: 1") == 5
    b = 3
    perfect = [b ** ((d + 1) // 2) + b ** (d // 2) - 1 for d in range(1, 7)]
    row = next(x for x in o["1.12"].splitlines() if x.strip().startswith("alpha-beta, perfect order"))
    assert [int(v.replace(",", "")) for v in row.split()[-6:]] == perfect
    assert "27 leaves evaluated" in o["1.13"]
    rows = {x.split("  ")[0]: x for x in o["1.14"].splitlines()}
    with_tt = int(rows["alpha-beta, previous best move first"].split()[-1].replace(",", ""))
    without = int(rows["alpha-beta, same order every iteration"].split()[-1].replace(",", ""))
    assert with_tt < without
    # Best-first: SSS* evaluates fewer leaves than alpha-beta in the same order, none that it skips.
    visited = re.search(r"(\d+) leaves evaluated; OPEN", o["1.14"]).group(1)
    alphabeta = re.search(r"alpha-beta, same order: \d+ nodes, (\d+) leaves", o["1.14"]).group(1)
    assert int(visited) < int(alphabeta) and "evaluated by sss, never by alpha-beta: 0" in o["1.14"]
    assert re.search(r"more on 0$", o["1.14"], re.M)
    # B*: move 2 of the example proven best (its pessimistic value reaching the others' optimistic
    # values) in 3 expansions and 8 nodes, fewer than alpha-beta's on the same tree.
    assert "value: [5, 8] for max; best move: 2" in o["1.14"]
    assert "proof: 2 is best for max: its pessimistic value, 5, reaches every other move's optimistic value " \
           "(at most 5)" in o["1.14"]
    assert "expanded: 3 nodes; generated 8 nodes in all" in o["1.14"]
    assert "alpha-beta, same order: 19 nodes, 10 leaves evaluated" in o["1.14"]
    assert "3. 1 (disprove rest): 1 [2, 4], 2 [5, 8], 3 [1, 5]" in o["1.14"]
    kinds = [i.rsplit("-", 1)[1] for i in groups(Path(o["img"]) / "chapters-bstar.svg") if i.startswith("node-")]
    assert (kinds.count("best"), kinds.count("visited"), kinds.count("cut")) == (2, 6, 14)
    # On tic-tac-toe with a margin: alpha-beta's move, in fewer nodes than alpha-beta visits.
    game = o["1.14"].split("game: tictactoe; position: .../.../... x (x to move)\nalgorithm: bstar")[1]
    generated = int(re.search(r"generated ([\d,]+) nodes", game).group(1).replace(",", ""))
    visited = int(re.search(r"alpha-beta, same order: ([\d,]+) nodes", game).group(1).replace(",", ""))
    assert "best move: b2" in game and generated < visited
    assert "**Not yet:**" not in page_section("1.14")
    assert "won: 16-move maximum" in o["1.15"] and "no middle-game library" in page_section("1.15")
    assert "its middle-game knowledge is in its evaluation" in page_section("1.15")
    # Fig. 10: root P0, the chapter's two solution graphs, M3 and P6 not solvable; each drawn in bold.
    assert "not solvable: M3, P6" in o["1.16"] and "solution graphs: 2" in o["1.16"]
    found = re.findall(r"^  \d: (.*?)  \(5 nodes\)", o["1.16"], re.M)
    assert sorted(sorted(f.split(", ")) for f in set(found)) == [["M1", "P0", "P1", "P2", "P5"],
                                                                 ["M2", "P0", "P3", "P4", "P5"]]
    from engine import andor
    from protocol import draw
    graph = andor.load(str(ROOT / "docs" / "graphs" / "fig10.json"))
    names = list(draw.layout_graph(graph, andor.mark(graph, "W")).box)
    for picture, bold in (("chapters-fig10.svg", {"P0", "M1", "P1", "P2", "P5"}),
                          ("chapters-fig10-2.svg", {"P0", "M2", "P3", "P4", "P5"})):
        # The picture's nodes are numbered in the layout's order.
        nodes = [i.split("-") for i in groups(Path(o["img"]) / picture) if i.startswith("node-")]
        assert len(nodes) == 10 and {names[int(n)] for _, n, kind in nodes if kind == "solution"} == bold


def test_chapter_2_figures(outputs):
    o = outputs
    assert "textbook E = " in o["2.1"]
    assert "value: -7 for max (min to move); best move: C" in o["2.2"]
    assert re.search(r"^bestmove \S+", o["2.3"], re.M)
    assert "visited: 9 nodes in all; 5 leaves evaluated" in o["2.4"]
    assert "α-cut: 6 ≤ α=8 from root" in o["2.5"] and re.search(r"└─ 2  α-cut \(never searched\)  7", o["2.5"])


def test_chapter_3_and_4_figures(outputs):
    o = outputs
    assert "value: win for x" in o["3.2"] and "value: draw" in o["3.2"]
    assert re.search(r"complete games: ≈ [\d.]+ × 10\^\d+", page_text("3.3"))
    assert "chapters: ≈ 10^120 " in page_text("3.3")
    assert re.search(r"nodes of the complete game tree: ≈ [\d.]+ × 10\^\d+", o["3.3"])  # Go on 5×5
    assert "margin: +9 points for black with best play" in o["3.3"]  # 3×3 Go, the published value
    assert "**Not yet:** 5×5 solved: the search was stopped at 26.35 M nodes after 25 minutes" in page_section("3.3")
    minimax = next(x for x in o["4.1"].splitlines() if x.strip().startswith("minimax"))
    assert [int(v.replace(",", "")) for v in minimax.split()[-6:]] == [4 ** d for d in range(1, 7)]
    three = next(x for x in o["4.1"].splitlines() if x.strip().startswith("3^d"))
    assert [int(v.replace(",", "")) for v in three.split()[-6:]] == [3 ** d for d in range(1, 7)]
    gain = next(x for x in o["4.1"].splitlines() if x.strip().startswith("(4/3)^d"))
    assert gain.split()[-6:] == [f"{(4 / 3) ** d:.2f}" for d in range(1, 7)]
    # KBNK's build is slow: its figures are checked on the page (tests/test_visible.py builds it).
    kbnk = page_text("4.2")
    assert "won: 33-move maximum" in kbnk and "white to move: 1,391,681 legal" in kbnk
    assert "by symmetry 462 king pairs × 64 × 64 × 2 = 3,784,704" in page_text("4.3")
    assert "naive 64^4 × 2 = 33,554,432" in page_text("4.3")
    assert "round 0: label 0: 27 positions without a move, won (the side to move is mated)" in o["4.4"]
    assert "round 1: label −1: 189 positions lost: a move reaches a won position (labelled 0)" in o["4.4"]
    words = texts(Path(o["img"]) / "chapters-KRK-rounds.svg")
    assert "won (the side to move is mated or loses)" in words and "lost (the side to move mates or wins)" in words
    assert "nothing new is marked" in o["4.4"] and "never marked" in o["4.5"]
    assert "value: draw" in o["4.6"] and "read back from tables/tictactoe.ztb: draw" in o["4.6"]
    assert "tictactoe: 5,478 legal positions" in o["4.6"] and "game: tictactoe" in o["4.6"]
    assert "KQvK with the white king fixed on c3" in o["4.7"]


def test_chapter_5_figures(outputs):
    o = outputs
    assert "response true" in o["5.1"] and "response p1win" in o["5.1"]
    assert "Nodes searched: 9" in o["5.2"]
    assert o["5.3"].count("value: 3 for max; best move: 1") == 2
    assert "9 leaves evaluated" in o["5.3"] and "7 leaves evaluated" in o["5.3"]
    assert "549,946" in page_text("5.4")
    # Time b^m, space linear in m: the path and the peak bytes grow by about the same each level.
    rows = [[int(v.replace(",", "")) for v in line.split()] for line in o["5.4"].splitlines()
            if re.match(r"\d+ +[\d,]+ ", line)]
    assert [r[0] for r in rows] == list(range(1, 9))
    assert all(r[1] == (3 ** (r[0] + 1) - 1) // 2 and r[3] == r[0] + 1 and r[4] == 3 * r[0] for r in rows)
    steps = [b[5] - a[5] for a, b in zip(rows[4:], rows[5:])]
    assert all(0 < step < 1000 for step in steps) and rows[-1][5] < 4000 and rows[-1][-1] == 3 ** 4
    assert "value: ⟨1, 2, 6⟩" in o["5.5"] and re.search(r"X  C  ⟨1, 2, 6⟩  \*", o["5.5"])
    ids = [i for i in groups(Path(o["img"]) / "chapters-node-x.svg") if i.startswith("node-")]
    assert len(ids) == 15 and "legend" in groups(Path(o["img"]) / "chapters-node-x.svg")
    assert "value: ⟨4, 4, 0⟩" in o["5.6"] and "value: 0 for A" in o["5.6"]
    assert "value: ⟨1000, 1000⟩" in o["5.7"] and "value: 5 for A" in o["5.7"]
    solved = re.findall(r"value: (.*)", o["5.8"])
    assert solved == ["draw", "win for x"]
