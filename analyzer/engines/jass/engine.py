"""The numba engine of Plus-Minus Jass: deals (J-2..J-8), sticks (J-9) and matches (J-10).

One function, :func:`play_unit`, plays one unit of a run, a whole match (``deals_mode`` false)
or a single deal (``deals_mode`` true), from its (seed, index) alone:

* match: the stream ``stream_start(seed, index, 0)`` first draws the first dealer, then each
  deal shuffles (Fisher-Yates, 35 draws) and deals in packets of three, and strategies that draw
  take their draws from the same stream in move order. The deal passes one seat on after every
  deal; the match ends when J-10 names a winner or after ``deal_cap`` deals (``capped``).
* single deal: the same stream, no dealer draw: seat n-1 deals, seat 0 leads (J-3), and the
  sticks are J-9 for that deal alone (no remembered ties: a tied stick goes to nobody).

Work arrays are allocated once per chunk (:func:`new_work`) and reused for every unit, so the
hot loop allocates nothing. There is one unit loop, :func:`play_unit`, and one deal loop,
:func:`strategies.jass.loop.run_deal` (shared with the search's rollouts, so it lives below
the engines; its status codes and the trace's layout ``T_*`` are re-exported here); their
variants are compiled from the types of two arguments, each None or not (numba prunes an
``if x is None`` on an argument before typing, so a pruned branch's code is never compiled):

* ``search`` (None, or True for a table with a search seat: pimc, peek) picks whether a
  compiled copy holds the full dispatcher, so that a run without search never compiles the
  search;
* ``rec`` is None in a plain run (the chunk kernels of a table without a search seat), whose
  copy has nothing of the trace or the counterfactual in it; the records' runs pass their
  outputs in it, the tuple (``trace_on``, ``trace``, ``cf_on``, ``cf_out``, ``alt``) switched
  on at run time, so that the trace, the trump study and the chunk kernels of a table with a
  search seat (both outputs off) share one compiled copy (with ``search`` the literal
  :data:`RECORDS_SEARCH`: every family through the full dispatcher):

  * trace (``trace_on``): one row per deal in ``trace`` (layout ``T_*``), turned into a record
    by :mod:`analyzer.engines.jass.records`;
  * trump counterfactual (``cf_on``): at the move that fixes trump, the rest of the deal is
    also played once per suit the chooser holds (on scratch copies of the state), one row per
    suit in ``cf_out`` (layout ``CF_*``); see :mod:`analyzer.engines.jass.trump_value`.

The move itself lives in :mod:`strategies.jass.play`. Strategies are called through
:func:`strategies.jass.dispatch.decide` (registered into the deal loop's variants with search
when this module is imported) or, without search, :func:`strategies.jass.policies.choose_card`;
a legal player's policy receives the seat's own hand and the public state only (J-11).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.games.jass.cards import BIT, PACKET_OWNER, PAIR_SLOT, SUIT_MASK
from analyzer.games.jass.primitives import (
    S_BEST_CARD,
    S_BEST_SEAT,
    S_DEAL_NO,
    S_DEALER,
    S_FIRST,
    S_FIXER,
    S_HIGH_TRUMP,
    S_LAST_WINNER,
    S_LEADER,
    S_LED,
    S_N,
    S_NTRICKS,
    S_STICKS,
    S_SWISS,
    S_TIES,
    S_TRUMP,
    S_WON,
    ST_SIZE,
    U0,
)
from analyzer.games.jass.scoring import base_sticks, match_winner, settle_ties
from analyzer.numba_compat import njit_no_runtime, njit_runtime
from analyzer.rng import GOLDEN, S32, mix64, randbelow, seed_state
from strategies.jass.dispatch import forced_card, register_search
from strategies.jass.loop import (  # noqa: F401 (the status codes and trace layout, re-exported)
    DONE,
    ILLEGAL,
    STOPPED,
    T_AIM,
    T_BONUS,
    T_CARDS,
    T_DEALER,
    T_FIXER,
    T_HANDS,
    T_LAST_WINNER,
    T_LEADERS,
    T_POINTS,
    T_STICKS,
    T_TOTALS,
    T_TRUMP,
    T_WIDTH,
    T_WINNERS,
    run_deal,
)
from strategies.jass.play import deal_points, play_card, seat_points, to_move
from strategies.jass.policies import begin_deal

register_search()  # the search families into the deal loop's variants with search

MAX_PLAYERS = 4

# Constant arguments are read from arrays so that numba types them as plain bool/int64: a
# literal True/False/0 argument makes numba compile a separate copy of the (large) callee for
# each literal value; measured here, play_unit was compiled three times and a cold start took
# 68 s instead of about 30 s.
OFF = np.zeros(1, dtype=np.bool_)
ON = np.ones(1, dtype=np.bool_)
ZERO = np.zeros(1, dtype=np.int64)
ONE = np.ones(1, dtype=np.int64)
NO_ROW = np.full(1, -1, dtype=np.int64)
# The one exception, and the one literal: the records' runs (trace, trump study) pass this
# ``search`` to play_unit and run_deal, always this one value, so it makes one compiled copy,
# and a literal is what lets numba prune ``if search is None`` (the plain dispatch) from it.
RECORDS_SEARCH = True

# res: per-unit results
R_DEALS = 0
R_WINNER = 1
R_FIRST_DEALER = 2
R_CAPPED = 3
R_CF_ROWS = 4
R_SIZE = 5

# One counterfactual row per (deal with a trump fix, candidate suit).
CF_DEAL = 0
CF_DEALER = 1
CF_CHOOSER = 2  # seat (as in the unit: fixed seat in a match, relative seat in a single deal)
CF_SUIT = 3
CF_CHOSEN = 4
CF_POINTS = 5
CF_STICKS = 6
CF_AIM = 7
CF_HAND = 8  # the chooser's hand at the moment of choice
CF_WIDTH = 9


@njit(cache=True)
def new_work():
    """Work arrays for one unit at a time (reused across a chunk)."""
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.zeros(36, dtype=np.int64)
    hands = np.zeros(MAX_PLAYERS, dtype=np.uint64)
    played = np.zeros(MAX_PLAYERS, dtype=np.uint64)
    taken = np.zeros(MAX_PLAYERS, dtype=np.uint64)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    ints = np.zeros((8, MAX_PLAYERS), dtype=np.int64)  # see I_* below
    ties = np.zeros((MAX_PLAYERS, MAX_PLAYERS), dtype=np.int64)
    res = np.zeros(R_SIZE, dtype=np.int64)
    return rng, deck, hands, played, taken, st, ints, ties, res


# positions in the work tuple
W_ST = 5
W_INTS = 6
W_RES = 8

# rows of ``ints``
I_MEMO = 0  # each seat's aim for the current deal
I_POINTS = 1
I_AWARD = 2
I_BONUS = 3
I_NEWTIES = 4
I_STICKS = 5  # running stick totals
I_BONUS_TOTAL = 6
I_SCRATCH = 7


@njit_no_runtime()
def start_deal(rng, deck, hands, played, taken, st, sticks, n, swiss, dealer, deal_no):
    """Shuffle and deal (J-2) and reset the public state for a new deal."""
    for i in range(36):
        deck[i] = i
    z = rng[0]  # the stream in a register: randbelow(rng, i + 1) without a store per draw
    for i in range(35, 0, -1):
        z += GOLDEN
        j = np.int64(((mix64(z) >> S32) * np.uint64(i + 1)) >> S32)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    rng[0] = z
    first = dealer + 1
    if first == n:
        first = 0
    for i in range(MAX_PLAYERS):
        hands[i] = U0
        played[i] = U0
        taken[i] = U0
    for k in range(36):  # packets of three, in playing order from the seat after the dealer
        seat = first + PACKET_OWNER[n - 3, k]
        if seat >= n:
            seat -= n
        hands[seat] |= BIT[deck[k]]
    for i in range(ST_SIZE):
        st[i] = 0
    st[S_N] = n
    st[S_SWISS] = 1 if swiss else 0
    st[S_TRUMP] = -1
    st[S_FIXER] = -1
    st[S_LEADER] = first
    st[S_LED] = -1
    st[S_BEST_SEAT] = -1
    st[S_BEST_CARD] = -1
    st[S_HIGH_TRUMP] = -1
    st[S_LAST_WINNER] = -1
    st[S_DEALER] = dealer
    st[S_DEAL_NO] = deal_no
    st[S_FIRST] = first
    st[S_NTRICKS] = 36 // n
    for i in range(n):
        st[S_STICKS + i] = sticks[i]


@njit_no_runtime()
def public_ties(st, ties, n):
    """Copy the match's remembered ties into the public state (J-11: the scores are public)."""
    for i in range(n):
        for j in range(i + 1, n):
            st[S_TIES + PAIR_SLOT[i, j]] = ties[i, j]


@njit_no_runtime()
def begin_all(fams, prms, hands, st, memo, n):
    """Every seat's aim for the deal, in playing order from the first player."""
    seat = st[S_FIRST]
    for _ in range(n):
        memo[seat] = begin_deal(fams[seat], prms[seat], seat, hands[seat], st)
        seat += 1
        if seat == n:
            seat = 0


@njit_no_runtime()
def _deal_sticks(points, n, deals_mode, ties, award, bonus, newties):
    """Sticks of one deal: J-9 alone for a single deal, with remembered ties in a match."""
    nt = base_sticks(points, n, award, newties)
    if deals_mode:
        for i in range(n):
            bonus[i] = 0
    else:
        settle_ties(award, bonus, ties, newties, nt, n)


@njit_no_runtime()
def end_deal(taken, st, ints, ties, n, deals_mode):
    """Points, sticks (remembered ties in a match) and running totals at the end of a deal."""
    points = ints[I_POINTS]
    award = ints[I_AWARD]
    bonus = ints[I_BONUS]
    sticks = ints[I_STICKS]
    bonus_total = ints[I_BONUS_TOTAL]
    seat_points(taken, n, st[S_TRUMP], st[S_LAST_WINNER], points)
    _deal_sticks(points, n, deals_mode, ties, award, bonus, ints[I_NEWTIES])
    for i in range(n):
        sticks[i] += award[i] + bonus[i]
        bonus_total[i] += bonus[i]


@njit_no_runtime()
def unit_begin(seed, index, n, cap, work, deals_mode):
    """Start a unit: its stream, zero totals and ties, the first dealer. Returns (dealer,
    most deals)."""
    rng, deck, hands, played, taken, st, ints, ties, res = work
    seed_state(rng, seed, index, 0)
    for i in range(MAX_PLAYERS):
        ints[I_STICKS, i] = 0
        ints[I_BONUS_TOTAL, i] = 0
        for j in range(MAX_PLAYERS):
            ties[i, j] = 0
    if deals_mode:
        dealer = n - 1
        ndeals = 1
    else:
        dealer = randbelow(rng, n)
        ndeals = cap
    res[R_FIRST_DEALER] = dealer
    return dealer, ndeals


@njit_no_runtime()
def deal_begin(work, n, swiss, dealer, d, deals_mode, fams, prms):
    """Shuffle and deal deal number ``d``, publish the ties, ask every seat for its aim."""
    rng, deck, hands, played, taken, st, ints, ties, res = work
    start_deal(rng, deck, hands, played, taken, st, ints[I_STICKS], n, swiss, dealer,
               0 if deals_mode else d)
    if not deals_mode:
        public_ties(st, ties, n)
    begin_all(fams, prms, hands, st, ints[I_MEMO], n)


@njit_no_runtime()
def deal_finish(work, n, deals_mode):
    """Score the deal just played; the match's winner so far (J-10) or -1."""
    rng, deck, hands, played, taken, st, ints, ties, res = work
    end_deal(taken, st, ints, ties, n, deals_mode)
    if deals_mode:
        return -1
    return match_winner(ints[I_STICKS], n)


@njit_no_runtime()
def unit_end(work, d, winner, deals_mode):
    """The unit's summary in ``res`` (no counterfactual rows: a plain run's)."""
    res = work[W_RES]
    res[R_DEALS] = d
    res[R_WINNER] = winner
    res[R_CAPPED] = 1 if (not deals_mode and winner < 0) else 0
    res[R_CF_ROWS] = 0


@njit_runtime()  # its slice copies need the runtime; its callers are compiled without
def _counterfactual(fams, prms, rng, hands, played, taken, st, memo, ties, alt, points, award,
                    bonus, newties, deals_mode, cf_out, row, search, rec):
    """At a trump-fixing decision: play the rest of the deal once per suit the chooser holds,
    on copies of the state, and write one row per suit (the real game is left untouched)."""
    arng, ahands, aplayed, ataken, ast, aties = alt
    n = st[S_N]
    seat = to_move(st)
    hand = hands[seat]
    for s in range(4):
        if (hand & SUIT_MASK[s]) == U0:
            continue
        arng[0] = rng[0]
        ahands[:] = hands
        aplayed[:] = played
        ataken[:] = taken
        ast[:] = st
        aties[:, :] = ties
        card = forced_card(
            fams[seat], prms[seat], seat, ahands, s, ast, aplayed, ataken, arng, memo[seat]
        )
        if card < 0 or card >= 36 or (hand & SUIT_MASK[s] & BIT[card]) == U0:
            return -(ILLEGAL + seat)
        play_card(seat, card, ahands, aplayed, ataken, ast)
        status = run_deal(fams, prms, arng, ahands, aplayed, ataken, ast, memo, search, rec,
                          OFF[0], NO_ROW[0])
        if status != DONE:
            return -status
        deal_points(ataken, ast, points)
        _deal_sticks(points, n, deals_mode, aties, award, bonus, newties)
        cf_out[row, CF_DEAL] = st[S_DEAL_NO]
        cf_out[row, CF_DEALER] = st[S_DEALER]
        cf_out[row, CF_CHOOSER] = seat
        cf_out[row, CF_SUIT] = s
        cf_out[row, CF_CHOSEN] = 0
        cf_out[row, CF_POINTS] = points[seat]
        cf_out[row, CF_STICKS] = award[seat] + bonus[seat]
        cf_out[row, CF_AIM] = memo[seat]
        cf_out[row, CF_HAND] = np.int64(hand)
        row += 1
    return row


@njit(cache=True)
def new_alt():
    """Scratch copies of the deal state for counterfactual branches."""
    return (
        np.zeros(1, dtype=np.uint64),
        np.zeros(MAX_PLAYERS, dtype=np.uint64),
        np.zeros(MAX_PLAYERS, dtype=np.uint64),
        np.zeros(MAX_PLAYERS, dtype=np.uint64),
        np.zeros(ST_SIZE, dtype=np.int64),
        np.zeros((MAX_PLAYERS, MAX_PLAYERS), dtype=np.int64),
    )


@njit_no_runtime()
def play_unit(seed, index, n, swiss, cap, fams, prms, work, deals_mode, search, rec):
    """Play one match (or one deal in ``deals_mode``) of the run; results in ``work``.

    Returns DONE or ILLEGAL + seat. ``work[ints]`` then holds the final sticks (I_STICKS),
    bonus sticks (I_BONUS_TOTAL) and, for the last deal, points/award; ``res`` the unit
    summary. ``search``: None or True, as in :func:`run_deal`. ``rec``: None in a plain run
    (the chunk kernels), or the records' outputs (``trace_on``, ``trace``, ``cf_on``,
    ``cf_out``, ``alt``), switched on and off at run time, played through
    :func:`_record_deal` (one compiled copy for the trace and the trump study)."""
    dealer, ndeals = unit_begin(seed, index, n, cap, work, deals_mode)
    cf_rows = ZERO[0]  # an int64, not the literal 0 (one compiled _record_deal)
    winner = -1
    d = 0
    while d < ndeals:
        d += 1
        deal_begin(work, n, swiss, dealer, d, deals_mode, fams, prms)
        if rec is None:
            # ``rec``, not None: the records' copy types this branch too (numba prunes only an
            # argument that is None), and so it asks for the copy of run_deal it has already
            status = run_deal(fams, prms, work[0], work[2], work[3], work[4], work[W_ST],
                              work[W_INTS][I_MEMO], search, rec, OFF[0], NO_ROW[0])
            if status != DONE:
                return status
            winner = deal_finish(work, n, deals_mode)
        else:
            status, winner, cf_rows = _record_deal(work, n, dealer, d, deals_mode, fams, prms,
                                                   search, rec, cf_rows)
            if status != DONE:
                return status
        if winner >= 0:
            break
        dealer += 1
        if dealer == n:
            dealer = 0
    unit_end(work, d, winner, deals_mode)
    if rec is not None:
        work[W_RES][R_CF_ROWS] = cf_rows
    return DONE


@njit_no_runtime()
def _record_deal(work, n, dealer, d, deals_mode, fams, prms, search, rec, cf_rows):
    """Play and score deal number ``d`` (dealt by :func:`deal_begin`) with the records'
    outputs: with ``trace_on`` its row ``d - 1`` of ``trace``; with ``cf_on``, at the move
    that fixes trump, the counterfactual rows from row ``cf_rows`` of ``cf_out``
    (:func:`_counterfactual`), the real continuation's row marked chosen. Returns (status,
    the match's winner so far or -1, the counterfactual rows now written)."""
    rng, deck, hands, played, taken, st, ints, ties, res = work
    trace_on, trace, cf_on, cf_out, alt = rec
    memo = ints[I_MEMO]
    trow = d - 1 if trace_on else -1
    if trace_on:
        for j in range(T_WIDTH):
            trace[trow, j] = -1
        trace[trow, T_DEALER] = dealer
        for i in range(n):
            trace[trow, T_HANDS + i] = np.int64(hands[i])
            trace[trow, T_AIM + i] = memo[i]
    status = run_deal(fams, prms, rng, hands, played, taken, st, memo, search, rec, cf_on,
                      trow)
    first_row = cf_rows
    chooser = -1
    if status == STOPPED:
        r = _counterfactual(fams, prms, rng, hands, played, taken, st, memo, ties, alt,
                            ints[I_POINTS], ints[I_AWARD], ints[I_BONUS], ints[I_NEWTIES],
                            deals_mode, cf_out, cf_rows, search, rec)
        if r < 0:
            return -r, -1, cf_rows
        cf_rows = r
        chooser = to_move(st)
        status = run_deal(fams, prms, rng, hands, played, taken, st, memo, search, rec,
                          OFF[0], trow)
    if status != DONE:
        return status, -1, cf_rows
    winner = deal_finish(work, n, deals_mode)
    # the real continuation is the row of the suit actually fixed (the chooser fixed it)
    for k in range(first_row, cf_rows):
        if cf_out[k, CF_SUIT] == st[S_TRUMP]:
            cf_out[k, CF_CHOSEN] = 1
            cf_out[k, CF_POINTS] = ints[I_POINTS, chooser]
            cf_out[k, CF_STICKS] = ints[I_AWARD, chooser] + ints[I_BONUS, chooser]
    if trace_on:
        trace[trow, T_TRUMP] = st[S_TRUMP]
        trace[trow, T_FIXER] = st[S_FIXER]
        trace[trow, T_LAST_WINNER] = st[S_LAST_WINNER]
        for i in range(n):
            trace[trow, T_POINTS + i] = ints[I_POINTS, i]
            trace[trow, T_STICKS + i] = ints[I_AWARD, i] + ints[I_BONUS, i]
            trace[trow, T_TOTALS + i] = ints[I_STICKS, i]
            trace[trow, T_BONUS + i] = ints[I_BONUS, i]
    return DONE, winner, cf_rows


@njit_no_runtime()
def _match_row(work, u, n, sticks, won, bonus, deals, capped, winner, first_dealer):
    ints = work[W_INTS]
    res = work[W_RES]
    for i in range(n):
        sticks[u * n + i] = ints[I_STICKS, i]
        bonus[u * n + i] = ints[I_BONUS_TOTAL, i]
        won[u * n + i] = res[R_WINNER] == i
    deals[u] = res[R_DEALS]
    capped[u] = res[R_CAPPED] == 1
    winner[u] = res[R_WINNER]
    first_dealer[u] = res[R_FIRST_DEALER]


@njit_no_runtime()
def _deal_row(work, u, n, points, tricks, sticks, fixed, last, trump):
    st = work[W_ST]
    ints = work[W_INTS]
    for i in range(n):
        k = u * n + i
        points[k] = ints[I_POINTS, i]
        tricks[k] = st[S_WON + i]
        sticks[k] = ints[I_STICKS, i]
        fixed[k] = st[S_FIXER] == i
        last[k] = st[S_LAST_WINNER] == i
    trump[u] = st[S_TRUMP]


@njit(cache=True)
def _match_columns(count, n):
    return (np.zeros(count * n, dtype=np.int16), np.zeros(count * n, dtype=np.bool_),
            np.zeros(count * n, dtype=np.int16), np.zeros(count, dtype=np.int16),
            np.zeros(count, dtype=np.bool_), np.zeros(count, dtype=np.int16),
            np.zeros(count, dtype=np.int16))


@njit(cache=True)
def _deal_columns(count, n):
    return (np.zeros(count * n, dtype=np.int16), np.zeros(count * n, dtype=np.int16),
            np.zeros(count * n, dtype=np.int16), np.zeros(count * n, dtype=np.bool_),
            np.zeros(count * n, dtype=np.bool_), np.zeros(count, dtype=np.int8))


@njit(cache=True)
def _quiet_records():
    """The records' outputs with the trace and the counterfactual both off: the chunk kernels
    of a table with a search seat play through the records' compiled copy of
    :func:`play_unit` (the trace's, which holds the search already) with it, the same cards
    and results as a plain copy with search, so that a cold start compiles the search into one
    copy of the loop, not two (docs/development.md). The plain runs (no search seat) keep their
    own copy, with nothing of the records in it."""
    return (OFF[0], np.zeros((1, T_WIDTH), dtype=np.int64), OFF[0],
            np.zeros((1, CF_WIDTH), dtype=np.int64), new_alt())


@njit(cache=True, nogil=True)  # nogil: the threads backend runs chunks in parallel
def matches_chunk(seed, start, count, n, swiss, cap, fams, prms, search):
    """Play matches start..start+count-1 (``search``: None, or True for a table with a search
    seat, :func:`run_deal`). Returns (status, bad index, per-(match, seat) arrays
    sticks/won/bonus, per-match arrays deals/capped/winner/first_dealer)."""
    work = new_work()
    sticks, won, bonus, deals, capped, winner, first_dealer = _match_columns(count, n)
    if search is not None:  # only the copy with search allocates them (numba prunes it)
        rec = _quiet_records()
    for u in range(count):
        if search is None:
            status = play_unit(seed, start + u, n, swiss, cap, fams, prms, work, OFF[0], None,
                               None)
        else:  # the records' copy with both outputs off (see _quiet_records)
            status = play_unit(seed, start + u, n, swiss, cap, fams, prms, work, OFF[0],
                               RECORDS_SEARCH, rec)
        if status != DONE:
            return status, start + u, sticks, won, bonus, deals, capped, winner, first_dealer
        _match_row(work, u, n, sticks, won, bonus, deals, capped, winner, first_dealer)
    return DONE, -1, sticks, won, bonus, deals, capped, winner, first_dealer


@njit(cache=True, nogil=True)
def deals_chunk(seed, start, count, n, swiss, fams, prms, search):
    """Play single deals start..start+count-1 (``search`` as in :func:`matches_chunk`).
    Returns (status, bad index, per-(deal, seat) arrays points/tricks/sticks/fixed_trump/
    last_trick, per-deal trump)."""
    work = new_work()
    points, tricks, sticks, fixed, last, trump = _deal_columns(count, n)
    if search is not None:  # only the copy with search allocates them (numba prunes it)
        rec = _quiet_records()
    for u in range(count):
        if search is None:
            status = play_unit(seed, start + u, n, swiss, ONE[0], fams, prms, work, ON[0], None,
                               None)
        else:
            status = play_unit(seed, start + u, n, swiss, ONE[0], fams, prms, work, ON[0],
                               RECORDS_SEARCH, rec)
        if status != DONE:
            return status, start + u, points, tricks, sticks, fixed, last, trump
        _deal_row(work, u, n, points, tricks, sticks, fixed, last, trump)
    return DONE, -1, points, tricks, sticks, fixed, last, trump


@njit(cache=True)
def trace_unit(seed, index, n, swiss, cap, fams, prms, deals_mode):
    """Play one unit with the trace on. Returns (status, trace rows, res, final sticks)."""
    work = new_work()
    alt = new_alt()
    ndeals = 1 if deals_mode else cap
    trace = np.full((ndeals, T_WIDTH), -1, dtype=np.int64)
    cf_out = np.zeros((1, CF_WIDTH), dtype=np.int64)
    status = play_unit(seed, index, n, swiss, cap, fams, prms, work, deals_mode, RECORDS_SEARCH,
                       (ON[0], trace, OFF[0], cf_out, alt))
    res = work[W_RES]
    return status, trace[: res[R_DEALS]].copy(), res.copy(), work[W_INTS][I_STICKS, :n].copy()


@njit(cache=True)
def counterfactual_unit(seed, index, n, swiss, cap, fams, prms, deals_mode, work, alt, cf_out):
    """Play one unit with the trump counterfactual on; rows in cf_out. Returns (status, rows)."""
    trace = np.zeros((1, T_WIDTH), dtype=np.int64)
    status = play_unit(seed, index, n, swiss, cap, fams, prms, work, deals_mode, RECORDS_SEARCH,
                       (OFF[0], trace, ON[0], cf_out, alt))
    return status, work[W_RES][R_CF_ROWS]
