"""Play zermelo against Sunfish (``sunfish-uci``), or any UCI engine, over real UCI pipes.

Every opening is played twice, each engine taking each colour once. The script
keeps the clocks: each move's wall time (as seen through the pipe) is taken off
the mover's clock and the increment added; a clock below zero loses. Games end
by the rules (python-chess, draws claimed), or are adjudicated a draw after
``--max-plies``. Reports wins/draws/losses for zermelo, the score, the Elo
difference with its 95% interval, illegal moves and time losses.

    nice python scripts/sunfish_match.py --games 100 --tc 10+0.1
    nice python scripts/sunfish_match.py --games 20 --tc 2+0.05 --pgn /tmp/match.pgn
    nice python scripts/sunfish_match.py --opponent /usr/games/stockfish \
        --opponent-option UCI_LimitStrength=true --opponent-option UCI_Elo=2000 --games 40

python-chess is the referee and the clock here, so the script is a runner
independent of zermelo's own ``zermelo match``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import chess
import chess.engine
import chess.pgn

#: Balanced openings of 4-8 plies from the main lines of opening theory.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",          # Ruy Lopez
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",          # Italian
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4",     # Scotch
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6",          # Petrov
    "e2e4 e7e5 b1c3 g8f6 g1f3 b8c6",          # Four knights
    "e2e4 e7e5 f2f4 e5f4 g1f3 g7g5",          # King's gambit
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",  # Sicilian, open
    "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 e7e6",  # Sicilian, Taimanov
    "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 a7a6",  # Sicilian, Kan
    "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6",          # Closed Sicilian
    "e2e4 c7c5 c2c3 g8f6 e4e5 f6d5",          # Alapin
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",          # French, classical
    "e2e4 e7e6 d2d4 d7d5 e4e5 c7c5",          # French, advance
    "e2e4 e7e6 d2d4 d7d5 b1d2 c7c5",          # French, Tarrasch
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5",  # Caro-Kann, classical
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",          # Caro-Kann, advance
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6",          # Pirc
    "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6",          # Modern
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",          # Scandinavian
    "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6",          # Alekhine
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",          # QGD
    "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6",          # QGA
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6",          # Slav
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 e7e6",  # Semi-Slav
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",  # King's Indian
    "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5",          # Grünfeld
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",          # Nimzo-Indian
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",          # Queen's Indian
    "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5",          # Catalan
    "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6",          # Benoni
    "d2d4 g8f6 c2c4 c7c5 d4d5 b7b5",          # Benko
    "d2d4 f7f5 g2g3 g8f6 f1g2 g7g6",          # Dutch, Leningrad
    "d2d4 g8f6 g1f3 e7e6 c1g5 h7h6",          # Torre
    "d2d4 d7d5 g1f3 g8f6 c1f4 c7c5",          # London
    "d2d4 g8f6 c1g5 f6e4 g5f4 c7c5",          # Trompowsky
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6",          # English, four knights
    "c2c4 c7c5 b1c3 b8c6 g2g3 g7g6",          # English, symmetrical
    "c2c4 g8f6 b1c3 e7e6 e2e4 d7d5",          # English, Mikenas
    "c2c4 e7e6 g1f3 d7d5 g2g3 g8f6",          # English / Réti
    "g1f3 d7d5 g2g3 g8f6 f1g2 c7c6",          # Réti
    "g1f3 g8f6 c2c4 g7g6 b2b3 f8g7",          # Réti, double fianchetto
    "g1f3 c7c5 c2c4 b8c6 b1c3 e7e5",          # Réti / English
    "b2b3 e7e5 c1b2 b8c6 e2e3 g8f6",          # Larsen
    "f2f4 d7d5 g1f3 g8f6 e2e3 g7g6",          # Bird
    "g2g3 d7d5 f1g2 g8f6 g1f3 c7c6",          # King's fianchetto
    "e2e4 e7e5 g1f3 d7d6 d2d4 e5d4 f3d4 g8f6",  # Philidor
    "e2e4 e7e5 f1c4 g8f6 d2d3 c7c6",          # Bishop's opening
    "e2e4 e7e5 b1c3 b8c6 g2g3 g7g6",          # Vienna
    "e2e4 c7c5 g1f3 d7d6 f1b5 c8d7",          # Sicilian, Moscow
    "d2d4 e7e6 c2c4 f8b4 c1d2 d8e7",          # Bogo-Indian
]


def play_game(zermelo, opponent, opponent_name: str, opening: list[str], zermelo_white: bool,
              tc: tuple[float, float], max_plies: int) -> tuple[chess.pgn.Game, str, str]:
    """One game; returns the PGN, the result from White's view, and how it ended."""
    board = chess.Board()
    for uci in opening:
        board.push_uci(uci)
    engines = {chess.WHITE: zermelo if zermelo_white else opponent,
               chess.BLACK: opponent if zermelo_white else zermelo}
    names = {chess.WHITE: "zermelo" if zermelo_white else opponent_name,
             chess.BLACK: opponent_name if zermelo_white else "zermelo"}
    base, inc = tc
    clock = {chess.WHITE: base, chess.BLACK: base}
    result, reason = "*", ""
    spent: list[float] = []
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result, reason = outcome.result(), outcome.termination.name.lower()
            break
        if board.ply() >= max_plies:
            result, reason = "1/2-1/2", "adjudicated (ply limit)"
            break
        side = board.turn
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        start = time.perf_counter()
        try:
            played = engines[side].play(board, limit, game=id(board))
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"illegal move or engine error by {names[side]}: {e}"
            break
        spent.append(time.perf_counter() - start)
        clock[side] -= spent[-1]
        if clock[side] < 0:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"time loss by {names[side]}"
            break
        clock[side] += inc
        if played.move is None or played.move not in board.legal_moves:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"illegal move or engine error by {names[side]}: {played.move}"
            break
        board.push(played.move)
    game = chess.pgn.Game.from_board(board)
    node = game
    for ply in range(len(board.move_stack)):
        node = node.variations[0]
        if ply >= len(opening):
            node.comment = f"{spent[ply - len(opening)]:.3f}s"
    game.headers.update(White=names[chess.WHITE], Black=names[chess.BLACK], Result=result,
                        Termination=reason, TimeControl=f"{base}+{inc}")
    return game, result, reason


def elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def summary(wins: int, draws: int, losses: int) -> str:
    n = wins + draws + losses
    s = (wins + draws / 2) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    margin = 1.96 * math.sqrt(var / n)
    low, high = elo(s - margin), elo(s + margin)
    return (f"zermelo W/D/L {wins}/{draws}/{losses} of {n}: score {100 * s:.1f}% "
            f"Elo {elo(s):+.0f} (95%: {low:+.0f} .. {high:+.0f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="number of games (pairs of openings)")
    parser.add_argument("--tc", default="10+0.1", help="time control, seconds+increment")
    parser.add_argument("--zermelo", default="zermelo", help="command starting zermelo")
    parser.add_argument("--opponent", "--sunfish", dest="opponent", default="sunfish-uci",
                        help="command starting the opponent (default: sunfish-uci)")
    parser.add_argument("--opponent-option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option of the opponent (repeatable), e.g. UCI_Elo=2000")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a zermelo UCI option (repeatable)")
    parser.add_argument("--start", type=int, default=0,
                        help="number of the first game (to continue an earlier run's opening sequence)")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--pgn", help="append the games to this PGN file")
    args = parser.parse_args(argv)
    base, inc = (float(x) for x in args.tc.split("+"))
    for line in OPENINGS:
        board = chess.Board()
        for uci in line.split():
            board.push_uci(uci)  # raises on a mistyped opening

    zermelo = chess.engine.SimpleEngine.popen_uci(args.zermelo.split())
    opponent = chess.engine.SimpleEngine.popen_uci(args.opponent.split())
    opponent_name = opponent.id.get("name", args.opponent.split()[0])
    if args.option:
        zermelo.configure(dict(opt.split("=", 1) for opt in args.option))
    if args.opponent_option:
        opponent.configure(dict(opt.split("=", 1) for opt in args.opponent_option))
    wins = draws = losses = illegal = time_losses = 0
    try:
        for i in range(args.start, args.start + args.games):
            opening = OPENINGS[(i // 2) % len(OPENINGS)].split()
            zermelo_white = i % 2 == 0
            game, result, reason = play_game(zermelo, opponent, opponent_name, opening, zermelo_white,
                                             (base, inc), args.max_plies)
            won = result == ("1-0" if zermelo_white else "0-1")
            lost = result == ("0-1" if zermelo_white else "1-0")
            wins, losses, draws = wins + won, losses + lost, draws + (not won and not lost)
            illegal += "illegal" in reason
            time_losses += "time loss" in reason
            print(f"game {i + 1}: zermelo {'white' if zermelo_white else 'black'} {result} ({reason}); "
                  f"{summary(wins, draws, losses)}", flush=True)
            if args.pgn:
                with open(args.pgn, "a") as f:
                    print(game, file=f, end="\n\n")
    finally:
        zermelo.quit()
        opponent.quit()
    print(summary(wins, draws, losses))
    print(f"illegal moves or engine errors: {illegal}; time losses: {time_losses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
