"""The value of the trump choice, measured counterfactually.

In Plus-Minus Jass the first player who cannot follow suit fixes trump by the card it plays
(J-5). At that moment, in every deal of the chosen units (``spec.mode``: whole matches or single
deals), the engine also plays the rest of the deal once for every suit that player could have
played, i.e. every suit it holds (it holds none of the led suit), with the same strategies and
the same random stream otherwise. The chooser plays, in the suit it is forced to, the card its
own strategy picks within that suit (``policies.forced_trump_card``; it takes the same number of
draws as the free decision, so the stream stays aligned). The row of the suit actually fixed is
the real continuation of the game.

:func:`counterfactual_table` returns ONE ROW PER (index, deal, candidate suit):

``index``       unit number in the run
``deal``        deal number within the match (1-based), 0 in ``deals`` mode
``chooser``     the chooser's seat relative to the deal's dealer (J-3: 0 plays first)
``seat``        the chooser's seat in the unit (fixed match seat; equals ``chooser`` in deals)
``suit``        candidate suit 0..3 = bells, shields, roses, acorns
``chosen``      whether this is the suit actually fixed
``points``      the chooser's card points in the deal under this choice (J-8)
``sticks``      the chooser's sticks in the deal under this choice: in ``deals`` mode J-9 for that
                deal alone (no remembered ties); in a match J-9 with the match's pending ties
                (bonus sticks included)
``aim``         "high"/"low": what the chooser aimed for in that deal, "n/a" for strategies
                without the notion (basic, random)
``length``, ``suit_points``, ``has_under``, ``has_nine``
                the candidate suit in the chooser's hand at the moment of choice: number of
                cards, their points as trump, whether it holds that suit's Under / 9
``pick_<rule>`` for each trump-choice rule of the heuristic family (longest, under_nine,
                most_points, shortest, fewest_points, random): whether that rule picks this
                suit. Tie-breaks are those of ``strategies.jass.policies.pick_trump_suit``
                (longest: then most trump points; under_nine: Under counts 2, the 9 counts 1,
                then longest, then most points; most_points: then longest; shortest: then
                fewest points; fewest_points: then shortest; any remaining tie: lowest suit
                B < S < R < A). ``random`` draws from the unit's independent stream
                ``stream_start(seed, index, 1)``, one draw per decision in deal order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.engines.jass import engine
from analyzer.engines.jass.kernel import checked, engine_inputs, validate
from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError
from analyzer.games.jass.cards import NINE_BIT, PTS9_TRUMP, SUIT_MASK, UNDER_BIT
from analyzer.rng import PyRng
from strategies.jass.knobs import AIM_LABELS, AIM_NA, TABLE_TRUMP_RULES, TRUMP_RULES
from strategies.jass.policies import pick_trump_suit

COLUMNS = (
    "index", "deal", "chooser", "seat", "suit", "chosen", "points", "sticks", "aim", "length",
    "suit_points", "has_under", "has_nine",
) + tuple(f"pick_{r}" for r in TABLE_TRUMP_RULES)


def counterfactual_table(spec: RunSpec, start: int, count: int) -> pd.DataFrame:
    """The trump counterfactual of units start..start+count-1 of ``spec`` (see module doc)."""
    spec, strategies = checked(spec)  # parsed once
    if start < 0 or count < 0:
        raise CardlabError(f"start and count must be >= 0; got {start}, {count}")
    fams, prms = engine_inputs(spec, strategies)
    n = spec.players
    deals_mode = spec.mode == "deals"
    cap = spec.rules["deal_cap"]
    swiss = spec.rules["ruleset"] == "swiss"
    work = engine.new_work()
    alt = engine.new_alt()
    cf_out = np.zeros(((1 if deals_mode else cap) * 4, engine.CF_WIDTH), dtype=np.int64)
    rows: list[np.ndarray] = []
    index_col: list[np.ndarray] = []
    pick_random: list[np.ndarray] = []
    for index in range(start, start + count):
        status, nrows = engine.counterfactual_unit(
            spec.seed, index, n, swiss, cap, fams, prms, deals_mode, work, alt, cf_out
        )
        if status != engine.DONE:
            seat = int(status) - engine.ILLEGAL
            raise RuntimeError(f"strategy {spec.strategies[seat]!r} at seat {seat} moved "
                               f"illegally in jass seed={spec.seed} index={index}")
        if nrows == 0:
            continue
        block = cf_out[:nrows].copy()
        rows.append(block)
        index_col.append(np.full(nrows, index, dtype=np.int64))
        pick_random.append(_random_picks(spec.seed, index, block))
    if not rows:
        return pd.DataFrame({c: pd.Series(dtype=_dtype(c)) for c in COLUMNS})
    cf = np.concatenate(rows)
    return _frame(cf, np.concatenate(index_col), np.concatenate(pick_random), n)


def warm_trump() -> None:
    """Compile the trump counterfactual (the full dispatcher, search included): the
    ``jass-trump`` part that ``study all`` warms (the game's adapter)."""
    spec = validate(RunSpec("jass", 4, ("adaptive",) * 4, seed=0, mode="deals"))
    counterfactual_table(spec, 0, 2)


def _dtype(column: str) -> str:
    if column == "aim":
        return "object"
    if column.startswith(("pick_", "has_")) or column == "chosen":
        return "bool"
    return "int64"


def _random_picks(seed: int, index: int, block: np.ndarray) -> np.ndarray:
    """pick_random for one unit's rows: one draw per decision from stream (seed, index, 1)."""
    rng = PyRng(seed, index, 1)
    out = np.zeros(len(block), dtype=bool)
    state = rng.as_array()
    k = 0
    while k < len(block):
        end = k
        while end < len(block) and block[end, engine.CF_DEAL] == block[k, engine.CF_DEAL]:
            end += 1
        hand = np.uint64(block[k, engine.CF_HAND])
        suit = pick_trump_suit(TRUMP_RULES.index("random"), hand, state, AIM_NA)
        out[k:end] = block[k:end, engine.CF_SUIT] == suit
        k = end
    return out


def _frame(cf: np.ndarray, index: np.ndarray, pick_random: np.ndarray, n: int) -> pd.DataFrame:
    hands = cf[:, engine.CF_HAND].astype(np.uint64)
    suits = cf[:, engine.CF_SUIT]
    in_suit = (hands & SUIT_MASK[suits]) >> (suits * 9).astype(np.uint64)
    length = np.array([bin(int(m)).count("1") for m in in_suit], dtype=np.int64)
    seat = cf[:, engine.CF_CHOOSER]
    table = {
        "index": index,
        "deal": cf[:, engine.CF_DEAL],
        "chooser": (seat - cf[:, engine.CF_DEALER] - 1) % n,
        "seat": seat,
        "suit": suits,
        "chosen": cf[:, engine.CF_CHOSEN] == 1,
        "points": cf[:, engine.CF_POINTS],
        "sticks": cf[:, engine.CF_STICKS],
        "aim": [AIM_LABELS[int(a)] for a in cf[:, engine.CF_AIM]],
        "length": length,
        "suit_points": PTS9_TRUMP[in_suit.astype(np.int64)],
        "has_under": (hands & UNDER_BIT[suits]) != 0,
        "has_nine": (hands & NINE_BIT[suits]) != 0,
    }
    dummy = np.zeros(1, dtype=np.uint64)
    for rule in TABLE_TRUMP_RULES:
        if rule == "random":
            table["pick_random"] = pick_random
            continue
        code = TRUMP_RULES.index(rule)
        picks = {}
        for h in np.unique(hands):
            picks[int(h)] = pick_trump_suit(code, np.uint64(h), dummy, AIM_NA)
        table[f"pick_{rule}"] = np.array(
            [picks[int(h)] == s for h, s in zip(hands, suits, strict=True)], dtype=bool
        )
    return pd.DataFrame(table, columns=list(COLUMNS))
