"""Fitting a small network (one hidden layer of rectified units per phase) to ``pimc``'s
decision values: the Plus-Minus Jass model (strategies/jass/learned.py ``net``).

Per phase, the network scores every candidate of every decision; within each decision the
scores and the values are centred on their means (only differences between candidates
decide a move), and the loss is the mean squared difference of the two. Adam takes one step
per batch of :data:`BATCH` decisions (whole decisions, so the centring stays exact), the
decisions shuffled afresh every pass, for :data:`EPOCHS` passes; the step size falls
geometrically from :data:`RATE` to :data:`FINAL_RATE`. The weights' start and every shuffle
are drawn from ``numpy.random.default_rng((seed, phase))``; nothing else is drawn: the same
data and seed give the same weights on one machine.

Layout of one phase's weights (as the numba ``net`` reads them): ``hidden x inputs`` input
weights row by row, ``hidden`` biases, ``hidden`` output weights.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.learn.decisions import feature_columns, phase_data

EPOCHS = 60  # passes over the data
BATCH = 256  # decisions per Adam step
RATE = 0.003  # Adam's first step size (betas 0.9, 0.999) ...
FINAL_RATE = 0.0003  # ... falling geometrically to this one at the last step
DECAY = 1e-5  # weight decay on the input and output weights


def fit_phase(x: np.ndarray, y: np.ndarray, group: np.ndarray, hidden: int,
              rng: np.random.Generator, epochs: int = EPOCHS, progress=None) -> np.ndarray:
    """One phase's weights (module docstring) for inputs ``x``, values ``y`` and decision
    numbers ``group`` (0..groups-1)."""
    rows, inputs = x.shape
    groups = int(group.max()) + 1 if rows else 0
    count = np.bincount(group, minlength=groups).astype(np.float64)
    yc = y - (np.bincount(group, weights=y, minlength=groups) / count)[group]
    w_in = rng.normal(0.0, np.sqrt(2.0 / inputs), size=(hidden, inputs))
    bias = np.full(hidden, 0.01)
    w_out = rng.normal(0.0, 1.0 / np.sqrt(hidden), size=hidden)
    params = [w_in, bias, w_out]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2 = 0.9, 0.999
    batches = -(-groups // BATCH)
    steps = max(1, epochs * batches)
    t = 0
    for epoch in range(1, epochs + 1):
        place = rng.permutation(groups)  # each decision's place in this pass
        batch_of = place[group] // BATCH
        order = np.argsort(batch_of, kind="stable")
        bounds = np.searchsorted(batch_of[order], np.arange(batches + 1))
        for b in range(batches):
            idx = order[bounds[b]:bounds[b + 1]]
            t += 1
            rate = RATE * (FINAL_RATE / RATE) ** (t / steps)
            xb = x[idx]
            local = place[group[idx]] % BATCH  # the decision's number within the batch
            size = np.bincount(local, minlength=BATCH).astype(np.float64)
            size[size == 0] = 1.0
            a = xb @ w_in.T + bias
            h = np.maximum(a, 0.0)
            s = h @ w_out
            sc = s - (np.bincount(local, weights=s, minlength=BATCH) / size)[local]
            ds = 2.0 * (sc - yc[idx]) / len(idx)  # the centring's gradient sums to zero
            g_out = h.T @ ds + DECAY * w_out
            dh = np.outer(ds, w_out) * (a > 0.0)
            g_in = dh.T @ xb + DECAY * w_in
            g_bias = dh.sum(axis=0)
            for k, g in enumerate((g_in, g_bias, g_out)):
                m[k] = b1 * m[k] + (1 - b1) * g
                v[k] = b2 * v[k] + (1 - b2) * g * g
                step = rate * (m[k] / (1 - b1 ** t)) / (np.sqrt(v[k] / (1 - b2 ** t)) + 1e-8)
                params[k] -= step
        if progress is not None:
            progress(epoch)
    return np.concatenate([w_in.reshape(-1), bias, w_out])


def fit(frame: pd.DataFrame, phases: int, hidden: int, seed: int,
        epochs: int = EPOCHS) -> np.ndarray:
    """Weights (phases x (hidden * inputs + 2 * hidden)) fitted to the decision rows of
    ``frame``; decisions are told apart by (``run``, ``index``, ``decision``)."""
    out = np.zeros((phases, hidden * len(feature_columns(frame)) + 2 * hidden))
    for phase, x, y, group in phase_data(frame, phases):
        out[phase] = fit_phase(x, y, group, hidden, np.random.default_rng((seed, phase)),
                               epochs)
    return out
