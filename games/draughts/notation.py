"""The numeric squares and board strings of the draughts engine protocols, Hub
and DXP (``protocol.server.hub``, ``protocol.dxp``), for each draughts game.

A protocol names a move by its from and to squares and the squares of the
pieces it takes, in any order (Hub ``28x19x23``: from 28 to 19 taking 23; DXP
the same numbers in fixed-width fields), and a position by the side to move and
one letter a square (``w``/``b`` men, ``W``/``B`` kings, ``e`` empty).

International draughts numbers its squares 1-50 from Black's side, as its
diagrams do, both in moves and in the board string. For the 8×8 games the
numbers are pydraughts' (which lidraughts-bot speaks): the board string runs
over the squares 1-32 of the checkers diagram (square 1 = b8), while Russian
and Brazilian moves number from White's side (square 1 = a1, the Russian
numeric notation) and English moves use the checkers diagram, whose board
string is read from the other side with the colours' letters swapped.
"""

from __future__ import annotations

from engine.game import IllegalMoveError, InvalidPositionError, bits
from games.draughts.board import CAP_SHIFT


class Notation:
    """The protocol texts of one draughts game (``game.hub_notation()``).

    ``variant`` is the Hub ``variant`` parameter's value for the game, and
    ``names`` every value read as this game (clients' names for it);
    ``move_number[i]`` the number of bit index ``i`` in moves; ``string_index[k]``
    the bit index the ``k``-th letter of a board string describes; ``swap`` says
    the string's ``w``/``b`` letters are the players 1 and 0 rather than 0 and 1;
    ``white`` is White's player number.
    """

    def __init__(self, game, variant: str, move_number: list[int], string_index: list[int], swap: bool = False):
        self.game = game
        self.variant = variant
        # lidraughts and pydraughts call international draughts "standard".
        self.names = {variant, game.name, *game.aliases} | ({"standard"} if variant == "normal" else set())
        self.move_number = move_number
        self.string_index = string_index
        self.swap = swap
        self.index = {n: i for i, n in enumerate(move_number) if n}
        self.squares = len(string_index)
        self.white = game.letters.index("W")

    # -- moves ---------------------------------------------------------------------

    def parts(self, pos, move) -> tuple[int, int, list[int]]:
        """``(from, to, taken)`` of a legal move, the taken squares in ascending order."""
        number, low = self.move_number, self.game.geometry.cap_low
        taken = sorted(number[i] for i in bits((move >> CAP_SHIFT) << low))
        return number[move & 63], number[move >> 6 & 63], taken

    def find(self, pos, frm: int, to: int, taken) -> int:
        """The legal move from ``frm`` to ``to`` taking the squares ``taken`` (any
        order; none given matches a single capture between the two squares)."""
        want = set(taken)
        found = [m for m in pos.legal_moves() if self.parts(pos, m)[:2] == (frm, to)
                 and (not want or set(self.parts(pos, m)[2]) == want)]
        if len(found) != 1:
            what = f"{frm}-{to}" + "".join(f"x{n}" for n in sorted(want))
            raise IllegalMoveError(f"{'ambiguous' if found else 'illegal'} move {what} in {pos.to_text()}")
        return found[0]

    # -- positions -----------------------------------------------------------------

    def board_string(self, pos) -> str:
        """The side to move (``W``/``B``) and a letter a square."""
        letters = []
        for i in self.string_index:
            b = 1 << i
            p = 0 if pos.o0 & b else 1 if pos.o1 & b else -1
            if p < 0:
                letters.append("e")
                continue
            white = (self.game.letters[p] == "W") != self.swap
            letter = "w" if white else "b"
            letters.append(letter.upper() if pos.kings & b else letter)
        turn_white = (self.game.letters[pos.turn] == "W") != self.swap
        return ("W" if turn_white else "B") + "".join(letters)

    def position_text(self, text: str) -> str:
        """The game's FEN of a board string (raises :class:`InvalidPositionError`)."""
        text = text.strip()
        if len(text) != self.squares + 1 or text[0] not in "WBwb":
            raise InvalidPositionError(f"expected W or B and {self.squares} letters of w, b, W, B, e; "
                                       f"got {text[:60]!r}")
        pieces: dict[str, list[str]] = {"W": [], "B": []}
        for i, ch in zip(self.string_index, text[1:]):
            if ch in "eE.":
                continue
            if ch not in "wbWB":
                raise InvalidPositionError(f"bad square letter {ch!r} in {text[:60]!r}: w, b, W, B or e")
            white = (ch in "wW") != self.swap
            pieces["W" if white else "B"].append(("K" if ch.isupper() else "") + self.game.square_name(i))
        turn = "W" if (text[0] in "Ww") != self.swap else "B"
        return f"{turn}:W{','.join(pieces['W'])}:B{','.join(pieces['B'])}"


def notation_for(game) -> Notation:
    """The protocol notation of a draughts game, by its board and move numbering."""
    geo = game.geometry
    top_down = [geo.index[n] for n in range(1, geo.n_squares + 1)]
    if geo.size == 10:
        return Notation(game, game.hub_variant, geo.square, top_down)
    if game.hub_variant == "english":  # the checkers diagram's numbers
        return Notation(game, game.hub_variant, geo.square, top_down[::-1], swap=True)
    # Russian numeric notation: square 1 = a1, numbered along the rows from White's side.
    from_white = [0] * 64
    for i in bits(geo.valid):
        r, f = geo.size - 1 - geo.row[i], geo.file[i]
        from_white[i] = r * geo.per_row + f // 2 + 1
    return Notation(game, game.hub_variant, from_white, top_down)
