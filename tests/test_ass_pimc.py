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

from analyzer.games.ass.cards import (
    ASS,
    PUB_ASS_ROUND,
    PUB_HIGH,
    PUB_K,
    PUB_PLAYERS,
    PUB_POS,
    PUB_SEAT,
    PUB_SIZES,
    VIEW_LEN,
    card_kind,
)
from analyzer.games.ass.positions import state_at, view_of
from analyzer.games.ass.records import Tracer, replay_matches, verify_record
from analyzer.games.ass.reference import play_record
from analyzer.games.ass.rollout import OK, play_on
from analyzer.games.kernel import RunSpec
from analyzer.rng import new_state, seed_state
from analyzer.runner import RunOptions, execute
from strategies.ass.catalog import PEEK, PIMC, RANDOM
from strategies.ass.pimc import sample_world, search_move
from strategies.registry import catalog, parse_strategy, seat_strategies

SMALL = "pimc:worlds=3,candidates=3"
SMALL_PEEK = "peek:worlds=2,candidates=3"
SMALL_RANDOM = "pimc:worlds=2,candidates=3,rollout=random"
SMALL_CAREFUL = "pimc:worlds=2,candidates=3,rollout=careful"
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
    rec = record(players, (["random", "careful", "basic"] * 4)[:players], 17, index)
    points = decision_points(rec)
    state = state_at(rec, *points[pick % len(points)])
    return state, view_of(state)


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(0, 2**63))
def test_every_world_is_a_legal_completion(pos, draw_seed):
    """Checked card by card, apart from the sampler: every card once, sizes right (A-1, A-11)."""
    state, view = position(*pos)
    n, me = state["n"], int(view[PUB_SEAT])
    rng = new_state()
    rng[0] = draw_seed
    world = np.zeros(n, dtype=np.uint64)
    pool = np.zeros(128, dtype=np.int64)
    for _ in range(3):
        sample_world(view, rng, world, 0, pool)
        hands = [unpack(h) for h in world]
        assert hands[me] == state["hands"][me]  # its own hand, unchanged
        for s in range(n):
            assert sum(hands[s]) == sum(state["hands"][s])  # the public hand sizes
        for kind in range(15):
            placed = sum(h[kind] for h in hands) + state["gone"][kind] + state["table"][kind]
            assert placed <= DECK[kind]  # no card twice; the rest is the out-of-play stack
        # the ass is always dealt, so it is in some hand or on the table
        assert sum(h[ASS] for h in hands) + state["table"][ASS] == 1


def other_deal(state, seat, seed):
    """Another full deal that agrees with ``state`` on everything ``seat`` has seen: the other
    seats' cards shuffled among them, sizes kept, and one of them swapped with the stack."""
    rnd = random.Random(seed)
    n = state["n"]
    others = [s for s in range(n) if s != seat]
    cards = [kind for s in others for kind in range(15) for _ in range(state["hands"][s][kind])]
    rnd.shuffle(cards)
    hands = [list(h) for h in state["hands"]]
    for s in others:
        size = sum(state["hands"][s])
        hands[s] = [0] * 15
        for kind in cards[:size]:
            hands[s][kind] += 1
        cards = cards[size:]
    seen = [sum(h[k] for h in hands) + state["gone"][k] + state["table"][k] for k in range(15)]
    stack = [k for k in range(1, 15) if seen[k] < DECK[k]]
    victim = next((s for s in others if any(hands[s][1:])), None)
    if stack and victim is not None:
        out = rnd.choice([k for k in range(1, 15) if hands[victim][k]])
        hands[victim][out] -= 1
        hands[victim][rnd.choice(stack)] += 1
    return hands


def search(name, view, hands, state_seed):
    s = parse_strategy("ass", name)
    rng = new_state()
    rng[0] = state_seed
    packed = np.array([pack(h) for h in hands], dtype=np.uint64)
    move = int(search_move(s.family, s.values, view.copy(), rng, packed))
    return move, int(rng[0])


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(0, 2**63), st.integers(0, 2**32))
def test_no_peeking_two_deals_that_agree_on_what_pimc_saw_give_the_same_move(pos, seed, shuffle):
    """A-11: pimc's decision (and its draws) depend on its view and the stream only."""
    state, view = position(*pos)
    hands = other_deal(state, int(view[PUB_SEAT]), shuffle)
    assert search(SMALL, view, state["hands"], seed) == search(SMALL, view, hands, seed)


def test_peek_does_see_the_other_hands():
    """The no-peeking test can fail: peek, given the true hands, changes its move with them."""
    differs = 0
    for index in range(30):
        state, view = position(4, index, 7 * index + 3)
        hands = other_deal(state, int(view[PUB_SEAT]), index)
        differs += search("peek", view, state["hands"], 1) != search("peek", view, hands, 1)
    assert differs > 0


# --- the search families in every path a strategy takes ---------------------------------------


@pytest.mark.parametrize(
    "players,texts",
    [
        (4, [SMALL, "basic", SMALL_PEEK, SMALL_CAREFUL]),
        (3, [SMALL_RANDOM, "random", SMALL]),
        (6, [SMALL, "joker-dumper", SMALL_CAREFUL, SMALL_PEEK, "random", SMALL_RANDOM]),
    ],
)
def test_reference_engine_plays_search_games_move_for_move_like_numba(players, texts):
    for index in range(4):
        fast = record(players, texts, 40 + players, index)
        slow = play_record(40 + players, index, seat_strategies("ass", texts, players))
        assert fast == slow, index


def test_search_game_records_replay_and_pass_the_rules_check():
    for index in range(3):
        rec = record(4, [SMALL, SMALL_RANDOM, SMALL_PEEK, SMALL_CAREFUL], 5, index)
        assert rec["strategies"][0] == SMALL
        assert verify_record(rec) == []
        assert replay_matches(rec)


def test_search_results_do_not_depend_on_chunking_or_backend():
    spec = RunSpec("ass", 4, (SMALL, "basic", SMALL_RANDOM, SMALL_PEEK), seed=13)
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
    assert parse_strategy("ass", "pimc").describe_params()["rollout"] == "basic"
    for bad in ("pimc:rollout=pimc", "pimc:rollout=nobody", "pimc:worlds=0"):
        with pytest.raises(ValueError):
            parse_strategy("ass", bad)


# --- the split joker knob (A-7: a joker in an ass round counts 1 or 14) -----------------------


def ass_round_move(name, hand):
    from analyzer.games.ass.cards import PASS, move_cards
    from strategies.ass.policies import decide

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
    from analyzer.games.ass import kernel

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
    from strategies.ass.policies import decide

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
