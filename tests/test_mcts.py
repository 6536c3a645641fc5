"""The Monte-Carlo tree search (engine/mcts.py): tactics it must not miss, the values
of tiny solved games (proven by its solver, checked against a full-width alpha-beta
search), its limits and reports over real pipes, and the Strategy option."""

from __future__ import annotations

import random
import re

import pytest
from test_protocol import Pipe as ServerPipe

import games
from engine.driver import Info
from engine.game import EVAL_LIMIT, WIN, mate_plies
from engine.mcts import MCTSSearcher, win_rate_cp
from engine.multiplayer import VectorInfo
from engine.search import Searcher
from engine.timeman import Limits


def mcts(game, text, nodes=4000, seed=1, rave=False, **limits):
    pos = game.new_position(text)
    searcher = MCTSSearcher(seed=seed)
    searcher.rave = rave
    infos: list[Info] = []
    result = searcher.search(game, pos, Limits(nodes=nodes, **limits), on_info=infos.append)
    assert pos.to_text() == game.new_position(text).to_text(), "the search left the position changed"
    return pos, result, infos, searcher


def exact(game, text):
    """Alpha-beta to the end of a tiny game: the proven value for the side to move."""
    pos = game.new_position(text)
    ended = pos.outcome()
    if ended is None and not pos.legal_moves():
        ended = pos.no_moves_value()
    if ended is not None:
        return ended * WIN
    result = Searcher().search(game, pos, Limits(depth=20))
    assert abs(result.score) > EVAL_LIMIT or result.score == 0
    return result.score


def outcome(score: int) -> int:
    return (score > 0) - (score < 0)


TTT = games.load("tictactoe")
C4 = games.load("connect4")


@pytest.mark.parametrize("rave", [False, True], ids=["uct", "rave"])
@pytest.mark.parametrize("text,best", [
    ("xx./oo./... x", "c3"),    # x wins on the top row
    ("xo./xo./... x", "a1"),    # x wins down the a-file
    ("x../.x./o.. o", "c1"),    # o must block the diagonal at c1
    ("oo./x../x.. x", "c3"),    # x must block o's top row
])
def test_tic_tac_toe_win_in_one_and_forced_block(text, best, rave):
    pos, result, _, _ = mcts(TTT, text, nodes=3000, rave=rave)
    assert pos.move_text(result.best) == best
    if text == "xx./oo./... x":
        assert result.score == WIN - 1  # proven: the solver reports the mate


@pytest.mark.parametrize("moves,best", [
    (["4", "4", "3", "3", "2", "2"], "1"),  # three in a row on the bottom: win at once (or 5)
    (["4", "1", "4", "1", "4"], "4"),       # block the column
    (["2", "3", "7", "4", "1", "5"], "6"),  # block 3-4-5 on the bottom
])
def test_connect_four_win_in_one_and_forced_block(moves, best):
    pos = C4.new_position()
    for m in moves:
        pos.push(pos.parse_move(m))
    text = pos.to_text()
    pos, result, _, _ = mcts(C4, text, nodes=3000)
    played = pos.move_text(result.best)
    if moves == ["4", "4", "3", "3", "2", "2"]:
        assert played in ("1", "5") and result.score == WIN - 1
    else:
        assert played == best


def random_positions(game, count, plies, seed):
    rng = random.Random(seed)
    texts = []
    while len(texts) < count:
        pos = game.new_position()
        for _ in range(rng.choice(plies)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves() and pos.outcome() is None:
            texts.append(pos.to_text())
    return texts


@pytest.mark.parametrize("text", random_positions(TTT, 12, [2, 3, 4, 5], "mcts-ttt"))
def test_tic_tac_toe_positions_agree_with_alpha_beta(text):
    """A win or loss is proven with its outcome; a draw (proven only once every line is
    played out) is never called a proven win or loss. The move played keeps the value."""
    pos, result, infos, searcher = mcts(TTT, text, nodes=20000)
    value = exact(TTT, text)
    if value:
        assert searcher.settled(0, None, Limits()), "the solver did not prove a won or lost tiny game"
        assert outcome(result.score) == outcome(value)
    else:
        assert abs(result.score) < EVAL_LIMIT or result.score == 0
    pos.push(result.best)
    assert outcome(-exact(TTT, pos.to_text())) == outcome(value)
    assert infos[-1].score == result.score


@pytest.mark.parametrize("heaps,max_take,normal", [((7,), 2, False), ((3, 4, 5), 5, True), ((2, 3), 2, False),
                                                  ((1, 2, 4), 4, False), ((5, 5), 3, True)])
def test_nim_values_agree_with_the_solved_game(heaps, max_take, normal):
    game = games.load("nim", heaps=heaps, max_take=max_take, normal=normal)
    text = game.new_position().to_text()
    _, result, _, searcher = mcts(game, text, nodes=30000)
    assert searcher.root_proof != WIN * 4
    assert outcome(result.score) == outcome(exact(game, text))


def test_connect_four_mate_is_proven_with_its_distance():
    pos = C4.new_position()
    for m in ["4", "4", "3", "3", "5", "5"]:
        pos.push(pos.parse_move(m))
    _, result, _, _ = mcts(C4, pos.to_text(), nodes=3000)
    assert mate_plies(result.score) == 1


def test_nodes_depth_and_reports():
    _, result, infos, _ = mcts(C4, None, nodes=500)
    assert result.nodes == 500 and infos[-1].nodes == 500
    depths = [i.depth for i in infos]
    assert depths == sorted(depths) and depths[-1] >= 4
    assert all(i.pv and i.pv[0] in C4.new_position().legal_moves() for i in infos)
    # An unproven score is the win rate's centipawns: inside the heuristic range.
    assert abs(result.score) <= 1200
    _, result, infos, _ = mcts(C4, None, nodes=None, depth=3)
    assert result.nodes == 16 + 32 + 64


def test_multipv_lines_are_the_most_visited_root_moves():
    game = C4
    pos = game.new_position()
    searcher = MCTSSearcher(seed=3)
    infos: list[Info] = []
    searcher.search(game, pos, Limits(nodes=800), multipv=3, on_info=infos.append)
    last = [i for i in infos if i.depth == infos[-1].depth][-3:]
    assert [i.multipv for i in last] == [1, 2, 3]
    assert len({i.pv[0] for i in last}) == 3


def test_win_rate_mapping():
    assert win_rate_cp(0.5) == 0 and win_rate_cp(0.64) == 100
    assert win_rate_cp(0.0) == -1200 and win_rate_cp(1.0) == 1200
    assert win_rate_cp(0.3) < win_rate_cp(0.4) < 0


def test_searchmoves_restrict_the_root():
    pos = C4.new_position()
    only = [pos.parse_move("1"), pos.parse_move("7")]
    searcher = MCTSSearcher(seed=1)
    result = searcher.search(C4, pos, Limits(nodes=300, searchmoves=only))
    assert result.best in only


def test_go_playouts_use_the_eye_rule_and_end():
    game = games.load("go", size=5)
    pos, result, infos, searcher = mcts(game, None, nodes=60)
    assert result.best in pos.legal_moves() and infos[-1].nodes == 60


#: 5x5, White has just passed: Black's only plays fill its own two eyes (A5, C5; every
#: other empty point is suicide), and Black is behind on the board.
EYES_ONLY = ".x.xo/xxxxo/ooooo/.o.o./o.o.o x - 1"


@pytest.mark.parametrize("rave", [False, True])
def test_go_tree_never_fills_its_own_eyes(rave):
    """Passing loses and the tree saw only that: before the tree left eye fills out it
    filled an eye (an unproven move is preferred to a proven loss), and its group died."""
    game = games.load("go", size=5)
    pos, result, _, searcher = mcts(game, EYES_ONLY, nodes=300, rave=rave)
    assert pos.move_text(result.best) == "pass"
    assert [pos.move_text(m) for m in searcher.root_moves] == ["pass"]
    # The same everywhere in the tree: no child fills an eye of its mover's.
    pos, result, _, searcher = mcts(game, "x.xxo/xxxo./oo.oo/...../..... x - 0", nodes=2000, rave=rave)
    assert pos.parse_move("b5") not in searcher.root_moves
    seen = 0

    def walk(node: int) -> None:
        nonlocal seen
        first = searcher.first[node]
        for child in range(first, first + searcher.count[node] if first >= 0 else first):
            move = searcher.move[child]
            assert not own_eye(pos, move), (pos.to_text(), pos.move_text(move))
            seen += 1
            pos.push(move)
            walk(child)
            pos.pop()

    walk(0)
    assert seen > 100


def own_eye(pos, move) -> bool:
    """Whether ``move`` fills an eye of the mover's: a point whose neighbours are all its
    stones, with fewer opponent stones on the diagonals than make it false (one at the
    edge, two elsewhere)."""
    if move == pos.pass_move:
        return False
    rows = pos.to_text().split()[0].split("/")
    height, width = len(rows), len(rows[0])
    col, row = move % width, height - 1 - move // width
    own, other = "xo"[pos.turn], "ox"[pos.turn]

    def at(c, r):
        return rows[r][c] if 0 <= c < width and 0 <= r < height else None

    if any(at(c, r) not in (own, None) for c, r in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1))):
        return False
    diagonals = [at(col + dc, row + dr) for dc in (1, -1) for dr in (1, -1)]
    return diagonals.count(other) < (1 if None in diagonals else 2)


def test_three_players_report_a_vector():
    game = games.load("mnkmulti")
    pos, result, infos, _ = mcts(game, None, nodes=200)
    assert isinstance(infos[-1], VectorInfo) and len(infos[-1].vector) == len(game.players)
    assert sum(infos[-1].vector) <= game.value_sum + len(game.players)
    assert result.best in pos.legal_moves()


# -- over real pipes ---------------------------------------------------------------------

class Pipe(ServerPipe):
    """The protocol tests' server pipe, with the patience of searches on a loaded machine."""

    def until(self, pattern: str, timeout: float = 30.0) -> list[str]:
        return super().until(pattern, timeout)


def bestmoves(lines):
    return [line for line in lines if line.startswith("bestmove")]


def test_option_is_declared_and_validated():
    p = Pipe()
    lines = p.handshake()
    assert "option name Strategy type combo default auto var auto var alphabeta var mcts" in lines
    p.send("setoption name Strategy value montecarlo", "isready")
    out = p.until("readyok")
    assert any(line.startswith("info string error") and "Strategy" in line for line in out)
    p.close()


def mcts_pipe(variant="connect4"):
    p = Pipe()
    p.handshake()
    p.send(f"setoption name UCI_Variant value {variant}", "setoption name Strategy value mcts", "isready")
    p.until("readyok")
    return p


def test_pipe_nodes_give_one_bestmove_and_exact_nodes():
    p = mcts_pipe()
    p.send("position startpos moves 4 4", "go nodes 700")
    out = p.until("bestmove")
    infos = [line for line in out if line.startswith("info depth")]
    assert infos and re.search(r" nodes 700 ", infos[-1]) and " score cp " in infos[-1]
    assert all(int(re.search(r" nodes (\d+)", line).group(1)) <= 700 for line in infos)
    p.send("isready")
    assert not bestmoves(p.until("readyok"))
    p.close()


def test_pipe_win_in_one_reports_mate():
    p = mcts_pipe()
    p.send("position startpos moves 4 4 3 3 5 5", "go nodes 5000")
    out = p.until("bestmove")
    assert re.match(r"bestmove (2|6)\b", out[-1])
    assert " score mate 1 " in [line for line in out if line.startswith("info depth")][-1]
    p.close()


def ends_with_one_bestmove(p, command: str) -> None:
    """A search that does not end by itself (infinite, pondering) answers nothing for
    half a second, then exactly one bestmove after ``command``, and none more."""
    assert not bestmoves(p.quiet(0.5))
    p.send(command)
    assert len(bestmoves(p.until("bestmove"))) == 1
    p.send("isready")
    assert not bestmoves(p.until("readyok"))


def test_pipe_movetime_and_stop_each_give_one_bestmove():
    p = mcts_pipe("go")
    p.send("setoption name go_size value 9", "position startpos", "go movetime 500")
    out = p.until("bestmove")
    assert len(bestmoves(out)) == 1
    p.send("go infinite")
    ends_with_one_bestmove(p, "stop")
    p.close()


def test_pipe_threads_with_mcts_keep_the_main_workers_fixed_answer():
    p = mcts_pipe()
    p.send("setoption name Threads value 2", "position startpos", "go nodes 100")
    out = p.until("bestmove")
    assert not any("error" in line or "one thread" in line for line in out)
    # go nodes: the main worker's 100 simulations decide; the reports add the helper's.
    infos = [line for line in out if line.startswith("info depth")]
    assert int(re.search(r" nodes (\d+)", infos[-1]).group(1)) >= 100
    assert re.fullmatch(r"bestmove [1-7]( ponder [1-7])?", out[-1])
    p.close()


def test_pipe_ponder_then_ponderhit_gives_one_bestmove():
    p = mcts_pipe()
    p.send("setoption name Ponder value true", "position startpos moves 4", "go ponder movetime 300")
    ends_with_one_bestmove(p, "ponderhit")
    p.close()


def test_the_strategy_and_rave_options_choose_the_searcher():
    from engine.engine import Engine

    engine = Engine(games)
    engine.set_option("UCI_Variant", "go")
    # Strategy auto: Go's choice, Monte-Carlo with RAVE from 9x9, alpha-beta below.
    assert isinstance(engine.searcher, MCTSSearcher) and engine.searcher.rave and engine.searcher.heavy
    engine.set_option("go_size", "7")
    assert isinstance(engine.searcher, Searcher)
    engine.set_option("Playouts", "light")
    engine.set_option("Strategy", "mcts")
    assert not engine.searcher.heavy
    assert isinstance(engine.searcher, MCTSSearcher) and not engine.searcher.rave
    engine.set_option("RAVE", "true")
    assert engine.searcher.rave
    engine.set_option("UCI_Variant", "mnkmulti")
    assert isinstance(engine.searcher, MCTSSearcher)
    engine.set_option("Strategy", "alphabeta")
    assert not isinstance(engine.searcher, MCTSSearcher)
