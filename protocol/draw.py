"""Search trees, AND/OR graphs and measurements shown: indented text for the terminal, pictures by matplotlib.

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
cut-offs. Nodes of N-player searches show their value vectors ⟨a, b, c⟩. A move
searched twice in a row (a PVS re-search) is shown once, by its last visit,
with the earlier windows noted.

A picture draws each node as a box (value, window, notes) with the move on the
edge above it, a legend of what the marks mean, and the cut rules as footnotes.
A tree wider than the page (:data:`PAGE_WIDTH`) is drawn without the windows,
then folded: subtrees and runs of moves become one ``+N`` box, the principal
line kept. Pictures are SVG or PNG by the file's suffix (a PNG at least
:data:`PNG_WIDTH` pixels wide); every node is one SVG group with an id
``node-N-KIND`` (KIND ``best``, ``visited``, ``cut`` or ``more``), the legend a
group ``legend``, so a picture can be checked by counting them.
AND/OR graphs (:func:`draw_graph`) are laid out in layers by
:func:`layout_graph`, in the textbooks' marks, with a legend likewise. matplotlib is
an optional dependency (``pip install 'zermelo[plots]'``); without it
:func:`require_matplotlib` raises :class:`PlotsUnavailable` with the one line
to print.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable

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


def _save(fig, path: str, least_dpi: float = 150.0) -> None:
    if path.lower().endswith(".svg"):
        fig.savefig(path, metadata={"Date": None})
    else:
        # A PNG at least PNG_WIDTH pixels wide, whatever the picture's size in inches.
        fig.savefig(path, metadata={"Software": None}, dpi=max(least_dpi, PNG_WIDTH / fig.get_figwidth()))


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
    research: str = ""
    """How the search visited this move before the visit shown (a PVS or reduced re-search)."""
    result: str = ""
    """A solution tree's game end ("x wins", "draw") or why it stops there."""
    stands_for: int = 0
    """A box for several nodes: the moves of a game's cut stub, the nodes of a folded subtree."""

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
        fail_high, fail_low = node.value >= node.beta, node.value <= node.alpha
        # A bound no value can pass at this ply (a mate here, or a mate next move) leaves the
        # window open on that side, unless the node failed on it (mate-distance pruning).
        alpha = -INF_SHOWN if node.alpha <= -WIN + node.ply and not fail_low else node.alpha
        beta = INF_SHOWN if node.beta >= WIN - node.ply - 1 and not fail_high else node.beta
        lo, hi = (alpha, beta) if mine else (-beta, -alpha)
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
        for i, child in enumerate(node.children):
            # A move searched again at once (a PVS or reduced re-search) is shown once, by its last visit.
            if i + 1 < len(node.children) and node.children[i + 1].move == child.move:
                continue
            shown.children.append(build(child, path + [child.move], ancestors))
            earlier: list[str] = []
            for before in reversed(node.children[:i]):
                if before.move != child.move:
                    break
                value, window = view_of(before)
                earlier.insert(0, f"[{window}] gave {value}")
            if earlier:
                shown.children[-1].research = "first " + ", then ".join(earlier)
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
                                        note=stub_note, stands_for=n))
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


def colour_wanted(stream: IO[str] | None) -> bool:
    return stream is not None and stream.isatty() and not os.environ.get("NO_COLOR")


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
            body = "  ".join(t for t in (node.move, node.value) if t)
        else:
            q = " q" if node.quiescence else ""
            body = f"{node.move}  {side}{q}  {node.value}" + (f"  {node.result}" if node.result else "") + (
                f"  [{node.window}]" if node.window else "")
        if node.kind == "best":
            body += "  *"
        if node.note and node.kind != "cut":
            body += f"  ({node.note})"
        if node.research:
            body += f"  (re-searched: {node.research})"
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

#: The widest tree picture, in inches (720 pt: about 960 px where a page shows the SVG at its size).
PAGE_WIDTH = 10.0
#: The narrowest: room for the title and the legend.
MIN_WIDTH = 7.0
#: A PNG is written at least this many pixels wide.
PNG_WIDTH = 1200
VALUE_SIZE, SMALL_SIZE = 10.5, 8.5
_PAD, _GAP, _LEVEL_GAP = 0.07, 0.14, 0.55
_SANS, _MONO = "DejaVu Sans", "DejaVu Sans Mono"
# Per kind: edge colour, edge width, edge style, box fill, text colour.
_STYLE = {
    "best": ("#c0392b", 2.6, "-", "#fdedec", "#922b21"),
    "visited": ("#566573", 1.1, "-", "#ffffff", "#17202a"),
    "cut": ("#aab7b8", 1.1, (0, (4, 3)), "#f4f6f6", "#7f8c8d"),
    "more": ("#7f8c8d", 1.1, (0, (1, 2)), "#eaf2f8", "#2e4053"),
}
_QUIESCENCE_FILL = "#fef5d4"
_NOTE_INK = "#7d3c98"
_MOVE_INK = "#1a5276"


def fold(root: Shown, limit: int = PICTURE_LIMIT, origin: dict[int, Shown] | None = None) -> Shown:
    """A copy of the tree with whole levels kept while the total stays within ``limit``;
    the children of the last kept level become one ``+N nodes`` box each. ``origin``,
    when given, maps each copy's id to the node it copies."""
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

    def copy(node: Shown, depth: int) -> Shown:
        out = Shown(node.move, node.value, node.window, node.kind, node.maximising, node.quiescence, side=node.side,
                    note=node.note, research=node.research, result=node.result, stands_for=node.stands_for)
        if origin is not None:
            origin[id(out)] = node
        if depth < kept:
            out.children = [copy(c, depth + 1) for c in node.children]
        elif node.children:
            hidden = sum(_searched(c) for c in node.children)
            out.children = [Shown("", f"+{hidden}", "", "more", not node.maximising, stands_for=hidden) if hidden
                            else Shown("", f"+{sum(1 for _ in node.walk()) - 1}", "", "cut",
                                       not node.maximising, stands_for=1)]
        return out

    return copy(root, 0)


class _Measure:
    """Text widths in inches, as matplotlib lays the text out (cached)."""

    def __init__(self) -> None:
        from matplotlib.font_manager import FontProperties
        from matplotlib.textpath import text_to_path

        self._text_to_path = text_to_path
        self._fonts = {family: FontProperties(family=family, size=10) for family in (_SANS, _MONO)}
        self._cache: dict[tuple[str, str], float] = {}

    def width(self, text: str, size: float, family: str = _SANS) -> float:
        key = (text, family)
        if key not in self._cache:
            w, _, _ = self._text_to_path.get_text_width_height_descent(text, self._fonts[family], ismath=False)
            self._cache[key] = w / 72
        return self._cache[key] * size / 10


def _board_rows(node: Shown) -> list[str] | None:
    """A solution tree's position drawn as its board, row under row, when its text is
    rows separated by ``/`` (tic-tac-toe, m,n,k, Connect Four); else None."""
    if node.side not in ("and", "or") or "/" not in node.value:
        return None
    rows = node.value.split(" ")[0].split("/")
    return rows if len(rows) <= 8 and all(len(r) <= 9 for r in rows) else None


def _box_lines(node: Shown, tags: dict[int, str], windows: bool = True) -> list[tuple[str, float, str, str]]:
    """The lines written in a node's box: (text, size, colour, font family); ``windows``:
    with the window the node was searched with."""
    ink = _STYLE[node.kind][4]
    if node.kind == "more" or node.stands_for:
        return [(node.value or node.move, SMALL_SIZE, ink, _SANS)]
    glyph = "▲" if node.maximising else "▼"
    # Who moves matters where a move is chosen, not at the leaves.
    side = "" if not node.children else node.side.upper() if node.side in ("and", "or") else node.side
    rows = _board_rows(node)
    lines: list[tuple[str, float, str, str]]
    if rows is not None:
        lines = [(f"{glyph} {side}".strip(), SMALL_SIZE, ink, _SANS)] + [(r, VALUE_SIZE, ink, _MONO) for r in rows]
    else:
        value = node.value.replace("-", "−")
        lines = [(f"{glyph} {value}".strip(), VALUE_SIZE, ink, _SANS)]
        if side:
            lines.append((side, SMALL_SIZE, ink, _SANS))
    if node.window and windows:
        lines.append(("[" + node.window.replace("-", "−").replace(",", ", ") + "]", SMALL_SIZE, "#424949", _SANS))
    if node.result:
        lines.append((node.result, SMALL_SIZE, ink, _SANS))
    tag = tags.get(id(node))
    if tag:
        lines.append((tag, SMALL_SIZE, _NOTE_INK, _SANS))
    return lines


def _spine(root: Shown) -> set[int]:
    """The principal line: from the root, the first highlighted child at each node."""
    out = {id(root)}
    node: Shown | None = root
    while node is not None:
        out.add(id(node))
        node = next((c for c in node.children if c.kind == "best"), None)
    return out


def _searched(node: Shown) -> int:
    """The nodes below and at ``node`` that the search visited (a folded box: those it holds)."""
    return sum(n.stands_for if n.kind == "more" else n.kind != "cut" for n in node.walk())


def _stub(node: Shown) -> bool:
    """A game's box for several moves never searched (its text is the move count)."""
    return node.stands_for > 0 and not node.value


def _fit(root: Shown, too_wide: Callable[[Shown], bool]) -> bool:
    """Fold ``root`` in place until ``too_wide`` says it fits; True when anything was folded.

    One step at a time, each only while the tree is still too wide, the first that
    applies: a subtree never searched becomes one box; the children of a node with
    more than eight, beyond its first few, become one box; a searched subtree two or
    more levels down that spreads over several columns becomes one box (the deepest
    first, and of those the rightmost); nodes with more than three children are
    grouped likewise; then such subtrees at any level. The principal line stays, and
    the nodes where a cut or a re-search is noted stay while anything else can go."""
    keep = _spine(root)
    moves_in: dict[int, int] = {}

    def edges() -> list[tuple[Shown, Shown, int]]:
        out, stack = [], [(root, 0)]
        while stack:
            node, depth = stack.pop()
            for child in reversed(node.children):
                out.append((child, node, depth + 1))
                stack.append((child, depth + 1))
        return out

    def spread(node: Shown) -> bool:
        return sum(1 for n in node.walk() if not n.children) > 1

    def noted(node: Shown) -> bool:
        return any(n.note or n.research for n in node.walk())

    def collapse(only_cut: bool, lowest: int, spare_notes: bool) -> bool:
        found = [(c, p, d) for c, p, d in edges() if c.children and id(c) not in keep and d >= lowest
                 and (c.kind == "cut" or not only_cut) and (only_cut or spread(c))
                 and not (spare_notes and noted(c))]
        if not found:
            return False
        depth = max(d for _, _, d in found)
        child, parent, _ = [f for f in found if f[2] == depth][-1]
        if child.kind == "cut":
            box = Shown(child.move, f"+{sum(max(n.stands_for, 1) for n in child.walk())}", "",
                        "cut", child.maximising, stands_for=1)
        else:
            searched = _searched(child)
            box = Shown(child.move, f"+{searched}", "", "more", child.maximising, stands_for=searched)
        parent.children[parent.children.index(child)] = box
        return True

    def group_cut() -> bool:
        # The moves never searched below one node, as one box.
        for parent in reversed([root] + [c for c, _, _ in edges()]):
            cut = [c for c in parent.children if c.kind == "cut" and id(c) not in keep]
            if len(cut) < 2:
                continue
            hidden = sum(max(n.stands_for, 1) for c in cut for n in c.walk())
            merged = Shown("", f"+{hidden}", "", "cut", cut[0].maximising, stands_for=1)
            parent.children = [c for c in parent.children if all(c is not t for t in cut)] + [merged]
            return True
        return False

    def group(fan: int) -> bool:
        # One child at a time, from the right, into one box after the first few children.
        wide = sorted((n for n in [root] + [c for c, _, _ in edges()] if len(n.children) > fan),
                      key=lambda n: -len(n.children))
        for parent in wide:
            box = parent.children[-1] if id(parent.children[-1]) in moves_in else None
            rest, kept = [], 0
            for child in parent.children:
                if child is box:
                    continue
                if id(child) in keep or child.note or child.research or kept < fan - 1:
                    kept += 1
                else:
                    rest.append(child)
            taken = rest[-1:] if box is not None else rest[-2:]
            if len(taken) + (box is not None) < 2:
                continue
            if box is not None:
                taken.append(box)
            # A game's stub stands for its moves, a box made here for those it took.
            moves = sum(moves_in.get(id(c), c.stands_for if _stub(c) else 1) for c in taken)
            searched = sum(_searched(c) for c in taken)
            if searched:
                merged = Shown("", f"+{moves} moves, {searched} nodes", "", "more", taken[0].maximising,
                               stands_for=searched)
            else:
                merged = Shown("", f"+{moves} moves never searched", "", "cut", taken[0].maximising, stands_for=1)
            moves_in[id(merged)] = moves
            parent.children = [c for c in parent.children if all(c is not t for t in taken)] + [merged]
            return True
        return False

    folded = False
    while too_wide(root):
        if not (collapse(True, 1, True) or group_cut() or group(8) or collapse(False, 2, True) or group(3)
                or collapse(False, 1, True) or collapse(False, 1, False)):
            break
        folded = True
    return folded


def _tags(root: Shown) -> tuple[dict[int, str], list[str]]:
    """Letters for the nodes with a cut rule or a re-search, and the footnotes they refer to."""
    tags: dict[int, str] = {}
    notes: list[str] = []

    def tag(node: Shown, short: str, where: str, text: str) -> None:
        letter = _letter(len(notes))
        tags[id(node)] = (tags[id(node)] + ", " if id(node) in tags else "") + f"{short} ({letter})"
        notes.append(f"({letter}) at {where}: {text}")

    def walk(node: Shown, path: list[str]) -> None:
        here = path + [node.move] if node.move != "root" else path
        where = " ".join(here) or "root"
        if node.note and node.kind != "cut":
            skipped = [c.move for c in node.children if c.kind == "cut" and c.move]
            tag(node, node.note.split(":")[0], where,
                node.note + (f"; never searched: {', '.join(skipped)}" if skipped else ""))
        if node.research:
            tag(node, "re-searched", where, f"re-searched: {node.research}, then [{node.window}] gave {node.value}")
        for child in node.children:
            walk(child, here)

    walk(root, [])
    return tags, notes


def _letter(i: int) -> str:
    return chr(ord("a") + i) if i < 26 else _letter(i // 26 - 1) + chr(ord("a") + i % 26)


class _Layout:
    """Boxes and their places, in inches from the top left of the tree."""

    def __init__(self, root: Shown, measure: _Measure, tags: dict[int, str], windows: bool = True):
        self.box: dict[int, tuple[float, float, list]] = {}
        self.span: dict[int, float] = {}
        self.x: dict[int, float] = {}
        self.level: dict[int, int] = {}
        self.measure = measure
        self.tags = tags
        rows: list[float] = []

        def size(node: Shown, depth: int) -> float:
            if id(node) not in self.box:
                lines = _box_lines(node, tags, windows)
                w = max(measure.width(t, s, f) for t, s, _, f in lines) + 2 * _PAD
                h = sum(s * 1.3 / 72 for _, s, _, _ in lines) + 2 * _PAD
                self.box[id(node)] = (w, h, lines)
            w, h, _ = self.box[id(node)]
            move = measure.width(node.move, SMALL_SIZE) + 0.1 if node.move and depth else 0.0
            own = max(w, move) + _GAP
            self.level[id(node)] = depth
            if depth == len(rows):
                rows.append(0.0)
            rows[depth] = max(rows[depth], h)
            below = sum(size(c, depth + 1) for c in node.children)
            self.span[id(node)] = max(own, below)
            return self.span[id(node)]

        self.width = size(root, 0)
        self.row_height = rows
        self.top = [sum(rows[:i]) + i * _LEVEL_GAP for i in range(len(rows))]
        self.height = self.top[-1] + rows[-1]
        self._place(root, 0.0)

    def _place(self, node: Shown, left: float) -> float:
        span = self.span[id(node)]
        if not node.children:
            x = left + span / 2
        else:
            below = sum(self.span[id(c)] for c in node.children)
            at = left + (span - below) / 2
            xs = []
            for child in node.children:
                xs.append(self._place(child, at))
                at += self.span[id(child)]
            w = self.box[id(node)][0] + _GAP
            # Centred over its children, but never out of its own span.
            x = min(max((xs[0] + xs[-1]) / 2, left + w / 2), left + span - w / 2)
        self.x[id(node)] = x
        return x


def _legend(nodes: list[Shown], folded: bool, windows: bool):
    """The legend's entries for what the picture holds: (handle, label)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    def mark(glyph: str, colour: str = "#17202a"):
        return Line2D([], [], linestyle="none", marker=glyph, markersize=9, color=colour)

    kinds = {n.kind for n in nodes}
    sides = {n.side for n in nodes}
    # B*'s nodes show an interval, not a value searched with a window.
    intervals = any(n.value.startswith("[") for n in nodes)
    out = []
    if sides & {"and", "or"}:
        out += [(mark("^"), "OR node: the prover chooses one move"),
                (mark("v"), "AND node: every move of the opponent")]
        if "best" in kinds:
            out.append((Line2D([], [], color=_STYLE["best"][0], linewidth=2.6), "the prover's chosen moves"))
    else:
        vectors = any(n.value.startswith("⟨") for n in nodes)
        out += [(mark("^"), "the root player to move" if vectors else "max to move (the root player)"),
                (mark("v"), "another player to move" if vectors else "min to move")]
        if "best" in kinds:
            out.append((Line2D([], [], color=_STYLE["best"][0], linewidth=2.6), "principal line: the moves chosen"))
        if any(n.window for n in nodes) and not windows:
            out.append((Line2D([], [], linestyle="none"), "windows left out for room (the text shows them)"))
        if any(n.window for n in nodes) and windows:
            out.append((Line2D([], [], linestyle="none"), "[α, β]: the window it was searched with"))
            out.append((Line2D([], [], linestyle="none"), "≥v, ≤v: only a bound (cut off); ±∞: open"))
        if intervals:
            out.append((Line2D([], [], linestyle="none"), "[low, high]: bounds on the true value"))
        if any("win/" in n.value or "loss/" in n.value for n in nodes):
            out.append((Line2D([], [], linestyle="none"), "win/n, loss/n: a forced end in n plies"))
    if "cut" in kinds:
        out.append((Line2D([], [], color=_STYLE["cut"][0], linestyle=(0, (4, 3))),
                    "never generated (below a node not expanded)" if intervals else "never searched (cut off)"))
    if folded:
        out.append((Patch(facecolor=_STYLE["more"][3], edgecolor=_STYLE["more"][0], linestyle=":"),
                    "+N: N nodes in one box, to fit the page"))
    if any(n.quiescence for n in nodes):
        out.append((Patch(facecolor=_QUIESCENCE_FILL, edgecolor="#566573"), "quiescence node"))
    # Footnotes are of the nodes left early; a cut stub's own note is its label.
    if any((n.note and n.kind != "cut") or n.research for n in nodes):
        out.append((Line2D([], [], linestyle="none", marker="s", color=_NOTE_INK, markersize=6),
                    "a cut or re-search, (a) … below"))
    return out


def draw_tree(root: Shown, path: str, title: str = "", limit: int = PICTURE_LIMIT) -> int:
    """Draw the tree to ``path`` (.svg or .png); returns the number of boxes drawn.

    Every node is a box with its value, window and notes; edges run from box to box
    with the move written on them; a legend says what the marks mean and footnotes
    give the rules of the cut-offs. A tree wider than the page is folded (see
    :func:`_fit`) and says so."""
    from matplotlib.patches import FancyBboxPatch

    check_picture_path(path)
    plt = require_matplotlib()
    total = sum(1 for _ in root.walk())
    tree = fold(root, limit)
    measure = _Measure()
    tags, _ = _tags(tree)
    # Too wide with the windows: without them (the text lists them), then folded.
    windows = _Layout(tree, measure, tags).width <= PAGE_WIDTH - 0.4
    folded = _fit(tree, lambda t: _Layout(t, measure, _tags(t)[0], windows).width > PAGE_WIDTH - 0.4) or any(
        n.kind == "more" for n in tree.walk())
    tags, notes = _tags(tree)
    layout = _Layout(tree, measure, tags, windows)
    nodes = list(tree.walk())
    if folded:
        notes.insert(0, f"Folded to fit the page: {len(nodes)} boxes drawn for {total:,} nodes; "
                        "a box '+N' holds N nodes.")
    width = max(MIN_WIDTH, layout.width + 0.4)
    legend = _legend(nodes, folded, windows)
    legend_rows = (len(legend) + 1) // 2
    shown_notes = notes[:14] + ([f"… and {len(notes) - 14} more"] if len(notes) > 14 else [])
    wrapped = [line for note in shown_notes for line in _wrap(note, measure, width - 0.5)]
    title_h = 0.5 if title else 0.15
    foot_h = 0.25 + legend_rows * 0.24 + (0.1 + 0.19 * len(wrapped) if wrapped else 0)
    height = title_h + layout.height + 0.25 + foot_h
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_axis_off()
    left = (width - layout.width) / 2
    top = height - title_h

    def where(node: Shown) -> tuple[float, float, float, float]:
        """Centre x, top y, width and height of a node's box."""
        w, h, _ = layout.box[id(node)]
        level = layout.level[id(node)]
        return left + layout.x[id(node)], top - layout.top[level], w, h

    for node in nodes:
        x, y, _, h = where(node)
        for child in node.children:
            cx, cy, _, _ = where(child)
            colour, lw, style, _, _ = _STYLE[child.kind]
            ax.plot([x, cx], [y - h, cy], color=colour, linewidth=lw, linestyle=style, zorder=1,
                    solid_capstyle="butt")
            if child.move and not _stub(child):
                # The move on its edge, just above the child, where siblings stand apart.
                t = min(0.2 / max(y - h - cy, 1e-6), 0.5)
                ax.text(cx + (x - cx) * t, cy + (y - h - cy) * t, child.move, ha="center", va="center",
                        fontsize=SMALL_SIZE, color=_MOVE_INK, zorder=3,
                        bbox=dict(boxstyle="round,pad=0.12", facecolor="white", edgecolor="none"))
    for i, node in enumerate(nodes):
        x, y, w, h = where(node)
        edge, _, style, fill, _ = _STYLE[node.kind]
        if node.quiescence and node.kind != "cut":
            fill = _QUIESCENCE_FILL
        box = FancyBboxPatch((x - w / 2, y - h), w, h, boxstyle="round,pad=0,rounding_size=0.06",
                             facecolor=fill, edgecolor=edge, linewidth=1.8 if node.kind == "best" else 1.0,
                             linestyle=style, zorder=2)
        box.set_gid(f"node-{i}-{node.kind}")
        ax.add_patch(box)
        at = y - _PAD
        for text, size, colour, family in layout.box[id(node)][2]:
            line_h = size * 1.3 / 72
            ax.text(x, at - line_h / 2, text, ha="center", va="center", fontsize=size, color=colour,
                    family=family, zorder=4, gid=f"label-{i}")
            at -= line_h
    if title:
        ax.text(width / 2, height - 0.28, title, ha="center", va="center", fontsize=12, color="#17202a")
    y = height - title_h - layout.height - 0.3
    handles, labels = zip(*legend)
    fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(0.25 / width, y / height), ncol=2,
               fontsize=9, frameon=False, handlelength=2.2, columnspacing=2.0).set_gid("legend")
    y -= legend_rows * 0.24 + 0.2
    for line in wrapped:
        ax.text(0.3, y, line, ha="left", va="top", fontsize=SMALL_SIZE, color=_NOTE_INK, gid="footnote")
        y -= 0.19
    _save(fig, path)
    plt.close(fig)
    return len(nodes)


def _wrap(text: str, measure: _Measure, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` inches (continuations indented)."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and measure.width(line + " " + word, SMALL_SIZE) > width:
            lines.append(line)
            line = "    " + word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line]


def plot_lines(path: str, series: dict[str, tuple[list[int], list[float]]], title: str, xlabel: str,
               ylabel: str, log: bool = True) -> None:
    """Lines (one per name) to ``path``, the y axis logarithmic by default."""
    check_picture_path(path)
    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(9, 5.4))
    styles = ["-o", "--s", "-.^", ":v", "-D", "--x", "-.+"]
    for i, (name, (xs, ys)) in enumerate(series.items()):
        if name.startswith("formula"):
            # A formula beside the counts: a thin black line under the measured markers.
            ax.plot(xs, ys, "k-", linewidth=1.0, label=name, gid=f"series-{i}", zorder=1)
        else:
            ax.plot(xs, ys, styles[i % len(styles)], label=name, gid=f"series-{i}", zorder=2, markersize=6)
    if log:
        ax.set_yscale("log")
    _axes_text(ax, title, xlabel, ylabel)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=10)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def _axes_text(ax, title: str, xlabel: str, ylabel: str) -> None:
    ax.set_xlabel(xlabel, fontsize=11)
    ax.set_ylabel(ylabel, fontsize=11)
    ax.set_title(title, fontsize=12)
    ax.tick_params(labelsize=10)


def plot_bars(path: str, xs: list[int], ys: list[int], title: str, xlabel: str, ylabel: str,
              log: bool = False, mark: str = "") -> None:
    """A bar chart to ``path``; ``log``: the counts on a logarithmic axis (so that the
    small ends show beside a peak of thousands); ``mark``: the last bar is labelled so."""
    check_picture_path(path)
    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(9, 5.4))
    bars = ax.bar(xs, ys, color="#2c3e50", gid="bars")
    ax.set_axisbelow(True)
    if log:
        # From below 1, so that a count of 1 is a bar too.
        ax.set_yscale("log")
        ax.set_ylim(bottom=0.6)
    if mark and xs:
        bars[-1].set_color("#c0392b")
        ax.annotate(f"{mark}\n({ys[-1]:,} positions)", (xs[-1], ys[-1]), xytext=(0.97, 0.95),
                    textcoords="axes fraction", ha="right", va="top", fontsize=11, color="#922b21", gid="mark",
                    bbox=dict(boxstyle="round,pad=0.3", facecolor="white", edgecolor="#922b21"),
                    arrowprops=dict(arrowstyle="->", color="#922b21", linewidth=1.3))
        ax.set_ylim(top=max(ys) * (12 if log else 1.2))
    _axes_text(ax, title, xlabel, ylabel)
    ax.grid(True, axis="y", which="both" if log else "major", alpha=0.3)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def plot_rounds(path: str, rounds: list[tuple[int, int, int]], title: str) -> None:
    """The retrograde marking's rounds to ``path``: for each round ``(ply, won, lost)`` the
    positions marked, counted on a logarithmic axis, in the chapters' words (a position is
    won or lost for the player who moved into it: the side to move is lost in the
    first, wins in the second) and in two colours, each bar labelled with the
    chapter's label (0, −1, 2, −3, …) below and its count above."""
    check_picture_path(path)
    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(max(9.0, 0.32 * len(rounds)), 5.4))
    xs = [ply for ply, _, _ in rounds]
    # The side to move lost: won for the chapter (label 0, 2, …); the side to move wins: lost (−1, −3, …).
    series = (("won (the side to move is mated or loses)", "#1f77b4", "bars-won", [lost for _, _, lost in rounds]),
              ("lost (the side to move mates or wins)", "#d62728", "bars-lost", [won for _, won, _ in rounds]))
    for name, colour, gid, ys in series:
        shown = [(x, y) for x, y in zip(xs, ys) if y]
        if not shown:
            continue
        bars = ax.bar([x for x, _ in shown], [y for _, y in shown], color=colour, label=name, gid=gid)
        ax.bar_label(bars, labels=[f"{y:,}" for _, y in shown],
                     rotation=90, fontsize=7, padding=2, gid=f"{gid}-labels")
    ax.set_axisbelow(True)
    ax.set_yscale("log")
    ax.set_ylim(bottom=0.6, top=max(max(w, l) for _, w, l in rounds) * 60)
    ax.set_xticks(xs, [str(x) if x % 2 == 0 else f"−{x}" for x in xs], fontsize=8)
    ax.legend(loc="upper right", fontsize=10, title="in the chapters' words", title_fontsize=10)
    _axes_text(ax, title, "the chapters' label of the round (its number: plies to the end)",
               "positions marked (log scale)")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def shown_solution(root, pos, players: tuple[str, str], prover: int) -> Shown:
    """A solution tree of :func:`engine.pns.solution_tree` as drawn: "or" nodes (the
    prover chooses one move, ▲) and "and" nodes (every reply of the opponent, ▼);
    each labelled with its position, the game ends with their result; the
    prover's chosen moves are drawn as the highlighted line."""
    def build(node, text: str, chosen: bool) -> Shown:
        result = ""
        if node.result is not None:
            winner = pos.turn if node.result > 0 else 1 - pos.turn
            result = "draw" if node.result == 0 else f"{players[winner]} wins"
        elif node.truncated:
            result = "(cut short)"
        shown = Shown(text, pos.to_text(), "", "best" if chosen else "visited", not node.and_node,
                      side="and" if node.and_node else "or", result=result)
        for child in node.children:
            move_text = pos.move_text(child.move)
            pos.push(child.move)
            shown.children.append(build(child, move_text, not node.and_node))
            pos.pop()
        return shown

    return build(root, "root", False)


# -- AND/OR graphs --------------------------------------------------------------------------

#: Room in a graph picture, in inches: between boxes of a layer, between layers, beside an arc passing a layer.
_NODE_GAP, _LAYER_GAP, _PASS_GAP = 0.3, 0.8, 0.16
#: Rounds of barycentre ordering (alternately down and up) and of placing the layers.
_SWEEPS, _PLACING = 12, 16
_SOLVABLE_FILL = "#fcf3cf"
_ARC_INK = "#8a969c"
_NODE_EDGE = "#566573"


@dataclass
class GraphLayout:
    """An AND/OR graph in layers, in inches from the top left (y grows downwards).

    ``box[name]`` is the centre x, centre y, width and height of a node's box;
    ``arcs[(a, b)]`` the polyline of the arc from the middle of a's bottom border
    to a point of b's top border, crossing the layers in between at a slot of its
    own; ``layers`` the nodes of each layer, left to right; ``lines`` the text of
    each box with its size; ``crossings`` the pairs of arcs that cross."""

    box: dict[str, tuple[float, float, float, float]]
    arcs: dict[tuple[str, str], list[tuple[float, float]]]
    layers: list[list[str]]
    lines: dict[str, list[tuple[str, float]]]
    crossings: int
    width: float
    height: float


def _graph_lines(graph, marking, name: str) -> list[tuple[str, float]]:
    """A node's box text: its name, then a terminal's value or the round the marking reached it."""
    if graph.kind[name] == "terminal":
        below = graph.value[name]
    else:
        below = f"round {marking.round[name]}" if name in marking.round else ""
    return [(name, VALUE_SIZE), (below, SMALL_SIZE)]


def _graph_levels(graph) -> dict[str, int]:
    """Each node's layer: its longest distance from the root (Kahn's order), so that
    every arc points down however many parents a merged node has."""
    from engine import andor

    names = andor.ordered(graph, graph.kind)
    level = {n: 0 for n in names}
    indegree = {n: 0 for n in names}
    for _, b in graph.edges():
        indegree[b] += 1
    ready = [n for n in reversed(names) if indegree[n] == 0]
    while ready:
        n = ready.pop()
        for c in graph.children[n]:
            level[c] = max(level[c], level[n] + 1)
            indegree[c] -= 1
            if indegree[c] == 0:
                ready.append(c)
    return level


def _crossings(upper: list, lower: list, down: dict) -> int:
    """Arcs crossing between two neighbouring layers: inversions of the lower ends,
    the arcs taken in the order of their upper ends."""
    import bisect

    at = {item: i for i, item in enumerate(lower)}
    seen: list[int] = []
    count = 0
    for item in upper:
        ends = sorted(at[c] for c in down[item])
        for e in ends:
            count += len(seen) - bisect.bisect_right(seen, e)
        for e in ends:
            bisect.insort(seen, e)
    return count


def _transpose(layers: list[list], up: dict, down: dict) -> None:
    """Swap neighbours in a layer while that lowers the crossings with the layers above
    and below (dot's local step after the barycentre sweeps)."""
    def around(i: int) -> int:
        return ((_crossings(layers[i - 1], layers[i], down) if i > 0 else 0)
                + (_crossings(layers[i], layers[i + 1], down) if i + 1 < len(layers) else 0))

    better = True
    while better:
        better = False
        for i, layer in enumerate(layers):
            for j in range(len(layer) - 1):
                before = around(i)
                layer[j], layer[j + 1] = layer[j + 1], layer[j]
                if around(i) < before:
                    better = True
                else:
                    layer[j], layer[j + 1] = layer[j + 1], layer[j]


def _isotonic(values: list[float]) -> list[float]:
    """The non-decreasing sequence nearest ``values`` in least squares (pool adjacent violators)."""
    blocks: list[list[float]] = []
    for v in values:
        blocks.append([v, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, n2 = blocks.pop()
            m1, n1 = blocks.pop()
            blocks.append([(m1 * n1 + m2 * n2) / (n1 + n2), n1 + n2])
    return [m for m, n in blocks for _ in range(int(n))]


def layout_graph(graph, marking, measure: _Measure | None = None) -> GraphLayout:
    """Lay out an AND/OR graph the layered way (Sugiyama's): nodes in layers by their
    longest distance from the root, a slot in each layer an arc passes, the order in
    each layer by a few barycentre sweeps (the least crossings found kept), then
    places as near the mean of their neighbours as the order and the gaps allow."""
    from engine import andor

    measure = measure or _Measure()
    lines = {n: _graph_lines(graph, marking, n) for n in graph.kind}
    height = max(sum(s * 1.3 / 72 for _, s in ls) for ls in lines.values()) + 2 * _PAD
    width: dict = {}
    for n, ls in lines.items():
        text = max(measure.width(t, s) for t, s in ls) + 2 * _PAD
        # OR pills a little wider than high, so that arcs arriving have a flat top to end on.
        width[n] = max(text + (0.2 if graph.kind[n] == "terminal" else 0.0),
                       height * (1.15 if graph.kind[n] == "or" else 1.0))
    level = _graph_levels(graph)
    depth = max(level.values()) + 1
    # Items: the nodes, and one slot per arc per layer it passes (a tuple, never a name).
    layers: list[list] = [[] for _ in range(depth)]
    up: dict = {n: [] for n in graph.kind}
    down: dict = {n: [] for n in graph.kind}
    chains: dict[tuple[str, str], list] = {}
    placed: set = set()

    def visit(start: str) -> None:
        # Depth first in the order of the moves: a first order with few crossings to start from.
        stack = [start]
        while stack:
            n = stack.pop()
            if n in placed:
                continue
            placed.add(n)
            layers[level[n]].append(n)
            for c in graph.children[n]:
                chain: list = [n]
                for lv in range(level[n] + 1, level[c]):
                    slot = ("pass", n, c, lv)
                    layers[lv].append(slot)
                    width[slot] = 0.0
                    up[slot], down[slot] = [], []
                    chain.append(slot)
                chain.append(c)
                for a, b in zip(chain, chain[1:]):
                    down[a].append(b)
                    up[b].append(a)
                chains[(n, c)] = chain
            stack.extend(reversed(graph.children[n]))

    for n in [graph.root] + andor.ordered(graph, graph.kind):
        visit(n)

    def total() -> int:
        return sum(_crossings(layers[i], layers[i + 1], down) for i in range(depth - 1))

    best, fewest = [list(layer) for layer in layers], total()
    for sweep in range(_SWEEPS):
        if fewest == 0:
            break
        downwards = sweep % 2 == 0
        for i in (range(1, depth) if downwards else range(depth - 2, -1, -1)):
            ref = {item: j for j, item in enumerate(layers[i - 1 if downwards else i + 1])}
            near = up if downwards else down

            def centre(j: int, item) -> float:
                ns = near[item]
                return sum(ref[x] for x in ns) / len(ns) if ns else float(j)

            keyed = sorted((centre(j, item), j) for j, item in enumerate(layers[i]))
            layers[i] = [layers[i][j] for _, j in keyed]
        _transpose(layers, up, down)
        count = total()
        if count < fewest:
            best, fewest = [list(layer) for layer in layers], count
    layers = best

    def gap(a, b) -> float:
        room = _NODE_GAP if isinstance(a, str) and isinstance(b, str) else _PASS_GAP
        return (width[a] + width[b]) / 2 + room

    x: dict = {}
    for layer in layers:
        at = 0.0
        for i, item in enumerate(layer):
            at += gap(layer[i - 1], item) if i else width[item] / 2
            x[item] = at

    def settle(layer: list, near_sets: list[dict]) -> None:
        # Each item wants the mean of its neighbours; the nearest placement keeping the order
        # and the gaps is an isotonic regression on the positions less the gaps before them.
        offsets, at = [], 0.0
        for i, item in enumerate(layer):
            at += gap(layer[i - 1], item) if i else 0.0
            offsets.append(at)
        wanted = []
        for item in layer:
            ns = [x[n] for near in near_sets for n in near[item]]
            wanted.append(sum(ns) / len(ns) if ns else x[item])
        fitted = _isotonic([w - o for w, o in zip(wanted, offsets)])
        for item, f, o in zip(layer, fitted, offsets):
            x[item] = f + o

    for r in range(_PLACING):
        order = range(1, depth) if r % 2 == 0 else range(depth - 2, -1, -1)
        for i in order:
            settle(layers[i], [up] if r % 2 == 0 else [down])
    for i in range(depth):
        settle(layers[i], [up, down])
    left = min(x[item] - width[item] / 2 for item in x)
    row = height + _LAYER_GAP

    def cy(lv: int) -> float:
        return lv * row + height / 2

    box = {n: (x[n] - left, cy(level[n]), width[n], height) for n in graph.kind}
    arcs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for (a, b), chain in chains.items():
        points = [(x[a] - left, cy(level[a]) + height / 2)]
        for slot in chain[1:-1]:
            points += [(x[slot] - left, cy(slot[3]) - height / 2), (x[slot] - left, cy(slot[3]) + height / 2)]
        arcs[(a, b)] = points
    # Arcs into one node end side by side on its top border, in the order they come from.
    for n in graph.kind:
        into = sorted((arcs[(p, n)][-1][0], p) for p in graph.kind if (p, n) in arcs)
        bx, by, bw, _ = box[n]
        flat = bw - (0.8 * height if graph.kind[n] == "or" else 0.5 * height if graph.kind[n] == "terminal" else 0.0)
        span = min(0.14 * (len(into) - 1), 0.6 * bw, max(flat - 0.06, 0.0))
        for i, (_, p) in enumerate(into):
            end = bx - span / 2 + (span * i / (len(into) - 1) if len(into) > 1 else span / 2)
            arcs[(p, n)].append((end, by - height / 2))
    names = [[item for item in layer if isinstance(item, str)] for layer in layers]
    return GraphLayout(box, arcs, names, lines, fewest,
                       max(x[item] + width[item] / 2 for item in x) - left, depth * row - _LAYER_GAP)


def draw_graph(graph, marking, solution, path: str, title: str, note: str = "") -> int:
    """Draw an AND/OR graph to ``path`` (.svg or .png) as the textbooks do; returns the nodes drawn.

    The layout is :func:`layout_graph`'s. OR nodes are round boxes, AND nodes square
    ones with an arc across their outgoing arcs, terminals hexagons holding their
    value; solvable nodes are filled and show the round the marking reached them;
    ``solution`` (a :class:`engine.andor.SolutionGraph` or None) is drawn in bold
    red; a legend explains the marks, footnotes ``note`` and any scaling. A graph
    wider than the page is drawn smaller to fit it (the legend and notes keep their
    size; a PNG gets the pixels to read it), and says so. Every node is an SVG group
    ``node-N-solution``, ``node-N-solvable`` or ``node-N-other``, every arc
    ``arc-N-solution`` or ``arc-N-other``, each AND node's arc ``and-mark-N``, the
    legend ``legend``."""
    import math

    from matplotlib.patches import Arc, FancyArrowPatch, FancyBboxPatch, Patch, Polygon
    from matplotlib.path import Path as Curve

    check_picture_path(path)
    plt = require_matplotlib()
    measure = _Measure()
    layout = layout_graph(graph, marking, measure)
    solvable = marking.solvable
    inside = solution.nodes if solution is not None else set()
    chosen = set(solution.edges(graph)) if solution is not None else set()
    legend = _graph_legend(graph, solution is not None)
    # Two columns of the legend: handle, label, and the room between them.
    half = (len(legend) + 1) // 2
    columns = [max(measure.width(label, 9) for _, label in legend[:half]),
               max((measure.width(label, 9) for _, label in legend[half:]), default=0.0)]
    legend_width = sum(columns) + 2 * 0.45 + 0.3 + 0.5
    scale = min(1.0, (PAGE_WIDTH - 0.6) / layout.width)
    width = min(PAGE_WIDTH, max(MIN_WIDTH, layout.width * scale + 0.6, legend_width))
    notes = [note] if note else []
    if scale < 1:
        notes.append(f"Scaled to {scale:.0%} to fit the page width: {len(graph.kind)} nodes in "
                     f"{len(layout.layers)} layers (the PNG is drawn large enough to zoom into).")
    wrapped = [line for text in notes for line in _wrap(text, measure, width - 0.5)]
    title_h = 0.5 if title else 0.15
    foot_h = 0.2 + half * 0.24 + 0.2 + (0.19 * len(wrapped) if wrapped else 0)
    height = title_h + layout.height * scale + 0.25 + foot_h
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_axis_off()
    left = (width - layout.width * scale) / 2
    top = height - title_h

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return left + p[0] * scale, top - p[1] * scale

    nodes = {n: (at((cx, cy)), w * scale, h * scale) for n, (cx, cy, w, h) in layout.box.items()}
    taken = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for (x, y), w, h in nodes.values()]
    for i, ((a, b), points) in enumerate(layout.arcs.items()):
        bold = (a, b) in chosen
        colour = _STYLE["best"][0] if bold else _ARC_INK
        drawn = [at(p) for p in points]
        arrow = FancyArrowPatch(path=Curve(drawn), arrowstyle="-|>,head_length=0.5,head_width=0.25",
                                mutation_scale=12 * scale, color=colour, linewidth=(2.6 if bold else 1.1) * scale,
                                zorder=3 if bold else 1)
        arrow.set_gid(f"arc-{i}-{'solution' if bold else 'other'}")
        ax.add_patch(arrow)
        move = graph.edge_label.get((a, b))
        if move:
            spot = _label_spot(drawn[0], drawn[1], measure.width(move, SMALL_SIZE * scale) + 0.06,
                               SMALL_SIZE * scale * 1.4 / 72, taken)
            ax.text(*spot, move, ha="center", va="center", fontsize=SMALL_SIZE * scale,
                    color=_STYLE["best"][4] if bold else _MOVE_INK, zorder=4,
                    bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none"))
    marks = 0
    for n in graph.kind:
        kids = graph.children[n]
        if graph.kind[n] != "and" or len(kids) < 2:
            continue
        # The textbook's mark of an AND node: an arc across its outgoing arcs, just below it.
        x0, y0 = at(layout.arcs[(n, kids[0])][0])
        angles = []
        for c in kids:
            x1, y1 = at(layout.arcs[(n, c)][1])
            angles.append(math.degrees(math.atan2(y1 - y0, x1 - x0)))
        bold = n in inside
        arc = Arc((x0, y0), 0.36 * scale, 0.36 * scale, theta1=min(angles), theta2=max(angles), zorder=3,
                  color=_STYLE["best"][0] if bold else _NODE_EDGE, linewidth=(2.0 if bold else 1.1) * scale)
        arc.set_gid(f"and-mark-{marks}")
        marks += 1
        ax.add_patch(arc)
    for i, (n, ((x, y), w, h)) in enumerate(nodes.items()):
        bold = n in inside
        group = "solution" if bold else ("solvable" if n in solvable else "other")
        kind = graph.kind[n]
        shape: Patch
        if kind == "terminal":
            d = 0.25 * h
            shape = Polygon([(x - w / 2, y), (x - w / 2 + d, y + h / 2), (x + w / 2 - d, y + h / 2),
                             (x + w / 2, y), (x + w / 2 - d, y - h / 2), (x - w / 2 + d, y - h / 2)])
        else:
            rounding = 0.4 * h if kind == "or" else 0.0
            shape = FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle=f"round,pad=0,rounding_size={rounding}")
        shape.set_facecolor(_SOLVABLE_FILL if n in solvable else "white")
        shape.set_edgecolor(_STYLE["best"][0] if bold else _NODE_EDGE)
        shape.set_linewidth((2.4 if bold else 1.0) * scale)
        shape.set_zorder(5)
        shape.set_gid(f"node-{i}-{group}")
        ax.add_patch(shape)
        ink = _STYLE["best"][4] if bold else "#17202a"
        line_at = y + h / 2 - _PAD * scale
        shown = [(text, size) for text, size in layout.lines[n] if text]
        if len(shown) == 1:
            # A name alone stands in the middle of its box.
            line_at = y + shown[0][1] * 1.3 / 72 * scale / 2
        for text, size in shown:
            line_h = size * 1.3 / 72 * scale
            ax.text(x, line_at - line_h / 2, text, ha="center", va="center", fontsize=size * scale,
                    color=ink, zorder=6, fontweight="bold" if bold and size == VALUE_SIZE else "normal",
                    gid=f"label-{i}")
            line_at -= line_h
    if title:
        ax.text(width / 2, height - 0.28, title, ha="center", va="center", fontsize=12, color="#17202a")
    y = height - title_h - layout.height * scale - 0.25
    handles, labels = zip(*legend)
    fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(0.25 / width, y / height), ncol=2,
               fontsize=9, frameon=True, edgecolor="#d5d8dc", handlelength=2.2,
               columnspacing=2.0).set_gid("legend")
    y -= half * 0.24 + 0.3
    for line in wrapped:
        ax.text(0.3, y, line, ha="left", va="top", fontsize=SMALL_SIZE, color=_NOTE_INK, gid="footnote")
        y -= 0.19
    # A graph drawn small gets the pixels to read its names when zoomed in.
    _save(fig, path, least_dpi=150.0 / scale)
    plt.close(fig)
    return len(nodes)


def _graph_legend(graph, solution: bool) -> list:
    """The legend's entries for what the graph holds: (handle, label)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    def mark(glyph: str):
        return Line2D([], [], linestyle="none", marker=glyph, markersize=11, markerfacecolor="white",
                      markeredgecolor=_NODE_EDGE)

    kinds = set(graph.kind.values())
    out = []
    if "or" in kinds:
        out.append((mark("o"), "OR node: one successor must be solvable"))
    if "and" in kinds:
        out.append((mark("s"), "AND node, an arc across its arcs: all must be"))
    if "terminal" in kinds:
        out.append((mark("H"), "terminal, with its value for the prover"))
    out.append((Patch(facecolor=_SOLVABLE_FILL, edgecolor=_NODE_EDGE), "solvable (round n: marked in round n)"))
    out.append((Patch(facecolor="white", edgecolor=_NODE_EDGE), "not solvable"))
    if solution:
        out.append((Line2D([], [], color=_STYLE["best"][0], linewidth=2.6), "the solution graph drawn"))
    into: dict[str, int] = {}
    for _, b in graph.edges():
        into[b] = into.get(b, 0) + 1
    if any(v > 1 for v in into.values()):
        out.append((Line2D([], [], color=_ARC_INK, linewidth=1.1), "arcs from several parents: one node, drawn once"))
    if graph.edge_label:
        out.append((Line2D([], [], linestyle="none"), "on an arc: the move"))
    return out


def _label_spot(p: tuple[float, float], q: tuple[float, float], w: float, h: float,
                taken: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """Where on the stretch p-q a label w by h inches goes: the first of a few places
    down it clear of the boxes and labels already there (halfway when none is)."""
    for t in (0.5, 0.35, 0.65, 0.25, 0.8):
        x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken):
            taken.append(box)
            return x, y
    x, y = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    taken.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))
    return x, y
