"""The random-number contract: every game's randomness derives from (seed, index) alone.

A game (or Jass match) is identified by its master ``seed`` and its ``index`` in the run.
Its stream starts at ``stream_start(seed, index, stream)`` and advances as splitmix64: add the
golden-ratio increment, return the mixed state. Bounded draws use a 32-bit multiply-shift,
``randbelow(n) = ((next >> 32) * n) >> 32`` (bias below n / 2**32, irrelevant for n <= 2**16).

Nothing else is random in cardlab, so a game replays identically whatever the chunking,
thread count or backend, and two strategies compared on the same (seed, index) see the same
deal. ``stream`` separates independent streams of one game (0 = the game itself; other values
for studies that need a second, independent stream of the same game).

Jitted code keeps the state in a one-element ``uint64`` array so that helpers can advance it
in place; :class:`PyRng` is the same generator in plain Python for the reference engines.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.seeds import MAX_SEED

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

GOLDEN = np.uint64(_GOLDEN)
M1 = np.uint64(_M1)
M2 = np.uint64(_M2)
S27 = np.uint64(27)
S30 = np.uint64(30)
S31 = np.uint64(31)
S32 = np.uint64(32)


@njit(cache=True, inline="always")
def mix64(z):
    """splitmix64's finaliser (a bijection of uint64)."""
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@njit(cache=True)
def stream_start(seed, index, stream):
    """Initial state of the stream ``stream`` of game ``index`` under master ``seed``."""
    s = mix64(np.uint64(seed) + GOLDEN)
    s = mix64(s + np.uint64(index))
    return mix64(s + np.uint64(stream))


@njit(cache=True)
def seed_state(state, seed, index, stream):
    """Point ``state`` (uint64[1]) at the start of a game's stream."""
    state[0] = stream_start(seed, index, stream)


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance ``state`` (uint64[1]) and return the next 64 random bits."""
    state[0] = state[0] + GOLDEN
    return mix64(state[0])


@njit(cache=True, inline="always")
def randbelow(state, n):
    """A uniform integer in 0..n-1 (n >= 1), as int64."""
    return np.int64(((next_u64(state) >> S32) * np.uint64(n)) >> S32)


def new_state() -> np.ndarray:
    """A fresh one-element state array for the jitted helpers."""
    return np.zeros(1, dtype=np.uint64)


# --- the same generator in plain Python, for the reference engines ---------------------------


def py_mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def py_stream_start(seed: int, index: int, stream: int = 0) -> int:
    s = py_mix64(seed + _GOLDEN)
    s = py_mix64(s + index)
    return py_mix64(s + stream)


class PyRng:
    """Pure-Python twin of the jitted stream (bit-identical draws)."""

    def __init__(self, seed: int, index: int, stream: int = 0) -> None:
        self.state = py_stream_start(seed, index, stream)

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & MASK64
        return py_mix64(self.state)

    def randbelow(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def as_array(self) -> np.ndarray:
        """The current state as a uint64[1] array, to hand to a jitted helper."""
        return np.array([self.state], dtype=np.uint64)

    def load_array(self, state: np.ndarray) -> None:
        """Take back a state that a jitted helper advanced."""
        self.state = int(state[0])


def check_seed(seed: int) -> int:
    """Validate a master seed (0 .. 2**63-1) and return it."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    return seed
