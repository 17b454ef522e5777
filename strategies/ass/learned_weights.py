"""The weights of the ``learned`` family of Who's the Ass? (strategies/ass/learned.py): where
they are, how they are read and checked. No numba here (the catalogue imports it).

Two models share the family's features (:data:`N_FEATURES` per natural move) and phases:

* the **network** (``learned``, knob ``model=net``): per phase one hidden layer of
  :data:`HIDDEN` rectified units, in ``learned.json`` beside this module (:data:`MODEL`;
  ``CARDLAB_LEARNED_ASS`` names another file, as training's evaluations do);
* the **linear model** (``learned-linear``, ``model=linear``): one weight per feature, in
  ``learned-linear.json`` (:data:`LINEAR`; ``CARDLAB_LEARNED_ASS_LINEAR``). It is the
  ``learned`` that was shipped before the network, and the policy ``pimc``'s value model
  was trained on: the value model's leaves finish their round with it (strategies/ass/value.py),
  so retraining the network changes neither ``pimc`` nor its value model. It is kept as it
  was made; ``cardlab train ass`` fits the network.

Each file holds ``format`` ("cardlab-learned"), ``game``, ``features`` (the feature set the
weights were trained for), ``weights`` (one row per phase), ``sha256`` and ``provenance``
(strategies/learned_file.py). A missing, corrupt or mismatched file leaves its weights zero and
its error set: every command that names a strategy reading it then stops with that one line
(:func:`check_weights`, :func:`check_linear_weights`, called when the name is parsed).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from strategies.learned_file import (  # noqa: F401
    FORMAT,
    ModelFile,
    kernel_weights,
    raise_if,
    transposed_layout,
    weights_sentence,
)

LINEAR_FEATURE_SET = "ass-linear-1"  # the linear model's features (frozen with its file)
FEATURE_SET = "ass-mlp-1"  # bump when features() or the network change: old weights are refused
BASE = 18  # features of a move (see features())
BLOCKS = 3  # each base feature as it is, times "danger", times the own hand size
N_FEATURES = BASE * BLOCKS
HIDDEN = 32  # the network's rectified hidden units per phase
assert HIDDEN <= 32 and HIDDEN % 8 == 0, "learned.choose_net: stack arrays of 32, rows of 8 units"
N_PARAMS = HIDDEN * N_FEATURES + 2 * HIDDEN  # per phase: input weights, biases, output weights
PHASES = 3  # leading, following in a normal round, following in an ass round
LEAD, FOLLOW, ASS_FOLLOW = range(3)
WEIGHTS_FILE = Path(__file__).with_name("learned.json")
WEIGHTS_ENV = "CARDLAB_LEARNED_ASS"
LINEAR_FILE = Path(__file__).with_name("learned-linear.json")
LINEAR_ENV = "CARDLAB_LEARNED_ASS_LINEAR"
MAX_CANDIDATES = 64
# the knob values (pimc's rollout) that read the linear model: learned-linear itself, and the
# value model, whose leaves' rounds it finishes (analyzer/runner/manifest.py records them)
# (catalog.VALUE_NAME, catalog.VALUE_ONLY_NAME: the catalogue imports this module, so they
# are spelled here; tests/test_ass_value.py holds the two to the catalogue's)
LINEAR_READERS = ("learned-linear", "value", "value-only")
PINNED = "linear"  # the second model's name as the knob ``model`` shows it (manifest.py)
PINNED_READERS = LINEAR_READERS
MODEL = ModelFile("ass", "Who's the Ass?", FEATURE_SET, PHASES, N_PARAMS, WEIGHTS_FILE,
                  WEIGHTS_ENV)
LINEAR = ModelFile("ass", "Who's the Ass?", LINEAR_FEATURE_SET, PHASES, N_FEATURES, LINEAR_FILE,
                   LINEAR_ENV, kind="linear learned weights",
                   remake="git checkout strategies/ass/learned-linear.json (it is not retrained)")
weights_path = MODEL.path
weights_digest = MODEL.digest
load_weights = MODEL.load
weights_document = MODEL.document
weights_text = MODEL.text
WEIGHTS, WEIGHTS_ERROR, WEIGHTS_DOC = MODEL.load_in_use()
LINEAR_WEIGHTS, LINEAR_ERROR, LINEAR_DOC = LINEAR.load_in_use()
PINNED_FILE, PINNED_WEIGHTS = LINEAR, LINEAR_WEIGHTS
LINEAR_KERNEL_WEIGHTS = kernel_weights(LINEAR_WEIGHTS)  # learned.choose's: subnormals zero


def kernel_layout(weights: np.ndarray) -> np.ndarray:
    """The network's weights as the compiled network reads them (learned.choose_net): input by
    input, subnormal entries zero (strategies/learned_file.py ``transposed_layout``)."""
    return transposed_layout(weights, PHASES, HIDDEN, N_FEATURES)


KERNEL_WEIGHTS = kernel_layout(WEIGHTS)  # what learned.learned plays with (model=net)


def check_weights() -> None:
    """Raise the one-line error of a missing, corrupt or mismatched network weights file."""
    raise_if(WEIGHTS_ERROR)


def check_linear_weights() -> None:
    """Raise the one-line error of a missing, corrupt or mismatched linear weights file."""
    raise_if(LINEAR_ERROR)


def about() -> str:
    """The paragraph ``cardlab strategies learned`` prints: what the model sees, how the
    weights in use were trained."""
    text = (
        "What it sees: only what ruling A-11 lets a player know: its own hand and the public "
        "state (the round's set size and highest value, whether it is an ass round, its "
        "position, every hand's size, the cards gone and those on the table); never another "
        "hand. How it plays: it lists the natural moves (leading the ass or a whole set, with "
        "or without all its jokers, all jokers alone; passing or the cheapest raise with each "
        "higher value; each card into an ass round) and gives each a score from "
        f"{N_FEATURES} features of the move (cards and minus points it plays and leaves, "
        "whether it splits a value or empties the hand, whether the public record proves it "
        "cannot be beaten, how close the others are to going out): a small neural network "
        f"(one hidden layer of {HIDDEN} rectified units) for leading, one for following and "
        "one for ass rounds; it plays the lowest score, passing's score raised by hold minus "
        "points (default 2: fitted to pimc's values, the network passes too often). No "
        "search, no random draws. How it "
        "was trained: pimc valued every natural move of every decision of its own games (the "
        "same imagined deals for every move) and the network was fitted to those values, "
        "centred within each decision, by least squares (Adam on batches of decisions, a "
        "fixed number of passes from a seeded start; `cardlab train ass`, expert iteration). "
        "model=linear "
        "(the preset learned-linear) plays the linear model of before instead: one weight "
        "per feature, the policy pimc's value model finishes its rounds with."
    )
    return text + weights_sentence(WEIGHTS_ERROR, WEIGHTS_DOC)
