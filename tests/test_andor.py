"""AND/OR graphs: the chapters' Fig. 10, the 7-coin game's graph, W against V, graph files."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import games
from engine import andor
from protocol.solve_cli import main

ROOT = Path(__file__).resolve().parent.parent
FIG10 = str(ROOT / "docs" / "graphs" / "fig10.json")


def _groups(svg: Path, prefix: str) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for kind in re.findall(rf'id="{prefix}-\d+-(\w+)"', svg.read_text()):
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def test_fig10_is_the_chapters_graph():
    """The chapter's Fig. 10: root P0; two solution graphs, {P0, M1, P1, P2, P5} and
    {P0, M2, P3, P4, P5}; M3 and P6 not solvable."""
    graph = andor.load(FIG10)
    assert graph.root == "P0" and graph.kind["P0"] == "or"
    marking = andor.mark(graph, "W")
    assert set(graph.kind) - marking.solvable == {"M3", "P6"}
    assert marking.rounds[-1] == ["P0"]
    found, complete = andor.solution_graphs(graph, marking)
    assert complete
    assert sorted(sorted(s.nodes) for s in found) == [["M1", "P0", "P1", "P2", "P5"], ["M2", "P0", "P3", "P4", "P5"]]
    assert {s.choice["P0"] for s in found} == {"M1", "M2"}


def test_fig10_command_and_picture(tmp_path, capsys):
    picture = tmp_path / "fig10.svg"
    assert main(["--file", FIG10, "--draw", str(picture), "--solution", "2"]) == 0
    out = capsys.readouterr().out
    assert "solvable: P0, M1, M2, P1, P2, P5, P3, P4 (8 of 10)" in out and "not solvable: M3, P6" in out
    assert "solution graphs: 2" in out
    assert "  1: P0, M1, P1, P2, P5  (5 nodes)  (smallest)" in out and "  2: P0, M2, P5, P3, P4  (5 nodes)" in out
    assert "picture: " in out and "(10 nodes drawn, 5 in bold)" in out
    assert _groups(picture, "node") == {"solution": 5, "solvable": 3, "other": 2}
    # The second solution graph: P0 -> M2, M2 -> P3, P4 and P5.
    assert _groups(picture, "arc") == {"solution": 4, "other": 7}


def test_seven_coins_game_graph(tmp_path, capsys):
    """The complete graph of 7 coins (take 1 or 2, the last coin loses): 14 positions;
    the first player has no solution graph; the second's has the chapter's 8 positions."""
    picture = tmp_path / "nim.svg"
    assert main(["nim", "--graph", str(picture)]) == 0
    out = capsys.readouterr().out
    assert "game graph: nim from 7+: 14 positions (repeated positions merged), 22 arcs" in out
    assert "W(7+) has no solution graph: 7+ is not solvable" in out
    assert "W(7+): first (PLUS) can force a win; first's positions are OR nodes, second's AND nodes" in out
    assert "V(7+): second (MINUS) can force a win; second's positions are OR nodes, first's AND nodes" in out
    assert "solution graphs: 1\n  1: 7+, 5−, 6−, 4+, 2−, 3−, 1+, 0−  (8 nodes)" in out
    # Merged: 4+ is one node reached from both 5− and 6−.
    assert "5− -> 4+ (1); 6− -> 4+ (2)" in out
    assert _groups(picture, "node") == {"solution": 8, "other": 6}
    assert _groups(picture, "arc")["solution"] == 9


def test_v_is_minus_can_win():
    """The chapters' V(X) is "MINUS can win": MINUS's positions become OR nodes and PLUS's
    losses are solved; a draw solves neither problem."""
    graph = andor.parse({"root": "a", "nodes": {
        "a": {"kind": "or", "children": ["b", "c"]},
        "b": {"kind": "and", "children": ["d", "e"]},
        "c": {"kind": "terminal", "value": "loss"},
        "d": {"kind": "terminal", "value": "draw"},
        "e": {"kind": "terminal", "value": "win"}}})
    assert andor.mark(graph, "W").solvable == {"e"}
    v = andor.pose(graph, "V")
    assert (v.kind["a"], v.kind["b"]) == ("and", "or")
    # MINUS wins at c; at b it can choose d (a draw: no) or e (PLUS's win: no); a needs both.
    assert andor.mark(v, "V").solvable == {"c"}
    assert andor.solution_graphs(graph, andor.mark(graph, "W")) == ([], True)
    assert andor.PROBLEMS["V"] == "MINUS can force a win"


def test_v_printed_as_the_chapter_defines_it(capsys):
    assert main(["nim", "--graph", "--problem", "V"]) == 0
    out = capsys.readouterr().out
    assert "V(7+): second (MINUS) can force a win" in out and "cannot lose" not in out
    assert "solution graphs: 1\n  1: 7+, 5−, 6−, 4+, 2−, 3−, 1+, 0−  (8 nodes)" in out


def test_tictactoe_graph_has_every_position_once():
    """5,478 legal positions (REFERENCE.md): the graph merges every transposition; neither
    x (W) nor o (V) can force a win: a draw."""
    game = games.load("tictactoe")
    graph = andor.from_game(game, game.new_position(), 0)
    assert len(graph.kind) == 5478
    assert graph.root not in andor.mark(andor.pose(graph, "V"), "V").solvable
    assert graph.root not in andor.mark(graph, "W").solvable


def test_minimal_beyond_the_listed_graphs_is_a_solution_graph():
    game = games.load("tictactoe")
    # x has played the centre and o an edge: x can force a win.
    pos = game.new_position()
    for m in ("b2", "a2"):
        pos.push(pos.parse_move(m))
    graph = andor.from_game(game, pos, pos.turn)
    marking = andor.mark(graph, "W")
    found, complete = andor.solution_graphs(graph, marking, limit=5)
    assert len(found) == 5 and not complete
    best = andor.minimal_solution(graph, marking)
    ok = marking.solvable
    for n in best.nodes:
        assert n in ok
        if graph.kind[n] == "and":
            assert set(graph.children[n]) <= best.nodes
        elif graph.kind[n] == "or":
            assert best.choice[n] in graph.children[n] and best.choice[n] in best.nodes
    assert len(best.nodes) <= min(len(s.nodes) for s in found)


@pytest.mark.parametrize("content, why", [
    ("{", "not a JSON file"),
    ('{"root": "a", "nodes": {"a": {"kind": "or", "children": ["b"]}}}', "successor 'b' is not a node"),
    ('{"root": "a", "nodes": {"a": {"kind": "or", "children": ["b"]}, "b": {"kind": "and", "children": ["a"]}}}',
     "the graph has a cycle (a -> b -> a)"),
    ('{"root": "a", "nodes": {"a": {"kind": "xor", "children": []}}}', "kind must be one of"),
    ('{"root": "a", "nodes": {"a": {"kind": "terminal", "solved": true, "value": "win"}}}', "either"),
    ('{"root": "z", "nodes": {"a": {"kind": "terminal", "solved": true}}}', '"root" must name a node'),
    ('{"root": "a", "nodes": {"a": {"kind": "terminal", "value": "maybe"}}}', '"value" must be one of'),
    ('{"root": "a", "nodes": {"a": {"kind": "and", "children": []}}}', "non-empty list"),
    ('{"root": "a", "nodes": {"a": {"kind": "terminal", "solved": true, "code": "x"}}}', "unexpected field"),
])
def test_bad_graph_files_get_one_line_naming_the_file(tmp_path, content, why):
    path = tmp_path / "g.json"
    path.write_text(content)
    run = subprocess.run([sys.executable, "-m", "protocol", "solve", "--file", str(path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and why in lines[0], run.stderr
    assert "Traceback" not in run.stderr


def test_fig10_file_is_plain_data():
    data = json.loads(Path(FIG10).read_text())
    assert set(data) == {"title", "note", "root", "nodes"}


def test_game_graph_as_png(tmp_path, capsys):
    picture = tmp_path / "nim.png"
    assert main(["nim", "--graph", str(picture), "--problem", "V"]) == 0
    assert "picture: " in capsys.readouterr().out
    data = picture.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
