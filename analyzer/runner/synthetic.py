"""A synthetic backend whose answers are known, for testing studies and reports quickly.

It fakes Who's the Ass? result rows with the kernel's column names but none of its rules:
a game's minus points are ``base + seat effect + strategy effect + deal luck + noise``, where
the deal luck depends on (seed, index, seat) alone, so that arrangements of strategies on the
same deal share it exactly as real common random numbers do. The ass is placed at a uniform
position among the first 39 cards and dealt one card per seat in turn, so the chance to be
dealt it is the exact value of rulings A-2/A-3. Tests compare study output with these
parameters.
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd

from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, vectorised (uint64 in, uint64 out)."""
    z = z.astype(np.uint64)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def _hashed(*keys: np.ndarray, z: np.ndarray | int = 0) -> np.ndarray:
    """The hash state after ``keys``, continuing from ``z`` (a state of earlier keys)."""
    shape = np.broadcast(np.asarray(z), *keys).shape
    z = np.broadcast_to(np.asarray(z, dtype=np.uint64), shape)
    with np.errstate(over="ignore"):  # uint64 arithmetic wraps modulo 2**64 by design
        for k in keys:
            z = _mix(z + _GOLDEN + np.asarray(k).astype(np.uint64))
    return z


def _unit(z: np.ndarray) -> np.ndarray:
    """A hash state as a uniform number in [0, 1)."""
    return (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def _uniform(*keys: np.ndarray, z: np.ndarray | int = 0) -> np.ndarray:
    """A uniform number in [0, 1) per element, a function of the keys alone (after the keys
    already in ``z``: ``_uniform(a, b) == _uniform(b, z=_hashed(a))``)."""
    return _unit(_hashed(*keys, z=z))


def _normal(*keys: np.ndarray, z: np.ndarray | int = 0) -> np.ndarray:
    # Box-Muller from two hashed uniforms
    z = _hashed(*keys, z=z)
    u1 = np.maximum(_uniform(1, z=z), 1e-300)
    u2 = _uniform(2, z=z)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


def strategy_key(label: str) -> int:
    """A stable integer per strategy label (noise differs between strategies)."""
    return zlib.crc32(label.encode())


class SyntheticAssBackend:
    """Ass-like rows: minus points with known seat and strategy effects."""

    game = "ass"  # the one game it stands in for, as a kernel plays one game

    def __init__(
        self,
        effects: dict[str, float] | None = None,
        seat_slope: float = 1.0,
        luck_sd: float = 6.0,
        noise_sd: float = 3.0,
        end_ass: float = 0.2,
    ):
        self.effects = dict(effects or {})
        self.seat_slope = seat_slope
        self.luck_sd = luck_sd
        self.noise_sd = noise_sd
        self.end_ass = end_ass
        self.calls = 0

    def effect(self, label: str) -> float:
        """The strategy's known effect on minus points (0 when not listed)."""
        return self.effects.get(label, 0.0)

    def validate(self, spec: RunSpec) -> RunSpec:
        """Check players and strategies the way a kernel would."""
        if spec.game != self.game or not 3 <= spec.players <= 12:
            raise CardlabError(f"synthetic ass needs game 'ass' and 3..12 players, got {spec}")
        if len(spec.strategies) != spec.players:
            raise CardlabError("one strategy per seat")
        return spec

    def canonical(self, game: str, text: str) -> str:
        """Labels are taken as given."""
        return text

    def collect(self, spec: RunSpec, count: int, start: int = 0) -> pd.DataFrame:
        """Rows for games start..start+count-1 (depend on (seed, index) alone); in mode
        ``matches`` rows per (match, player) as the kernel's (see :meth:`matches`)."""
        if spec.mode == "matches":
            return self.matches(spec, count, start)
        self.calls += 1
        n = spec.players
        index = np.repeat(np.arange(start, start + count, dtype=np.int64), n)
        seat = np.tile(np.arange(n, dtype=np.int16), count)
        seed = np.uint64(spec.seed)
        eff = np.array([self.effect(s) for s in spec.strategies])[seat]
        skey = np.array([strategy_key(s) for s in spec.strategies], dtype=np.uint64)[seat]
        deal = _hashed(seed, index)  # the keys the draws below share, hashed once
        at_seat = _hashed(seat, z=deal)
        with_strategy = _hashed(skey, z=at_seat)
        luck = _normal(z=at_seat) * self.luck_sd
        noise = _normal(z=with_strategy) * self.noise_sd
        minus = 40.0 + self.seat_slope * seat + eff + luck + noise
        pos = np.floor(_uniform(99, z=deal) * 39).astype(np.int64)
        dealt = (pos % n) == seat
        ended = _uniform(7, z=with_strategy) < self.end_ass
        return pd.DataFrame({
            "index": index, "seat": seat, "minus_points": minus,
            "ended_with_ass": ended, "dealt_ass": dealt,
        })


    def matches(self, spec: RunSpec, count: int, start: int = 0) -> pd.DataFrame:
        """Match rows (A-12): K synthetic games per match (K = rules games_per_match, default
        the players), the first dealer player (index mod n), player p in seat
        (p - dealer - 1) mod n; totals by player, the fewest wins, ties shared."""
        from analyzer.games.ass.cards import WIN_SHARE_UNIT

        self.calls += 1
        n = spec.players
        k = int(spec.rules.get("games_per_match", n))
        index = np.arange(start, start + count, dtype=np.int64)
        first = index % n
        seed = np.uint64(spec.seed)
        totals = np.zeros((count, n))
        for p, label in enumerate(spec.strategies):
            skey = np.uint64(strategy_key(label))
            for g in range(k):
                seat = (p - (first + g) - 1) % n
                game = index * 1000 + g  # a game's luck is shared by every arrangement
                totals[:, p] += (40.0 + self.seat_slope * seat + self.effect(label)
                                 + _normal(seed, game, seat) * self.luck_sd
                                 + _normal(seed, game, seat, skey) * self.noise_sd)
        won = totals == totals.min(axis=1, keepdims=True)
        winners = won.sum(axis=1, keepdims=True)
        share = np.where(won, WIN_SHARE_UNIT // winners, 0)
        return pd.DataFrame({
            "index": np.repeat(index, n), "seat": np.tile(np.arange(n, dtype=np.int16), count),
            "total": totals.ravel(), "won": won.ravel(), "tied": (won & (winners > 1)).ravel(),
            "win_share": share.ravel().astype(np.int32),
            "winners": np.repeat(winners.ravel(), n), "first_dealer": np.repeat(first, n),
        })


class SyntheticTrumpBackend:
    """Trump counterfactual rows where the answer is known by construction.

    Each decision has 2..4 candidate suits of random length. A suit's points are
    ``40 + 6 x length + noise``; a chooser aiming high gets a stick exactly when its suit gives
    the most points, aiming low when it gives the fewest. So the rule "longest" should be best
    for high aims and "shortest" for low aims. The players' own choice (``chosen``) is the
    best rule of their aim, except for a table of ``hindsight`` players, who fix the best
    suit in hindsight, and of ``random`` players, who fix the random rule's suit.
    """

    game = "jass"  # the one game it stands in for, as a kernel plays one game

    def validate(self, spec: RunSpec) -> RunSpec:
        """Accept jass deals runs."""
        if spec.game != self.game:
            raise CardlabError("synthetic trump needs game 'jass'")
        return spec

    def canonical(self, game: str, text: str) -> str:
        """Labels are taken as given."""
        return text

    def table(self, name: str, spec: RunSpec, start: int, count: int) -> pd.DataFrame:
        """Table ``trump``: rows per (decision, candidate suit); depend on (seed, index)
        alone."""
        if name != "trump":
            raise CardlabError(f"synthetic trump has table 'trump' only, not {name!r}")
        seed = np.uint64(spec.seed)
        # every draw of every decision at once (a pair is a decision and one of its suits)
        index = np.arange(start, start + count, dtype=np.int64)
        ks = 2 + (_uniform(seed, index, 1) * 3).astype(np.int64)
        aims = np.where(_uniform(seed, index, 2) < 0.5, "high", "low")
        randoms = (_uniform(seed, index, 8) * ks).astype(np.int64)
        firsts = np.cumsum(ks) - ks  # where each decision's pairs begin
        pair_index = np.repeat(index, ks)
        pair_suit = np.arange(ks.sum()) - np.repeat(firsts, ks)
        lengths = 1 + np.floor(_uniform(seed, pair_index, pair_suit, 3) * 5).astype(int)
        all_points = 40 + 6 * lengths + _normal(seed, pair_index, pair_suit, 4) * 3
        unders = _uniform(seed, pair_index, pair_suit, 5) < 0.3
        nines = _uniform(seed, pair_index, pair_suit, 6) < 0.3
        all_spts = np.floor(_uniform(seed, pair_index, pair_suit, 7) * 40).astype(int)
        rows = []
        for i, index in enumerate(range(start, start + count)):
            k, aim = int(ks[i]), str(aims[i])
            part = slice(firsts[i], firsts[i] + k)
            suits = np.arange(k)
            length, points, spts = lengths[part], all_points[part], all_spts[part]
            under, nine = unders[part], nines[part]
            target = points.argmax() if aim == "high" else points.argmin()
            sticks = (suits == target).astype(int)
            un = np.flatnonzero(under & nine)
            picks = {
                "longest": int(length.argmax()), "shortest": int(length.argmin()),
                "most_points": int(spts.argmax()), "fewest_points": int(spts.argmin()),
                "under_nine": int(un[0]) if un.size else int(length.argmax()),
                "random": int(randoms[i]),
            }
            chosen = picks["longest"] if aim == "high" else picks["shortest"]
            if spec.strategies[0] == "hindsight":
                chosen = int(target)
            elif spec.strategies[0] == "random":
                chosen = picks["random"]
            for s in suits:
                rows.append({
                    "index": index, "deal": 0, "chooser": 0, "suit": int(s),
                    "chosen": bool(s == chosen), "points": float(points[s]),
                    "sticks": int(sticks[s]), "aim": aim, "length": int(length[s]),
                    "suit_points": int(spts[s]), "has_under": bool(under[s]),
                    "has_nine": bool(nine[s]),
                    **{f"pick_{r}": bool(s == v) for r, v in picks.items()},
                })
        return pd.DataFrame(rows)
