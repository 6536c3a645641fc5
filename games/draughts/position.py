"""State, make/unmake, draw rules, text and evaluation shared by both draughts games.

Move layout (a plain int)::

    bits 0-5    from square (bit index, see ``board``)
    bits 6-11   to square
    bit 12      the moving man is crowned by this move
    bits 13-    mask of the captured pieces: bit index ``i`` at bit ``13 + i - cap_low``

(``cap_low`` is 0 on the 8×8 board, whose captures fill bits 13-47; on the 10×10
board no edge square is ever jumped over, and shifting the mask down by the
lowest inner square keeps every move inside 64 bits.)

A move is therefore exactly "what happens to the board": two capture sequences
that start and end on the same squares and take the same pieces are one move
(their paths differ only in the order of the jumps or, for flying kings, in the
intermediate landing squares). The path is recovered for notation by replaying
the capture search (``capture_sequences``).
"""

from __future__ import annotations

import re
from array import array
from typing import Callable, ClassVar

import cython  # type: ignore[import-untyped]

from engine.game import ExactConfig, Game, IllegalMoveError, InputSet, InvalidPositionError, Move, bits, quote
from engine.position import Position
from games.draughts import board
from games.draughts.board import CAP_SHIFT, PROMO
from games.zobrist import keys

# The board's bits (a C array in the compiled build, see position.pxd); the tables
# that depend on the board's size are the game's (``DraughtsTables``).
BIT = board.BIT
#: Between the squares of a move text: one of these, nothing else.
_MOVE_SEPARATORS = re.compile(r"[-x:]")
#: The undo stack keeps these words per ply: occ[0], occ[1], kings, key, clock*2 + turn.
_WORDS = 5
#: Longest capture: every one of the 20 enemy pieces of the 10×10 board taken,
#: 21 squares visited.
_MAX_PATH = 24
#: Every quiet move as an int object, ``_QUIET[m] == m`` (moves without captures
#: are below ``1 << 13``): the compiled build appends these to the move lists
#: instead of making a new int object for each move at each node.
_QUIET = list(range(1 << CAP_SHIFT))
#: Distinct piece-square values an evaluation table may have (see ``_padded_terms``);
#: one per square at most, and the same size as the per-square tables.
_MAX_TERMS = 64


def popcount(x: int) -> int:
    """Number of set bits of a mask (a C builtin in the compiled build)."""
    if cython.compiled:
        return __builtin_popcountll(x)  # type: ignore[name-defined]  # (declared in position.pxd)
    else:
        return x.bit_count()


def lowest(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    if cython.compiled:
        return __builtin_ctzll(x)  # type: ignore[name-defined]  # (declared in position.pxd)
    else:
        return (x & -x).bit_length() - 1


class DraughtsTables:
    """A game's Zobrist keys, rule masks and evaluation weights in fixed-size
    arrays (C arrays in the compiled build), read by its positions at every node."""

    def __init__(self, game: DraughtsGame):
        geo = game.geometry
        self.valid = geo.valid
        self.size = geo.size
        self.per_row = geo.per_row
        self.cap_low = geo.cap_low
        self.cap_shift = CAP_SHIFT - geo.cap_low
        self.row = geo.row
        self.file = geo.file
        self.jump_over = geo.jump_over
        self.jump_to = geo.jump_to
        self.rays = geo.rays
        self.main_road = game.main_road
        self.majority = game.majority
        self.crown_midway = game.crown_midway
        self.lone_king_plies = [2 * n for n in game.lone_king_moves]
        self.z_man = game.z_man
        self.z_king = game.z_king
        self.z_turn = game.z_turn
        self.down = game.down_player
        self.promo_mask = game.promo_mask
        self.draw_plies = game.draw_plies
        self.first_draw_ply = game.first_draw_ply
        self.man_value = game.man_value
        self.king_value = game.king_value
        self.mobility = game.mobility
        self.back_rank = game.back_rank
        self.hunt = game.hunt
        self.textbook = game.textbook
        self.n_man_terms = [len(terms) for terms in game.man_terms]
        self.man_term_mask = [_padded_terms(terms, 0) for terms in game.man_terms]
        self.man_term_value = [_padded_terms(terms, 1) for terms in game.man_terms]
        self.n_king_terms = len(game.king_terms)
        self.king_term_mask = _padded_terms(game.king_terms, 0)
        self.king_term_value = _padded_terms(game.king_terms, 1)
        self.guard_mask = game.guard_mask
        self.cone = game.cone
        self.runaway_bonus = game.runaway_bonus
        self.runaway_zone = game.runaway_zone
        # Network inputs: each player sees the board from its own side (rotated for
        # the player moving up), squares 0..n-1 in that player's PDN order (32 or 50).
        n = self.nn_n = geo.n_squares
        self.nn_sq = [[(geo.square[i] - 1 if p == game.down_player else n - geo.square[i])
                       if geo.valid >> i & 1 else 0 for i in range(64)] for p in (0, 1)]


def _padded_terms(terms: list[tuple[int, int]], field: int) -> list[int]:
    if len(terms) > _MAX_TERMS:
        raise ValueError(f"{len(terms)} distinct piece-square values; at most {_MAX_TERMS}")
    return [t[field] for t in terms] + [0] * (_MAX_TERMS - len(terms))


class DraughtsPosition(Position):
    """Base position: ``occ`` = (player 0's pieces, player 1's) and ``kings``
    (both colours), as masks; ``clock`` counts the plies since the last capture
    or man move.

    Subclasses provide the rules of movement: ``_jumpers()``, the capture search
    from one square (``_captures_from``) and ``_king_quiet_moves()``; everything
    else is shared. The capture search walks a path of squares (``_path``) and
    reports each complete capture to ``_emit``, which either collects the moves
    (each once) or, for notation, every sequence with its path.
    """

    def __init__(self, game, occ: tuple[int, int], kings: int, turn: int, clock: int = 0):
        self.game = game
        self.tab = game.tables
        self.occ = occ
        self.kings = kings
        self.turn = turn
        self.clock = clock
        self._caps: list | None = None
        self._keep_paths = False
        self._path = list(range(_MAX_PATH))  # squares of the capture being searched
        # The undo stack: _WORDS words a ply in a growable array (a typed buffer
        # in the compiled build), and the capture lists cached at each ply.
        self._st = array("Q", bytes(8 * _WORDS * 64))
        self._sp = 0
        self._caps_st: list = []
        self.key = self.compute_key()
        self._nn = None

    @property
    def occ(self) -> tuple[int, int]:
        """The pieces of player 0 and of player 1, as masks."""
        return (self.o0, self.o1)

    @occ.setter
    def occ(self, value: tuple[int, int]) -> None:
        self.o0, self.o1 = value

    # -- moves ---------------------------------------------------------------

    def capture_sequences(self, jumpers: int | None = None) -> list[tuple[Move, tuple[int, ...]]]:
        """Every capture sequence as ``(move, path)``, path = squares visited;
        ``jumpers`` (the ``_jumpers()`` mask) saves computing it again."""
        self._keep_paths = True
        try:
            return self._generate(self._jumpers() if jumpers is None else jumpers)
        finally:
            self._keep_paths = False

    def capture_moves(self) -> list[Move]:
        """The distinct capture moves, in the order the search tries them (all
        the legal moves when there is one: capturing is compulsory)."""
        jumpers = self._jumpers()
        return self._generate(jumpers) if jumpers else []

    def _generate(self, jumpers: int) -> list:
        """Run the capture search from every square of ``jumpers``, lowest first."""
        out: list = []
        if self.turn:
            own, opp = self.o1, self.o0
        else:
            own, opp = self.o0, self.o1
        while jumpers:
            frm = lowest(jumpers)
            jumpers &= jumpers - 1
            # The capturing piece has left its square: it may pass or land there again.
            empty = self.tab.valid & ~(own | opp) | BIT[frm]
            self._path[0] = frm
            self._captures_from(out, frm, opp, empty)
        if self.tab.majority and len(out) > 1:
            return self._most_taken(out)
        return out

    def _most_taken(self, out: list) -> list:
        """The captures of ``out`` that take the most pieces (the majority rule);
        ``out`` holds moves, or ``(move, path)`` pairs when paths are kept."""
        counts = []
        best = 0
        for x in out:
            m = x[0] if self._keep_paths else x
            n = popcount(m >> CAP_SHIFT)
            counts.append(n)
            if n > best:
                best = n
        kept = []
        for i in range(len(out)):
            if counts[i] == best:
                kept.append(out[i])
        return kept

    def _captures_from(self, out: list, frm: int, opp: int, empty: int) -> int:
        """Report every capture sequence of the piece on ``frm`` to ``_emit``."""
        raise NotImplementedError

    def _emit(self, out: list, move: Move, depth: int) -> int:
        """A complete capture whose path is ``_path[:depth + 1]``: add the move to
        ``out`` unless already there, or the pair ``(move, path)`` when paths are kept."""
        if self._keep_paths:
            path = []
            for k in range(depth + 1):
                path.append(self._path[k])
            out.append((move, tuple(path)))
        elif move not in out:
            out.append(move)
        return 0

    def _quiet_moves(self) -> list[Move]:
        me = self.turn
        if me:
            own, opp = self.o1, self.o0
        else:
            own, opp = self.o0, self.o1
        empty = self.tab.valid & ~(own | opp)
        kg = own & self.kings
        men = own ^ kg
        promo = self.tab.promo_mask[me]
        down = me == self.tab.down
        out: list[Move] = []
        lo = self.tab.per_row
        for d in range(lo, lo + 2):
            dest = (men << d if down else men >> d) & empty
            while dest:
                to = lowest(dest)
                dest &= dest - 1
                frm = to - d if down else to + d
                out.append(_QUIET[frm | to << 6 | (PROMO if promo >> to & 1 else 0)])
        if kg:
            self._king_quiet_moves(out, kg, empty)
        return out

    def _king_quiet_moves(self, out: list, kg: int, empty: int) -> int:
        """Append the non-capturing moves of the kings in mask ``kg``."""
        raise NotImplementedError

    def _jumpers(self) -> int:
        """Mask of the side to move's pieces that have a capture (each game's rules)."""
        return 0

    def _captures(self) -> list:
        caps = self._caps
        if caps is None:
            caps = self._caps = self.capture_moves()
        return caps

    def legal_moves(self) -> list[Move]:
        caps = self._captures()
        return caps[:] if caps else self._quiet_moves()

    def noisy_moves(self) -> list[Move]:
        out = self._captures()[:]
        # Most pieces taken first, then crowning ones, equal ones in generation
        # order: a stable insertion sort (the lists are short).
        for i in range(1, len(out)):
            m = out[i]
            rank = _capture_order(m)
            j = i
            while j > 0 and _capture_order(out[j - 1]) < rank:
                out[j] = out[j - 1]
                j -= 1
            out[j] = m
        return out

    def is_noisy(self, move: Move) -> bool:
        return move >> CAP_SHIFT != 0

    def move_score(self, move: Move) -> int:
        return popcount(move >> CAP_SHIFT) * 100 + (50 if move & PROMO else 0)

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return not self._captures()

    # Indices below sp + _WORDS, which the capacity check keeps inside the buffer.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _save(self) -> None:
        """Push the state onto the undo stack."""
        sp = self._sp
        if sp + _WORDS > len(self._st):
            self._grow()
        self._st[sp] = self.o0
        self._st[sp + 1] = self.o1
        self._st[sp + 2] = self.kings
        self._st[sp + 3] = self.key
        self._st[sp + 4] = self.clock * 2 + self.turn
        self._sp = sp + _WORDS
        self._caps_st.append(self._caps)
        if self._nn is not None:
            self._nn.push()

    def _grow(self) -> None:
        old = self._st
        st = array("Q", bytes(16 * len(old)))
        for i in range(len(old)):
            st[i] = old[i]
        self._st = st

    def push(self, move: Move) -> None:
        t = self.tab
        me = self.turn
        frm, to, cap = move & 63, move >> 6 & 63, (move >> CAP_SHIFT) << t.cap_low
        bf, bt = BIT[frm], BIT[to]
        self._save()
        if me:
            own, opp = self.o1, self.o0
        else:
            own, opp = self.o0, self.o1
        own = own & ~bf | bt
        kings = self.kings
        key = self.key ^ t.z_turn
        nn = self._nn
        if nn is not None:
            # Inputs ((owner is not the viewer) * 2 + king) * squares + the viewer's square.
            was = kings >> frm & 1
            now = 1 if move & PROMO else was
            for p in range(2):
                base = 2 if me != p else 0
                nn.sub_one(p, (base + was) * t.nn_n + t.nn_sq[p][frm])
                nn.add_one(p, (base + now) * t.nn_n + t.nn_sq[p][to])
        if kings & bf:
            kings = kings & ~bf | bt
            key ^= t.z_king[me][frm] ^ t.z_king[me][to]
            clock = self.clock + 1
        else:
            clock = 0
            if move & PROMO:
                kings |= bt
                key ^= t.z_man[me][frm] ^ t.z_king[me][to]
            else:
                key ^= t.z_man[me][frm] ^ t.z_man[me][to]
        if cap:
            clock = 0
            opp &= ~cap
            while cap:
                i = lowest(cap)
                cap &= cap - 1
                if nn is not None:
                    was = kings >> i & 1
                    for p in range(2):
                        nn.sub_one(p, ((0 if me != p else 2) + was) * t.nn_n + t.nn_sq[p][i])
                if kings >> i & 1:
                    key ^= t.z_king[me ^ 1][i]
                    kings ^= BIT[i]
                else:
                    key ^= t.z_man[me ^ 1][i]
        if me:
            self.o0, self.o1 = opp, own
        else:
            self.o0, self.o1 = own, opp
        self.kings = kings
        self.turn = me ^ 1
        self.key = key
        self.clock = clock
        self._caps = None

    # 0 <= sp and sp + _WORDS <= the size pushed so far.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def pop(self) -> None:
        sp = self._sp - _WORDS
        if sp < 0:
            raise IndexError("pop with no move to undo")
        self.o0 = self._st[sp]
        self.o1 = self._st[sp + 1]
        self.kings = self._st[sp + 2]
        self.key = self._st[sp + 3]
        self.clock = self._st[sp + 4] >> 1
        self.turn = self._st[sp + 4] & 1
        self._sp = sp
        self._caps = self._caps_st.pop()
        if self._nn is not None:
            self._nn_pop()

    def push_null(self) -> None:
        self._save()
        self.turn ^= 1
        self.key ^= self.tab.z_turn
        self.clock += 1
        self._caps = None

    def null_move_allowed(self) -> bool:
        return False

    # -- results -------------------------------------------------------------

    def outcome(self) -> int | None:
        """0 after ``game.draw_plies`` plies without a capture or a man move, on
        the third occurrence of the position, or after the plies a short ending
        against a lone king is given (``game.lone_king_moves``); ``None`` otherwise.
        A side that has no legal move has lost even then (``no_moves_value``)."""
        clock = self.clock
        if clock < self.tab.first_draw_ply:
            return None
        if clock >= self.tab.draw_plies or self._occurrences() >= 3 or self._lone_king_draw(clock):
            return 0 if self.legal_moves() else None
        return None

    def _lone_king_draw(self, clock: int) -> bool:
        """True once a side with a king has had the moves the rules give it
        against a lone king: ``lone_king_plies[n - 1]`` with ``n`` pieces (0: no limit)."""
        t = self.tab
        if not t.lone_king_plies[0]:
            return False
        n0, n1 = popcount(self.o0), popcount(self.o1)
        if n0 == 1:
            lone, n, strong = self.o0, n1, self.o1
        elif n1 == 1:
            lone, n, strong = self.o1, n0, self.o0
        else:
            return False
        if not lone & self.kings or not strong & self.kings or n > 3:
            return False
        return clock >= t.lone_king_plies[n - 1]

    def no_moves_value(self) -> int:
        return -1

    # Every index is below _sp (k <= plies), inside the buffer.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def is_repetition(self) -> bool:
        key = self.key
        plies = self._sp // _WORDS
        for k in range(4, min(self.clock, plies) + 1, 2):
            if self._st[(plies - k) * _WORDS + 3] == key:
                return True
        return False

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _occurrences(self) -> int:
        """Occurrences of this position since the last irreversible move (the
        same side to move every second ply back, four plies back at the nearest)."""
        key = self.key
        plies = self._sp // _WORDS
        n = 1
        for k in range(4, min(self.clock, plies) + 1, 2):
            if self._st[(plies - k) * _WORDS + 3] == key:
                n += 1
        return n

    def compute_key(self) -> int:
        t = self.tab
        key = t.z_turn if self.turn else 0
        for p, own in enumerate(self.occ):
            for i in bits(own):
                key ^= t.z_king[p][i] if self.kings >> i & 1 else t.z_man[p][i]
        return key

    # -- evaluation ----------------------------------------------------------

    def evaluate(self) -> int:
        """Material, piece-square terms (advancement, centre, back rank), mobility,
        runaway men and endgame technique, from the side to move's view; with
        ``eval=textbook`` the chapters' (men difference) + 3 × (kings difference),
        in units of a man's value. The network's score instead when one is attached."""
        if self._nn is not None:
            return self._nn.evaluate(self.turn)
        t = self.tab
        me = self.turn
        kings = self.kings
        if t.textbook:
            if me:
                own, opp = self.o1, self.o0
            else:
                own, opp = self.o0, self.o1
            return t.man_value * (popcount(own & ~kings) - popcount(opp & ~kings)
                                  + 3 * (popcount(own & kings) - popcount(opp & kings)))
        empty = t.valid & ~(self.o0 | self.o1)
        lo = t.per_row
        total = popcount(self.o0 | self.o1)
        score = [0, 0]
        mat = [0, 0]
        for p in range(2):
            if p:
                own, opp = self.o1, self.o0
            else:
                own, opp = self.o0, self.o1
            men, kg = own & ~kings, own & kings
            m = t.man_value * popcount(men) + t.king_value * popcount(kg)
            mat[p] = m
            s = m
            for k in range(t.n_man_terms[p]):
                s += t.man_term_value[p][k] * popcount(men & t.man_term_mask[p][k])
            if kg:
                for k in range(t.n_king_terms):
                    s += t.king_term_value[k] * popcount(kg & t.king_term_mask[k])
            # Mobility: free squares next to the side's pieces in their moving directions.
            if p == t.down:
                steps = popcount((men << lo) & empty) + popcount((men << (lo + 1)) & empty)
            else:
                steps = popcount((men >> lo) & empty) + popcount((men >> (lo + 1)) & empty)
            steps += popcount((kg << lo | kg << (lo + 1) | kg >> lo | kg >> (lo + 1)) & empty)
            s += t.mobility * steps
            opp_men = opp & ~kings
            # Back rank: men still guarding the crowning squares, while enemy men could crown there.
            if opp_men:
                s += t.back_rank * popcount(men & t.guard_mask[p])
            # Runaway men: nothing of the opponent's in the promotion cone, and no enemy king.
            if opp_men == opp:
                runners = men & t.runaway_zone[p]
                best = 0
                while runners:
                    i = lowest(runners)
                    runners &= runners - 1
                    if not t.cone[p][i] & opp and t.runaway_bonus[p][i] > best:
                        best = t.runaway_bonus[p][i]
                s += best
            score[p] = s
        diff = score[me] - score[me ^ 1]
        # Endgame: the side ahead in material gains by trading down and by bringing
        # its kings to the enemy pieces.
        lead = mat[me] - mat[me ^ 1]
        if lead and total <= 12:
            strong = me if lead > 0 else me ^ 1
            bonus = abs(lead) * (24 - total) // 32 + self._hunt(strong)
            diff += bonus if strong == me else -bonus
        return diff + self._drawish_adjust(diff)

    def _hunt(self, strong: int) -> int:
        """Bonus for the stronger side's kings standing close to the weaker pieces."""
        kg = (self.o1 if strong else self.o0) & self.kings
        weak = self.o0 if strong else self.o1
        if not kg or not weak:
            return 0
        t = self.tab
        far = t.size - 1
        bonus = 0
        while kg:
            i = lowest(kg)
            kg &= kg - 1
            # Chebyshev distance to the nearest weaker piece.
            near = far
            targets = weak
            while targets:
                j = lowest(targets)
                targets &= targets - 1
                near = min(near, max(abs(t.row[i] - t.row[j]), abs(t.file[i] - t.file[j])))
            bonus += far - near
        return t.hunt * bonus

    def _drawish_adjust(self, diff: int) -> int:
        """Correction for endings the material count misjudges (0 by default)."""
        return 0

    # -- text ----------------------------------------------------------------

    def _copy(self) -> DraughtsPosition:
        other = type(self)(self.game, self.occ, self.kings, self.turn, self.clock)
        other._copy_stack(self)
        return other

    # -- the network -----------------------------------------------------------

    def _nn_view(self, view: int) -> list[int]:
        """The inputs player ``view`` sees: own men, own kings, the opponent's men and
        kings, the board's squares each (32 or 50) in that player's orientation."""
        squares = self.tab.nn_sq[view]
        n = self.tab.nn_n
        out = []
        for p in (view, view ^ 1):
            base = 0 if p == view else 2
            for i in bits(self.occ[p]):
                out.append((base + (self.kings >> i & 1)) * n + squares[i])
        return out

    def _copy_stack(self, source: DraughtsPosition) -> None:
        """Take over the undo stack of ``source`` (its game history, for repetitions)."""
        st = array("Q", bytes(8 * len(source._st)))
        for i in range(source._sp):
            st[i] = source._st[i]
        self._st = st
        self._sp = source._sp
        self._caps_st = source._caps_st[:]

    def path(self, move: Move) -> tuple[int, ...]:
        """The squares a legal move visits, first found path for a capture."""
        if move >> CAP_SHIFT:
            for m, path in self.capture_sequences():
                if m == move:
                    return path
        return (move & 63, move >> 6 & 63)

    def move_text(self, move: Move) -> str:
        sep = self.game.capture_sep if move >> CAP_SHIFT else "-"
        return sep.join(map(self.game.square_name, self.path(move)))

    def parse_move(self, text: str) -> Move:
        # Squares joined by single separators: ``11-15``, ``11x18``, ``11x18x25``, ``11:18``.
        parts = _MOVE_SEPARATORS.split(text.strip().lower())
        try:
            squares = tuple(map(self.game.parse_square, parts))
        except ValueError as e:
            raise IllegalMoveError(f"illegal move {quote(text)}: {e}") from None
        if len(squares) < 2:
            raise IllegalMoveError(f"illegal move {quote(text)}: give from and to squares, e.g. "
                                   f"{self.move_text(self.legal_moves()[0]) if self.legal_moves() else '11-15'}")
        frm, to = squares[0], squares[-1]
        caps = self._captures()
        found = set()
        if caps:
            for m, path in self.capture_sequences():
                if path == squares or len(squares) == 2 and path[0] == frm and path[-1] == to:
                    found.add(m)
        elif len(squares) == 2:
            for m in self._quiet_moves():
                if m & 63 == frm and m >> 6 & 63 == to:
                    found.add(m)
        if len(found) > 1:
            raise IllegalMoveError(f"ambiguous move {quote(text)}: give the full capture path")
        if not found:
            hint = " (a capture is compulsory)" if caps else ""
            raise IllegalMoveError(f"illegal move {quote(text)}{hint}")
        return found.pop()

    def to_text(self) -> str:
        """Draughts FEN: side to move, then ``W`` and ``B`` piece lists, men then
        kings (``K`` prefix), each in square order."""
        g = self.game
        fields = [g.letters[self.turn]]
        for letter in "WB":
            p = g.letters.index(letter)
            own = self.occ[p]
            names = [g.square_name(i) for i in g.sorted_squares(own & ~self.kings)]
            names += ["K" + g.square_name(i) for i in g.sorted_squares(own & self.kings)]
            fields.append(letter + ",".join(names))
        return ":".join(fields)

    def render(self) -> str:
        raise NotImplementedError

    def _board_rows(self) -> list[list[str]]:
        """The board from the top row down, one two-character cell per file: `` .`` a
        light square, `` -`` an empty dark one, else the owner's letter, upper
        case for a king."""
        occ, kings, letters = self.occ, self.kings, self.game.letters
        geo = self.game.geometry
        rows = []
        for r in range(geo.size):
            cells = []
            for f in range(geo.size):
                i = geo.at.get((r, f))
                if i is None:
                    cells.append(" .")
                    continue
                b = 1 << i
                p = 0 if occ[0] & b else 1 if occ[1] & b else -1
                ch = "-" if p < 0 else letters[p].lower()
                cells.append(" " + (ch.upper() if kings & b else ch))
            rows.append(cells)
        return rows


def _capture_order(m: Move) -> int:
    return popcount(m >> CAP_SHIFT) * 2 + (m >> 12 & 1)


def _terms(values: dict[int, int]) -> list[tuple[int, int]]:
    masks: dict[int, int] = {}
    for i, v in values.items():
        if v:
            masks[v] = masks.get(v, 0) | 1 << i
    return [(mask, v) for v, mask in masks.items()]


def parse_fen(game, text: str, parse_square) -> tuple[tuple[int, int], int, int, int]:
    """Read a draughts FEN into ``(occ, kings, turn, clock)``.

    ``W:W21,22,K30:B1-12`` style; a trailing ``.``, an ``H<n>`` field (plies
    since the last capture or man move) and an ``F<n>`` field are accepted.
    Ranges ``a-b`` are accepted where squares are numbers.
    """
    s = text.strip().rstrip(".")
    if not s or len(s) > 600 or " " in s:
        raise InvalidPositionError(f"bad {game.name} FEN {text[:40]!r}; expected e.g. {game.start_fen!r}")
    fields = s.split(":")
    turn_letter = fields[0].upper()
    if turn_letter not in ("W", "B"):
        raise InvalidPositionError(f"bad side to move in {text[:40]!r}: W or B expected")
    occ = [0, 0]
    kings = 0
    clock = 0
    seen = set()
    for field in fields[1:]:
        if not field:
            continue
        head, body = field[0].upper(), field[1:]
        if head == "H" and body.isdigit():
            clock = int(body)
            continue
        if head == "F" and body.isdigit():
            continue
        if head not in ("W", "B") or head in seen:
            raise InvalidPositionError(f"bad field {field[:20]!r} in {game.name} FEN")
        seen.add(head)
        p = game.letters.index(head)
        for token in body.split(","):
            token = token.strip()
            if not token:
                continue
            king = token[0] in "Kk"
            if king:
                token = token[1:]
            try:
                if "-" in token:
                    lo, hi = (int(x) for x in token.split("-"))
                    if not 1 <= lo <= hi <= game.geometry.n_squares:
                        raise ValueError
                    squares = [parse_square(str(n)) for n in range(lo, hi + 1)]
                else:
                    squares = [parse_square(token)]
            except ValueError:
                raise InvalidPositionError(f"bad square {token!r} in {game.name} FEN") from None
            for i in squares:
                b = 1 << i
                if (occ[0] | occ[1]) & b:
                    raise InvalidPositionError(f"square {token!r} given twice in {game.name} FEN")
                occ[p] |= b
                if king:
                    kings |= b
    for p in (0, 1):
        if occ[p] & ~kings & game.promo_mask[p]:
            raise InvalidPositionError(f"a {game.players[p]} man stands on its crowning row")
    return (occ[0], occ[1]), kings, game.letters.index(turn_letter), clock


class DraughtsGame(Game):
    """Tables shared by both games, built once per game instance.

    Subclasses set the class attributes: ``letters`` (FEN letter of player 0 and 1),
    ``down_player`` (the player whose men move towards rank 1, i.e. Black),
    ``seed`` (Zobrist), ``capture_sep``, ``start_fen``, the evaluation weights,
    and implement ``man_pst``/``king_pst``/``guard_squares``.
    """

    record_format: ClassVar[str] = "pdn"
    bench_depth: ClassVar[int] = 5
    table_classes: ClassVar[str] = "pieces"
    inputs: InputSet | None = InputSet("draughts128", 128, 24)

    letters: tuple[str, str]
    down_player: int
    seed: str
    capture_sep: str
    start_fen: str
    square_name: Callable[[int], str]
    parse_square: Callable[[str], int]    # raises ValueError
    sorted_squares: Callable[[int], list[int]]
    position_class: type
    man_value: int
    king_value: int
    mobility: int
    back_rank: int
    runaway: int
    hunt: int

    #: The board (``board.EIGHT`` or ``board.TEN``).
    geometry: ClassVar[board.Geometry] = board.EIGHT
    #: Whether a king moves and captures along a whole diagonal (Russian, Brazilian,
    #: international) or one square at a time (English checkers).
    flying_kings: ClassVar[bool] = False
    #: The rules of capture that differ between the flying-king games: only the
    #: captures taking the most pieces are legal; a man crowned mid-capture goes
    #: on capturing as a king (otherwise it is crowned only where its move ends).
    majority: ClassVar[bool] = False
    crown_midway: ClassVar[bool] = True
    #: Moves each a side with a king has against a lone king, with 1, 2 or 3
    #: pieces, before the game is drawn (0: no such rule).
    lone_king_moves: ClassVar[tuple[int, int, int]] = (0, 0, 0)
    #: The long diagonal, which decides many king endings (0: none used).
    main_road: ClassVar[int] = 0
    #: The game's value of the Hub ``variant`` parameter (``notation``).
    hub_variant: ClassVar[str]

    def __init__(self, params=None):
        self.params = params or self.Params()
        self.textbook = self.params.eval == "textbook"
        if self.textbook:
            # The chapters' evaluation was asked for by name: no network answers in its place.
            self.inputs = None
        self.draw_plies = 2 * self.params.draw_moves
        # A third occurrence needs at least 8 plies of king moves; before that only
        # a short move-rule setting can end the game.
        self.first_draw_ply = min(8, self.draw_plies)
        table = keys(4 * 64 + 1, self.seed)
        geo = self.geometry
        last = geo.size - 1
        valid = [geo.valid >> i & 1 for i in range(64)]
        self.z_man = [[table[p * 64 + i] * valid[i] for i in range(64)] for p in (0, 1)]
        self.z_king = [[table[128 + p * 64 + i] * valid[i] for i in range(64)] for p in (0, 1)]
        self.z_turn = table[-1]
        down = self.down_player
        self.forward_shift = [1 if p == down else -1 for p in (0, 1)]
        self.man_steps = [(4, 5) if p == down else (-4, -5) for p in (0, 1)]
        self.adv = [[(geo.row[i] if p == down else last - geo.row[i]) if valid[i] else 0 for i in range(64)]
                    for p in (0, 1)]
        self.promo_mask = [geo.row_mask[last] if p == down else geo.row_mask[0] for p in (0, 1)]
        # Piece-square values, grouped by value into (mask, value) pairs so that the
        # evaluation sums a few popcounts instead of looping over pieces.
        self.man_terms = [_terms({i: self.man_pst(self.adv[p][i], geo.file[i]) for i in bits(geo.valid)})
                          for p in (0, 1)]
        self.king_terms = _terms({i: self.king_pst(i) for i in bits(geo.valid)})
        self.guard_mask = [sum(1 << i for i in self.guard_squares(p)) for p in (0, 1)]
        self.cone = [[self._cone(p, i) if valid[i] else 0 for i in range(64)] for p in (0, 1)]
        self.runaway_bonus = [[max(0, self.runaway - 12 * (last - self.adv[p][i])) if valid[i] else 0
                               for i in range(64)] for p in (0, 1)]
        self.runaway_zone = [sum(1 << i for i in range(64) if self.runaway_bonus[p][i]) for p in (0, 1)]
        self.tables = DraughtsTables(self)
        self._notation = None

    def _cone(self, p: int, i: int) -> int:
        """Squares a man on ``i`` could meet on its way to the crowning row."""
        adv, geo = self.adv[p], self.geometry
        return sum(1 << j for j in range(64) if geo.valid >> j & 1 and adv[j] > adv[i]
                   and abs(geo.file[j] - geo.file[i]) <= adv[j] - adv[i] + 1)

    def hub_notation(self):
        """The squares and board strings of the Hub and DXP protocols (``notation``)."""
        from games.draughts.notation import notation_for

        if self._notation is None:
            self._notation = notation_for(self)
        return self._notation

    def exact(self, config: ExactConfig):
        """The endgame tables of ``TablePath`` (:class:`games.draughts.retro.DraughtsExact`)."""
        directory = config.table_directory
        if directory is None:
            return None
        from games.draughts.retro import DraughtsExact  # numpy, only when tables are set

        return DraughtsExact(self, directory, config.report)

    def eval_terms(self, pos: DraughtsPosition) -> list[tuple[str, int, str]]:
        """The evaluation's terms, side to move's view, summing to ``evaluate()``: men,
        kings and the rest (piece-square terms, mobility, back rank, runaways, endgame)."""
        me = pos.turn
        own = (pos.o0, pos.o1)
        men = [(own[p] & ~pos.kings).bit_count() for p in (0, 1)]
        kings = [(own[p] & pos.kings).bit_count() for p in (0, 1)]
        if self.textbook:
            m = self.man_value * (men[me] - men[me ^ 1])
            k = 3 * self.man_value * (kings[me] - kings[me ^ 1])
            return [(f"men difference, {self.man_value} each", m, f"{men[me]} against {men[me ^ 1]}"),
                    (f"kings difference, 3 × {self.man_value} each", k,
                     f"{kings[me]} against {kings[me ^ 1]}; textbook E = {m // self.man_value:+d} "
                     f"+ 3 × {(k // (3 * self.man_value)):+d} = {(m + k) // self.man_value:+d} men")]
        m = self.man_value * (men[me] - men[me ^ 1])
        k = self.king_value * (kings[me] - kings[me ^ 1])
        return [(f"men, {self.man_value} each", m, f"{men[me]} against {men[me ^ 1]}"),
                (f"kings, {self.king_value} each", k, f"{kings[me]} against {kings[me ^ 1]}"),
                ("the rest: piece-square, mobility, back rank, runaways, endgame", pos.evaluate() - m - k, "")]

    def new_position(self, text: str | None = None):
        if text is None:
            text = self.start_fen
        occ, kings, turn, clock = parse_fen(self, text, self.parse_square)
        return self.position_class(self, occ, kings, turn, clock)
