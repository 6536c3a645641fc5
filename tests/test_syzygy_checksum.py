"""The Syzygy files' embedded checksum (games/chess/syzygy_checksum.py), in both builds.

The expected words of the hash functions were computed by the Syzygy generator's own C
(syzygy1/tb, ``src/city-c.c`` with its software CRC-32C) over the same pseudo-random
words, at lengths that reach every path: short inputs padded to one block, tails
of every remainder, CityHash128's short and long forms, and CityHashCrc128 above 900
bytes (the combination of more than 28 chunks, a file over 448 MB).
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from array import array
from pathlib import Path

import chess
import pytest

from engine.control import Control, Stopped
from games.chess.syzygy_checksum import FileChecksum, checksum, crc128, crc256, words

pytestmark = pytest.mark.both_builds

DATA = Path(__file__).parent / "data" / "syzygy"
FILES = sorted(DATA.iterdir())

CRC256 = {
    64: (0x5c82253545d01e45, 0x6cba809eb4d10b7f, 0xd5cbca99079cf919, 0x4f63e9831fc41cce),
    128: (0xd399ca5694686736, 0xb281d0a94c0afaa5, 0x33c0210ae0dd10d7, 0x650117a9f2da036d),
    192: (0x535234c7f8c43d95, 0x11b9b9984b16075d, 0xf8477c79a957a30d, 0xbfa6dd3ef317c348),
    240: (0xf4969c011995ade2, 0x2c963b04bfbb0a54, 0xf8aef17e9654fee0, 0xa68e114cafcc3805),
    256: (0xd876ef767eacb2eb, 0xa3ea90878b617dcd, 0xcf715eeb2042cec3, 0x6bbf3d31cef4f96b),
    448: (0xfc9b950aa905e41b, 0xf0bad4cb02565faf, 0xeeddeed9189f4e55, 0x51eaba82319203ab),
    480: (0xb4604841c348c157, 0x18bc50be83e6ebf4, 0x2c6da9a782897178, 0x372c5d4158135135),
    1024: (0x865fbaf7a54e40e4, 0x38a47e5328245845, 0x3d370ba4f5ee6362, 0x70e4af5ea811ee49),
    4160: (0xb56cae97bb15460c, 0x9a00ec9a72e65c04, 0x3140e7dfb75024bc, 0x5fd17729594d1cad),
    8192: (0x3e2ec59228869e96, 0x77c992b6e97efb7f, 0xffc4cb5dba64a33c, 0x9152b46df9287450),
}
CRC128 = {
    32: (0x7965cb544637349e, 0x6a86b60bb1015465),
    64: (0x98435b721a9e14f1, 0xc457ad37a1eb81ee),
    96: (0x0195747cb53037e5, 0xfc3f71f012d65c04),
    128: (0x6073fe176493983f, 0xed00cb21ba9bb7ed),
    160: (0x9ed61897af3c5d75, 0x654d999a8a77e78d),
    256: (0x21f7b2fa0f4ce6f5, 0xf3214ad5342d2563),
    480: (0x5f06f18b2d916672, 0x26b9ecdd827ed1e3),
    896: (0xee0ce9b98c2fad7f, 0x52405c7e3636d2fe),
    928: (0xd7c7730ca4ef6463, 0xda511928ab524528),
    2048: (0x6e8d48f740c57a26, 0x34b313d40ab5f661),
}


def _xorshift_words(count: int) -> array:
    """The words the reference values were computed over (xorshift64, 13/7/17)."""
    mask = (1 << 64) - 1
    x = 0x9E3779B97F4A7C15
    out = array("Q")
    for _ in range(count):
        x ^= (x << 13) & mask
        x ^= x >> 7
        x ^= (x << 17) & mask
        out.append(x)
    return out


def test_the_published_set_is_what_the_test_expects():
    assert len(FILES) == 70
    assert all(os.path.getsize(p) % 64 == 16 for p in FILES)


@pytest.mark.parametrize("length", sorted(CRC256))
def test_crc256_matches_the_generator(length):
    assert crc256(_xorshift_words(1024), 0, length) == CRC256[length]


@pytest.mark.parametrize("length", sorted(CRC128))
def test_crc128_matches_the_generator(length):
    assert crc128(_xorshift_words(1024), 0, length) == CRC128[length]


def test_every_table_of_the_set_verifies():
    for path in FILES:
        assert FileChecksum(str(path)).run() is None, path
        data = path.read_bytes()
        body = len(data) & ~63
        assert checksum(data[:body]) == tuple(words(data[body:])), path


def test_a_flipped_bit_anywhere_fails(tmp_path):
    rng = random.Random(7)
    # Files of every size class: 80 bytes (shorter than one 240-byte block) to 450 KB.
    names = ["KBvK.rtbw", "KQvK.rtbw", "KBBvK.rtbw", "KRvKP.rtbz", "KBNvK.rtbz"]
    for name in names:
        source = DATA / name
        size = source.stat().st_size
        # The first and last bytes of the body, the stored checksum, and random places.
        for offset in [0, 63, size - 17, size - 16, size - 1] + [rng.randrange(size) for _ in range(4)]:
            bit = rng.randrange(8)
            target = tmp_path / name
            shutil.copyfile(source, target)
            data = bytearray(target.read_bytes())
            data[offset] ^= 1 << bit
            target.write_bytes(bytes(data))
            reason = FileChecksum(str(target)).run()
            assert reason is not None and "checksum does not match" in reason, (name, offset, bit)


def test_a_file_without_checksum_is_refused(tmp_path):
    data = (DATA / "KQvK.rtbw").read_bytes()
    target = tmp_path / "KQvK.rtbw"
    target.write_bytes(data[:len(data) & ~63])
    assert "no checksum" in FileChecksum(str(target)).run()


def test_a_truncated_read_is_refused(tmp_path):
    """A file cut short after the verification began (its size taken first)."""
    target = tmp_path / "KBNvK.rtbz"
    shutil.copyfile(DATA / "KBNvK.rtbz", target)
    check = FileChecksum(str(target))
    os.truncate(target, 1000)
    assert "cut short" in check.run()


class _Budget(Control):
    """A control that stops at every ``every``-th look."""

    def __init__(self, every: int):
        super().__init__()
        self.every, self.looks = every, 0

    def check(self) -> None:
        self.looks += 1
        if self.looks % self.every == 0:
            raise Stopped


def test_a_stopped_verification_resumes_where_it_stopped():
    """The largest file of the set, stopped at every third look at the control, ends
    with the verdict of one uninterrupted run."""
    check = FileChecksum(str(DATA / "KBNvK.rtbz"))
    control = _Budget(3)
    stops = 0
    while True:
        try:
            verdict = check.run(control)
            break
        except Stopped:
            stops += 1
    assert verdict is None
    # 461,824 bytes are 1,924 blocks of 240: 31 slices, so many stops.
    assert stops > 5



def test_a_go_before_the_verification_ends_plays_without_the_unverified_files(tmp_path, monkeypatch):
    """KQvK.rtbw stands for a file too large to verify before the go's preparation
    deadline (its hashing never ends): the go still answers with a legal move, and no
    KQvK table is probed; KRvK.rtbw, verified before it (fewest pieces, WDL, smallest
    first), is in use."""
    import games
    from engine.engine import Engine
    from engine.timeman import Limits
    from games.chess import syzygy

    for name in ("KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"):
        shutil.copyfile(DATA / name, tmp_path / name)

    class Endless(FileChecksum):
        def run(self, control=None):
            if self.path.endswith("KQvK.rtbw"):
                assert control is not None  # the verification always runs under a control
                while True:
                    control.check()
                    time.sleep(0.001)
            return super().run(control)

    probed: list[str] = []
    probe_wdl, probe_dtz = syzygy.SyzygyTables.probe_wdl, syzygy.SyzygyTables.probe_dtz
    monkeypatch.setattr(syzygy, "FileChecksum", Endless)
    monkeypatch.setattr(syzygy.SyzygyTables, "probe_wdl",
                        lambda self, board, name: (probed.append(name), probe_wdl(self, board, name))[1])
    monkeypatch.setattr(syzygy.SyzygyTables, "probe_dtz",
                        lambda self, board, name: (probed.append(name), probe_dtz(self, board, name))[1])
    engine = Engine(games)
    assert engine.set_option("SyzygyPath", str(tmp_path)) == []
    fen = "8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1"
    engine.set_position(fen, [])
    engine.prepare()  # the background verification starts, and stops at the go
    done = threading.Event()
    out: dict = {}
    messages: list[str] = []
    engine.go(Limits(movetime=500), lambda info, pv: None,
              lambda best, ponder: (out.update(best=best), done.set()), messages.append)
    assert done.wait(120)
    assert out["best"] in [m.uci() for m in chess.Board(fen).legal_moves]
    assert not [m for m in messages if m.startswith("error")], messages
    assert "KQvK" not in probed and "KvKQ" not in probed, probed
    tables = engine.endgames.provider(engine.game, _Budget(1)).syzygy
    assert not tables.verified
    assert "KQvK" not in tables.tablebase.wdl and "KRvK" in tables.tablebase.wdl
    assert tables.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), "KRvK") == 2


def test_a_verdict_is_remembered_per_path_size_and_time(tmp_path, monkeypatch):
    """Setting the same path again hashes nothing again (a refusal is reported again);
    a file modified since is hashed anew."""
    from games.chess import syzygy

    for name in ("KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw"):
        shutil.copyfile(DATA / name, tmp_path / name)
    data = bytearray((tmp_path / "KRvK.rtbw").read_bytes())
    data[100] ^= 1
    (tmp_path / "KRvK.rtbw").write_bytes(bytes(data))
    hashed: list[str] = []

    class Counted(FileChecksum):
        def run(self, control=None):
            hashed.append(os.path.basename(self.path))
            return super().run(control)

    monkeypatch.setattr(syzygy, "FileChecksum", Counted)
    for round_ in range(2):
        reports: list[str] = []
        tables = syzygy.SyzygyTables(str(tmp_path), report=reports.append, verify=True)
        assert "KQvK" not in tables.tablebase.wdl and tables.cardinality == 0
        tables.verify()
        assert tables.verified and "KQvK" in tables.tablebase.wdl and "KQvK" in tables.has_dtz
        assert tables.cardinality == 3 and "KRvK" not in tables.tablebase.wdl
        assert len(reports) == 1 and "KRvK.rtbw" in reports[0] and "checksum" in reports[0], reports
        assert sorted(hashed) == ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw"]
        tables.close()
    os.utime(tmp_path / "KQvK.rtbz", ns=(1, 1))
    syzygy.SyzygyTables(str(tmp_path), verify=True).verify()
    assert sorted(hashed) == ["KQvK.rtbw", "KQvK.rtbz", "KQvK.rtbz", "KRvK.rtbw"]


def test_a_go_without_a_clock_does_not_wait_for_the_whole_verification(tmp_path, monkeypatch):
    """``go depth`` has no clock share to bound the preparation: it waits a moment for
    the verification (a file that never ends here, a 150 GB set for a user), then
    searches with the tables verified so far."""
    import games
    from games.chess import exact
    from engine.engine import Engine
    from engine.timeman import Limits
    from games.chess import syzygy

    for name in ("KQvK.rtbw", "KRvK.rtbw"):
        shutil.copyfile(DATA / name, tmp_path / name)

    class Endless(FileChecksum):
        def run(self, control=None):
            if self.path.endswith("KQvK.rtbw"):
                while True:
                    control.check()
                    time.sleep(0.001)
            return super().run(control)

    monkeypatch.setattr(syzygy, "FileChecksum", Endless)
    monkeypatch.setattr(exact, "UNTIMED_VERIFY", 0.2)
    engine = Engine(games)
    assert engine.set_option("SyzygyPath", str(tmp_path)) == []
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    engine.set_position(fen, [])
    done = threading.Event()
    out: dict = {}
    infos: list = []
    engine.go(Limits(depth=3), lambda info, pv: infos.append(info),
              lambda best, ponder: (out.update(best=best), done.set()), lambda text: None)
    assert done.wait(60), "the go waited for a verification that never ends"
    assert out["best"] in [m.uci() for m in chess.Board(fen).legal_moves]
    assert infos and infos[-1].depth >= 3
