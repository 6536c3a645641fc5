"""State, make/unmake, draw rules, text and evaluation shared by both draughts games.

Move layout (a plain int)::

    bits 0-5    from square (bit index, see ``board``)
    bits 6-11   to square
    bit 12      the moving man is crowned by this move
    bits 13-47  mask of the captured pieces (bit indices shifted by 13)

A move is therefore exactly "what happens to the board": two capture sequences
that start and end on the same squares and take the same pieces are one move
(their paths differ only in the order of the jumps or, for flying kings, in the
intermediate landing squares). The path is recovered for notation by replaying
the capture search (``capture_sequences``).
"""

from __future__ import annotations

from engine.position import Position

import re
from typing import Callable, ClassVar

from engine.game import ExactConfig, GameTraits, IllegalMoveError, InvalidPositionError, Move, bits, quote
from games.draughts.board import AT, FILE, ROW, ROW_MASK, VALID
from games.zobrist import keys

PROMO = 1 << 12
#: Between the squares of a move text: one of these, nothing else.
_MOVE_SEPARATORS = re.compile(r"[-x:]")
CAP_SHIFT = 13


class DraughtsPosition(Position):
    """Base position: pieces as masks, ``occ[player]`` and ``kings`` (both colours).

    Subclasses provide ``capture_sequences()`` and ``_quiet_moves()`` (the rules
    of movement); everything else is shared.
    """

    __slots__ = ("game", "occ", "kings", "turn", "key", "clock", "_caps", "_stack")

    def __init__(self, game, occ: tuple[int, int], kings: int, turn: int, clock: int = 0):
        self.game = game
        self.occ = occ
        self.kings = kings
        self.turn = turn
        self.clock = clock   # plies since the last capture or man move
        self._caps: list[Move] | None = None
        self._stack: list[tuple] = []
        self.key = self.compute_key()

    # -- moves ---------------------------------------------------------------

    def capture_sequences(self, jumpers: int | None = None) -> list[tuple[Move, tuple[int, ...]]]:
        """Every capture sequence as ``(move, path)``, path = squares visited;
        ``jumpers`` (the ``_jumpers()`` mask) saves computing it again."""
        raise NotImplementedError

    def _quiet_moves(self) -> list[Move]:
        me = self.turn
        own = self.occ[me]
        empty = VALID & ~(own | self.occ[me ^ 1])
        kg = own & self.kings
        men = own ^ kg
        promo = self.game.promo_mask[me]
        out: list[Move] = []
        for d in self.game.man_steps[me]:
            dest = (men << d if d > 0 else men >> -d) & empty
            while dest:
                b = dest & -dest
                dest ^= b
                to = b.bit_length() - 1
                out.append((to - d) | to << 6 | (PROMO if b & promo else 0))
        if kg:
            self._king_quiet_moves(kg, empty, out)
        return out

    def _king_quiet_moves(self, kg: int, empty: int, out: list[Move]) -> None:
        """Append the non-capturing moves of the kings in mask ``kg``."""
        raise NotImplementedError

    def _jumpers(self) -> int:
        """Mask of the side to move's pieces that have a capture."""
        raise NotImplementedError

    def _captures(self) -> list[Move]:
        caps = self._caps
        if caps is None:
            jumpers = self._jumpers()
            caps = self._caps = (list(dict.fromkeys(m for m, _ in self.capture_sequences(jumpers)))
                                 if jumpers else [])
        return caps

    def legal_moves(self) -> list[Move]:
        caps = self._captures()
        return caps[:] if caps else self._quiet_moves()

    def noisy_moves(self) -> list[Move]:
        caps = self._captures()
        return sorted(caps, key=_capture_order, reverse=True) if caps else []

    def is_noisy(self, move: Move) -> bool:
        return move >> CAP_SHIFT != 0

    def move_score(self, move: Move) -> int:
        return (move >> CAP_SHIFT).bit_count() * 100 + (50 if move & PROMO else 0)

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return not self._captures()

    def push(self, move: Move) -> None:
        me = self.turn
        frm, to, cap = move & 63, move >> 6 & 63, move >> CAP_SHIFT
        bf, bt = 1 << frm, 1 << to
        occ, kings = self.occ, self.kings
        self._stack.append((occ, kings, me, self.key, self.clock, self._caps))
        g = self.game
        own = occ[me] & ~bf | bt
        opp = occ[me ^ 1]
        key = self.key ^ g.z_turn
        if kings & bf:
            kings = kings & ~bf | bt
            zk = g.z_king[me]
            key ^= zk[frm] ^ zk[to]
            clock = self.clock + 1
        else:
            clock = 0
            zm = g.z_man[me]
            if move & PROMO:
                kings |= bt
                key ^= zm[frm] ^ g.z_king[me][to]
            else:
                key ^= zm[frm] ^ zm[to]
        if cap:
            clock = 0
            opp &= ~cap
            zm, zk = g.z_man[me ^ 1], g.z_king[me ^ 1]
            while cap:
                b = cap & -cap
                cap ^= b
                i = b.bit_length() - 1
                if kings & b:
                    key ^= zk[i]
                    kings ^= b
                else:
                    key ^= zm[i]
        self.occ = (opp, own) if me else (own, opp)
        self.kings = kings
        self.turn = me ^ 1
        self.key = key
        self.clock = clock
        self._caps = None

    def pop(self) -> None:
        self.occ, self.kings, self.turn, self.key, self.clock, self._caps = self._stack.pop()

    def push_null(self) -> None:
        self._stack.append((self.occ, self.kings, self.turn, self.key, self.clock, self._caps))
        self.turn ^= 1
        self.key ^= self.game.z_turn
        self.clock += 1
        self._caps = None

    def null_move_allowed(self) -> bool:
        return False

    # -- results -------------------------------------------------------------

    def outcome(self) -> int | None:
        """0 after ``game.draw_plies`` plies without a capture or a man move, or on
        the third occurrence of the position; ``None`` otherwise. A side that has
        no legal move has lost even then (``no_moves_value``)."""
        clock = self.clock
        if clock < self.game.first_draw_ply:
            return None
        if clock >= self.game.draw_plies or self._occurrences() >= 3:
            return 0 if self.legal_moves() else None
        return None

    def no_moves_value(self) -> int:
        return -1

    def is_repetition(self) -> bool:
        key, stack = self.key, self._stack
        for k in range(4, min(self.clock, len(stack)) + 1, 2):
            if stack[-k][3] == key:
                return True
        return False

    def _occurrences(self) -> int:
        key, stack = self.key, self._stack
        return 1 + sum(stack[-k][3] == key for k in range(4, min(self.clock, len(stack)) + 1, 2))

    def compute_key(self) -> int:
        g = self.game
        key = g.z_turn if self.turn else 0
        for p in (0, 1):
            for i in bits(self.occ[p]):
                key ^= (g.z_king if self.kings >> i & 1 else g.z_man)[p][i]
        return key

    # -- evaluation ----------------------------------------------------------

    def evaluate(self) -> int:
        """Material, piece-square terms (advancement, centre, back rank), mobility,
        runaway men and endgame technique, from the side to move's view."""
        g = self.game
        me = self.turn
        occ, kings = self.occ, self.kings
        empty = VALID & ~(occ[0] | occ[1])
        score = [0, 0]
        mat = [0, 0]
        total = 0
        for p in (0, 1):
            own = occ[p]
            men, kg = own & ~kings, own & kings
            m = g.man_value * men.bit_count() + g.king_value * kg.bit_count()
            mat[p] = m
            total += own.bit_count()
            s = m
            for mask, w in g.man_terms[p]:
                s += w * (men & mask).bit_count()
            if kg:
                for mask, w in g.king_terms:
                    s += w * (kg & mask).bit_count()
            # Mobility: free squares next to the side's pieces in their moving directions.
            if g.forward_shift[p] > 0:
                steps = ((men << 4) & empty).bit_count() + ((men << 5) & empty).bit_count()
            else:
                steps = ((men >> 4) & empty).bit_count() + ((men >> 5) & empty).bit_count()
            steps += ((kg << 4 | kg << 5 | kg >> 4 | kg >> 5) & empty).bit_count()
            s += g.mobility * steps
            opp = occ[p ^ 1]
            opp_men = opp & ~kings
            # Back rank: men still guarding the crowning squares, while enemy men could crown there.
            if opp_men:
                s += g.back_rank * (men & g.guard_mask[p]).bit_count()
            # Runaway men: nothing of the opponent's in the promotion cone, and no enemy king.
            if opp_men == opp:
                runners = men & g.runaway_zone[p]
                best = 0
                while runners:
                    b = runners & -runners
                    runners ^= b
                    i = b.bit_length() - 1
                    if not g.cone[p][i] & opp and g.runaway_bonus[p][i] > best:
                        best = g.runaway_bonus[p][i]
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
        kg = self.occ[strong] & self.kings
        weak = self.occ[strong ^ 1]
        if not kg or not weak:
            return 0
        targets = bits(weak)
        bonus = 0
        for i in bits(kg):
            d = min(max(abs(ROW[i] - ROW[t]), abs(FILE[i] - FILE[t])) for t in targets)
            bonus += 7 - d
        return self.game.hunt * bonus

    def _drawish_adjust(self, diff: int) -> int:
        """Correction for endings the material count misjudges (0 by default)."""
        return 0

    # -- text ----------------------------------------------------------------

    def copy(self) -> DraughtsPosition:
        other = type(self)(self.game, self.occ, self.kings, self.turn, self.clock)
        other._stack = self._stack[:]
        return other

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
        if caps:
            found = {m for m, path in self.capture_sequences()
                     if path == squares or len(squares) == 2 and path[0] == frm and path[-1] == to}
        elif len(squares) == 2:
            found = {m for m in self._quiet_moves() if m & 63 == frm and m >> 6 & 63 == to}
        else:
            found = set()
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
        """The board from rank 8 down, one two-character cell per file: `` .`` a
        light square, `` -`` an empty dark one, else the owner's letter, upper
        case for a king."""
        occ, kings, letters = self.occ, self.kings, self.game.letters
        rows = []
        for r in range(8):
            cells = []
            for f in range(8):
                i = AT.get((r, f))
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
    return (m >> CAP_SHIFT).bit_count() * 2 + (m >> 12 & 1)


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
                    if not 1 <= lo <= hi <= 32:
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


class DraughtsGame(GameTraits):
    """Tables shared by both games, built once per game instance.

    Subclasses set the class attributes: ``letters`` (FEN letter of player 0 and 1),
    ``down_player`` (the player whose men move towards rank 1, i.e. Black),
    ``seed`` (Zobrist), ``capture_sep``, ``start_fen``, the evaluation weights,
    and implement ``man_pst``/``king_pst``/``guard_squares``.
    """

    record_format: ClassVar[str] = "pdn"
    bench_depth: ClassVar[int] = 5
    table_classes: ClassVar[str] = "pieces"

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

    def __init__(self, params=None):
        self.params = params or self.Params()
        self.draw_plies = 2 * self.params.draw_moves
        # A third occurrence needs at least 8 plies of king moves; before that only
        # a short move-rule setting can end the game.
        self.first_draw_ply = min(8, self.draw_plies)
        table = keys(4 * 64 + 1, self.seed)
        valid = [VALID >> i & 1 for i in range(64)]
        self.z_man = [[table[p * 64 + i] * valid[i] for i in range(64)] for p in (0, 1)]
        self.z_king = [[table[128 + p * 64 + i] * valid[i] for i in range(64)] for p in (0, 1)]
        self.z_turn = table[-1]
        down = self.down_player
        self.forward_shift = [1 if p == down else -1 for p in (0, 1)]
        self.man_steps = [(4, 5) if p == down else (-4, -5) for p in (0, 1)]
        self.adv = [[(ROW[i] if p == down else 7 - ROW[i]) if valid[i] else 0 for i in range(64)]
                    for p in (0, 1)]
        self.promo_mask = [ROW_MASK[7] if p == down else ROW_MASK[0] for p in (0, 1)]
        # Piece-square values, grouped by value into (mask, value) pairs so that the
        # evaluation sums a few popcounts instead of looping over pieces.
        self.man_terms = [_terms({i: self.man_pst(self.adv[p][i], FILE[i]) for i in bits(VALID)})
                          for p in (0, 1)]
        self.king_terms = _terms({i: self.king_pst(i) for i in bits(VALID)})
        self.guard_mask = [sum(1 << i for i in self.guard_squares(p)) for p in (0, 1)]
        self.cone = [[self._cone(p, i) if valid[i] else 0 for i in range(64)] for p in (0, 1)]
        self.runaway_bonus = [[max(0, self.runaway - 12 * (7 - self.adv[p][i])) if valid[i] else 0
                               for i in range(64)] for p in (0, 1)]
        self.runaway_zone = [sum(1 << i for i in range(64) if self.runaway_bonus[p][i]) for p in (0, 1)]

    def _cone(self, p: int, i: int) -> int:
        """Squares a man on ``i`` could meet on its way to the crowning row."""
        adv = self.adv[p]
        return sum(1 << j for j in range(64) if VALID >> j & 1 and adv[j] > adv[i]
                   and abs(FILE[j] - FILE[i]) <= adv[j] - adv[i] + 1)

    def exact(self, config: ExactConfig):
        """The endgame tables of ``TablePath`` (:class:`games.draughts.retro.DraughtsExact`)."""
        directory = config.table_directory
        if directory is None:
            return None
        from games.draughts.retro import DraughtsExact  # numpy, only when tables are set

        return DraughtsExact(self, directory, config.report)

    def new_position(self, text: str | None = None):
        if text is None:
            text = self.start_fen
        occ, kings, turn, clock = parse_fen(self, text, self.parse_square)
        return self.position_class(self, occ, kings, turn, clock)
