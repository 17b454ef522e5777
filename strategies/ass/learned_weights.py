"""The weights of the ``learned`` family of Who's the Ass? (strategies/ass/learned.py): where
they are, how they are read and checked. No numba here (the catalogue imports it).

The file ``learned.json`` beside this module holds: ``format`` ("cardlab-learned"), ``game``,
``features`` (the feature set the weights were trained for, :data:`FEATURE_SET`), ``weights``
(PHASES rows of N_FEATURES floats), ``sha256`` (of the weights, :func:`weights_digest`) and
``provenance`` (command, seed, data size, commit; written by analyzer/learn). It is read once
per process, when this module is imported; ``CARDLAB_LEARNED_ASS`` names another file instead
(training evaluates its rounds so). A missing, corrupt or mismatched file leaves
:data:`WEIGHTS` zero and :data:`WEIGHTS_ERROR` set: every command that names ``learned``
then stops with that one line (:func:`check_weights`, called when the name is parsed).
"""

from __future__ import annotations

from pathlib import Path

from strategies.learned_file import (  # noqa: F401
    FORMAT,
    ModelFile,
    kernel_weights,
    raise_if,
    weights_sentence,
)

FEATURE_SET = "ass-linear-1"  # bump when features() changes: old weights are then refused
BASE = 18  # features of a move (see features())
BLOCKS = 3  # each base feature as it is, times "danger", times the own hand size
N_FEATURES = BASE * BLOCKS
PHASES = 3  # leading, following in a normal round, following in an ass round
LEAD, FOLLOW, ASS_FOLLOW = range(3)
WEIGHTS_FILE = Path(__file__).with_name("learned.json")
WEIGHTS_ENV = "CARDLAB_LEARNED_ASS"
MAX_CANDIDATES = 64
MODEL = ModelFile("ass", "Who's the Ass?", FEATURE_SET, PHASES, N_FEATURES, WEIGHTS_FILE,
                  WEIGHTS_ENV)
weights_path = MODEL.path
weights_digest = MODEL.digest
load_weights = MODEL.load
weights_document = MODEL.document
weights_text = MODEL.text
WEIGHTS, WEIGHTS_ERROR, WEIGHTS_DOC = MODEL.load_in_use()
KERNEL_WEIGHTS = kernel_weights(WEIGHTS)  # what learned.learned plays with: subnormals zero


def check_weights() -> None:
    """Raise the one-line error of a missing, corrupt or mismatched weights file."""
    raise_if(WEIGHTS_ERROR)


def about() -> str:
    """The paragraph ``cardlab strategies learned`` prints: what the model sees, how the
    weights in use were trained."""
    text = (
        "What it sees: only what ruling A-11 lets a player know: its own hand and the public "
        "state (the round's set size and highest value, whether it is an ass round, its "
        "position, every hand's size, the cards gone and those on the table); never another "
        "hand. How it plays: it lists the natural moves (leading the ass or a whole set, with "
        "or without all its jokers, all jokers alone; passing or the cheapest raise with each "
        "higher value; each card into an ass round) and gives each a score, a weighted sum of "
        f"{N_FEATURES} features of the move (cards and minus points it plays and leaves, "
        "whether it splits a value or empties the hand, whether the public record proves it "
        "cannot be beaten, how close the others are to going out), with one set of weights "
        "for leading, following and ass rounds; it plays the lowest score. No search, no "
        "random draws. How it was trained: pimc valued every natural move of every decision "
        "of its own games (the same imagined deals for every move) and the weights fit those "
        "values by least squares within each decision (`cardlab train ass`, expert "
        "iteration: later rounds search with learned rollouts)."
    )
    return text + weights_sentence(WEIGHTS_ERROR, WEIGHTS_DOC)
