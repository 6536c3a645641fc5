"""Compiler spike for the chess hot path: CPython against Cython 3 and mypyc,
built from the unmodified ``.py`` sources, plus a small typed kernel.

    nice python scripts/compile_spike.py                    # everything, 3 runs
    nice python scripts/compile_spike.py --runs 5 --variants cpython,cython
    nice python scripts/compile_spike.py --no-kernels       # only the engine table

Every build happens OUT OF TREE: ``engine/`` and ``games/`` are copied into a
temporary directory per variant, compiled there and run there (that directory
first on ``sys.path``, each measurement in a fresh process); nothing is written
into the checkout. Variants:

* ``cpython``: the code as it is.
* ``cython``: ``cythonize -i -3`` of the hot modules (``MODULES``).
* ``mypyc``: ``mypyc`` of the same modules; a module it refuses is dropped (and
  named) until the rest builds.
* ``mypyc-adapted``: ``mypyc`` of all of them after the two smallest edits that
  make the refused module build and import (``ADAPTATIONS``, applied to the copy).

Measured per run and variant: perft of the start position to depth 4 and of
Kiwipete to depth 3 (each repeated ``--perft-repeat`` times, so that one timing
is not a few milliseconds) and the chess bench (15 positions, depth 5); the
table shows medians over ``--runs``, runs interleaved across the variants so
that load from other work spreads over all of them. Node counts are checked
against the figures the documentation quotes (``docs/figures.json``, which
``scripts/remeasure.py`` keeps current), and printed.

The kernels (``--no-kernels`` skips them): queen mobility with ray attacks,
bit-scans and pop-counts, as plain Python, as Cython pure-Python mode with
``cython.ulonglong`` locals and C arrays, and as mypyc ``i64``; and a micro
check of what bit 63 (h8) does to ``i64`` bitboards under mypyc.

Takes 12 minutes with the defaults on the shared 2-core machine at load
average 8-12, most of it compiling (2-3 minutes per variant under that load,
20-40 s on a quiet machine); needs Cython 3, mypy (mypyc) and gcc.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MODULES = ["games/chess/board.py", "games/chess/bitboards.py", "games/chess/evaluate.py",
           "games/zobrist.py", "engine/perft.py", "engine/search.py", "engine/tt.py"]
VARIANTS = ("cpython", "cython", "mypyc", "mypyc-adapted")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# The expected counts are the documentation's checked figures, so a change of the
# search's signature is updated in one place (scripts/remeasure.py --write).
FIGURES = json.loads((ROOT / "docs" / "figures.json").read_text())["figures"]
PERFTS = [("start d4", START, 4, FIGURES["perft.chess.start.4"]["value"]),
          ("kiwipete d3", KIWIPETE, 3, FIGURES["perft.chess.kiwipete.3"]["value"])]
BENCH_DEPTH, BENCH_NODES = 5, FIGURES["bench.chess"]["value"]
MYPY_INI = "[mypy]\npython_version = 3.11\nplugins = pydantic.mypy\n"

# mypyc refuses ``Board.__slots__`` read through the class (board.py, ``copy``), and
# a compiled class cannot be subclassed by interpreted code (``ChessPosition`` in
# games/chess/__init__.py) unless it says so. (file, old, new) on the copy only.
ADAPTATIONS = [
    ("games/chess/board.py", "for name in Board.__slots__:", "for name in _SLOTS:"),
    ("games/chess/board.py", "\nclass Board:",
     "\nfrom mypy_extensions import mypyc_attr\n\n_SLOTS = (\"game\", \"bb\", \"board\", \"turn\", "
     "\"castling\", \"ep\", \"halfmove\", \"fullmove\", \"key\", \"mg\", \"eg\", \"phase\", "
     "\"null_plies\", \"rule\", \"_checkers\", \"_stack\", \"_keys\")\n\n\n"
     "@mypyc_attr(allow_interpreted_subclasses=True)\nclass Board:"),
]

# Runs in a fresh interpreter inside a variant's directory: imports the engine
# from there, checks which hot modules are compiled, and times perft and bench.
ENGINE_CHILD = r"""
import importlib, json, sys, time
import games
from engine.bench import run_bench
from engine.perft import perft
args = json.loads(sys.argv[1])
out = {"compiled": [m for m in args["modules"]
                    if not importlib.import_module(m).__file__.endswith(".py")]}
chess = games.load("chess")
for name, fen, depth, _ in args["perfts"]:
    pos = chess.new_position(fen)
    start = time.perf_counter()
    nodes = sum(perft(pos, depth) for _ in range(args["repeat"]))
    out[name] = [nodes, time.perf_counter() - start]
out["bench"] = list(run_bench(chess, chess.bench_texts, args["bench_depth"]))
print(json.dumps(out))
"""

# --- kernels ---------------------------------------------------------------------

_RAY_BUILDER = '''
_DIRS = ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))


def _ray_table() -> list[int]:
    """Flat [d * 64 + sq]: squares from sq to the edge in direction d (the first
    four go up the board, so their nearest blocker is the lowest bit)."""
    rays = []
    for df, dr in _DIRS:
        for sq in range(64):
            f, r, bb = (sq & 7) + df, (sq >> 3) + dr, 0
            while 0 <= f < 8 and 0 <= r < 8:
                bb |= 1 << (8 * r + f)
                f, r = f + df, r + dr
            rays.append(bb)
    return rays
'''

_SCAN_BUILDER = '''

def _scan_table() -> list[int]:
    """[(x * DEBRUIJN mod 2**64) >> 58] = n for x = 2**(n+1) - 1: a bit scan by one
    multiplication, for builds without a builtin."""
    table = [0] * 64
    for n in range(64):
        table[((2 << n) - 1) * 0x03F79D71B4CB0A89 % (1 << 64) >> 58] = n
    return table
'''

# Plain Python: what the engine writes today (ints, bit_length, bit_count).
K_PLAIN = _RAY_BUILDER + '''

RAYS = _ray_table()


def mobility(sliders: int, occ: int) -> int:
    """Squares attacked by each slider as a queen, summed."""
    total = 0
    while sliders:
        low = sliders & -sliders
        sliders ^= low
        sq = low.bit_length() - 1
        att = 0
        for d in range(8):
            ray = RAYS[d * 64 + sq]
            blockers = ray & occ
            if blockers:
                first = (blockers & -blockers).bit_length() - 1 if d < 4 else blockers.bit_length() - 1
                ray ^= RAYS[d * 64 + first]
            att |= ray
        total += att.bit_count()
    return total


def run(cases: list[tuple[int, int]], reps: int) -> int:
    total = 0
    for _ in range(reps):
        for sliders, occ in cases:
            total += mobility(sliders, occ)
    return total
'''

# Cython pure-Python mode: the same algorithm on unsigned 64-bit C locals and C
# arrays; uncompiled it still runs (the fallback), on the shadow ``cython`` module.
K_TYPED = 'import cython\n' + _RAY_BUILDER + _SCAN_BUILDER + '''

_M64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
_DEBRUIJN = cython.declare(cython.ulonglong, 0x03F79D71B4CB0A89)
_RAYS = cython.declare(cython.ulonglong[512])
_SCAN = cython.declare(cython.int[64])
for _i, _v in enumerate(_ray_table()):
    _RAYS[_i] = _v
for _i, _v in enumerate(_scan_table()):
    _SCAN[_i] = _v


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _scan(x: cython.ulonglong) -> cython.int:
    return _SCAN[(x * _DEBRUIJN & _M64) >> 58]


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _popcount(x: cython.ulonglong) -> cython.int:
    x = x - (x >> 1 & 0x5555555555555555)
    x = (x & 0x3333333333333333) + (x >> 2 & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 & _M64) >> 56


@cython.ccall
@cython.locals(low=cython.ulonglong, ray=cython.ulonglong, blockers=cython.ulonglong,
               att=cython.ulonglong, x=cython.ulonglong, sq=cython.int, d=cython.int,
               first=cython.int, total=cython.longlong)
def mobility(sliders: cython.ulonglong, occ: cython.ulonglong) -> cython.longlong:
    total = 0
    while sliders:
        low = sliders & (~sliders + 1)
        sliders ^= low
        sq = _scan(low ^ (low - 1))
        att = 0
        for d in range(8):
            ray = _RAYS[d * 64 + sq]
            blockers = ray & occ
            if blockers:
                if d < 4:
                    first = _scan(blockers ^ (blockers - 1))
                else:
                    x = blockers | blockers >> 1
                    x |= x >> 2
                    x |= x >> 4
                    x |= x >> 8
                    x |= x >> 16
                    x |= x >> 32
                    first = _scan(x)
                ray ^= _RAYS[d * 64 + first]
            att |= ray
        total += _popcount(att)
    return total


@cython.ccall
@cython.locals(i=cython.int, total=cython.longlong, sliders=cython.ulonglong,
               occ=cython.ulonglong)
def run(cases: list, reps: cython.int) -> cython.longlong:
    total = 0
    for i in range(reps):
        for sliders, occ in cases:
            total += mobility(sliders, occ)
    return total
'''

# mypyc ``i64``: no unsigned type, so bitboards travel as signed (h8 is the sign
# bit): the caller converts, and the highest-blocker scan special-cases bit 63.
K_I64 = 'from mypy_extensions import i64\n' + _RAY_BUILDER + _SCAN_BUILDER + '''

DEBRUIJN: i64 = 0x03F79D71B4CB0A89


def signed(bb: int) -> int:
    return bb - (1 << 64) if bb >> 63 else bb


RAYS: list[i64] = [signed(bb) for bb in _ray_table()]
SCAN: list[i64] = _scan_table()


def _scan(x: i64) -> i64:
    return SCAN[(x * DEBRUIJN) >> 58 & 63]


def _popcount(x: i64) -> i64:
    x = x - (x >> 1 & 0x5555555555555555)
    x = (x & 0x3333333333333333) + (x >> 2 & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 127


def mobility(sliders: i64, occ: i64) -> i64:
    total: i64 = 0
    d: i64
    while sliders:
        low = sliders & -sliders
        sliders ^= low
        sq = _scan(low ^ (low - 1))
        att: i64 = 0
        for d in range(8):
            ray = RAYS[d * 64 + sq]
            blockers = ray & occ
            if blockers:
                if d < 4:
                    first = _scan(blockers ^ (blockers - 1))
                elif blockers < 0:
                    first = 63  # an arithmetic shift would smear the sign bit everywhere
                else:
                    x = blockers | blockers >> 1
                    x |= x >> 2
                    x |= x >> 4
                    x |= x >> 8
                    x |= x >> 16
                    x |= x >> 32
                    first = _scan(x)
                ray ^= RAYS[d * 64 + first]
            att |= ray
        total += _popcount(att)
    return total


def run(cases: list[tuple[i64, i64]], reps: i64) -> i64:
    total: i64 = 0
    for _ in range(reps):
        for sliders, occ in cases:
            total += mobility(sliders, occ)
    return total
'''

# Bit 63 micro check: the same three loops on ``int`` and on ``i64``.
_BITS = '''

def low_bits(bbs: list[{t}]) -> {t}:
    """Squares counted by isolating the lowest bit (bb & -bb)."""
    total: {t} = 0
    for bb in bbs:
        while bb:
            bb ^= bb & -bb
            total += 1
    return total


def test_bits(bbs: list[{t}]) -> {t}:
    """Squares counted by testing each one (bb >> sq & 1)."""
    total: {t} = 0
    sq: {t}
    for bb in bbs:
        for sq in range(64):
            total += bb >> sq & 1
    return total


def top_rank(bbs: list[{t}]) -> {t}:
    """The eighth rank as a byte (bb >> 56), summed."""
    total: {t} = 0
    for bb in bbs:
        total += bb >> 56
    return total
'''
K_BITS = _BITS.format(t="int")
K_BITS_I64 = "from mypy_extensions import i64\n" + _BITS.format(t="i64")

# module name -> (source, compiler or None, label)
KERNELS = {
    "k_plain": (K_PLAIN, None, "plain ints, CPython"),
    "k_plain_cy": (K_PLAIN, "cython", "plain ints, Cython (untyped)"),
    "k_plain_myc": (K_PLAIN, "mypyc", "plain ints, mypyc (int)"),
    "k_typed": (K_TYPED, None, "pure-mode source, CPython (fallback)"),
    "k_typed_cy": (K_TYPED, "cython", "pure-mode source, Cython (ulonglong, C arrays)"),
    "k_i64": (K_I64, None, "i64 source, CPython"),
    "k_i64_myc": (K_I64, "mypyc", "i64 source, mypyc (i64)"),
    "k_bits": (K_BITS, None, "int, CPython"),
    "k_bits_myc": (K_BITS, "mypyc", "int, mypyc"),
    "k_bits_i64_myc": (K_BITS_I64, "mypyc", "i64, mypyc"),
}

KERNEL_CHILD = r"""
import importlib, json, signal, sys, time
args = json.loads(sys.argv[1])
def _late(*_):
    raise TimeoutError(f"no result within {args['timeout']} s")
signal.signal(signal.SIGALRM, _late)
signal.alarm(args["timeout"])  # the i64 source run uncompiled never ends on bit-63 data
mod = importlib.import_module(args["module"])
out = {"compiled": not mod.__file__.endswith(".py")}
for name, data in args["data"].items():
    data = [tuple(x) for x in data] if data and isinstance(data[0], list) else data
    try:
        start = time.perf_counter()
        if args["kind"] == "mobility":
            out[name] = [mod.run(data, args["reps"]), time.perf_counter() - start]
        else:
            out[name] = {f: [sum(getattr(mod, f)(data) for _ in range(args["reps"])), 0.0]
                         for f in ("low_bits", "test_bits", "top_rank")}
            for f in out[name]:
                start = time.perf_counter()
                for _ in range(args["reps"]):
                    getattr(mod, f)(data)
                out[name][f][1] = time.perf_counter() - start
    except Exception as e:
        out[name] = f"{type(e).__name__}: {e}"
    signal.alarm(args["timeout"])
print(json.dumps(out))
"""


# --- building --------------------------------------------------------------------

_ERROR = re.compile(r"^([\w./-]+\.py):\d+:(?:\d+:)? (?:error: )?(.*)$", re.M)


def _compile(tool: str, files: list[str], cwd: pathlib.Path) -> tuple[list[str], dict[str, str]]:
    """Compile ``files`` in ``cwd``; a file the tool reports an error in is dropped
    and the rest retried. Returns the files built and the refusals (file -> first error)."""
    refused: dict[str, str] = {}
    files = list(files)
    while files:
        cmd = ([sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-j", "2"]
               if tool == "cython" else [sys.executable, "-m", "mypyc"]) + files
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        if proc.returncode == 0:
            return files, refused
        bad = {}
        for path, message in _ERROR.findall(proc.stdout + proc.stderr):
            rel = next((f for f in files if path == f or path.endswith("/" + f)), None)
            if rel is not None:
                bad.setdefault(rel, message.strip())
        if not bad:
            raise RuntimeError(f"{tool} failed in {cwd}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
        refused.update(bad)
        files = [f for f in files if f not in bad]
    return files, refused


def _copy_tree(dest: pathlib.Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "build")
    for package in ("engine", "games"):
        shutil.copytree(ROOT / package, dest / package, ignore=skip)
    # mypyc reads the mypy settings here (the checkout's pyproject.toml would also
    # make setuptools try to build the whole project).
    (dest / "mypy.ini").write_text(MYPY_INI)


def build_variant(name: str, dest: pathlib.Path) -> dict:
    _copy_tree(dest)
    if name == "mypyc-adapted":
        for rel, old, new in ADAPTATIONS:
            path = dest / rel
            text = path.read_text()
            if old not in text:
                raise RuntimeError(f"adaptation no longer applies to {rel}: {old!r}")
            path.write_text(text.replace(old, new, 1))
    start = time.perf_counter()
    built, refused = ([], {}) if name == "cpython" else _compile(name.split("-")[0], MODULES, dest)
    return {"seconds": time.perf_counter() - start, "built": built, "refused": refused}


def build_kernels(dest: pathlib.Path) -> dict[str, float]:
    dest.mkdir()
    (dest / "mypy.ini").write_text("[mypy]\npython_version = 3.11\n")
    for module, (source, _, _) in KERNELS.items():
        (dest / f"{module}.py").write_text(textwrap.dedent(source))
    seconds = {}
    for tool in ("cython", "mypyc"):
        files = [f"{m}.py" for m, (_, t, _) in KERNELS.items() if t == tool]
        start = time.perf_counter()
        _, refused = _compile(tool, files, dest)
        if refused:
            raise RuntimeError(f"{tool} refused a kernel: {refused}")
        seconds[tool] = time.perf_counter() - start
    return seconds


# --- measuring -------------------------------------------------------------------

def _child(code: str, cwd: pathlib.Path, args: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=str(cwd), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(args)], cwd=cwd, env=env,
                          capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"measurement in {cwd} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def _rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds:,.0f}"


def engine_table(variants: list[str], runs: int, repeat: int, tmp: pathlib.Path) -> None:
    builds = {}
    for name in variants:
        print(f"building {name} ...", flush=True)
        builds[name] = build_variant(name, tmp / name)
        b = builds[name]
        print(f"  {b['seconds']:.1f} s; compiled {len(b['built'])}/{len(MODULES)} modules", flush=True)
        for rel, message in b["refused"].items():
            print(f"  refused {rel}: {message}")
    args = {"modules": [m[:-3].replace("/", ".") for m in MODULES], "perfts": PERFTS,
            "repeat": repeat, "bench_depth": BENCH_DEPTH}
    results: dict[str, list[dict]] = {name: [] for name in variants}
    for run in range(runs):
        for name in variants:
            out = _child(ENGINE_CHILD, tmp / name, args)
            results[name].append(out)
            counts = ", ".join(f"{k} {out[k][0]:,}" for k, *_ in PERFTS)
            print(f"run {run + 1} {name}: {counts}, bench {out['bench'][0]:,} nodes "
                  f"({len(out['compiled'])} modules compiled)", flush=True)
    expected = {k: n * repeat for k, _, _, n in PERFTS} | {"bench": BENCH_NODES}
    bad = [(name, k, out[k][0]) for name in variants for out in results[name]
           for k in expected if out[k][0] != expected[k]]
    print("node counts:", "all agree" if not bad else f"DISAGREE {bad}")
    print(f"\nmedians of {runs} runs; perft counts are x{repeat} repetitions; "
          f"bench = 15 positions, depth {BENCH_DEPTH}, {BENCH_NODES:,} nodes\n")
    keys = [k for k, *_ in PERFTS] + ["bench"]
    head = "| variant | compile s | " + " | ".join(f"{k} s | nodes/s | ×" for k in keys) + " |"
    print(head)
    print("|---" * (2 + 3 * len(keys)) + "|")
    base = {k: statistics.median(out[k][1] for out in results[variants[0]]) for k in keys}
    for name in variants:
        cells = [name, "—" if name == "cpython" else f"{builds[name]['seconds']:.1f}"]
        for k in keys:
            secs = statistics.median(out[k][1] for out in results[name])
            cells += [f"{secs:.2f}", _rate(expected[k], secs), f"{base[k] / secs:.2f}"]
        print("| " + " | ".join(cells) + " |")
    if variants[0] != "cpython":
        print(f"(× is relative to {variants[0]})")


def kernel_cases() -> list[tuple[int, int]]:
    """(sliders, occupancy) of every bench and perft position: all bishops, rooks
    and queens, of both sides."""
    import games

    chess = games.load("chess")
    cases = []
    for fen in list(chess.bench_texts) + [KIWIPETE]:
        bb = chess.new_position(fen).bb
        sliders = 0
        for code in (3, 4, 5, 11, 12, 13):
            sliders |= bb[code]
        cases.append((sliders, bb[0] | bb[8]))
    return cases


def kernel_tables(runs: int, reps: int, tmp: pathlib.Path) -> None:
    dest = tmp / "kernels"
    print("\nbuilding kernels ...", flush=True)
    seconds = build_kernels(dest)
    print("  " + ", ".join(f"{t} {s:.1f} s" for t, s in seconds.items()))

    def signed(bb: int) -> int:
        return bb - (1 << 64) if bb >> 63 else bb

    cases = kernel_cases()
    print(f"  {len(cases)} positions, {sum(s.bit_count() for s, _ in cases)} sliders, "
          f"{sum(o >> 63 for _, o in cases)} with h8 occupied; x{reps} repetitions")
    signed_cases = [(signed(s), signed(o)) for s, o in cases]
    rng = random.Random(63)
    words = [rng.getrandbits(64) for _ in range(1000)]
    bits = {"bit 63 clear": [w & ~(1 << 63) for w in words],
            "bit 63 set": [w | 1 << 63 for w in words]}
    mobility = {m: [] for m in KERNELS if not m.startswith("k_bits")}
    micro = {m: [] for m in KERNELS if m.startswith("k_bits")}
    for _ in range(runs):
        for m, rows in mobility.items():
            data = {"unsigned": cases} | ({"signed": signed_cases} if m.startswith("k_i64") else {})
            # A build that found no result once (the i64 source uncompiled) is not rerun.
            if rows and all(isinstance(v, str) for k, v in rows[0].items() if k != "compiled"):
                continue
            rows.append(_child(KERNEL_CHILD, dest, {"module": m, "kind": "mobility", "reps": reps,
                                                    "data": data, "timeout": 10}))
        for m in micro:
            data = dict(bits)
            if "i64" in m:
                data |= {f"{k}, as signed": [signed(w) for w in v] for k, v in bits.items()}
            micro[m].append(_child(KERNEL_CHILD, dest, {"module": m, "kind": "bits",
                                                        "reps": reps // 20, "data": data,
                                                        "timeout": 10}))

    print(f"\nmobility kernel: medians of {runs} runs\n")
    print("| build | data | result | s | × |\n|---|---|---|---|---|")
    base = statistics.median(r["unsigned"][1] for r in mobility["k_plain"])
    for m, rows in mobility.items():
        for data in rows[0]:
            if data == "compiled":
                continue
            if isinstance(rows[0][data], str):
                print(f"| {KERNELS[m][2]} | {data} | {rows[0][data]} | — | — |")
                continue
            secs = statistics.median(r[data][1] for r in rows)
            print(f"| {KERNELS[m][2]} | {data} | {rows[0][data][0]:,} | {secs:.3f} | {base / secs:.1f} |")

    print(f"\nbit 63 under mypyc: 1000 random bitboards x{reps // 20}, medians of {runs} runs\n")
    print("| build | data | low_bits (bb & -bb) | test_bits (bb >> sq & 1) | top_rank (bb >> 56) |")
    print("|---|---|---|---|---|")
    for m, rows in micro.items():
        for data in rows[0]:
            if data == "compiled":
                continue
            cells = []
            for f in ("low_bits", "test_bits", "top_rank"):
                if isinstance(rows[0][data], str):
                    cells.append(rows[0][data])
                    continue
                secs = statistics.median(r[data][f][1] for r in rows)
                cells.append(f"{rows[0][data][f][0]:,} in {secs:.4f} s")
            print(f"| {KERNELS[m][2]} | {data} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="measurements per variant (median)")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help=f"comma-separated, the first is the ratio's base (default {','.join(VARIANTS)})")
    parser.add_argument("--perft-repeat", type=int, default=10,
                        help="perft calls per timing (each is a few hundredths of a second)")
    parser.add_argument("--kernel-reps", type=int, default=2000, help="mobility kernel passes")
    parser.add_argument("--no-kernels", action="store_true", help="skip the kernel experiments")
    parser.add_argument("--keep", action="store_true", help="keep the build directory (printed)")
    args = parser.parse_args()
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variants {sorted(unknown)}; choose from {', '.join(VARIANTS)}")
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="zermelo-spike-"))
    try:
        import Cython

        mypy = subprocess.run([sys.executable, "-m", "mypy", "--version"],
                              capture_output=True, text=True).stdout.strip()
        print(f"Python {sys.version.split()[0]}, Cython {Cython.__version__}, {mypy}; "
              f"build directory {tmp}", flush=True)
        engine_table(variants, args.runs, args.perft_repeat, tmp)
        if not args.no_kernels:
            kernel_tables(args.runs, args.kernel_reps, tmp)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
