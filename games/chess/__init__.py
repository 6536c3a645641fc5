"""Chess, standard or Chess960: zermelo's own bitboard board for the search.

``ChessGame`` is what the registry loads; its positions are
:class:`ChessPosition` (:mod:`games.chess.position`; rules and search interface in
:mod:`games.chess.board`, text in :mod:`games.chess.notation`, evaluation in
:mod:`games.chess.evaluate`).
Position text is FEN (six fields out; one to six accepted), moves are UCI long
algebraic (``e2e4``, ``e1g1``, ``e7e8q``).

Chess960 is the parameter ``chess960`` (the protocol option ``UCI_Chess960``,
or the variant names ``chess960``/``fischerandom``): castling then takes the
rooks the castling rights name, wherever king and rooks stand, FENs read and
write Shredder-FEN and X-FEN castling fields, and castling is written as the
king taking its rook (``e1h1``).

>>> import games
>>> pos = games.load("chess").new_position()
>>> len(pos.legal_moves())
20
>>> pos.push(pos.parse_move("e2e4")); pos.to_text()
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from engine.game import ExactConfig, Game, InputSet, InvalidPositionError

from . import evaluate, notation
from .bitboards import CASTLE, EN_PASSANT, PROMO_SHIFT
from .position import ChessPosition
from .notation import STARTING_FEN

if TYPE_CHECKING:
    import numpy as np

    from engine.nnue_data import Dataset
    from engine.tuning import EvalWeights

__all__ = ["ChessGame", "ChessParams", "ChessPosition", "STARTING_FEN", "CASTLE", "EN_PASSANT",
           "PROMO_SHIFT"]


class ChessParams(BaseModel):
    """Chess has one parameter: Chess960 rules.

    It is published under the protocol name UCI defines for it, ``UCI_Chess960``,
    rather than ``chess_chess960``. It is left out of dumps of the parameters
    (``exclude``): standard positions are the same positions in both modes, with
    the same keys, so a book records no difference.
    """

    model_config = ConfigDict(extra="forbid")

    chess960: bool = Field(False, exclude=True, json_schema_extra={"option": "UCI_Chess960"},
                           description="Chess960: castling with the rooks the castling rights name, "
                                       "written king-takes-rook (e1h1); false while the variant is chess960 "
                                       "switches to standard chess")
    eval_weights: str = Field("", exclude=True, json_schema_extra={"option": "EvalWeights"},
                              description="a weights file of `zermelo tune` for the hand-written evaluation "
                                          "(process-wide); empty for the built-in weights")


class ChessGame(Game):
    name: ClassVar[str] = "chess"
    aliases: ClassVar[tuple[str, ...]] = ("standard",)
    players: ClassVar[tuple[str, str]] = ("white", "black")
    Params: ClassVar[type[BaseModel]] = ChessParams
    null_move_ok: ClassVar[bool] = True
    capture_history: ClassVar[bool] = True
    continuation_history: ClassVar[bool] = True
    table_move_first: ClassVar[bool] = True
    followup_history: ClassVar[bool] = True
    delta_pruning: ClassVar[int] = 200
    razoring: ClassVar[int] = 300
    history_reduction: ClassVar[int] = 256
    record_format: ClassVar[str] = "pgn"
    uci_default: ClassVar[bool] = True
    san: ClassVar[bool] = True
    polyglot: ClassVar[bool] = True
    mate_in_moves: ClassVar[bool] = True
    no_move_words: ClassVar[tuple[str, str]] = ("checkmate", "stalemate")
    bench_depth: ClassVar[int] = 5
    table_classes: ClassVar[str] = "material"
    size_in_chapters: ClassVar[tuple[int, str] | None] = (120, "positions")
    inputs: InputSet | None = InputSet("chess768", 768, 32)
    bench_texts: tuple[str, ...] = (
        STARTING_FEN,
        # Opening and middlegame
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqk2r/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQkq - 2 7",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 8 13",
        # Tactical
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/4P3/2NP1N2/PPPBBPPP/R2Q1RK1 b - - 3 8",
        # Endgames
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1",
        "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
        "6k1/6p1/8/8/8/8/1R6/6K1 w - - 0 1",
    )

    def __init__(self, params: ChessParams | None = None):
        self.params = params or ChessParams()
        self.chess960 = self.params.chess960
        # The evaluation reads its weights process-wide: each position set up brings
        # its game's in (a comparison when they are already in play).
        self._weights = tuple(evaluate.DEFAULT_WEIGHTS)
        if self.params.eval_weights:
            from engine.tuning import load_weights

            self._weights = tuple(load_weights(self.params.eval_weights, "chess", self.eval_weights()))

    def eval_weights(self) -> EvalWeights:
        """The positional weights of :mod:`games.chess.evaluate` this game evaluates
        with (material and the piece-square tables are PeSTO's and stay)."""
        from . import tuning

        return tuning.weight_vector(self._weights)

    def set_eval_weights(self, values: list[int]) -> None:
        evaluate.set_weights(values)
        self._weights = tuple(values)

    def eval_features(self, data: Dataset) -> tuple[np.ndarray, np.ndarray]:
        """Records of ``chess768`` inputs rebuilt as boards (:func:`games.chess.tuning.features`)."""
        from . import tuning

        self._bring_weights_in()
        return tuning.features(data)

    def _bring_weights_in(self) -> None:
        if evaluate.weights() != self._weights:
            evaluate.set_weights(list(self._weights))

    def exact(self, config: ExactConfig):
        """The endgame tables in play (:class:`games.chess.exact.ChessExact`) while
        ``TablePath`` or ``SyzygyPath`` is set."""
        if not (config.table_path.strip() or config.syzygy_path.strip()):
            return None
        from games.chess.exact import ChessExact  # python-chess and numpy, only when tables are set

        return ChessExact(config)

    def eval_terms(self, pos: ChessPosition) -> list[tuple[str, int, str]]:
        """The evaluation's terms in centipawns, side to move's view, summing to
        ``evaluate()``: tapered material, the piece-square tables, then each positional
        group of :data:`games.chess.evaluate.TERMS` as what switching it on adds to
        the groups before it (the groups are tapered and scaled together, so their
        shares are measured in this order). Switches the groups process-wide for the
        time of the call: not for use while a search runs."""
        from . import evaluate as ev

        sign = 1 if pos.turn == 0 else -1
        mg = eg = 0
        for sq, pc in enumerate(pos.board):
            if pc:
                side = -1 if pc & 8 else 1
                mg += side * ev._MG_VALUE[pc & 7]
                eg += side * ev._EG_VALUE[pc & 7]
        phase = min(pos.phase, ev.MAX_PHASE)
        taper = mg * phase + eg * (ev.MAX_PHASE - phase)
        # Rounded toward zero, as the evaluation rounds.
        material = sign * (abs(taper) // ev.MAX_PHASE) * (1 if taper >= 0 else -1)
        values = []
        try:
            for i in range(len(ev.TERMS) + 1):
                ev.set_terms(ev.TERMS[:i])
                values.append(pos.evaluate_scratch())
        finally:
            ev.set_terms()
        details = {"mobility": "safe squares of knights, bishops, rooks, queens",
                   "pawns": "doubled, isolated, passed pawns", "king": "king danger (squared), pawn shield",
                   "pieces": "bishop pair, rooks on open files",
                   "threats": "enemy pieces attacked by lesser ones",
                   "passers": "kings' distances to passed pawns' paths",
                   "checks": "safe checks in the king danger", "scale": "drawish material pulled toward zero"}
        terms = [("material", material, f"phase {phase}/{ev.MAX_PHASE} (middlegame weight)"),
                 ("piece-square tables", values[0] - material, "")]
        terms += [(name, values[i + 1] - values[i], details.get(name, "")) for i, name in enumerate(ev.TERMS)]
        return terms

    def new_position(self, text: str | None = None) -> ChessPosition:
        """The start position, or the one described by a FEN (see :func:`notation.parse_fen`)."""
        board, turn, castling, ep, halfmove, fullmove, rule = notation.parse_fen(
            STARTING_FEN if text is None else text, self.chess960)
        self._bring_weights_in()
        pos = ChessPosition(self, board, turn, castling, ep, halfmove, fullmove, rule)
        king = pos.bb[(turn ^ 1) << 3 | 6].bit_length() - 1
        if pos._attackers(turn, king, pos.bb[0] | pos.bb[8]):
            raise InvalidPositionError(f"the side not to move is in check: {text}")
        return pos
