"""Engine options, declared once and shared by the protocol and the engine.

Every option is a field of :class:`EngineOptions`. Its alias is the protocol
name (``Hash``, ``Move Overhead``, ...), its Python type and ``ge``/``le``
bounds give the UCI type and range, and ``json_schema_extra={"uci": ...}``
marks the two types Python cannot express (``button`` and ``combo``). The
``option name ... type ...`` lines of the handshake and the validation of
``setoption`` are both generated from this model, so they cannot disagree.

The parameters of each game (its pydantic ``Params``) become options too,
named ``<game>_<field>`` (``kalah_pits``, ``nim_max_take``, ...), or by the
name a protocol defines for them (chess's ``chess960`` is ``UCI_Chess960``):
see :func:`game_param_specs`. The games come from the registry the caller
hands in (:class:`engine.game.Registry`); this module imports no game.

What setting an option does beyond storing its value is written in one place,
:data:`EFFECTS`, beside the declarations.

>>> import games
>>> opts = EngineOptions()
>>> spec = find_spec("move overhead", games)
>>> spec.name, spec.kind, spec.default, spec.min, spec.max
('Move Overhead', 'spin', 10, 0, 5000)
>>> set_value(opts, spec, "30", games).move_overhead
30
"""

from __future__ import annotations

import os
import re
import types
import typing
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

import annotated_types
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.fields import FieldInfo

from engine.game import ExactConfig, Registry

#: How UCI writes an empty string value.
EMPTY = "<empty>"
#: The cores this process may run on: ``Threads`` beyond them is capped (GUIs and
#: bots send values meant for larger machines, which must still be accepted).
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class OptionError(ValueError):
    """An unknown option, or a value of the wrong type or out of range."""


def _tunable(default: int, lo: int, hi: int, alias: str, c_end: float, description: str) -> Any:
    """A field of :class:`SearchParams`: ``c_end`` is the perturbation SPSA ends with
    (``zermelo tune spsa``), about a twentieth of the range worth exploring."""
    return Field(default, ge=lo, le=hi, alias=alias, description=description, json_schema_extra={"spsa_c": c_end})


class SearchParams(BaseModel):
    """The alpha-beta search's tunable numbers, one table: each field an option (its
    alias), its bounds and SPSA's perturbation. The defaults are the search's own
    (``engine.search.DEFAULT_PARAMS``); the searcher copies them into C attributes
    at every go (``Searcher.configure``)."""

    model_config = ConfigDict(populate_by_name=True, frozen=True)

    aspiration_delta: int = _tunable(30, 5, 300, "AspirationDelta", 4,
                                     "search: first half-width of the aspiration window, centipawns")
    null_base: int = _tunable(3, 1, 8, "NullMoveBase", 1, "search: null-move reduction at depth 0, plies")
    null_divisor: int = _tunable(6, 2, 20, "NullMoveDivisor", 1,
                                 "search: the null-move reduction grows one ply every this many plies of depth")
    rfp_margin: int = _tunable(90, 10, 400, "RFPMargin", 10, "search: reverse futility margin a ply, centipawns")
    rfp_max_depth: int = _tunable(3, 1, 10, "RFPMaxDepth", 1, "search: reverse futility pruning up to this depth")
    futility_margin: int = _tunable(120, 10, 500, "FutilityMargin", 12, "search: futility margin a ply, centipawns")
    lmr_base: int = _tunable(75, 0, 200, "LMRBase", 8,
                             "search: late-move reduction base, hundredths of a ply (base + ln d ln i / divisor)")
    lmr_divisor: int = _tunable(225, 100, 600, "LMRDivisor", 15,
                                "search: late-move reduction divisor, hundredths (base + ln d ln i / divisor)")
    see_quiet: int = _tunable(60, 0, 300, "SEEQuietMargin", 8,
                              "search: quiet moves losing more than this times the depth in the exchange are pruned")
    see_noisy: int = _tunable(25, 0, 150, "SEENoisyMargin", 4,
                              "search: noisy moves losing more than this times the depth squared are pruned")
    lmp_base: int = _tunable(3, 0, 20, "LMPBase", 1,
                             "search: late-move pruning keeps the first this many plus depth squared quiet moves")


def search_params(options: SearchParams) -> dict[str, int]:
    """The :class:`SearchParams` fields of ``options``, as ``Searcher.configure`` takes them."""
    return {name: getattr(options, name) for name in SearchParams.model_fields}


def spsa_steps() -> dict[str, float]:
    """SPSA's final perturbation ``c_end`` of every :class:`SearchParams` field."""
    return {name: _extra(info)["spsa_c"] for name, info in SearchParams.model_fields.items()}


class EngineOptions(SearchParams):
    """The engine's UCI options; the alias of each field is its protocol name. The
    search's tunable numbers (:class:`SearchParams`) come last in the handshake."""

    model_config = ConfigDict(populate_by_name=True, frozen=True)

    hash: int = Field(16, ge=1, le=4096, alias="Hash",
                      description="transposition table size, MB; set at once at any size, resident "
                                  "memory grows to it as the table is used")
    threads: int = Field(1, ge=1, le=512, alias="Threads",
                         description="processes searching two-player games (Lazy SMP over the shared "
                                     "table; Monte-Carlo: a tree each, their roots merged; reversi's exact "
                                     "solver: a split at the root), at most the cores; games of more than "
                                     "two players use one")
    clear_hash: None = Field(None, alias="Clear Hash", json_schema_extra={"uci": "button"},
                             description="empty the transposition table")
    ponder: bool = Field(False, alias="Ponder", description="the GUI may send `go ponder`")
    multipv: int = Field(1, ge=1, le=256, alias="MultiPV", description="number of best lines reported")
    move_overhead: int = Field(10, ge=0, le=5000, alias="Move Overhead",
                               description="ms kept back from every move for GUI and network lag")
    show_wdl: bool = Field(False, alias="UCI_ShowWDL", description="add `wdl W D L` (per mille) to info lines")
    own_book: bool = Field(False, alias="OwnBook", description="play from the opening book in `BookFile`")
    book_file: str = Field("", alias="BookFile",
                           description="opening book: a zermelo `.zbook`, or a Polyglot `.bin` for chess; "
                                       "empty = the book shipped for the game")
    book_best_only: bool = Field(False, alias="BookBestOnly", description="always play the heaviest book move")
    book_variety: int = Field(50, ge=0, le=100, alias="BookVariety",
                              description="50 draws book moves in proportion to their weights; lower favours "
                                          "heavy moves (0 = the heaviest), higher flattens the odds")
    book_depth: int = Field(255, ge=0, le=1000, alias="BookDepth",
                            description="use the book only while fewer plies than this were played")
    syzygy_path: str = Field("", alias="SyzygyPath",
                             description="directories of Syzygy tables, separated by `:` (`;` on Windows)")
    syzygy_probe_depth: int = Field(1, ge=1, le=100, alias="SyzygyProbeDepth",
                                    description="minimum remaining depth for table probes in the search")
    syzygy_50_move_rule: bool = Field(True, alias="Syzygy50MoveRule",
                                      description="cursed wins and blessed losses count as draws")
    syzygy_probe_limit: int = Field(7, ge=0, le=7, alias="SyzygyProbeLimit",
                                    description="probe only positions with at most this many pieces")
    syzygy_verify: bool = Field(True, alias="SyzygyVerify",
                                description="probe a Syzygy file only once its embedded checksum matches "
                                            "(verified in the background, fewest pieces first); false trusts "
                                            "every file at once")
    table_path: str = Field("", alias="TablePath",
                            description="directory of zermelo's own endgame tables (`zermelo tables build`)")
    eval_file: str = Field("", alias="EvalFile",
                           description="network weights (`.znn`) for the current game; empty = the network "
                                       "shipped for the game, if any (else the hand-written evaluation)")
    use_nnue: bool = Field(True, alias="Use NNUE",
                           description="evaluate with the network of `EvalFile` when the game has one; false = "
                                       "the hand-written evaluation")
    endgame_empties: int = Field(ExactConfig.endgame_empties, ge=0, le=60, alias="EndgameEmpties",
                                 description="reversi: play the exactly solved best move from this many "
                                             "empty squares (0 = never; the clock stops a solve that "
                                             "cannot finish, and the search plays)")
    variant: str = Field("chess", alias="UCI_Variant", json_schema_extra={"uci": "combo"},
                         description="the game played (a name of the registry, or an alias); resets the "
                                     "position to its start")
    analyse_mode: bool = Field(False, alias="UCI_AnalyseMode",
                               description="the GUI is analysing: no book or table move, always search")
    skill_level: int = Field(20, ge=0, le=20, alias="Skill Level",
                             description="playing strength, 0 (weakest) to 20 (full); every game")
    limit_strength: bool = Field(False, alias="UCI_LimitStrength",
                                 description="play at the strength `UCI_Elo`; takes precedence over `Skill Level`")
    elo: int = Field(1400, ge=944, le=2130, alias="UCI_Elo",
                     description="strength with `UCI_LimitStrength`, calibrated in chess against Stockfish")
    opponent: str = Field("", alias="UCI_Opponent", description="`title elo type name` of the opponent; accepted")
    multiplayer_search: Literal["maxn", "paranoid", "brs"] = Field(
        "brs", alias="MultiplayerSearch",
        description="the search of games of more than two players: max^n, paranoid or best-reply search")
    strategy: Literal["auto", "alphabeta", "mcts"] = Field(
        "auto", alias="Strategy",
        description="the tree search: alpha-beta (PVS, or `MultiplayerSearch` for more than two players), "
                    "Monte-Carlo tree search (UCT over random playouts; Threads at the root), or auto: the game's "
                    "choice (Monte-Carlo with RAVE in Go from 9x9, where it is the stronger; else alpha-beta)")
    resign_threshold: int = Field(
        5, ge=0, le=50, alias="ResignThreshold",
        description="GTP: `genmove` answers `resign` once three Monte-Carlo searches in a row (of at least "
                    "500 simulations each) put the win rate below this many per cent, or one proves the "
                    "loss; 0 = never")
    rave: bool = Field(False, alias="RAVE",
                       description="`Strategy mcts`: blend all-moves-as-first statistics into the selection "
                                   "(pays in Go, where a move is a point; costs in Connect Four)")
    playouts: Literal["heavy", "light"] = Field(
        "heavy", alias="Playouts",
        description="`Strategy mcts`, in a game with a playout board of its own (Go): heavy playouts "
                    "(captures, atari escapes, 3x3 shapes, no self-atari) or light ones (random moves)")


#: What an option does when set, beyond storing its value: field -> the
#: :class:`engine.engine.Engine` method that applies it, called as ``method(old, new)``
#: with the old and new :class:`EngineOptions` (as Stockfish's ``Option(..., on_change)``).
#: The method may raise :class:`OptionError` to refuse the value; the old options are
#: then kept. Options not listed are read where they are used (at the next go).
EFFECTS: dict[str, str] = {
    "variant": "_select_variant",
    "hash": "_resize_hash",
    "clear_hash": "_clear_hash",
    "threads": "_set_threads",
    "book_file": "_check_book_file",
    "table_path": "_configure_tables",
    "syzygy_path": "_configure_tables",
    "syzygy_probe_depth": "_configure_tables",
    "syzygy_50_move_rule": "_configure_tables",
    "syzygy_probe_limit": "_configure_tables",
    "syzygy_verify": "_configure_tables",
    "endgame_empties": "_configure_tables",
    "eval_file": "_set_network",
    "use_nnue": "_set_network",
}


@dataclass(frozen=True)
class OptionSpec:
    """One protocol option: where it lives and how the protocol shows it.

    ``game`` is ``None`` for engine options (``field`` is an
    :class:`EngineOptions` field) and the registry name of the game for game
    parameters (``field`` is a field of that game's ``Params``).
    """

    name: str
    kind: str  # "spin", "check", "string", "combo" or "button"
    default: Any
    field: str
    game: str | None = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()
    #: How a string-typed value is read: ``"int"``, ``"seq"`` (``1,2,3``) or ``"text"``.
    shape: str = "text"
    description: str = ""

    def uci_line(self) -> str:
        """The ``option name ... type ...`` line of the handshake."""
        parts = [f"option name {self.name} type {self.kind}"]
        if self.kind != "button":
            parts.append(f"default {format_value(self.default)}")
        if self.kind == "spin":
            parts.append(f"min {self.min} max {self.max}")
        parts.extend(f"var {v}" for v in self.vars)
        return " ".join(parts)


def format_value(value: Any) -> str:
    """A value as the protocol writes it: ``true``/``false``, ``<empty>``, ``1,2,3``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ",".join(format_value(v) for v in value) or EMPTY
    if value is None or value == "":
        return EMPTY
    return str(value)


def _extra(info: FieldInfo) -> dict[str, Any]:
    """A field's ``json_schema_extra``, which the options and parameters declare as a dict."""
    return cast(dict[str, Any], info.json_schema_extra or {})


def _spec_from_field(name: str, field_name: str, info: FieldInfo, game: str | None) -> OptionSpec:
    extra = _extra(info)
    annotation = info.annotation
    lo = hi = None
    for m in info.metadata:
        if isinstance(m, annotated_types.Ge):
            lo = cast(int, m.ge)
        elif isinstance(m, annotated_types.Le):
            hi = cast(int, m.le)
        elif isinstance(m, annotated_types.Gt):
            lo = cast(int, m.gt) + 1
        elif isinstance(m, annotated_types.Lt):
            hi = cast(int, m.lt) - 1
    vars_: tuple[str, ...] = ()
    if "uci" in extra:
        kind = extra["uci"]
        vars_ = tuple(extra.get("vars", ()))
    elif annotation is bool:
        kind = "check"
    elif annotation is int and lo is not None and hi is not None:
        kind = "spin"
    elif typing.get_origin(annotation) is Literal:
        kind, vars_ = "combo", tuple(str(v) for v in typing.get_args(annotation))
    else:
        # Unbounded ints, tuples and strings travel as text and are parsed by the model.
        kind = "string"
    return OptionSpec(name=name, kind=kind, default=info.default, field=field_name, game=game,
                      min=lo, max=hi, vars=vars_, shape=_shape(annotation), description=info.description or "")


def _shape(annotation: Any) -> str:
    if typing.get_origin(annotation) in (tuple, list) or annotation in (tuple, list):
        return "seq"
    if annotation is int:
        return "int"
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = typing.get_args(annotation)
        if int in args and str not in args:
            return "int"
    return "text"


def engine_specs(registry: Registry) -> list[OptionSpec]:
    """The engine options, in declaration order (``UCI_Variant`` lists the registry's games)."""
    # Every engine option is declared with its protocol name as the alias.
    specs = [_spec_from_field(info.alias or fname, fname, info, None)
             for fname, info in EngineOptions.model_fields.items()]
    specs.sort(key=lambda spec: spec.field in SearchParams.model_fields)
    return [replace(spec, vars=tuple(registry.names())) if spec.field == "variant" else spec for spec in specs]


def game_param_specs(game_name: str, params_model: type[BaseModel]) -> list[OptionSpec]:
    """The parameters of one game as options named ``<game>_<field>``, or by the
    ``option`` name in the field's ``json_schema_extra`` where a protocol defines
    one (``UCI_Chess960`` is chess's ``chess960``: GUIs send that name)."""
    return [_spec_from_field(_extra(info).get("option", f"{game_name}_{fname}"), fname, info, game_name)
            for fname, info in params_model.model_fields.items()]


def all_specs(registry: Registry) -> list[OptionSpec]:
    """Engine options followed by the parameters of every registered game.

    Imports every game module. A game whose module fails to import
    contributes no parameters rather than breaking the handshake; selecting
    it then reports the error.
    """
    specs = engine_specs(registry)
    for name in registry.names():
        try:
            cls = registry.game_class(name)
        except Exception:
            continue
        specs += game_param_specs(name, cls.Params)
    return specs


def find_spec(name: str, registry: Registry) -> OptionSpec:
    """The option called ``name`` (case-insensitive, runs of spaces count as one).

    Only the game a ``<game>_<field>`` name refers to is imported.
    """
    key = " ".join(name.split()).lower()
    for spec in engine_specs(registry):
        if spec.name.lower() == key:
            return spec
    for game in registry.names():
        if key.startswith(game + "_"):
            for spec in game_param_specs(game, registry.game_class(game).Params):
                if spec.name.lower() == key:
                    return spec
    # A game parameter under a protocol's own name: every game has to be asked.
    for spec in all_specs(registry):
        if spec.game is not None and spec.name.lower() == key:
            return spec
    raise OptionError(f"unknown option {name!r}")


def parse_text(spec: OptionSpec, text: str | None) -> Any:
    """Turn the text after ``value`` into what the model validates.

    Checks accept ``true``/``false`` only; spins need an integer; ``<empty>``
    and a missing value are the empty string; sequences may be written
    ``1,2,3`` or ``1 2 3``.
    """
    text = "" if text is None else text.strip()
    if text == EMPTY:
        text = ""
    if spec.kind == "check":
        low = text.lower()
        if low not in ("true", "false"):
            raise OptionError(f"{spec.name}: expected true or false, got {text!r}")
        return low == "true"
    if spec.kind == "spin":
        value = _integer(spec, text)
        assert spec.min is not None and spec.max is not None  # a spin always has its range
        if not spec.min <= value <= spec.max:
            shown = str(value) if abs(value) < 10**20 else text[:20] + "…"
            raise OptionError(f"{spec.name}: {shown} is out of range {spec.min}..{spec.max}")
        return value
    if spec.kind == "combo" and (spec.game is not None or spec.field != "variant"):
        for v in spec.vars:
            if v.lower() == text.lower():
                return v
        raise OptionError(f"{spec.name}: expected one of {', '.join(spec.vars)}, got {text!r}")
    if spec.shape == "seq":
        return text.replace(",", " ").split()
    if spec.shape == "int":
        return _integer(spec, text)
    return text


#: Spins whose value outside the range is taken at the nearest end, with a note,
#: rather than refused: a strength asked beyond the calibrated levels plays at the
#: nearest one (GUIs and rating tools send Elos the engine has not been measured at).
CLAMPED = frozenset({"elo"})


def clamp_text(spec: OptionSpec, text: str | None) -> tuple[str | None, str | None]:
    """``text`` brought into the range of a :data:`CLAMPED` spin, and the note saying
    so (``None`` when it was in range or is not an integer)."""
    if spec.field not in CLAMPED or spec.min is None or spec.max is None or text is None:
        return text, None
    value = text.strip()
    if not _INT_RE.fullmatch(value):
        return text, None
    asked = _integer(spec, value)
    if spec.min <= asked <= spec.max:
        return text, None
    near, end = (spec.max, "top") if asked > spec.max else (spec.min, "bottom")
    shown = value if len(value) <= 20 else value[:20] + "…"
    return str(near), (f"{spec.name} {shown} is outside the calibrated range {spec.min}..{spec.max}: "
                       f"playing at {near}, the {end} level")


#: An integer as GUIs write it: ASCII digits only (``int()`` also takes Unicode
#: digits such as ``٣`` and underscores).
_INT_RE = re.compile(r"[+-]?[0-9]+")


def _integer(spec: OptionSpec, text: str) -> int:
    """``text`` as an integer; more digits than any range needs stand for a huge value
    (``int()`` refuses to convert over 4300 digits)."""
    if not _INT_RE.fullmatch(text):
        raise OptionError(f"{spec.name}: expected an integer, got {text[:40]!r}")
    if len(text.lstrip("+-").lstrip("0")) > 30:
        return -10**30 if text[0] == "-" else 10**30
    return int(text)


def set_value(opts: EngineOptions, spec: OptionSpec, text: str | None, registry: Registry) -> EngineOptions:
    """A new :class:`EngineOptions` with ``spec`` set from ``text``; ``opts`` is untouched.
    A game name (``UCI_Variant``) is read through ``registry``: an alias becomes its name.

    Raises :class:`OptionError` with a readable reason when the value is invalid.
    """
    if spec.game is not None:
        raise OptionError(f"{spec.name} is a game parameter")
    if spec.kind == "button":
        return opts
    value = parse_text(spec, text)
    if spec.field == "variant":
        try:
            value = registry.canonical(value)
        except KeyError as e:
            raise OptionError(f"{spec.name}: {e.args[0]}") from None
    try:
        return EngineOptions.model_validate({**opts.model_dump(), spec.field: value})
    except ValidationError as e:
        raise OptionError(f"{spec.name}: {validation_reason(e)}") from None


def validation_reason(error: ValidationError) -> str:
    """The first message of a pydantic error, without pydantic's boilerplate."""
    first = error.errors()[0]
    msg = first.get("msg", str(error))
    return msg.removeprefix("Value error, ")
