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

import hashlib
import json
import os
from pathlib import Path

import numpy as np

FEATURE_SET = "ass-linear-1"  # bump when features() changes: old weights are then refused
BASE = 18  # features of a move (see features())
BLOCKS = 3  # each base feature as it is, times "danger", times the own hand size
N_FEATURES = BASE * BLOCKS
PHASES = 3  # leading, following in a normal round, following in an ass round
LEAD, FOLLOW, ASS_FOLLOW = range(3)
WEIGHTS_FILE = Path(__file__).with_name("learned.json")
WEIGHTS_ENV = "CARDLAB_LEARNED_ASS"
FORMAT = "cardlab-learned"
MAX_CANDIDATES = 64


def weights_path() -> Path:
    """The weights file in use: ``CARDLAB_LEARNED_ASS`` when set, else the shipped one."""
    env = os.environ.get(WEIGHTS_ENV)
    return Path(env) if env else WEIGHTS_FILE


def weights_digest(weights: np.ndarray) -> str:
    """sha256 of the weights as the file writes them (exact float reprs, phase by phase)."""
    text = json.dumps([[float(x) for x in row] for row in np.asarray(weights).reshape(PHASES, -1)])
    return hashlib.sha256(text.encode()).hexdigest()


def load_weights(path: Path) -> tuple[np.ndarray, dict]:
    """(weights float64[PHASES * N_FEATURES], the file's document); ValueError with one line
    naming the file when it is missing, unreadable, or for another model or feature set."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"learned weights file {path} is missing; run `cardlab train ass` "
                         "or reinstall cardlab") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"learned weights file {path} is corrupt ({exc.__class__.__name__}); "
                         "run `cardlab train ass` to remake it") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("game") != "ass":
        raise ValueError(f"learned weights file {path} is not a Who's the Ass? weights file")
    if doc.get("features") != FEATURE_SET:
        raise ValueError(f"learned weights file {path} was trained for feature set "
                         f"{doc.get('features')!r}, this cardlab computes {FEATURE_SET!r}; "
                         "run `cardlab train ass` to remake it")
    try:
        w = np.array(doc["weights"], dtype=np.float64)
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"learned weights file {path} is corrupt (no weights array)") from None
    if w.shape != (PHASES, N_FEATURES) or not np.all(np.isfinite(w)):
        raise ValueError(f"learned weights file {path} holds weights of shape {w.shape}, not "
                         f"({PHASES}, {N_FEATURES}) finite numbers")
    if doc.get("sha256") != weights_digest(w):
        raise ValueError(f"learned weights file {path} is corrupt (its weights do not match "
                         "their sha256)")
    return w.reshape(-1).copy(), doc


def _load() -> tuple[np.ndarray, str, dict]:
    path = weights_path()
    try:
        w, doc = load_weights(path)
    except ValueError as exc:
        return np.zeros(PHASES * N_FEATURES), str(exc), {}
    return w, "", doc


WEIGHTS, WEIGHTS_ERROR, WEIGHTS_DOC = _load()


def check_weights() -> None:
    """Raise the one-line error of a missing, corrupt or mismatched weights file."""
    if WEIGHTS_ERROR:
        from strategies.registry import StrategyError

        raise StrategyError(WEIGHTS_ERROR)


def weights_document(weights: np.ndarray, provenance: dict) -> dict:
    """The weights file's document for ``weights`` (PHASES x N_FEATURES) and ``provenance``."""
    w = np.asarray(weights, dtype=np.float64).reshape(PHASES, N_FEATURES)
    return {
        "format": FORMAT,
        "game": "ass",
        "features": FEATURE_SET,
        "shape": [PHASES, N_FEATURES],
        "sha256": weights_digest(w),
        "provenance": provenance,
        "weights": [[float(x) for x in row] for row in w],
    }


def weights_text(weights: np.ndarray, provenance: dict) -> str:
    """The weights file's text (JSON; floats as their exact shortest repr)."""
    return json.dumps(weights_document(weights, provenance), indent=1) + "\n"


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
    if WEIGHTS_ERROR:
        return text + f" Weights: unusable ({WEIGHTS_ERROR})."
    prov = WEIGHTS_DOC.get("provenance", {})
    facts = [f"{k} {prov[k]}" for k in ("command", "decisions", "rows", "best_round", "commit")
             if k in prov]
    return text + (" Weights in use: " + "; ".join(facts) + "." if facts else "")
