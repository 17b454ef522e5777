"""From an outcome matrix (sampled worlds x moves) to the rows ``cardlab analyze`` shows.

Every move's value is the mean of its column with a 95% t interval; its difference to the
best move is the mean of the per-world differences of the two columns (a *paired* interval:
every move met the same worlds and rollout streams), so a difference is as sharp as the
worlds allow even where the values themselves are wide.

``diff`` is the move's value minus the best move's value in the game's unit (Who's the
Ass?: minus points, lower is better, so ``diff >= 0``; Plus-Minus Jass: sticks, higher is
better, so ``diff <= 0``). The *loss* of a move (``replay --analyze``) is ``|diff|`` with
its interval oriented the same way: ``loss >= 0`` always.

The best move is picked as the best of the k moves on these very worlds, so a difference
to it is read against a pick: its interval is widened for the selection (Bonferroni over the
k (k - 1) / 2 pairs of moves, so that every pair, and hence the one the pick makes, is
covered at 95% together).

Labels (docs/analyzing.md): a move is labelled only when its loss is clear (the
selection-corrected paired interval of the loss lies above 0), and then by the loss's size
in the game's unit.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.games.registry import ByGame
from analyzer.games.registry import Labels as Thresholds
from analyzer.stats.hygiene import selected_interval
from analyzer.stats.intervals import mean_interval, t_quantile


def _thresholds(description) -> Thresholds:
    """The game's labels (its adapter's ``labels``: the smallest loss, in the game's unit, of
    an inaccuracy, a mistake and a blunder; the unit; the result column the value is)."""
    labels = description.parts.labels if description.parts is not None else None
    if labels is None:
        from analyzer.errors import CardlabError

        raise CardlabError(f"the analysis is not available for {description.name} "
                           f"({description.title})")
    return labels


def _lower_is_better(description) -> bool:
    """Whether the game's analysed value (its labels' column) is better low."""
    return description.measure(_thresholds(description).column).better == "lower"


# {game: its labels}, from each game's adapter (GameParts.labels): Who's the Ass?: minus
# points at the end of the game; Plus-Minus Jass: sticks from the deal
THRESHOLDS = ByGame(_thresholds)
LOWER_IS_BETTER = ByGame(_lower_is_better)
# The result columns of the values shown beside the main one (the main one's column is in
# THRESHOLDS); a column's range in the game's description bounds every interval of it.
EXTRA_COLUMN = {"points": "points"}
RATES = ("win",)  # chances: their range is [0, 1]
# Fewer worlds than this give no interval: a t interval over a handful of worlds is too
# rough to read, and a few worlds that happen to agree give a zero-width one.
MIN_INTERVAL_WORLDS = 30
TOO_FEW = (f"too few worlds for an interval (fewer than {MIN_INTERVAL_WORLDS}): values without "
           "intervals, and no labels")


def column_range(game: str, column: str) -> tuple[float | None, float | None]:
    """(low, high) of a result column as the game's description declares it (None: no
    bound)."""
    from analyzer.games import registry

    for mode in registry.get(game).modes:
        for c in mode.columns:
            if c.name == column and (c.low is not None or c.high is not None):
                return c.low, c.high
    return None, None


def value_ranges(game: str, extra: dict | None = None) -> dict[str, tuple]:
    """The ranges of a game's analysis value ("") and of the ``extra`` values beside it."""
    out = {"": column_range(game, THRESHOLDS[game].column)}
    for key in extra or {}:
        out[key] = (0.0, 1.0) if key in RATES else (
            column_range(game, EXTRA_COLUMN[key]) if key in EXTRA_COLUMN else (None, None))
    return out


def _clip(low: float, high: float, bounds: tuple) -> tuple[float, float]:
    lo, hi = bounds
    if lo is not None and not math.isnan(low):
        low, high = max(low, lo), max(high, lo)
    if hi is not None and not math.isnan(high):
        low, high = min(low, hi), min(high, hi)
    return low, high


def _diff_bounds(bounds: tuple) -> tuple:
    """A difference of two values in ``bounds`` lies within +-(high - low)."""
    lo, hi = bounds
    if lo is None or hi is None:
        return None, None
    return lo - hi, hi - lo


def label(game: str, loss: float, loss_low: float) -> str | None:
    """The label of a move with this loss and the lower end of its paired interval: None
    unless the loss is clear (``loss_low > 0``) and at least an inaccuracy's."""
    if not loss_low > 0:
        return None
    t = THRESHOLDS[game]
    if loss >= t.blunder:
        return "blunder"
    if loss >= t.mistake:
        return "mistake"
    if loss >= t.inaccuracy:
        return "inaccuracy"
    return None


def _clean(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def effective_worlds(w: np.ndarray) -> float:
    """Kish's effective sample size of weights ``w``: (sum w)^2 / sum w^2."""
    return float(w.sum() ** 2 / (w @ w)) if w.size and w.sum() > 0 else 0.0


def world_means(x: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Each column's mean over the worlds (rows) of ``x``, weighted by ``w`` (None, or
    weights that are all alike: the plain mean)."""
    if w is None or len(w) == 0 or np.all(w == w[0]):
        return x.mean(axis=0)
    w = np.asarray(w, dtype=np.float64)
    return (w @ x) / w.sum()


def _interval(x: np.ndarray, w: np.ndarray | None = None) -> tuple[float, float, float]:
    """Mean and 95% t interval (weighted by ``w`` when given: the weighted mean, the weighted
    variance and t on the effective number of worlds); a column without spread has the mean
    as both ends."""
    if x.size >= 2 and float(np.ptp(x)) == 0.0:
        m = float(x[0])
        return m, m, m
    if w is None:
        est = mean_interval(x)
        return est.value, est.low, est.high
    total = float(w.sum())
    mean = float(w @ x) / total
    n = effective_worlds(w)
    if n < 2:
        return mean, math.nan, math.nan
    var = float(w @ (x - mean) ** 2) / total * n / (n - 1)
    half = t_quantile(0.95, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def move_rows(game: str, outcomes: np.ndarray, names: list[str], pimc: int | None = None,
              extra: dict[str, np.ndarray] | None = None,
              ranges: dict[str, tuple] | None = None,
              weights: np.ndarray | None = None) -> list[dict]:
    """The rows of every move, best first (ties keep the given order).

    ``outcomes[w, i]``: the value of move ``names[i]`` in world w (the game's unit);
    ``pimc`` a column to mark ``"pimc": true`` (None: no ``pimc`` key); ``extra`` more
    per-world matrices of the same shape, shown as ``key``, ``key_low``, ``key_high``, and
    their paired difference to the best move (by the main value) as ``key_diff``,
    ``key_diff_low``, ``key_diff_high``. ``weights`` (one per world, >= 0; None: alike): the
    worlds' weights in the search (pimc's ``eps``): weighted means, and t intervals on the
    effective number of worlds (Kish: (sum w)^2 / sum w^2); worlds that all weigh alike give
    exactly the unweighted numbers.

    Every interval stays inside the range of its value (``ranges``, by key, "" for the main
    value; default: :func:`value_ranges`, from the game's description); with fewer than
    MIN_INTERVAL_WORLDS worlds there are no intervals (None ends).
    """
    x = np.asarray(outcomes, dtype=np.float64)
    wt = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        if w.size and not np.all(w == w[0]):
            keep = w > 0
            x, wt = x[keep], w[keep]
            extra = {k: np.asarray(v)[keep] for k, v in (extra or {}).items()} or None
    ranges = value_ranges(game, extra) if ranges is None else ranges
    few = (x.shape[0] if wt is None else effective_worlds(wt)) < MIN_INTERVAL_WORLDS
    means = world_means(x, wt)
    sign = 1.0 if LOWER_IS_BETTER[game] else -1.0
    order = sorted(range(len(names)), key=lambda i: (sign * means[i], i))
    best = order[0]
    pairs = max(1, len(names) * (len(names) - 1) // 2)  # the family the best was picked from

    def single(column: np.ndarray, key: str) -> tuple[float, float, float]:
        mean, low, high = _interval(column, wt)
        if few:
            return mean, math.nan, math.nan
        low, high = _clip(low, high, ranges.get(key, (None, None)))
        return mean, low, high

    def paired(d: np.ndarray, key: str) -> tuple[float, float, float]:
        mean, low, high = _interval(d, wt)
        if few:
            return mean, math.nan, math.nan
        if math.isnan(low) or low == high:
            return mean, low, high
        low, high = selected_interval(mean, low, high, pairs)
        low, high = _clip(low, high, _diff_bounds(ranges.get(key, (None, None))))
        return mean, low, high

    best_ends = math.nan if few else 0.0
    rows = []
    for i in order:
        value, low, high = single(x[:, i], "")
        diff, dlow, dhigh = (0.0, best_ends, best_ends) if i == best else \
            paired(x[:, i] - x[:, best], "")
        row = {"move": names[i], "value": value, "low": _clean(low), "high": _clean(high),
               "diff": diff, "diff_low": _clean(dlow), "diff_high": _clean(dhigh),
               "best": i == best}
        if pimc is not None:
            row["pimc"] = i == pimc
        for key, matrix in (extra or {}).items():
            y = np.asarray(matrix, dtype=np.float64)
            v, lo, hi = single(y[:, i], key)
            d, dlo, dhi = (0.0, best_ends, best_ends) if i == best else \
                paired(y[:, i] - y[:, best], key)
            row.update({key: v, f"{key}_low": _clean(lo), f"{key}_high": _clean(hi),
                        f"{key}_diff": d, f"{key}_diff_low": _clean(dlo),
                        f"{key}_diff_high": _clean(dhi)})
        rows.append(row)
    return rows


def loss_of(game: str, row: dict) -> tuple[float, float | None, float | None]:
    """(loss, loss_low, loss_high) of a row: its difference to the best, oriented so that a
    worse move has a positive loss."""
    if LOWER_IS_BETTER[game]:
        return row["diff"], row["diff_low"], row["diff_high"]
    low, high = row["diff_low"], row["diff_high"]
    return (0.0 - row["diff"], None if high is None else 0.0 - high,
            None if low is None else 0.0 - low)
