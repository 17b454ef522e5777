"""The ``learned`` family of Plus-Minus Jass: a small neural network over (information state,
card) features, trained from ``pimc``'s per-card values, evaluated inside the numba kernels.

What the model sees (ruling J-11): the decider's own hand and the public state: the trick so
far, the trump once fixed, who showed out of which suit (``S_VOID``), the cards each seat has
played and won (``played``, ``taken``). Never another hand (the policies are not given
one), nor ``S_BAN`` (only the search's play loops keep it).

The decision. Every legal card gets :data:`N_FEATURES` inputs (:func:`features`):
:data:`BASE` facts of the card and :data:`CONTEXTS` facts of the deal, and a score: the
network of the decision's *phase* (leading, following with trump fixed, following before
trump is fixed: there a card off the led suit fixes trump, so the model chooses trump by the
card it plays), one hidden layer of :data:`HIDDEN` rectified units (:func:`choose`). The
score predicts the card's value (the sticks the deal brings the decider, as ``pimc``
measures it) relative to the decision's other cards; the move is the card with the
highest score, ties to the lower card index. No aim (:func:`begin_deal` gives none) and no
random draws: a learned seat replays identically from (seed, index) and never touches the
game's stream.

The weights (strategies/jass/learned_weights.py) are read once per process into
:data:`WEIGHTS` (with ``model=leaf``: :data:`LEAF_WEIGHTS`, the network ``pimc``'s value
leaves play); the kernels play with :data:`KERNEL_WEIGHTS` (:data:`LEAF_KERNEL_WEIGHTS`),
the same in the order the compiled network reads them, subnormal entries zero
(:func:`kernel_layout`: the same choices; subnormal arithmetic is some hundred times slower),
which numba freezes into the compiled code (analyzer/numba_env.py hashes the weights files
with the sources, so new weights recompile).

:func:`features_py` and :func:`choose_py` are the same model in plain Python over card
lists, written apart from the jitted code, for the reference engine
(analyzer/engines/jass/reference.py) and the tests.
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import popcount
from analyzer.games.jass.cards import (
    BIT,
    HIGHER_TRUMP,
    M9,
    N_RANKS,
    PLAIN_POINTS_R,
    PTS9_PLAIN,
    PTS9_TRUMP,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SHIFT,
    TRUMP_POINTS_R,
    TRUMP_STRENGTH_R,
)
from analyzer.games.jass.primitives import (
    S_LED,
    S_N,
    S_NTRICKS,
    S_POS,
    S_TRICK,
    S_TRUMP,
    U0,
    U1,
    beats_best,
    card_value,
    lowest_card,
    mask_points,
    suit_count,
    trick_points,
)
from analyzer.numba_compat import njit_no_runtime
from analyzer.rows import relu_layer_finish, relu_layer_start
from analyzer.stack import stack_float64
from strategies.jass.knobs import P_MODEL
from strategies.jass.learned_weights import (  # noqa: F401  (re-exported for callers)
    BASE,
    CONTEXTS,
    FEATURE_SET,
    FOLLOW,
    HIDDEN,
    KERNEL_WEIGHTS,
    LEAD,
    LEAF_KERNEL_WEIGHTS,
    LEAF_WEIGHTS,
    MODEL_LEAF,
    N_FEATURES,
    N_PARAMS,
    OPEN,
    PHASES,
    WEIGHTS,
    WEIGHTS_ERROR,
    check_weights,
    kernel_layout,
    load_weights,
    weights_digest,
)
from strategies.jass.public import keeps_the_lead, own_strength, unseen_cards

# --- the model, jitted ------------------------------------------------------------------------


@njit_no_runtime(inline="always")
def phase_of(st):
    """LEAD, FOLLOW (trump fixed) or OPEN (following before trump is fixed)."""
    if st[S_POS] == 0:
        return LEAD
    return FOLLOW if st[S_TRUMP] >= 0 else OPEN


@njit_no_runtime(inline="always")
def context(seat, hand, st, taken):
    """The CONTEXTS facts of the deal (one per decision), points counted with the trump as
    it stands: 1; the seat's points won so far / 100; the most another seat has won / 100;
    the fewest / 100; the points in its hand / 100; the tricks left / the deal's tricks; it
    has won more than every other seat; it has won less than every other seat; another seat
    has won 60 or more; 3 players."""
    n = st[S_N]
    trump = st[S_TRUMP]
    mine = mask_points(taken[seat], trump)
    most = 0
    fewest = 1 << 20
    for i in range(n):
        if i != seat:
            p = mask_points(taken[i], trump)
            most = max(most, p)
            fewest = min(fewest, p)
    ntr = st[S_NTRICKS]
    return (1.0, mine / 100.0, most / 100.0, fewest / 100.0, mask_points(hand, trump) / 100.0,
            (ntr - st[S_TRICK]) / ntr, 1.0 if mine > most else 0.0,
            1.0 if mine < fewest else 0.0, 1.0 if most >= 60 else 0.0,
            1.0 if n == 3 else 0.0)


@njit_no_runtime(inline="always")
def base_features(hand, st, unseen, card, tp):
    """The BASE facts of ``card`` (``unseen``: the cards in no hand of the decider's and not
    played; ``tp``: the points of the trick so far, ``trick_points(st)``, which the caller
    counts once for the decision's cards). With t the trump after the card (the card's suit
    when it fixes trump):

    0 it takes the lead in the trick (following only); 1 that times the trick's points with
    it / 30; 2 its points under t / 20; 3 the record proves it wins the trick (trump fixed,
    or last to play); 4 that times the points / 30; 5 it is a trump (under t); 6 it fixes
    trump; 7 fixing: the trump points of that suit in the hand / 50; 8 fixing: the hand's
    cards of that suit / 9; 9 its strength in its own order (trumps above plain) / 17;
    10 unseen cards above it in its suit (higher trumps for a trump) / 9; 11 a plain card
    while trumps are unseen; 12 the hand's other cards of its suit / 9; 13 it is the last of
    its suit in the hand; 14 it takes the lead in the last trick (5 more points); 15 it takes
    the lead with seats still to play, times their share; 16 the points of the unseen cards
    of its suit (under t) / 30; 17 it is the lowest card of its suit in the hand.
    """
    n = st[S_N]
    pos = st[S_POS]
    trump = st[S_TRUMP]
    s = SUIT_OF[card]
    fixes = trump < 0 and pos > 0 and s != st[S_LED]
    t = s if fixes else trump
    cp = card_value(card, t)
    beats = beats_best(card, st)  # always on a lead
    wins = 0.0
    pts = 0.0
    if pos > 0:
        if beats:
            wins = 1.0
        pts = (tp + cp) / 30.0
    sure = 0.0
    if (trump >= 0 or pos == n - 1) and beats and keeps_the_lead(card, st, unseen):
        sure = 1.0  # sure_winner, its beats_best found above
    is_trump = 1.0 if s == t else 0.0
    fix = 1.0 if fixes else 0.0
    fix_pts = 0.0
    fix_len = 0.0
    if fixes:
        fix_pts = PTS9_TRUMP[(hand >> SUIT_SHIFT[s]) & M9] / 50.0
        fix_len = suit_count(hand, s) / 9.0
    if s == t:
        above = unseen & HIGHER_TRUMP[t, TRUMP_STRENGTH_R[RANK_OF[card]] + 1]
    else:
        above = unseen & SUIT_MASK[s] & ~((BIT[card] << U1) - U1)
    trumped = 0.0
    if t >= 0 and s != t and (unseen & SUIT_MASK[t]) != U0:
        trumped = 1.0
    left = suit_count(hand, s) - 1
    last = 1.0 if st[S_TRICK] == st[S_NTRICKS] - 1 else 0.0
    rest = (n - 1 - pos) / (n - 1)
    # the points of the unseen cards of its suit under t (every suit plain with none):
    # mask_points of those cards, their suit's nine bits the only ones set
    nine = (unseen >> SUIT_SHIFT[s]) & M9
    suit_pts = PTS9_TRUMP[nine] if s == t else PTS9_PLAIN[nine]
    lowest = 1.0 if (hand & SUIT_MASK[s] & ((BIT[card]) - U1)) == U0 else 0.0
    return (wins, wins * pts, cp / 20.0, sure, sure * pts, is_trump, fix, fix_pts, fix_len,
            own_strength(card, t) / 17.0, popcount(above) / 9.0, trumped, left / 9.0,
            1.0 if left == 0 else 0.0, wins * last, wins * rest, suit_pts / 30.0, lowest)


def _bits(*inputs: int) -> int:
    return sum(1 << d for d in inputs)


# The BASE inputs that are 0.0 for every card in a phase's decisions (by base_features; a
# test checks it), which choose skips: leading, no card takes the lead in a trick, none
# carries a trick's points and none fixes trump (0, 1, 4, 6, 7, 8, 14, 15); following with
# trump fixed, none fixes it (6, 7, 8); following before it is fixed, a card either fixes
# trump or stays plain with no trump to beat it (11).
ZERO_INPUTS = np.zeros(3, dtype=np.int64)
ZERO_INPUTS[LEAD] = _bits(0, 1, 4, 6, 7, 8, 14, 15)
ZERO_INPUTS[FOLLOW] = _bits(6, 7, 8)
ZERO_INPUTS[OPEN] = _bits(11)


@njit_no_runtime()
def features(seat, hand, st, played, taken, card, out, at):
    """The N_FEATURES inputs of the model for ``card`` and ``seat`` into ``out[at:]``: the
    BASE facts of the card, then the CONTEXTS facts of the deal."""
    ctx = context(seat, hand, st, taken)
    b = base_features(hand, st, unseen_cards(hand, played, st[S_N]), card, trick_points(st))
    for k in range(BASE):
        out[at + k] = b[k]
    for j in range(CONTEXTS):
        out[at + BASE + j] = ctx[j]


@njit_no_runtime()
def choose(seat, hand, legal, st, played, taken, weights):
    """The legal card with the highest score under ``weights`` (in :func:`kernel_layout`; ties
    to the lower index). The network (analyzer/rows.py): each hidden unit sums its bias and
    the CONTEXTS inputs once for the decision, then each card's BASE inputs, in the order
    :func:`choose_py` sums them."""
    if (legal & (legal - U1)) == U0:
        return lowest_card(legal)
    ctx = context(seat, hand, st, taken)
    unseen = unseen_cards(hand, played, st[S_N])
    phase = phase_of(st)
    at = phase * N_PARAMS
    start = stack_float64(32)  # HIDDEN or more
    acc = stack_float64(32)
    relu_layer_start(start, weights, at, HIDDEN, BASE, ctx, CONTEXTS)
    zero = ZERO_INPUTS[phase]
    tp = trick_points(st)
    best = -1
    best_score = 0.0
    m = legal
    while m != U0:
        c = lowest_card(m)
        m &= m - U1
        total = relu_layer_finish(start, acc, weights, at, HIDDEN,
                                  base_features(hand, st, unseen, c, tp), BASE, N_FEATURES,
                                  zero)
        if best < 0 or total > best_score:
            best = c
            best_score = total
    return best


@njit_no_runtime()
def learned_card(prm, seat, hand, legal, st, played, taken):
    """The ``learned`` policy (J-11: its hand and the public state): the network of
    learned.json, or with ``model=leaf`` (``learned-leaf``) that of learned-leaf.json."""
    if prm[P_MODEL] == MODEL_LEAF:
        return choose(seat, hand, legal, st, played, taken, LEAF_KERNEL_WEIGHTS)
    return choose(seat, hand, legal, st, played, taken, KERNEL_WEIGHTS)


# --- the same model in plain Python (the reference engine's twin) ------------------------------


def _cards(mask) -> list[int]:
    mask = int(mask)
    return [c for c in range(4 * N_RANKS) if (mask >> c) & 1]


def _trump_order(card: int) -> int:
    return int(TRUMP_STRENGTH_R[card % N_RANKS])


def _points(card: int, trump: int) -> int:
    table = TRUMP_POINTS_R if card // N_RANKS == trump else PLAIN_POINTS_R
    return int(table[card % N_RANKS])


def _points_of(cards: list[int], trump: int) -> int:
    """Card points with the trump as it stands (-1: no trump, every 8 counts 8: J-8)."""
    if trump < 0:
        return sum(8 if c % N_RANKS == 2 else _points(c, -1) for c in cards)
    return sum(_points(c, trump) for c in cards)


def _beats(card: int, trick: list[int], trump: int) -> bool:
    """Would ``card`` take the lead in ``trick`` (J-5, J-7), trump as it stands?"""
    if not trick:
        return True
    led = trick[0] // N_RANKS
    s = card // N_RANKS
    if trump < 0:
        if s != led:
            return True
        return card % N_RANKS > max(c % N_RANKS for c in trick)
    trumps = [_trump_order(c) for c in trick if c // N_RANKS == trump]
    if s == trump:
        return not trumps or _trump_order(card) > max(trumps)
    if trumps or s != led:
        return False
    return card % N_RANKS > max(c % N_RANKS for c in trick if c // N_RANKS == led)


def features_py(seat: int, hand, st, played, taken, card: int) -> list[float]:
    """:func:`features` in plain Python (same definitions, written over again)."""
    n, pos, trump = int(st[S_N]), int(st[S_POS]), int(st[S_TRUMP])
    from analyzer.games.jass.primitives import S_LEADER, S_TCARD, S_VOID

    mine = _cards(hand)
    trick = [int(st[S_TCARD + i]) for i in range(pos)]
    gone = set(mine)
    for p in range(n):
        gone |= set(_cards(played[p]))
    unseen = [c for c in range(4 * N_RANKS) if c not in gone]
    won = [_points_of(_cards(taken[p]), trump) for p in range(n)]
    others = [won[p] for p in range(n) if p != seat]
    ntr = int(st[S_NTRICKS])
    ctx = [1.0, won[seat] / 100.0, max(others) / 100.0, min(others) / 100.0,
           _points_of(mine, trump) / 100.0, (ntr - int(st[S_TRICK])) / ntr,
           float(won[seat] > max(others)), float(won[seat] < min(others)),
           float(max(others) >= 60), float(n == 3)]
    s = card // N_RANKS
    fixes = trump < 0 and pos > 0 and s != trick[0] // N_RANKS
    t = s if fixes else trump
    cp = _points(card, t)
    wins = float(pos > 0 and _beats(card, trick, trump))
    pts = (sum(_points(c, trump) for c in trick) + cp) / 30.0 if pos > 0 else 0.0

    def above(c: int) -> list[int]:  # the unseen cards that beat c in its own order
        if c // N_RANKS == t:
            return [u for u in unseen if u // N_RANKS == t and _trump_order(u) > _trump_order(c)]
        return [u for u in unseen if u // N_RANKS == c // N_RANKS and u > c]

    sure = 0.0
    if (trump >= 0 or pos == n - 1) and _beats(card, trick, trump):
        if pos == n - 1:
            sure = 1.0
        elif trump >= 0:
            higher = [u for u in unseen if u // N_RANKS == trump
                      and (s != trump or _trump_order(u) > _trump_order(card))]
            led_higher = [] if s == trump else [u for u in unseen if u // N_RANKS == s
                                                and u > card]
            later = [(int(st[S_LEADER]) + k) % n for k in range(pos + 1, n)]

            def void(p: int, suit: int) -> bool:
                return bool((int(st[S_VOID + p]) >> suit) & 1)

            sure = float(all((not higher or void(p, trump)) and (not led_higher or void(p, s))
                             for p in later))
    suit_cards = [c for c in mine if c // N_RANKS == s]
    fix_pts = sum(_points(c, s) for c in suit_cards) / 50.0 if fixes else 0.0
    strength = 9 + _trump_order(card) if s == t else card % N_RANKS
    trumped = float(t >= 0 and s != t and any(u // N_RANKS == t for u in unseen))
    left = len(suit_cards) - 1
    last = float(int(st[S_TRICK]) == ntr - 1)
    base = [wins, wins * pts, cp / 20.0, sure, sure * pts, float(s == t), float(fixes),
            fix_pts, len(suit_cards) / 9.0 if fixes else 0.0, strength / 17.0,
            len(above(card)) / 9.0, trumped, left / 9.0, float(left == 0), wins * last,
            wins * (n - 1 - pos) / (n - 1),
            sum(_points(u, t) for u in unseen if u // N_RANKS == s) / 30.0,
            float(card == min(suit_cards))]
    return base + ctx


def weights_py(prm) -> np.ndarray:
    """The weights :func:`choose_py` plays for a ``learned`` seat with knobs ``prm``."""
    return LEAF_WEIGHTS if prm[P_MODEL] == MODEL_LEAF else WEIGHTS


ORDER = list(range(BASE, N_FEATURES)) + list(range(BASE))  # choose's: the deal's, the card's


def choose_py(seat: int, hand, legal, st, played, taken, weights) -> int:
    """:func:`choose` in plain Python: the highest score, summed in the same order (each
    unit: its bias, the CONTEXTS inputs, then the card's BASE inputs)."""
    cards = _cards(legal)
    if len(cards) == 1:
        return cards[0]
    pos, trump = int(st[S_POS]), int(st[S_TRUMP])
    phase = LEAD if pos == 0 else (FOLLOW if trump >= 0 else OPEN)
    w = [float(x) for x in np.asarray(weights)[phase * N_PARAMS:(phase + 1) * N_PARAMS]]
    w_in = [w[h * N_FEATURES:(h + 1) * N_FEATURES] for h in range(HIDDEN)]
    bias = w[HIDDEN * N_FEATURES:HIDDEN * N_FEATURES + HIDDEN]
    w_out = w[HIDDEN * N_FEATURES + HIDDEN:]
    best, best_score = cards[0], None
    for card in cards:
        x = features_py(seat, hand, st, played, taken, card)
        total = 0.0
        for h in range(HIDDEN):
            a = bias[h]
            for d in ORDER:
                a += w_in[h][d] * x[d]
            if a > 0.0:
                total += w_out[h] * a
        if best_score is None or total > best_score:
            best, best_score = card, total
    return best
