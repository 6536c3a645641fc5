"""No code in engine/ or protocol/ tells games apart by comparing a name with a
string: it asks the game's class traits (engine/game.py), so a new game needs
no hunt for literals. scripts/name_tests.py lists what remains elsewhere (the
scripts' per-game settings)."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _name_tests():
    spec = importlib.util.spec_from_file_location("name_tests", ROOT / "scripts" / "name_tests.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_scan_finds_a_name_test(tmp_path):
    source = tmp_path / "x.py"
    source.write_text('if game.name == "chess":\n    pass\nif name in ("checkers", "x"):\n    pass\n'
                      'BUILD = {"kalah": 1}\nOK = game.name == "knight"\n')
    found = _name_tests().find(source, {"chess", "checkers", "kalah"})
    assert [line for line, _ in found] == [1, 3, 5]


def test_engine_and_protocol_have_no_game_name_tests():
    assert _name_tests().scan(["engine", "protocol"]) == []
