"""One test (at least) per Plus-Minus Jass ruling J-1..J-11, each naming its id.

Hand-built tricks check both the numba engine's primitives and the pure-Python reference.
"""

import inspect
import itertools
from collections import Counter

import numpy as np
import pytest

from analyzer.engines.jass import engine
from analyzer.engines.jass.kernel import play_chunk
from analyzer.engines.jass.records import check_record, trace_record
from analyzer.engines.jass.reference import deal_sticks, legal_cards, pay_ties, trick_winner
from analyzer.engines.kernel import RunSpec
from analyzer.games.jass.cards import (
    DEAL_TOTAL,
    N_CARDS,
    TRUMP_STRENGTH_R,
    card_points,
    cards_mask,
    mask_cards,
    parse_card,
)
from analyzer.games.jass.primitives import (
    S_FIXER,
    S_LEADER,
    S_POS,
    S_TRUMP,
    ST_SIZE,
    SearchState,
    legal_mask,
    mask_points,
)
from analyzer.games.jass.scoring import base_sticks, match_winner, settle_ties
from analyzer.rng import PyRng
from strategies.jass import policies


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def mid_trick(n: int, ruleset: str, trump: int, trick: str):
    """Engine state with ``trick`` (cards so far, seat 0 leads) played; trump fixed before the
    trick unless -1. Returns (st, trump after the trick so far)."""
    rng = np.zeros(1, dtype=np.uint64)
    work = engine.new_work()
    hands, played, taken, st = work[2], work[3], work[4], work[5]
    engine.start_deal(rng, work[1], hands, played, taken, st, np.zeros(4, np.int64), n,
                      ruleset == "swiss", n - 1, 0)
    st[S_TRUMP] = trump
    st[S_FIXER] = 0 if trump >= 0 else -1
    for pos, c in enumerate(cards(trick)):
        hands[pos] |= np.uint64(1 << c)
        engine.play_card(pos, c, hands, played, taken, st)
    return st, int(st[S_TRUMP])


def legal_both(n, ruleset, trump, trick, hand):
    """Legal cards by the engine and by the reference (they must agree), as card names."""
    st, now_trump = mid_trick(n, ruleset, trump, trick)
    h = cards(hand)
    eng = mask_cards(int(legal_mask(np.uint64(cards_mask(h)), st)))
    ref = legal_cards(h, cards(trick), now_trump, ruleset)
    assert eng == ref
    return set(eng)


B, S, R, A = range(4)


def test_J1_deck_orders_and_points():
    """J-1: 36 cards, 4 suits x 9 ranks; plain order 6..A; trump order 6 7 8 10 O K A 9 U."""
    assert N_CARDS == 36 and len(set(cards("B6 SA R10 AU"))) == 4
    trump_order = sorted(range(9), key=lambda r: TRUMP_STRENGTH_R[r])
    assert [("6", "7", "8", "9", "10", "U", "O", "K", "A")[r] for r in trump_order] == [
        "6", "7", "8", "10", "O", "K", "A", "9", "U"]
    # plain order: R7 beats R6 ... RA beats RK in a trick without trumps (J-7 uses this order)
    assert trick_winner(cards("R6 RA RK R10"), -1) == 1
    assert trick_winner(cards("RU R9 RA RK"), R) == 0 and trick_winner(cards("R9 RA"), R) == 0


def test_J2_deal_packets_of_three_in_playing_order():
    """J-2: every card dealt, 9 each (4 players) / 12 each (3), packets of three in playing
    order from the player after the dealer (reproduced from the stream by hand)."""
    for n in (3, 4):
        rec = trace_record(RunSpec("jass", n, ("basic",), seed=11), 3)
        rng = PyRng(11, 3, 0)
        dealer = rng.randbelow(n)
        assert dealer == rec["first_dealer"] == rec["deals"][0]["dealer"]
        deck = list(range(36))
        for i in range(35, 0, -1):
            j = rng.randbelow(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        expected = [[] for _ in range(n)]
        for k, c in enumerate(deck):
            expected[(dealer + 1 + (k // 3) % n) % n].append(c)
        hands = [sorted(cards(" ".join(h))) for h in rec["deals"][0]["hands"]]
        assert hands == [sorted(h) for h in expected]
        assert all(len(h) == 36 // n for h in hands)


def test_J3_seats_dealer_rotation_and_single_deal_seats():
    """J-3: in a match seats are fixed and the deal passes one seat on in playing order; in a
    single deal seat n-1 deals and seat 0 leads the first trick."""
    rec = trace_record(RunSpec("jass", 4, ("basic",), seed=5), 0)
    dealers = [d["dealer"] for d in rec["deals"]]
    assert dealers == [(rec["first_dealer"] + k) % 4 for k in range(len(dealers))]
    assert all(d["tricks"][0]["leader"] == (d["dealer"] + 1) % 4 for d in rec["deals"])
    single = trace_record(RunSpec("jass", 3, ("basic",), seed=5, mode="deals"), 8)
    assert single["deals"][0]["dealer"] == 2 and single["deals"][0]["tricks"][0]["leader"] == 0
    # first dealers are drawn uniformly from the match's stream
    first = play_chunk(RunSpec("jass", 4, ("basic",), seed=1), 0, 400)["first_dealer"][::4]
    assert min(np.bincount(first, minlength=4)) > 60


def test_J4_leader_any_card_and_winner_leads_next():
    """J-4: the leader may play any card; the trick's winner leads the next trick."""
    assert legal_both(4, "seed", S, "", "B6 SU RA") == set(cards("B6 SU RA"))
    rec = trace_record(RunSpec("jass", 4, ("random",), seed=2), 1)
    for d in rec["deals"]:
        for a, b in zip(d["tricks"], d["tricks"][1:], strict=False):
            assert b["leader"] == a["winner"]
    assert check_record(rec) == []


def test_J5_follow_suit_and_first_discard_fixes_trump():
    """J-5: follow suit if possible, else any card; the first off-suit card fixes trump, counts
    as trump in its own trick, and J-6 governs the rest of that trick."""
    assert legal_both(4, "seed", -1, "R6", "R9 B6 AA") == set(cards("R9"))
    assert legal_both(4, "seed", -1, "R6", "B6 AA") == set(cards("B6 AA"))
    st, trump = mid_trick(4, "seed", -1, "R6 B6")
    assert trump == B and st[S_FIXER] == 1
    # the next player holds roses and bells: follow roses or over-trump B6, never under-trump
    assert legal_both(4, "seed", -1, "R6 B6", "R7 B7 AK") == set(cards("R7 B7"))
    assert legal_both(4, "seed", -1, "R9 B7", "RA B6 AK") == set(cards("RA"))
    # the fixing card wins its trick against higher cards of the led suit
    assert trick_winner(cards("R6 B6 RA RK"), B) == 1


@pytest.mark.parametrize("ruleset", ["seed", "swiss"])
def test_J6_trump_led(ruleset):
    """J-6: trump led: a trump must be played if held; swiss: a bare trump Under is not forced."""
    assert legal_both(4, ruleset, A, "A6", "A7 B6 SK") == set(cards("A7"))
    assert legal_both(4, ruleset, A, "A6", "B6 SK") == set(cards("B6 SK"))
    if ruleset == "seed":
        assert legal_both(4, ruleset, A, "A6", "AU B6 SK") == set(cards("AU"))
    else:
        assert legal_both(4, ruleset, A, "A6", "AU B6 SK") == set(cards("AU B6 SK"))
    assert legal_both(4, ruleset, A, "A6", "AU A9 B6") == set(cards("AU A9"))


@pytest.mark.parametrize("ruleset", ["seed", "swiss"])
def test_J6_plain_led_no_trump_in_trick(ruleset):
    """J-6: plain suit led, no trump yet: follow or trump (even when able to follow); void in
    the led suit: any card."""
    assert legal_both(4, ruleset, A, "R6", "R9 A6 BK") == set(cards("R9 A6"))
    assert legal_both(4, ruleset, A, "R6 R7", "R9 A6 BK") == set(cards("R9 A6"))
    assert legal_both(4, ruleset, A, "R6", "A6 BK") == set(cards("A6 BK"))


def test_J6_seed_plain_led_with_trump_in_trick():
    """J-6 (seed): with a trump in the trick: holding the led suit, follow or over-trump;
    void: over-trump if possible, else under-trump, else anything."""
    trick = "R6 AA"  # acorns are trump, the Ace of trumps is in the trick
    assert legal_both(4, "seed", A, trick, "R9 A9 A6 BK") == set(cards("R9 A9"))
    assert legal_both(4, "seed", A, trick, "A9 A6 BK") == set(cards("A9"))
    assert legal_both(4, "seed", A, trick, "A6 A7 BK") == set(cards("A6 A7"))
    assert legal_both(4, "seed", A, trick, "BK S6") == set(cards("BK S6"))


def test_J6_swiss_plain_led_with_trump_in_trick():
    """J-6 (swiss): with a trump in the trick: holding the led suit, follow or over-trump;
    void: anything but an under-trump; holding nothing but trumps: any of them."""
    trick = "R6 AA"
    assert legal_both(4, "swiss", A, trick, "R9 A9 A6 BK") == set(cards("R9 A9"))
    assert legal_both(4, "swiss", A, trick, "A9 A6 BK") == set(cards("A9 BK"))
    assert legal_both(4, "swiss", A, trick, "A6 A7 BK") == set(cards("BK"))
    assert legal_both(4, "swiss", A, trick, "A6 A7") == set(cards("A6 A7"))
    assert legal_both(4, "swiss", A, trick, "BK S6") == set(cards("BK S6"))


def test_J7_highest_trump_else_highest_of_led_suit():
    """J-7: the highest trump wins; without a trump the highest card of the led suit."""
    assert trick_winner(cards("R6 RA BA SA"), A) == 1  # off-suit aces do not win
    assert trick_winner(cards("R6 RA A6 AU"), A) == 3
    assert trick_winner(cards("A9 AA AK"), A) == 0  # trump 9 over trump Ace
    st, _ = mid_trick(4, "seed", A, "R6 RA A6 AU")
    assert st[S_LEADER] == 3  # the engine agrees: the trump Under's seat leads next


def scripted_deal(hands: list[list[int]], script: list[str], fam: int = 0,
                  ruleset: str = "seed"):
    """Engine deal from given hands (seat 0 leads): the scripted cards first (each checked
    legal), then ``fam`` plays the rest. Returns (st, points, taken)."""
    n = len(hands)
    work = engine.new_work()
    rng, deck, h, played, taken, st = work[:6]
    engine.start_deal(rng, deck, h, played, taken, st, np.zeros(4, np.int64), n,
                      ruleset == "swiss", n - 1, 0)
    for i in range(4):
        h[i] = np.uint64(cards_mask(hands[i])) if i < n else np.uint64(0)
    for name in script:
        seat = (st[S_LEADER] + st[S_POS]) % n
        c = parse_card(name)
        assert int(legal_mask(h[seat], st)) >> c & 1, f"{name} is not legal for seat {seat}"
        engine.play_card(seat, c, h, played, taken, st)
    fams = np.full(n, fam, dtype=np.int64)
    memo = np.full(4, -1, dtype=np.int64)
    status = engine.run_deal(fams, np.zeros((n, 8)), rng, h, played, taken, st, memo, None,
                             None, False, -1)
    assert status == engine.DONE
    points = np.zeros(4, dtype=np.int64)
    engine.deal_points(taken, st, points)
    return st, [int(p) for p in points[:n]], taken


def test_J8_points_retroactive_trump_and_no_trump_eights():
    """J-8: card values; points counted with the final trump (a trump Under won before trump
    was fixed counts 20); with no trump at all every 8 counts 8; the last trick +5; 157."""
    assert card_points(parse_card("AU"), A) == 20 and card_points(parse_card("AU"), B) == 2
    assert card_points(parse_card("A9"), A) == 14 and card_points(parse_card("R8"), -1) == 8
    assert card_points(parse_card("R8"), A) == 0
    full = np.uint64((1 << 36) - 1)
    for trump in (-1, 0, 1, 2, 3):
        assert mask_points(full, trump) + 5 == DEAL_TOTAL
    # Seat 0 wins AU in trick 1 (acorns are plain then); seat 1 fixes acorns in trick 2.
    hands = [cards("AU B6 B7 B8 S6 S7 S8 R6 R7"), cards("A6 A9 S9 S10 SU SO R8 R9 R10"),
             cards("A7 AA AK B9 B10 BU SK SA RU"), cards("A8 A10 AO BO BK BA RO RK RA")]
    st, points, taken = scripted_deal(hands, ["AU", "A6", "A7", "A8", "B6", "A9"])
    assert st[S_TRUMP] == A and st[S_FIXER] == 1 and sum(points) == DEAL_TOTAL
    won0 = mask_cards(int(taken[0]))
    assert parse_card("AU") in won0
    last_bonus = 5 if st[engine.S_LAST_WINNER] == 0 else 0
    others = sum(card_points(c, A) for c in won0 if c != parse_card("AU"))
    assert points[0] - others - last_bonus == 20  # counted as the trump Under, not as 2
    # No trump ever: three players with three cards of every suit always follow suit.
    hands = [[s * 9 + r for s in range(4) for r in (k, k + 3, k + 6)] for k in range(3)]
    st, points, taken = scripted_deal(hands, [])
    assert st[S_TRUMP] == -1 and sum(points) == DEAL_TOTAL  # the four 8s count 8 each
    eights = [c for c in range(36) if c % 9 == 2]
    holder = [i for i in range(3) if int(taken[i]) >> eights[0] & 1][0]
    assert points[holder] >= 8


def test_J8_retroactive_trump_found_in_play():
    """J-8: in simulated deals where the final trump's Under was won before trump was fixed,
    the record's points count it 20 (check_record recomputes every deal's points)."""
    found = 0
    spec = RunSpec("jass", 4, ("random",), seed=3, mode="deals")
    for i in range(400):
        rec = trace_record(spec, i)
        d = rec["deals"][0]
        if d["trump"] is None:
            continue
        under = d["trump"] + "U"
        for t in d["tricks"]:
            fixed_here = any(c[0] != t["cards"][0][0] for c in t["cards"])
            if under in t["cards"] and not fixed_here:
                found += 1
                assert check_record(rec) == []
                assert d["points"][t["winner"]] >= 20
            if fixed_here:
                break
    assert found > 0


def _engine_sticks(points):
    n = len(points)
    award = np.zeros(4, dtype=np.int64)
    newties = np.zeros(4, dtype=np.int64)
    nt = base_sticks(np.array(points, dtype=np.int64), n, award, newties)
    ties = [(int(newties[2 * k]), int(newties[2 * k + 1])) for k in range(nt)]
    ref_award, ref_ties = deal_sticks(list(points))
    assert list(award[:n]) == ref_award and ties == ref_ties
    return ref_award, ref_ties


def test_J9_cases_one_two_three():
    """J-9: case 1 (all but one equal: 2 sticks), case 2 (someone >= 100: fewest 1 stick),
    case 3 (most and fewest 1 each); with 3 players any two-way tie is case 1."""
    assert _engine_sticks([40, 40, 40, 37]) == ([0, 0, 0, 2], [])
    assert _engine_sticks([20, 37, 20, 80]) == ([0, 0, 0, 1], [(0, 2)])
    assert _engine_sticks([100, 20, 30, 7]) == ([0, 0, 0, 1], [])
    assert _engine_sticks([60, 20, 30, 47]) == ([1, 1, 0, 0], [])
    # 3 players: a two-way tie is case 1, the third gets 2 even with the fewest points
    assert _engine_sticks([60, 60, 37]) == ([0, 0, 2], [])
    assert _engine_sticks([10, 10, 137]) == ([0, 0, 2], [])
    assert _engine_sticks([100, 40, 17]) == ([0, 0, 1], [])
    assert _engine_sticks([80, 40, 37]) == ([1, 0, 1], [])


def test_J9_four_player_ties_are_remembered():
    """J-9: with 4 players a two-way tie for the most (case 3) or the fewest (cases 2, 3)
    gives that stick to nobody and is remembered."""
    assert _engine_sticks([50, 50, 30, 27]) == ([0, 0, 0, 1], [(0, 1)])  # most tied
    assert _engine_sticks([20, 57, 20, 60]) == ([0, 0, 0, 1], [(0, 2)])  # fewest tied
    assert _engine_sticks([110, 20, 20, 7]) == ([0, 0, 0, 1], [])  # case 2, no tie
    assert _engine_sticks([117, 20, 10, 10]) == ([0, 0, 0, 0], [(2, 3)])  # case 2, tie


def test_J9_engine_sticks_match_the_reference_on_every_pattern_of_equal_points():
    """J-9: the engine's case tests (written without early exits, issue 13) give the
    reference's sticks and ties for every 3- and 4-player pattern of equal and unequal points,
    each value below, at or above the 100 of case 2."""
    values = (0, 7, 20, 50, 100, 117)
    for n in (3, 4):
        for points in itertools.product(values, repeat=n):
            _engine_sticks(points)


def _run_ties(deals):
    """Engine and reference tie memory over a sequence of deals' points; returns the
    per-deal (award + bonus) and checks that both agree."""
    n = len(deals[0])
    ties = np.zeros((4, 4), dtype=np.int64)
    pending = Counter()
    out = []
    for pts in deals:
        award = np.zeros(4, dtype=np.int64)
        bonus = np.zeros(4, dtype=np.int64)
        newties = np.zeros(4, dtype=np.int64)
        nt = base_sticks(np.array(pts, dtype=np.int64), n, award, newties)
        settle_ties(award, bonus, ties, newties, nt, n)
        ref_award, ref_new = deal_sticks(list(pts))
        ref_bonus = pay_ties(pending, ref_award, ref_new)
        assert list(bonus[:n]) == ref_bonus
        out.append([int(award[i] + bonus[i]) for i in range(n)])
    return out


def test_J9_remembered_tie_pays_once_to_the_one_awarded():
    """J-9: the tie pays one extra stick the next time exactly one of the pair is awarded a
    stick, then is forgotten; not in the deal that made it; not while both or neither get one."""
    tie = [50, 50, 30, 27]  # seats 0, 1 tie for the most; seat 3 gets the fewest stick
    both = [60, 20, 40, 37]  # seat 0 most, seat 1 fewest: both awarded -> tie stays
    one = [20, 30, 60, 47]  # seat 2 most, seat 0 fewest: seat 0 alone of the pair
    assert _run_ties([tie, both]) == [[0, 0, 0, 1], [1, 1, 0, 0]]
    assert _run_ties([tie, one]) == [[0, 0, 0, 1], [2, 0, 1, 0]]
    # after paying, the tie is gone: a further award to seat 0 brings no bonus
    assert _run_ties([tie, one, one]) == [[0, 0, 0, 1], [2, 0, 1, 0], [1, 0, 1, 0]]
    # neither awarded: it stays and pays later
    none_of_pair = [30, 30 + 7, 60, 30]  # seats 2 most, 0 and 3 tie fewest
    out = _run_ties([tie, [40, 45, 60, 12], [60, 20, 40, 37], [20, 30, 60, 47]])
    assert out == [[0, 0, 0, 1], [0, 0, 1, 1], [1, 1, 0, 0], [2, 0, 1, 0]]
    assert _run_ties([tie, none_of_pair])[1] == [0, 0, 1, 0]


def test_J9_same_pair_twice_pays_two_and_not_in_the_making_deal():
    """J-9: the same pair tying twice leaves two ties that pay together; a tie cannot pay in
    the deal that made it."""
    tie = [50, 50, 30, 27]
    pay = [70, 20, 40, 27]  # seat 0 most, seat 1 fewest: both of the pair awarded, no payout
    pay0 = [70, 25, 40, 22]  # seat 0 most, seat 3 fewest: only seat 0 of the pair
    assert _run_ties([tie, tie, pay0]) == [[0, 0, 0, 1], [0, 0, 0, 1], [3, 0, 0, 1]]
    assert _run_ties([tie, pay])[1] == [1, 1, 0, 0]
    # the deal that makes a tie pays nothing for it
    assert _run_ties([[50, 50, 20, 37]]) == [[0, 0, 1, 0]]


def test_J9_bonus_counts_at_once_in_a_match():
    """J-9/J-10: bonus sticks count at once; matches report them, totals add up."""
    out = play_chunk(RunSpec("jass", 4, ("random",), seed=9), 0, 300)
    assert out["bonus_sticks"].sum() > 0
    for i in range(0, 40):
        rec = trace_record(RunSpec("jass", 4, ("random",), seed=9), i)
        assert check_record(rec) == []
        bonus = [sum(d["bonus"][s] for d in rec["deals"]) for s in range(4)]
        assert bonus == list(out["bonus_sticks"][4 * i: 4 * i + 4])


def test_J10_match_end_tie_and_cap():
    """J-10: 7 or more sticks and more than every other player wins; a tie at the top plays
    on; a capped match reports capped and no winner."""
    assert match_winner(np.array([7, 6, 0, 0]), 4) == 0
    assert match_winner(np.array([7, 7, 0, 0]), 4) == -1  # tie at the top: another deal
    assert match_winner(np.array([8, 7, 9]), 3) == 2
    assert match_winner(np.array([6, 5, 0, 0]), 4) == -1
    out = play_chunk(RunSpec("jass", 4, ("basic",), seed=4), 0, 500)
    sticks = out["sticks"].reshape(-1, 4)
    won = out["won"].reshape(-1, 4)
    for row, w in zip(sticks, won, strict=True):
        top = row.max()
        assert top >= 7 and (row == top).sum() == 1 and w[row.argmax()] and w.sum() == 1
    capped = play_chunk(RunSpec("jass", 3, ("basic",), seed=4, rules={"deal_cap": 2}), 0, 50)
    assert capped["capped"].all() and (capped["winner"] == -1).all()
    assert (capped["deals"] == 2).all() and not capped["won"].any()
    # a match that reached a tie at 7+ went on to break it
    recs = [trace_record(RunSpec("jass", 4, ("random",), seed=21), i) for i in range(60)]
    tied = [r for r in recs if any(
        max(d["totals"]) >= 7 and d["totals"].count(max(d["totals"])) > 1 for d in r["deals"])]
    assert tied and all(check_record(r) == [] for r in tied)


def test_J11_strategies_see_only_their_hand_and_the_public_record():
    """J-11: the policy signature carries the own hand and public state only; the public
    state the engine builds does not depend on how the unseen cards lie."""
    params = list(inspect.signature(policies.choose_card.py_func).parameters)
    assert params == ["fam", "prm", "seat", "hand", "legal", "st", "played", "taken", "rng",
                      "aim"]
    assert "hands" not in params
    from analyzer.engines.jass.reference import ReferenceJass, _Deal
    from analyzer.games.jass.rules import make_rules
    from strategies.registry import seat_strategies

    ref = ReferenceJass(make_rules(4), seat_strategies("jass", ["basic"], 4))
    hands = [list(range(k * 9, k * 9 + 9)) for k in range(4)]
    d = _Deal(4, 3, hands)
    view_a = ref._view(d, [0, 0, 0, 0], 0)
    d.hands[1], d.hands[2] = d.hands[2], d.hands[1]  # swap two hidden hands
    assert np.array_equal(view_a, ref._view(d, [0, 0, 0, 0], 0))
    shown = SearchState(view_a)
    assert len(view_a) == ST_SIZE and (shown.n, shown.swiss, shown.ntricks) == (4, 0, 9)


def test_J9_sticks_in_words_name_ties_and_never_give_a_tied_stick():
    """J-9 explained (replays, the report's sample deal): a tie for the fewest points past 100
    is remembered and nobody gets that stick; case 1 gives two sticks; words agree with
    deal_sticks on who gets what."""
    from analyzer.games.jass.sticks import deal_sticks, explain_sticks

    text = explain_sticks([11, 0, 0, 146])
    assert "seats 1 and 2 tie for the fewest points at 0: remembered, no stick" in text
    assert "goes to" not in text and "case 2" in text
    assert explain_sticks([40, 40, 40, 37]).endswith("seat 3 gets 2 sticks (J-9 case 1)")
    for points in ([60, 50, 30, 17], [60, 60, 20, 17], [80, 40, 37], [100, 20, 17, 20]):
        award, ties = deal_sticks(points)
        text = explain_sticks(points)
        for seat, k in enumerate(award):
            if k:
                assert f"seat {seat} has" in text and f"({points[seat]}): 1 stick" in text
        for a, b in ties:
            assert f"seats {a} and {b} tie" in text
