"""The value model of Plus-Minus Jass: what pimc's search reads at its leaves with
``rollout=value`` (its default) instead of playing every world to the end of the deal.

The leaf. pimc plays a candidate card in an imagined world (a deal of every hand,
strategies/jass/search.py); then :func:`finish_trick` lets every seat still to play in the
trick play ``learned`` (strategies/jass/learned.py), and the trick ends (J-7). When at most
:data:`LATE` tricks are left then, ``learned`` plays the deal to its end and the leaf is worth
its exact outcome. Otherwise :func:`value` gives the decider's expected sticks from the deal
(J-9 alone, without remembered ties): a small network's estimate of what the rest of the deal
would bring it if every seat played ``learned`` from there, as ``pimc:rollout=learned`` rolls
it out, for a fraction of its cost. Both the cards played and the exact end were measured to
matter (docs/strategies.md): the network read from the middle of a trick, ``aim-low``
finishing the trick, and the network to the last trick each lost clearly to
``pimc:rollout=learned``, where this leaf is level with it.

``learned`` here is always ``learned-leaf``: the network the value model was trained on,
pinned in its own file (strategies/jass/learned_weights.py), so that retraining ``learned``
leaves ``pimc`` and its value model as they are.

What the network reads (every hand: the leaf is a world the search imagined; what the search
may know is pimc's business, J-11): for every seat, in playing order from the decider, the
cards it holds and the cards it has won (36 each, the suits reordered so that the trump comes
first and the other three follow in their order; before trump is fixed in their own order);
which seat leads the next trick (one-hot, the same order); the share of the deal's tricks
left; whether trump is fixed. One hidden layer of ``HIDDEN`` rectified units, one network per
player count (value_weights.py). The inputs are ones and zeros but two, so :func:`value` adds
one weight row per card instead of multiplying a whole vector (eight units at a time:
analyzer/rows.py).

How it was trained (scripts/train_value.py --game jass, analyzer/learn/jass_value.py): in
deals where every seat plays ``learned``, at each decision with a choice, every legal card is
played, the trick is finished as above, and the leaf is labelled with the decider's sticks
when every seat then plays ``learned`` to the end (``learned`` draws nothing, so the label is
exact). The network fits those labels and, mostly, their differences between the leaves of
one decision (what the search's choice reads).

:func:`inputs` writes the inputs as a vector (the training's and the tests'); :func:`value_py`
is the same model in plain Python, written apart, for the tests.
"""

from __future__ import annotations

import numpy as np

from analyzer.games.jass.cards import RANK_OF, SUIT_OF
from analyzer.games.jass.primitives import (
    S_LEADER,
    S_N,
    S_NTRICKS,
    S_POS,
    S_TRICK,
    S_TRUMP,
    U0,
    U1,
    legal_mask,
    lowest_card,
)
from analyzer.numba_compat import njit_no_runtime
from analyzer.rows import add_row
from analyzer.stack import stack_float64
from strategies.jass.knobs import AIM_NA, FAM_LEARNED, VALUE_FINISHER
from strategies.jass.play import play_card_no_bans, to_move
from strategies.jass.policies import choose_card
from strategies.jass.value_weights import (  # noqa: F401  (re-exported for callers)
    B1,
    B2,
    CARD_INPUTS,
    HIDDEN,
    I_FIXED,
    I_LEAD,
    I_LEFT,
    INPUTS,
    W1,
    W2,
    WEIGHTS_ERROR,
    check_weights,
    row_of,
)


def _finisher_knobs() -> np.ndarray:
    """The knobs of VALUE_FINISHER (learned-leaf), as the catalogue resolves them."""
    from strategies.registry import catalog, resolve_values

    return np.array(resolve_values(catalog("jass", with_files=False)[VALUE_FINISHER], {}),
                    dtype=np.float64)


LEARNED_PRM = _finisher_knobs()  # the finisher's knobs (its family: FAM_LEARNED)
LATE = 2  # with this many tricks left or fewer, learned plays the leaf to the end, exactly


def slot_of(suit: int, trump: int) -> int:
    """The place of ``suit`` among the inputs' suits: the trump first, then the other three
    in their order; before trump is fixed (``trump`` -1) their own order."""
    if trump < 0 or suit > trump:
        return suit
    if suit == trump:
        return 0
    return suit + 1


# a card's place within a block of 36 inputs: PLACE[trump + 1, card] = 9 * slot + rank
PLACE = np.array([[9 * slot_of(int(SUIT_OF[c]), t) + int(RANK_OF[c]) for c in range(36)]
                  for t in range(-1, 4)], dtype=np.int64)


@njit_no_runtime(inline="always")
def _index(k, part, card, trump):
    """The input of ``card`` in block ``part`` (0 held, 1 won) of the seat ``k`` places
    after the decider."""
    return 1 + CARD_INPUTS * k + 36 * part + PLACE[trump + 1, card]


@njit_no_runtime()
def finish_trick(hands, played, taken, st, rng):
    """Every seat still to play in the current trick plays ``learned``, to the trick's end
    (nothing when the trick has not begun). ``learned`` draws nothing from ``rng``."""
    ntr = st[S_NTRICKS]
    while st[S_POS] != 0 and st[S_TRICK] < ntr:
        seat = to_move(st)
        hand = hands[seat]
        legal = legal_mask(hand, st)
        card = choose_card(FAM_LEARNED, LEARNED_PRM, seat, hand, legal, st, played, taken, rng,
                           AIM_NA)
        play_card_no_bans(seat, card, hands, played, taken, st)


@njit_no_runtime()
def value(seat, hands, taken, st):
    """Seat ``seat``'s expected sticks from the deal when every seat plays ``learned`` on from
    the start of a trick (module docstring); ``hands`` every seat's hand, ``st`` the public
    state (the trump, the leader, the tricks played)."""
    n = st[S_N]
    trump = st[S_TRUMP]
    r = n - 3
    h = stack_float64(32)  # HIDDEN or more
    for j in range(HIDDEN):
        h[j] = B1[r, j] + W1[r, 0, j]
    for k in range(n):  # every seat, in playing order from the decider
        p = seat + k
        if p >= n:
            p -= n
        for part in range(2):
            m = hands[p] if part == 0 else taken[p]
            while m != U0:
                c = lowest_card(m)
                m &= m - U1
                add_row(h, W1, (r * INPUTS + _index(k, part, c, trump)) * HIDDEN, HIDDEN)
    lead = st[S_LEADER] - seat
    if lead < 0:
        lead += n
    ntr = st[S_NTRICKS]
    left = (ntr - st[S_TRICK]) / ntr
    for j in range(HIDDEN):
        h[j] += W1[r, I_LEAD + lead, j] + left * W1[r, I_LEFT, j]
    if trump >= 0:
        for j in range(HIDDEN):
            h[j] += W1[r, I_FIXED, j]
    t = B2[r]
    for j in range(HIDDEN):  # a unit at or below zero adds 0.0: t's value stays, no branch
        t += max(h[j], 0.0) * W2[r, j]
    return t


@njit_no_runtime()
def inputs(seat, hands, taken, st, out):
    """The network's inputs (module docstring) of seat ``seat`` into ``out``
    (float[INPUTS])."""
    n = st[S_N]
    trump = st[S_TRUMP]
    for i in range(INPUTS):
        out[i] = 0.0
    out[0] = 1.0
    for k in range(n):
        p = (seat + k) % n
        for part in range(2):
            m = hands[p] if part == 0 else taken[p]
            while m != U0:
                c = lowest_card(m)
                m &= m - U1
                out[_index(k, part, c, trump)] = 1.0
    out[I_LEAD + (st[S_LEADER] - seat) % n] = 1.0
    ntr = st[S_NTRICKS]
    out[I_LEFT] = (ntr - st[S_TRICK]) / ntr
    out[I_FIXED] = 1.0 if trump >= 0 else 0.0


# --- the same model in plain Python -----------------------------------------------------------


def inputs_py(seat: int, hands: list[int], taken: list[int], n: int, trump: int, leader: int,
              trick: int) -> list[float]:
    """:func:`inputs` as a list, written apart: suits as the module docstring orders them;
    ``leader`` leads the next trick, ``trick`` the number of tricks complete."""
    order = [0, 1, 2, 3] if trump < 0 else [trump] + [s for s in range(4) if s != trump]

    def index(k: int, part: int, card: int) -> int:
        suit, rank = divmod(card, 9)
        return 1 + CARD_INPUTS * k + 36 * part + 9 * order.index(suit) + rank

    x = [0.0] * INPUTS
    x[0] = 1.0
    for k in range(n):
        p = (seat + k) % n
        for part, cards in enumerate((hands[p], taken[p])):
            for c in range(36):
                if cards >> c & 1:
                    x[index(k, part, c)] = 1.0
    x[I_LEAD + (leader - seat) % n] = 1.0
    x[I_LEFT] = (36 // n - trick) / (36 // n)
    x[I_FIXED] = 1.0 if trump >= 0 else 0.0
    return x


def value_py(seat: int, hands: list[int], taken: list[int], n: int, trump: int, leader: int,
             trick: int) -> float:
    """:func:`value` in plain Python: one hidden layer over :func:`inputs_py`."""
    x = inputs_py(seat, hands, taken, n, trump, leader, trick)
    r = row_of(n)
    total = float(B2[r])
    for j in range(HIDDEN):
        a = float(B1[r, j]) + sum(x[i] * float(W1[r, i, j]) for i in range(INPUTS) if x[i])
        total += max(a, 0.0) * float(W2[r, j])
    return total
