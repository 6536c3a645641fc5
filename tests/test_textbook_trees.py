"""The textbook chapters' trees: the shipped tree files (docs/trees) reproduce their
figures, cut-offs are named by the rule and the ancestor that caused them, the
one-bound alpha-beta makes no deep cut-offs, every algorithm takes the first of
equally good moves, vector trees are backed up by max^n (Korf's pruning marked),
per-level counts stay exact beyond the record's limit, and no tool runs a
two-player algorithm on a game of more than two players. Oracles: plain
recursive minimax and max^n over nested lists, an independent tic-tac-toe
enumeration, and the engine's N-player search.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import games
from engine.multiplayer import MultiplayerSearcher
from engine.textbook import Textbook
from engine.timeman import Limits
from engine.trace import Recorder, best_line
from games.tree import TreeGame
from tests.multiplayer_toys import TakeAway

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "docs" / "trees"
TWO_PLAYER = ("minimax", "alphabeta", "alphabeta1", "pvs")


def zermelo(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def run_main(main, argv, capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
    out = capsys.readouterr()
    return code, out.out, out.err


def searched(game: TreeGame, algorithm: str, depth: int | None = None):
    pos = game.new_position()
    recorder = Recorder(pos)
    book = Textbook(pos, recorder)
    value = book.search(algorithm, depth or game.height())
    return value, book, recorder


def count(tree) -> tuple[int, int]:
    """(nodes, leaves) of a nested-list tree."""
    if not isinstance(tree, list):
        return 1, 1
    sub = [count(c) for c in tree]
    return 1 + sum(n for n, _ in sub), sum(leaves for _, leaves in sub)


def maxn_oracle(tree, mover: int, n: int):
    """Plain max^n over nested lists of vectors: the first best child for the mover."""
    if all(isinstance(v, int) for v in tree):
        return tuple(tree)
    best = None
    for child in tree:
        v = maxn_oracle(child, (mover + 1) % n, n)
        if best is None or v[mover] > best[mover]:
            best = v
    return best


def plain(node):
    """A tree file's node as nested lists (names and static values dropped)."""
    if isinstance(node, dict):
        return plain(node["children"]) if "children" in node else plain(node["value"])
    if isinstance(node, list) and node and all(isinstance(v, int) for v in node):
        return node
    return [plain(c) for c in node] if isinstance(node, list) else node


def load(name: str) -> TreeGame:
    return TreeGame.from_text((TREES / name).read_text())


# -- chapter 1: alpha-beta on the rebuilt Fig. 5, rules A and B --------------------------

def test_fig5_visits_11_of_17_nodes_and_6_of_10_leaves_below_the_root():
    game = load("fig5.json")
    assert count(plain(json.loads((TREES / "fig5.json").read_text())["tree"])) == (18, 10)
    value, book, recorder = searched(game, "alphabeta")
    assert value == 3 and book.nodes - 1 == 11 and book.leaves == 6
    cuts = {tuple(n.move for n in path_to(recorder.root, node)): node.cut
            for node in recorder.root.walk() if node.cut}
    # W3 = 1 2 (a max node: a β-cut by its parent W1), W4 = 2 (a min node: an α-cut by the root).
    assert {path: (c.kind, c.by) for path, c in cuts.items()} == {(0, 1): ("window", 1), (1,): ("window", 0)}


def path_to(root, target):
    """The nodes from the root's child to ``target``."""
    def walk(node, trail):
        if node is target:
            return trail
        for child in node.children:
            found = walk(child, trail + [child])
            if found is not None:
                return found
        return None
    return walk(root, [])


def test_fig5_on_the_command_line_names_each_cut_and_its_ancestor():
    out = zermelo("tree", "--file", str(TREES / "fig5.json"), "--algorithm", "alphabeta")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "visited: 12 nodes in all; 6 leaves evaluated" in text
    assert "at W1 W3: β-cut: 4 ≥ β=3 from W1; never searched: 2" in text
    assert "at W4: α-cut: 3 ≤ α=3 from root; never searched: 2, 3" in text
    assert text.count("β-cut (never searched)") == 1 and text.count("α-cut (never searched)") == 2


def test_deep_cut_offs_are_named_and_the_one_bound_alpha_beta_makes_none():
    game = load("deep-cutoff.json")
    value2, book2, rec2 = searched(game, "alphabeta")
    value1, book1, rec1 = searched(game, "alphabeta1")
    assert value1 == value2 == 5
    assert (book2.nodes, book1.nodes) == (8, 9)
    [deep] = [n for n in rec2.root.walk() if n.cut]
    assert (deep.ply, deep.cut.by) == (3, 0)
    assert not [n for n in rec1.root.walk() if n.cut]
    out = zermelo("tree", "--file", str(TREES / "deep-cutoff.json"))
    assert "at b c d: α-cut: 4 ≤ α=5 from root, deep; never searched: 2" in out.stdout


def random_tree(rng: random.Random, depth: int):
    if depth == 0 or (depth < 4 and rng.random() < 0.15):
        return rng.randint(-9, 9)
    return [random_tree(rng, depth - 1) for _ in range(rng.randint(1, 4))]


def oracle(tree, maximising: bool = True) -> int:
    if not isinstance(tree, list):
        return tree
    values = [oracle(c, not maximising) for c in tree]
    return max(values) if maximising else min(values)


def first_best(tree) -> int:
    values = [oracle(c, False) for c in tree]
    return values.index(max(values))


class Paths:
    def __init__(self):
        self.stack, self.visited = [], set()

    def enter(self, move, depth, alpha, beta, quiescence):
        path = self.stack[-1] + (move,) if self.stack else ()
        self.stack.append(path)
        self.visited.add(path)

    def leave(self, value):
        self.stack.pop()


def test_one_bound_alpha_beta_on_random_trees():
    """Same value and move as minimax; a superset of full alpha-beta's nodes (deep
    cut-offs only ever save); every cut-off by the parent; full alpha-beta's cut-offs
    all by an ancestor of the other side (an odd number of plies up), some deep."""
    rng = random.Random(7)
    deep_seen = saved = 0
    for _ in range(300):
        tree = random_tree(rng, rng.randint(2, 6))
        if not isinstance(tree, list):
            continue
        game = TreeGame(tree=tree)
        visited = {}
        for algorithm in ("alphabeta", "alphabeta1"):
            listener = Paths()
            Textbook(game.new_position(), listener).search(algorithm, game.height())
            visited[algorithm] = listener.visited
            value, book, recorder = searched(game, algorithm)
            assert value == oracle(tree) and book.best == first_best(tree)
            for node in recorder.root.walk():
                if node.cut is None:
                    continue
                assert (node.ply - node.cut.by) % 2 == 1
                if algorithm == "alphabeta1":
                    assert node.cut.by == node.ply - 1
                else:
                    deep_seen += node.cut.by < node.ply - 1
        assert visited["alphabeta"] <= visited["alphabeta1"]
        saved += len(visited["alphabeta1"]) - len(visited["alphabeta"])
    assert deep_seen > 0 and saved > 0


# -- ties: the first best move, by every algorithm ---------------------------------------

@pytest.mark.parametrize("algorithm", TWO_PLAYER + ("engine",))
def test_every_algorithm_names_the_first_of_tied_moves(algorithm):
    out = zermelo("tree", "--file", str(TREES / "ties.json"), "--algorithm", algorithm)
    assert out.returncode == 0, out.stderr
    assert "value: 3 for max; best move: 1" in out.stdout
    # The starred line is the named move's.
    starred = [line for line in out.stdout.splitlines() if line.endswith("*")]
    assert starred[1].startswith("├─ 1 ")


def test_ties_on_random_trees_go_to_the_first_move():
    rng = random.Random(11)
    for _ in range(200):
        tree = [[rng.randint(0, 3) for _ in range(rng.randint(1, 3))] for _ in range(rng.randint(2, 4))]
        game = TreeGame(tree=tree)
        for algorithm in TWO_PLAYER:
            _, book, recorder = searched(game, algorithm)
            assert book.best == first_best(tree) == best_line(recorder.root)[1].move


# -- chapter 2: a minimiser at the root, named nodes -----------------------------------------

def test_a_minimiser_at_the_root_chooses_c_worth_minus_7():
    game = load("min-root.json")
    for algorithm in TWO_PLAYER:
        value, book, _ = searched(game, algorithm)
        assert (-value, game.new_position().move_text(book.best)) == (-7, "C")
    out = zermelo("tree", "--file", str(TREES / "min-root.json"), "--algorithm", "minimax")
    assert "value: -7 for max (min to move); best move: C" in out.stdout
    assert "root  min  -7" in out.stdout


def test_named_nodes_are_moves():
    game = load("fig5.json")
    pos = game.new_position("W1 W3")
    assert pos.render() == "node W3 (max to move)" and pos.to_text() == "W1 W3"
    pos = game.new_position("W4 2")
    assert pos.legal_moves() == [0, 1]


@pytest.mark.parametrize("text, words", [
    ('{"tree": [1, 2], "root": "nobody"}', "no player 'nobody'"),
    ('{"tree": [[1, 2]], "players": 3}', "vector of 3 integers"),
    ('{"tree": [{"name": "A", "value": 1}, {"name": "A", "value": 2}]}', "two children named 'A'"),
    ('{"tree": [{"name": "7", "value": 1}]}', "not a number"),
    ('{"tree": [1], "colour": "red"}', "unknown key 'colour'"),
    ('{"tree": [{"children": []}]}', "non-empty list"),
    ("[[1, 2], [3, true]]", "integers below 1,000,000"),
    ("[1, [", "nested lists"),
])
def test_a_bad_tree_file_is_one_line_naming_the_file(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    out = zermelo("tree", "--file", str(path))
    assert out.returncode != 0 and out.stdout == ""
    [line] = out.stderr.strip().splitlines()
    assert line.startswith(f"zermelo tree: {path}: ") and words in line


# -- chapter 5: more than two players ---------------------------------------------------------

def test_node_x_backs_up_1_2_6():
    doc = json.loads((TREES / "node-x.json").read_text())
    game = load("node-x.json")
    value, book, recorder = searched(game, "maxn")
    [x] = [n for n in recorder.root.walk() if n.ply == 2 and n.move == 0 and n.turn == 2
           and best_line(recorder.root)[2] is n]
    assert x.vector == (1, 2, 6) and game.new_position("1 X").render() == "node X (C to move)"
    assert book.vector == maxn_oracle(plain(doc["tree"]), 0, 3) == (1, 2, 6)
    out = zermelo("tree", "--file", str(TREES / "node-x.json"))
    assert "value: ⟨1, 2, 6⟩ (A 1, B 2, C 6), A to move; best move: 1" in out.stdout
    assert "X  C  ⟨1, 2, 6⟩  *" in out.stdout
    # The same node alone, C to move at it, from the command line's --players.
    single = ROOT / "tests" / "data" / "node_x.json"
    out = zermelo("tree", "--file", str(single), "--players", "3")
    assert "value: ⟨1, 2, 6⟩ (A 1, B 2, C 6), C to move; best move: 1" in out.stdout


def test_the_alliance_forms_and_breaks_up_under_maxn():
    doc = json.loads((TREES / "alliance.json").read_text())
    game = load("alliance.json")
    value, book, recorder = searched(game, "maxn")
    assert book.vector == maxn_oracle(plain(doc["tree"]), 0, 3) == (4, 4, 0)
    pos = game.new_position()
    line = []
    for node in best_line(recorder.root)[1:]:
        line.append(pos.move_text(node.move))
        pos.push(node.move)
    # A and B both hit the strong C; after C hits back, A turns on B.
    assert line == ["AxC", "BxC", "CxA", "AxB", "BxC"]
    _, paranoid, _ = searched(game, "paranoid")
    assert paranoid.vector != book.vector


def test_cooperation_is_found_by_maxn_and_lost_by_paranoid():
    game = load("cooperation.json")
    _, maxn, _ = searched(game, "maxn")
    assert maxn.vector == (1000, 1000) and game.new_position().move_text(maxn.best) == "share"
    value, paranoid, _ = searched(game, "paranoid")
    assert (value, paranoid.vector, game.new_position().move_text(paranoid.best)) == (5, (5, 5), "safe")


def test_korfs_pruned_leaves_are_marked_cut():
    """The hand-checked tree of the engine's N-player tests (S = 10, node d moved by C)."""
    tree = [{"children": [{"children": [[1, 2, 6], [4, 2, 3]]}, {"children": [[0, 0, 10], [5, 4, 1]]}]},
            {"children": [[6, 3, 1], [7, 2, 1]]},
            {"children": [[2, 5, 3], [8, 1, 1]]},
            {"player": "C", "children": [[7, 1, 2], [3, 1, 6], [9, 0, 1]]},
            {"children": [[7, 3, 0], [6, 4, 0]]}]
    game = TreeGame(tree={"players": 3, "tree": tree})
    value, book, recorder = searched(game, "maxn")
    assert book.vector == (6, 3, 1) and book.best == 1
    kinds = {}
    for node in recorder.root.walk():
        if node.cut:
            kinds[tuple(n.move for n in path_to(recorder.root, node))] = (node.cut.kind, node.unsearched)
    assert kinds == {(0, 1): ("immediate", [1]), (2,): ("shallow", [1]), (3,): ("shallow", [2])}


def nplayer_games():
    """(name, player count) of every registered game with more than two players."""
    out = []
    for name in games.names():
        cls = games.game_class(name)
        field = cls.Params.model_fields.get("players")
        if field is None:
            if len(games.load(name).players) > 2:
                out.append((name, len(games.load(name).players)))
            continue
        top = max(m.le for m in field.metadata if hasattr(m, "le"))
        out.extend((name, n) for n in range(3, top + 1))
    return out


NPLAYER = nplayer_games()


def test_the_nplayer_games_are_found():
    assert {name for name, _ in NPLAYER} == {"rolit", "mnkmulti"} and len(NPLAYER) == 4


@pytest.fixture
def no_two_player_search(monkeypatch):
    """Fail at once if a two-player algorithm starts on a game of more than two players."""
    import engine.search
    import engine.textbook
    from engine.textbook import players_of

    calls = []
    # The two-player searcher drives its search through this module global (the class
    # itself is a C type in the compiled build, whose methods cannot be patched).
    real_value, real_search = engine.textbook.Textbook._value, engine.search.drive

    def value(self, *args):
        assert players_of(self.pos) <= 2, "a two-player textbook search on an N-player game"
        calls.append("textbook")
        return real_value(self, *args)

    def search(worker, game, pos, *args, **kwargs):
        if isinstance(worker, engine.search.Searcher):
            assert len(game.players) <= 2, "the two-player engine search on an N-player game"
            calls.append("engine")
        return real_search(worker, game, pos, *args, **kwargs)

    monkeypatch.setattr(engine.textbook.Textbook, "_value", value)
    monkeypatch.setattr(engine.search, "drive", search)
    return calls


@pytest.mark.parametrize("name, n", NPLAYER)
def test_no_tool_runs_a_two_player_algorithm_on_an_nplayer_game(name, n, capsys, no_two_player_search):
    from protocol import explain_cli, lab_cli, solve_cli, tree_cli

    small = ["-p", f"players={n}"] + (["-p", "m=4", "-p", "n=4", "-p", "k=3"] if name == "mnkmulti" else [])
    for algorithm in TWO_PLAYER + ("engine",):
        code, out, err = run_main(tree_cli.main, [name, *small, "--depth", "2", "--algorithm", algorithm], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert f"a game of {n} players" in err and "maxn, paranoid or brs" in err
    for algorithm in ("maxn", "paranoid", "brs", None):
        argv = [name, *small, "--depth", "2"] + (["--algorithm", algorithm] if algorithm else [])
        code, out, err = run_main(tree_cli.main, argv, capsys)
        assert code == 0, err
        if algorithm in ("maxn", None):
            assert "value: ⟨" in out
    for experiment in (["alphabeta", "--depth", "2"], ["deepening", "--depth", "2"], ["quiescence"]):
        code, out, err = run_main(lab_cli.main, [*experiment, "--game", name, *small], capsys)
        assert code == 2 and f"a game of {n} players" in err and len(err.strip().splitlines()) == 1
    code, out, err = run_main(explain_cli.main, [name, *small], capsys)
    assert code == 0 and "one value per player" in out and "evaluation for" not in out
    code, out, err = run_main(solve_cli.main, [name, *small, "--budget", "1000"], capsys)
    assert code == 2 and "two-player games only" in err
    assert no_two_player_search == []


def test_rolit_for_three_over_the_command_line():
    out = zermelo("tree", "rolit", "-p", "players=3", "--depth", "2")
    assert out.returncode == 0, out.stderr
    assert "algorithm: maxn" in out.stdout and "value: ⟨" in out.stdout
    # Every node searched shows a vector (no scalar of the two-player search, negated or not).
    tree = out.stdout.split("\n\n", 1)[1].splitlines()
    assert tree and all("⟨" in line or "never searched" in line for line in tree)
    refused = zermelo("tree", "rolit", "-p", "players=3", "--depth", "2", "--algorithm", "minimax")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip() == ("zermelo tree: rolit is a game of 3 players: minimax is for two players with "
                                      "one value; use --algorithm maxn, paranoid or brs")


def random_nplayer_positions(rng: random.Random):
    for _ in range(60):
        game = TakeAway(players=rng.choice((3, 4)), seed=rng.randrange(1 << 30), max_take=rng.choice((2, 3)))
        yield game, f"{rng.randrange(1, 12)} {rng.randrange(len(game.players))}", rng.randrange(1, 5)
    for name, n in NPLAYER:
        game = games.load(name, players=n, **({"m": 4, "n": 4, "k": 3} if name == "mnkmulti" else {}))
        for _ in range(3):
            pos = game.new_position()
            for _ in range(rng.randrange(0, 5)):
                pos.push(rng.choice(pos.legal_moves()))
            yield game, pos.to_text(), 2


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_the_textbook_nplayer_searches_agree_with_the_engines(algorithm):
    """The engine's N-player search without its table and move ordering is the same
    definition: the same value and move on every position."""
    rng = random.Random(len(algorithm))
    for game, text, depth in random_nplayer_positions(rng):
        pos = game.new_position(text)
        if not pos.legal_moves():
            continue
        searcher = MultiplayerSearcher(1, algorithm)
        searcher.ordering = False
        result = searcher.search(game, pos, Limits(depth=depth))
        book = Textbook(game.new_position(text))
        assert (book.search(algorithm, depth), book.best) == (result.score, result.best), (text, depth)


# -- the record beyond 200,000 nodes ---------------------------------------------------------

def tictactoe_levels() -> list[int]:
    """Nodes per ply of the complete tic-tac-toe tree, enumerated plainly."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    levels = [0] * 10

    def walk(board: list[str], ply: int) -> None:
        levels[ply] += 1
        if any(board[a] != "." and board[a] == board[b] == board[c] for a, b, c in lines):
            return
        for i in range(9):
            if board[i] == ".":
                board[i] = "xo"[ply % 2]
                walk(board, ply + 1)
                board[i] = "."

    walk(["."] * 9, 0)
    return levels


def test_counts_stay_exact_beyond_the_record():
    out = zermelo("tree", "tictactoe", "--depth", "9", "--algorithm", "minimax")
    assert out.returncode == 0, out.stderr
    levels = tictactoe_levels()
    assert sum(levels) == 549_946
    [line] = [x for x in out.stdout.splitlines() if x.startswith("nodes per level: ")]
    counts = [int(part.split(": ")[1].split()[0]) for part in line[len("nodes per level: "):].split(", ")]
    assert counts == levels
    assert "visited: 549,946 nodes in all; 255,168 leaves evaluated" in out.stdout
    assert "record: the first 200,000 nodes are kept for the text and pictures (the counts above are of all " \
           "549,946)" in out.stdout
    assert "cut:" not in out.stdout  # minimax cuts nothing, even where the record stops


def test_the_recorder_counts_what_it_drops():
    game = TreeGame.uniform(3, 5, 4)
    small, full = Recorder(game.new_position(), limit=50), Recorder(game.new_position())
    Textbook(game.new_position(), small).search("alphabeta", 5)
    Textbook(game.new_position(), full).search("alphabeta", 5)
    assert small.truncated and not full.truncated
    assert small.level_counts() == full.level_counts() == [(n, leaves) for n, leaves in
                                                           __import__("engine.trace").trace.level_counts(full.root)]


def test_pictures_name_the_cuts(tmp_path):
    pytest.importorskip("matplotlib")
    import xml.etree.ElementTree as ET

    path = tmp_path / "fig5.svg"
    out = zermelo("tree", "--file", str(TREES / "fig5.json"), "--svg", str(path))
    assert out.returncode == 0, out.stderr
    footnotes, cut = [], 0
    for group in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}g"):
        gid = group.get("id") or ""
        if gid.startswith("footnote"):
            footnotes.append(" ".join(t.strip() for t in group.itertext() if t.strip()))
        cut += gid.startswith("node-") and gid.endswith("-cut")
    # Each rule once, keyed to the node that cut, with the ancestor whose bound did it;
    # the never-searched nodes below W3 and W4 drawn as cut.
    assert len(footnotes) == 2
    assert "β-cut: 4 ≥ β=3 from W1" in footnotes[0] and "α-cut: 3 ≤ α=3 from root" in footnotes[1]
    assert cut == 6
