"""The chess position the search walks: bitboards, a mailbox, legal move
generation, and push/pop by snapshot.

State. ``bb`` is a list of 16 bitboards indexed by piece code
``color << 3 | piece_type`` (pawn 1 ... king 6), with ``bb[0]``/``bb[8]`` the
occupancy of white/black; ``board`` is the 64-square mailbox of piece codes
(0 = empty). ``mg``/``eg``/``phase`` are the incremental PeSTO sums (white's
view). ``ep`` is the en passant square only when a legal en passant capture
exists (python-chess's ``en_passant="legal"`` convention), so the key, the FEN
and repetition detection agree with python-chess.

Move layout: ``from | to << 6 | promotion << 12 | CASTLE | EN_PASSANT`` with the
promotion piece type (knight 2 ... queen 5) or 0, ``CASTLE = 1 << 15`` on
castling, ``EN_PASSANT = 1 << 16``. Castling goes from the king's square to the
king's destination (g or c file), also in Chess960, where the two may coincide
and the rook of the right is found through the position's castling rule.
"""

from __future__ import annotations

import cython  # type: ignore[import-untyped]

from engine.position import Position
from games.zobrist import keys as _zobrist_keys

from .bitboards import (BB_ALL, BB_DARK_SQUARES, BB_FILE_A, BB_FILE_H, BB_LIGHT_SQUARES, BB_RANK_1,
                        BB_RANK_3, BB_RANK_6, BB_RANK_8, BB_SQUARES, BETWEEN, BISHOP, BISHOP_RAYS,
                        CASTLE, EN_PASSANT, KING, KING_ATTACKS, KNIGHT, KNIGHT_ATTACKS, LINE, PAWN,
                        PAWN_ATTACKS, PROMO_SHIFT, QUEEN, ROOK, ROOK_RAYS, bishop_attacks, lsb, msb,
                        popcount, rook_attacks)
from .evaluate import EG, MAX_PHASE, MG, PHASE, VALUE, material_scratch

if not cython.compiled:  # the compiled build cimports these C functions (board.pxd)
    from .evaluate import NO_EVAL, eval_probe, eval_store, positional_terms, scale_of

SPECIAL = CASTLE | EN_PASSANT | 7 << 12
#: The compiled build's scratch arrays for sorting captures (Board._by_score): more
#: than a position's legal moves.
_score_keys = [0 for _ in range(256)]
_score_moves = [0 for _ in range(256)]

# Castling rights bits: white's h-side and a-side rook, then black's.
WK, WQ, BK, BQ = 1, 2, 4, 8

_Z = _zobrist_keys(16 * 64 + 1 + 4 + 8, "zermelo/chess")
#: Z_PIECE[code][sq]; code 0 (empty) keys are 0 so that xoring "no capture" is a no-op.
Z_PIECE = [[0] * 64 if pc & 7 in (0, 7) else _Z[pc * 64:(pc + 1) * 64] for pc in range(16)]
Z_TURN = _Z[16 * 64]
_Z_RIGHT = _Z[16 * 64 + 1:16 * 64 + 5]
Z_EP_FILE = _Z[16 * 64 + 5:16 * 64 + 13]
# A right whose rook does not stand on its standard corner (Chess960) has a key of
# its own per rook file, so that equal pieces with other castling rooks differ.
_Z_RIGHT_FILE = _zobrist_keys(4 * 8, "zermelo/chess960")
STANDARD_ROOKS = (7, 0, 63, 56)

# A castling rule says what the rights of a position refer to:
# ``(keep, rooks, zkeys)`` with keep[sq] the rights left after a move from or to
# sq, rooks[i] the square of the rook of right bit i (-1 without that right) and
# zkeys[rights] the Zobrist key of a rights mask. Rights only ever shrink, so a
# position and every position after it share one rule.
_RULES: dict[tuple, tuple] = {}


def castling_rule(kings: tuple[int, int], rooks: tuple[int, int, int, int]) -> tuple:
    """The rule for the white and black king squares and the rook of each right
    (``-1`` where the right is absent; a king square matters only with rights)."""
    if all(r < 0 or r == s for r, s in zip(rooks, STANDARD_ROOKS)) and \
            (rooks[0] < 0 and rooks[1] < 0 or kings[0] == 4) and (rooks[2] < 0 and rooks[3] < 0 or kings[1] == 60):
        rooks, kings = STANDARD_ROOKS, (4, 60)
    rule = _RULES.get((kings, rooks))
    if rule is None:
        keep = [15] * 64
        zkeys = [0] * 16
        for i, rsq in enumerate(rooks):
            if rsq < 0:
                continue
            bit = 1 << i
            keep[rsq] &= ~bit
            keep[kings[i >> 1]] &= ~bit
            zk = _Z_RIGHT[i] if rsq == STANDARD_ROOKS[i] else _Z_RIGHT_FILE[i * 8 + (rsq & 7)]
            for r in range(16):
                if r & bit:
                    zkeys[r] ^= zk
        rule = _RULES[kings, rooks] = (keep, rooks, zkeys)
    return rule


STANDARD_RULE = castling_rule((4, 60), STANDARD_ROOKS)

_NOT_A = ~BB_FILE_A & BB_ALL
_NOT_H = ~BB_FILE_H & BB_ALL
_NO_NULL = 1 << 20
# Odd 64-bit multipliers (golden ratio, xxHash's second prime) that mix the pawns' key.
_MIX_WHITE = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX_BLACK = cython.declare(cython.ulonglong, 0xC2B2AE3D27D4EB4F)

# The tables the hot path indexes, under names that are C arrays in the compiled
# build (board.pxd) and the very same lists in the pure one.
_KNIGHT = KNIGHT_ATTACKS
_BIT = BB_SQUARES
_KING = KING_ATTACKS
_PAWN_ATT = PAWN_ATTACKS
_BETWEEN = BETWEEN
_LINE = LINE
_BISHOP_RAYS = BISHOP_RAYS
_ROOK_RAYS = ROOK_RAYS
_ZP = Z_PIECE
_Z_EP = Z_EP_FILE
_ZT = Z_TURN
_MG = MG
_EG = EG
_PHASE = PHASE
_VALUE = VALUE
_RANK_1, _RANK_3, _RANK_6, _RANK_8 = BB_RANK_1, BB_RANK_3, BB_RANK_6, BB_RANK_8
_LIGHT, _DARK = BB_LIGHT_SQUARES, BB_DARK_SQUARES


# Move lists for a whole set of destinations at once, cached by
# ``destinations | origin << 64`` (pieces) or ``destinations | (delta + 32) << 64``
# (pawns, origin = destination - delta): in Python one dict hit replaces a loop
# per move. The compiled build appends move by move instead, which is cheaper in C.
_SPREAD: dict[int, list[int]] = {}
_PAWN_SPREAD: dict[int, list[int]] = {}
_SPREAD_LIMIT = 1 << 18


def _nn_index(view: int, pc: int, sq: int) -> int:
    """Network input of piece ``pc`` on ``sq`` as player ``view`` sees it: own pieces
    first, then the opponent's, by type, on the board mirrored for black (768 inputs)."""
    return ((pc >> 3 != view) * 6 + (pc & 7) - 1) * 64 + (sq if view == 0 else sq ^ 56)


#: _NN[view][pc][sq]: the network input of each piece code and square, 0 for code 0.
_NN = [[[_nn_index(v, pc, sq) if 1 <= pc & 7 <= 6 else 0 for sq in range(64)] for pc in range(16)]
       for v in (0, 1)]


def _spread(key: int) -> list[int]:
    batch = _SPREAD.get(key)
    if batch is None:
        frm, dests = key >> 64, key & 0xFFFFFFFFFFFFFFFF
        batch = [frm | to << 6 for to in range(64) if dests >> to & 1]
        if len(_SPREAD) >= _SPREAD_LIMIT:
            _SPREAD.clear()
        _SPREAD[key] = batch
    return batch


def _pawn_spread(key: int) -> list[int]:
    delta, dests = (key >> 64) - 32, key & 0xFFFFFFFFFFFFFFFF
    batch = [(to - delta) | to << 6 for to in range(64) if dests >> to & 1]
    if len(_PAWN_SPREAD) >= _SPREAD_LIMIT:
        _PAWN_SPREAD.clear()
    _PAWN_SPREAD[key] = batch
    return batch


def _add_moves(moves: list[int], frm: int, dests: int) -> None:
    """Append the moves from ``frm`` to each square of ``dests``, lowest first."""
    if cython.compiled:
        while dests:
            moves.append(frm | lsb(dests) << 6)
            dests &= dests - 1
        return
    key = dests | frm << 64
    batch = _SPREAD.get(key)
    moves += batch if batch is not None else _spread(key)


def _add_pawn_moves(moves: list[int], delta: int, dests: int, noisy: bool) -> None:
    """Append the pawn moves onto ``dests`` from ``delta`` squares behind: the four
    promotions of each promoting one first, then the others unless ``noisy`` (quiet
    pushes are not noisy moves)."""
    promos = dests & (_RANK_1 | _RANK_8)
    dests ^= promos
    while promos:
        to = lsb(promos)
        promos &= promos - 1
        base = (to - delta) | to << 6
        moves.append(base | QUEEN << PROMO_SHIFT)
        moves.append(base | KNIGHT << PROMO_SHIFT)
        moves.append(base | ROOK << PROMO_SHIFT)
        moves.append(base | BISHOP << PROMO_SHIFT)
    if not dests or noisy:
        return
    if cython.compiled:
        while dests:
            to = lsb(dests)
            moves.append((to - delta) | to << 6)
            dests &= dests - 1
        return
    key = dests | (delta + 32) << 64
    batch = _PAWN_SPREAD.get(key)
    moves += batch if batch is not None else _pawn_spread(key)


def _pawn_moves(moves: list[int], pawns: int, us: int, occ: int, opp: int, target: int, noisy: bool) -> None:
    """Pushes and captures of ``pawns`` onto ``target`` (en passant excepted)."""
    empty = ~occ & BB_ALL
    if us == 0:
        one = (pawns << 8) & empty
        two = ((one & _RANK_3) << 8) & empty & target
        left = ((pawns & _NOT_A) << 7) & opp & target
        right = ((pawns & _NOT_H) << 9) & opp & target
        step = 8
    else:
        one = (pawns >> 8) & empty
        two = ((one & _RANK_6) >> 8) & empty & target
        left = ((pawns & _NOT_A) >> 9) & opp & target
        right = ((pawns & _NOT_H) >> 7) & opp & target
        step = -8
    one &= target
    _add_pawn_moves(moves, step, one, noisy)
    _add_pawn_moves(moves, step - 1, left, False)
    _add_pawn_moves(moves, step + 1, right, False)
    _add_pawn_moves(moves, 2 * step, two, noisy)


class _Snapshot:
    """What ``push`` saves and ``pop`` restores: the whole state but the history.

    A position keeps one per ply played and reuses them, so a push allocates
    nothing once the stack is deep enough (C arrays in the compiled build).
    """

    def __init__(self) -> None:
        self.bb = [0] * 16
        self.board = [0] * 64
        self.turn = self.castling = self.halfmove = self.fullmove = 0
        self.mg = self.eg = self.phase = self.null_plies = 0
        self.ep = -1
        self.key = self.checkers = 0
        self.checkers_known = False

    def copy(self) -> _Snapshot:
        other = _Snapshot()
        other.bb[:] = self.bb
        other.board[:] = self.board
        other.turn, other.castling, other.ep = self.turn, self.castling, self.ep
        other.halfmove, other.fullmove, other.key = self.halfmove, self.fullmove, self.key
        other.mg, other.eg, other.phase = self.mg, self.eg, self.phase
        other.null_plies, other.checkers = self.null_plies, self.checkers
        other.checkers_known = self.checkers_known
        return other


class Board(Position):
    """A chess position with its move history (for repetitions), without text I/O
    (see :class:`games.chess.ChessPosition`); ``turn`` 0 is white.
    """

    def __init__(self, game, board: list[int], turn: int, castling: int, ep: int | None,
                 halfmove: int, fullmove: int, rule: tuple = STANDARD_RULE):
        self.game = game
        self._set_rule(rule)
        self.board = board[:]
        bb = [0] * 16
        for sq in range(64):
            pc = board[sq]
            if pc:
                bb[pc] |= _BIT[sq]
                bb[pc & 8] |= _BIT[sq]
        self.bb = bb
        self.turn = turn
        self.castling = castling
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.null_plies = _NO_NULL
        self.mg, self.eg, self.phase = material_scratch(board)
        self._checkers = 0
        self._checkers_known = False
        self._stack: list[_Snapshot] = []
        self._ply = 0
        self._nn = None
        self._ep = ep if ep is not None and self._ep_available(ep) else -1
        self.key = self.compute_key()

    def _set_rule(self, rule: tuple) -> None:
        self.rule = rule
        self._keep = rule[0]
        self._rooks = rule[1]
        self._zrights = rule[2]
        self._standard = rule is STANDARD_RULE

    @property
    def ep(self) -> int | None:
        """The en passant square, only when a legal en passant capture exists."""
        return self._ep if self._ep >= 0 else None

    # -- attacks ---------------------------------------------------------------------

    def _attackers(self, color: int, sq: int, occ: int) -> int:
        """Pieces of ``color`` attacking ``sq`` given occupancy ``occ``."""
        bb = self.bb
        o = color << 3
        att = (_KNIGHT[sq] & bb[o | KNIGHT]) | (_KING[sq] & bb[o | KING]) \
            | (_PAWN_ATT[color ^ 1][sq] & bb[o | PAWN])
        rq = (bb[o | ROOK] | bb[o | QUEEN]) & occ
        if rq & _ROOK_RAYS[sq]:
            att |= rook_attacks(sq, occ) & rq
        bq = (bb[o | BISHOP] | bb[o | QUEEN]) & occ
        if bq & _BISHOP_RAYS[sq]:
            att |= bishop_attacks(sq, occ) & bq
        return att

    def checkers(self) -> int:
        """Bitboard of the pieces giving check to the side to move."""
        if not self._checkers_known:
            us = self.turn
            self._checkers = self._attackers(us ^ 1, msb(self.bb[us << 3 | KING]), self.bb[0] | self.bb[8])
            self._checkers_known = True
        return self._checkers

    def in_check(self) -> bool:
        return self.checkers() != 0

    def can_stand_pat(self) -> bool:
        return self.checkers() == 0

    def _ep_legal(self, frm: int, ep: int) -> bool:
        """Whether the side to move's pawn on ``frm`` may capture en passant on ``ep``."""
        bb = self.bb
        us = self.turn
        victim = _BIT[ep ^ 8]
        occ = ((bb[0] | bb[8]) ^ _BIT[frm] ^ victim) | _BIT[ep]
        ksq = msb(bb[us << 3 | KING])
        # The victim is gone: mask it out of the attackers along with everything captured.
        return not self._attackers(us ^ 1, ksq, occ) & ~victim

    def _ep_available(self, ep: int) -> bool:
        """A legal en passant capture onto ``ep`` exists for the side to move."""
        us = self.turn
        if ep >> 3 != (5 if us == 0 else 2):
            return False
        bb = self.bb
        them = (us ^ 1) << 3
        pushed = ep ^ 8
        origin = ep + (8 if us == 0 else -8)
        occ = bb[0] | bb[8]
        if not bb[them | PAWN] >> pushed & 1 or occ >> ep & 1 or occ >> origin & 1:
            return False
        capturers = _PAWN_ATT[us ^ 1][ep] & bb[us << 3 | PAWN]
        while capturers:
            if self._ep_legal(lsb(capturers), ep):
                return True
            capturers &= capturers - 1
        return False

    # -- move generation -------------------------------------------------------------

    def legal_moves(self) -> list[int]:
        """All legal moves."""
        return self._generate(False, BB_ALL)

    def is_legal(self, move: int) -> bool:
        """Whether ``move`` is legal here: among the moves of the piece on its from-square
        alone, a fraction of the whole generation."""
        return move in self._generate(False, _BIT[move & 63])

    def noisy_moves(self) -> list[int]:
        """Legal captures (en passant included) and promotions, most valuable victim first."""
        moves = self._generate(True, BB_ALL)
        if len(moves) > 1:
            if cython.compiled:
                self._by_score(moves)
            else:
                moves.sort(key=self.move_score, reverse=True)
        return moves

    def _by_score(self, moves: list[int]) -> None:
        """Sort ``moves`` in place by :meth:`move_score`, highest first, ties in their
        order: the pure build's ``sort(key=..., reverse=True)`` as an insertion sort on C
        arrays (a position has a handful of captures), with no call through Python."""
        n = len(moves)
        for i in range(n):
            _score_moves[i] = moves[i]
            _score_keys[i] = self.move_score(_score_moves[i])
        for i in range(1, n):
            k, m = _score_keys[i], _score_moves[i]
            j = i - 1
            while j >= 0 and _score_keys[j] < k:
                _score_keys[j + 1], _score_moves[j + 1] = _score_keys[j], _score_moves[j]
                j -= 1
            _score_keys[j + 1], _score_moves[j + 1] = k, m
        for i in range(n):
            moves[i] = _score_moves[i]

    def _generate(self, noisy: bool, only: int) -> list[int]:
        """The legal moves (the noisy ones only if ``noisy``) of the pieces on ``only``."""
        bb = self.bb
        us = self.turn
        o = us << 3
        t = o ^ 8
        own = bb[o]
        opp = bb[t]
        occ = own | opp
        kbit = bb[o | KING]
        ksq = msb(kbit)
        t_rq = bb[t | ROOK] | bb[t | QUEEN]
        t_bq = bb[t | BISHOP] | bb[t | QUEEN]
        t_n = bb[t | KNIGHT]
        t_p = bb[t | PAWN]
        patt = _PAWN_ATT[us]

        if self._checkers_known:
            checkers = self._checkers
        else:
            checkers = (_KNIGHT[ksq] & t_n) | (patt[ksq] & t_p)
            if t_rq & _ROOK_RAYS[ksq]:
                checkers |= rook_attacks(ksq, occ) & t_rq
            if t_bq & _BISHOP_RAYS[ksq]:
                checkers |= bishop_attacks(ksq, occ) & t_bq
            self._checkers = checkers
            self._checkers_known = True

        moves: list[int] = []
        not_own = ~own & BB_ALL

        # King moves: each destination tested with the king lifted off the board,
        # so that it cannot hide behind itself from a slider.
        dests = _KING[ksq] & (opp if noisy else not_own) if kbit & only else 0
        if dests:
            occ_k = occ ^ kbit
            t_k = bb[t | KING]
            safe = 0
            while dests:
                to = lsb(dests)
                low = dests & -dests
                dests ^= low
                if _KNIGHT[to] & t_n or patt[to] & t_p or _KING[to] & t_k:
                    continue
                if t_rq & _ROOK_RAYS[to] and rook_attacks(to, occ_k) & t_rq:
                    continue
                if t_bq & _BISHOP_RAYS[to] and bishop_attacks(to, occ_k) & t_bq:
                    continue
                safe |= low
            if safe:
                _add_moves(moves, ksq, safe)

        if checkers:
            if checkers & (checkers - 1):
                return moves
            target = _BETWEEN[ksq][lsb(checkers)] | checkers
        else:
            target = not_own
            if self.castling and not noisy and kbit & only:
                self._castling_moves(moves, occ)

        # Absolute pins: a lone own piece between the king and an enemy slider.
        pinned = 0
        snipers = (_ROOK_RAYS[ksq] & t_rq) | (_BISHOP_RAYS[ksq] & t_bq)
        while snipers:
            blockers = _BETWEEN[ksq][lsb(snipers)] & occ
            snipers &= snipers - 1
            if blockers & own and not blockers & (blockers - 1):
                pinned |= blockers

        piece_target = target & opp if noisy else target
        free = ~pinned & only
        pinned &= only

        pieces = bb[o | KNIGHT] & free
        while pieces:
            frm = lsb(pieces)
            pieces &= pieces - 1
            dests = _KNIGHT[frm] & piece_target
            if dests:
                _add_moves(moves, frm, dests)

        pieces = (bb[o | BISHOP] | bb[o | QUEEN]) & free
        while pieces:
            frm = lsb(pieces)
            pieces &= pieces - 1
            dests = bishop_attacks(frm, occ) & piece_target
            if dests:
                _add_moves(moves, frm, dests)

        pieces = (bb[o | ROOK] | bb[o | QUEEN]) & free
        while pieces:
            frm = lsb(pieces)
            pieces &= pieces - 1
            dests = rook_attacks(frm, occ) & piece_target
            if dests:
                _add_moves(moves, frm, dests)

        pawns = bb[o | PAWN]
        if pawns & free:
            _pawn_moves(moves, pawns & free, us, occ, opp, target, noisy)

        # A pinned piece moves only along its pin line, and never out of check.
        if pinned and not checkers:
            board = self.board
            while pinned:
                frm = lsb(pinned)
                low = pinned & -pinned
                pinned ^= low
                ray = _LINE[ksq][frm]
                pt = board[frm] & 7
                if pt == PAWN:
                    _pawn_moves(moves, low, us, occ, opp, target & ray, noisy)
                    continue
                if pt == KNIGHT:
                    continue
                dests = 0
                if pt != ROOK:
                    dests = bishop_attacks(frm, occ)
                if pt != BISHOP:
                    dests |= rook_attacks(frm, occ)
                dests &= piece_target & ray
                if dests:
                    _add_moves(moves, frm, dests)

        ep = self._ep
        if ep >= 0:
            capturers = _PAWN_ATT[us ^ 1][ep] & pawns & only
            while capturers:
                frm = lsb(capturers)
                capturers &= capturers - 1
                if self._ep_legal(frm, ep):
                    moves.append(frm | ep << 6 | EN_PASSANT)
        return moves

    def _castling_moves(self, moves: list[int], occ: int) -> None:
        """Castling for the side to move, known not to be in check."""
        if not self._standard:
            self._castling_moves_960(moves, occ)
            return
        rights = self.castling
        them = self.turn ^ 1
        if self.turn == 0:
            if rights & WK and not occ & 0x60 and not self._attackers(them, 5, occ) \
                    and not self._attackers(them, 6, occ):
                moves.append(4 | 6 << 6 | CASTLE)
            if rights & WQ and not occ & 0x0E and not self._attackers(them, 3, occ) \
                    and not self._attackers(them, 2, occ):
                moves.append(4 | 2 << 6 | CASTLE)
        else:
            if rights & BK and not occ & 0x6000000000000000 and not self._attackers(them, 61, occ) \
                    and not self._attackers(them, 62, occ):
                moves.append(60 | 62 << 6 | CASTLE)
            if rights & BQ and not occ & 0x0E00000000000000 and not self._attackers(them, 59, occ) \
                    and not self._attackers(them, 58, occ):
                moves.append(60 | 58 << 6 | CASTLE)

    def _castling_moves_960(self, moves: list[int], occ: int) -> None:
        """Castling with the king and rooks on any files (python-chess's conditions):
        every square the king or rook passes or lands on is empty but for those two,
        no square of the king's way is attacked, and the king's destination is not
        attacked once the rook stands beside it."""
        us = self.turn
        them = us ^ 1
        rights = self.castling >> 2 * us & 3
        kbit = self.bb[us << 3 | KING]
        ksq = msb(kbit)
        base = 56 if us else 0
        for side in range(2):
            if not rights >> side & 1:
                continue
            kt = base + (6 if side == 0 else 2)
            rt = base + (5 if side == 0 else 3)
            rsq = self._rooks[2 * us + side]
            rest = occ ^ kbit ^ _BIT[rsq]
            if rest & (_BETWEEN[ksq][kt] | _BETWEEN[rsq][rt] | _BIT[kt] | _BIT[rt]):
                continue
            way = _BETWEEN[ksq][kt]
            lifted = occ ^ kbit
            attacked = False
            while way:
                if self._attackers(them, lsb(way), lifted):
                    attacked = True
                    break
                way &= way - 1
            if not attacked and not self._attackers(them, kt, rest | _BIT[rt]):
                moves.append(ksq | kt << 6 | CASTLE)

    def rook_of(self, move: int) -> int:
        """The square of the rook a castling move takes along."""
        to = move >> 6 & 63
        return self._rooks[(2 if to >= 56 else 0) + (to & 7 != 6)]

    def is_noisy(self, move: int) -> bool:
        # A Chess960 castle may land on its own rook or stay on the king's square.
        return (self.board[move >> 6 & 63] != 0 and not move & CASTLE) or move & (EN_PASSANT | 7 << PROMO_SHIFT) != 0

    def move_score(self, move: int) -> int:
        """MVV-LVA for captures and promotions (above every quiet move), else the
        middlegame PST gain of the move."""
        board = self.board
        frm = move & 63
        to = move >> 6 & 63
        victim = board[to]
        if victim and not move & CASTLE or move & (EN_PASSANT | 7 << PROMO_SHIFT):
            score = 100_000 + 10 * _VALUE[victim] - _VALUE[board[frm]]
            if move & EN_PASSANT:
                score += 10 * _VALUE[PAWN]
            return score + _VALUE[move >> PROMO_SHIFT & 7] * 10
        pc = board[frm]
        gain = _MG[pc][to] - _MG[pc][frm]
        return gain if pc < 8 else -gain

    def see_ge(self, move: int, threshold: int) -> bool:
        """Static exchange evaluation: does ``move`` win at least ``threshold``
        centipawns once every piece that can recapture on its square has, each side
        taking with its least valuable piece and free to stop? Sliders behind the
        captured pieces join in (x-rays); pins are ignored. Castling, en passant and
        promotions count as an even exchange."""
        if move & SPECIAL:
            return threshold <= 0
        bb = self.bb
        board = self.board
        frm = move & 63
        to = move >> 6 & 63
        # swap: what the side to move is still short of the threshold, as the exchange goes.
        swap = _VALUE[board[to]] - threshold
        if swap < 0:
            return False
        swap = _VALUE[board[frm]] - swap
        if swap <= 0:
            return True
        occ = (bb[0] | bb[8]) ^ _BIT[frm] ^ _BIT[to]
        attackers = self._attackers(0, to, occ) | self._attackers(1, to, occ)
        bq = bb[BISHOP] | bb[QUEEN] | bb[8 | BISHOP] | bb[8 | QUEEN]
        rq = bb[ROOK] | bb[QUEEN] | bb[8 | ROOK] | bb[8 | QUEEN]
        stm = board[frm] >> 3
        res = 1
        while True:
            stm ^= 1
            attackers &= occ
            mine = attackers & bb[stm << 3]
            if not mine:
                break
            res ^= 1
            pt = PAWN
            while pt < KING and not mine & bb[stm << 3 | pt]:
                pt += 1
            if pt == KING:
                # The king may take last only if nothing can take it back.
                return (res ^ 1) != 0 if attackers & bb[(stm ^ 1) << 3] else res != 0
            swap = _VALUE[pt] - swap
            if swap < res:
                break
            least = mine & bb[stm << 3 | pt]
            occ ^= least & -least
            if pt == PAWN or pt == BISHOP or pt == QUEEN:
                attackers |= bishop_attacks(to, occ) & bq
            if pt == ROOK or pt == QUEEN:
                attackers |= rook_attacks(to, occ) & rq
        return res != 0

    # -- push / pop ------------------------------------------------------------------

    def _save(self) -> None:
        """Snapshot the state for ``pop``, in the next slot of the stack."""
        n = self._ply
        if n == len(self._stack):
            self._stack.append(_Snapshot())
        s = self._stack[n]
        s.bb[:] = self.bb
        s.board[:] = self.board
        s.turn = self.turn
        s.castling = self.castling
        s.ep = self._ep
        s.halfmove = self.halfmove
        s.fullmove = self.fullmove
        s.key = self.key
        s.mg = self.mg
        s.eg = self.eg
        s.phase = self.phase
        s.null_plies = self.null_plies
        s.checkers = self._checkers
        s.checkers_known = self._checkers_known
        self._ply = n + 1
        if self._nn is not None:
            self._nn.push()

    def pop(self) -> None:
        """Undo the last ``push`` or ``push_null``."""
        n = self._ply - 1
        s = self._stack[n]
        self.bb[:] = s.bb
        self.board[:] = s.board
        self.turn = s.turn
        self.castling = s.castling
        self._ep = s.ep
        self.halfmove = s.halfmove
        self.fullmove = s.fullmove
        self.key = s.key
        self.mg = s.mg
        self.eg = s.eg
        self.phase = s.phase
        self.null_plies = s.null_plies
        self._checkers = s.checkers
        self._checkers_known = s.checkers_known
        self._ply = n
        if self._nn is not None:
            self._nn_pop()

    def push(self, move: int) -> None:
        """Play a legal move; ``pop`` restores the snapshot taken here."""
        self._save()
        if move & CASTLE:
            self._push_castle(move)
            return
        bb = self.bb
        board = self.board
        key = self.key
        frm = move & 63
        to = move >> 6 & 63
        pc = board[frm]
        victim = board[to]
        us = self.turn
        fb = _BIT[frm]
        tb = _BIT[to]
        bb[pc] ^= fb | tb
        bb[pc & 8] ^= fb | tb
        board[frm] = 0
        board[to] = pc
        key ^= _ZT ^ _ZP[pc][frm] ^ _ZP[pc][to]
        mg = self.mg + _MG[pc][to] - _MG[pc][frm]
        eg = self.eg + _EG[pc][to] - _EG[pc][frm]
        halfmove = self.halfmove + 1
        nn = self._nn
        if nn is not None:
            nn.sub(_NN[0][pc][frm], _NN[1][pc][frm])
            nn.add(_NN[0][pc][to], _NN[1][pc][to])
            if victim:
                nn.sub(_NN[0][victim][to], _NN[1][victim][to])
        if victim:
            bb[victim] ^= tb
            bb[victim & 8] ^= tb
            key ^= _ZP[victim][to]
            mg -= _MG[victim][to]
            eg -= _EG[victim][to]
            self.phase -= _PHASE[victim]
            halfmove = 0
        if self._ep >= 0:
            key ^= _Z_EP[self._ep & 7]
            self._ep = -1
        double = False
        if pc & 7 == PAWN:
            halfmove = 0
            if move & SPECIAL:
                if move & EN_PASSANT:
                    sq = to ^ 8
                    victim = pc ^ 8
                    bb[victim] ^= _BIT[sq]
                    bb[victim & 8] ^= _BIT[sq]
                    board[sq] = 0
                    key ^= _ZP[victim][sq]
                    mg -= _MG[victim][sq]
                    eg -= _EG[victim][sq]
                    if nn is not None:
                        nn.sub(_NN[0][victim][sq], _NN[1][victim][sq])
                else:
                    promo = (pc & 8) | move >> PROMO_SHIFT & 7
                    bb[pc] ^= tb
                    bb[promo] ^= tb
                    board[to] = promo
                    key ^= _ZP[pc][to] ^ _ZP[promo][to]
                    mg += _MG[promo][to] - _MG[pc][to]
                    eg += _EG[promo][to] - _EG[pc][to]
                    self.phase += _PHASE[promo]
                    if nn is not None:
                        nn.sub(_NN[0][pc][to], _NN[1][pc][to])
                        nn.add(_NN[0][promo][to], _NN[1][promo][to])
            elif to - frm == 16 or frm - to == 16:
                double = True
        rights = self.castling
        if rights:
            new = rights & self._keep[frm] & self._keep[to]
            if new != rights:
                key ^= self._zrights[rights] ^ self._zrights[new]
                self.castling = new
        self.turn = us ^ 1
        if us:
            self.fullmove += 1
        self.halfmove = halfmove
        self.null_plies += 1
        self.mg = mg
        self.eg = eg
        self._checkers_known = False
        if double:
            ep = (frm + to) >> 1
            if _PAWN_ATT[us][ep] & bb[(us ^ 1) << 3 | PAWN] and self._ep_available(ep):
                self._ep = ep
                key ^= _Z_EP[ep & 7]
        self.key = key

    def _push_castle(self, move: int) -> None:
        """The rest of :meth:`push` for castling: king to the g or c file, rook beside it."""
        us = self.turn
        frm = move & 63
        to = move >> 6 & 63
        king = us << 3 | KING
        rook = us << 3 | ROOK
        rf = self.rook_of(move)
        rt = to - 1 if to & 7 == 6 else to + 1
        key = self.key
        # Lift both pieces before placing either: in Chess960 the squares may overlap.
        key ^= self._lift(king, frm) ^ self._lift(rook, rf)
        key ^= self._place(king, to) ^ self._place(rook, rt)
        if self._ep >= 0:
            key ^= _Z_EP[self._ep & 7]
            self._ep = -1
        rights = self.castling
        new = rights & (12 if us == 0 else 3)
        key ^= self._zrights[rights] ^ self._zrights[new]
        self.castling = new
        self.key = key ^ _ZT
        self.turn = us ^ 1
        if us:
            self.fullmove += 1
        self.halfmove += 1
        self.null_plies += 1
        self._checkers_known = False

    def _lift(self, pc: int, sq: int) -> int:
        """Take ``pc`` off ``sq`` (material and bitboards); its Zobrist key."""
        self.bb[pc] ^= _BIT[sq]
        self.bb[pc & 8] ^= _BIT[sq]
        self.board[sq] = 0
        self.mg -= _MG[pc][sq]
        self.eg -= _EG[pc][sq]
        if self._nn is not None:
            self._nn.sub(_NN[0][pc][sq], _NN[1][pc][sq])
        return _ZP[pc][sq]

    def _place(self, pc: int, sq: int) -> int:
        """Put ``pc`` on the empty ``sq`` (material and bitboards); its Zobrist key."""
        self.bb[pc] ^= _BIT[sq]
        self.bb[pc & 8] ^= _BIT[sq]
        self.board[sq] = pc
        self.mg += _MG[pc][sq]
        self.eg += _EG[pc][sq]
        if self._nn is not None:
            self._nn.add(_NN[0][pc][sq], _NN[1][pc][sq])
        return _ZP[pc][sq]

    def push_null(self) -> None:
        """Pass the turn (null-move pruning); ``pop`` undoes it."""
        self._save()
        key = self.key
        if self._ep >= 0:
            key ^= _Z_EP[self._ep & 7]
            self._ep = -1
        self.key = key ^ _ZT
        self.turn ^= 1
        self.halfmove += 1
        self.null_plies = 0
        self._checkers_known = False

    def null_move_allowed(self) -> bool:
        """The side to move has a piece other than king and pawns."""
        bb = self.bb
        o = self.turn << 3
        return (bb[o | KNIGHT] | bb[o | BISHOP] | bb[o | ROOK] | bb[o | QUEEN]) != 0

    # -- results ---------------------------------------------------------------------

    def _repetitions(self, enough: int) -> int:
        """How many earlier positions (up to ``enough``) equal this one, looking back
        no further than the last irreversible move or null move."""
        n = self._ply
        back = min(self.halfmove, self.null_plies, n)
        key = self.key
        found = 0
        for d in range(4, back + 1, 2):
            s = self._stack[n - d]
            if s.key == key:
                found += 1
                if found >= enough:
                    break
        return found

    def is_repetition(self) -> bool:
        return self.halfmove >= 4 and self._repetitions(1) > 0

    def is_insufficient_material(self) -> bool:
        """python-chess's rule: neither side can possibly mate (KK, KBK, KNK, and kings
        with bishops all on one square colour)."""
        bb = self.bb
        if bb[PAWN] | bb[8 | PAWN] | bb[ROOK] | bb[8 | ROOK] | bb[QUEEN] | bb[8 | QUEEN]:
            return False
        knights = bb[KNIGHT] | bb[8 | KNIGHT]
        bishops = bb[BISHOP] | bb[8 | BISHOP]
        if knights:
            # A lone knight against a bare king; anything more allows a (self)mate.
            return not bishops and popcount(knights) == 1
        return not bishops & _LIGHT or not bishops & _DARK

    def outcome(self) -> int | None:
        """0 for a draw by the fifty-move rule (unless mated), insufficient material
        or threefold repetition; ``None`` otherwise (mate and stalemate are found by
        an empty move list, see :meth:`no_moves_value`)."""
        if self.halfmove >= 100 and (self.legal_moves() or not self.checkers()):
            return 0
        if self.is_insufficient_material():
            return 0
        if self.halfmove >= 8 and self._repetitions(2) >= 2:
            return 0
        return None

    def no_moves_value(self) -> int:
        return -1 if self.checkers() else 0

    # -- evaluation ------------------------------------------------------------------

    def correction_key(self) -> int:
        """The pawns' key for the search's correction history: both colours' pawn
        bitboards mixed by multiplication (wrapping at 64 bits), its top 24 bits."""
        mixed = (self.bb[PAWN] * _MIX_WHITE ^ self.bb[8 | PAWN] * _MIX_BLACK) & BB_ALL
        return mixed >> 40

    def evaluate(self) -> int:
        """Tapered material, PST and positional terms, in centipawns for the side to move;
        the network's score instead when one is attached."""
        if self._nn is not None:
            return self._nn.evaluate(self.turn)
        value = eval_probe(self.key)
        if value == NO_EVAL:
            value = self._finish(self.mg, self.eg, self.phase)
            eval_store(self.key, value)
        return value

    def evaluate_scratch(self) -> int:
        """:meth:`evaluate` with material and PST recomputed from the mailbox."""
        mg, eg, phase = material_scratch(self.board)
        return self._finish(mg, eg, phase)

    def _finish(self, mg: int, eg: int, phase: int) -> int:
        bb = self.bb
        p_mg, p_eg = positional_terms(bb)
        phase = min(phase, MAX_PHASE)
        score = (mg + p_mg) * phase + (eg + p_eg) * (MAX_PHASE - phase)
        if not score:
            return 0
        # Round toward zero so that colour-mirrored positions score exactly opposite.
        value = abs(score) * scale_of(bb, score) // (64 * MAX_PHASE)
        return -value if (score < 0) != (self.turn == 1) else value

    # -- the network --------------------------------------------------------------------

    def _nn_view(self, view: int) -> list[int]:
        board = self.board
        return [_NN[view][board[sq]][sq] for sq in range(64) if board[sq]]

    def compute_key(self) -> int:
        key = _ZT if self.turn else 0
        for sq in range(64):
            key ^= _ZP[self.board[sq]][sq]
        key ^= self._zrights[self.castling]
        if self._ep >= 0:
            key ^= _Z_EP[self._ep & 7]
        return key

    # -- pieces ----------------------------------------------------------------------

    def pieces(self, color: int) -> list[tuple[int, int]]:
        """``(piece_type, square)`` pairs of ``color``'s pieces (python-chess numbering)."""
        o = color << 3
        board = self.board
        return [(board[sq] & 7, sq) for sq in range(64) if board[sq] and board[sq] & 8 == o]

    def piece_count(self) -> int:
        return popcount(self.bb[0] | self.bb[8])

    def _copy(self) -> Board:
        other = type(self)(self.game, self.board, self.turn, self.castling, self.ep,
                           self.halfmove, self.fullmove, self.rule)
        other.null_plies = self.null_plies
        for i in range(self._ply):
            other._stack.append(self._stack[i].copy())
        other._ply = self._ply
        return other
