"""The Go position: stones on a bordered board array, captures, ko, superko and area scores.

The rules are described in :mod:`games.go`. The board is one flat list with a
border: ``stride = width + 1`` cells a row, the extra cell (index 0 of each row)
being the border on both sides, and a border row above and below, so that the
four neighbours of a point are ``p ± 1`` and ``p ± stride`` without bounds tests
(GNU Go's and Fuego's layout). Groups are found by flood fill: at a move only the
neighbouring groups, and for the legal move list every group once, with its
liberty count and the Zobrist key of its stones (what a capture takes away).
"""

from __future__ import annotations

from typing import Any

import cython  # type: ignore[import-untyped]

from engine.game import IllegalMoveError, Move, quote
from engine.position import Position
from games.go.benson import unconditional
from games.go.playout import Playout

EMPTY = 0
BLACK = 1
WHITE = 2
EDGE = 3
# The same values as C ints in the compiled build (board.pxd): the hot loops compare
# cells with these, not with the module's Python names.
_EMPTY, _BLACK, _WHITE, _EDGE = EMPTY, BLACK, WHITE, EDGE
#: SplitMix64's finaliser constants, C 64-bit ints in the compiled build.
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MASK64 = 0xFFFFFFFFFFFFFFFF

#: Column letters of GTP: ``I`` is skipped.
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
#: Cell values to the position text's characters (a ``bytes.translate`` table).
_ROW_CHARS = bytes.maketrans(bytes([EMPTY, BLACK, WHITE]), b".xo")


def history_mix(board_key: int) -> int:
    """A board key scrambled (SplitMix64's finaliser) for the superko history's part of
    the position key."""
    z = board_key
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


class GoPosition(Position):
    """A Go position: ``board`` (cells ``EMPTY``/``BLACK``/``WHITE``/``EDGE``),
    ``turn`` (0 = Black), ``ko`` (the board index the side to move may not play, 0
    for none: index 0 is a border cell), ``passes`` (consecutive passes just played;
    two end the game) and the history that superko and ``pop`` need."""

    def __init__(self, game: Any, board: list[int], turn: int, ko: int, passes: int):
        # ``game`` is the GoGame (geometry, keys, rules), not imported: it imports this module.
        self.game = game
        self.board = list(board)
        self.turn = turn
        self.ko = ko
        self.passes = passes
        self.size = game.cells_total
        self.stride = game.stride
        self.points = game.points
        self.pass_move = game.pass_move
        self.superko = game.superko
        self.komi2 = game.komi2
        self._zk = game.stone_keys
        self._ko_keys = game.ko_keys
        self._pass_keys = game.pass_keys
        self._turn_key = game.turn_key
        self._dirs = (1, -1, game.stride, -game.stride)
        self.board_key = self.compute_board_key()
        # Superko: board keys of every position so far, with their counts (a pass
        # repeats one). Under simple ko the same table counts full keys instead,
        # for ``is_repetition``.
        self.seen: dict[int, int] = {}
        self.seen[self.board_key if self.superko else self.compute_key()] = 1
        self.key = self.compute_key()
        # Undo stacks, one entry per push; captured points on one flat stack.
        self._h_point: list[int] = []
        self._h_key: list[int] = []
        self._h_bkey: list[int] = []
        self._h_ko: list[int] = []
        self._h_passes: list[int] = []
        self._h_caps: list[int] = []
        self._caps: list[int] = []
        # Flood-fill marks: a cell is marked when it holds the current stamp.
        self._mark = [0] * self.size
        self._stamp = 0

    # -- groups ----------------------------------------------------------------

    def _has_liberty(self, p: int) -> bool:
        """True if the group of the stone on ``p`` has an empty neighbour."""
        board, dirs = self.board, self._dirs
        colour = board[p]
        self._stamp += 1
        stamp, mark = self._stamp, self._mark
        mark[p] = stamp
        stack = [p]
        while stack:
            x = stack.pop()
            for d in dirs:
                y = x + d
                b = board[y]
                if b == _EMPTY:
                    return True
                if b == colour and mark[y] != stamp:
                    mark[y] = stamp
                    stack.append(y)
        return False

    def _remove(self, p: int) -> None:
        """Take the group on ``p`` off the board, onto the captured-points stack."""
        board, dirs, zk, caps = self.board, self._dirs, self._zk, self._caps
        colour = board[p]
        base = colour * self.size
        bk = self.board_key
        board[p] = _EMPTY
        stack = [p]
        while stack:
            x = stack.pop()
            caps.append(x)
            bk ^= zk[base + x]
            for d in dirs:
                y = x + d
                if board[y] == colour:
                    board[y] = _EMPTY
                    stack.append(y)
        self.board_key = bk

    def all_groups_live(self) -> bool:
        """True if every group on the board has a liberty: the position is legal in
        the sense of Tromp and Farnebäck's count of legal positions."""
        board = self.board
        for p in self.points:
            if board[p] != _EMPTY and not self._has_liberty(p):
                return False
        return True

    # -- moves -----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every play that is not on a stone, on the ko point, suicide or (by
        default) a repetition of an earlier board, then ``pass``; ``[]`` after two
        passes."""
        if self.passes >= 2:
            return []
        board, dirs, size, zk = self.board, self._dirs, self.size, self._zk
        # Every group once: its liberty count and the key of its stones.
        label = [-1] * size
        lib_mark = [-1] * size
        libs: list[int] = []
        group_keys: list[int] = []
        for p in self.points:
            colour = board[p]
            if colour == _EMPTY or label[p] >= 0:
                continue
            gid = len(libs)
            base = colour * size
            n = 0
            k = 0
            label[p] = gid
            stack = [p]
            while stack:
                x = stack.pop()
                k ^= zk[base + x]
                for d in dirs:
                    y = x + d
                    b = board[y]
                    if b == colour:
                        if label[y] < 0:
                            label[y] = gid
                            stack.append(y)
                    elif b == _EMPTY and lib_mark[y] != gid:
                        lib_mark[y] = gid
                        n += 1
            libs.append(n)
            group_keys.append(k)
        own = self.turn + 1
        opp = 3 - own
        own_key = own * size
        moves = []
        m = -1
        for p in self.points:
            m += 1
            if board[p] != _EMPTY or p == self.ko:
                continue
            breathes = False
            taken = 0
            g1 = g2 = g3 = -1
            for d in dirs:
                y = p + d
                b = board[y]
                if b == _EMPTY:
                    breathes = True
                elif b == own:
                    if libs[label[y]] > 1:
                        breathes = True
                elif b == opp:
                    gid = label[y]
                    if libs[gid] == 1 and gid != g1 and gid != g2 and gid != g3:
                        # Up to four neighbours: three earlier captures to tell apart.
                        if g1 < 0:
                            g1 = gid
                        elif g2 < 0:
                            g2 = gid
                        else:
                            g3 = gid
                        taken ^= group_keys[gid]
                        breathes = True
            if not breathes:
                continue
            if self.superko and (self.board_key ^ zk[own_key + p] ^ taken) in self.seen:
                continue
            moves.append(m)
        moves.append(self.pass_move)
        return moves

    def playout_moves(self) -> list[Move]:
        """The moves a random playout draws from (:mod:`engine.game`'s optional hook):
        the legal plays but those filling one of the mover's own eyes (a point
        bordered by its stones, with too few of the opponent's on its diagonals to
        be false), and ``pass`` only when no play is left, so that a playout ends with
        both sides' eyes standing, as in Monte-Carlo Go's light playouts."""
        moves = self.legal_moves()
        board, points, s = self.board, self.points, self.stride
        own = self.turn + 1
        opp = 3 - own
        plays = []
        for i in range(len(moves) - 1):
            m = moves[i]
            p = points[m]
            eye = True
            for d in self._dirs:
                b = board[p + d]
                if b != own and b != _EDGE:
                    eye = False
                    break
            if eye:
                # False eye: two opponent diagonals, or one on the edge.
                opp_diagonals = 0
                edge = False
                for d in (s + 1, s - 1, 1 - s, -1 - s):
                    b = board[p + d]
                    if b == opp:
                        opp_diagonals += 1
                    elif b == _EDGE:
                        edge = True
                if opp_diagonals < (1 if edge else 2):
                    continue
            plays.append(m)
        return plays or moves[-1:]

    def playout(self, seed: int, played: list | None, heavy: bool) -> int | None:
        """A playout on the game's playout board (:mod:`games.go.playout`) from here, the
        area counted with komi: +1/0/-1 for the side to move."""
        board = self.game.playout_board()
        board.load(self.board, self.turn, self.ko, self.passes)
        s = board.run(seed, heavy) - self.komi2
        if played is not None:
            w, stride = self.game.width, self.stride
            # The plays only: a playout's closing passes say nothing of a pass in the tree.
            for i in range(board.nmoves):
                p = board.moves[i]
                if p:
                    played.append(((p // stride - 1) * w + p % stride - 1, self.turn ^ (i & 1)))
        if self.turn:
            s = -s
        return (s > 0) - (s < 0)

    @cython.locals(board=Playout, points=list)
    def move_priors(self, moves: list[Move]) -> list[tuple[int, int]] | None:
        """The playout board's prior visits and wins of ``moves`` (:meth:`games.go.playout.Playout.priors`),
        the last move taken from the history."""
        board = self.game.playout_board()
        board.load(self.board, self.turn, self.ko, self.passes)
        if self._h_point:
            board.last = self._h_point[-1]
        points = [0 if m == self.pass_move else self.points[m] for m in moves]
        return board.priors(points)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal, found by playing it (for single moves: the text
        parser and tests; the search takes :meth:`legal_moves`)."""
        if self.passes >= 2 or not 0 <= move <= self.pass_move:
            return False
        if move == self.pass_move:
            return True
        p = self.points[move]
        if self.board[p] != _EMPTY or p == self.ko:
            return False
        self.push(move)
        ok = self._has_liberty(p) and (not self.superko or self.seen[self.board_key] == 1)
        self.pop()
        return ok

    def noisy_moves(self) -> list[Move]:
        return []

    def is_noisy(self, move: Move) -> bool:
        return False

    def move_score(self, move: Move) -> int:
        """Third and fourth lines first, the edge last, contact with stones earlier,
        ``pass`` after every play."""
        if move == self.pass_move:
            return -100
        p = self.points[move]
        board = self.board
        score = self.game.line_value[move]
        for d in self._dirs:
            b = board[p + d]
            if b == _BLACK or b == _WHITE:
                score += 4
        return score

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    def push(self, move: Move) -> None:
        """Play ``move`` (not validated): place a stone and capture, or pass."""
        self._h_key.append(self.key)
        self._h_bkey.append(self.board_key)
        self._h_ko.append(self.ko)
        self._h_passes.append(self.passes)
        self._h_caps.append(len(self._caps))
        key = self.key ^ self._turn_key ^ self._ko_keys[self.ko] ^ self._pass_keys[self.passes]
        if move == self.pass_move:
            self._h_point.append(0)
            self.ko = 0
            self.passes += 1
            self.turn ^= 1
            self.key = key ^ self._pass_keys[self.passes]
            if not self.superko:
                self.seen[self.key] = self.seen.get(self.key, 0) + 1
            return
        p = self.points[move]
        self._h_point.append(p)
        board, dirs = self.board, self._dirs
        own = self.turn + 1
        opp = 3 - own
        board[p] = own
        old_bk = self.board_key
        self.board_key ^= self._zk[own * self.size + p]
        base = len(self._caps)
        for d in dirs:
            y = p + d
            if board[y] == opp and not self._has_liberty(y):
                self._remove(y)
        ko = 0
        if len(self._caps) == base + 1:
            # One stone taken by a lone stone left with that point as its only
            # liberty: retaking at once would repeat the board (simple ko).
            ko = self._caps[base]
            for d in dirs:
                b = board[p + d]
                if b == own or (b == _EMPTY and p + d != ko):
                    ko = 0
                    break
        self.ko = ko
        self.passes = 0
        self.turn ^= 1
        key ^= old_bk ^ self.board_key
        key ^= self._ko_keys[ko]
        if self.superko:
            n = self.seen.get(self.board_key, 0)
            self.seen[self.board_key] = n + 1
            if not n:
                # Under superko the legal moves depend on every earlier board: the
                # key holds the set of them (each board key mixed, so that XORs of
                # board keys, themselves XORs of stone keys, cannot cancel).
                key ^= history_mix(self.board_key)
            self.key = key
        else:
            self.key = key
            self.seen[key] = self.seen.get(key, 0) + 1

    def pop(self) -> None:
        p = self._h_point.pop()
        if p or not self.superko:
            seen_key = self.board_key if self.superko else self.key
            n = self.seen[seen_key] - 1
            if n:
                self.seen[seen_key] = n
            else:
                del self.seen[seen_key]
        self.turn ^= 1
        if p:
            board = self.board
            board[p] = _EMPTY
            base = self._h_caps.pop()
            caps = self._caps
            colour = 2 - self.turn  # the opponent of the side that played
            while len(caps) > base:
                board[caps.pop()] = colour
        else:
            self._h_caps.pop()
        self.key = self._h_key.pop()
        self.board_key = self._h_bkey.pop()
        self.ko = self._h_ko.pop()
        self.passes = self._h_passes.pop()

    def push_null(self) -> None:
        """Hand the turn over: a pass."""
        self.push(self.pass_move)

    def null_move_allowed(self) -> bool:
        return False

    # -- results ---------------------------------------------------------------

    def area(self) -> tuple[int, int]:
        """Black's and White's area (Tromp–Taylor): stones, and the empty points of
        each region that borders stones of that colour only."""
        board, dirs = self.board, self._dirs
        black = white = 0
        self._stamp += 1
        stamp, mark = self._stamp, self._mark
        for p in self.points:
            b = board[p]
            if b == _BLACK:
                black += 1
            elif b == _WHITE:
                white += 1
            elif mark[p] != stamp:
                # One empty region: its size and the colours around it (bit 1 Black, 2 White).
                mark[p] = stamp
                stack = [p]
                n = 0
                border = 0
                while stack:
                    x = stack.pop()
                    n += 1
                    for d in dirs:
                        y = x + d
                        c = board[y]
                        if c == _EMPTY:
                            if mark[y] != stamp:
                                mark[y] = stamp
                                stack.append(y)
                        elif c != _EDGE:
                            border |= c
                if border == _BLACK:
                    black += n
                elif border == _WHITE:
                    white += n
        return black, white

    def score2(self) -> int:
        """Twice Black's area minus White's, less komi (positive: Black is ahead)."""
        black, white = self.area()
        return 2 * (black - white) - self.komi2

    def outcome(self) -> int | None:
        """The area result once two passes have ended the game, else ``None``."""
        if self.passes < 2:
            return None
        return self.no_moves_value()

    def no_moves_value(self) -> int:
        s = self.score2()
        if self.turn:
            s = -s
        return (s > 0) - (s < 0)

    def is_repetition(self) -> bool:
        """Under simple ko, a position (board, side, ko, passes) seen before; superko
        never lets one come back."""
        return not self.superko and self.seen.get(self.key, 0) > 1

    def estimate(self) -> tuple[int, int, int, int]:
        """Black's and White's safe points (Benson: alive stones and unconditional
        territory, theirs at the end whatever is played), then their other points by
        estimate: stones not known safe, and each other empty point to the colour whose
        stones are nearer along empty points (a Voronoi split of the open board; an
        empty region bordered by one colour goes whole to it, as area scoring counts)."""
        board, dirs, points = self.board, self._dirs, self.points
        alive, owner = unconditional(board, points, self.stride)
        far = len(board)
        dist_b = [far] * len(board)
        dist_w = [far] * len(board)
        for colour in (_BLACK, _WHITE):
            dist = dist_b if colour == _BLACK else dist_w
            frontier = []
            for p in points:
                if board[p] == colour:
                    frontier.append(p)
                    dist[p] = 0
            d = 0
            while frontier:
                d += 1
                nxt = []
                for x in frontier:
                    for e in dirs:
                        y = x + e
                        if board[y] == _EMPTY and dist[y] > d:
                            dist[y] = d
                            nxt.append(y)
                frontier = nxt
        safe_b = safe_w = rest_b = rest_w = 0
        for p in points:
            c = alive[p] if alive[p] else owner[p]
            if c == _BLACK:
                safe_b += 1
            elif c == _WHITE:
                safe_w += 1
            elif board[p] == _BLACK or (board[p] == _EMPTY and dist_b[p] < dist_w[p]):
                rest_b += 1
            elif board[p] == _WHITE or (board[p] == _EMPTY and dist_w[p] < dist_b[p]):
                rest_w += 1
        return safe_b, safe_w, rest_b, rest_w

    def evaluate(self) -> int:
        """Black's points less White's, 100 a point, komi included, for the side to
        move: the safe points counted exactly and the rest by estimate (:meth:`estimate`)."""
        safe_b, safe_w, rest_b, rest_w = self.estimate()
        s = 100 * (safe_b + rest_b - safe_w - rest_w) - 50 * self.komi2
        return -s if self.turn else s

    def compute_board_key(self) -> int:
        board, zk, size = self.board, self._zk, self.size
        k = 0
        for p in self.points:
            c = board[p]
            if c != _EMPTY:
                k ^= zk[c * size + p]
        return k

    def compute_key(self) -> int:
        """Stones, side to move, ko point and passes; under superko also the set of
        boards played so far (two positions alike but for their history may differ in
        their legal moves, so a table must tell them apart)."""
        k = self.compute_board_key() ^ self._ko_keys[self.ko] ^ self._pass_keys[self.passes]
        if self.superko:
            for board_key in self.seen:
                k ^= history_mix(board_key)
        return k ^ self._turn_key if self.turn else k

    # -- text ------------------------------------------------------------------

    @cython.locals(other="GoPosition")
    def _copy(self) -> GoPosition:
        """An independent copy with the same history (superko and ``pop`` see it)."""
        other = type(self)(self.game, self.board, self.turn, self.ko, self.passes)
        other.seen = dict(self.seen)
        other.key = self.key
        other._h_point = list(self._h_point)
        other._h_key = list(self._h_key)
        other._h_bkey = list(self._h_bkey)
        other._h_ko = list(self._h_ko)
        other._h_passes = list(self._h_passes)
        other._h_caps = list(self._h_caps)
        other._caps = list(self._caps)
        return other

    def point_text(self, p: int) -> str:
        """The GTP name of board index ``p`` (``A1`` bottom left)."""
        row, col = divmod(p, self.stride)
        return COLUMNS[col - 1] + str(row)

    def parse_move(self, text: str) -> Move:
        move = self.game.parse_point(text)
        if move is None:
            raise IllegalMoveError(f"illegal move {quote(text)}: expected a point "
                                   f"{self.game.first_point}-{self.game.last_point} or 'pass'")
        if self.is_legal(move):
            return move
        p = self.points[move] if move != self.pass_move else 0
        if self.passes >= 2:
            why = "the game is over (two passes)"
        elif self.board[p] != EMPTY:
            why = "the point is taken"
        elif p == self.ko:
            why = "ko: the stone just taken may not be retaken at once"
        else:
            self.push(move)
            suicide = not self._has_liberty(p)
            self.pop()
            why = "suicide" if suicide else "superko: it repeats an earlier position"
        raise IllegalMoveError(f"illegal move {quote(text)}: {why}")

    def move_text(self, move: Move) -> str:
        if move == self.pass_move:
            return "pass"
        return self.point_text(self.points[move])

    def rows(self) -> list[str]:
        """The board's rows from the top, ``x`` Black, ``o`` White, ``.`` empty."""
        g, board, s = self.game, self.board, self.stride
        return [bytes(board[r * s + 1:r * s + 1 + g.width]).translate(_ROW_CHARS).decode()
                for r in range(g.height, 0, -1)]

    def to_text(self) -> str:
        ko = self.point_text(self.ko) if self.ko else "-"
        return f"{'/'.join(self.rows())} {'xo'[self.turn]} {ko} {self.passes}"

    def render(self) -> str:
        g = self.game
        letters = "   " + " ".join(COLUMNS[:g.width])
        lines = [letters]
        for i, row in enumerate(self.rows()):
            r = g.height - i
            cells = ["●" if ch == "x" else "○" if ch == "o" else "·" for ch in row]
            lines.append(f"{r:2} {' '.join(cells)} {r}")
        lines.append(letters)
        black, white = self.area()
        komi = self.komi2 / 2
        state = f"area black {black}, white {white}, komi {komi:g}"
        if self.passes >= 2:
            s = self.score2()
            state += "; game over: " + ("draw" if s == 0 else f"{'black' if s > 0 else 'white'} wins by {abs(s) / 2:g}")
        else:
            state += f"; {g.players[self.turn]} to move"
            if self.ko:
                state += f"; ko at {self.point_text(self.ko)}"
            if self.passes:
                state += "; the last move was a pass"
        lines.append(state)
        return "\n".join(lines)
