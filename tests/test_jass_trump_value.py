"""The trump counterfactual table: shape, the real game in the chosen row, and every other
row checked against the pure-Python reference forced to that suit."""

import numpy as np
import pytest

from analyzer.engines.jass.kernel import play_chunk
from analyzer.engines.jass.records import trace_record
from analyzer.engines.jass.reference import ReferenceJass, deal_sticks, suit
from analyzer.engines.jass.trump_value import COLUMNS, counterfactual_table
from analyzer.engines.kernel import RunSpec
from analyzer.games.jass.rules import make_rules
from analyzer.rng import PyRng
from strategies.jass.knobs import TABLE_TRUMP_RULES
from strategies.registry import seat_strategies


class ForcedReference(ReferenceJass):
    """The reference with the first trump-fixing card forced into ``suit``: the chooser plays
    what its strategy would play within that suit (basic: its rule; random: one draw)."""

    def __init__(self, rules, strategies, forced_suit):
        super().__init__(rules, strategies)
        self.forced_suit = forced_suit

    def _strategy_card(self, seat, d, legal, rng, aim, sticks, deal_no):
        led = suit(d.trick[0]) if d.trick else -1
        fixing = d.trump < 0 and d.trick and all(suit(c) != led for c in d.hands[seat])
        if not fixing:
            return super()._strategy_card(seat, d, legal, rng, aim, sticks, deal_no)
        cards = [c for c in legal if suit(c) == self.forced_suit]
        if self.strategies[seat].name == "basic":
            return self._basic(d, cards)
        return cards[rng.randbelow(len(cards))]


def test_table_shape_and_one_chosen_suit_per_decision():
    spec = RunSpec("jass", 4, ("adaptive", "basic", "aim-low", "random"), seed=4, mode="deals")
    df = counterfactual_table(spec, 0, 300)
    assert tuple(df.columns) == COLUMNS
    assert df["deal"].eq(0).all() and df["aim"].isin(["high", "low", "n/a"]).all()
    per = df.groupby("index")
    assert (per["chosen"].sum() == 1).all() and per.ngroups == 300  # 4 players: always a fix
    assert (df["length"] >= 1).all() and df.groupby("index")["suit"].nunique().ge(1).all()
    for rule in TABLE_TRUMP_RULES:
        assert (per[f"pick_{rule}"].sum() == 1).all(), rule
    longest = df[df["pick_longest"]].set_index("index")["length"]
    assert (longest == per["length"].max()).all()
    fewest = df[df["pick_fewest_points"]].set_index("index")["suit_points"]
    assert (fewest == per["suit_points"].min()).all()
    # aims: basic and random have none, the heuristic presets do
    assert set(df.loc[df["seat"] == 1, "aim"]) <= {"n/a"}
    assert set(df.loc[df["seat"] == 2, "aim"]) <= {"low"}


def test_chosen_row_is_the_real_game_and_candidates_are_the_held_suits():
    spec = RunSpec("jass", 3, ("aim-high", "random", "catch-up"), seed=6, mode="deals")
    df = counterfactual_table(spec, 0, 120)
    real = play_chunk(spec, 0, 120)
    for index, rows in df.groupby("index"):
        rec = trace_record(spec, index)
        deal = rec["deals"][0]
        fixer = deal["fixer"]
        chosen = rows[rows["chosen"]].iloc[0]
        assert chosen["chooser"] == fixer == chosen["seat"]
        assert "BSRA"[chosen["suit"]] == deal["trump"]
        assert chosen["points"] == deal["points"][fixer]
        assert chosen["sticks"] == real["sticks"][3 * index + fixer]
        # candidates: exactly the suits the chooser held at that moment, never the led suit
        for trick in deal["tricks"]:
            if deal["trump"] in {c[0] for c in trick["cards"]} and trick["cards"][0][0] != \
                    deal["trump"]:
                led = trick["cards"][0][0]
                break
        else:  # pragma: no cover - a deal with a fix always has such a trick
            pytest.fail("no fixing trick")
        assert "BSRA".index(led) not in set(rows["suit"])


@pytest.mark.parametrize("strategy", ["basic", "random"])
def test_every_counterfactual_row_matches_the_forced_reference(strategy):
    players = 4
    spec = RunSpec("jass", players, (strategy,), seed=31, mode="deals",
                   rules={"ruleset": "swiss"})
    df = counterfactual_table(spec, 0, 60)
    rules = make_rules(players, {"ruleset": "swiss"})
    field = seat_strategies("jass", [strategy], players)
    checked = 0
    for row in df[~df["chosen"]].itertuples():
        ref = ForcedReference(rules, field, row.suit)
        rec = ref.play_single_deal(31, row.index)
        deal = rec["deals"][0]
        assert deal["trump"] == "BSRA"[row.suit] and deal["fixer"] == row.seat
        assert deal["points"][row.seat] == row.points
        assert deal_sticks(deal["points"])[0][row.seat] == row.sticks
        checked += 1
    assert checked > 60


def test_matches_mode_rows_and_random_picks_from_stream_one():
    spec = RunSpec("jass", 4, ("basic", "adaptive") * 2, seed=2)
    df = counterfactual_table(spec, 3, 5)
    assert set(df["index"]) == {3, 4, 5, 6, 7} and (df["deal"] >= 1).all()
    for index, rows in df.groupby("index"):
        rec = trace_record(spec, index)
        assert rows["deal"].nunique() == len(rec["deals"])
        rng = PyRng(2, index, 1)
        for deal_no, dec in rows.groupby("deal", sort=True):
            deal = rec["deals"][deal_no - 1]
            chosen = dec[dec["chosen"]].iloc[0]
            assert chosen["seat"] == deal["fixer"]
            assert chosen["chooser"] == (deal["fixer"] - deal["dealer"] - 1) % 4
            assert chosen["sticks"] == deal["sticks"][deal["fixer"]]
            held = sorted(dec["suit"])
            assert dec.loc[dec["pick_random"], "suit"].item() == held[rng.randbelow(len(held))]


def test_table_depends_on_index_alone():
    spec = RunSpec("jass", 3, ("adaptive", "random", "basic"), seed=9)
    whole = counterfactual_table(spec, 0, 12)
    parts = [counterfactual_table(spec, 0, 5), counterfactual_table(spec, 5, 7)]
    joined = np.concatenate([p.to_numpy() for p in parts])
    assert (whole.to_numpy() == joined).all()


def test_backend_spreads_the_table_over_workers_with_the_same_rows():
    """The studies' backend computes the table in chunks on worker processes (runner
    unit_table): the same table, row for row and dtype for dtype, as one call here, a search
    chooser included."""
    import pandas as pd

    from analyzer.runner.play import KernelBackend

    for spec, count in ((RunSpec("jass", 4, ("adaptive", "random", "basic", "aim-low"),
                                 seed=9, mode="deals"), 40),
                        (RunSpec("jass", 3, ("pimc:worlds=2", "basic", "basic"), seed=4,
                                 mode="deals"), 6)):
        spread = KernelBackend(workers=2).table("trump", spec, 3, count)
        pd.testing.assert_frame_equal(spread, counterfactual_table(spec, 3, count),
                                      check_exact=True)
