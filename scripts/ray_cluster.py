"""A two-node Ray cluster on this machine plays a 200-game match; the second node
is killed mid-run, and every game must still be played and counted exactly once.

    python scripts/ray_cluster.py [--games 200] [--kill-after 60] [--port 6399]

Starts ``ray start --head`` (1 CPU) and a second node ``ray start --address ...``
(1 CPU, its own resource ``second``), runs ``zermelo match --backend ray`` with
two pairs at once (one per node): zermelo against a deterministic fake engine at
tic-tac-toe. Once ``--kill-after`` games are recorded, every process of the
second node (its raylet, its workers and their engines) is killed with SIGKILL.
The script then checks the record file: rounds 1..N, each once, and the summary
totals equal to the records; it prints what happened and the times, and stops
the cluster.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from protocol.records import read_records  # noqa: E402


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--kill-after", type=int, default=60, help="games recorded before the second node dies")
    ap.add_argument("--port", type=int, default=6399)
    args = ap.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="zermelo-cluster-"))
    records = work / "games.txt"
    temp = f"/tmp/zr{args.port}"  # Ray's sockets need a short path
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    address = f"127.0.0.1:{args.port}"
    t0 = time.monotonic()
    # Both nodes in the foreground, each in its own session: their processes are ours to end.
    head = subprocess.Popen(["ray", "start", "--head", f"--port={args.port}", "--num-cpus=1",
                             "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}", "--block"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(3)
    second = subprocess.Popen(["ray", "start", f"--address={address}", "--num-cpus=1",
                               '--resources={"second": 1}', "--block", "--disable-usage-stats"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            out = subprocess.run(["ray", "status", f"--address={address}"], env=env, capture_output=True,
                                 text=True).stdout
            if "2.0 CPU" in out or re.search(r"0\.0/2\.0 CPU", out):
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"the second node did not join:\n{out}")
            time.sleep(1)
        print(f"cluster up: head and second node, 1 CPU each ({time.monotonic() - t0:.1f} s)")
        fake = ROOT / "tests" / "fake_engines" / "hasher.py"
        match = subprocess.Popen(
            [sys.executable, "-m", "protocol", "match", "--game", "tictactoe", "--games", str(args.games),
             "--engine", f"cmd='{sys.executable} -m protocol' name=zermelo",
             "--engine", f"cmd='{sys.executable} {fake} 7' name=hasher",
             "--nodes", "300", "--random-plies", "2", "--seed", "1", "--concurrency", "2",
             "--backend", "ray", "--address", address, "--pgn", str(records)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        t1 = time.monotonic()
        lines, killed_at = [], None
        assert match.stdout is not None
        for line in match.stdout:
            lines.append(line.rstrip())
            if killed_at is None and line.startswith("game ") and \
                    sum(1 for x in lines if x.startswith("game ")) >= args.kill_after:
                victims = descendants(second.pid) + [second.pid]
                for pid in victims:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                killed_at = time.monotonic() - t1
                print(f"{args.kill_after} games in ({killed_at:.1f} s): killed the second node's "
                      f"{len(victims)} processes (raylet, workers, engines)")
        match.wait()
        elapsed = time.monotonic() - t1
        for line in lines:
            if "played again" in line or "games played" in line or line.startswith(("tictactoe:", "zermelo ")):
                print("  " + line)
        recs = read_records(records.read_text())
        rounds = [int(r.tags["Round"]) for r in recs]
        once = sorted(rounds) == list(range(1, args.games + 1))
        summary = next((x for x in lines if x.startswith("zermelo ") and "%" in x), "")
        w, d, l_ = (int(x) for x in summary.split()[1:4]) if summary else (0, 0, 0)
        results = [r.result for r in recs]
        # zermelo is player 0 in odd rounds.
        wins = sum(1 for r in recs if r.result == ("1-0" if int(r.tags["Round"]) % 2 else "0-1"))
        draws = results.count("1/2-1/2")
        counted = (w, d, l_) == (wins, draws, len(recs) - wins - draws)
        print(f"match exit {match.returncode}, {elapsed:.1f} s, {len(recs)} games recorded; rounds 1..{args.games} "
              f"each once: {once}; summary +{w} ={d} -{l_} agrees with the records: {counted}")
        return 0 if once and counted and match.returncode == 0 and killed_at is not None else 1
    finally:
        for pid in descendants(head.pid) + descendants(second.pid) + [head.pid, second.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


if __name__ == "__main__":
    sys.exit(main())
