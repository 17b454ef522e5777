"""Plus-Minus Jass strategies: basic exactly as specified, random uniform, the heuristic's
knobs (aim, fight, trump rule, record tracking) and the catalogue."""

import numpy as np
import pytest

from analyzer.engines.jass import engine
from analyzer.engines.jass.kernel import play_chunk
from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError
from analyzer.games.jass.cards import cards_mask, parse_card
from analyzer.games.jass.primitives import S_FIXER, S_STICKS, S_TRUMP, legal_mask
from strategies.jass import policies
from strategies.jass.knobs import (
    AIM_HIGH,
    AIM_LOW,
    AIM_NA,
    FAM_HEURISTIC,
    P_AIM,
    P_GAP,
    P_STRENGTH,
    TRUMP_RULES,
)
from strategies.registry import catalog, parse_strategy


def cards(text):
    return [parse_card(c) for c in text.split()]


def position(trump, trick, n=4):
    work = engine.new_work()
    rng, deck, hands, played, taken, st = work[:6]
    engine.start_deal(rng, deck, hands, played, taken, st, np.zeros(4, np.int64), n, False,
                      n - 1, 0)
    st[S_TRUMP] = trump
    st[S_FIXER] = 0 if trump >= 0 else -1
    for k, c in enumerate(cards(trick)):
        hands[k] = np.uint64(1 << c)
        engine.play_card(k, c, hands, played, taken, st)
    return st


def basic(hand, trump=-1, trick=""):
    st = position(trump, trick)
    legal = legal_mask(np.uint64(cards_mask(cards(hand))), st)
    card = policies.basic_card(legal, st)
    return ("BSRA"[card // 9] + ["6", "7", "8", "9", "10", "U", "O", "K", "A"][card % 9])


def test_basic_plays_the_fewest_points_with_the_specified_tie_breaks():
    assert basic("BA SK R6") == "R6"
    assert basic("R6 S6 B6") == "B6"  # equal points and rank: suit order B < S < R < A
    assert basic("B8 B7 SU") == "B7"  # while no trump is fixed an 8 counts 0; lower rank
    assert basic("BU S9", trump=1) == "BU"  # the trump 9 counts 14
    assert basic("A6 B6", trump=3) == "B6"  # trump 6 and plain 6 tie: suit order
    assert basic("A7 B6", trump=3) == "B6"
    # a card that fixes trump counts as a trump: R9 would count 14, B6 counts 0
    assert basic("R9 B6", trick="A6") == "B6"
    assert basic("RU RA", trick="A6") == "RA"  # as trump the Under counts 20, the Ace 11
    # own order for trumps: trump 8 (str 2) before trump 7? both 0 points, 7 lower in trump order
    assert basic("S7 S8", trump=1, trick="S6") == "S7"
    assert basic("S10 SO", trump=1, trick="S6") == "SO"  # trump O counts 3, trump 10 counts 10


def test_random_is_uniform_over_the_legal_cards():
    st = position(-1, "")
    hand = np.uint64(cards_mask(cards("B6 S9 RA AU AK")))
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = 12345
    counts = {}
    for _ in range(5000):
        c = policies.choose_card(1, np.zeros(8), 0, hand, hand, st, np.zeros(4, np.uint64),
                                 np.zeros(4, np.uint64), rng, AIM_NA)
        counts[c] = counts.get(c, 0) + 1
    assert set(counts) == set(cards("B6 S9 RA AU AK"))
    chi2 = sum((v - 1000) ** 2 / 1000 for v in counts.values())
    assert chi2 < 18.47  # 99.9% quantile, 4 degrees of freedom


def test_trump_rules_and_their_tie_breaks():
    def pick(rule, hand, aim=AIM_NA):
        rng = np.zeros(1, dtype=np.uint64)
        return policies.pick_trump_suit(TRUMP_RULES.index(rule), np.uint64(cards_mask(
            cards(hand))), rng, aim)

    # bells: 4 cards, 14 points as trump (the 9); shields: 2 cards, 20 (the Under);
    # roses: 2 cards, 21; acorns: 1 card, 0
    hand = "B6 B7 B8 B9 SU S6 RA R10 A6"
    assert pick("longest", hand) == 0
    assert pick("under_nine", hand) == 1  # the Under counts more than the 9
    assert pick("most_points", hand) == 2
    assert pick("shortest", hand) == 3
    assert pick("fewest_points", hand) == 3
    assert pick("longest", "B6 B7 B8 SU S6 RA R10 R9 A6") == 2  # 3 and 3 cards: more points
    assert pick("fewest_points", "B6 B7 SA A6") == 3  # 0 points, 1 card beats 0 points, 2
    assert pick("longest", "B6 B7 SU S6") == 1  # same length: more trump points
    assert pick("longest", "B6 B7 S6 S7") == 0  # full tie: lowest suit
    assert pick("under_nine", "BU S9 SU") == 1  # Under and 9 beat the Under alone
    assert pick("by_aim", hand, AIM_HIGH) == pick("under_nine", hand)
    assert pick("by_aim", hand, AIM_LOW) == pick("fewest_points", hand)
    rng = np.zeros(1, dtype=np.uint64)
    seen = {policies.pick_trump_suit(TRUMP_RULES.index("random"), np.uint64(
        cards_mask(cards("B6 S6 A6"))), rng, AIM_NA) for _ in range(200)}
    assert seen == {0, 1, 3}


def test_aim_from_hand_and_from_standings():
    st = position(-1, "")
    prm = np.zeros(8)
    prm[P_AIM] = 2.0  # hand
    prm[P_STRENGTH] = 1.0
    strong = np.uint64(cards_mask(cards("BA B10 SA S10 RA RK AA A10 AK")))
    weak = np.uint64(cards_mask(cards("B6 B7 S6 S7 R6 R7 A6 A7 A8")))
    assert policies.begin_deal(FAM_HEURISTIC, prm, 0, strong, st) == AIM_HIGH
    assert policies.begin_deal(FAM_HEURISTIC, prm, 0, weak, st) == AIM_LOW
    prm[P_AIM] = 3.0  # standings
    prm[P_GAP] = 2.0
    st[S_STICKS:S_STICKS + 4] = [1, 4, 0, 2]
    assert policies.begin_deal(FAM_HEURISTIC, prm, 0, weak, st) == AIM_HIGH  # 3 behind
    assert policies.begin_deal(FAM_HEURISTIC, prm, 3, weak, st) == AIM_HIGH  # 2 behind
    assert policies.begin_deal(FAM_HEURISTIC, prm, 1, weak, st) == AIM_LOW  # the leader
    assert policies.begin_deal(0, prm, 1, weak, st) == AIM_NA


def _mean_points(field, seat, n=4, deals=3000, ruleset="seed"):
    out = play_chunk(RunSpec("jass", n, tuple(field), seed=17, mode="deals",
                             rules={"ruleset": ruleset}), 0, deals)
    return out["points"].reshape(-1, n)[:, seat].mean(), out


def test_aim_high_takes_more_points_than_aim_low():
    high, _ = _mean_points(["aim-high", "basic", "basic", "basic"], 0)
    low, _ = _mean_points(["aim-low", "basic", "basic", "basic"], 0)
    assert high > low + 10


def test_fight_and_track_change_play():
    tricks = []
    for fight in (0, 0.5, 1):
        _, out = _mean_points([f"heuristic:aim=high,fight={fight}", "basic", "basic", "basic"],
                              0)
        tricks.append(out["tricks"].reshape(-1, 4)[:, 0].mean())
    assert tricks[0] < tricks[1] < tricks[2]  # fighting harder takes more tricks
    off, c = _mean_points(["aim-high:track=off", "random", "random", "random"], 0)
    on, d = _mean_points(["aim-high", "random", "random", "random"], 0)
    assert not np.array_equal(c["points"], d["points"])


def test_catalogue_presets():
    book = catalog("jass")
    for name in ("basic", "random", "heuristic", "aim-high", "aim-low", "adaptive", "catch-up"):
        assert name in book
    s = parse_strategy("jass", "aim-low:trump=shortest")
    assert s.describe_params()["aim"] == "low" and s.describe_params()["trump"] == "shortest"
    assert s.label() == "aim-low:trump=shortest"
    with pytest.raises(CardlabError):
        parse_strategy("jass", "heuristic:fight=2")
    with pytest.raises(CardlabError):
        parse_strategy("jass", "heuristic:trump=tallest")


@pytest.mark.parametrize("name", sorted(catalog("jass")))
def test_every_strategy_plays_only_legal_cards(name):
    # the engine refuses an illegal card (play_chunk raises); both rule sets, 3 and 4 players
    if name in ("pimc", "peek"):
        name += ":worlds=3"
    for n in (3, 4):
        for ruleset in ("seed", "swiss"):
            out = play_chunk(RunSpec("jass", n, (name,), seed=5, mode="deals",
                                     rules={"ruleset": ruleset}), 0, 300)
            assert (out["points"].reshape(-1, n).sum(1) == 157).all()


def test_basic_by_rank_lookup_equals_the_reference_key_on_random_sets():
    """basic_card finds its card with two table lookups (cards.BASIC_LOW_RANK) instead of a
    key per legal card: on random card sets, in every context of trump_like (a lead before
    trump, a follower who may fix trump, trump fixed), it plays the card of the readable
    reference's ``_basic`` (min of points, own rank, suit)."""
    from analyzer.engines.jass.reference import ReferenceJass, _Deal

    rng = np.random.default_rng(13)
    for _ in range(3000):
        trump = int(rng.integers(-1, 4))
        lead = int(rng.integers(0, 36)) if rng.random() < 0.7 else -1
        st = position(trump, "" if lead < 0 else "BSRA"[lead // 9]
                      + ["6", "7", "8", "9", "10", "U", "O", "K", "A"][lead % 9])
        legal = [c for c in range(36) if c != lead and rng.random() < 0.25] or [
            (lead + 1) % 36]
        deal = _Deal(4, 3, [[] for _ in range(4)])
        deal.trump = trump
        deal.trick = [] if lead < 0 else [lead]
        mask = np.uint64(cards_mask(legal))
        assert policies.basic_card(mask, st) == ReferenceJass._basic(deal, legal)
