"""Plackett–Luce strengths from the finishing order of every table, with a bootstrap over units.

The Plackett–Luce model says that a table's finishing order is drawn place by place: the first
place goes to seat i with probability ``g_i / sum of g over the table``, the second to one of
the rest in the same way, and so on; ``log g`` is a strategy's *strength* (centred to mean 0
over the strategies rated). Unlike the additive score model of the ladder it uses only the
order at each table, not the size of the margins.

Each table's order becomes its successive choices (top-1 events): a seat "wins" against every
seat that did not finish better than it. Tied seats (equal results) share their places: each
of them is taken as chosen from the tied seats and every seat behind them (Breslow's handling
of ties), and the last group makes no choice; in a Plus-Minus Jass match ranked by ``won``,
that is one event per table, the winner against all. A strategy that sits at a table twice
counts twice in the choice set.

The fit is the maximum-likelihood estimate by Hunter's MM algorithm (2004) over *aggregated*
events (identical events counted once, with their number), so the whole bootstrap (units, i.e.
deals or seatings, drawn with replacement, all draws fitted at once) costs about as much as one
fit. choix's ``ilsr_top1`` maximises the same likelihood event by event; the tests check that
both agree.
A small symmetric prior (``alpha`` virtual wins of every strategy over every other, default
0.5) keeps a strategy that never places first finite.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError

ALPHA = 0.5
MAX_ITER = 2000
TOL = 1e-9


@dataclass(frozen=True)
class ChoiceEvents:
    """Distinct top-1 events: ``sets`` (events x strategies, seats of each strategy in the
    choice set), ``winners`` (the strategy chosen), ``counts`` (deals x events)."""

    names: list[str]
    sets: np.ndarray
    winners: np.ndarray
    counts: np.ndarray


def choice_events(games: pd.DataFrame, metric: str, lower: bool, unit: str = "index"
                  ) -> ChoiceEvents:
    """The top-1 events of every table (``index``, ``arrangement``) of a ladder's games,
    counted per independent unit (column ``unit``: the deal, or the ladder's seating)."""
    names = sorted(games["strategy"].unique())
    k = len(names)
    g = games.sort_values(["index", "arrangement", "seat"])
    sizes = g.groupby(["index", "arrangement"], sort=False).size()
    n = int(sizes.iloc[0])
    if (sizes != n).any():
        raise CardlabError("every table of the ladder needs the same number of seats")
    code = {s: i for i, s in enumerate(names)}
    strat = g["strategy"].map(code).to_numpy(np.int64).reshape(-1, n)
    worse = g[metric].to_numpy(np.float64).reshape(-1, n)
    if not lower:
        worse = -worse  # larger = worse finish
    deal = g[unit].to_numpy().reshape(-1, n)[:, 0]
    deals, deal_idx = np.unique(deal, return_inverse=True)
    onehot = np.eye(k, dtype=np.int64)[strat]  # tables x seats x strategies
    rows, wins, units = [], [], []
    for s in range(n):
        risk = worse >= worse[:, s:s + 1]  # seats not better than seat s
        has_event = (worse > worse[:, s:s + 1]).any(axis=1)
        sets = np.einsum("tn,tnk->tk", risk.astype(np.int64), onehot)
        rows.append(sets[has_event])
        wins.append(strat[has_event, s])
        units.append(deal_idx[has_event])
    allsets = np.concatenate(rows)
    allwins = np.concatenate(wins)
    key = np.column_stack([allwins, allsets])
    distinct, event = np.unique(key, axis=0, return_inverse=True)
    event = event.ravel()
    e = len(distinct)
    counts = np.bincount(np.concatenate(units) * e + event,
                         minlength=len(deals) * e).reshape(len(deals), e).astype(np.float64)
    return ChoiceEvents(names, distinct[:, 1:].astype(np.float64), distinct[:, 0], counts)


def fit(sets: np.ndarray, winners: np.ndarray, weights: np.ndarray, alpha: float = ALPHA
        ) -> np.ndarray:
    """Log-strengths (centred) maximising the Plackett–Luce likelihood of the events, for each
    row of ``weights`` (draws x events) at once: returns draws x strategies."""
    weights = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    k = sets.shape[1]
    if alpha > 0:  # alpha virtual wins of every strategy over every other
        i, j = np.nonzero(~np.eye(k, dtype=bool))
        prior = np.zeros((len(i), k))
        prior[np.arange(len(i)), i] = 1.0
        prior[np.arange(len(i)), j] = 1.0
        sets = np.vstack([sets, prior])
        winners = np.concatenate([winners, i])
        weights = np.hstack([weights, np.full((len(weights), len(i)), alpha)])
    won = weights @ np.eye(k)[winners]  # draws x strategies
    gamma = np.ones((len(weights), k))
    for _ in range(MAX_ITER):
        denom = gamma @ sets.T
        expo = (weights / denom) @ sets
        new = np.where(won > 0, won / np.where(expo > 0, expo, 1.0), 0.0)
        new /= np.exp(np.log(np.where(new > 0, new, 1.0)).mean(axis=1, keepdims=True))
        done = np.abs(np.log(np.where(new > 0, new, 1.0)) -
                      np.log(np.where(gamma > 0, gamma, 1.0))).max() < TOL
        gamma = new
        if done:
            break
    with np.errstate(divide="ignore"):
        theta = np.log(gamma)
    return theta - theta.mean(axis=1, keepdims=True)


def plackett_luce(games: pd.DataFrame, metric: str, lower: bool, level: float = 0.95,
                  draws: int = 400, seed: int = 0, alpha: float = ALPHA, unit: str = "index"
                  ) -> pd.DataFrame:
    """Per strategy: log-strength with its bootstrap interval over the units (column
    ``unit``: deals, or the ladder's seatings), its rank (1 = strongest) and the rank's
    bootstrap interval."""
    ev = choice_events(games, metric, lower, unit)
    point = fit(ev.sets, ev.winners, ev.counts.sum(axis=0), alpha)[0]
    rng = np.random.default_rng([seed, 0x9E1])
    d = len(ev.counts)
    boot = rng.multinomial(d, np.full(d, 1.0 / d), size=draws).astype(np.float64)
    thetas = fit(ev.sets, ev.winners, boot @ ev.counts, alpha)
    tail = (1.0 - level) / 2.0
    ranks = (-thetas).argsort(axis=1).argsort(axis=1) + 1
    order = (-point).argsort().argsort() + 1
    return pd.DataFrame({
        "strategy": ev.names, "pl": point,
        "pl_low": np.quantile(thetas, tail, axis=0),
        "pl_high": np.quantile(thetas, 1.0 - tail, axis=0),
        "pl_rank": order,
        "pl_rank_low": np.floor(np.quantile(ranks, tail, axis=0)).astype(int),
        "pl_rank_high": np.ceil(np.quantile(ranks, 1.0 - tail, axis=0)).astype(int),
    })
