"""EvalFile and Use NNUE over real pipes: a network replaces the hand-written evaluation,
a bad file is refused with one line and changes nothing."""

from __future__ import annotations

import os

import numpy as np
import pytest

import games
from engine.nnue import load_network, save_network, shipped
from tests.test_protocol import Pipe, pipe  # noqa: F401  (the fixture)

pytestmark = pytest.mark.both_builds

START = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def evaluation(p: Pipe) -> str:
    p.send("d")
    lines = p.until("Legal moves: ")
    found = [line for line in lines if line.startswith("Evaluation: ")]
    assert len(found) == 1, lines
    return found[0]


def write_network(path, game="chess", seed=11):
    g = games.load(game)
    rng = np.random.default_rng(seed)
    save_network(path, game=game, features=g.inputs.name, scale=400,
                 ft_weight=rng.uniform(-0.4, 0.4, (g.inputs.size, 8)), ft_bias=rng.uniform(-0.2, 0.2, 8),
                 out_weight=rng.uniform(-1, 1, 16), out_bias=0.05)
    return load_network(path, game=game, features=g.inputs.name, inputs=g.inputs.size, max_active=g.inputs.most_active)


def test_eval_file_and_use_nnue(pipe, tmp_path):  # noqa: F811
    good = tmp_path / "chess.znn"
    net = write_network(good)
    expected = net.evaluate_features(*games.load("chess").new_position(START).nn_features())
    hand = games.load("chess").new_position(START).evaluate()
    pipe.handshake()
    pipe.send(f"position fen {START}")
    assert evaluation(pipe) == f"Evaluation: {hand:+d} (hand-written)"
    pipe.send(f"setoption name EvalFile value {good}")
    assert evaluation(pipe) == f"Evaluation: {expected:+d} (network {good})"

    # Bad files: one error line naming the file each, and the network stays in use.
    corrupt = tmp_path / "corrupt.znn"
    data = bytearray(good.read_bytes())
    data[len(data) // 2] ^= 1
    corrupt.write_bytes(bytes(data))
    truncated = tmp_path / "truncated.znn"
    truncated.write_bytes(good.read_bytes()[:-50])
    unknown = tmp_path / "unknown.znn"
    save_network(unknown, game="frob", features="frob", scale=400, ft_weight=np.zeros((4, 8)),
                 ft_bias=np.zeros(8), out_weight=np.zeros(16), out_bias=0.0)
    fifo = tmp_path / "fifo.znn"
    os.mkfifo(fifo)
    for path, reason in ((corrupt, "checksum"), (truncated, "truncated"), (tmp_path / "absent.znn", "cannot read"),
                         (unknown, "for the game 'frob', which zermelo does not play"),
                         (fifo, "not a regular file (a FIFO)"), (tmp_path, "not a regular file (a directory)")):
        pipe.send(f"setoption name EvalFile value {path}")
        line = pipe.line()
        assert line.startswith(f"info string error: setoption: EvalFile: {path}: ") and reason in line, line
        assert evaluation(pipe) == f"Evaluation: {expected:+d} (network {good})"

    # The network follows the moves played, and a search runs with it.
    pipe.send(f"position fen {START} moves e7e5 g1f3")
    after = games.load("chess").new_position(START)
    for text in ("e7e5", "g1f3"):
        after.push(after.parse_move(text))
    assert evaluation(pipe) == f"Evaluation: {net.evaluate_features(*after.nn_features()):+d} (network {good})"
    pipe.send("go depth 3")
    assert pipe.until("bestmove ")[-1].split()[1] in {after.move_text(m) for m in after.legal_moves()}

    pipe.send("setoption name Use NNUE value false")
    assert evaluation(pipe) == f"Evaluation: {after.evaluate():+d} (hand-written)"
    pipe.send("setoption name Use NNUE value true")
    assert evaluation(pipe).endswith(f"(network {good})")
    pipe.send("setoption name EvalFile value <empty>")
    assert evaluation(pipe) == f"Evaluation: {after.evaluate():+d} (hand-written)"


def test_a_position_set_up_anew_is_evaluated_by_the_network(pipe, tmp_path):  # noqa: F811
    """A position that does not extend the current line (a game's first, one after
    ucinewgame) is set up with the network too, not only the one in place at EvalFile."""
    good = tmp_path / "chess.znn"
    net = write_network(good)
    pos = games.load("chess").new_position(START)
    expected = f"Evaluation: {net.evaluate_features(*pos.nn_features()):+d} (network {good})"
    pipe.handshake()
    pipe.send(f"setoption name EvalFile value {good}", "position startpos moves e2e4")
    assert evaluation(pipe) == expected
    pipe.send("ucinewgame", f"position fen {START}")
    assert evaluation(pipe) == expected


def said_once(pipe, change: str, words: tuple[str, ...], move: str) -> None:
    """After ``change`` the hand-written evaluation answers, one error line says why
    (naming ``words``), and a later position (``move``) hears nothing more."""
    pipe.send(change, "d")
    lines = pipe.until("Legal moves: ")
    assert any(line.startswith("Evaluation: ") and line.endswith("(hand-written)") for line in lines)
    # The note of the change is the engine's own, written once the command is answered.
    lines += pipe.until("info string error")
    errors = [line for line in lines if line.startswith("info string")]
    assert len(errors) == 1 and all(w in errors[0] for w in words), lines
    pipe.send(f"position startpos moves {move}", "d", "isready")
    lines = pipe.until("readyok")
    assert not [line for line in lines if line.startswith("info string")], lines


def test_a_network_for_another_game_is_said_once_at_the_switch(pipe, tmp_path):  # noqa: F811
    good = tmp_path / "chess.znn"
    write_network(good)
    pipe.handshake()
    pipe.send(f"setoption name EvalFile value {good}")
    said_once(pipe, "setoption name UCI_Variant value reversi", (str(good), "for the game 'chess'"), "f5")


def test_a_network_for_another_board_is_said_once_at_the_parameter_change(pipe, tmp_path):  # noqa: F811
    """Kalah's inputs follow its board: after a parameter change the file read for the
    old board is not used for the new one (it is said once), and serves again back on
    its own board."""
    good = tmp_path / "kalah.znn"
    net = write_network(good, "kalah")
    pipe.handshake()
    pipe.send("setoption name UCI_Variant value kalah", f"setoption name EvalFile value {good}")
    start = games.load("kalah").new_position()
    assert evaluation(pipe) == f"Evaluation: {net.evaluate_features(*start.nn_features()):+d} (network {good})"
    said_once(pipe, "setoption name kalah_pits value 4", (str(good), "'kalah-6x4', not 'kalah-4x4'"), "1")
    pipe.send("setoption name kalah_pits value 6")
    assert evaluation(pipe) == f"Evaluation: {net.evaluate_features(*start.nn_features()):+d} (network {good})"


def explain(*args: str):
    import subprocess
    import sys

    from tests.test_protocol import REPO
    return subprocess.run([sys.executable, "-m", "protocol", "explain", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


def test_explain_shows_the_network_beside_the_terms(tmp_path):
    good = tmp_path / "chess.znn"
    net = write_network(good)
    done = explain("chess", "--fen", START, "--eval-file", str(good))
    assert done.returncode == 0, done.stderr
    pos = games.load("chess").new_position(START)
    assert f"network ({good}) for black: {net.evaluate_features(*pos.nn_features()):+d}" in done.stdout
    row = next(line.split() for line in done.stdout.splitlines() if line.split()[:1] == ["e7e5"])
    pos.push(pos.parse_move("e7e5"))
    assert int(row[-1]) == -net.evaluate_features(*pos.nn_features())
    wrong = tmp_path / "reversi.znn"
    write_network(wrong, "reversi")
    done = explain("chess", "--eval-file", str(wrong))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"zermelo explain: {wrong}: the network is for the game 'reversi', not 'chess'\n"


def test_threads_helpers_evaluate_with_the_servers_network(tmp_path):
    """A Lazy SMP helper is told the server's network and scores its leaves with it."""
    from engine.control import Control
    from engine.smp import _Worker

    good = tmp_path / "chess.znn"
    net = write_network(good)
    worker = _Worker()
    pos = games.load("chess").new_position()
    message = {"registry": "games", "variant": "chess", "params": None, "root": None, "moves": ["e2e4"],
               "generation": 1, "depth": 2, "searchmoves": [], "index": 1, "network": str(good)}
    pos.push(pos.parse_move("e2e4"))
    message["key"] = pos.key
    worker.go(message, Control(), lambda report: None)
    assert worker.pos.evaluate() == net.evaluate_features(*worker.pos.nn_features())
    message["network"] = ""
    worker.go(message, Control(), lambda report: None)
    assert worker.pos.evaluate() == pos.evaluate()


def test_threads_helpers_read_a_network_per_board(tmp_path):
    """A helper told the same file for another board of the game (rewritten for it, as
    the server reads it again at EvalFile) reads it again, not the one of the old board."""
    from engine.control import Control
    from engine.smp import _Worker

    path = tmp_path / "kalah.znn"
    worker = _Worker()
    for seed, pits in ((3, 6), (4, 4)):
        game = games.load("kalah", pits=pits)
        rng = np.random.default_rng(seed)
        save_network(path, game="kalah", features=game.inputs.name, scale=400,
                     ft_weight=rng.uniform(-0.4, 0.4, (game.inputs.size, 8)), ft_bias=rng.uniform(-0.2, 0.2, 8),
                     out_weight=rng.uniform(-1, 1, 16), out_bias=0.05)
        net = load_network(path, game="kalah", features=game.inputs.name, inputs=game.inputs.size,
                           max_active=game.inputs.most_active)
        message = {"registry": "games", "variant": "kalah", "params": game.params.model_dump_json(), "root": None, "moves": [],
                   "generation": pits, "depth": 2, "searchmoves": [], "index": 1, "network": str(path),
                   "key": game.new_position().key}
        worker.go(message, Control(), lambda report: None)
        assert worker.pos.evaluate() == net.evaluate_features(*worker.pos.nn_features())


def zermelo(*args: str):
    import subprocess
    import sys

    from tests.test_protocol import REPO
    return subprocess.run([sys.executable, "-m", "protocol", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600)


def test_self_play_data_trains_a_network_the_server_plays_with(pipe, tmp_path):  # noqa: F811
    """The whole path on a small Kalah board, whose inputs follow the board: datagen plays a
    few games at a few nodes a move, train fits a network to them with numpy (told the
    board, as datagen was), and the server loads the file and searches with it."""
    data, net = tmp_path / "k.zdata", tmp_path / "k.znn"
    board = ["-p", "pits=4", "-p", "seeds=3"]
    done = zermelo("datagen", "kalah", *board, "--games", "6", "--nodes", "60", "--random-plies", "2",
                   "--concurrency", "1", "--out", str(data))
    assert done.returncode == 0, done.stderr
    done = zermelo("train", "kalah", "--data", str(data), "--out", str(net), "--trainer", "numpy")
    assert done.returncode == 1 and "'kalah-4x3', not 'kalah-6x4'" in done.stderr and not net.exists()
    done = zermelo("train", "kalah", *board, "--data", str(data), "--out", str(net), "--acc", "8",
                   "--epochs", "3", "--batch", "32", "--trainer", "numpy")
    assert done.returncode == 0, done.stderr
    game = games.load("kalah", pits=4, seeds=3)
    network = load_network(net, game="kalah", features="kalah-4x3", inputs=game.inputs.size,
                           max_active=game.inputs.most_active)
    pipe.handshake()
    pipe.send("setoption name UCI_Variant value kalah", "setoption name kalah_pits value 4",
              "setoption name kalah_seeds value 3", f"setoption name EvalFile value {net}", "position startpos moves 2")
    pos = game.new_position()
    pos.push(2)
    assert evaluation(pipe) == f"Evaluation: {network.evaluate_features(*pos.nn_features()):+d} (network {net})"
    pipe.send("go depth 4")
    assert pipe.until("bestmove ")[-1].split()[1] in {pos.move_text(m) for m in pos.legal_moves()}


def test_the_textbook_evaluation_asked_for_by_name_wins_over_a_network(pipe, tmp_path):  # noqa: F811
    """``checkers_eval textbook`` (the chapters' men + 3 × kings) is what answers even
    with a network loaded: the game then offers no network inputs, and the network
    comes back with ``checkers_eval engine``."""
    good = tmp_path / "checkers.znn"
    net = write_network(good, "checkers")
    for name in ("checkers", "shashki", "tictactoe", "mnk"):
        assert games.load(name, eval="textbook").inputs is None, name
    pipe.handshake()
    pipe.send("setoption name UCI_Variant value checkers", f"setoption name EvalFile value {good}",
              "setoption name checkers_eval value textbook", "d", "go depth 1")
    lines = pipe.until("bestmove")
    assert not [line for line in lines if line.startswith(("Evaluation: ", "info string"))], lines
    # Every first move keeps the material even: the textbook score is 0.
    assert [line for line in lines if " depth 1 " in line and " score cp 0 " in line], lines
    pipe.send("setoption name checkers_eval value engine")
    start = games.load("checkers").new_position()
    assert evaluation(pipe) == f"Evaluation: {net.evaluate_features(*start.nn_features()):+d} (network {good})"


@pytest.mark.parametrize("order", ["EvalFile first", "UCI_Variant first"])
def test_eval_file_takes_effect_in_any_order(pipe, tmp_path, order):  # noqa: F811
    """GUIs (cutechess) send the options before the variant: a network for the game
    chosen after it evaluates that game, said in one line only while another game is played."""
    net = tmp_path / "reversi.znn"
    network = write_network(net, "reversi")
    expected = f"Evaluation: {network.evaluate_features(*games.load('reversi').new_position().nn_features()):+d}"
    lines = ["setoption name EvalFile value " + str(net), "setoption name UCI_Variant value reversi"]
    pipe.handshake()
    pipe.send(*(lines if order == "EvalFile first" else lines[::-1]), "isready")
    said = [line for line in pipe.until("readyok") if line.startswith("info string")]
    if order == "EvalFile first":
        assert len(said) == 1 and said[0].startswith(f"info string EvalFile: {net}: the network is for the game "
                                                     "'reversi', not 'chess'; kept for the game it fits"), said
    else:
        assert said == []
    assert evaluation(pipe) == f"{expected} (network {net})"
    pipe.send("go depth 3")
    lines = pipe.until("bestmove ")
    assert not [line for line in lines if line.startswith("info string")], lines


@pytest.mark.parametrize("order", ["EvalFile first", "UCI_Variant first"])
def test_a_file_that_fits_no_game_is_one_error_line_in_any_order(pipe, tmp_path, order):  # noqa: F811
    bad = tmp_path / "bad.znn"
    bad.write_bytes(b"not a network at all")
    lines = ["setoption name EvalFile value " + str(bad), "setoption name UCI_Variant value reversi"]
    pipe.handshake()
    pipe.send(*(lines if order == "EvalFile first" else lines[::-1]), "isready")
    said = [line for line in pipe.until("readyok") if line.startswith("info string")]
    assert said == [f"info string error: setoption: EvalFile: {bad}: not a zermelo network file (bad magic); "
                    "the evaluation in use stays"]
    assert evaluation(pipe).endswith(f"(network {shipped('reversi')})")
