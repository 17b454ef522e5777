"""The linear fit of a learned model (Who's the Ass?, strategies/ass/learned.py): the weights
whose scores best predict ``pimc``'s values *relative to the decision's other candidates*.

Within each decision the features and the values are centred on their means (only
differences between candidates decide a move), and per phase the weights solve the ridge
least-squares problem ``(X'X + ridge * rows * I) w = X'y`` in float64. Nothing is drawn: the
same data give the same weights, bit for bit, on one machine.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.learn.decisions import feature_columns, phase_data

RIDGE = 1e-4


def fit(frame: pd.DataFrame, ridge: float = RIDGE, phases: int | None = None) -> np.ndarray:
    """Weights (phases x features) fitted to the decision rows of ``frame`` (module
    docstring); ``phases`` defaults to the highest phase in the rows + 1. Decisions are told
    apart by (``run``, ``index``, ``decision``); ``run`` is optional (one data set)."""
    if phases is None:
        phases = int(frame["phase"].max()) + 1
    weights = np.zeros((phases, len(feature_columns(frame))))
    for phase, x, y, group in phase_data(frame, phases):
        count = np.bincount(group).astype(np.float64)
        xm = np.zeros((len(count), x.shape[1]))
        np.add.at(xm, group, x)
        xm /= count[:, None]
        ym = np.bincount(group, weights=y) / count
        xc = x - xm[group]
        yc = y - ym[group]
        a = xc.T @ xc + ridge * len(y) * np.eye(x.shape[1])
        weights[phase] = np.linalg.solve(a, xc.T @ yc)
    return weights
