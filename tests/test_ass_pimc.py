"""Who's the Ass? search: the rollout entry point, pimc and peek, and the split joker knob.

Positions are taken from real games: a game record (engine trace) is replayed in plain
Python up to any play (``state_at``), which gives the full state there (every hand, the
cards gone, the round so far) and so the decider's view as the engine builds it.
"""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.engines.ass.positions import record_at, state_at, view_of
from analyzer.engines.ass.records import Tracer, replay_matches, verify_record
from analyzer.engines.ass.reference import play_record
from analyzer.engines.kernel import RunSpec
from analyzer.games.ass.cards import (
    ASS,
    PUB_ASS_ROUND,
    PUB_HIGH,
    PUB_K,
    PUB_KNOWN,
    PUB_PLAYERS,
    PUB_POS,
    PUB_SEAT,
    PUB_SIZES,
    VIEW_LEN,
    card_kind,
)
from analyzer.rng import new_state, seed_state
from analyzer.runner import RunOptions, execute
from strategies.ass.catalog import INFER_POLICY, PEEK, PIMC, RANDOM
from strategies.ass.pimc import INCONSISTENT, sample_world, search_move
from strategies.ass.rollout import OK, play_on
from strategies.registry import catalog, parse_strategy, seat_strategies

SMALL = "pimc:worlds=3,candidates=3"  # infer=policy, oversample=2: the defaults
SMALL_VOIDS = "pimc:worlds=3,candidates=3,infer=voids"
SMALL_PEEK = "peek:worlds=2,candidates=3"
SMALL_RANDOM = "pimc:worlds=2,candidates=3,rollout=random"
SMALL_CAREFUL = "pimc:worlds=2,candidates=3,rollout=careful"
SMALL_POLICY = "pimc:worlds=3,candidates=3,infer=policy,oversample=3"
SMALL_POLICY_CAREFUL = "pimc:worlds=2,candidates=3,infer=policy,rollout=careful,eps=0.3"
SMALL_SIZES = "pimc:worlds=2,candidates=3,infer=sizes"
SMALL_LEARNED_4 = "pimc:worlds=3,candidates=3,rollout=learned-4"  # infer=policy with learned
SMALL_VALUE = "pimc:worlds=3,candidates=3,rollout=value"  # the value model; infers with basic
SMALL_VALUE_VOIDS = "pimc:worlds=3,candidates=3,rollout=value,infer=voids"
DECK = [1] + [8] * 13 + [5]  # per kind: the ass, 1..13, jokers


def pack(counts) -> int:
    return sum(int(c) << (4 * kind) for kind, c in enumerate(counts))


def unpack(hand) -> list[int]:
    return [(int(hand) >> (4 * kind)) & 15 for kind in range(15)]


def record(players, texts, seed, index):
    rec, status = Tracer(RunSpec("ass", players, tuple(texts), seed)).record(index)
    assert status == -1
    return rec


def play_on_from(state, name, rng=None):
    """play_on from ``state`` with every seat playing ``name``; return (status, final hands)."""
    s = parse_strategy("ass", name)
    n = state["n"]
    packed = np.array([pack(h) for h in state["hands"]], dtype=np.uint64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    for seat in range(n):
        view[PUB_SIZES + seat] = sum(state["hands"][seat])
    status, _ = play_on(packed, n, s.family, s.values, view, new_state() if rng is None else rng,
                        np.uint64(pack(state["gone"])), np.uint64(pack(state["table"])),
                        state["starter"], state["blocked"], state["pos"], state["k"],
                        state["high"], state["high_seat"], state["ass_round"], state["round"])
    return status, [unpack(h) for h in packed]


def final_counts(rec):
    out = []
    for names in rec["final_hands"]:
        counts = [0] * 15
        for name in names:
            counts[card_kind(name)] += 1
        out.append(counts)
    return out


# --- the rollout entry point ------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 7])
@pytest.mark.parametrize("name", ["basic", "careful", "hold-jokers:ass_jokers=keep"])
def test_play_on_from_any_play_of_a_game_ends_as_the_engine_did(players, name):
    """From the state before any play of a recorded game (round starts and mid-round),
    play_on with the game's deterministic strategy reaches the record's final hands."""
    for index in range(4):
        rec = record(players, [name], 21, index)
        rounds = rec["rounds"]
        for r in range(0, len(rounds), 3):
            for p in sorted({0, 1 + index % (players - 1), players - 1}):
                status, final = play_on_from(state_at(rec, r, p), name)
                assert status == OK
                assert final == final_counts(rec), (index, r, p)


def test_play_on_with_random_rollouts_draws_as_the_engine():
    """From the deal, random play through play_on is the engine's game: same draws, same end."""
    for index in range(20):
        rec = record(5, ["random"], 8, index)
        rng = new_state()
        seed_state(rng, 8, index, 0)
        rng[0] = (int(rng[0]) + 109 * 0x9E3779B97F4A7C15) % 2**64  # past the deal's 109 draws
        status, final = play_on_from(state_at(rec, 0, 0), "random", rng)
        assert status == OK and final == final_counts(rec)


def test_rollout_dispatcher_holds_no_search_family():
    """A search family cannot roll out (numba compiles no recursion): its moves are illegal."""
    rec = record(4, ["basic"], 3, 0)
    for name in ("pimc", "peek"):
        status, _ = play_on_from(state_at(rec, 0, 0), name)
        assert status == rec["rounds"][0]["starter"]


# --- worlds and no peeking ----------------------------------------------------------------------


def decision_points(rec):
    """(round, play) of every play that was a choice (not a forced pass)."""
    out = []
    for r, rnd in enumerate(rec["rounds"]):
        for p, play in enumerate(rnd["plays"]):
            if not play.get("pass"):
                out.append((r, p))
    return out


positions = st.tuples(st.integers(3, 8), st.integers(0, 10**6), st.integers(0, 10**6))


def position(players, index, pick):
    """A decision of a recorded game: its full state, the decider's view, the move record."""
    rec = record(players, (["random", "careful", "basic"] * 4)[:players], 17, index)
    points = decision_points(rec)
    r, p = points[pick % len(points)]
    state = state_at(rec, r, p)
    return state, view_of(state), record_at(rec, r, p)


def known_of(rec, r, p):
    """What the record shows each seat holds before play p of round r, derived here apart
    from the engine, the reference and positions.py: every card a seat took in an ass round
    is a card it is known to hold until it plays a card of that kind (A-11); the dealt ass
    sits with the first round's starter (A-8)."""
    n = rec["players"]
    owed = [dict() for _ in range(n)]  # seat -> kind -> cards seen going in, not yet out
    owed[rec["rounds"][0]["starter"]][ASS] = 1
    for rr, rnd in enumerate(rec["rounds"][: r + 1]):
        taken = []
        for pos, play in enumerate(rnd["plays"]):
            if rr == r and pos == p:
                break
            if play.get("pass"):
                continue
            cards = [card_kind(c) for c in play["cards"]]
            taken += cards
            for kind in cards:
                if owed[play["seat"]].get(kind, 0) > 0:
                    owed[play["seat"]][kind] -= 1
        else:
            if rnd["ass_round"]:
                for kind in taken:
                    owed[rnd["winner"]][kind] = owed[rnd["winner"]].get(kind, 0) + 1
    return [[owed[s].get(kind, 0) for kind in range(15)] for s in range(n)]


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(0, 2**63), st.booleans())
def test_every_world_is_a_legal_completion(pos, draw_seed, use_known):
    """Checked card by card, apart from the sampler: every card once, sizes right (A-1, A-11)."""
    state, view, _ = position(*pos)
    n, me = state["n"], int(view[PUB_SEAT])
    rng = new_state()
    rng[0] = draw_seed
    world = np.zeros(n, dtype=np.uint64)
    pool = np.zeros(128, dtype=np.int64)
    for _ in range(3):
        sample_world(view, rng, world, 0, pool, use_known)
        hands = [unpack(h) for h in world]
        assert hands[me] == state["hands"][me]  # its own hand, unchanged
        for s in range(n):
            assert sum(hands[s]) == sum(state["hands"][s])  # the public hand sizes
        for kind in range(15):
            placed = sum(h[kind] for h in hands) + state["gone"][kind] + state["table"][kind]
            assert placed <= DECK[kind]  # no card twice; the rest is the out-of-play stack
        # the ass is always dealt, so it is in some hand or on the table
        assert sum(h[ASS] for h in hands) + state["table"][ASS] == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 8), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 2**63))
def test_a11_worlds_respect_the_known_holdings(players, index, pick, draw_seed):
    """A-11: in a game with ass rounds, a seat seen taking cards holds them (less what it
    played of each kind since) in every world; checked with known_of, apart from the engine,
    positions.py and the sampler. The known holdings are a true lower bound of every hand."""
    rec = record(players, (["careful", "basic", "random"] * 4)[:players], 23, index)
    ass_rounds = [r for r, rnd in enumerate(rec["rounds"]) if rnd["ass_round"]]
    if not ass_rounds:
        return
    points = [(r, p) for r, p in decision_points(rec) if r > ass_rounds[0]] or [(0, 0)]
    r, p = points[pick % len(points)]
    state = state_at(rec, r, p)
    view = view_of(state)
    known = known_of(rec, r, p)
    assert state["known"] == known  # positions.py derives the same
    for s in range(players):
        assert all(known[s][k] <= state["hands"][s][k] for k in range(15))  # a lower bound
        assert unpack(view[PUB_KNOWN + s]) == known[s]
    rng = new_state()
    rng[0] = draw_seed
    world = np.zeros(players, dtype=np.uint64)
    pool = np.zeros(128, dtype=np.int64)
    for _ in range(3):
        sample_world(view, rng, world, 0, pool, True)
        for s, hand in enumerate(unpack(h) for h in world):
            assert all(hand[k] >= known[s][k] for k in range(15)), (s, hand, known[s])


def test_a11_known_holdings_say_more_than_the_ass():
    """The property above is not empty: taken cards other than the ass stay known."""
    more = 0
    for index in range(10):
        rec = record(5, ["careful", "basic", "random", "basic", "careful"], 23, index)
        for r, p in decision_points(rec)[::5]:
            more += any(sum(h[1:]) for h in known_of(rec, r, p))
    assert more > 10


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a8_a11_the_ass_location_is_public(players):
    """A-8: the ass's holder starts the first round, so the deal makes it public; A-7: it
    moves only by being led and taken, which is public (A-11). So the view always shows
    where the ass is (own hand, the table or a known holding), and every world puts it there."""
    from analyzer.engines.ass.engine import (
        TRACE_WIDTH,
        canonical_deck,
        deal,
        play_game,
        variant_for,
    )
    from analyzer.games.ass.rules import AssRules

    for index in range(6):
        # the engine: at the deal the ass is known with its seat, at the end with its holder
        rules = AssRules.for_players(players)
        rng = new_state()
        seed_state(rng, 3, index, 0)
        view = np.zeros(VIEW_LEN, dtype=np.int64)
        view[PUB_KNOWN : PUB_KNOWN + 16] = 5  # stale: the deal resets it
        hands = np.zeros((players, 16), dtype=np.int64)
        starter = deal(rng, players, rules.per_player, canonical_deck().astype(np.uint8),
                       np.empty(109, np.uint8), hands, view)
        assert [int(x) for x in view[PUB_KNOWN : PUB_KNOWN + players]] == [
            1 if s == starter else 0 for s in range(players)]
        assert hands[starter, ASS] == 1
        fams, params = np.full(players, 2, dtype=np.int64), np.zeros((players, 8))
        trace = np.empty((1, TRACE_WIDTH), dtype=np.int64)
        play_game(hands, starter, -1, players, fams, params, view, rng, trace, False,
                  np.zeros(players, dtype=np.int64), variant_for(fams))
        holder = int(np.argmax(hands[:, ASS]))
        assert [int(view[PUB_KNOWN + s]) & 15 for s in range(players)] == [
            int(s == holder) for s in range(players)]
        # the record: at every decision the ass is where the view says, in every world
        rec = record(players, (["careful", "basic", "random"] * 4)[:players], 3, index)
        for r, p in decision_points(rec):
            state = state_at(rec, r, p)
            view = view_of(state)
            me = int(view[PUB_SEAT])
            holder = next((s for s in range(players) if state["hands"][s][ASS]), None)
            if holder is None:
                assert state["table"][ASS] == 1
                continue
            if holder != me:
                assert int(view[PUB_KNOWN + holder]) & 15 == 1
                world = np.zeros(players, dtype=np.uint64)
                sample_world(view, rng, world, 0, np.zeros(128, np.int64), True)
                assert unpack(world[holder])[ASS] == 1


def test_engine_reference_and_positions_agree_on_the_known_holdings():
    """Three derivations of PUB_KNOWN: the views the reference engine hands a policy at each
    decision equal positions.py's views of the engine's record there, and the engine's view
    at the end of the game holds the reference's known holdings there."""
    from analyzer.engines.ass import reference
    from analyzer.engines.ass.engine import (
        TRACE_WIDTH,
        canonical_deck,
        deal,
        play_game,
        variant_for,
    )
    from analyzer.games.ass.rules import AssRules
    from analyzer.rng import PyRng

    texts = ["careful", "basic", "set-saver", "random", "joker-dumper"]
    strategies = seat_strategies("ass", texts, 5)
    rules = AssRules.for_players(5)
    compared = 0
    for index in range(8):
        rec = record(5, texts, 12, index)
        seen = []
        original = reference.Table.view

        def capture(self, turn, starter, high_seat, on_table, original=original, seen=seen):
            view = original(self, turn, starter, high_seat, on_table)
            seen.append((self.round_number, turn.position, view.copy()))
            return view

        reference.Table.view = capture
        try:
            rng = PyRng(12, index, 0)
            hands, ass_seat = reference.deal(rules, rng)
            table = reference.Table(rules, hands, known=reference.dealt_known(5, ass_seat))
            reference.play_from(table, [reference.Player(s, rng) for s in strategies],
                                ass_seat)
        finally:
            reference.Table.view = original
        for r, p, view in seen:
            mine = view_of(state_at(rec, r, p))
            assert (view[PUB_KNOWN : PUB_KNOWN + 16] == mine[PUB_KNOWN : PUB_KNOWN + 16]).all()
            compared += 1
        state = new_state()
        seed_state(state, 12, index, 0)
        eview = np.zeros(VIEW_LEN, dtype=np.int64)
        ehands = np.zeros((5, 16), dtype=np.int64)
        start = deal(state, 5, rules.per_player, canonical_deck().astype(np.uint8),
                     np.empty(109, np.uint8), ehands, eview)
        from strategies.registry import engine_arrays

        fams, params = engine_arrays(strategies)
        play_game(ehands, start, -1, 5, fams, params, eview, state,
                  np.empty((1, TRACE_WIDTH), dtype=np.int64), False, np.zeros(5, np.int64),
                  variant_for(fams))
        assert [unpack(eview[PUB_KNOWN + s]) for s in range(5)] == table.known
        assert [list(h[:15]) for h in ehands] == table.hands
    assert compared > 100


def other_deal(state, seat, seed):
    """Another full deal that agrees with ``state`` on everything ``seat`` has seen: the
    other seats keep the cards the record shows they hold (A-11, ``known``), the rest of
    their cards are shuffled among them, sizes kept, and one of those swapped with the
    stack."""
    rnd = random.Random(seed)
    n = state["n"]
    known = state["known"]
    others = [s for s in range(n) if s != seat]
    free = [[state["hands"][s][k] - known[s][k] for k in range(15)] for s in range(n)]
    cards = [kind for s in others for kind in range(15) for _ in range(free[s][kind])]
    rnd.shuffle(cards)
    hands = [list(h) for h in state["hands"]]
    for s in others:
        size = sum(free[s])
        hands[s] = list(known[s])
        for kind in cards[:size]:
            hands[s][kind] += 1
        cards = cards[size:]
    seen = [sum(h[k] for h in hands) + state["gone"][k] + state["table"][k] for k in range(15)]
    stack = [k for k in range(1, 15) if seen[k] < DECK[k]]
    victim = next((s for s in others
                   if any(hands[s][k] > known[s][k] for k in range(1, 15))), None)
    if stack and victim is not None:
        out = rnd.choice([k for k in range(1, 15) if hands[victim][k] > known[victim][k]])
        hands[victim][out] -= 1
        hands[victim][rnd.choice(stack)] += 1
    for s in others:
        assert all(hands[s][k] >= known[s][k] for k in range(15))
    return hands


def search(name, view, hands, state_seed, log=None):
    s = parse_strategy("ass", name)
    rng = new_state()
    rng[0] = state_seed
    packed = np.array([pack(h) for h in hands], dtype=np.uint64)
    log = np.zeros((0, 14), dtype=np.int64) if log is None else log
    move = int(search_move(s.family, s.values, view.copy(), rng, packed, log))
    return move, int(rng[0])


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(0, 2**63), st.integers(0, 2**32))
def test_no_peeking_two_deals_that_agree_on_what_pimc_saw_give_the_same_move(pos, seed, shuffle):
    """A-11: pimc's decision (and its draws) depend on its view, the public move record and
    the stream only; the known holdings and the record are public, so they are shared."""
    state, view, log = position(*pos)
    hands = other_deal(state, int(view[PUB_SEAT]), shuffle)
    for name in (SMALL_VOIDS, SMALL_POLICY, SMALL_POLICY_CAREFUL, SMALL_LEARNED_4, SMALL_VALUE,
                 SMALL_VALUE_VOIDS):
        assert (search(name, view, state["hands"], seed, log)
                == search(name, view, hands, seed, log))


def test_peek_does_see_the_other_hands():
    """The no-peeking test can fail: peek, given the true hands, changes its move with them."""
    differs = 0
    for index in range(30):
        state, view, log = position(4, index, 7 * index + 3)
        hands = other_deal(state, int(view[PUB_SEAT]), index)
        differs += (search("peek", view, state["hands"], 1, log)
                    != search("peek", view, hands, 1, log))
    assert differs > 0


# --- infer=policy: worlds weighed by the opponents' past moves -----------------------------------


def mismatches(view, log, hands, name):
    """_mismatches of the world ``hands`` (counts by seat) at a recorded decision."""
    from strategies.ass.pimc import _mismatches, _record_since, rollout_strategy

    fam, pp = rollout_strategy(parse_strategy("ass", name).values[2])
    plus, minus = np.zeros(192, np.int64), np.zeros(192, np.int64)
    sizes = np.zeros(16, np.int64)
    gone = _record_since(view, log, plus, minus, sizes)
    world = np.array([pack(h) for h in hands], dtype=np.uint64)
    return int(_mismatches(view, log, world, 0, plus, minus, sizes, gone, fam, pp,
                           np.zeros(16, np.uint64), np.zeros(VIEW_LEN, np.int64),
                           np.zeros(1, np.uint64), INCONSISTENT))


@pytest.mark.parametrize("rollout,field", [("basic", "basic"), ("careful", "careful"),
                                           ("set-saver", "set-saver")])
def test_policy_inference_the_true_deal_explains_the_record(rollout, field):
    """Where the opponents play the rollout strategy, the true hands explain every one of
    their recorded decisions (no mismatch); other deals that agree on the view mostly do not.
    This holds _mismatches' replay of the record to the engine's play."""
    name = f"pimc:infer=policy,rollout={rollout}"
    other = 0
    for index in range(6):
        rec = record(4, ["random", field, field, field], 31, index)
        for r, p in decision_points(rec)[2::3]:
            if rec["rounds"][r]["plays"][p]["seat"] != 0:
                continue
            state = state_at(rec, r, p)
            view, log = view_of(state), record_at(rec, r, p)
            assert mismatches(view, log, state["hands"], name) == 0, (index, r, p)
            other += mismatches(view, log, other_deal(state, 0, r), name) > 0
    assert other > 5


def test_policy_inference_keeps_the_worlds_that_explain_the_record_best():
    """infer=policy's kept worlds have fewer mismatches than voids' worlds on the same view,
    and change pimc's moves in some positions (the knob does something)."""
    from strategies.ass.pimc import policy_worlds, rollout_strategy

    name = "pimc:infer=policy,rollout=basic"
    fam, pp = rollout_strategy(parse_strategy("ass", name).values[2])
    kept = drawn = differs = 0
    for index in range(6):
        rec = record(4, ["random", "basic", "careful", "basic"], 33, index)
        for r, p in decision_points(rec)[4::4]:
            if rec["rounds"][r]["plays"][p]["seat"] != 0:
                continue
            state = state_at(rec, r, p)
            view, log = view_of(state), record_at(rec, r, p)
            rng = new_state()
            worlds = np.zeros(17 * 4, dtype=np.uint64)
            weights = np.zeros(16, np.int64)
            policy_worlds(view, rng, log, worlds, 16, 4, np.zeros(128, np.int64), fam, pp,
                          np.zeros(VIEW_LEN, np.int64), 4, 0.5, weights)
            # eps = 0.5: a kept world weighs half per mismatch beyond the fewest
            assert weights.max() == 1 << 20 and set(weights) <= {(1 << 20) >> d
                                                                 for d in range(21)} | {0}
            for w in range(16):
                kept += mismatches(view, log, [unpack(h) for h in worlds[4 * w : 4 * w + 4]],
                                   name)
                sample_world(view, rng, worlds, 0, np.zeros(128, np.int64), True)
                drawn += mismatches(view, log, [unpack(h) for h in worlds[:4]], name)
            small = "pimc:worlds=16,candidates=6,infer="
            differs += (search(small + "voids", view, state["hands"], 5, log)[0]
                        != search(small + "policy,eps=0.5", view, state["hands"], 5, log)[0])
    assert kept < 0.8 * drawn
    assert differs > 0


# --- the search families in every path a strategy takes ---------------------------------------


@pytest.mark.parametrize(
    "players,texts",
    [
        (4, [SMALL, "basic", SMALL_PEEK, SMALL_VOIDS]),
        (4, [SMALL_POLICY, "careful", SMALL_SIZES, "set-saver"]),
        (3, [SMALL_RANDOM, "random", SMALL]),
        (6, [SMALL, "joker-dumper", SMALL_CAREFUL, SMALL_PEEK, "random", SMALL_RANDOM]),
        (5, [SMALL_POLICY_CAREFUL, "basic", SMALL_POLICY, "random", "careful"]),
        (4, [SMALL_VALUE, "learned", SMALL_VALUE_VOIDS, "careful"]),
        (7, [SMALL_VALUE_VOIDS, "basic", "random", SMALL, "careful", SMALL_VALUE, "learned"]),
    ],
)
def test_reference_engine_plays_search_games_move_for_move_like_numba(players, texts):
    for index in range(4):
        fast = record(players, texts, 40 + players, index)
        slow = play_record(40 + players, index, seat_strategies("ass", texts, players))
        assert fast == slow, index


def test_search_game_records_replay_and_pass_the_rules_check():
    for index in range(3):
        rec = record(4, [SMALL, SMALL_RANDOM, SMALL_VALUE, SMALL_POLICY], 5, index)
        assert rec["strategies"][0] == SMALL
        assert verify_record(rec) == []
        assert replay_matches(rec)


def test_search_results_do_not_depend_on_chunking_or_backend():
    spec = RunSpec("ass", 4, (SMALL_POLICY, SMALL_VALUE, SMALL_RANDOM, SMALL_PEEK), seed=13)
    base = execute(spec, 12, 3, RunOptions(backend="serial", chunk_size=12), collect_rows=True)
    for options in (RunOptions(backend="serial", chunk_size=5),
                    RunOptions(backend="threads", workers=2, chunk_size=4)):
        rows = execute(spec, 12, 3, options, collect_rows=True).rows
        pd.testing.assert_frame_equal(rows, base.rows, check_exact=True)


def test_search_families_are_registered_with_knobs_and_peek_says_it_is_no_player():
    book = catalog("ass")
    assert book["pimc"].family == PIMC and book["peek"].family == PEEK
    assert "NOT A LEGAL PLAYER" in book["peek"].description
    s = parse_strategy("ass", "pimc:rollout=random,worlds=5")
    assert s.label() == "pimc:worlds=5,rollout=random"
    assert s.describe_params()["rollout"] == "random"
    assert int(s.values[2]) >> 48 == RANDOM
    # the defaults: the value model at the leaves, 48 worlds, no inference from the moves;
    # pimc as it was is the preset pimc-rollouts
    assert parse_strategy("ass", "pimc").describe_params()["rollout"] == "value"
    assert parse_strategy("ass", "pimc").describe_params()["infer"] == "voids"
    assert parse_strategy("ass", "pimc").describe_params()["worlds"] == "48"
    assert parse_strategy("ass", "pimc-rollouts").describe_params()["rollout"] == "basic"
    assert parse_strategy("ass", "pimc-rollouts").describe_params()["infer"] == "policy"
    assert parse_strategy("ass", "pimc-rollouts").describe_params()["worlds"] == "128"
    assert parse_strategy("ass", "pimc:infer=policy").label() == "pimc:infer=policy"
    assert int(parse_strategy("ass", "pimc:infer=policy").values[3]) == INFER_POLICY
    for bad in ("pimc:rollout=pimc", "pimc:rollout=nobody", "pimc:worlds=0", "pimc:infer=all",
                "pimc:oversample=0"):
        with pytest.raises(ValueError):
            parse_strategy("ass", bad)


# --- the split joker knob (A-7: a joker in an ass round counts 1 or 14) -----------------------


def ass_round_move(name, hand):
    from analyzer.games.ass.cards import PASS, move_cards
    from strategies.ass.dispatch import decide

    s = parse_strategy("ass", name)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    for card in hand:
        view[card_kind(card)] += 1
    view[PUB_POS], view[PUB_K], view[PUB_HIGH], view[PUB_ASS_ROUND] = 1, 1, 0, 1
    view[PUB_PLAYERS], view[PUB_SEAT] = 3, 1
    view[PUB_SIZES : PUB_SIZES + 3] = (9, len(hand), 9)
    move = int(decide(s.family, s.values, view, new_state()))
    return "pass" if move == PASS else move_cards(move)


def test_a7_ass_jokers_knob_splits_throwing_from_using_jokers():
    hand = ["3", "9", "J"]
    # the jokers knob alone: the hoarder keeps its joker in ass rounds too, basic throws it
    assert ass_round_move("joker-hoarder", hand) == ["3"]
    assert ass_round_move("basic", hand) == ["J"]
    # ass_jokers overrides it in ass rounds only: hoard in normal rounds, throw here ...
    assert ass_round_move("joker-hoarder:ass_jokers=throw", hand) == ["J"]
    # ... or use jokers as needed in normal rounds and keep them here
    assert ass_round_move("heuristic:ass_jokers=keep", hand) == ["3"]
    assert ass_round_move("heuristic:ass_jokers=keep", ["J", "J"]) == ["J"]  # nothing else
    # the default (same) leaves every preset as it was
    for name, spec in catalog("ass").items():
        if "ass_jokers" in {p.name for p in spec.params}:
            assert parse_strategy("ass", name).describe_params()["ass_jokers"] == "same"


def test_ass_jokers_knob_leaves_normal_rounds_alone():
    """ass_jokers=same is the preset itself; throw/keep change ass rounds, not raises."""
    from analyzer.engines.ass import kernel

    a = kernel.play_chunk(RunSpec("ass", 5, ("joker-hoarder",), 2), 0, 300)
    b = kernel.play_chunk(RunSpec("ass", 5, ("joker-hoarder:ass_jokers=same",), 2), 0, 300)
    c = kernel.play_chunk(RunSpec("ass", 5, ("joker-hoarder:ass_jokers=throw",), 2), 0, 300)
    assert (a["minus_points"] == b["minus_points"]).all()
    assert (a["minus_points"] != c["minus_points"]).any()
    # a raise of a pair over 6 that needs a joker: the jokers knob alone decides
    for name, raise_ in (("joker-hoarder:ass_jokers=throw", "pass"),
                         ("heuristic:ass_jokers=keep", ["9", "J"])):
        assert normal_round_move(name, ["3", "9", "J"], k=2, high=6) == raise_


def normal_round_move(name, hand, k, high):
    from analyzer.games.ass.cards import PASS, move_cards
    from strategies.ass.dispatch import decide

    s = parse_strategy("ass", name)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    for card in hand:
        view[card_kind(card)] += 1
    view[PUB_POS], view[PUB_K], view[PUB_HIGH] = 1, k, high
    view[PUB_PLAYERS], view[PUB_SEAT] = 3, 1
    view[PUB_SIZES : PUB_SIZES + 3] = (9, len(hand), 9)
    move = int(decide(s.family, s.values, view, new_state()))
    return "pass" if move == PASS else move_cards(move)


def test_studies_flag_peek_as_not_a_legal_player():
    from strategies.registry import illegal_players

    assert illegal_players("ass", ["pimc", "peek:worlds=3", "basic"]) == ["peek:worlds=3"]
    assert not parse_strategy("ass", "peek").spec.legal_player
    assert parse_strategy("ass", "pimc").spec.legal_player


def test_simulate_says_peek_is_not_a_legal_player():
    from typer.testing import CliRunner

    from analyzer.cli import app

    args = ["simulate", "ass", "-n", "6", "-q", "--backend", "serial", "-s", "peek:worlds=2",
            "-s", "basic", "-s", SMALL, "-s", "basic"]
    out = CliRunner().invoke(app, args, catch_exceptions=False).output
    assert "peek:worlds=2 is NOT A LEGAL PLAYER" in out
    assert "pimc" not in out.split("NOT A LEGAL PLAYER")[0].splitlines()[-1]


# --- learned with a depth: learned's first decisions, then basic (rollout.py) ------------------


def _decision_points(rec, players):
    """Every position of a recorded game in playing order, each with whether the seat to
    move has a decision there (a lead, or a follower with at least k cards; A-6)."""
    out = []
    for r in range(len(rec["rounds"])):
        for p in range(players):
            state = state_at(rec, r, p)
            seat = (state["starter"] + p) % players
            out.append((state, p == 0 or sum(state["hands"][seat]) >= state["k"]))
    return out


@pytest.mark.parametrize("players", [3, 4, 6])
def test_learned_with_a_depth_rolls_out_learned_that_many_decisions_then_basic(players):
    """From any play of a game of learned seats, a rollout of ``learned:depth=D`` makes the
    game's next D decisions (learned is deterministic: those of the record), then basic
    plays from the state the record reaches there (play_on with basic, its own loop); a
    depth past the game's end is the learned game itself."""
    checked = 0
    for index in range(3):
        rec = record(players, ["learned"], 31, index)
        points = _decision_points(rec, players)
        for i in range(0, len(points), 4):
            for depth in (1, 2, 5, 63):
                made, j = 0, i
                while j < len(points) and made < depth:
                    made += points[j][1]
                    j += 1
                if j < len(points):
                    expected = play_on_from(points[j][0], "basic")[1]
                else:
                    expected = final_counts(rec)
                status, final = play_on_from(points[i][0], f"learned:depth={depth}")
                assert status == OK
                assert final == expected, (index, i, depth)
                checked += 1
    assert checked > 50
