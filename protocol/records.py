"""Game records: written by ``zermelo match`` and the terminal's ``save``, read
back by ``zermelo match --replay``, the terminal's ``load`` and ``zermelo book
build --source games``, and re-verified with zermelo's rules.

Three formats, chosen by the game's ``record_format`` trait:

- **chess: PGN**, written by python-chess: the seven-tag roster (Event, Site,
  Date, Round, White, Black, Result), ``SetUp``/``FEN`` for a non-standard start,
  ``Termination``, SAN moves, a ``{score/depth time}`` comment after every engine
  move and the reason the game ended in the last comment.
- **checkers and shashki: PDN**: the same tags with ``Black``/``White`` in the
  order of play, ``[GameType "21"]`` (English) or ``[GameType "25"]`` (Russian),
  ``SetUp``/``FEN`` (the game's draughts FEN) for a non-standard start; numbered
  moves in the game's notation (``11-15``, ``22x15x8``; ``c3-d4``, ``c3:e5``).
- **every other game: a plain record**: the same tag lines plus ``[Game "name"]``
  and ``[Start "text"]`` for a non-standard start (the game's position text);
  player tags are named after the game's players (``[First "…"]``,
  ``[Second "…"]`` for Nim); then the moves in the game's notation separated by
  spaces, unnumbered because some games grant extra turns, each optionally
  followed by a ``{comment}``, and the result token. A blank line ends a game.

In every format the result token gives the first mover's score first: ``1-0``,
``0-1``, ``1/2-1/2`` (``*`` unfinished). Games of more than two players (plain
records only) have one player tag per player (``[Red "…"]``, ``[Yellow "…"]``,
``[Green "…"]``), a ``[Params "players=3"]`` tag for the game's parameters and,
as result, each player's place in the order of play joined by dashes:
``1-3-2`` (the first mover first, the second last, the third second; ties share
a place, ``1-1-3``). The ``Termination`` tag is one of
``normal`` (the rules ended the game), ``adjudication``, ``time forfeit``,
``rules infraction`` (an illegal move) or ``abandoned`` (crash, hang, failed start).
"""

from __future__ import annotations

import io
import re
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import games
from engine.game import Game, InvalidPositionError

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: The result of a game of more than two players: the places, in the order of play.
RANKING_RESULT = re.compile(r"[1-9]\d?(?:-[1-9]\d?){2,}")


@dataclass
class GameRecord:
    """One finished (or abandoned) game, independent of the file format."""

    game: str
    players: tuple[str, ...]
    """Engine names of player 0 (first mover), player 1, …"""
    result: str
    """First mover's score first: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``; with more
    than two players the places, ``1-3-2``."""
    start: str | None = None
    """Start position text; ``None`` for the game's start position."""
    moves: list[str] = field(default_factory=list)
    comments: list[str | None] = field(default_factory=list)
    termination: str = "normal"
    reason: str = ""
    tags: dict[str, str] = field(default_factory=dict)
    """Further tags: Event, Site, Date, Round, ..."""
    params: dict[str, str] = field(default_factory=dict)
    """Parameters of the game other than its defaults (``{"players": "3"}``)."""
    number: int = 0
    """Where the game stands in the file it was read from (1 = first, counting the
    games that could not be read); 0 for a record not read from a file."""


def record_game(rec: GameRecord):
    """The game of a record, with its parameters."""
    return games.load(rec.game, **rec.params)


def final_result(pos, players: int) -> str | None:
    """The result token of a position the rules ended, ``None`` while it is in play:
    the two-player token, or with more players the places (``1-3-2``)."""
    if players > 2:
        ranking = pos.ranking()
        return None if ranking is None else "-".join(map(str, ranking))
    r0 = rules_result(pos)
    return None if r0 is None else result_token(r0)


def result_token(r0: int | None) -> str:
    """The result token for a result from the first mover's view (+1/0/-1, None = unfinished)."""
    if r0 is None:
        return "*"
    return "1-0" if r0 > 0 else "0-1" if r0 < 0 else "1/2-1/2"


def game_traits(game: str) -> type[Game]:
    """The traits records and openings follow for ``game``: its class's for a
    registry name, the defaults for anything else. A preset such as chess960 is
    thus written plain, its ``Game`` tag naming the preset, and python-chess's
    standard-chess tools (PGN, EPD, Polyglot) are not applied to it."""
    return games.game_class(game) if game in games.names() else Game


@lru_cache(maxsize=None)
def _game_of_format(record_format: str, pdn_gametype: str = "") -> str | None:
    """The registry name of the game written in ``record_format`` (and PDN ``GameType``)."""
    for name in games.names():
        cls = games.game_class(name)
        if cls.record_format == record_format and cls.pdn_gametype == pdn_gametype:
            return name
    return None


def _player_tags(game: str, params: dict[str, str] | None = None) -> tuple[str, ...]:
    # A tag name is a word: players named by a sign (the m,n,k-game's + and *) by number.
    return tuple(p.capitalize() if p.isalnum() else f"Player{i + 1}"
                 for i, p in enumerate(games.load(game, **(params or {})).players))


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


# -- writing -------------------------------------------------------------------

def to_text(rec: GameRecord) -> str:
    """The record in its game's format, ending with a blank line."""
    if game_traits(rec.game).record_format == "pgn":
        return _pgn(rec)
    return _tagged(rec)


def _pgn(rec: GameRecord) -> str:
    import chess
    import chess.pgn

    board = chess.Board(rec.start) if rec.start else chess.Board()
    game = chess.pgn.Game()
    for key in ("Event", "Site", "Date", "Round"):
        game.headers[key] = rec.tags.get(key, "?")
    game.headers["White"], game.headers["Black"] = rec.players
    game.headers["Result"] = rec.result
    if rec.start:
        game.setup(board)
    game.headers["Termination"] = rec.termination
    for key, value in rec.tags.items():
        if key not in game.headers:
            game.headers[key] = value
    node: chess.pgn.GameNode = game
    for i, text in enumerate(rec.moves):
        move = chess.Move.from_uci(text)
        if not node.board().is_legal(move):
            raise ValueError(f"move {i + 1} ({text}) is not legal for python-chess")
        node = node.add_variation(move)
        comment = rec.comments[i] if i < len(rec.comments) else None
        if comment:
            node.comment = comment
    if rec.reason:
        node.comment = f"{node.comment}, {rec.reason}" if node.comment else rec.reason
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter) + "\n\n"


def _tagged(rec: GameRecord) -> str:
    names = _player_tags(rec.game, rec.params)
    lines = [f'[{k} "{_quote(rec.tags.get(k, "?"))}"]' for k in ("Event", "Site", "Date", "Round")]
    lines += [f'[{names[i]} "{_quote(rec.players[i])}"]' for i in range(len(names))]
    lines.append(f'[Result "{rec.result}"]')
    traits = game_traits(rec.game)
    pdn = traits.record_format == "pdn"
    if pdn:
        lines.append(f'[GameType "{traits.pdn_gametype}"]')
        if rec.params:
            lines.append(f'[Params "{" ".join(f"{k}={v}" for k, v in rec.params.items())}"]')
        if rec.start:
            lines += ['[SetUp "1"]', f'[FEN "{_quote(rec.start)}"]']
    else:
        lines.insert(0, f'[Game "{rec.game}"]')
        if rec.params:
            lines.insert(1, f'[Params "{" ".join(f"{k}={v}" for k, v in rec.params.items())}"]')
        if rec.start:
            lines.append(f'[Start "{_quote(rec.start)}"]')
    lines.append(f'[Termination "{rec.termination}"]')
    for key, value in rec.tags.items():
        if key not in ("Event", "Site", "Date", "Round"):
            lines.append(f'[{key} "{_quote(value)}"]')

    tokens = []
    # PDN numbers moves in pairs; which player starts follows from the start position.
    ply0 = record_game(rec).new_position(rec.start).turn if pdn else 0
    for i, text in enumerate(rec.moves):
        if pdn:
            ply = i + ply0
            if ply % 2 == 0:
                tokens.append(f"{ply // 2 + 1}.")
            elif i == 0:
                tokens.append(f"{ply // 2 + 1}...")
        tokens.append(text)
        comment = rec.comments[i] if i < len(rec.comments) else None
        if i == len(rec.moves) - 1 and rec.reason:
            comment = f"{comment}, {rec.reason}" if comment else rec.reason
        if comment:
            tokens.append("{" + comment.replace("}", ")") + "}")
    if not rec.moves and rec.reason:
        tokens.append("{" + rec.reason.replace("}", ")") + "}")
    tokens.append(rec.result)
    body = textwrap.fill(" ".join(tokens), 79, break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines) + "\n\n" + body + "\n\n"


# -- reading -------------------------------------------------------------------

_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")


def read_records(text: str, on_skip: Callable[[int, str], None] | None = None,
                 limit: int | None = None) -> list[GameRecord]:
    """Parse every game of a PGN (chess), PDN or plain record file.

    A game that cannot be read (a move python-chess finds illegal, a bad ``FEN``,
    another chess variant, an unknown game or ``GameType``, parameters the game
    refuses) is skipped, and ``on_skip(number, why)`` hears its number in the
    file (from 1); without ``on_skip`` the first such game raises ``ValueError``.
    ``limit`` stops the reading once that many games are read.
    Moves of the other formats are checked by :func:`verify` (and by whoever
    plays them).
    """
    def skip(number: int, why: str) -> None:
        if on_skip is None:
            raise ValueError(f"game {number}: {why}")
        on_skip(number, why)

    head = "\n".join(text.splitlines()[:40])
    if re.search(r'^\[(Game|GameType)\s', head, re.M):
        return _read_tagged(text, skip)[:limit]
    return _read_pgn(text, skip, limit)


@lru_cache(maxsize=None)
def _pgn_builder():
    """python-chess's game builder, keeping each game's errors in ``game.errors``
    without logging them (its logger would print a traceback per bad game)."""
    import chess.pgn

    class Builder(chess.pgn.GameBuilder):
        def handle_error(self, error: Exception) -> None:
            self.game.errors.append(error)

    return Builder


def _read_pgn(text: str, skip: Callable[[int, str], None], limit: int | None = None) -> list[GameRecord]:
    import chess
    import chess.pgn

    chess_name = _game_of_format("pgn")
    if chess_name is None:
        raise ValueError("no registered game is written in PGN")
    out: list[GameRecord] = []
    stream = io.StringIO(text)
    number = 0
    while limit is None or len(out) < limit:
        at = stream.tell()
        try:
            game = chess.pgn.read_game(stream, Visitor=_pgn_builder())
        except Exception as exc:  # python-chess's own visitors fail on some malformed move text
            number += 1
            skip(number, f"python-chess cannot read it ({type(exc).__name__}: {exc})")
            # The reader resumes after the lines it consumed; one that consumed none
            # gives up a line, so that the loop always moves on and ends.
            if stream.tell() == at and not stream.readline():
                break
            continue
        if game is None:
            break
        number += 1
        if game.errors:
            skip(number, str(game.errors[0]))
            continue
        h = game.headers
        board = game.board()
        if type(board) is not chess.Board or board.chess960:
            skip(number, f"variant {h.get('Variant', 'Chess960')!r} is not standard chess")
            continue
        # python-chess plays the moves from a FEN tag with or without SetUp.
        start = h.get("FEN")
        nodes = list(game.mainline())
        tags = {k: v for k, v in h.items()
                if k not in ("White", "Black", "Result", "SetUp", "FEN", "Termination")}
        out.append(GameRecord(
            chess_name, (h.get("White", "?"), h.get("Black", "?")), h.get("Result", "*"), start,
            [n.move.uci() for n in nodes], [n.comment or None for n in nodes],
            h.get("Termination", "normal"), nodes[-1].comment if nodes else game.comment, tags, number=number))
    return out


def _read_tagged(text: str, skip: Callable[[int, str], None]) -> list[GameRecord]:
    out: list[GameRecord] = []
    tags: dict[str, str] = {}
    body: list[str] = []
    number = 0

    def flush():
        nonlocal number
        if tags:
            number += 1
            try:
                out.append(_tagged_record(tags, " ".join(body), number))
            except (KeyError, ValueError, TypeError) as e:
                skip(number, e.args[0] if isinstance(e, KeyError) and e.args else str(e))
        tags.clear()
        body.clear()

    for line in text.splitlines():
        m = _TAG.match(line.strip())
        if m:
            if body:
                flush()
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        elif line.strip():
            body.append(line.strip())
    flush()
    return out


def _tagged_record(tags: dict[str, str], body: str, number: int) -> GameRecord:
    if "GameType" in tags:
        gametype = tags["GameType"].split(",")[0].strip()
        game = _game_of_format("pdn", gametype) if gametype else None
        if game is None:
            raise ValueError(f"unsupported PDN GameType {tags['GameType']!r}")
        start = tags.get("FEN")
    elif "Game" in tags:
        game = games.canonical(tags["Game"])
        start = tags.get("Start")
    else:
        raise ValueError("neither a Game nor a GameType tag")
    params = dict(word.partition("=")[::2] for word in tags.get("Params", "").split())
    names = _player_tags(game, params)
    moves: list[str] = []
    comments: list[str | None] = []
    result = tags.get("Result", "*")
    last_comment = None
    for kind, value in _tokens(body):
        if kind == "comment":
            last_comment = value
            if moves:
                comments[-1] = value
        elif _MOVE_NUMBER.match(value):
            continue
        elif value in RESULTS or RANKING_RESULT.fullmatch(value):
            result = value
        else:
            moves.append(re.sub(r"^\d+\.+", "", value))
            comments.append(None)
    reserved = {"Game", "GameType", "SetUp", "FEN", "Start", "Result", "Termination", "Params", *names}
    return GameRecord(game, tuple(tags.get(name, "?") for name in names), result, start,
                      moves, comments, tags.get("Termination", "normal"), last_comment or "",
                      {k: v for k, v in tags.items() if k not in reserved}, params, number)


def _tokens(body: str) -> list[tuple[str, str]]:
    out = []
    for m in re.finditer(r"\{([^}]*)\}|(\S+)", body):
        if m.group(1) is not None:
            out.append(("comment", m.group(1)))
        else:
            out.append(("word", m.group(2)))
    return out


# -- verifying -----------------------------------------------------------------

def rules_result(pos) -> int | None:
    """The result by the rules from the first mover's view (+1/0/-1), ``None`` if play goes on."""
    value = pos.outcome()
    if value is None:
        if pos.legal_moves():
            return None
        value = pos.no_moves_value()
    return value if pos.turn == 0 else -value


def scored_result(game: Game, pos) -> int | None:
    """The result of a game the rules ended, from the first mover's view (+1/0/-1), as
    a referee scores it: the game's :meth:`engine.game.Game.scored_result` where it has
    one (Go: the area once the dead stones are taken off), else the rules'; ``None``
    while play goes on."""
    r0 = rules_result(pos)
    if r0 is None:
        return None
    scored = game.scored_result(pos)
    return r0 if scored is None else scored


def verify(rec: GameRecord) -> list[str]:
    """Replay a record with zermelo's rules; the list of problems (empty when sound).

    Every move must be legal and played before the game ended; a ``normal``
    termination must be an end by the rules with the recorded result; a game
    the rules ended must carry the rules' result whatever its termination, or the
    result a referee scores (:func:`scored_result`: Go's count with the dead stones
    taken off).
    """
    try:
        game = record_game(rec)
        pos = game.new_position(rec.start)
    except (KeyError, ImportError, InvalidPositionError, ValueError) as exc:
        return [f"cannot set up {rec.game} position: {exc}"]
    players = len(game.players)
    if not (rec.result in RESULTS if players == 2 else
            rec.result == "*" or RANKING_RESULT.fullmatch(rec.result) and rec.result.count("-") == players - 1):
        return [f"bad result token {rec.result!r}"]
    for i, text in enumerate(rec.moves):
        if final_result(pos, players) is not None:
            return [f"move {i + 1} ({text}) played after the game ended"]
        try:
            pos.push(pos.parse_move(text))
        except ValueError as exc:
            return [f"move {i + 1} ({text}) is illegal: {exc}"]
    end = final_result(pos, players)
    if end is not None and end != rec.result and players == 2 and result_token(scored_result(game, pos)) == rec.result:
        end = rec.result  # scored as a referee scores it (Go's dead stones taken off)
    if end is not None and end != rec.result:
        return [f"the rules give {end}, the record says {rec.result}"]
    if rec.termination == "normal" and end is None:
        return ["termination 'normal' but the rules have not ended the game"]
    return []
