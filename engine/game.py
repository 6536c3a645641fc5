"""The contract between the game-agnostic engine and the rules of each game.

A :class:`Game` is immutable: its rules, parameters (a pydantic model), name,
aliases and traits. It makes :class:`Position` objects, the mutable state the
search walks with ``push``/``pop``. Everything the search needs from a game is
here; nothing else about a game may leak into ``engine``.

Conventions every game follows:

- Players are numbered 0 and 1; player 0 moves first from the start position.
  ``turn`` need not alternate (Kalah grants extra turns, reversi passes are real
  moves): the search negates a score only when ``turn`` actually changed.
  Games of more than two players follow the conventions below.
- Moves are plain ints with a game-documented bit layout; ``NO_MOVE`` is never a
  legal move.
- Values are from the side to move's point of view. ``evaluate()`` is a
  heuristic bounded by ``EVAL_LIMIT``; game results are ``+1``/``0``/``-1``
  (win/draw/loss for the side to move) and the search turns them into
  ``±(WIN - ply)`` so that shorter wins score higher.
- ``legal_moves()`` is empty once play has ended by the rules of play (a line
  made, a full board, a side with nothing left). Draw rules that the search
  checks separately (fifty moves, repetition, insufficient material) are
  reported by ``outcome()`` and do not empty the move list, so perft counts
  match the published figures.

Games of N > 2 players (Rolit, the N-player m,n,k-game) keep every convention
above that does not name two players, and add these:

- ``len(game.players)`` is N. A game whose player count is a parameter sets
  ``players`` per instance from its parameters; two-player games keep a class
  attribute. ``turn`` is 0..N-1, player 0 moves first, and turns follow the
  game's fixed order, though ``turn`` need not advance by exactly one (a game may
  skip a player who cannot move; a pass may be a real move).
- Positions derive from :class:`Position` like every game's. ``legal_moves()`` is
  empty exactly when the game is over; ``key`` includes the player to move.
  ``outcome()`` is ``None`` while play goes on, then +1/0/-1 from the view of the
  player to move: +1 for a sole first place, 0 for a shared first place, -1 for
  anything else; ``no_moves_value()`` agrees with it. ``evaluate()`` is the
  mover's entry of ``values()`` minus the best other entry (a scalar view for the
  two-player tools). ``noisy_moves()`` is ``[]``, ``is_noisy`` and ``in_check``
  are False, ``can_stand_pat`` True, ``null_move_allowed`` and ``is_repetition``
  False, ``push_null`` raises.
- Vectors are plain lists of ints indexed by player, bounded by the game's
  constant ``value_sum`` S (Korf's bound for shallow pruning): every entry is
  ``>= 0`` and the entries sum to at most S.

  - ``pos.values()``: the heuristic vector of a position in play, each entry in
    ``[0, S)``: no entry reaches S, which only a won game scores.
  - ``pos.result()``: ``None`` while in play; once over, the final vector: S for
    a sole winner and 0 for the others; ``S // k`` to each of k players sharing
    first place and 0 for the rest (a draw shared by all gives ``S // N`` each).
  - ``pos.ranking()``: ``None`` while in play; once over, each player's place, 1
    for first, tied players sharing a place and the next place skipping as many
    (``[1, 1, 3]``).

A game may also know some positions exactly (endgame tables, a solver): its
``exact(config)`` returns an :class:`Exact` for the settings in an
:class:`ExactConfig`, or ``None``. The engine asks for it without knowing the
game (see :mod:`engine.endgame`).

Every member the engine and the protocol ask of a game is declared on
:class:`Game` here, and every member they ask of a position on
:class:`Position` (:mod:`engine.position`), each with a default where a game may
have none; nothing is looked up by name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict
from pydantic.config import JsonDict

# The base class every game's position derives from: what the search calls per node.
from engine.position import Position

if TYPE_CHECKING:
    from engine.gtprules import GtpRules
    from engine.control import Control
    import numpy as np

    from engine.nnue_data import Dataset
    from engine.tuning import EvalWeights


Move = int
NO_MOVE = -1

WIN = 1_000_000
MAX_PLY = 256
#: Scores at or beyond this magnitude are proven results with a distance.
WIN_BOUND = WIN - MAX_PLY
#: Proven results whose distance is unknown (e.g. a WDL table hit) score
#: ``±(KNOWN_WIN - ply)``: above every heuristic, below every counted win.
KNOWN_WIN = WIN - 4 * MAX_PLY
#: Every ``evaluate()`` must stay strictly inside ``±EVAL_LIMIT``.
EVAL_LIMIT = KNOWN_WIN - 4 * MAX_PLY


class IllegalMoveError(ValueError):
    """A move text that is unparsable or not legal in the position."""


class InvalidPositionError(ValueError):
    """A position text (FEN or the game's equivalent) that cannot be set up."""


def parse_number(text: str, limit: int = 10**9) -> int | None:
    """``text`` as a number written canonically: ASCII digits, no sign, no leading
    zero, below ``limit``; else ``None``. Move parsers use it so that ``²``, ``٣``,
    ``07`` or a number too large for a move's bit field is refused, not reread.

    >>> parse_number("12"), parse_number("012"), parse_number("²"), parse_number("0"), parse_number("300", 256)
    (12, None, None, 0, None)
    """
    if not text or len(text) > 12 or not all(c in "0123456789" for c in text) or (text[0] == "0" and text != "0"):
        return None
    value = int(text)
    return value if value < limit else None


def quote(text: str) -> str:
    """``repr`` of a move text for an error message, cut to its first 20 characters."""
    return repr(text) if len(text) <= 20 else repr(text[:20]) + "…"


def result_score(result: int, ply: int) -> int:
    """Score a game result (+1/0/-1 for the side to move) found ``ply`` plies from the root."""
    if result > 0:
        return WIN - ply
    if result < 0:
        return -WIN + ply
    return 0


def is_proven(score: int) -> bool:
    """True for scores that carry a proven result (counted or distance-less)."""
    return abs(score) > EVAL_LIMIT


def mate_plies(score: int) -> int | None:
    """Signed plies to the end of a counted win (+) or loss (-), else ``None``."""
    if score >= WIN_BOUND:
        return WIN - score
    if score <= -WIN_BOUND:
        return -(WIN + score)
    return None


def mate_moves(score: int) -> int | None:
    """UCI ``score mate`` value: moves (not plies) to the end, negative when losing."""
    plies = mate_plies(score)
    if plies is None:
        return None
    return (plies + 1) // 2 if plies > 0 else plies // 2


def margin_score(margin: int) -> int:
    """Search score of a proven final margin (positive: the side to move wins by it).

    Wins and losses sit beside :data:`KNOWN_WIN` (a proven result of unknown
    distance), moved by the margin so that larger wins and smaller losses rank higher;
    a zero margin is a draw.

    >>> margin_score(0), margin_score(3) - margin_score(1), margin_score(-2) == -margin_score(2)
    (0, 2, True)
    """
    if margin > 0:
        return KNOWN_WIN + margin
    if margin < 0:
        return -KNOWN_WIN + margin
    return 0


def describe(score: int, plies: int | None = None, unit: str = "") -> str:
    """Words for an exact score: ``win in 4 moves``, ``loss by 4 seeds in 3 moves``, ``draw``.

    ``plies`` is the length of the line to the game's end when the score does not carry
    it (margins); moves count as in ``score mate N`` (:func:`mate_moves`).

    >>> describe(WIN - 7), describe(margin_score(-4), 6, "seeds"), describe(0)
    ('win in 4 moves', 'loss by 4 seeds in 3 moves', 'draw')
    """
    if score == 0:
        return "draw"
    word = "win" if score > 0 else "loss"
    counted = mate_plies(score)
    if counted is not None:
        plies = abs(counted)
    margin = f" by {abs(score) - KNOWN_WIN}{' ' + unit if unit else ''}" if counted is None else ""
    if plies is None:
        return word + margin
    # What mate_moves gives a line of that many plies, won or lost.
    moves = (plies + 1) // 2
    return f"{word}{margin} in {moves} move{'s' if moves != 1 else ''}"


#: Marks a game parameter that chooses how positions are judged, not the rules
#: (``Field(..., json_schema_extra=NOT_RULES)``): books and tables made for the game
#: serve it whatever that parameter is set to.
NOT_RULES: JsonDict = {"rules": False}


def rule_params(params: BaseModel) -> dict[str, object]:
    """The parameters that make the game's rules, as JSON values (those marked
    :data:`NOT_RULES` left out)."""
    fields = type(params).model_fields
    return {name: value for name, value in params.model_dump(mode="json").items()
            if not isinstance(extra := fields[name].json_schema_extra, dict) or extra.get("rules", True)}


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first (for bitboard games)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class InputSet:
    """A network's inputs as a game lists them (``pos.nn_features()``): a weights file
    names the same set and is refused for any other."""

    name: str
    """The set's name, which a weights file must carry too (``chess768``; per game
    object where the inputs follow the parameters: ``mnk-15x15``)."""
    size: int
    """How many inputs the set has (the rows of the feature transformer)."""
    most_active: int = 0
    """The most inputs one view of a position can have active (chess 32), which bounds
    the accumulator a weights file may reach; 0 for :attr:`size`."""


@dataclass(frozen=True)
class ProbCut:
    """ProbCut's numbers for a game whose alpha-beta search opts in (``Game.probcut``).

    At a non-PV node at least ``min_depth`` deep, not in check, a search
    ``reduction`` plies shallower against ``beta + margin`` (or ``alpha - margin``)
    stands in for the full one when it holds: the deep value rarely strays from the
    shallow one by more than ``margin``. With ``noisy`` (Stockfish's form), the
    shallow search tries only the noisy moves whose exchange clears the raised
    bound, each after a quiescence search; without it (Buro's form, for games with
    no captures to try), it is the node's own search, on both sides of the window.

    ``ladder`` makes it Multi-ProbCut (Buro's form only): entry ``i`` is ``(shallow,
    up, down)`` for a node ``min_depth + i`` deep (the last entry for any deeper), the
    shallow search's depth and the margins above beta and below alpha. Two margins,
    because the deep score regresses on the shallow one with an offset ``b`` (from
    the parity of the depths): ``t·σ - b`` above, ``t·σ + b`` below
    (``scripts/probcut_calibrate.py --ladder T`` prints them). ``reduction`` and
    ``margin`` then go unused.
    """

    min_depth: int
    reduction: int
    margin: int
    noisy: bool = False
    ladder: tuple[tuple[int, int, int], ...] = ()

    def __post_init__(self) -> None:
        if not 0 < self.reduction < self.min_depth or self.margin <= 0:
            raise ValueError(f"ProbCut needs 0 < reduction < min_depth and a margin > 0: {self}")
        if self.ladder and self.noisy:
            raise ValueError("a ProbCut ladder is Buro's form: not with noisy")
        for i, (shallow, up, down) in enumerate(self.ladder):
            if not 0 < shallow < self.min_depth + i or up <= 0 or down <= 0:
                raise ValueError(f"ProbCut ladder entry {i} needs 0 < shallow < depth and margins > 0: "
                                 f"{(shallow, up, down)}")

    def at(self, depth: int) -> tuple[int, int, int]:
        """``(shallow depth, margin above beta, margin below alpha)`` of a node ``depth``
        deep (at least ``min_depth``)."""
        if not self.ladder:
            return depth - self.reduction, self.margin, self.margin
        return self.ladder[min(depth - self.min_depth, len(self.ladder) - 1)]


class NoParams(BaseModel):
    """The parameters of a game that has none."""

    model_config = ConfigDict(extra="forbid")


class Game:
    """Immutable rules of one game, and a factory of its positions.

    Every game derives from this class and overrides what it has: the rules
    (:meth:`new_position`, ``name``, ``players``, ``Params``), class-level traits the
    tools around the search read (as python-chess's variant classes carry theirs), and
    capabilities (:meth:`exact`, :meth:`eval_terms`, ...) whose defaults say "this game
    has none". Code outside ``games/`` asks a trait or calls a capability; it never
    compares a game's name nor looks a member up by name.
    """

    name: ClassVar[str]
    """Registry name, also the ``UCI_Variant`` value."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names the registry accepts for the game."""
    Params: ClassVar[type[BaseModel]] = NoParams
    """Game parameters (board size, seeds, ...); defaults give the standard game."""
    params: BaseModel
    """This game's parameters (an instance of its ``Params``)."""
    null_move_ok: ClassVar[bool] = False
    """True where null-move pruning is sound; False for zugzwang-prone games."""
    capture_history: ClassVar[bool] = False
    """The alpha-beta search orders the noisy moves that do not lose material also by a
    history of the noisy moves that caused cutoffs (added to ``move_score``)."""
    continuation_history: ClassVar[bool] = False
    """The alpha-beta search orders quiet moves also by a history keyed by the move
    before (a counter-move history)."""
    followup_history: ClassVar[bool] = False
    """The alpha-beta search orders quiet moves also by a history keyed by the side's
    own move before (two plies back: a follow-up history)."""
    delta_pruning: ClassVar[int] = 0
    """Quiescence's delta pruning: standing pat below alpha, a noisy move is skipped
    unless its exchange (``see_ge``) wins what is missing less this margin, in the
    evaluation's units; 0: none (only the moves that lose material are skipped)."""
    razoring: ClassVar[int] = 0
    """Razoring: at non-PV nodes one or two plies from the horizon whose static
    evaluation is more than this margin a ply below alpha, a quiescence search that
    stays below alpha ends the node; in the evaluation's units, 0: none."""
    history_reduction: ClassVar[int] = 0
    """Late-move reductions by history: a quiet move's reduction is lessened by one ply
    for each this many points of its history (with the continuation and follow-up
    histories where the game keeps them), and deepened likewise below zero, by at most
    two plies either way; 0: the reduction table alone."""
    correction_history: ClassVar[bool] = False
    """The alpha-beta search corrects the static evaluation by how far searches of
    positions sharing ``Position.correction_key()`` found it off."""
    singular_extensions: ClassVar[bool] = False
    """The alpha-beta search extends a table move that a shallower search without it
    finds singular (every other move well below it)."""
    table_move_first: ClassVar[bool] = False
    """The alpha-beta search generates a node's legal moves only when its quiet moves are
    due: the table move and the killers are checked by ``Position.is_legal``, the noisy
    moves come from ``noisy_moves``, and a cutoff by any of them spares the whole list.
    For a game whose ``is_legal`` is much cheaper than ``legal_moves``; the tree is the same."""
    probcut: ClassVar[ProbCut | None] = None
    """The alpha-beta search's ProbCut (:class:`ProbCut`: its depth, reduction and
    margin, for the game's evaluation); ``None``: none."""
    bench_texts: tuple[str, ...] = ()
    """Position texts for ``zermelo bench`` (may be empty: the start position is used);
    per game object, as a board other than the default one benches its start."""

    def __init__(self, params: BaseModel | None = None) -> None:
        self.params = params if params is not None else self.Params()

    @property
    def players(self) -> tuple[str, ...]:
        """Names of the players in turn order, e.g. ("white", "black"), ("red", "yellow",
        "green"); ``len(players)`` is the number of players. A class attribute, or an
        instance one where the count is a parameter (a game declares it at class level)."""
        raise NotImplementedError

    def new_position(self, text: str | None = None) -> Position:
        """The start position, or the one described by ``text``
        (raises :class:`InvalidPositionError`)."""
        raise NotImplementedError

    # -- traits: class-level facts the tools read, with the defaults most games take --

    record_format: ClassVar[str] = "plain"
    """How game records are written: ``"pgn"`` (chess), ``"pdn"`` (draughts) or ``"plain"``."""
    pdn_gametype: ClassVar[str] = ""
    """The PDN ``GameType`` tag of a ``"pdn"`` game: ``"21"`` English, ``"25"`` Russian draughts."""
    uci_default: ClassVar[bool] = False
    """True for the game UCI engines play when no ``UCI_Variant`` is sent (chess)."""
    san: ClassVar[bool] = False
    """Positions and moves are python-chess's FEN and UCI texts, so the tools also
    read and show SAN, read EPD and PGN openings and name endings with python-chess."""
    polyglot: ClassVar[bool] = False
    """Polyglot ``.bin`` opening books (python-chess's keys) hold this game's positions."""
    chess960: bool = False
    """Castling follows Chess960's rules (a chess game's parameter; False elsewhere)."""
    mate_in_moves: ClassVar[bool] = False
    """Counted wins are shown as ``#n`` moves (chess's mate notation) rather than plies."""
    no_move_words: ClassVar[tuple[str, str]] = ("", "")
    """How an ending without a legal move is called, in check and not: ("checkmate", "stalemate")."""
    bench_depth: ClassVar[int] = 7
    """Default depth of ``zermelo bench``; wide games take a shallower one to stay within seconds."""
    table_classes: ClassVar[str] = ""
    """How ``zermelo tables build`` names this game's table classes: ``"material"``
    (chess: KRvK, or 3/4 for every class of that many pieces), ``"pieces"`` (draughts:
    men and kings a side, or a piece count), ``"seeds"`` (Kalah: seeds left in the pits);
    empty when the game has no table files."""
    tables_note: ClassVar[str] = ""
    """Where a game without table files takes its exact knowledge from, for ``zermelo tables build``."""
    value_sum: ClassVar[int] = 0
    """For a game of more than two players, the constant S its value vectors sum to at
    most (``values()``) or exactly (``result()`` of a sole winner); 0 for two-player games,
    whose values are single scores."""
    margin_unit: ClassVar[str] = ""
    """Unit of the exact final margin ``zermelo solve`` reports, for games whose module
    offers ``solve_margin(pos)`` (Kalah: seeds); empty for none."""
    solve_note: ClassVar[str] = ""
    """What ``zermelo solve`` proves for a game that solves its margin by its own search
    (:meth:`solve_margin`, Go); empty for the games proved by proof numbers."""
    key_holds_history: ClassVar[bool] = False
    """The key also holds the earlier positions the rules look at (Go's positional
    superko makes the legal moves depend on them), so a position set up from its text,
    which starts a history of its own, may have another key than the one played to."""
    size_in_chapters: ClassVar[tuple[int, str] | None] = None
    """The textbook chapters' size of the game, printed beside ``zermelo perft
    --estimate`` from the start position: (a power of ten, what it counts)."""
    graph_legend: ClassVar[str] = ""
    """How :meth:`graph_label` names positions, when not by their text (Nim's 7+, 6−)."""

    inputs: InputSet | None = None
    """The network inputs the game's positions list (``pos.nn_features()``); ``None``
    when the game has none. Per game object where the inputs follow the parameters."""

    def eval_weights(self) -> EvalWeights | None:
        """The hand-written evaluation's tunable weights (``zermelo tune``), ``None``
        for a game without them."""
        return None

    def set_eval_weights(self, values: list[int]) -> None:
        """Evaluate with ``values`` for :meth:`eval_weights` from now on (process-wide);
        ``ValueError`` for values the game refuses, the weights in play kept."""
        raise ValueError("this game has no tunable evaluation weights")

    def eval_features(self, data: Dataset) -> tuple[np.ndarray, np.ndarray]:
        """``(base, X)``: each record of ``data`` evaluated, side to move's view, as
        ``base + X @ w`` for the weights ``w`` of :meth:`eval_weights`."""
        raise ValueError("this game has no tunable evaluation weights")


    def auto_strategy(self) -> str:
        """The tree search of ``Strategy auto``: ``alphabeta``, or ``mcts`` (then with
        RAVE) where Monte-Carlo tree search was measured the stronger in this game."""
        return "alphabeta"

    def tree_moves(self, pos: Any) -> list[Move]:
        """The moves the Monte-Carlo tree (:mod:`engine.mcts`) gives a node of ``pos`` (the
        game's own position class): by default every legal move; a game may leave out
        moves that never help, keeping the list empty exactly when ``legal_moves()`` is
        (Go leaves out filling one's own eyes). The tree's proofs are then proofs among
        these moves."""
        moves: list[Move] = pos.legal_moves()
        return moves

    def closing_move(self, pos: Any) -> Move | None:
        """A move that ends the game at once won by the count the game is scored by,
        played at the root without a search (Go: a pass answering a pass); ``None``
        when there is none, or the game knows of none."""
        return None

    # -- capabilities: each default says "this game has none" ------------------------

    def graph_label(self, pos: Position) -> str:
        """A position's name in the AND/OR graphs of ``zermelo solve --graph``: its text."""
        return pos.to_text()

    def gtp(self) -> GtpRules | None:
        """What the GTP server needs of the game (:mod:`engine.gtprules`); ``None`` for a
        game GTP does not serve."""
        return None

    def score_text(self, pos: Position) -> str:
        """The score of a finished game as the game counts it, for people and records
        (Go ``B+7.5``, reversi ``black 40, white 24``); empty for games that have no
        score beyond the result."""
        return ""

    def hub_notation(self) -> Any:
        """The numeric squares and board strings the draughts protocols (Hub, DXP)
        name this game's moves and positions by (``games.draughts.notation.Notation``);
        ``None`` for a game those protocols do not play."""
        return None

    def exact(self, config: ExactConfig) -> Exact | None:
        """The game's exact knowledge (endgame tables, a solver) under ``config``, or
        ``None``. The engine asks for it without knowing the game (:mod:`engine.endgame`)."""
        return None

    def eval_terms(self, pos: Any) -> list[tuple[str, int, str]] | None:
        """The evaluation of ``pos`` (the game's own position class) broken into terms
        ``(name, value, note)`` that add up to ``pos.evaluate()``, for ``zermelo explain``;
        ``None`` when the evaluation is not broken into terms."""
        return None

    def marked_board(self, pos: Any) -> str | None:
        """The board with what the evaluation knows marked on it (Go: unconditional
        life), for ``zermelo explain``; ``None`` for none."""
        return None

    def solve_margin(self, pos: Any, deadline: float | None = None, max_nodes: int | None = None,
                     report: Callable[[int, int, int, float], None] | None = None, threads: int = 1) -> Any:
        """The first player's exact final margin from ``pos`` by the game's own search
        (Go: a :class:`games.go.solve.Solution`), on up to ``threads`` processes where the
        search can use them; ``None`` for a game without one (see :attr:`solve_note`).
        Raises :class:`engine.control.Stopped` past the budget."""
        return None

    def filling_orders(self) -> tuple[int, int] | None:
        """For a placement game, ``(cells, cells!)``: the orders of filling the board,
        the chapters' bound on the number of games; ``None`` for others."""
        return None

    def gtp_board(self) -> tuple[int, float] | None:
        """The board size and komi GTP's ``boardsize`` and ``komi`` tell a peer: a Go
        board (square); ``None`` for a game GTP peers do not play."""
        return None

    def final_score(self, pos: Any, take_off_dead: bool = True) -> str | None:
        """The result of a finished ``pos`` as GTP's ``final_score`` and SGF's ``RE``
        write it (``B+7.5``, ``W+0.5``, ``0`` for a draw), counted after the
        :meth:`dead_stones` are taken off unless ``take_off_dead`` is False (a match
        referee's count of the board as it stands); ``None`` for a game not scored so."""
        return None

    def scored_result(self, pos: Any) -> int | None:
        """The result of a game the rules have ended, for the first player (+1/0/-1),
        as a referee scores it where that is not the rules' own count (Go: the area
        once the :meth:`dead_stones` are taken off, the count of :meth:`final_score`);
        ``None``: the rules' outcome is the result."""
        return None

    def dead_stones(self, pos: Any) -> set[tuple[int, int]]:
        """The stones counted dead at the end of ``pos`` (GTP's ``final_status_list
        dead``) as ``(column, row)`` points, row 0 the bottom; empty for a game without."""
        return set()


class Registry(Protocol):
    """The games an engine may play (the ``games`` package is one), handed to
    :class:`engine.engine.Engine` and to the option listing of :mod:`engine.options`."""

    def names(self) -> list[str]:
        """Registered game names, in order."""

    def canonical(self, name: str) -> str:
        """The registry name of ``name`` or an alias; raises ``KeyError`` for an unknown game."""

    def game_class(self, name: str) -> type[Game]:
        """The Game class registered under ``name``."""

    def load(self, name: str, **params: object) -> Game:
        """A game by name or alias, with parameters."""


@dataclass(frozen=True)
class ExactConfig:
    """The settings a game's exact knowledge depends on (from the engine options)."""

    #: ``TablePath``: directories of zermelo's own tables (``:``-separated, ``;`` on Windows).
    table_path: str = ""
    #: ``SyzygyPath`` and the Syzygy probing limits (chess).
    syzygy_path: str = ""
    syzygy_probe_depth: int = 1
    syzygy_50_move_rule: bool = True
    syzygy_probe_limit: int = 7
    #: ``SyzygyVerify``: probe a Syzygy file only once its checksum is verified.
    syzygy_verify: bool = True
    #: ``EndgameEmpties``: empty squares from which a game solves its endgames at the root
    #: (the option's default). 20: reversi's compiled solver proves positions of 20 empties
    #: from play in 0.3 s (median) on one core, inside a 1 s move; the clock stops the rest.
    endgame_empties: int = 20
    #: ``Threads`` (at most the cores): processes a root solver may use. Not compared:
    #: a change reaches the providers already made (:meth:`Exact.set_threads`), which
    #: keep their tables.
    threads: int = field(default=1, compare=False)
    #: Where table defects found in play go (an ``info string`` of the running go).
    report: Callable[[str], None] = field(default=lambda text: None, compare=False, repr=False)

    @property
    def table_directory(self) -> str | None:
        """The first directory of :attr:`table_path`, or ``None``."""
        for part in self.table_path.split(os.pathsep):
            if part.strip():
                return part.strip()
        return None


class Exact:
    """A game's exact knowledge under one :class:`ExactConfig` (tables, a solver).

    ``score(pos)`` is ``None`` (not covered) or the exact value of ``pos`` for the side
    to move in search units: ``WIN - n`` for a win ``n`` plies ahead, ``0`` for a draw,
    the negatives for losses, :func:`margin_score` for games scored by a margin.
    ``score`` runs inside the search: plain ints, no allocation it can avoid. The other
    members have defaults a provider overrides where it has more.
    """

    probe_depth: int = 1
    """Least remaining depth of a node the search probes."""
    usable: bool = False
    """True once the provider may serve a go although :meth:`prepare` has not finished
    (chess's own tables open while Syzygy files are still being verified)."""
    uses_control: ClassVar[bool] = False
    """``score`` takes the go's :class:`engine.control.Control` as a second argument and
    answers ``None`` once it expires (a solver that may take longer than a move has;
    inside the search the control's deadline is the search's hard limit)."""
    follow_lines: ClassVar[bool] = True
    """Whether a score without a distance is turned into a line to the game's end when
    the search reports it."""
    margin_unit: ClassVar[str] = ""
    """What a margin counts (``"seeds"``), for the ``exact:`` note."""

    def score(self, pos: Any) -> int | None:
        """The exact value of ``pos`` (the game's own position class) for the side to
        move, or ``None``."""
        raise NotImplementedError

    def prepare(self, control: Control) -> None:
        """Slow work (reading or building a table), raising :class:`engine.control.Stopped`
        when ``control`` expires and resuming where it stopped on the next call. Until it
        has finished the game has no exact knowledge. Nothing to do by default."""

    def best(self, pos: Position, control: Control | None = None) -> tuple[int, int] | None:
        """``(move, score)`` at the root, or ``None`` when not covered, for a provider that
        finds it faster than by scoring every child (a solver). A provider that keeps this
        default is asked for each child's :meth:`score` instead."""
        return None

    def root(self, pos: Position, moves: list[int],
             control: Control | None = None) -> tuple[int, int, list[int], int] | None:
        """``(move, score, pv, hits)``: a complete root answer among ``moves``, by the
        provider's own rules (chess's tables choose by DTZ), or ``None``. A provider that
        keeps this default answers through :meth:`best`."""
        return None

    def nodes(self) -> int | None:
        """Positions a searching provider has examined so far (its solver's count), or
        ``None`` for tables (their probes are counted instead)."""
        return None

    def set_threads(self, threads: int) -> None:
        """Use up to ``threads`` processes from the next root answer on. Nothing by default."""

    def close(self) -> None:
        """Release what the provider holds beyond memory (a solver's worker processes);
        it is not used afterwards. Nothing by default."""
