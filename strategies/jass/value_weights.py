"""The weights of Plus-Minus Jass's value model (strategies/jass/value.py): where they are,
how they are read and checked. No numba here (the catalogue imports it).

The file ``value.json`` beside this module is a weights file of the shared format
(strategies/learned_file.py): one row per player count (3, then 4), each row a small
network's weights: ``INPUTS x HIDDEN`` input weights (input by input), ``HIDDEN`` biases,
``HIDDEN`` output weights and one output bias. It is read once per process;
``CARDLAB_VALUE_JASS`` names another file instead. A missing, corrupt or mismatched file
leaves the weights zero and an error set: every command that names ``pimc:rollout=value``
(and so plain ``pimc``, whose default it is) then stops with that one line.
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

FEATURE_SET = "jass-value-1"  # bump when value.py's inputs change: old weights are then refused
SEATS = 4  # input blocks: seats in playing order from the decider (3 players: the last is 0)
CARD_INPUTS = 2 * 36  # per seat: the cards it holds, the cards it has won (suits from trump)
I_LEAD = 1 + SEATS * CARD_INPUTS  # one-hot: who leads the next trick, from the decider
I_LEFT = I_LEAD + SEATS  # the tricks left / the deal's tricks
I_FIXED = I_LEFT + 1  # 1 once trump is fixed
INPUTS = I_FIXED + 1  # input 0 is the constant 1
HIDDEN = 32
assert HIDDEN <= 32  # value.py keeps the hidden units in a stack array of 32
ROW = INPUTS * HIDDEN + 2 * HIDDEN + 1
ROWS = 2  # by player count: row_of
WEIGHTS_FILE = Path(__file__).with_name("value.json")
WEIGHTS_ENV = "CARDLAB_VALUE_JASS"
MODEL = ModelFile("jass", "Plus-Minus Jass", FEATURE_SET, ROWS, ROW, WEIGHTS_FILE, WEIGHTS_ENV,
                  kind="value weights", remake="python scripts/train_value.py --game jass")
FLAT, _ERROR, DOC = MODEL.load_in_use()


def row_of(players: int) -> int:
    """The network of ``players`` (3 or 4)."""
    return players - 3


def unpack(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(W1 [ROWS, INPUTS, HIDDEN], B1 [ROWS, HIDDEN], W2 [ROWS, HIDDEN], B2 [ROWS]) of the
    flat weights (ROWS x ROW)."""
    return unpack_networks(flat, ROWS, INPUTS, HIDDEN)


def pack(w1, b1, w2, b2) -> np.ndarray:
    """The inverse of :func:`unpack`: ROWS x ROW."""
    return pack_networks(w1, b1, w2, b2, ROWS, INPUTS, HIDDEN)


def _missing_rows(flat: np.ndarray) -> str:
    rows = np.asarray(flat).reshape(ROWS, ROW)
    missing = [str(3 + r) for r in range(ROWS) if not rows[r].any()]
    if not missing:
        return ""
    return (f"value weights file {MODEL.path()} has no weights for {', '.join(missing)} players; "
            f"run `{MODEL.remake_command}`")


WEIGHTS_ERROR = _ERROR or _missing_rows(FLAT)
W1, B1, W2, B2 = unpack(kernel_weights(FLAT))  # the kernels': subnormal entries zero


def check_weights() -> None:
    """Raise the one-line error of a missing, corrupt or incomplete value weights file."""
    raise_if(WEIGHTS_ERROR)
