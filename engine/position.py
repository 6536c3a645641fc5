"""The base class of every game position: what the search calls at each node.

Each game's position class derives from :class:`Position` and overrides these
methods. In the compiled build this class is a C extension type (declared in
``position.pxd`` beside this file), so the compiled search calls a compiled
game's methods through a C vtable; a position written in plain Python (a test's
toy game, a tree read from a file) derives from it all the same and is called
through Python. The conventions the methods follow are in :mod:`engine.game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Self

    from engine.nnue import Accumulator, Network


class Position:
    """Mutable game state, walked by the search with ``push``/``pop``.

    ``turn`` is the player to move (0 moved first from the start); ``key`` the
    64-bit Zobrist key of the position including the side to move, kept
    incrementally (an unsigned int below ``2**64``).
    """

    turn: int
    key: int
    _nn: Accumulator | None

    def legal_moves(self) -> list[int]:
        """All legal moves; empty once the game has ended by the rules of play."""
        raise NotImplementedError

    def is_legal(self, move: int) -> bool:
        """Whether ``move`` is among ``legal_moves()``; the search asks it of a table move,
        to try that move before generating the others. Games may answer faster."""
        return move in self.legal_moves()

    def noisy_moves(self) -> list[int]:
        """The legal moves quiescence must resolve (captures, promotions, immediate
        threats), best first; ``[]`` for games without such moves."""
        raise NotImplementedError

    def is_noisy(self, move: int) -> bool:
        """True if ``move`` belongs to ``noisy_moves()`` (killers/history skip these)."""
        raise NotImplementedError

    def move_score(self, move: int) -> int:
        """Cheap static ordering hint: higher is tried earlier."""
        raise NotImplementedError

    def see_ge(self, move: int, threshold: int) -> bool:
        """True unless ``move`` is known to lose more than ``-threshold`` in the exchange
        it starts (static exchange evaluation, in the evaluation's units). The search
        skips losing captures in quiescence and tries them late; games without an
        exchange notion keep this default, which prunes nothing."""
        return True

    def correction_key(self) -> int:
        """A non-negative key of the part of the position the static evaluation errs on
        alike (chess: the pawns), read by the search's correction history in its low
        bits, for games whose ``Game.correction_history`` is set; 0 by default."""
        return 0

    def in_check(self) -> bool:
        """True when the side to move is under a direct threat the rules force it to
        answer (check in chess); drives check extensions and null-move safety."""
        raise NotImplementedError

    def can_stand_pat(self) -> bool:
        """False when quiescence must not stop on the static eval (in check, or a
        capture is compulsory)."""
        raise NotImplementedError

    def push(self, move: int) -> None:
        """Play a legal move (not validated). Snapshots state for ``pop``."""
        raise NotImplementedError

    def pop(self) -> None:
        """Undo the last ``push`` or ``push_null`` by restoring its snapshot."""
        raise NotImplementedError

    def push_null(self) -> None:
        """Pass the turn without moving; only called when ``Game.null_move_ok``."""
        raise NotImplementedError

    def null_move_allowed(self) -> bool:
        """False where a null move would be unsound here (zugzwang-prone material,
        e.g. only king and pawns in chess); only asked when ``Game.null_move_ok``."""
        raise NotImplementedError

    def outcome(self) -> int | None:
        """The result (+1/0/-1, side to move's view) if the game is over, else ``None``.
        Covers every end except "no legal move", which ``no_moves_value`` scores."""
        raise NotImplementedError

    def no_moves_value(self) -> int:
        """Result (+1/0/-1) when ``legal_moves()`` is empty and ``outcome()`` is ``None``."""
        raise NotImplementedError

    def is_repetition(self) -> bool:
        """True if this position occurred before since the last irreversible move;
        the search scores it a draw. Games that cannot repeat return False."""
        raise NotImplementedError

    def evaluate(self) -> int:
        """Heuristic value for the side to move, strictly inside ``±EVAL_LIMIT``."""
        raise NotImplementedError

    # -- more than two players, and the textbook tools ---------------------------
    # Defaults for two players; a game of N > 2 players overrides them (the vector
    # conventions are in :mod:`engine.game`).

    def values(self) -> list[int]:
        """The heuristic value vector of a position in play (index = player); empty for
        a game whose positions have a single value (two players)."""
        return []

    def ranking(self) -> list[int] | None:
        """Each player's place once the game is over (1 = first, tied players share a
        place), else ``None``. Two players: from ``outcome()`` or ``no_moves_value()``."""
        result = self.outcome()
        if result is None:
            if self.legal_moves():
                return None
            result = self.no_moves_value()
        if result == 0:
            return [1, 1]
        places = [2, 2]
        places[self.turn if result > 0 else self.turn ^ 1] = 1
        return places

    def result(self) -> list[int] | None:
        """The final value vector once the game is over, else ``None``: S for a sole
        winner and 0 for the others, ``S // k`` to each of k players sharing first place.
        Two players: S is 2 (:meth:`vector_bounds`), from :meth:`ranking`."""
        ranking = self.ranking()
        if ranking is None:
            return None
        first = ranking.count(1)
        return [2 // first if place == 1 else 0 for place in ranking]

    def vector_bounds(self) -> tuple[int, int]:
        """Korf's bounds of the value vectors: every entry at least the first, every
        sum at most the second (``(0, value_sum)``; 2 for the two-player defaults)."""
        return 0, 2

    def scalar_of(self, vector: list[int], player: int) -> int:
        """The single score of ``vector`` for ``player``: its entry minus the best other."""
        return vector[player] - max(vector[:player] + vector[player + 1:])

    def scored_leaves(self) -> bool:
        """True where only the game's ends carry a value (a tree read from a file):
        the textbook algorithms then score a node without moves by ``evaluate()``."""
        return False

    def bounds(self) -> tuple[int, int] | None:
        """Bounds the position's value is known to lie within (B*'s optimistic and
        pessimistic values), or ``None`` when it has none of its own."""
        return None

    def playout_moves(self) -> list[int]:
        """The moves a random playout of the Monte-Carlo search (:mod:`engine.mcts`)
        draws from, uniformly: legal moves, empty exactly when ``legal_moves()`` is (Go
        leaves out filling one's own eyes). By default the legal moves."""
        return self.legal_moves()

    def playout(self, seed: int, played: list[tuple[int, int]] | None, heavy: bool) -> int | None:
        """A whole random game from here in one call, for a game with a playout board of
        its own (the Monte-Carlo search's fast path): its result (+1/0/-1) for the side
        to move here, the position left as it was; the (move, player) pairs played
        appended to ``played`` when it is a list; ``heavy`` the game's knowledge in the
        policy. ``None``: no such playout, the search plays the moves one by one."""
        return None

    def move_priors(self, moves: list[int]) -> list[tuple[int, int]] | None:
        """The game's knowledge of ``moves`` (a new Monte-Carlo node's children) as
        simulations already counted: (visits, wins of the mover) for each, or ``None``
        for none."""
        return None

    # -- the network evaluation (games with ``Game.inputs``) ----------------------
    # A game with a network sets ``self._nn = None`` in its constructor, lists its inputs
    # in ``_nn_view``, and keeps the accumulator ``_nn`` (an :class:`engine.nnue.Accumulator`)
    # in step in its own ``push`` (``_nn.push()``, then the changed inputs) and ``pop``
    # (``_nn_pop()``), with the network's score as ``evaluate`` while one is attached.

    def _nn_view(self, view: int) -> list[int]:
        """The active network inputs player ``view`` sees."""
        raise NotImplementedError

    def nn_features(self) -> tuple[list[int], list[int]]:
        """The active network inputs seen from the side to move and from the other side
        (two-player games whose Game declares ``inputs``)."""
        return self._nn_view(self.turn), self._nn_view(self.turn ^ 1)

    def nn_attach(self, network: Network | None) -> None:
        """Evaluate with ``network`` (an :class:`engine.nnue.Network` of the game's input
        set) from now on, its accumulator kept incrementally by ``push``/``pop``; ``None``
        returns to the hand-written evaluation."""
        self._nn = None if network is None else network.accumulator(self._nn_view(0), self._nn_view(1))

    @property
    def network(self) -> Network | None:
        """The attached :class:`engine.nnue.Network`, or ``None``."""
        try:
            nn = self._nn
        except AttributeError:  # the pure build's position of a game without network inputs
            return None
        return None if nn is None else nn.network

    def _nn_pop(self) -> None:
        """``pop``'s part with a network attached: back to the accumulator of the ply before."""
        nn = self._nn
        assert nn is not None  # called only with a network attached
        if nn.ply:
            nn.pop()
        else:  # a move played before the network was attached
            nn.refresh(self._nn_view(0), self._nn_view(1))

    # -- outside the search: the protocol, the tools and the tests ---------------

    def compute_key(self) -> int:
        """The Zobrist key recomputed from scratch (tests compare it with ``key``)."""
        raise NotImplementedError

    def copy(self) -> Self:
        """An independent copy (protocol and root use; never inside the search) that
        evaluates with the same network: the game copies its state (``_copy``), the
        base re-attaches the network, so no game repeats it."""
        other = self._copy()
        network = self.network
        if network is not None:
            other.nn_attach(network)
        return other

    def _copy(self) -> Self:
        """The game's part of :meth:`copy`: the position and its history, no network."""
        raise NotImplementedError

    def parse_move(self, text: str) -> int:
        """Parse a move in the game's notation; raises :class:`engine.game.IllegalMoveError`."""
        raise NotImplementedError

    def move_text(self, move: int) -> str:
        """The game's notation for a legal move."""
        raise NotImplementedError

    def to_text(self) -> str:
        """Position text (FEN or the game's equivalent); ``Game.new_position`` reads it."""
        raise NotImplementedError

    def render(self) -> str:
        """A human-readable board, for ``d`` and the terminal."""
        raise NotImplementedError
