"""The weights file of a ``learned`` family (strategies/<game>/learned.json), for every game:
where it is, how it is read and checked, how it is written. No numba here (the catalogues
import it).

A file holds: ``format`` ("cardlab-learned"), ``game``, ``features`` (the feature set the
weights were trained for), ``shape`` (phases, features), ``weights`` (one row of floats per
phase), ``sha256`` (of the weights, :meth:`ModelFile.digest`) and ``provenance`` (command,
seed, data size, commit; written by analyzer/learn). It is read once per process, when the
game's weights module is imported; an environment variable (``CARDLAB_LEARNED_<GAME>``) names
another file instead (training evaluates its rounds so). A missing, corrupt or mismatched
file leaves the weights zero and an error set: every command that names ``learned`` then
stops with that one line (:func:`raise_if`, called when the name is parsed).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FORMAT = "cardlab-learned"
SMALLEST_NORMAL = float(np.finfo(np.float64).tiny)  # 2**-1022


def kernel_weights(weights: np.ndarray) -> np.ndarray:
    """A copy of ``weights`` for the compiled kernels: entries below the smallest normal
    float64 (2**-1022 in magnitude: subnormals) set to zero, the rest as they are.

    Why: training shrinks the weights of an input that is always zero in a phase into
    subnormal numbers, and x86 processors multiply a subnormal some hundred times slower than
    a normal number (measured: docs/strategies.md, "What made it fast"). Every model's
    kernels read their weights through this (learned and value models, both games).

    Why the choices stay the same: a subnormal weight times a factor below 2**20 in magnitude
    (the inputs are below 2.1, a hidden unit's value far below a million) is below
    2**-1002, which cannot change a running sum (a unit's bias plus its products, or the
    score) of magnitude above 2**-949: half a unit in its last place is larger. The biases
    and the scores are of order 1e-3 and more; only a sum that came within 1e-285 of zero
    could differ, and then only in which of two equal-looking scores is larger. The tests
    hold the kernels (these weights) to the plain-Python twin (the file's weights) card for
    card."""
    w = np.array(weights, dtype=np.float64)
    w[np.abs(w) < SMALLEST_NORMAL] = 0.0
    return w


def transposed_layout(weights: np.ndarray, phases: int, hidden: int, inputs: int) -> np.ndarray:
    """A learned network's weights as its compiled kernel reads them: per phase the input
    weights input by input (``in[d, h]`` at ``d * hidden + h``, where the file has them unit by
    unit, ``in[h, d]`` at ``h * inputs + d``), so that one input's products for every unit are
    one row (analyzer/rows.py); then the biases and the output weights as in the file. Entries
    are :func:`kernel_weights`' (subnormals zero). Flat, phase after phase."""
    w = kernel_weights(np.asarray(weights, dtype=np.float64).reshape(phases, -1))
    cut = hidden * inputs
    w[:, :cut] = w[:, :cut].reshape(phases, hidden, inputs).transpose(0, 2, 1).reshape(
        phases, cut)
    return w.reshape(-1)


@dataclass(frozen=True)
class ModelFile:
    """One game's model: its feature set and shape, its shipped file and the variable that
    names another."""

    game: str
    title: str  # the game's name in messages ("Who's the Ass?")
    feature_set: str  # bump when the features change: old weights are then refused
    phases: int
    n_features: int
    default: Path
    env: str
    kind: str = "learned weights"  # what the file is, in messages
    remake: str = ""  # the command that remakes it (default: ``cardlab train <game>``)

    @property
    def remake_command(self) -> str:
        return self.remake or f"cardlab train {self.game}"

    def path(self) -> Path:
        """The weights file in use: the environment variable's when set, else the shipped."""
        value = os.environ.get(self.env)
        return Path(value) if value else self.default

    def digest(self, weights: np.ndarray) -> str:
        """sha256 of the weights as the file writes them (exact float reprs, phase by phase)."""
        rows = np.asarray(weights).reshape(self.phases, -1)
        text = json.dumps([[float(x) for x in row] for row in rows])
        return hashlib.sha256(text.encode()).hexdigest()

    def load(self, path: Path) -> tuple[np.ndarray, dict]:
        """(weights float64[phases * n_features], the file's document); ValueError with one
        line naming the file when it is missing, unreadable, or for another model."""
        remake = f"run `{self.remake_command}` to remake it"
        kind = self.kind
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"{kind} file {path} is missing; run `{self.remake_command}` "
                             "or reinstall cardlab") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise ValueError(f"{kind} file {path} is corrupt "
                             f"({exc.__class__.__name__}); {remake}") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("game") != self.game:
            raise ValueError(f"{kind} file {path} is not a {self.title} weights file")
        if doc.get("features") != self.feature_set:
            raise ValueError(f"{kind} file {path} was trained for feature set "
                             f"{doc.get('features')!r}, this cardlab computes "
                             f"{self.feature_set!r}; {remake}")
        try:
            w = np.array(doc["weights"], dtype=np.float64)
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"{kind} file {path} is corrupt (no weights array)"
                             ) from None
        want = (self.phases, self.n_features)
        if w.shape != want:
            shape = "x".join(map(str, w.shape)) or "a single number"
            raise ValueError(f"{kind} file {path} holds weights of shape {shape}, "
                             f"not {want[0]}x{want[1]} (phases x features); {remake}")
        bad = np.argwhere(~np.isfinite(w))
        if len(bad):
            r, c = (int(x) for x in bad[0])
            what = "NaN" if np.isnan(w[r, c]) else "an infinite value"
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            raise ValueError(f"{kind} file {path} holds {what} at row {r}, column {c} "
                             f"of its weights{more}: every weight must be a finite number; "
                             f"{remake}")
        if doc.get("sha256") != self.digest(w):
            raise ValueError(f"{kind} file {path} is corrupt (its weights do not "
                             "match their sha256)")
        return w.reshape(-1).copy(), doc

    def load_in_use(self) -> tuple[np.ndarray, str, dict]:
        """(weights, error, document) of the file in use; zero weights and the one-line error
        when it is unusable."""
        try:
            w, doc = self.load(self.path())
        except ValueError as exc:
            return np.zeros(self.phases * self.n_features), str(exc), {}
        return w, "", doc

    def document(self, weights: np.ndarray, provenance: dict) -> dict:
        """The file's document for ``weights`` (phases x n_features) and ``provenance``."""
        w = np.asarray(weights, dtype=np.float64).reshape(self.phases, self.n_features)
        return {
            "format": FORMAT,
            "game": self.game,
            "features": self.feature_set,
            "shape": [self.phases, self.n_features],
            "sha256": self.digest(w),
            "provenance": provenance,
            "weights": [[float(x) for x in row] for row in w],
        }

    def text(self, weights: np.ndarray, provenance: dict) -> str:
        """The file's text (JSON; floats as their exact shortest repr)."""
        return json.dumps(self.document(weights, provenance), indent=1) + "\n"


def unpack_networks(flat: np.ndarray, rows: int, inputs: int, hidden: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A value model's networks, one per row of its file (a value_weights module's layout:
    ``inputs x hidden`` input weights, input by input, ``hidden`` biases, ``hidden`` output
    weights, one output bias): (W1 [rows, inputs, hidden], B1 [rows, hidden], W2 [rows,
    hidden], B2 [rows])."""
    width = inputs * hidden + 2 * hidden + 1
    flat = np.asarray(flat, dtype=np.float64).reshape(rows, width)
    w1 = flat[:, :inputs * hidden].reshape(rows, inputs, hidden).copy()
    b1 = flat[:, inputs * hidden:inputs * hidden + hidden].copy()
    w2 = flat[:, inputs * hidden + hidden:inputs * hidden + 2 * hidden].copy()
    b2 = flat[:, width - 1].copy()
    return w1, b1, w2, b2


def pack_networks(w1, b1, w2, b2, rows: int, inputs: int, hidden: int) -> np.ndarray:
    """The inverse of :func:`unpack_networks`: rows x (inputs x hidden + 2 hidden + 1)."""
    width = inputs * hidden + 2 * hidden + 1
    out = np.zeros((rows, width))
    out[:, :inputs * hidden] = np.asarray(w1).reshape(rows, -1)
    out[:, inputs * hidden:inputs * hidden + hidden] = b1
    out[:, inputs * hidden + hidden:inputs * hidden + 2 * hidden] = w2
    out[:, width - 1] = b2
    return out


def raise_if(error: str) -> None:
    """Raise the one-line error of an unusable weights file (``error`` empty: nothing)."""
    if error:
        from strategies.registry import StrategyError

        raise StrategyError(error)


def weights_sentence(error: str, doc: dict) -> str:
    """The end of ``cardlab strategies learned``'s paragraph about the weights in use:
    " Weights: unusable (why)." or " Weights in use: command; decisions; ..."."""
    if error:
        return f" Weights: unusable ({error})."
    prov = doc.get("provenance", {})
    facts = [f"{k} {prov[k]}" for k in ("command", "decisions", "rows", "best_round", "commit")
             if k in prov]
    return " Weights in use: " + "; ".join(facts) + "." if facts else ""
