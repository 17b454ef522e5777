"""The Plus-Minus Jass search families (pimc, peek), the public inferences (S_BAN) their worlds
respect, the rollout entry point, and the heuristic's re-aim and under-100 knobs.

Small W everywhere: these check behaviour and reproducibility, never strength or speed.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from analyzer.engines.jass import engine
from analyzer.engines.jass.kernel import play_chunk
from analyzer.engines.jass.records import check_record, replays_identically, trace_record
from analyzer.engines.jass.reference import ReferenceJass, _Deal, legal_cards, suit
from analyzer.engines.kernel import RunSpec, kernel_path
from analyzer.games.jass.cards import FULL_DECK, cards_mask, mask_cards, parse_card
from analyzer.games.jass.primitives import (
    S_BAN,
    S_DEAL_NO,
    S_FIXER,
    S_N,
    S_NTRICKS,
    S_STICKS,
    S_TIES,
    S_TRICK,
    S_TRUMP,
    legal_mask,
)
from analyzer.games.jass.rules import make_rules
from analyzer.runner import RunOptions, execute
from analyzer.runner.backends import shared_pool
from strategies.jass import policies, search
from strategies.jass.dispatch import decide
from strategies.jass.knobs import AIM_HIGH, AIM_LOW, FAM_PEEK, FAM_PIMC
from strategies.jass.loop import rollout
from strategies.jass.play import deal_points, to_move
from strategies.registry import engine_arrays, parse_strategy, seat_strategies

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_position(seed, n, ruleset, moves):
    """Deal ``seed`` and play ``moves`` random legal cards in the engine. Returns the engine
    state (hands, played, taken, st) and the history as (seat, card) pairs."""
    work = engine.new_work()
    rng, deck, hands, played, taken, st = work[:6]
    rng[0] = np.uint64(seed)
    engine.start_deal(rng, deck, hands, played, taken, st, np.zeros(4, np.int64), n,
                      ruleset == "swiss", n - 1, 0)
    py = np.random.default_rng(seed)
    history = []
    for _ in range(moves):
        seat = to_move(st)
        legal = mask_cards(int(legal_mask(hands[seat], st)))
        card = int(py.choice(legal))
        history.append((seat, card))
        engine.play_card(seat, card, hands, played, taken, st)
    return hands, played, taken, st, history


def history_is_legal(start_hands, history, n, ruleset):
    """Independent of the engine and the sampler: replay the history from the given start
    hands with the reference rules; True when every card was in hand and legal."""
    hands = [sorted(h) for h in start_hands]
    trump, trick, leader = -1, [], 0
    for seat, card in history:
        if seat != (leader + len(trick)) % n or card not in hands[seat]:
            return False
        if card not in legal_cards(hands[seat], trick, trump, ruleset):
            return False
        if trump < 0 and trick and suit(card) != suit(trick[0]):
            trump = suit(card)
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == n:
            from analyzer.engines.jass.reference import trick_winner

            leader = (leader + trick_winner(trick, trump)) % n
            trick = []
    return True


def sample(seat, hand, st, played, state):
    wh = np.zeros(4, np.uint64)
    ok = search.sample_world(seat, np.uint64(hand), st, played, state, wh,
                             np.zeros(8, np.int64), np.zeros(4, np.uint64),
                             np.zeros(4, np.int64), np.zeros(8, np.uint64))
    assert ok
    return wh


@SETTINGS
@given(seed=hs.integers(0, 2**62), n=hs.sampled_from([3, 4]),
       ruleset=hs.sampled_from(["seed", "swiss"]), frac=hs.floats(0, 0.97))
def test_every_sampled_world_is_a_legal_completion(seed, n, ruleset, frac):
    """Every world: each card exactly once, hand sizes right, and the whole play so far legal
    from the world's hands (checked by replaying with the reference rules, not the sampler's
    constraints); the public bans hold for the true deal and equal the reference's own."""
    moves = int(frac * 36 // n * n)
    hands, played, taken, st, history = random_position(seed, n, ruleset, moves)
    seat = to_move(st)
    for p in range(n):  # the bans are sound: the true hands hold no banned card
        assert int(hands[p]) & int(st[S_BAN + p]) == 0
    # the reference derives the same bans on its own (pairs of cards against legal_cards)
    ref = ReferenceJass(make_rules(n, {"ruleset": ruleset}), seat_strategies("jass", ["basic"], n))
    d = _Deal(n, n - 1, [[] for _ in range(n)])
    for s_, c in history:
        if not d.trick:
            d.trick_seats = []
        ref._note_showing_out(d, s_, c)
        if d.trump < 0 and d.trick and suit(c) != suit(d.trick[0]):
            d.trump = suit(c)
        d.trick.append(c)
        if len(d.trick) == n:
            d.trick = []
    out = int(FULL_DECK) & ~int(np.bitwise_or.reduce(played))  # cards not played yet
    for p in range(n):
        assert cards_mask(sorted(ref.banned_cards(d, p))) & out == int(st[S_BAN + p]) & out, p
    state = np.array([seed ^ 0x5DEECE66D], dtype=np.uint64)
    for _ in range(5):
        wh = sample(seat, int(hands[seat]), st, played, state)
        assert_legal_completion(wh, seat, hands, played, history, n, ruleset)
    # infer=policy searches a choice among such worlds: every kept one is a legal completion
    prm = np.array(parse_strategy("jass", "pimc:worlds=3,infer=policy,oversample=2").values)
    pool, _, keep, weight = search.draw_worlds(prm, seat, hands[seat], st, played, state,
                                               np.zeros(4, np.uint64), False)
    assert sorted(set(keep.tolist())) == sorted(keep.tolist()) and keep.min() >= 0
    assert len(keep) == 3 and weight.max() == 1.0
    for g in keep:
        assert_legal_completion(pool[g], seat, hands, played, history, n, ruleset)


def assert_legal_completion(wh, seat, hands, played, history, n, ruleset):
    """A world: the decider's own hand, each card exactly once, hand sizes right, and the
    whole play so far legal from the world's hands (the reference rules' replay)."""
    assert wh[seat] == hands[seat]
    union = 0
    for p in range(n):
        assert int(wh[p]) & union == 0 and int(wh[p]) & int(played[p]) == 0
        union |= int(wh[p]) | int(played[p])
        assert bin(int(wh[p])).count("1") == bin(int(hands[p])).count("1")
    assert union == int(FULL_DECK)
    start = [mask_cards(int(wh[p]) | int(played[p])) for p in range(n)]
    assert history_is_legal(start, history, n, ruleset)


def _deal_checking_every_card(seat, hand, st, played, rng):
    """The world sampler's rule written out plainly (the module docstring of
    strategies/jass/search.py): the hidden cards one by one, those one seat may hold first,
    then those two may, then those every seat may (each group lowest card first); each to a
    seat drawn in proportion to its free places among the seats that may hold it and leave
    the rest dealable, that checked for every card and seat against Hall's condition over
    every set of seats. Returns (the hands or None, how many seats the check turned away)."""
    from itertools import combinations

    n, ntr = int(st[S_N]), int(st[S_NTRICKS])
    unseen = int(FULL_DECK) & ~int(hand)
    for p in range(n):
        unseen &= ~int(played[p])
    others = [p for p in range(n) if p != seat]
    allow = {p: unseen & ~(int(st[S_BAN + p]) & (2**64 - 1)) for p in others}
    caps = {p: ntr - bin(int(played[p])).count("1") for p in others}

    def dealable(rest):
        for k in range(1, len(others) + 1):
            for group in combinations(others, k):
                only = [c for c in range(36) if rest >> c & 1
                        and all(not allow[p] >> c & 1 for p in others if p not in group)]
                if len(only) > sum(caps[p] for p in group):
                    return False
        return True

    world = {p: 0 for p in range(4)}
    world[seat] = int(hand)
    rest, turned = unseen, 0
    holders = {c: sum(allow[p] >> c & 1 for p in others) for c in range(36) if unseen >> c & 1}
    groups = [[c for c in sorted(holders) if holders[c] == 1],
              [c for c in sorted(holders) if 1 < holders[c] < len(others) or holders[c] == 0],
              [c for c in sorted(holders) if holders[c] == len(others) > 1]]
    for c in groups[0] + groups[1] + groups[2]:
        rest &= ~(1 << c)
        may = []
        for p in others:
            if allow[p] >> c & 1 and caps[p] > 0:
                caps[p] -= 1
                fine = dealable(rest)
                caps[p] += 1
                if fine:
                    may.append(p)
                else:
                    turned += 1
        total = sum(caps[p] for p in may)
        if total == 0:
            return None, turned
        r = rng.randbelow(total)
        for p in may:
            if r < caps[p]:
                world[p] |= 1 << c
                caps[p] -= 1
                break
            r -= caps[p]
    return [world[p] for p in range(4)], turned


def test_a_world_is_dealt_as_checking_every_card_against_halls_condition_deals_it():
    """The sampler checks Hall's condition only where a card can break it (cards two of three
    seats may hold) and only for the sets of seats the card could change: the same seats for
    every card, so the same worlds to the bit, as checking every card against every set
    (:func:`_deal_checking_every_card`, with the same stream), on positions from the deal's
    start to its last tricks; in half of them more cards banned at random (never one the
    seat holds: the true deal stays one of the worlds), so that the check has seats to turn
    away."""
    from analyzer.rng import PyRng

    turned = 0
    py_random = np.random.default_rng(5)
    for k in range(240):
        n = 3 + k % 2
        moves = int((k % 12) / 12 * 36 // n * n) + k % n
        hands, played, _, st, _ = random_position(1000 + k, n, "seed" if k % 3 else "swiss",
                                                  moves)
        seat = to_move(st)
        if k % 2:
            for p in range(n):
                extra = [c for c in range(36) if not int(hands[p]) >> c & 1
                         and py_random.random() < 0.6]
                st[S_BAN + p] = np.int64(np.uint64(int(st[S_BAN + p]) & (2**64 - 1)
                                                   | cards_mask(extra)).view(np.int64))
        for d in range(3):
            py = PyRng(7, k, d)
            state = np.array([py.state], dtype=np.uint64)
            want, t = _deal_checking_every_card(seat, int(hands[seat]), st, played, py)
            turned += t
            wh = sample(seat, int(hands[seat]), st, played, state)
            assert want is not None and [int(x) for x in wh] == want, (k, d)
            assert int(state[0]) == py.state  # the same draws, no more
    assert turned > 0  # Hall's condition did turn seats away: the check was tested


def test_a_leaf_is_worth_what_a_whole_copy_of_the_world_gives():
    """``leaf_value`` copies the world's state without its order of play and plays the card
    without the search's bans (nothing after it in the leaf reads either): its outcome equals
    the one of a whole copy of the state and ``play_card`` with the bans, for every
    rollout kind, both objectives, single deals and deals of a match, and a scratch state full
    of garbage where the copy leaves it alone."""
    from strategies.jass.knobs import OBJ_DEAL, OBJ_MATCH, ROLLOUT_CHOICES
    from strategies.jass.play import play_card

    garbage = np.random.default_rng(3)
    compared = 0
    for k in range(80):
        n = 3 + k % 2
        moves = int((k % 10) / 10 * 36 // n * n) + k % n
        hands, played, taken, st, _ = random_position(500 + k, n, "seed", moves)
        if k % 2:  # a deal of a match: standings near its end, remembered ties
            st[S_DEAL_NO] = 2 + k % 5
            st[S_STICKS:S_STICKS + n] = garbage.integers(3, 8, n)
            st[S_TIES:S_TIES + 6] = garbage.integers(0, 2, 6)
        seat = to_move(st)
        legal = mask_cards(int(legal_mask(hands[seat], st)))
        state = np.array([k + 1], dtype=np.uint64)
        wh = sample(seat, int(hands[seat]), st, played, state)
        rk = k % len(ROLLOUT_CHOICES)
        rfams, rprms = search.rollout_tables(rk)
        memo = np.array([policies.begin_deal(rfams[p], rprms[p], p, wh[p], st) for p in range(4)],
                        dtype=np.int64)
        for card in legal[:3]:
            for objective in (OBJ_DEAL, OBJ_MATCH):
                seed = np.uint64(7 * k + card)
                outs = []
                for whole in (False, True):
                    h2, p2, t2 = (np.zeros(4, np.uint64) for _ in range(3))
                    st2 = garbage.integers(-2**62, 2**62, len(st)).astype(np.int64)
                    rr = np.zeros(1, np.uint64)
                    ints = np.zeros((5, 8), np.int64)
                    if whole:  # the whole state, as copy_state copies it
                        h2[:], p2[:], t2[:], st2[:] = wh, played, taken, st
                        play_card(seat, card, h2, p2, t2, st2)
                        rr[0] = seed
                        if rk == search.VALUE_ROLLOUT:
                            v = search.value_leaf(seat, h2, p2, t2, st2, rfams, rprms, rr,
                                                  memo.copy(), objective, ints)
                        else:
                            rollout(rfams, rprms, rr, h2, p2, t2, st2, memo.copy())
                            v = search.outcome(seat, t2, st2, objective, ints[0], ints[1],
                                               ints[2], ints[3], ints[4])
                    else:
                        v = search.leaf_value(seat, card, seed, wh, played, taken, st, h2, p2, t2,
                                              st2, rk, rfams, rprms, rr, memo.copy(), objective,
                                              ints)
                    outs.append(float(v))
                assert outs[0] == outs[1], (k, card, objective, rk)
                compared += 1
    assert compared > 300


def test_an_under_trump_bans_higher_trumps_and_the_led_suit():
    """J-6 (seed): a seat that under-trumps holds no higher trump and none of the led suit;
    every sampled world respects it."""
    hands, played, taken, st, _ = random_position(3, 4, "seed", 0)
    deal = ["R6 R7 R8 R9 R10 RU RO RK RA", "AO B6 B7 B8 B9 B10 BU BO BK",
            "A6 BA S6 S7 S8 S9 S10 SU SO", "SK SA A7 A8 A9 A10 AU AK AA"]
    for p, text in enumerate(deal):
        hands[p] = np.uint64(cards_mask([parse_card(c) for c in text.split()]))
    for seat, name in enumerate(["R6", "AO", "A6"]):  # AO fixes acorns; A6 under-trumps
        engine.play_card(seat, parse_card(name), hands, played, taken, st)
    roses = cards_mask(list(range(18, 27)))
    assert int(st[S_BAN + 1]) == roses  # (R6 was played by seat 0, still a rose it lacks)
    higher = cards_mask([parse_card(c) for c in ["AK", "AA", "A9", "AU"]])
    assert int(st[S_BAN + 2]) == roses | higher
    state = np.array([7], dtype=np.uint64)
    for _ in range(50):
        wh = sample(3, int(hands[3]), st, played, state)
        assert int(wh[2]) & (roses | higher) == 0 and int(wh[1]) & roses == 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**62), n=hs.sampled_from([3, 4]),
       ruleset=hs.sampled_from(["seed", "swiss"]), moves=hs.integers(0, 30),
       stream=hs.integers(0, 2**63 - 1))
def test_pimc_does_not_peek(seed, n, ruleset, moves, stream):
    """No peeking (J-11): two deals that agree on everything the decider has seen (own hand,
    every card played and by whom, hand sizes, the public inferences) give the same pimc
    decision from the same stream, with infer=voids and with infer=policy (which replays the
    others' moves from each world's hands)."""
    for text in ("pimc:worlds=6", "pimc:worlds=6,focus=0", "pimc:worlds=9,focus=0.5",
                 "pimc:worlds=3,infer=policy,oversample=3",
                 "pimc:worlds=3,rollout=learned-4,infer=policy,oversample=2",
                 "pimc:worlds=4,rollout=value", "pimc:worlds=3,rollout=value,infer=policy",
                 "pimc:worlds=3,rollout=value,objective=match"):
        _same_decision_on_both_deals(text, seed, n, ruleset, moves, stream)


def _same_decision_on_both_deals(text, seed, n, ruleset, moves, stream):
    prm = np.array(parse_strategy("jass", text).values)
    hands, played, taken, st, history = random_position(seed, n, ruleset, moves)
    seat = to_move(st)
    legal = np.uint64(legal_mask(hands[seat], st))
    # another deal of the hidden cards, checked consistent by the independent replay
    other = sample(seat, int(hands[seat]), st, played, np.array([seed + 99], dtype=np.uint64))
    start = [mask_cards(int(other[p]) | int(played[p])) for p in range(n)]
    assert history_is_legal(start, history, n, ruleset)
    cards = []
    for world in (hands, other):
        state = np.array([stream], dtype=np.uint64)
        cards.append(decide(FAM_PIMC, prm, seat, world.copy(), legal, st.copy(), played.copy(),
                            taken.copy(), state, -1))
        assert int(legal) >> cards[-1] & 1
    assert cards[0] == cards[1]


ENGINE_FIELDS = [
    ["pimc:worlds=2,infer=policy,oversample=3", "basic", "aim-low", "random"],
    ["peek:worlds=2", "pimc:worlds=2,rollout=random", "adaptive", "re-aim"],
    ["pimc:worlds=3,objective=match,rollout=aim-low", "catch-up",
     "pimc:worlds=2,candidates=2,infer=policy,eps=0"],
    ["pimc:worlds=2,rollout=learned-4", "learned", "aim-low", "pimc:worlds=2,rollout=learned"],
    ["pimc:worlds=3,rollout=value", "aim-low", "pimc:worlds=2,rollout=value,objective=match"],
    ["pimc:worlds=3,focus=0", "pimc:worlds=6,focus=1", "pimc-rollouts:worlds=4,focus=2",
     "aim-high"],
]


@pytest.mark.parametrize("ruleset", ["seed", "swiss"])
@pytest.mark.parametrize("field", ENGINE_FIELDS, ids=lambda f: "+".join(f))
def test_reference_plays_search_games_move_for_move(field, ruleset):
    """The reference engine (its own public view, bans and ties included) plays pimc and
    peek games exactly like the numba engine; records replay and pass the rules check."""
    players = len(field) if len(field) == 3 else 4
    rules = {"ruleset": ruleset, "deal_cap": 40}
    ref = ReferenceJass(make_rules(players, rules), seat_strategies("jass", field, players))
    spec = RunSpec("jass", players, tuple(field), seed=41, rules=rules)
    for i in range(2):
        mine = trace_record(spec, i)
        assert mine == ref.play_match(41, i)
        assert check_record(mine) == [] and replays_identically(mine)
    spec_d = RunSpec("jass", players, tuple(field), seed=42, mode="deals", rules=rules)
    for i in range(4):
        assert trace_record(spec_d, i) == ref.play_single_deal(42, i)


@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")  # another cluster may hold it
@pytest.mark.parametrize("mode", ["matches", "deals"])
def test_search_results_depend_on_index_alone_whatever_the_backend(mode):
    spec = RunSpec("jass", 4, ("pimc:worlds=2", "basic", "peek:worlds=1", "aim-low"), seed=9,
                   mode=mode, rules={"deal_cap": 25})
    count = 12 if mode == "matches" else 40
    whole = play_chunk(spec, 0, count)
    parts = [play_chunk(spec, s, c) for s, c in [(0, 5), (5, 1), (6, count - 6)]]
    for name in whole:
        assert np.array_equal(whole[name], np.concatenate([p[name] for p in parts])), name
    base = execute(spec, count, 0, RunOptions(backend="serial", chunk_size=count),
                   collect_rows=True).rows
    threads = execute(spec, count, 0, RunOptions(backend="threads", workers=2, chunk_size=3),
                      collect_rows=True).rows
    procs = execute(spec, count, 0, RunOptions(chunk_size=count // 2 + 1), collect_rows=True,
                    backend=shared_pool(2)).rows
    pd.testing.assert_frame_equal(threads, base, check_exact=True)
    pd.testing.assert_frame_equal(procs, base, check_exact=True)
    if mode == "deals":  # and on a Dask cluster (1 worker on loopback)
        pytest.importorskip("distributed")
        from analyzer.runner.dask_backend import DaskBackend

        backend = DaskBackend(1, (kernel_path("jass"),))
        try:
            dask = execute(spec, count, 0, RunOptions(chunk_size=count // 3 + 1),
                           collect_rows=True, backend=backend).rows
        finally:
            backend.close()
        pd.testing.assert_frame_equal(dask, base, check_exact=True)


def policy_position(seed, n, ruleset, moves, followers):
    """Deal ``seed`` and play ``moves`` cards: the seats in ``followers`` play ``aim-low`` (the
    default rollout policy), the others random legal cards. Returns the engine state and, per
    seat, how many of its moves differ from what aim-low would have played (worked out during
    the play, from the true hands: independent of the search's replay)."""
    work = engine.new_work()
    rng, deck, hands, played, taken, st = work[:6]
    rng[0] = np.uint64(seed)
    engine.start_deal(rng, deck, hands, played, taken, st, np.zeros(4, np.int64), n,
                      ruleset == "swiss", n - 1, 0)
    fam, prm = engine_arrays([parse_strategy("jass", "aim-low")])
    memo = [policies.begin_deal(fam[0], prm[0], p, hands[p], st) for p in range(n)]
    py = np.random.default_rng(seed)
    scratch = np.zeros(1, np.uint64)
    misses = [0] * 4
    for _ in range(moves):
        seat = to_move(st)
        legal = np.uint64(legal_mask(hands[seat], st))
        model = policies.choose_card(fam[0], prm[0], seat, hands[seat], legal, st, played,
                                     taken, scratch, memo[seat])
        card = model if seat in followers else int(py.choice(mask_cards(int(legal))))
        misses[seat] += card != model
        engine.play_card(seat, card, hands, played, taken, st)
    return hands, played, taken, st, misses


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**62), n=hs.sampled_from([3, 4]),
       ruleset=hs.sampled_from(["seed", "swiss"]), moves=hs.integers(0, 35),
       followers=hs.sets(hs.integers(0, 3)))
def test_policy_replay_counts_the_moves_the_rollout_policy_would_not_make(
        seed, n, ruleset, moves, followers):
    """infer=policy: replaying the public order of play (S_HIST) from the true deal counts
    exactly the other seats' moves that differ from the rollout policy's choice (0 when they
    all play it), the decider's own moves never; the public state is left untouched."""
    hands, played, taken, st, misses = policy_position(seed, n, ruleset, moves, followers)
    decider = to_move(st)
    fam, prm = engine_arrays([parse_strategy("jass", "aim-low")])
    before = st.copy()
    got = search.replay_misses(decider, hands, st, played, fam[0], prm[0],
                               *(np.zeros(4, np.uint64) for _ in range(3)),
                               np.zeros(len(st), np.int64), np.zeros(4, np.int64),
                               np.zeros(1, np.uint64), 99)
    assert got == sum(misses) - misses[decider]
    assert np.array_equal(st, before)
    for limit in (0, 1, 2):  # the replay stops once the misses reach the limit
        assert search.replay_misses(decider, hands, st, played, fam[0], prm[0],
                                    *(np.zeros(4, np.uint64) for _ in range(3)),
                                    np.zeros(len(st), np.int64), np.zeros(4, np.int64),
                                    np.zeros(1, np.uint64), limit) == min(got, limit)
    if followers >= set(range(n)) - {decider}:
        assert got == 0


def test_policy_worlds_are_the_least_missing_weighted_by_eps():
    """draw_worlds (aim-low rollouts, the policy the others play): infer=voids keeps every
    world drawn with weight 1; infer=policy with eps=1, oversample=1 searches those very
    worlds (the same draws); with oversample the kept worlds are those with the fewest
    misses, weighted eps ** (misses - the fewest)."""
    hands, played, taken, st, _ = policy_position(5, 4, "seed", 21, {0, 2, 3})
    seat = to_move(st)
    nothing = np.zeros(4, np.uint64)

    def draw(text):
        prm = np.array(parse_strategy("jass", text).values)
        return search.draw_worlds(prm, seat, hands[seat], st, played,
                                  np.array([77], np.uint64), nothing, False)

    voids = draw("pimc-rollouts:worlds=8")
    same = draw("pimc-rollouts:worlds=8,infer=policy,eps=1,oversample=1")
    assert np.array_equal(voids[0], same[0]) and np.array_equal(voids[1], same[1])
    assert list(voids[2]) == list(range(8)) and sorted(same[2]) == list(range(8))
    assert (voids[3] == 1.0).all() and (same[3] == 1.0).all()
    pool, _, keep, weight = draw("pimc-rollouts:worlds=8,infer=policy,oversample=6,eps=0.5")
    fam, prm = engine_arrays([parse_strategy("jass", "aim-low")])
    scratch = [np.zeros(4, np.uint64) for _ in range(3)]

    def misses(g):
        return search.replay_misses(seat, pool[g], st, played, fam[0], prm[0], *scratch,
                                    np.zeros(len(st), np.int64), np.zeros(4, np.int64),
                                    np.zeros(1, np.uint64), 99)

    every = [misses(g) for g in range(len(pool))]
    kept = [every[g] for g in keep]
    assert sorted(kept) == kept and kept == sorted(every)[:8]
    assert np.allclose(weight, [0.5 ** (m - kept[0]) for m in kept])
    assert len(pool) == 48 and len(set(every)) > 1  # the position tells worlds apart
    # where the others' moves fit most worlds, drawing stops at 8 that miss nothing
    hands, played, taken, st, _ = policy_position(5, 4, "seed", 2, {0, 1, 2, 3})
    seat = to_move(st)
    pool, _, keep, weight = draw("pimc-rollouts:worlds=8,infer=policy,oversample=6,eps=0.5")
    assert 8 <= len(pool) < 48 and (weight == 1.0).all()
    assert [misses(g) for g in range(len(pool))].count(0) == 8


def test_policy_inference_finds_the_hands_of_players_who_play_like_the_rollout():
    """Against seats that play exactly like the rollout policy, infer=policy's worlds put more
    of the hidden cards where they really are than infer=voids' worlds (the same positions,
    late in the deal)."""
    nothing = np.zeros(4, np.uint64)
    right = {"voids": 0, "policy": 0}
    for seed in range(12):
        hands, played, taken, st, _ = policy_position(seed, 4, "seed", 18, {0, 1, 2, 3})
        seat = to_move(st)
        for key, text in (("voids", "pimc-rollouts:worlds=8"),
                          ("policy", "pimc-rollouts:worlds=8,infer=policy,oversample=8,eps=0")):
            prm = np.array(parse_strategy("jass", text).values)
            pool, _, keep, weight = search.draw_worlds(prm, seat, hands[seat], st, played,
                                                       np.array([seed], np.uint64), nothing,
                                                       False)
            found = [sum(bin(int(pool[g, p]) & int(hands[p])).count("1")
                         for p in range(4) if p != seat) for g in keep]
            right[key] += np.dot(weight, found) / weight.sum()  # weighted mean per world
    assert right["policy"] > right["voids"], right


def test_rollout_entry_point_plays_on_from_a_packed_state():
    """rollout() finishes a deal from a mid-deal state exactly as the engine's plain loop does
    for the same families, and leaves a complete deal (157 points)."""
    for seed in range(6):
        hands, played, taken, st, _ = random_position(seed, 4, "seed", 13)
        fams, prms = engine_arrays(seat_strategies("jass", ["aim-low"], 4))
        memo = np.array([AIM_LOW] * 4, dtype=np.int64)
        a = [x.copy() for x in (hands, played, taken, st)]
        b = [x.copy() for x in (hands, played, taken, st)]
        ra = np.array([seed], dtype=np.uint64)
        rb = ra.copy()
        assert rollout(fams, prms, ra, *a, memo) == engine.DONE
        assert engine.run_deal(fams, prms, rb, *b, memo, None, None, False,
                               -1) == engine.DONE
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)
        assert a[3][S_TRICK] == a[3][S_NTRICKS] and a[0].sum() == 0
        pts = np.zeros(4, np.int64)
        deal_points(a[2], a[3], pts)
        assert pts.sum() == 157


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("depth", [1, 3, 7, 36])
def test_learned_with_a_depth_rolls_out_learned_that_many_cards_then_aim_low(n, depth):
    """rollout() with ``learned:depth=D`` in every seat: the next D cards as learned plays
    them (each asked through the full dispatcher and played by the engine), then the deal to
    its end as the engine's loop plays it with aim-low in every seat; 36 cards: learned to
    the end of the deal."""
    fams, prms = engine_arrays(seat_strategies("jass", [f"learned:depth={depth}"], n))
    lfams, lprms = engine_arrays(seat_strategies("jass", ["learned"], n))
    afams, aprms = engine_arrays(seat_strategies("jass", ["aim-low"], n))
    for seed in range(5):
        hands, played, taken, st, _ = random_position(seed, n, "seed", 3 + 2 * seed)
        a = [x.copy() for x in (hands, played, taken, st)]
        b = [x.copy() for x in (hands, played, taken, st)]
        ra = np.array([seed], dtype=np.uint64)
        rb = ra.copy()
        memo = np.full(4, -1, dtype=np.int64)
        assert rollout(fams, prms, ra, *a, memo) == engine.DONE
        for _ in range(depth):
            if b[3][S_TRICK] == b[3][S_NTRICKS]:
                break
            seat = to_move(b[3])
            legal = np.uint64(legal_mask(b[0][seat], b[3]))
            card = decide(lfams[seat], lprms[seat], seat, b[0], legal, b[3], b[1], b[2], rb, -1)
            engine.play_card(seat, card, *b)
        memo = np.array([AIM_LOW] * 4, dtype=np.int64)
        assert engine.run_deal(afams, aprms, rb, *b, memo, None, None, False, -1) == engine.DONE
        for x, y in zip(a[:3], b[:3], strict=True):
            assert np.array_equal(x, y), (seed, depth)
        assert a[3][S_TRICK] == a[3][S_NTRICKS] and a[0].sum() == 0


def test_peek_is_labelled_as_not_a_legal_player():
    spec = parse_strategy("jass", "peek").spec
    assert spec.family == FAM_PEEK and "NOT A LEGAL PLAYER" in spec.description


def _view(trump, hand_names, taken_names=""):
    hands, played, taken, st, _ = random_position(0, 4, "seed", 0)
    st[S_TRUMP] = trump
    st[S_FIXER] = 1 if trump >= 0 else -1
    hand = np.uint64(cards_mask([parse_card(c) for c in hand_names.split()]))
    if taken_names:
        taken[0] = np.uint64(cards_mask([parse_card(c) for c in taken_names.split()]))
    return hand, st, played, taken


def test_reaim_follows_trump_and_points():
    """reaim=on (issue 9): the aim is re-judged once trump is fixed, from the points won so far
    plus the hand's points under the real trump; before trump is fixed the deal's aim stands."""
    prm = np.array(parse_strategy("jass", "re-aim").values)
    strong = "AU A9 AA AK A10 B6 B7 S6 R6"  # 62 points with acorns trump, 8 with bells
    hand, st, played, taken = _view(-1, strong)
    assert policies.reaimed(prm, 0, hand, st, taken, AIM_LOW) == AIM_LOW  # no trump yet
    hand, st, played, taken = _view(3, strong)
    assert policies.reaimed(prm, 0, hand, st, taken, AIM_LOW) == AIM_HIGH
    hand, st, played, taken = _view(0, strong)
    assert policies.reaimed(prm, 0, hand, st, taken, AIM_HIGH) == AIM_LOW
    # as points come in: the same weak hand, but 45 points already won -> high
    weak = "B6 B7 S6 R6"
    hand, st, played, taken = _view(0, weak)
    assert policies.reaimed(prm, 0, hand, st, taken, AIM_HIGH) == AIM_LOW
    hand, st, played, taken = _view(0, weak, "SA RA SK S10 RK R10")
    assert policies.reaimed(prm, 0, hand, st, taken, AIM_LOW) == AIM_HIGH
    # the knob changes play: aim=low with a strong trump hand leads differently with reaim on
    hand, st, played, taken = _view(3, strong)
    legal = np.uint64(legal_mask(hand, st))
    off = np.array(parse_strategy("jass", "re-aim:reaim=off").values)
    rng = np.zeros(1, np.uint64)
    a = policies.heuristic_card(prm, 0, hand, legal, st, played, taken, rng, AIM_LOW)
    b = policies.heuristic_card(off, 0, hand, legal, st, played, taken, rng, AIM_LOW)
    assert a != b


def test_under100_stops_aiming_high_near_100_points():
    """under100=on (issue 9): a seat aiming high stops taking tricks once winning one could
    bring it to 100 points (J-9 then gives the most points nothing)."""
    prm = np.array(parse_strategy("jass", "re-aim").values)
    off = np.array(parse_strategy("jass", "re-aim:under100=off").values)
    near = "RA SK S10 RK R10 SO RO SU RU AA AK A10 BA BK B10"  # 99 points, bells trump
    hand, st, played, taken = _view(0, "B6 SA S6", near)
    assert policies.over_100(0, st, taken)
    legal = np.uint64(legal_mask(hand, st))
    rng = np.zeros(1, np.uint64)
    # leading, aiming high: without the knob it cashes the Ace, with it it leads low
    a = policies.heuristic_card(off, 0, hand, legal, st, played, taken, rng, AIM_HIGH)
    b = policies.heuristic_card(prm, 0, hand, legal, st, played, taken, rng, AIM_HIGH)
    assert a == parse_card("SA") and b != a
    hand, st, played, taken = _view(0, "B6 SA S6", "RA RK")
    assert not policies.over_100(0, st, taken)


def test_pimc_beats_basic_on_the_same_deals():
    """A smoke check of direction (the strength table is in docs/strategies.md): one pimc seat among
    basic players wins more sticks per deal than basic in that seat, on the same deals."""
    n_deals = 150
    base = play_chunk(RunSpec("jass", 4, ("basic",), seed=5, mode="deals"), 0, n_deals)
    srch = play_chunk(RunSpec("jass", 4, ("pimc:worlds=8", "basic", "basic", "basic"), seed=5,
                              mode="deals"), 0, n_deals)
    assert srch["sticks"][::4].mean() > base["sticks"][::4].mean()


def _focus_positions():
    """Mid-deal positions of both player counts and rule sets, with a choice of cards."""
    out = []
    for seed in range(40):
        n = 3 + seed % 2
        hands, played, taken, st, _ = random_position(seed, n, "seed" if seed % 4 < 2 else
                                                      "swiss", (seed * 7) % 24)
        seat = to_move(st)
        legal = np.uint64(legal_mask(hands[seat], st))
        if bin(int(legal)).count("1") >= 3:
            out.append((hands[seat], legal, st, played, taken, seat))
    return out


@pytest.mark.parametrize("text", ["pimc:worlds=12", "pimc:worlds=9,focus=1",
                                  "pimc-rollouts:worlds=6,focus=2.5",
                                  "pimc:worlds=8,candidates=3,objective=match"])
def test_focus_plays_the_card_of_its_plain_python_rule(text):
    """focus: the jitted search (focused_card, through search_card) plays the card that the
    plain-Python rule (focus_choice_py) picks from every candidate's outcome in each world
    (world_values: the same worlds from the same stream); it stops early when one card is
    left or the budget is spent, never later than 3 x worlds worlds. The cards it records
    as dropped (scripts/jass_focus_sim.py --anatomy) are dropped after its first worlds and
    before it stops, never the card played; when it stops before the budget, one is left."""
    prm = np.array(parse_strategy("jass", text).values)
    worlds, z = int(prm[search.P_WORLDS]), float(prm[search.P_FOCUS])
    drawn = []
    positions = _focus_positions()
    assert len(positions) >= 15
    for k, (hand, legal, st, played, taken, seat) in enumerate(positions):
        card = search.search_card(prm, seat, hand, legal, st.copy(), played.copy(),
                                  taken.copy(), np.array([k + 1], np.uint64),
                                  np.zeros(4, np.uint64), False, 2)
        cands, nc, values = search.world_values(prm, seat, hand, legal, st.copy(),
                                                played.copy(), taken.copy(),
                                                np.array([k + 1], np.uint64), 3 * worlds)
        dropped = {}
        chosen, w, used = search.focus_choice_py(values, nc, worlds, z, dropped)
        assert card == cands[chosen]
        assert w <= 3 * worlds and used <= worlds * nc
        assert chosen not in dropped
        assert all(search.focus_first(worlds) <= at <= w for at in dropped.values())
        if w < 3 * worlds and used + nc - len(dropped) <= worlds * nc:
            assert len(dropped) == nc - 1
        drawn.append(w)
    assert set(drawn) != {worlds}  # worlds spent where the call is close, saved where clear


def test_focus_first_worlds_are_the_plain_searchs_and_policy_ignores_it():
    """The focused search draws its worlds one at a time exactly as draw_worlds draws them
    (infer=voids): over the same worlds every candidate's outcomes sum to search_values'
    totals. With infer=policy (its worlds drawn and weighed all at once) focus is off: the
    same card as focus=0."""
    positions = _focus_positions()[:10]
    prm = np.array(parse_strategy("jass", "pimc:worlds=7,focus=2").values)
    for k, (hand, legal, st, played, taken, seat) in enumerate(positions):
        cands, scores, squares = np.empty(12, np.int64), np.zeros(12), np.zeros(12)
        nc, total = search.search_values(prm, seat, hand, legal, st.copy(), played.copy(),
                                         taken.copy(), np.array([k + 5], np.uint64),
                                         np.zeros(4, np.uint64), False, cands, scores, squares)
        c2, nc2, values = search.world_values(prm, seat, hand, legal, st.copy(), played.copy(),
                                              taken.copy(), np.array([k + 5], np.uint64), 7)
        assert nc2 == nc and total == 7.0 and list(c2[:nc]) == list(cands[:nc])
        assert np.allclose(values[:, :nc].sum(axis=0), scores[:nc], rtol=0, atol=1e-9)

    for k, pos in enumerate(positions):
        assert (_search_card("pimc:worlds=4,infer=policy,oversample=2,focus=2", k, *pos)
                == _search_card("pimc:worlds=4,infer=policy,oversample=2,focus=0", k, *pos))


def _search_card(text, stream, hand, legal, st, played, taken, seat):
    """The card the search of strategy ``text`` plays at a _focus_positions() position, its
    stream seeded with ``stream``."""
    prm = np.array(parse_strategy("jass", text).values)
    return search.search_card(prm, seat, hand, legal, st.copy(), played.copy(), taken.copy(),
                              np.array([stream], np.uint64), np.zeros(4, np.uint64), False, 2)


def test_pimc_default_worlds_follow_the_player_count():
    """worlds=0 (pimc's default): the player count's worlds (knobs.WORLDS_AT_3 at 3 players,
    WORLDS_AT_4 at 4): the default plays the card of the same search with those worlds named,
    from the same stream, at both player counts."""
    from strategies.jass.knobs import WORLDS_AT_3, WORLDS_AT_4

    assert parse_strategy("jass", "pimc").values[search.P_WORLDS] == 0
    counts = set()
    for k, pos in enumerate(_focus_positions()):
        n = int(pos[2][search.S_N])
        counts.add(n)
        named = f"pimc:worlds={WORLDS_AT_3 if n == 3 else WORLDS_AT_4}"
        assert _search_card("pimc", k + 11, *pos) == _search_card(named, k + 11, *pos)
    assert counts == {3, 4}
