"""MkDocs hook: the pages' generated parts, from the code and from docs/figures.json.

- ``{{ fig ID }}`` is replaced by the figure ``ID`` of ``docs/figures.json``
  (``scripts/remeasure.py`` re-measures and checks those), so a page quotes a
  deterministic figure from one place only.
- ``<!-- generated: options -->`` on a line of its own becomes the table of engine
  options, built from the declarations in ``engine/options.py``, and
  ``<!-- generated: game-options -->`` the games' parameters, from their models.
- ``<!-- generated: games -->`` becomes the table of games, from the registry.
- ``<!-- generated: figures -->`` lists every checked figure with its command.

An unknown figure or directive fails the build, so a page cannot quote what
does not exist.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

FIGURES = REPO / "docs" / "figures.json"
FIG_RE = re.compile(r"\{\{\s*fig\s+([\w.\-]+)\s*\}\}")
#: A directive stands alone on its line, so that a page can name one in running text.
GEN_RE = re.compile(r"^<!--\s*generated:\s*([\w-]+)\s*-->$", re.MULTILINE)


def load_figures() -> dict[str, dict]:
    return json.loads(FIGURES.read_text())["figures"]


def format_figure(value: int | str) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(value: str) -> str:
    return f"`{value}`" if value else ""


def options_table(specs) -> str:
    from engine.options import format_value

    rows = ["| option | type | default | range or values | meaning |", "|---|---|---|---|---|"]
    for spec in specs:
        default = "" if spec.kind == "button" else format_value(spec.default)
        if spec.kind == "spin":
            span = f"{spec.min}..{spec.max}"
        elif spec.kind == "combo":
            span = ", ".join(f"`{v}`" for v in spec.vars)
        else:
            span = ""
        rows.append(f"| `{spec.name}` | {spec.kind} | {_code(default)} | {span} | {_cell(spec.description)} |")
    return "\n".join(rows)


def generated_options() -> str:
    import games
    from engine.options import engine_specs

    return options_table(engine_specs(games))


def generated_game_options() -> str:
    import games
    from engine.options import game_param_specs

    parts = []
    for name in games.names():
        specs = game_param_specs(name, games.game_class(name).Params)
        if specs:
            parts.append(f"### {name}\n\n" + options_table(specs))
    return "\n\n".join(parts)


def generated_games() -> str:
    import games

    rows = ["| game | aliases | players (in turn order) | parameters (default) | module | bench depth (two players) |",
            "|---|---|---|---|---|---|"]
    starts = ["| game | start position text |", "|---|---|"]
    for name in games.names():
        game = games.load(name)
        cls = type(game)
        params = ", ".join(f"`{field}={_param_text(getattr(game.params, field))}`"
                           for field in cls.Params.model_fields) or "none"
        aliases = ", ".join(f"`{a}`" for a in cls.aliases) or ""
        rows.append(f"| `{name}` | {aliases} | {', '.join(game.players)} | {params} | "
                    f"`{cls.__module__}` | {cls.bench_depth if len(game.players) == 2 else '—'} |")
        starts.append(f"| `{name}` | `{game.new_position().to_text()}` |")
    return "\n".join(rows) + "\n\n" + "\n".join(starts)


def _param_text(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return ",".join(str(v) for v in value)
    return str(value)


def generated_figures() -> str:
    rows = ["| figure | value | command | measured at |", "|---|---:|---|---|"]
    for key, fig in load_figures().items():
        cost = "" if fig.get("quick", True) else " (slow: `--all` only)"
        # A figure no command measures is pinned to the file it describes (its SHA-256).
        source = f"`{_cell(fig['command'])}`" if "command" in fig else f"(pinned to `{fig['file']}`)"
        rows.append(f"| `{key}` | {format_figure(fig['value'])} | {source}{cost} | `{fig['commit']}` |")
    return "\n".join(rows)


GENERATORS = {"options": generated_options, "game-options": generated_game_options, "games": generated_games, "figures": generated_figures}


def on_page_markdown(markdown: str, page, config, files) -> str:
    figures = load_figures()

    def figure(match: re.Match) -> str:
        key = match.group(1)
        if key not in figures:
            raise PluginError(f"{page.file.src_path}: unknown figure {key!r} (docs/figures.json)")
        return format_figure(figures[key]["value"])

    def generate(match: re.Match) -> str:
        what = match.group(1)
        if what not in GENERATORS:
            raise PluginError(f"{page.file.src_path}: unknown generated part {what!r}")
        return GENERATORS[what]()

    return GEN_RE.sub(generate, FIG_RE.sub(figure, markdown))
