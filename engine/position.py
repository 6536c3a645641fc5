"""The base class of every game position: what the search calls at each node.

Each game's position class derives from :class:`Position` and overrides these
methods. In the compiled build this class is a C extension type (declared in
``position.pxd`` beside this file), so the compiled search calls a compiled
game's methods through a C vtable; a position written in plain Python (a test's
toy game, a tree read from a file) derives from it all the same and is called
through Python. The conventions the methods follow are in :mod:`engine.game`.
"""

from __future__ import annotations


class Position:
    """Mutable game state, walked by the search with ``push``/``pop``.

    ``turn`` is the player to move (0 moved first from the start); ``key`` the
    64-bit Zobrist key of the position including the side to move, kept
    incrementally (an unsigned int below ``2**64``).
    """

    turn: int
    key: int

    def legal_moves(self) -> list[int]:
        """All legal moves; empty once the game has ended by the rules of play."""
        raise NotImplementedError

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

    def playout(self, seed: int, played: list | None, heavy: bool) -> int | None:
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

    # -- the network evaluation (games with ``Game.nn_features``) -----------------
    # A game with a network sets ``self._nn = None`` in its constructor, lists its inputs
    # in ``_nn_view``, and keeps the accumulator ``_nn`` (an :class:`engine.nnue.Accumulator`)
    # in step in its own ``push`` (``_nn.push()``, then the changed inputs) and ``pop``
    # (``_nn_pop()``), with the network's score as ``evaluate`` while one is attached.

    def _nn_view(self, view: int) -> list[int]:
        """The active network inputs player ``view`` sees."""
        raise NotImplementedError

    def nn_features(self) -> tuple[list[int], list[int]]:
        """The active network inputs seen from the side to move and from the other side
        (two-player games whose Game declares ``nn_features``)."""
        return self._nn_view(self.turn), self._nn_view(self.turn ^ 1)

    def nn_attach(self, network) -> None:
        """Evaluate with ``network`` (an :class:`engine.nnue.Network` of the game's input
        set) from now on, its accumulator kept incrementally by ``push``/``pop``; ``None``
        returns to the hand-written evaluation."""
        self._nn = None if network is None else network.accumulator(self._nn_view(0), self._nn_view(1))

    @property
    def network(self):
        """The attached :class:`engine.nnue.Network`, or ``None``."""
        return None if self._nn is None else self._nn.network

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

    def copy(self) -> Position:
        """An independent copy (protocol and root use; never inside the search)."""
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
