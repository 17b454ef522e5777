"""The weights of Who's the Ass?'s value model (strategies/ass/value.py): where they are, how
they are read and checked. No numba here (the catalogue imports it).

The file ``value.json`` beside this module is a weights file of the shared format
(strategies/learned_file.py): one row per player count n (rows 0..2 unused), each row a small
network's weights: ``INPUTS x HIDDEN`` input weights (input by input), ``HIDDEN`` biases,
``HIDDEN`` output weights and one output bias. Row n reads its first
``N_ENGINEERED + 17 * n`` inputs only (value.py ``inputs``); the rest are zero. It is read
once per process; ``CARDLAB_VALUE_ASS`` names another file instead (training evaluates its
candidates so). A missing, corrupt or mismatched file leaves the weights zero and an error
set: every command that names ``pimc:rollout=value`` then stops with that one line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from strategies.learned_file import (
    ModelFile,
    kernel_weights,
    pack_networks,
    raise_if,
    unpack_networks,
)

FEATURE_SET = "ass-value-1"  # bump when value.py's inputs change: old weights are then refused
N_ENGINEERED = 40  # value.py ``engineered``
MAX_PLAYERS = 12
MIN_PLAYERS = 3
INPUTS = N_ENGINEERED + 17 * MAX_PLAYERS  # engineered, 15 counts per seat, 2 one-hots per seat
HIDDEN = 16
ROW = INPUTS * HIDDEN + 2 * HIDDEN + 1
ROWS = MAX_PLAYERS + 1  # by player count
WEIGHTS_FILE = Path(__file__).with_name("value.json")
WEIGHTS_ENV = "CARDLAB_VALUE_ASS"
MODEL = ModelFile("ass", "Who's the Ass?", FEATURE_SET, ROWS, ROW, WEIGHTS_FILE, WEIGHTS_ENV,
                  kind="value weights", remake="python scripts/train_value.py")
FLAT, _ERROR, DOC = MODEL.load_in_use()


def unpack(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(W1 [ROWS, INPUTS, HIDDEN], B1 [ROWS, HIDDEN], W2 [ROWS, HIDDEN], B2 [ROWS]) of the
    flat weights (ROWS x ROW)."""
    return unpack_networks(flat, ROWS, INPUTS, HIDDEN)


def pack(w1, b1, w2, b2) -> np.ndarray:
    """The inverse of :func:`unpack`: ROWS x ROW."""
    return pack_networks(w1, b1, w2, b2, ROWS, INPUTS, HIDDEN)


def _missing_rows(flat: np.ndarray) -> str:
    rows = np.asarray(flat).reshape(ROWS, ROW)
    missing = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if not rows[n].any()]
    if not missing:
        return ""
    return (f"value weights file {MODEL.path()} has no weights for "
            f"{', '.join(map(str, missing))} players; run `{MODEL.remake_command}`")


WEIGHTS_ERROR = _ERROR or _missing_rows(FLAT)
# who plays out the rest of a leaf's round, as the weights were trained (their provenance)
FINISHER_NAME = DOC.get("provenance", {}).get("finisher", "basic")
if FINISHER_NAME not in ("basic", "learned"):
    WEIGHTS_ERROR = WEIGHTS_ERROR or (f"value weights file {MODEL.path()} names an unknown "
                                      f"finisher {FINISHER_NAME!r}; run "
                                      f"`{MODEL.remake_command}`")
    FINISHER_NAME = "basic"
W1, B1, W2, B2 = unpack(kernel_weights(FLAT))  # the kernels': subnormal entries zero


def check_weights() -> None:
    """Raise the one-line error of a missing, corrupt or incomplete value weights file."""
    raise_if(WEIGHTS_ERROR)
