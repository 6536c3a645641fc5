"""The network evaluation (NNUE), game-agnostic: weights files and the accumulator.

Architecture (version 1, the common "inputs→N×2→1" scheme): sparse one-hot
inputs, a feature transformer to ``acc`` int16 per perspective, clipped ReLU to
``[0, QA]``, the side to move's accumulator then the other side's, one output:

    score = (Σ clamp(a_i, 0, QA) · w_i + b) · scale // (QA · QB)

with feature weights and biases ``round(float · QA)`` (int16), output weights
``round(float · QB)`` (int16), output bias ``round(float · QA · QB)`` (int32) and
``scale`` mapping the network's output to the game's units (400 for centipawns).
The float model is ``(concat(clamp(ft(x_stm),0,1), clamp(ft(x_other),0,1)) · w + b) · scale``.

Each game names its inputs (``Game.inputs``, an :class:`engine.game.InputSet`) and lists the
active ones (``pos.nn_features()``); a position with a network attached keeps an
:class:`Accumulator`, one row per player per ply, updated in ``push`` and dropped in
``pop``. The compiled build adds rows in C over int16 arrays; the pure build over
lists of Python ints. Both give the same integers: :func:`load_network` refuses a
network whose accumulator could leave the int16 range for the game's most active
inputs, so no sum ever wraps.

File (little-endian): the 8 bytes ``ZNNUE\\r\\n\\x1a``, u32 version, game and feature
set (u16 length + UTF-8 each), u32 inputs, u32 acc, u16 QA, u16 QB, i32 scale, then
int16 feature weights (inputs × acc, input-major), int16 biases (acc), int16 output
weights (2 × acc), int32 output bias, and a CRC-32 of everything before it.
"""

from __future__ import annotations

import operator
import struct
import zlib
from importlib import resources
from pathlib import Path

import cython  # type: ignore[import-untyped]

from engine.files import open_regular

MAGIC = b"ZNNUE\r\n\x1a"
VERSION = 1
QA = 255
QB = 64
#: Largest accumulator a file may declare (4096 int16 per perspective).
MAX_ACC = 4096
#: Largest ``scale``: keeps the score far inside the search's evaluation limit.
MAX_SCALE = 100_000
#: Network scores are kept within this bound (the search's heuristic range is wider).
SCORE_LIMIT = 500_000
#: The suffix of weights files; the network shipped for a game is ``games/nets/NAME.znn``.
SUFFIX = ".znn"
_HEADER = struct.Struct("<IIHHi")
_I16_MAX = 32767


class NetworkFileError(ValueError):
    """A weights file that cannot serve: unreadable, malformed, corrupt or for another game."""


def _quantise(values, factor: int, bound: int, what: str):
    import numpy as np

    q = np.rint(np.asarray(values, dtype=np.float64) * factor)
    if q.size and (not np.all(np.isfinite(q)) or np.abs(q).max() > bound):
        raise ValueError(f"{what} does not fit its integer type once quantised (×{factor})")
    return q


def save_network(path, *, game: str, features: str, ft_weight, ft_bias, out_weight, out_bias: float,
                 scale: int) -> None:
    """Write a float network quantised (see the module text) to ``path``.

    ``ft_weight`` has shape (inputs, acc), ``ft_bias`` (acc,), ``out_weight`` (2·acc,).
    Raises ``ValueError`` for inconsistent shapes or weights too large to quantise.
    """
    import numpy as np

    ft_w = np.asarray(ft_weight, dtype=np.float64)
    if ft_w.ndim != 2:
        raise ValueError("ft_weight must be a 2-D array (inputs, acc)")
    inputs, acc = ft_w.shape
    if not 0 < acc <= MAX_ACC or inputs <= 0:
        raise ValueError(f"sizes out of range: inputs {inputs}, acc {acc} (1..{MAX_ACC})")
    if np.shape(ft_bias) != (acc,) or np.shape(out_weight) != (2 * acc,):
        raise ValueError(f"ft_bias must have shape ({acc},) and out_weight ({2 * acc},)")
    if not 0 < int(scale) <= MAX_SCALE:
        raise ValueError(f"scale must be in 1..{MAX_SCALE}")
    fw = _quantise(ft_w, QA, _I16_MAX, "ft_weight").astype("<i2")
    fb = _quantise(ft_bias, QA, _I16_MAX, "ft_bias").astype("<i2")
    ow = _quantise(out_weight, QB, _I16_MAX, "out_weight").astype("<i2")
    ob = int(_quantise([out_bias], QA * QB, 2**31 - 1, "out_bias")[0])
    names = b"".join(struct.pack("<H", len(t)) + t for t in (game.encode(), features.encode()))
    body = (MAGIC + struct.pack("<I", VERSION) + names + _HEADER.pack(inputs, acc, QA, QB, int(scale))
            + fw.tobytes() + fb.tobytes() + ow.tobytes() + struct.pack("<i", ob))
    Path(path).write_bytes(body + struct.pack("<I", zlib.crc32(body)))


def _name(data: bytes, at: int, what: str) -> tuple[str, int]:
    if at + 2 > len(data):
        raise NetworkFileError("truncated header")
    n = struct.unpack_from("<H", data, at)[0]
    if n > 64 or at + 2 + n > len(data):
        raise NetworkFileError(f"malformed header ({what})")
    try:
        return data[at + 2:at + 2 + n].decode(), at + 2 + n
    except UnicodeDecodeError:
        raise NetworkFileError(f"malformed header ({what})") from None


def _header(data: bytes) -> tuple[str, str, tuple[int, int, int, int, int], int]:
    """The game, the feature set and the sizes ``(inputs, acc, QA, QB, scale)`` a
    network file's first bytes announce, and where its weights start."""
    if not data.startswith(MAGIC):
        raise NetworkFileError("not a zermelo network file (bad magic)")
    at = len(MAGIC)
    if len(data) < at + 4:
        raise NetworkFileError("truncated header")
    version = struct.unpack_from("<I", data, at)[0]
    if version != VERSION:
        raise NetworkFileError(f"version {version} is not supported (this build reads version {VERSION})")
    file_game, at = _name(data, at + 4, "game")
    file_features, at = _name(data, at, "feature set")
    if at + _HEADER.size > len(data):
        raise NetworkFileError("truncated header")
    return file_game, file_features, _HEADER.unpack_from(data, at), at + _HEADER.size


class NetworkMismatchError(NetworkFileError):
    """A sound network header for another game (``game``, the one it names) or another
    input set than the one asked for: the file may serve that game."""

    def __init__(self, message: str, game: str) -> None:
        super().__init__(message)
        self.game = game


#: The longest header: magic, version, two names of at most 64 bytes, the sizes.
_HEAD_LIMIT = len(MAGIC) + 4 + 2 * 66 + _HEADER.size


def network_game(path) -> str:
    """The game the network file ``path`` names in its header (the rest is not read);
    raises :class:`NetworkFileError` naming the file when it is no network."""
    try:
        with open_regular(path) as f:
            return _header(f.read(_HEAD_LIMIT))[0]
    except OSError as e:
        raise NetworkFileError(f"{path}: cannot read: {e.strerror or e}") from None
    except NetworkFileError as e:
        raise NetworkFileError(f"{path}: {e}") from None


def load_network(path, *, game: str, features: str, inputs: int, max_active: int | None = None) -> Network:
    """The network in ``path`` for ``game``'s feature set ``features`` of ``inputs`` inputs.

    ``max_active`` (the most inputs a position of the game can have active, e.g. 32 in
    chess) lets the check that the accumulator stays within int16 be exact; without
    it every input counts. Raises :class:`NetworkFileError` with a one-line reason,
    :class:`NetworkMismatchError` for another game's or input set's network (read no
    further than its header).
    """
    import numpy as np

    try:
        with open_regular(path) as f:
            data = f.read(_HEAD_LIMIT)
            file_game, file_features, (n_in, acc, qa, qb, scale), at = _header(data)
            if file_game != game:
                raise NetworkMismatchError(f"the network is for the game {file_game!r}, not {game!r}", file_game)
            if file_features != features:
                raise NetworkMismatchError(f"the network reads the feature set {file_features!r}, "
                                           f"not {features!r}", file_game)
            if n_in != inputs:
                raise NetworkMismatchError(f"the network has {n_in} inputs, the feature set {features!r} "
                                           f"has {inputs}", file_game)
            if not 0 < acc <= MAX_ACC:
                raise NetworkFileError(f"sizes out of range: inputs {n_in}, acc {acc}")
            size = at + 2 * (n_in * acc + acc + 2 * acc) + 4 + 4
            # No more than the game's network can hold: one byte beyond tells a longer file.
            data += f.read(max(0, size + 1 - len(data)))
    except OSError as e:
        raise NetworkFileError(f"cannot read: {e.strerror or e}") from None
    if len(data) < size:
        raise NetworkFileError(f"truncated: {len(data)} bytes, the header announces {size}")
    if len(data) > size:
        raise NetworkFileError("bytes after the network")
    if zlib.crc32(data[:size - 4]) != struct.unpack_from("<I", data, size - 4)[0]:
        raise NetworkFileError("checksum mismatch (the file is corrupt)")
    if qa != QA or qb != QB:
        raise NetworkFileError(f"quantisation QA={qa}, QB={qb} is not this version's QA={QA}, QB={QB}")
    if not 0 < scale <= MAX_SCALE:
        raise NetworkFileError(f"scale {scale} out of range 1..{MAX_SCALE}")
    ft = np.frombuffer(data, dtype="<i2", count=n_in * acc, offset=at).reshape(n_in, acc)
    at += 2 * n_in * acc
    bias = np.frombuffer(data, dtype="<i2", count=acc, offset=at)
    out = np.frombuffer(data, dtype="<i2", count=2 * acc, offset=at + 2 * acc)
    out_bias = struct.unpack_from("<i", data, at + 6 * acc)[0]
    # The largest |accumulator| any position can reach: the bias and the k largest
    # weights of each neuron. Within int16, no build's sums ever wrap.
    k = n_in if max_active is None else min(max_active, n_in)
    top = np.sort(np.abs(ft.astype(np.int64)), axis=0)[n_in - k:].sum(axis=0) + np.abs(bias.astype(np.int64))
    if int(top.max()) > _I16_MAX:
        raise NetworkFileError(f"the accumulator could reach {int(top.max())}, beyond int16 "
                               f"with {k} active inputs")
    return Network(file_game, file_features, ft, bias, out, out_bias, scale)


def shipped(game_name: str) -> Path | None:
    """The network shipped with zermelo for the game ``game_name``, if one ships."""
    path = Path(str(resources.files("games") / "nets" / f"{game_name}{SUFFIX}"))
    return path if path.is_file() else None


def chosen_for(game, path: str = "") -> tuple[str, Network] | None:
    """(path, network) of ``path``, or of the network shipped for ``game`` when ``path``
    is empty, or ``None`` when there is neither (the hand-written evaluation);
    raises :class:`NetworkFileError` naming a bad file."""
    if game.inputs is None:
        if path:
            raise NetworkFileError(f"{path}: {game.name} has no network inputs")
        return None
    chosen = path or shipped(game.name)
    return None if not chosen else (str(chosen), load_for_game(game, chosen))


def load_for_game(game, path) -> Network:
    """The network in ``path`` for ``game`` (its input set, ``Game.inputs``); raises
    :class:`NetworkFileError` with a one-line reason that names the file."""
    inputs = game.inputs
    if inputs is None:
        raise NetworkFileError(f"{path}: {game.name} has no network inputs")
    try:
        return load_network(path, game=game.name, features=inputs.name, inputs=inputs.size,
                            max_active=inputs.most_active or None)
    except NetworkMismatchError as e:
        raise NetworkMismatchError(f"{path}: {e}", e.game) from None
    except NetworkFileError as e:
        raise NetworkFileError(f"{path}: {e}") from None


def _clamp_score(value: int) -> int:
    if value > SCORE_LIMIT:
        return SCORE_LIMIT
    if value < -SCORE_LIMIT:
        return -SCORE_LIMIT
    return value


class Network:
    """A quantised network, read by :func:`load_network`: int16 rows per input."""

    def __init__(self, game: str, features: str, ft, bias, out, out_bias: int, scale: int) -> None:
        import numpy as np

        self.game = game
        self.features = features
        self.inputs = int(ft.shape[0])
        self.acc = int(ft.shape[1])
        self.scale = int(scale)
        self.out_bias = int(out_bias)
        # numpy only here: the hot path reads C arrays (compiled) or lists of ints (pure).
        # Own writable copies (not views of the file's bytes): the compiled build reads them
        # through plain C pointers.
        self.ft = np.array(ft, dtype=np.int16, order="C")
        self.bias = np.array(bias, dtype=np.int16, order="C")
        self.out = np.array(out, dtype=np.int16, order="C")
        self.rows = [list(map(int, row)) for row in ft.tolist()] if not cython.compiled else []
        self.bias_list = [int(v) for v in bias.tolist()]
        self.out_list = [int(v) for v in out.tolist()]

    def refresh(self, active: list[int]) -> list[int]:
        """The accumulator of one perspective with the ``active`` inputs (Python ints)."""
        acc = self.bias_list[:]
        ft = self.ft
        for f in active:
            acc = list(map(operator.add, acc, ft[f].tolist()))
        return acc

    def output(self, stm: list[int], other: list[int]) -> int:
        """The score of two accumulators (side to move's, other's), the reference arithmetic."""
        s = self.out_bias
        n = self.acc
        out = self.out_list
        for i in range(n):
            s += min(max(stm[i], 0), QA) * out[i] + min(max(other[i], 0), QA) * out[n + i]
        return _clamp_score(s * self.scale // (QA * QB))

    def evaluate_features(self, stm: list[int], other: list[int]) -> int:
        """The score of a position with the ``stm`` and ``other`` views active (full refresh)."""
        for f in stm + other:
            if not 0 <= f < self.inputs:
                raise ValueError(f"feature {f} out of range 0..{self.inputs - 1}")
        return self.output(self.refresh(stm), self.refresh(other))

    def accumulator(self, view0: list[int], view1: list[int]) -> Accumulator:
        """A fresh :class:`Accumulator` for a position with these active inputs, from
        player 0's and player 1's views."""
        return Accumulator(self, view0, view1)


class Accumulator:
    """The two perspectives' accumulators (player 0's view, player 1's), one pair per ply.

    A position with a network calls :meth:`push` before changing its pieces, then
    :meth:`add`/:meth:`sub` with each changed input as both players see it, and
    :meth:`pop` when it undoes the move; :meth:`evaluate` scores the current pair.
    """

    def __init__(self, network: Network, view0: list[int], view1: list[int]) -> None:
        import numpy as np

        self.network = network
        self.n = network.acc
        self.ply = 0
        self.scale = network.scale
        self.out_bias = network.out_bias
        if cython.compiled:
            self.ft = network.ft
            self.out = network.out
            self.bias = network.bias
            self.stack = np.zeros((2 * 64, self.n), dtype=np.int16)
        else:
            self.rows = network.rows
            self.out_stm = network.out_list[:self.n]
            self.out_other = network.out_list[self.n:]
            self.lists = [[0] * self.n, [0] * self.n]
        self.refresh(view0, view1)

    # Indices are rows of the game's input table and the plies of a stack sized in push.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def refresh(self, view0: list[int], view1: list[int]) -> None:
        """Recompute the current pair from the active inputs of each view."""
        if cython.compiled:
            for p in range(2):
                top = 2 * self.ply + p
                for i in range(self.n):
                    self.stack[top, i] = self.bias[i]
            for f in view0:
                self.add_one(0, f)
            for f in view1:
                self.add_one(1, f)
        else:
            net = self.network
            self.lists[2 * self.ply] = net.refresh(view0)
            self.lists[2 * self.ply + 1] = net.refresh(view1)

    # Indices are rows of the game's input table and the plies of a stack sized in push.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def push(self) -> None:
        """Start the next ply with a copy of the current pair."""
        ply = self.ply + 1
        if cython.compiled:
            if 2 * ply + 2 > self.stack.shape[0]:
                self._grow()
            dst = cython.address(self.stack[2 * ply, 0])
            src = cython.address(self.stack[2 * ply - 2, 0])
            for i in range(2 * self.n):
                dst[i] = src[i]
        else:
            lists = self.lists
            if 2 * ply == len(lists):
                lists.append(lists[-2][:])
                lists.append(lists[-2][:])
            else:
                lists[2 * ply][:] = lists[2 * ply - 2]
                lists[2 * ply + 1][:] = lists[2 * ply - 1]
        self.ply = ply

    def _grow(self) -> None:
        import numpy as np

        bigger = np.zeros((2 * self.stack.shape[0], self.n), dtype=np.int16)
        bigger[:self.stack.shape[0]] = self.stack
        self.stack = bigger

    def pop(self) -> None:
        """Return to the previous ply's pair."""
        self.ply -= 1

    def add(self, f0: int, f1: int) -> None:
        """Input ``f0`` of player 0's view and ``f1`` of player 1's became active."""
        self.add_one(0, f0)
        self.add_one(1, f1)

    def sub(self, f0: int, f1: int) -> None:
        """Input ``f0`` of player 0's view and ``f1`` of player 1's became inactive."""
        self.sub_one(0, f0)
        self.sub_one(1, f1)

    # Indices are rows of the game's input table and the plies of a stack sized in push.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def add_one(self, p: int, f: int) -> None:
        """Input ``f`` of player ``p``'s view became active."""
        if cython.compiled:
            # Pointers, not memoryview indexing: the C compiler can then vectorise the loop.
            dst = cython.address(self.stack[2 * self.ply + p, 0])
            row = cython.address(self.ft[f, 0])
            for i in range(self.n):
                dst[i] += row[i]
        else:
            top_list = self.lists[2 * self.ply + p]
            top_list[:] = map(operator.add, top_list, self.rows[f])

    # Indices are rows of the game's input table and the plies of a stack sized in push.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def sub_one(self, p: int, f: int) -> None:
        """Input ``f`` of player ``p``'s view became inactive."""
        if cython.compiled:
            dst = cython.address(self.stack[2 * self.ply + p, 0])
            row = cython.address(self.ft[f, 0])
            for i in range(self.n):
                dst[i] -= row[i]
        else:
            top_list = self.lists[2 * self.ply + p]
            top_list[:] = map(operator.sub, top_list, self.rows[f])

    def view(self, p: int) -> list[int]:
        """Player ``p``'s current accumulator, as Python ints (tests compare it with a refresh)."""
        if cython.compiled:
            return [self.stack[2 * self.ply + p, i] for i in range(self.n)]
        return self.lists[2 * self.ply + p][:]

    # Indices are rows of the game's input table and the plies of a stack sized in push.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def evaluate(self, turn: int) -> int:
        """The network's score for player ``turn`` to move, in the game's units."""
        qa = QA
        if cython.compiled:
            s = self.out_bias
            n = self.n
            w = cython.address(self.out[0])
            for p in range(2):
                # The side to move's half of the output weights, then the other's.
                row = cython.address(self.stack[2 * self.ply + (turn ^ p), 0])
                for i in range(n):
                    v = row[i]
                    if v < 0:
                        v = 0
                    if v > qa:
                        v = qa
                    s += v * w[p * n + i]
        else:
            stm = self.lists[2 * self.ply + turn]
            other = self.lists[2 * self.ply + (turn ^ 1)]
            s = self.out_bias + sum(map(operator.mul, [v if 0 <= v <= QA else (0 if v < 0 else QA) for v in stm],
                                        self.out_stm))
            s += sum(map(operator.mul, [v if 0 <= v <= QA else (0 if v < 0 else QA) for v in other],
                         self.out_other))
        return _clamp_score(s * self.scale // (qa * QB))
