"""Property tests (hypothesis) of Plus-Minus Jass: every deal totals 157 points, every card is
played exactly once, every move is legal, and the engine's legal-move masks equal the
reference's on arbitrary hand-and-trick positions."""

import numpy as np
from depth import cases  # tests/ is on sys.path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.engines.jass import engine
from analyzer.engines.jass.records import check_record, trace_record
from analyzer.engines.jass.reference import legal_cards
from analyzer.engines.kernel import RunSpec
from analyzer.games.jass.cards import cards_mask, mask_cards
from analyzer.games.jass.primitives import S_FIXER, S_TRUMP, legal_mask
from strategies.registry import catalog

# the search families with few worlds, so that a whole match stays quick
NAMES = sorted(name + (":worlds=2" if name in ("pimc", "peek") else "") for name in catalog("jass"))
SETTINGS = settings(max_examples=cases(25, 60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    seed=st.integers(0, 2**63 - 1),
    index=st.integers(0, 10**9),
    players=st.sampled_from([3, 4]),
    ruleset=st.sampled_from(["seed", "swiss"]),
    names=st.lists(st.sampled_from(NAMES), min_size=4, max_size=4),
    mode=st.sampled_from(["matches", "deals"]),
)
def test_every_deal_is_complete_legal_and_totals_157(seed, index, players, ruleset, names,
                                                      mode):
    spec = RunSpec("jass", players, tuple(names[:players]), seed=seed, mode=mode,
                   rules={"ruleset": ruleset, "deal_cap": 30})
    rec = trace_record(spec, index)
    for deal in rec["deals"]:
        dealt = [c for hand in deal["hands"] for c in hand]
        played = [c for trick in deal["tricks"] for c in trick["cards"]]
        assert sorted(dealt) == sorted(played) and len(set(played)) == 36
        assert all(len(h) == 36 // players for h in deal["hands"])
        assert sum(deal["points"]) == 157
        assert len(deal["tricks"]) == 36 // players
        for trick in deal["tricks"]:
            seats = [(trick["leader"] + k) % players for k in range(players)]
            for seat, card in zip(seats, trick["cards"], strict=True):
                assert card in deal["hands"][seat]
    assert check_record(rec) == []  # every move legal, points, sticks and winner right


@st.composite
def positions(draw):
    """A random mid-trick position: trump (or none), the trick so far, the hand to move."""
    perm = draw(st.permutations(list(range(36))))
    n = draw(st.sampled_from([3, 4]))
    pos = draw(st.integers(0, n - 1))
    trump = draw(st.integers(-1, 3))
    trick = perm[:pos]
    hand_size = draw(st.integers(1, 36 // n))
    hand = perm[pos: pos + hand_size]
    ruleset = draw(st.sampled_from(["seed", "swiss"]))
    return n, ruleset, trump, trick, hand


@settings(max_examples=cases(150, 400), deadline=None)
@given(positions())
def test_engine_legal_masks_equal_the_reference(position):
    n, ruleset, trump, trick, hand = position
    work = engine.new_work()
    rng, deck, hands, played, taken, state = work[:6]
    engine.start_deal(rng, deck, hands, played, taken, state, np.zeros(4, np.int64), n,
                      ruleset == "swiss", n - 1, 0)
    state[S_TRUMP] = trump
    state[S_FIXER] = 0 if trump >= 0 else -1
    for k, c in enumerate(trick):
        hands[k] = np.uint64(1 << c)
        engine.play_card(k, c, hands, played, taken, state)
    now_trump = int(state[S_TRUMP])
    legal = mask_cards(int(legal_mask(np.uint64(cards_mask(hand)), state)))
    assert legal == legal_cards(list(hand), list(trick), now_trump, ruleset)
    assert legal and set(legal) <= set(hand)
    if trick and now_trump < 0 and any(c // 9 == trick[0] // 9 for c in hand):
        assert all(c // 9 == trick[0] // 9 for c in legal)  # J-5: follow suit
