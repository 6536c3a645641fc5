"""Search trees and measurements shown: indented text for the terminal, pictures by matplotlib.

The trees come from :class:`engine.trace.Recorder` (what a search visited) or
from :func:`engine.pns.solution_tree`; this module only lays them out. Values
and windows are shown from the root player's view, as the textbooks draw them:
"max" nodes (the root player to move, drawn ▲) and "min" nodes (▼), a value
``≥ v`` or ``≤ v`` where the search only proved a bound. Moves the search never
tried are "cut": drawn grey and dashed (for abstract trees their whole subtrees,
for games one stub per move); the principal line is drawn thick. Where a search
says why it cut (the textbook searches do), the node is labelled with the rule:
an α-cut (a min node fell to the α of a max ancestor) or a β-cut (a max node
reached the β of a min ancestor), naming that ancestor and whether it is the
parent (shallow) or further up (deep); for max^n, Korf's shallow and immediate
cut-offs. Nodes of N-player searches show their value vectors ⟨a, b, c⟩.

Pictures are SVG or PNG by the file's suffix; every node is one SVG group with an
id ``node-N-KIND`` (KIND ``best``, ``visited``, ``cut`` or ``more``), so a picture
can be checked by counting them. matplotlib is an optional dependency
(``pip install 'zermelo[plots]'``); without it :func:`require_matplotlib` raises
:class:`PlotsUnavailable` with the one line to print.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine.game import EVAL_LIMIT, NO_MOVE, WIN, mate_plies
from engine.trace import Cut, Node, best_line

#: Most nodes a picture draws; deeper levels are folded into "+N" stubs beyond it.
PICTURE_LIMIT = 300
INF_SHOWN = WIN


class PlotsUnavailable(RuntimeError):
    """matplotlib is not installed."""


def require_matplotlib():
    """``matplotlib.pyplot`` with the file-only Agg backend, or :class:`PlotsUnavailable`."""
    try:
        import matplotlib
    except ImportError:
        raise PlotsUnavailable("pictures and plots need matplotlib: pip install 'zermelo[plots]'") from None
    matplotlib.use("Agg")
    # Text stays text in SVG, and a picture drawn again is the same file.
    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["svg.hashsalt"] = "zermelo"
    import matplotlib.pyplot as plt
    return plt


def _save(fig, path: str) -> None:
    metadata = {"Date": None} if path.lower().endswith(".svg") else {"Software": None}
    fig.savefig(path, metadata=metadata)


def check_picture_path(path: str) -> None:
    """Refuse, before any work, a picture path that could not be written: a suffix
    other than .svg or .png, a directory that does not exist or cannot be written,
    a directory in the file's place. Every picture and plot option calls this first,
    so a typo costs one line at once rather than a traceback after the work."""
    target = Path(path)
    if target.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"{path}: a picture is written as .svg or .png")
    folder = target.parent
    if not folder.is_dir():
        raise ValueError(f"{path}: no such directory {str(folder)!r}")
    if target.is_dir():
        raise ValueError(f"{path}: is a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{path}: the directory {str(folder)!r} is not writable")


# -- values as the textbooks show them ---------------------------------------------------

def score_text(v: int) -> str:
    """A value for people: a number, ``±∞`` for the open window, ``win in n``/``loss in n``."""
    if v >= INF_SHOWN:
        return "+∞"
    if v <= -INF_SHOWN:
        return "-∞"
    plies = mate_plies(v)
    if plies is not None:
        return f"win/{plies}" if plies > 0 else f"loss/{-plies}"
    if abs(v) > EVAL_LIMIT:
        return "win" if v > 0 else "loss"
    return str(v)


@dataclass(eq=False)
class Shown:
    """A node as drawn: labels, kind and children."""

    move: str
    value: str
    window: str
    kind: str
    """``best`` (on the principal line), ``visited``, ``cut`` (never searched) or ``more`` (folded)."""
    maximising: bool
    quiescence: bool = False
    children: list[Shown] = field(default_factory=list)
    side: str = ""
    """What the text calls the node's kind (default ``max``/``min``)."""
    note: str = ""
    """Why the search left this node early (on a cut stub: the rule that cut it)."""

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


def vector_text(vector) -> str:
    return "⟨" + ", ".join(str(v) for v in vector) + "⟩"


def cut_text(cut: Cut, node_max: bool, by: str, by_player: str, mover: str, deep: bool) -> str:
    """The rule that cut a node's remaining moves, in the view of the picture
    (``node_max``: the node is a max node there), naming the ancestor ``by``."""
    if cut.kind == "immediate":
        return f"immediate cut: {mover} has {cut.value}, the most a player can get"
    if cut.kind == "shallow":
        return f"shallow cut: {by_player} gets at most {cut.value} here, has {cut.bound} at {by}"
    where = f"from {by}" + (", deep" if deep else "")
    if node_max:
        return f"β-cut: {score_text(cut.value)} ≥ β={score_text(cut.bound)} {where}"
    return f"α-cut: {score_text(-cut.value)} ≤ α={score_text(-cut.bound)} {where}"


def cut_name(cut: Cut, node_max: bool) -> str:
    """The short name of a cut: α-cut, β-cut, shallow cut, immediate cut."""
    if cut.kind == "window":
        return "β-cut" if node_max else "α-cut"
    return f"{cut.kind} cut"


def shown_tree(root: Node, move_text: Callable[[list[int]], str],
               expand_cut: Callable[[list[int], int], Shown | None] | None = None,
               view: int | None = None, players: tuple[str, ...] | None = None) -> Shown:
    """The recorded tree as drawn. ``move_text(path)`` names the last move of a path
    of moves from the root; ``expand_cut(path, depth)`` may return the subtree below
    an unsearched move, rooted at that move (abstract trees draw what alpha-beta skipped).
    Values are shown from player ``view``'s side (default: the root's); ``players``
    names the players of an N-player search (its nodes are called by the mover)."""
    on_line = {id(n) for n in best_line(root)}
    max_turn = root.turn if view is None else view

    def view_of(node: Node) -> tuple[str, str]:
        assert node.value is not None
        if node.vector is not None:
            return vector_text(node.vector), ""
        mine = node.turn == max_turn
        v = node.value if mine else -node.value
        lo, hi = (node.alpha, node.beta) if mine else (-node.beta, -node.alpha)
        fail_high, fail_low = node.value >= node.beta, node.value <= node.alpha
        mark = ""
        if not node.children and not node.unsearched:
            pass  # a leaf's value is exact whatever the window
        elif fail_high:
            mark = "≥" if mine else "≤"
        elif fail_low:
            mark = "≤" if mine else "≥"
        return mark + score_text(v), f"{score_text(lo)},{score_text(hi)}"

    def side(node: Node) -> str:
        if players is None:
            return ""
        name = players[node.turn]
        return name if node.vector is not None else f"{name} {'max' if node.turn == max_turn else 'min'}"

    def build(node: Node, path: list[int], above: list[tuple[str, int]]) -> Shown:
        value, window = view_of(node)
        label = move_text(path) if path else "root"
        node_max = node.turn == max_turn
        shown = Shown(label, value, window, "best" if id(node) in on_line else "visited", node_max,
                      node.quiescence, side=side(node))
        # An ancestor is called by its path of moves (names in a file tree), unique in the tree.
        called = " ".join(move_text(path[:i + 1]) for i in range(len(path))) if path else "root"
        ancestors = above + [(called, node.turn)]
        for child in node.children:
            shown.children.append(build(child, path + [child.move], ancestors))
        stub_note = ""
        if node.cut is not None:
            by, by_turn = ancestors[node.cut.by] if 0 <= node.cut.by < len(ancestors) else ("nobody", node.turn)
            names = players or ("max", "min")
            shown.note = cut_text(node.cut, node_max, by, names[by_turn % len(names)],
                                  names[node.turn % len(names)], node.cut.by < len(above) - 1)
            stub_note = cut_name(node.cut, node_max)
        if expand_cut is not None:
            for m in node.unsearched:
                stub = expand_cut(path + [m], node.depth - 1)
                stub = stub or Shown(move_text(path + [m]), "", "", "cut", node.turn != max_turn)
                stub.note = stub_note
                shown.children.append(stub)
        elif node.unsearched:
            # A game's unsearched moves: one stub for them all, so that the searched part stays readable.
            n = len(node.unsearched)
            shown.children.append(Shown(f"{n} move{'s' if n > 1 else ''}", "", "", "cut", node.turn != max_turn,
                                        note=stub_note))
        return shown

    return build(root, [] if root.move == NO_MOVE else [root.move], [])


def cut_lines(root: Shown) -> list[str]:
    """One line per node the search left early: where, and the rule that did it."""
    out = []

    def walk(node: Shown, path: list[str]) -> None:
        here = path + [node.move] if node.move != "root" else path
        if node.note and node.kind != "cut":
            skipped = [c.move for c in node.children if c.kind == "cut"]
            where = " ".join(here) or "root"
            out.append(f"  at {where}: {node.note}; never searched: {', '.join(skipped)}")
        for child in node.children:
            walk(child, here)

    walk(root, [])
    return out


def counts_text(levels: list[tuple[int, int]]) -> str:
    """Node and leaf counts per level, one line."""
    parts = [f"{i}: {n}" + (f" ({leaves} leaves)" if leaves else "") for i, (n, leaves) in enumerate(levels)]
    return "nodes per level: " + ", ".join(parts)


# -- text ---------------------------------------------------------------------------------

_COLOURS = {"best": "\033[1;32m", "cut": "\033[2m", "more": "\033[2m", "visited": ""}
_RESET = "\033[0m"


def colour_wanted(stream) -> bool:
    return hasattr(stream, "isatty") and stream.isatty() and not os.environ.get("NO_COLOR")


def text_tree(root: Shown, colour: bool = False, limit: int = 400) -> list[str]:
    """The tree indented, one node a line: move, max/min, value, [window]; at most ``limit`` lines."""
    lines: list[str] = []

    def line(node: Shown, prefix: str, last: bool, top: bool) -> None:
        if len(lines) >= limit:
            return
        branch = "" if top else ("└─ " if last else "├─ ")
        side = node.side or ("max" if node.maximising else "min")
        if node.kind == "cut":
            body = f"{node.move}  {node.note or 'cut'} (never searched)" + (f"  {node.value}" if node.value else "")
        elif node.kind == "more":
            body = node.move
        else:
            q = " q" if node.quiescence else ""
            body = f"{node.move}  {side}{q}  {node.value}" + (f"  [{node.window}]" if node.window else "")
        if node.kind == "best":
            body += "  *"
        if node.note and node.kind != "cut":
            body += f"  ({node.note})"
        text = prefix + branch + body
        if colour and _COLOURS[node.kind]:
            text = prefix + branch + _COLOURS[node.kind] + body + _RESET
        lines.append(text)
        child_prefix = prefix + ("" if top else ("   " if last else "│  "))
        for i, child in enumerate(node.children):
            line(child, child_prefix, i == len(node.children) - 1, False)

    line(root, "", True, True)
    total = sum(1 for _ in root.walk())
    if total > len(lines):
        lines.append(f"... {total - len(lines)} more nodes (draw it with --svg or --png)")
    return lines


# -- pictures -------------------------------------------------------------------------------

def fold(root: Shown, limit: int = PICTURE_LIMIT) -> Shown:
    """A copy of the tree with whole levels kept while the total stays within ``limit``;
    the children of the last kept level become one ``+N`` stub each."""
    levels = [[root]]
    while levels[-1]:
        levels.append([c for n in levels[-1] for c in n.children])
    levels.pop()
    kept, total = 0, 0
    for depth, level in enumerate(levels):
        if total + len(level) > limit and depth > 0:
            break
        total += len(level)
        kept = depth
    copies: dict[int, Shown] = {}

    def copy(node: Shown, depth: int) -> Shown:
        out = Shown(node.move, node.value, node.window, node.kind, node.maximising, node.quiescence, side=node.side,
                    note=node.note)
        copies[id(node)] = out
        if depth < kept:
            out.children = [copy(c, depth + 1) for c in node.children]
        elif node.children:
            hidden = sum(1 for _ in node.walk()) - 1
            out.children = [Shown(f"+{hidden}", "", "", "more", not node.maximising)]
        return out

    return copy(root, 0)


def _layout(root: Shown) -> dict[int, tuple[float, int]]:
    """x (leaves evenly spaced, parents centred over their children) and level of every node."""
    pos: dict[int, tuple[float, int]] = {}
    next_x = [0.0]

    def place(node: Shown, depth: int) -> float:
        if not node.children:
            x = next_x[0]
            next_x[0] += 1
        else:
            xs = [place(c, depth + 1) for c in node.children]
            x = (xs[0] + xs[-1]) / 2
        pos[id(node)] = (x, depth)
        return x

    place(root, 0)
    return pos


def draw_tree(root: Shown, path: str, title: str = "", limit: int = PICTURE_LIMIT) -> int:
    """Draw the tree to ``path`` (.svg or .png); returns the number of nodes drawn."""
    check_picture_path(path)
    plt = require_matplotlib()
    root = fold(root, limit)
    where = _layout(root)
    nodes = list(root.walk())
    leaves = sum(1 for n in nodes if not n.children)
    height = max(level for _, level in where.values()) + 1
    width = max(6.0, min(60.0, 0.45 * leaves + 1))
    fig, ax = plt.subplots(figsize=(width, max(3.0, 1.3 * height + 1)))
    small = leaves > 60
    for i, node in enumerate(nodes):
        x, level = where[id(node)]
        for child in node.children:
            cx, clevel = where[id(child)]
            cut = child.kind in ("cut", "more")
            ax.plot([x, cx], [-level, -clevel], color="#bbbbbb" if cut else ("#c0392b" if child.kind == "best" else "#555555"),
                    linestyle="--" if cut else "-", linewidth=2.5 if child.kind == "best" else 0.9, zorder=1)
    for i, node in enumerate(nodes):
        x, level = where[id(node)]
        colour = {"best": "#c0392b", "visited": "#2c3e50", "cut": "#cccccc", "more": "#dddddd"}[node.kind]
        marker = "o" if node.quiescence or node.kind == "more" else ("^" if node.maximising else "v")
        group = f"node-{i}-{node.kind}"
        ax.plot([x], [-level], marker=marker, markersize=7 if small else 12, color=colour, zorder=2, gid=group,
                linestyle="none")
        label = node.move if node.kind == "more" else node.value
        if label:
            ax.annotate(label, (x, -level), xytext=(0, 9), textcoords="offset points", ha="center",
                        fontsize=6 if small else 9, color=colour, zorder=3)
        if node.window and not small:
            ax.annotate(f"[{node.window}]", (x, -level), xytext=(0, -16), textcoords="offset points",
                        ha="center", fontsize=6, color="#7f8c8d")
        if node.note and not small:
            # The rule of a cut: its short name on the cut stubs, the whole rule at the node that cut.
            text = node.note if node.kind == "cut" else node.note.replace(": ", ":\n", 1)
            ax.annotate(text, (x, -level), xytext=(0, -24 if node.window else -16), textcoords="offset points",
                        ha="center", va="top", fontsize=6, color="#8e44ad", gid=f"cut-{i}")
        if node.move and node.kind != "more" and (level or (node.side and node.children)):
            # The move above its node (upright where the nodes stand close), and who moves there when named.
            text = (node.move if level else "") + (f" ({node.side})" if node.side and node.children else "")
            ax.annotate(text.strip(), (x, -level), xytext=(0, 30 if not small else 18), textcoords="offset points",
                        ha="center", va="bottom" if small else "center", fontsize=6 if small else 7,
                        rotation=90 if small else 0, color="#34495e")
    ax.set_axis_off()
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
    return len(nodes)


def plot_lines(path: str, series: dict[str, tuple[list[int], list[float]]], title: str, xlabel: str,
               ylabel: str, log: bool = True) -> None:
    """Lines (one per name) to ``path``, the y axis logarithmic by default."""
    check_picture_path(path)
    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = ["-o", "--s", "-.^", ":v", "-D", "--x", "-.+"]
    for i, (name, (xs, ys)) in enumerate(series.items()):
        if name.startswith("formula"):
            # A formula beside the counts: a thin black line under the measured markers.
            ax.plot(xs, ys, "k-", linewidth=0.8, label=name, gid=f"series-{i}", zorder=1)
        else:
            ax.plot(xs, ys, styles[i % len(styles)], label=name, gid=f"series-{i}", zorder=2)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def plot_bars(path: str, xs: list[int], ys: list[int], title: str, xlabel: str, ylabel: str) -> None:
    """A bar chart to ``path``."""
    check_picture_path(path)
    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(xs, ys, color="#2c3e50", gid="bars")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def shown_solution(root, pos, players: tuple[str, str], prover: int) -> Shown:
    """A solution tree of :func:`engine.pns.solution_tree` as drawn: "or" nodes (the
    prover chooses one move, ▲) and "and" nodes (every reply of the opponent, ▼);
    each labelled with its position, the game ends with their result; the
    prover's chosen moves are drawn as the highlighted line."""
    def build(node, text: str, chosen: bool) -> Shown:
        label = pos.to_text()
        if node.result is not None:
            winner = pos.turn if node.result > 0 else 1 - pos.turn
            label += "  " + ("draw" if node.result == 0 else f"{players[winner]} wins")
        elif node.truncated:
            label += "  (cut short)"
        shown = Shown(text, label, "", "best" if chosen else "visited", not node.and_node,
                      side="and" if node.and_node else "or")
        for child in node.children:
            move_text = pos.move_text(child.move)
            pos.push(child.move)
            shown.children.append(build(child, move_text, not node.and_node))
            pos.pop()
        return shown

    return build(root, "root", False)
