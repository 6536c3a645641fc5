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

from engine.position import Position

from games.zobrist import keys as _zobrist_keys

from .bitboards import (BB_FILE_A, BB_FILE_H, BB_LIGHT_SQUARES, BB_DARK_SQUARES, BB_RANK_3,
                        BB_RANK_6, BB_RANK_8, BB_RANK_1, BETWEEN, BISHOP, BISHOP_RAYS,
                        DIAG_ATTACKS, DIAG_MASKS, FILE_ATTACKS, FILE_MASKS, KING, KING_ATTACKS,
                        KNIGHT, KNIGHT_ATTACKS, LINE, PAWN, PAWN_ATTACKS, QUEEN, RANK_ATTACKS,
                        RANK_MASKS, ROOK, ROOK_RAYS)
from .evaluate import EG, MAX_PHASE, MG, PHASE, VALUE, material_scratch, positional, scale
from .evaluate import EVAL_CACHE as _EVAL_CACHE

CASTLE = 1 << 15
EN_PASSANT = 1 << 16
SPECIAL = CASTLE | EN_PASSANT | 7 << 12
PROMO_SHIFT = 12

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

_PROMO_PIECES = (QUEEN, KNIGHT, ROOK, BISHOP)
_NOT_A = ~BB_FILE_A
_NOT_H = ~BB_FILE_H
_NO_NULL = 1 << 20


# Move lists for a whole set of destinations at once, cached by
# ``destinations | origin << 64`` (pieces) or ``destinations | (delta + 32) << 64``
# (pawns, origin = destination - delta): one dict hit replaces a loop per move.
_SPREAD: dict[int, list[int]] = {}
_PAWN_SPREAD: dict[int, list[int]] = {}
_SPREAD_LIMIT = 1 << 18


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


class Board(Position):
    """A chess position with its move history (for repetitions), without text I/O
    (see :class:`games.chess.ChessPosition`); ``turn`` 0 is white.
    """

    __slots__ = ("game", "bb", "board", "castling", "ep", "halfmove", "fullmove",
                 "mg", "eg", "phase", "null_plies", "rule", "_checkers", "_stack", "_keys")

    def __init__(self, game, board: list[int], turn: int, castling: int, ep: int | None,
                 halfmove: int, fullmove: int, rule: tuple = STANDARD_RULE):
        self.game = game
        self.rule = rule
        self.board = board
        bb = [0] * 16
        for sq, pc in enumerate(board):
            if pc:
                bb[pc] |= 1 << sq
                bb[pc & 8] |= 1 << sq
        self.bb = bb
        self.turn = turn
        self.castling = castling
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.null_plies = _NO_NULL
        self.mg, self.eg, self.phase = material_scratch(board)
        self._checkers = -1
        self._stack: list[tuple] = []
        self._keys: list[int] = []
        self.ep = ep if ep is not None and self._ep_available(ep) else None
        self.key = self.compute_key()

    # -- attacks ---------------------------------------------------------------------

    def _attackers(self, color: int, sq: int, occ: int) -> int:
        """Pieces of ``color`` attacking ``sq`` given occupancy ``occ``."""
        bb = self.bb
        o = color << 3
        att = (KNIGHT_ATTACKS[sq] & bb[o | KNIGHT]) | (KING_ATTACKS[sq] & bb[o | KING]) \
            | (PAWN_ATTACKS[color ^ 1][sq] & bb[o | PAWN])
        rq = (bb[o | ROOK] | bb[o | QUEEN]) & occ
        if rq & ROOK_RAYS[sq]:
            att |= (RANK_ATTACKS[sq][RANK_MASKS[sq] & occ] | FILE_ATTACKS[sq][FILE_MASKS[sq] & occ]) & rq
        bq = (bb[o | BISHOP] | bb[o | QUEEN]) & occ
        if bq & BISHOP_RAYS[sq]:
            att |= DIAG_ATTACKS[sq][DIAG_MASKS[sq] & occ] & bq
        return att

    def checkers(self) -> int:
        """Bitboard of the pieces giving check to the side to move."""
        if self._checkers < 0:
            us = self.turn
            bb = self.bb
            self._checkers = self._attackers(us ^ 1, bb[us << 3 | KING].bit_length() - 1, bb[0] | bb[8])
        return self._checkers

    def in_check(self) -> bool:
        return bool(self.checkers())

    def can_stand_pat(self) -> bool:
        return not self.checkers()

    def _ep_legal(self, frm: int, ep: int) -> bool:
        """Whether the side to move's pawn on ``frm`` may capture en passant on ``ep``."""
        bb = self.bb
        us = self.turn
        victim = 1 << (ep ^ 8)
        occ = ((bb[0] | bb[8]) ^ (1 << frm) ^ victim) | 1 << ep
        ksq = bb[us << 3 | KING].bit_length() - 1
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
        if not bb[them | PAWN] >> pushed & 1 or (bb[0] | bb[8]) >> ep & 1 or (bb[0] | bb[8]) >> origin & 1:
            return False
        capturers = PAWN_ATTACKS[us ^ 1][ep] & bb[us << 3 | PAWN]
        while capturers:
            low = capturers & -capturers
            capturers ^= low
            if self._ep_legal(low.bit_length() - 1, ep):
                return True
        return False

    # -- move generation -------------------------------------------------------------

    def legal_moves(self) -> list[int]:
        """All legal moves."""
        return self._generate(False)

    def noisy_moves(self) -> list[int]:
        """Legal captures (en passant included) and promotions, most valuable victim first."""
        moves = self._generate(True)
        if len(moves) > 1:
            moves.sort(key=self.move_score, reverse=True)
        return moves

    def _generate(self, noisy: bool) -> list[int]:
        bb = self.bb
        us = self.turn
        o = us << 3
        t = o ^ 8
        own = bb[o]
        opp = bb[t]
        occ = own | opp
        kbit = bb[o | KING]
        ksq = kbit.bit_length() - 1
        t_rq = bb[t | ROOK] | bb[t | QUEEN]
        t_bq = bb[t | BISHOP] | bb[t | QUEEN]
        t_n = bb[t | KNIGHT]
        t_p = bb[t | PAWN]
        patt = PAWN_ATTACKS[us]

        checkers = self._checkers
        if checkers < 0:
            checkers = (KNIGHT_ATTACKS[ksq] & t_n) | (patt[ksq] & t_p)
            if t_rq & ROOK_RAYS[ksq]:
                checkers |= (RANK_ATTACKS[ksq][RANK_MASKS[ksq] & occ]
                             | FILE_ATTACKS[ksq][FILE_MASKS[ksq] & occ]) & t_rq
            if t_bq & BISHOP_RAYS[ksq]:
                checkers |= DIAG_ATTACKS[ksq][DIAG_MASKS[ksq] & occ] & t_bq
            self._checkers = checkers

        moves: list[int] = []
        add = moves.append
        spread = _SPREAD.get

        # King moves: each destination tested with the king lifted off the board,
        # so that it cannot hide behind itself from a slider.
        dests = KING_ATTACKS[ksq] & (opp if noisy else ~own)
        if dests:
            occ_k = occ ^ kbit
            t_k = bb[t | KING]
            safe = 0
            while dests:
                low = dests & -dests
                dests ^= low
                to = low.bit_length() - 1
                if KNIGHT_ATTACKS[to] & t_n or patt[to] & t_p or KING_ATTACKS[to] & t_k:
                    continue
                if t_rq & ROOK_RAYS[to] and (RANK_ATTACKS[to][RANK_MASKS[to] & occ_k]
                                             | FILE_ATTACKS[to][FILE_MASKS[to] & occ_k]) & t_rq:
                    continue
                if t_bq & BISHOP_RAYS[to] and DIAG_ATTACKS[to][DIAG_MASKS[to] & occ_k] & t_bq:
                    continue
                safe |= low
            if safe:
                moves += _spread(safe | ksq << 64)

        if checkers:
            if checkers & (checkers - 1):
                return moves
            target = BETWEEN[ksq][checkers.bit_length() - 1] | checkers
        else:
            target = ~own
            if self.castling and not noisy:
                self._castling_moves(add, occ)

        # Absolute pins: a lone own piece between the king and an enemy slider.
        pinned = 0
        snipers = (ROOK_RAYS[ksq] & t_rq) | (BISHOP_RAYS[ksq] & t_bq)
        while snipers:
            low = snipers & -snipers
            snipers ^= low
            blockers = BETWEEN[ksq][low.bit_length() - 1] & occ
            if blockers & own and not blockers & (blockers - 1):
                pinned |= blockers

        piece_target = target & opp if noisy else target
        free = ~pinned

        pieces = bb[o | KNIGHT] & free
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            frm = low.bit_length() - 1
            dests = KNIGHT_ATTACKS[frm] & piece_target
            if dests:
                key = dests | frm << 64
                batch = spread(key)
                moves += batch if batch is not None else _spread(key)

        pieces = (bb[o | BISHOP] | bb[o | QUEEN]) & free
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            frm = low.bit_length() - 1
            dests = DIAG_ATTACKS[frm][DIAG_MASKS[frm] & occ] & piece_target
            if dests:
                key = dests | frm << 64
                batch = spread(key)
                moves += batch if batch is not None else _spread(key)

        pieces = (bb[o | ROOK] | bb[o | QUEEN]) & free
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            frm = low.bit_length() - 1
            dests = (RANK_ATTACKS[frm][RANK_MASKS[frm] & occ]
                     | FILE_ATTACKS[frm][FILE_MASKS[frm] & occ]) & piece_target
            if dests:
                key = dests | frm << 64
                batch = spread(key)
                moves += batch if batch is not None else _spread(key)

        pawns = bb[o | PAWN]
        if pawns & free:
            self._pawn_moves(moves, pawns & free, us, occ, opp, target, noisy)

        # A pinned piece moves only along its pin line, and never out of check.
        if pinned and not checkers:
            board = self.board
            while pinned:
                low = pinned & -pinned
                pinned ^= low
                frm = low.bit_length() - 1
                ray = LINE[ksq][frm]
                pt = board[frm] & 7
                if pt == PAWN:
                    self._pawn_moves(moves, low, us, occ, opp, target & ray, noisy)
                    continue
                if pt == KNIGHT:
                    continue
                dests = 0
                if pt != ROOK:
                    dests = DIAG_ATTACKS[frm][DIAG_MASKS[frm] & occ]
                if pt != BISHOP:
                    dests |= RANK_ATTACKS[frm][RANK_MASKS[frm] & occ] | FILE_ATTACKS[frm][FILE_MASKS[frm] & occ]
                dests &= piece_target & ray
                if dests:
                    moves += _spread(dests | frm << 64)

        ep = self.ep
        if ep is not None:
            capturers = PAWN_ATTACKS[us ^ 1][ep] & pawns
            while capturers:
                low = capturers & -capturers
                capturers ^= low
                frm = low.bit_length() - 1
                if self._ep_legal(frm, ep):
                    add(frm | ep << 6 | EN_PASSANT)
        return moves

    @staticmethod
    def _pawn_moves(moves: list[int], pawns: int, us: int, occ: int, opp: int, target: int, noisy: bool) -> None:
        """Pushes and captures of ``pawns`` onto ``target`` (en passant excepted)."""
        add = moves.append
        empty = ~occ
        if us == 0:
            one = (pawns << 8) & empty
            two = ((one & BB_RANK_3) << 8) & empty & target
            left = ((pawns & _NOT_A) << 7) & opp & target
            right = ((pawns & _NOT_H) << 9) & opp & target
            step, last = 8, BB_RANK_8
        else:
            one = (pawns >> 8) & empty
            two = ((one & BB_RANK_6) >> 8) & empty & target
            left = ((pawns & _NOT_A) >> 9) & opp & target
            right = ((pawns & _NOT_H) >> 7) & opp & target
            step, last = -8, BB_RANK_1
        one &= target
        for dests, delta in ((one, step), (left, step - 1), (right, step + 1), (two, 2 * step)):
            promos = dests & last
            dests ^= promos
            while promos:
                low = promos & -promos
                promos ^= low
                to = low.bit_length() - 1
                base = (to - delta) | to << 6
                for pt in _PROMO_PIECES:
                    add(base | pt << PROMO_SHIFT)
            if dests and not (noisy and delta in (step, 2 * step)):
                key = dests | (delta + 32) << 64
                batch = _PAWN_SPREAD.get(key)
                moves += batch if batch is not None else _pawn_spread(key)

    def _castling_moves(self, add, occ: int) -> None:
        """Castling for the side to move, known not to be in check."""
        if self.rule is not STANDARD_RULE:
            self._castling_moves_960(add, occ)
            return
        rights = self.castling
        them = self.turn ^ 1
        if self.turn == 0:
            if rights & WK and not occ & 0x60 and not self._attackers(them, 5, occ) \
                    and not self._attackers(them, 6, occ):
                add(4 | 6 << 6 | CASTLE)
            if rights & WQ and not occ & 0x0E and not self._attackers(them, 3, occ) \
                    and not self._attackers(them, 2, occ):
                add(4 | 2 << 6 | CASTLE)
        else:
            if rights & BK and not occ & (0x60 << 56) and not self._attackers(them, 61, occ) \
                    and not self._attackers(them, 62, occ):
                add(60 | 62 << 6 | CASTLE)
            if rights & BQ and not occ & (0x0E << 56) and not self._attackers(them, 59, occ) \
                    and not self._attackers(them, 58, occ):
                add(60 | 58 << 6 | CASTLE)

    def _castling_moves_960(self, add, occ: int) -> None:
        """Castling with the king and rooks on any files (python-chess's conditions):
        every square the king or rook passes or lands on is empty but for those two,
        no square of the king's way is attacked, and the king's destination is not
        attacked once the rook stands beside it."""
        us = self.turn
        them = us ^ 1
        rights = self.castling >> 2 * us & 3
        rooks = self.rule[1]
        kbit = self.bb[us << 3 | KING]
        ksq = kbit.bit_length() - 1
        base = 56 if us else 0
        for side, kto, rto in ((0, 6, 5), (1, 2, 3)):
            if not rights >> side & 1:
                continue
            rsq = rooks[2 * us + side]
            kt, rt = base + kto, base + rto
            rest = occ ^ kbit ^ 1 << rsq
            if rest & (BETWEEN[ksq][kt] | BETWEEN[rsq][rt] | 1 << kt | 1 << rt):
                continue
            way = BETWEEN[ksq][kt]
            lifted = occ ^ kbit
            while way:
                low = way & -way
                way ^= low
                if self._attackers(them, low.bit_length() - 1, lifted):
                    break
            else:
                if not self._attackers(them, kt, rest | 1 << rt):
                    add(ksq | kt << 6 | CASTLE)

    def rook_of(self, move: int) -> int:
        """The square of the rook a castling move takes along."""
        to = move >> 6 & 63
        return self.rule[1][(2 if to >= 56 else 0) + (to & 7 != 6)]

    def is_noisy(self, move: int) -> bool:
        # A Chess960 castle may land on its own rook or stay on the king's square.
        return bool(self.board[move >> 6 & 63] and not move & CASTLE or move & (EN_PASSANT | 7 << PROMO_SHIFT))

    def move_score(self, move: int) -> int:
        """MVV-LVA for captures and promotions (above every quiet move), else the
        middlegame PST gain of the move."""
        board = self.board
        frm = move & 63
        to = move >> 6 & 63
        victim = board[to]
        if victim and not move & CASTLE or move & (EN_PASSANT | 7 << PROMO_SHIFT):
            score = 100_000 + 10 * VALUE[victim] - VALUE[board[frm]]
            if move & EN_PASSANT:
                score += 10 * VALUE[PAWN]
            return score + VALUE[move >> PROMO_SHIFT & 7] * 10
        pc = board[frm]
        gain = MG[pc][to] - MG[pc][frm]
        return gain if pc < 8 else -gain

    # -- push / pop ------------------------------------------------------------------

    def push(self, move: int) -> None:
        """Play a legal move; ``pop`` restores the snapshot taken here."""
        bb = self.bb
        board = self.board
        key = self.key
        self._stack.append((bb[:], board[:], self.turn, self.castling, self.ep, self.halfmove,
                            self.fullmove, key, self.mg, self.eg, self.phase, self.null_plies,
                            self._checkers))
        self._keys.append(key)
        if move & CASTLE:
            self._push_castle(move, key)
            return
        frm = move & 63
        to = move >> 6 & 63
        pc = board[frm]
        victim = board[to]
        us = self.turn
        fb = 1 << frm
        tb = 1 << to
        bb[pc] ^= fb | tb
        bb[pc & 8] ^= fb | tb
        board[frm] = 0
        board[to] = pc
        key ^= Z_TURN ^ Z_PIECE[pc][frm] ^ Z_PIECE[pc][to]
        mg = self.mg + MG[pc][to] - MG[pc][frm]
        eg = self.eg + EG[pc][to] - EG[pc][frm]
        halfmove = self.halfmove + 1
        if victim:
            bb[victim] ^= tb
            bb[victim & 8] ^= tb
            key ^= Z_PIECE[victim][to]
            mg -= MG[victim][to]
            eg -= EG[victim][to]
            self.phase -= PHASE[victim]
            halfmove = 0
        if self.ep is not None:
            key ^= Z_EP_FILE[self.ep & 7]
            self.ep = None
        double = False
        if pc & 7 == PAWN:
            halfmove = 0
            if move & SPECIAL:
                if move & EN_PASSANT:
                    sq = to ^ 8
                    victim = pc ^ 8
                    bb[victim] ^= 1 << sq
                    bb[victim & 8] ^= 1 << sq
                    board[sq] = 0
                    key ^= Z_PIECE[victim][sq]
                    mg -= MG[victim][sq]
                    eg -= EG[victim][sq]
                else:
                    promo = (pc & 8) | move >> PROMO_SHIFT & 7
                    bb[pc] ^= tb
                    bb[promo] ^= tb
                    board[to] = promo
                    key ^= Z_PIECE[pc][to] ^ Z_PIECE[promo][to]
                    mg += MG[promo][to] - MG[pc][to]
                    eg += EG[promo][to] - EG[pc][to]
                    self.phase += PHASE[promo]
            elif to - frm == 16 or frm - to == 16:
                double = True
        rights = self.castling
        if rights:
            keep = self.rule[0]
            new = rights & keep[frm] & keep[to]
            if new != rights:
                key ^= self.rule[2][rights] ^ self.rule[2][new]
                self.castling = new
        self.turn = us ^ 1
        if us:
            self.fullmove += 1
        self.halfmove = halfmove
        self.null_plies += 1
        self.mg = mg
        self.eg = eg
        self._checkers = -1
        if double:
            ep = (frm + to) >> 1
            if PAWN_ATTACKS[us][ep] & bb[(us ^ 1) << 3 | PAWN] and self._ep_available(ep):
                self.ep = ep
                key ^= Z_EP_FILE[ep & 7]
        self.key = key

    def _push_castle(self, move: int, key: int) -> None:
        """The rest of :meth:`push` for castling: king to the g or c file, rook beside it."""
        bb = self.bb
        board = self.board
        us = self.turn
        frm = move & 63
        to = move >> 6 & 63
        king = us << 3 | KING
        rook = us << 3 | ROOK
        rf = self.rook_of(move)
        rt = to - 1 if to & 7 == 6 else to + 1
        mg, eg = self.mg, self.eg
        # Lift both pieces before placing either: in Chess960 the squares may overlap.
        for pc, sq in ((king, frm), (rook, rf)):
            bb[pc] ^= 1 << sq
            bb[pc & 8] ^= 1 << sq
            board[sq] = 0
            key ^= Z_PIECE[pc][sq]
            mg -= MG[pc][sq]
            eg -= EG[pc][sq]
        for pc, sq in ((king, to), (rook, rt)):
            bb[pc] ^= 1 << sq
            bb[pc & 8] ^= 1 << sq
            board[sq] = pc
            key ^= Z_PIECE[pc][sq]
            mg += MG[pc][sq]
            eg += EG[pc][sq]
        if self.ep is not None:
            key ^= Z_EP_FILE[self.ep & 7]
            self.ep = None
        rights = self.castling
        new = rights & (12 if us == 0 else 3)
        key ^= self.rule[2][rights] ^ self.rule[2][new]
        self.castling = new
        self.key = key ^ Z_TURN
        self.turn = us ^ 1
        if us:
            self.fullmove += 1
        self.halfmove += 1
        self.null_plies += 1
        self.mg = mg
        self.eg = eg
        self._checkers = -1

    def push_null(self) -> None:
        """Pass the turn (null-move pruning); ``pop`` undoes it."""
        key = self.key
        self._stack.append((self.bb[:], self.board[:], self.turn, self.castling, self.ep,
                            self.halfmove, self.fullmove, key, self.mg, self.eg, self.phase,
                            self.null_plies, self._checkers))
        self._keys.append(key)
        if self.ep is not None:
            key ^= Z_EP_FILE[self.ep & 7]
            self.ep = None
        self.key = key ^ Z_TURN
        self.turn ^= 1
        self.halfmove += 1
        self.null_plies = 0
        self._checkers = -1

    def pop(self) -> None:
        (self.bb, self.board, self.turn, self.castling, self.ep, self.halfmove, self.fullmove,
         self.key, self.mg, self.eg, self.phase, self.null_plies, self._checkers) = self._stack.pop()
        self._keys.pop()

    def null_move_allowed(self) -> bool:
        """The side to move has a piece other than king and pawns."""
        bb = self.bb
        o = self.turn << 3
        return bool(bb[o | KNIGHT] | bb[o | BISHOP] | bb[o | ROOK] | bb[o | QUEEN])

    # -- results ---------------------------------------------------------------------

    def _repetitions(self, enough: int) -> int:
        """How many earlier positions (up to ``enough``) equal this one, looking back
        no further than the last irreversible move or null move."""
        keys = self._keys
        back = min(self.halfmove, self.null_plies, len(keys))
        key = self.key
        found = 0
        for d in range(4, back + 1, 2):
            if keys[-d] == key:
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
            return not bishops and knights.bit_count() == 1
        return not bishops & BB_LIGHT_SQUARES or not bishops & BB_DARK_SQUARES

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

    def evaluate(self) -> int:
        """Tapered material, PST and positional terms, in centipawns for the side to move."""
        value = _EVAL_CACHE.get(self.key)
        if value is None:
            value = self._finish(self.mg, self.eg, self.phase)
            if len(_EVAL_CACHE) >= _SPREAD_LIMIT:
                _EVAL_CACHE.clear()
            _EVAL_CACHE[self.key] = value
        return value

    def evaluate_scratch(self) -> int:
        """:meth:`evaluate` with material and PST recomputed from the mailbox."""
        return self._finish(*material_scratch(self.board))

    def _finish(self, mg: int, eg: int, phase: int) -> int:
        bb = self.bb
        p_mg, p_eg = positional(bb)
        phase = min(phase, MAX_PHASE)
        score = (mg + p_mg) * phase + (eg + p_eg) * (MAX_PHASE - phase)
        if not score:
            return 0
        # Round toward zero so that colour-mirrored positions score exactly opposite.
        value = abs(score) * scale(bb, score) // (64 * MAX_PHASE)
        return -value if (score < 0) != (self.turn == 1) else value

    def compute_key(self) -> int:
        key = Z_TURN if self.turn else 0
        for sq, pc in enumerate(self.board):
            key ^= Z_PIECE[pc][sq]
        key ^= self.rule[2][self.castling]
        if self.ep is not None:
            key ^= Z_EP_FILE[self.ep & 7]
        return key

    # -- pieces ----------------------------------------------------------------------

    def pieces(self, color: int) -> list[tuple[int, int]]:
        """``(piece_type, square)`` pairs of ``color``'s pieces (python-chess numbering)."""
        o = color << 3
        return [(pc & 7, sq) for sq, pc in enumerate(self.board) if pc and pc & 8 == o]

    def piece_count(self) -> int:
        return (self.bb[0] | self.bb[8]).bit_count()

    def copy(self) -> Board:
        other = type(self).__new__(type(self))
        for name in Board.__slots__:
            setattr(other, name, getattr(self, name))
        other.turn, other.key = self.turn, self.key
        other.bb = self.bb[:]
        other.board = self.board[:]
        other._stack = [(s[0][:], s[1][:]) + s[2:] for s in self._stack]
        other._keys = self._keys[:]
        return other
