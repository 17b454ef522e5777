"""The weights of the ``learned`` family of Plus-Minus Jass (strategies/jass/learned.py): the
model's shape, the shipped files, the paragraph ``cardlab strategies learned`` prints. No
numba here (the catalogue imports it). The files' format and checks are every game's
(strategies/learned_file.py).

Two files of the same network:

* ``learned.json`` (:data:`MODEL`; ``CARDLAB_LEARNED_JASS`` names another file): what a
  ``learned`` seat plays (knob ``model=net``), and ``pimc:rollout=learned``; ``cardlab train
  jass`` makes it;
* ``learned-leaf.json`` (:data:`LEAF`; ``CARDLAB_LEARNED_JASS_LEAF``): the weights
  ``pimc``'s value model was trained on, which finish the tricks of its leaves
  (strategies/jass/value.py) and play ``learned-leaf`` (``model=leaf``). Pinned apart so that
  retraining ``learned`` changes neither ``pimc`` nor its value model; kept as it was made.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from strategies.jass.knobs import MODEL_CHOICES, MODEL_LEAF, VALUE_FINISHER  # noqa: F401
from strategies.learned_file import (
    ModelFile,
    raise_if,
    transposed_layout,
    weights_sentence,
)

FEATURE_SET = "jass-mlp-1"  # bump when features() or the net change: old weights are refused
BASE = 18  # facts of a card (see learned.base_features())
CONTEXTS = 10  # facts of the deal (1, points won so far, ...: learned.context())
N_FEATURES = BASE + CONTEXTS  # the network's inputs, the columns of the decision data
HIDDEN = 32  # rectified hidden units per phase
assert HIDDEN <= 32 and HIDDEN % 8 == 0, "learned.choose: stack arrays of 32, rows of 8 units"
N_PARAMS = HIDDEN * N_FEATURES + 2 * HIDDEN  # per phase: input weights, biases, output weights
PHASES = 3  # leading, following with trump fixed, following before trump is fixed
LEAD, FOLLOW, OPEN = range(3)
WEIGHTS_FILE = Path(__file__).with_name("learned.json")
WEIGHTS_ENV = "CARDLAB_LEARNED_JASS"
LEAF_FILE = Path(__file__).with_name("learned-leaf.json")
LEAF_ENV = "CARDLAB_LEARNED_JASS_LEAF"
# the knob values (pimc's rollout) that read the leaf's weights: learned-leaf itself, and the
# value model, whose leaves' tricks they finish (analyzer/runner/manifest.py records them)
PINNED = MODEL_CHOICES[MODEL_LEAF]  # the second model's name as the knob ``model`` shows it
PINNED_READERS = (VALUE_FINISHER, "value")
MODEL = ModelFile("jass", "Plus-Minus Jass", FEATURE_SET, PHASES, N_PARAMS, WEIGHTS_FILE,
                  WEIGHTS_ENV)
LEAF = ModelFile("jass", "Plus-Minus Jass", FEATURE_SET, PHASES, N_PARAMS, LEAF_FILE, LEAF_ENV,
                 kind="leaf learned weights",
                 remake="git checkout strategies/jass/learned-leaf.json (it is not retrained)")
PINNED_FILE = LEAF
weights_digest = MODEL.digest
load_weights = MODEL.load
weights_text = MODEL.text
WEIGHTS, WEIGHTS_ERROR, WEIGHTS_DOC = MODEL.load_in_use()
LEAF_WEIGHTS, LEAF_ERROR, LEAF_DOC = LEAF.load_in_use()
PINNED_WEIGHTS = LEAF_WEIGHTS


def kernel_layout(weights: np.ndarray) -> np.ndarray:
    """The network's weights as the compiled network reads them (learned.choose): input by
    input, subnormal entries zero (strategies/learned_file.py ``transposed_layout``)."""
    return transposed_layout(weights, PHASES, HIDDEN, N_FEATURES)


KERNEL_WEIGHTS = kernel_layout(WEIGHTS)  # what learned.learned_card plays with (model=net)
LEAF_KERNEL_WEIGHTS = kernel_layout(LEAF_WEIGHTS)  # (model=leaf)


def check_weights() -> None:
    """Raise the one-line error of a missing, corrupt or mismatched weights file."""
    raise_if(WEIGHTS_ERROR)


def check_leaf_weights() -> None:
    """Raise the one-line error of a missing, corrupt or mismatched leaf weights file."""
    raise_if(LEAF_ERROR)


def about() -> str:
    """The paragraph ``cardlab strategies learned`` prints for Plus-Minus Jass."""
    text = (
        "What it sees: only what ruling J-11 lets a player know: its own hand, every card "
        "played and by whom, the trick so far, the trump once fixed, who showed out of which "
        "suit and the cards each seat has won; never another hand. How it plays: it gives "
        "every legal card a score, a small neural network (one hidden layer of "
        f"{HIDDEN} rectified units) over {N_FEATURES} inputs: {BASE} facts of the card "
        "(whether it takes the lead in the trick and the points that would win, its points, "
        "whether the record proves it wins, whether it is or fixes trump and how good that "
        "trump suit is in the hand, its strength, the unseen cards above it and their points, "
        f"what it leaves in its suit) and {CONTEXTS} facts of the deal (its own points so "
        "far, the most and the fewest another seat has won, whether it leads or trails them, "
        "the points in its hand, the tricks left, the player count), with one network for "
        "leading, following, and following before trump is fixed; it plays the highest "
        "score. Trump is chosen by the card: a card off the led suit that fixes trump is "
        "scored like any other. No aim, no search, no random draws. How it was trained: pimc "
        "valued every legal card of every decision of its own deals (the same imagined deals "
        "for every card; the value: the sticks the deal brings the decider) and the network "
        "was fitted to those values, centred within each decision, by least squares (Adam "
        "on batches of decisions, a fixed number of passes from a seeded start; `cardlab "
        "train jass`, expert iteration: in later rounds the learned player itself plays one "
        "seat and pimc values its every decision, so it learns from the positions it "
        "reaches; the shipped weights by scripts/train_jass_learned.sh, whose later rounds "
        "put it at tables of aim-low and of pimc-rollouts, each valued by a search that "
        "models that table). model=leaf (the preset learned-leaf) plays the network of "
        "learned-leaf.json instead: the one pimc's value model was trained on and finishes "
        "the tricks of its leaves with, kept as it was when learned is retrained."
    )
    return text + weights_sentence(WEIGHTS_ERROR, WEIGHTS_DOC)
