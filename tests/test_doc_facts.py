"""The pages' words against the code (``scripts/remeasure.py``'s :func:`doc_facts`): they
agree now, and each check finds the disagreement it is there for."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def remeasure():
    if "remeasure" not in sys.modules:
        spec = importlib.util.spec_from_file_location("remeasure", ROOT / "scripts" / "remeasure.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["remeasure"] = module
        spec.loader.exec_module(module)
    return sys.modules["remeasure"]


@pytest.fixture(scope="module")
def texts(remeasure) -> dict[str, str]:
    return remeasure.pages()


def _with(texts: dict[str, str], path: str, old: str, new: str) -> dict[str, str]:
    assert old in texts[path], (path, old)
    return {**texts, path: texts[path].replace(old, new)}


def test_the_pages_words_agree_with_the_code(remeasure, texts):
    assert remeasure.doc_facts(texts) == []


def test_a_compiled_game_called_pure_python(remeasure, texts):
    from engine.build import COMPILED_MODULES

    assert {"games.go.board", "games.go.benson", "games.go.solve"} <= set(COMPILED_MODULES)
    page = "docs/guide/games/go.md"
    stale = _with(texts, page, "Compiled with the rest of the hot path:",
                  "Pure Python written in the hot path's style, ready for a `.pxd` (not yet in "
                  "`engine.build.COMPILED_MODULES`). Compiled with the rest of the hot path:")
    found = remeasure.compiled_words(stale)
    assert len(found) == 1 and found[0].startswith(f"{page}: says go is not compiled")
    missing = _with(texts, page, "`games.go.solve`", "`games.go.solver`")
    assert any("names COMPILED_MODULES but not games.go.solve" in f for f in remeasure.compiled_words(missing))


@pytest.mark.parametrize("path, old, new", [
    ("docs/guide/networks.md", "measures about 2130 on Stockfish's scale", "measures about 1900–2000 on Stockfish's scale"),
    ("docs/measured/chess.md", "which measures about 2130", "which measures above 2000"),
    ("docs/guide/options.md", "(about 2130 on Stockfish's scale", "(about 1759 on Stockfish's scale"),
])
def test_full_strength_is_one_figure(remeasure, texts, path, old, new):
    found = remeasure.full_strength(_with(texts, path, old, new))
    assert len(found) == 1 and found[0].startswith(f"{path}: full strength given as ")
    assert "about 2130, docs/measured/strength.md" in found[0]


def test_full_strength_has_its_source(remeasure, texts):
    found = remeasure.full_strength(_with(texts, "docs/measured/strength.md", "## Full strength", "## Strength"))
    assert found == ["docs/measured/strength.md: no '## Full strength' section stating 'measures **about N**'"]


def test_the_shipped_networks_position_counts(remeasure, texts):
    figures = remeasure.load()["figures"]
    assert (figures["net.reversi.positions"]["value"], figures["net.checkers.positions"]["value"]) == (682_755, 368_640)
    for key in ("net.reversi.positions", "net.checkers.positions"):
        assert remeasure.check_pinned(figures[key]) == (figures[key]["value"], "")
    old = _with(texts, "docs/measured/index.md", "the one shipped now from {{ fig net.reversi.positions }}",
                "the shipped network learned from 298,844")
    found = remeasure.network_positions(old, figures)
    assert found == ["docs/measured/index.md: the shipped network with 298,844 positions; the shipped networks' are "
                     "368,640, 682,755"]
    readme = _with(texts, "README.md", "trained on 682,755 and 368,640 positions", "trained on 298,844 and 368,640 positions")
    assert len(remeasure.network_positions(readme, figures)) == 1


def test_a_changed_network_file_must_restate_its_figure(remeasure):
    figure = dict(remeasure.load()["figures"]["net.reversi.positions"], file="games/nets/checkers.znn")
    value, problem = remeasure.check_pinned(figure)
    assert value is None and "changed since the figure was stated" in problem


def test_the_games_table_has_every_registered_game(remeasure, texts):
    page = "docs/guide/games/index.md"
    row = next(line for line in texts[page].splitlines() if line.startswith("| `go` |"))
    assert remeasure.games_table(_with(texts, page, row + "\n", "")) == [f"{page}: the notation table has no row for go"]
    wrong = _with(texts, page, "| `go` | `weiqi`, `baduk`, `igo` | black, white |", "| `go` | `weiqi` | white, black |")
    assert remeasure.games_table(wrong) == [f"{page}: go's players are black, white, the table says 'white, black'"]


def test_the_package_summary_names_every_game_family(remeasure):
    assert remeasure.package_summary() == []
    old = ("A game-playing engine server: UCI/UGI, alpha-beta search, books and endgame tables for chess, "
           "draughts, reversi, Kalah, m,n,k, Nim and Connect Four")
    assert remeasure.package_summary(old) == ["pyproject.toml: the description does not name Rolit (rolit)",
                                             "pyproject.toml: the description does not name Go (go)"]


def test_the_facts_are_checked_with_the_figures(remeasure, capsys):
    assert remeasure.main(["--facts"]) == 0
    assert "the pages' words against the code: 0 disagree" in capsys.readouterr().out
