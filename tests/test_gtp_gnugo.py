"""GNU Go against ``zermelo gtp``, relayed by an independent GTP client: fastgtp's
subprocess transport speaks to both engines and its response parser reads every
answer. GNU Go refuses any illegal move zermelo sends it, and at the end both
engines must see the same stones."""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
from pathlib import Path

import pytest

fastgtp = pytest.importorskip("fastgtp", reason="fastgtp (the GTP client of the test extra) is not installed")

REPO = Path(__file__).resolve().parents[1]
GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")
#: Each side's moves in the game: a few, GNU Go at its fastest level.
MOVES = 6
TIMEOUT = 120.0

pytestmark = pytest.mark.skipif(GNUGO is None, reason="GNU Go (gnugo) is not installed")


class Client:
    """One engine behind fastgtp's transport; ``ask`` returns the result or raises."""

    def __init__(self, command: list[str]):
        self.transport = fastgtp.SubprocessGTPTransport(command)
        self.count = 0

    async def ask(self, command: str) -> str:
        self.count += 1
        ident = str(self.count)
        raw = await asyncio.wait_for(self.transport.send_command(f"{ident} {command}"), TIMEOUT)
        response = fastgtp.parse_response(raw, expected_id=ident)
        assert response.success, f"{command!r} refused: {response.error}"
        return response.payload


def stones(rows: list[str], colour: str) -> set[str]:
    columns = "ABCDEFGHJ"
    return {f"{columns[c]}{len(rows) - r}" for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == colour}


async def game() -> tuple[list[str], Client, Client]:
    gnugo = Client([GNUGO, "--mode", "gtp", "--level", "0"])
    zermelo = Client([sys.executable, "-m", "protocol", "gtp", "--movetime", "200"])
    await zermelo.transport.open()
    await gnugo.transport.open()
    try:
        for engine in (gnugo, zermelo):
            assert await engine.ask("protocol_version") == "2"
            await engine.ask("boardsize 9")
            await engine.ask("clear_board")
            await engine.ask("komi 7.5")
        assert await zermelo.ask("name") == "zermelo"
        played = []
        for _ in range(MOVES):
            black = await gnugo.ask("genmove black")
            await zermelo.ask(f"play black {black}")
            white = await zermelo.ask("genmove white")
            assert re.fullmatch(r"[A-HJ][1-9]|pass", white), white
            await gnugo.ask(f"play white {white}")  # GNU Go checks it is legal
            played += [black, white]
        board = await zermelo.ask("showboard")
        rows = [re.sub(r"[^XO.]", "", line[3:-2]) for line in board.splitlines() if re.match(r"\s*[0-9]+ ", line)]
        for colour, name in (("X", "black"), ("O", "white")):
            assert stones(rows, colour) == set((await gnugo.ask(f"list_stones {name}")).split()), name
        for engine in (gnugo, zermelo):
            await engine.ask("quit")
        return played, gnugo, zermelo
    finally:
        await gnugo.transport.aclose()
        await zermelo.transport.aclose()


def test_gnugo_plays_zermelo_through_a_gtp_client():
    played, _, _ = asyncio.run(game())
    assert len(played) == 2 * MOVES
    assert any(move != "pass" for move in played[1::2]), played
