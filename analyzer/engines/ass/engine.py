"""The numba engine of Who's the Ass?: deal (A-2), rounds (A-5..A-9), scoring (A-10).

State lives in a few preallocated arrays, reused for every game of a chunk:

* ``packed``  uint64[n]: every seat's hand as 4-bit counts by kind (moves.py, "packed
              hands"), seen by the engine only;
* ``view``    int64[VIEW_LEN]: the public state (hand sizes included); before a decision of a
              strategy other than ``basic`` the engine writes the decider's own hand into its
              first 16 slots and the rest of the public state after them, and hands the view
              to the policy, which so sees exactly what ruling A-11 allows;
              The known holdings (PUB_KNOWN, cards.py) live in the view as the hand sizes
              do: set by the deal, raised by an ass round's take, lowered by a play (only
              for a seat with something known: one load and compare per play otherwise);
              an untraced table of ``basic`` alone, which nobody's decision reads, plays
              ``_play_basic_alone`` and leaves them as dealt;
* ``rng``     uint64[1]: the game's stream ``stream_start(seed, index, 0)``, used for the deal
              and then, in decision order, by strategies that draw;
* ``deck``    uint8[109] work space of the shuffle, filled from ``template`` (the canonical
              deck) for every game.

The entry points that callers outside the engine use (``deal``, ``play_game``) take and give
hands as int64[n, 16] count arrays, as before; they pack and unpack around the packed core.

Game length is bounded, so the engine needs no round cap: every normal round removes at least
the lead from the game, and two ass rounds are never consecutive (the taker starts the next
round and may not lead the ass in it, A-8), so a game has at most ``2 * cards + 1`` rounds
(``MAX_ROUNDS``). Reaching that bound would be an engine bug and is reported as one.

Trace mode records every move into ``trace`` (int64[MAX_ROUNDS, 14]): per round the starter,
the winner, then one move code per seat in playing order from the starter (PASS for a pass,
forced or chosen). :mod:`analyzer.engines.ass.records` turns that into a game record. When a
seat plays a search family the engine always plays in trace mode (``_searches``): the trace
is then the game's public move record, which the search is handed (A-11: it is public).

How the engine came to be as fast as it is (packed hands, the vectorised deal, the
out-of-line loops, what was tried and dropped, the cold compile) is in
docs/performance-log.md ("Who's the Ass? engine").
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from analyzer.games.ass.cards import (
    ASS,
    ASS_WINDOW,
    COPIES,
    DECK_SIZE,
    JOKER,
    N_JOKERS,
    N_VALUES,
    PUB_GAME,
    PUB_GAMES,
    PUB_GONE,
    PUB_KNOWN,
    PUB_PLAYERS,
    PUB_SIZES,
    PUB_TABLE,
    PUB_TOTALS,
    SCORE_BYTE,
    SCRATCH,
    VIEW_LEN,
    WIN_SHARE_UNIT,
)
from analyzer.games.ass.moves import (
    U0,
    U1,
    U4,
    count_of,
    pack_counts,
    unpack_to,
)
from analyzer.numba_compat import njit_no_runtime
from analyzer.rng import GOLDEN, S32, mix64, randbelow, seed_state
from strategies.ass.catalog import BASIC, PEEK, PIMC
from strategies.ass.dispatch import register_search
from strategies.ass.loop import I0, MAX_CARDS, MAX_ROUNDS, OK, ROUND_BOUND, play_rounds
from strategies.ass.rollout import NO_BLOCK

register_search()  # the search families into the play loop's variants with search

MAX_PLAYERS = 12
TRACE_WIDTH = 2 + MAX_PLAYERS
# MAX_ROUNDS (the proven bound, 2 * 110 + 1) and the status of play_game: OK, the seat that
# made an illegal move (0..n-1), or ROUND_BOUND when the bound on rounds was hit: the loop's
assert MAX_CARDS == 110 and MAX_ROUNDS == 2 * MAX_CARDS + 1 and (OK, ROUND_BOUND) == (-1, 1000)
BYTE_MASK = np.uint64(255)


def canonical_deck() -> np.ndarray:
    """The 109 cards without the ass in canonical order: 1..13 eight each, then 5 jokers."""
    deck = np.empty(DECK_SIZE, dtype=np.int64)
    for i in range(N_VALUES * COPIES):
        deck[i] = i // COPIES + 1
    deck[N_VALUES * COPIES :] = JOKER
    return deck


def new_view() -> np.ndarray:
    """A zeroed view array (own hand + public state + scratch)."""
    return np.zeros(VIEW_LEN, dtype=np.int64)


@njit(cache=True, inline="always")
def deal_packed(rng, n, per_player, template, deck, packed, view):
    """Shuffle and deal one game (A-2, A-3) into packed hands; return the seat of the ass.

    Fisher-Yates on the canonical deck (for i = 108 .. 1: j = randbelow(i + 1), swap), then
    the ass goes to stack position p = randbelow(39), shifting the cards from p on by one;
    stack position q goes to seat q mod n, for q < n * per_player. Sets the hand sizes and
    the known holdings (PUB_KNOWN: the ass with its seat, who starts the first round, A-8).

    The 109 draws are exactly analyzer.rng's ``randbelow`` on the game's stream, computed
    ahead in one loop: splitmix64's states form an arithmetic sequence, so the draws do not
    depend on each other and the loop vectorises. The positions j are kept in the view's
    scratch space, and ``rng`` ends where 109 draws leave it. ``deck`` may be any integer
    array of 109; the engine's own is uint8 (smaller, and measured faster to shuffle).
    """
    z = rng[0]
    for k in range(DECK_SIZE - 1):  # draw k + 1 is the j of Fisher-Yates step i = 108 - k
        z += GOLDEN  # the state of draw k + 1: an addition (a vector induction, no multiply)
        r = np.int64(mix64(z) >> S32)
        view[SCRATCH + k] = (r * (DECK_SIZE - k)) >> 32
    z += GOLDEN
    p = (np.int64(mix64(z) >> S32) * ASS_WINDOW) >> 32
    rng[0] = z
    for i in range(DECK_SIZE):
        deck[i] = template[i]
    for i in range(DECK_SIZE - 1, 0, -1):
        j = view[SCRATCH + DECK_SIZE - 1 - i]
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    m = n * per_player
    for s in range(n):  # seat s gets stack positions s, s + n, ...: summed in a register
        hand = U0
        for q in range(s, m, n):
            card = U1 << (U4 * np.uint64(deck[q - 1 if q > p else q]))
            hand += card if q != p else U1  # U1: the ass (kind 0) at stack position p
        packed[s] = hand
        view[PUB_SIZES + s] = per_player
        view[PUB_KNOWN + s] = 0
    view[PUB_KNOWN + p % n] = 1  # the ass (kind 0): public, its holder starts
    return p % n


@njit(cache=True)
def deal(rng, n, per_player, template, deck, hands, view):
    """:func:`deal_packed` with the hands as counts: ``hands`` int64[n, 16] receives them."""
    packed = np.empty(n, dtype=np.uint64)
    ass_seat = deal_packed(rng, n, per_player, template, deck, packed, view)
    for s in range(n):
        unpack_to(packed[s], hands[s], 0)
    return ass_seat


def variant_for(families) -> tuple[bool | None, bool | None]:
    """The ``variant`` argument of the play loop and the kernels for a table: (others,
    search), each True or None. ``others`` is True when a seat plays a family other than
    ``basic``, ``search`` when a seat plays pimc or peek.

    numba compiles one play loop per variant (strategies/ass/loop.py's ``play_rounds``, by
    the types of the tuple's items), and a None leaves that part out of the compiled code
    (``loop.checked_move``): a table of
    ``basic`` alone never compiles the other families, and a table without a search seat
    never compiles strategies/ass/pimc.py or the rollout module (the search was about half
    the cold compile of a first game, the other families half of the rest). Every variant
    plays the same moves for the tables it serves, and each is cached on disk like every
    kernel."""
    others = any(int(f) != BASIC for f in families)
    search = any(int(f) in (PIMC, PEEK) for f in families)
    return (True if others else None, True if search else None)


def _basic_alone(variant):
    """True for the variant of a table of ``basic`` alone (``variant[0]`` None): untraced,
    such a table plays :func:`_play_basic_alone`, which keeps no view during play (nobody
    reads it there). In jitted code the answer is a constant of the caller's compile, by the
    type of ``variant[0]`` (the overload below)."""
    return variant[0] is None


@overload(_basic_alone, inline="always")
def _basic_alone_typed(variant):
    if isinstance(variant[0], types.NoneType):
        def alone(variant):
            return True
        return alone

    def mixed(variant):
        return False
    return mixed


@njit(cache=True, inline="always")
def _play_basic_alone(packed, starter, blocked, n, families, params, view, rng, taken):
    """:func:`play_packed` for a table of ``basic`` alone without a trace (the default run):
    the play loop's variant of nothing else (strategies/ass/loop.py: no hand sizes kept
    during play, written back at the end; PUB_KNOWN left as dealt, nobody reads it at such a
    table). tests/test_ass_kernel.py holds it to the traced variant, game by game, which the
    engine-vs-reference tests hold to the rules. A seat of another family (a caller's wrong
    variant) is reported at once, as the general variant reports it: status is that seat."""
    for s in range(n):
        if families[s] != BASIC:
            view[PUB_PLAYERS] = n
            return I0, I0, s
    status, rounds, ass_rounds, _ = play_rounds(
        None, None, families, params, packed, n, view, rng, U0, U0, starter, blocked, None, I0,
        I0, starter, I0, I0, None, False, taken)
    return rounds, ass_rounds, status


# Typed values, not the literals -1, True and False: a literal argument compiles a copy of
# the callee per literal value (play_packed was compiled four times instead of twice).
# NO_BLOCK (no seat is blocked at the start of a game) is the rollout's, imported above.
TRACING = np.bool_(True)
UNTRACED = np.bool_(False)


# _nrt=False: no allocation here, and no reference counting of the arrays on each call
@njit_no_runtime()
def play_packed(packed, starter, blocked, n, families, params, view, rng, trace, tracing,
                taken, variant):
    """:func:`play_game` on packed hands (``packed`` uint64[n], updated in place); return
    (rounds, ass_rounds, status).

    The one play loop (strategies/ass/loop.py's ``play_rounds``) from the start of a round,
    with the engine's books (``taken``, the known holdings) and the move record ``trace``
    (written when ``tracing``), in the variant of the table: ``variant`` is
    :func:`variant_for` of it, so the loop is compiled without the other families (``basic``
    alone) or without the search where the table has none, and for ``basic`` alone untraced
    is :func:`_play_basic_alone`."""
    if _basic_alone(variant) and not tracing:  # the default run
        return _play_basic_alone(packed, starter, blocked, n, families, params, view, rng,
                                 taken)
    # the cards gone are kept packed (written back to the view for policies)
    status, rounds, ass_rounds, _ = play_rounds(
        variant[0], variant[1], families, params, packed, n, view, rng,
        pack_counts(view, PUB_GONE), U0, starter, blocked, None, I0, I0, starter, I0, I0,
        trace, tracing, taken)
    # the view's PUB_GONE and PUB_TABLE are not written back here (play_game does that)
    return rounds, ass_rounds, status


def _play_chunk_game(variant, packed, starter, blocked, n, families, params, view, rng, trace,
                     log, taken):
    """run_chunk's play of one game: :func:`_play_basic_alone` for a table of ``basic``
    alone (no seat searches there, so no move record is kept), else :func:`play_packed`. In
    jitted code the choice is made when run_chunk is compiled, by the type of ``variant[0]``
    (the overload below), so the default run compiles only the basic-alone loop."""
    if variant[0] is None:
        return _play_basic_alone(packed, starter, blocked, n, families, params, view, rng,
                                 taken)
    return play_packed(packed, starter, blocked, n, families, params, view, rng, trace, log,
                       taken, variant)


@overload(_play_chunk_game, inline="always")
def _play_chunk_game_typed(variant, packed, starter, blocked, n, families, params, view, rng,
                           trace, log, taken):
    if isinstance(variant[0], types.NoneType):
        def alone(variant, packed, starter, blocked, n, families, params, view, rng, trace,
                  log, taken):
            return _play_basic_alone(packed, starter, blocked, n, families, params, view, rng,
                                     taken)
        return alone

    def general(variant, packed, starter, blocked, n, families, params, view, rng, trace, log,
                taken):
        return play_packed(packed, starter, blocked, n, families, params, view, rng, trace,
                           log, taken, variant)
    return general


@njit(cache=True)
def play_game(hands, starter, blocked, n, families, params, view, rng, trace, tracing, taken,
              variant):
    """Play from a position to the end of the game; return (rounds, ass_rounds, status).

    ``hands`` (int64[n, 16], counts by kind, updated in place) and the hand sizes in ``view``
    describe the position, ``view``'s PUB_GONE counts the cards already out of the game,
    ``starter`` starts the next round and ``blocked`` is the seat that may not lead the ass in
    it (-1 for none; A-8). ``taken[s]`` counts the ass rounds in which seat s took the cards.
    status is OK, the seat that made an illegal move, or ROUND_BOUND. ``variant`` is
    :func:`variant_for` of ``families``; at an untraced table of ``basic`` alone (nobody
    reads the view there) the view's known holdings (PUB_KNOWN) stay as dealt.

    Raises ValueError for a position with more cards of a kind (in the hands and gone
    together) than the deck holds: the packed hands rely on no count exceeding 8.
    """
    for kind in range(JOKER + 1):
        held = view[PUB_GONE + kind]
        fewest = held
        for s in range(n):
            held += hands[s, kind]
            fewest = min(fewest, hands[s, kind])
        most = 1 if kind == ASS else (N_JOKERS if kind == JOKER else COPIES)
        if fewest < 0 or held > most:
            raise ValueError("a position may hold only the deck's cards: 8 of each value, "
                             "5 jokers, 1 ass")
    packed = np.empty(n, dtype=np.uint64)
    for s in range(n):
        packed[s] = pack_counts(hands[s], 0)
    gone = pack_counts(view, PUB_GONE)  # play_packed may leave a later state in the view
    record = trace
    log = tracing
    if not tracing and _searches(families):  # a search reads the move record (_searches)
        record = np.empty((MAX_ROUNDS, TRACE_WIDTH), dtype=np.int64)
        log = True
    result = play_packed(packed, starter, blocked, n, families, params, view, rng, record,
                         log, taken, variant)
    # the view's public state at the end: the cards that left the hands in normal rounds
    # are gone (an ass round only moves cards between hands), and the table is empty
    for kind in range(JOKER + 1):
        view[PUB_GONE + kind] = count_of(gone, kind)
        for s in range(n):
            view[PUB_GONE + kind] += hands[s, kind] - count_of(packed[s], kind)
        view[PUB_TABLE + kind] = 0
    for s in range(n):
        unpack_to(packed[s], hands[s], 0)
    return result


@njit(cache=True, inline="always")
def score(hand):
    """Minus points of a packed hand (A-10): ass 20, joker 14, number cards their value;
    one table lookup per byte of the hand (cards.SCORE_BYTE)."""
    total = I0
    for b in range(8):
        total += SCORE_BYTE[b, np.int64((hand >> np.uint64(8 * b)) & BYTE_MASK)]
    return total


@njit(cache=True, inline="always")
def start_game(seed, index, n, per_player, template, deck, packed, view, rng, taken):
    """Seed game (seed, index)'s stream, reset the public state, deal; return the ass seat."""
    return start_stream(seed, index, 0, n, per_player, template, deck, packed, view, rng, taken)


@njit(cache=True, inline="always")
def start_stream(seed, index, stream, n, per_player, template, deck, packed, view, rng, taken,
                 reset_view=True):
    """:func:`start_game` on stream ``stream`` of (seed, index) (game ``stream`` of a match).
    ``reset_view=False`` leaves the view's public state as it was but for what the deal
    writes (a table of ``basic`` alone reads nothing else)."""
    seed_state(rng, seed, index, stream)
    if reset_view:
        for k in range(SCRATCH):  # the scratch tail needs no reset
            view[k] = 0
    for s in range(n):
        taken[s] = 0
    return deal_packed(rng, n, per_player, template, deck, packed, view)


@njit(cache=True)
def dealt_hands(seed, indices, n, per_player, template, out):
    """The deals of the single games (``seed``, ``indices[i]``) as packed hands: ``out[i, s]``
    (uint64[len(indices), n]) receives seat s's hand, dealt by :func:`start_game` as the
    games themselves are (so a study that asks what a seat was dealt reads the engine's
    deal, not one of its own)."""
    deck = np.empty(DECK_SIZE, dtype=np.int64)
    packed = np.empty(n, dtype=np.uint64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    taken = np.zeros(n, dtype=np.uint64)
    for i in range(indices.shape[0]):
        start_game(seed, indices[i], n, per_player, template, deck, packed, view, rng, taken)
        for s in range(n):
            out[i, s] = packed[s]


@njit(cache=True, inline="always")
def _searches(families):
    """True when a seat plays a search family. The engine then plays in trace mode, so that
    ``trace`` holds the game's public move record (starters, moves, takers; A-11), which the
    search reads (``infer=policy``); nothing else changes."""
    for f in families:  # noqa: SIM110 (a loop numba compiles)
        if f in (PIMC, PEEK):
            return True
    return False


@njit(cache=True, inline="always")
def _small_deck(template):
    """The canonical deck as uint8 (the engine shuffles a uint8 copy of it)."""
    small = np.empty(DECK_SIZE, dtype=np.uint8)
    for i in range(DECK_SIZE):
        small[i] = template[i]
    return small


@njit(cache=True, nogil=True)  # nogil: the threads backend runs chunks in parallel
def run_chunk(seed, start, count, n, per_player, families, params, template, index_out,
              seat_out, minus_points, ended_with_ass, dealt_ass, cards_left, jokers_left,
              ass_taken, went_out, rounds_out, ass_rounds_out, out_seat, variant):
    """Play games start..start+count-1 and fill the per-(game, seat) result columns, in the
    order of kernel.DTYPES, ``index`` and ``seat`` included (``variant``: :func:`variant_for`
    of ``families``).

    Returns -1 when every game was played, else the position in the chunk of the first game
    in which a strategy made an illegal move (the kernel replays it to say which).
    """
    packed = np.zeros(n, dtype=np.uint64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    small = _small_deck(template)
    deck = np.empty(DECK_SIZE, dtype=np.uint8)
    trace = np.empty((MAX_ROUNDS, TRACE_WIDTH), dtype=np.int64)  # the move record, for searches
    log = _searches(families)
    taken = np.zeros(n, dtype=np.int64)
    cols = (index_out, seat_out, minus_points, ended_with_ass, dealt_ass, cards_left,
            jokers_left, ass_taken, went_out, rounds_out, ass_rounds_out, out_seat)
    return _games(variant, seed, start, count, n, per_player, families, params, small, deck,
                  packed, view, rng, trace, log, taken, cols)


def _games(variant, seed, start, count, n, per_player, families, params, small, deck, packed,
           view, rng, trace, log, taken, cols):
    """run_chunk's games: :func:`_basic_alone_games` for a table of ``basic`` alone (the
    default run), else :func:`_each_game` in run_chunk itself. Returns as run_chunk. In
    jitted code the choice is made when run_chunk is compiled, by the type of ``variant[0]``
    (the overload below), so each copy of run_chunk compiles only its own loop (with an
    ``if`` both would be compiled into every copy)."""
    games = _basic_alone_games if variant[0] is None else _each_game
    return games(seed, start, count, n, per_player, families, params, small, deck, packed,
                 view, rng, trace, log, taken, cols, variant)


@overload(_games)
def _games_typed(variant, seed, start, count, n, per_player, families, params, small, deck,
                 packed, view, rng, trace, log, taken, cols):
    games = _basic_alone_games if isinstance(variant[0], types.NoneType) else _each_game

    def impl(variant, seed, start, count, n, per_player, families, params, small, deck,
             packed, view, rng, trace, log, taken, cols):
        return games(seed, start, count, n, per_player, families, params, small, deck, packed,
                     view, rng, trace, log, taken, cols, variant)
    return impl


@njit(cache=True, inline="always")
def _each_game(seed, start, count, n, per_player, families, params, small, deck, packed, view,
               rng, trace, log, taken, cols, variant):
    """Games start..start+count-1 (:func:`_chunk_game`); -1, or the position of the first
    game with an illegal move."""
    for g in range(count):
        if not _chunk_game(g, seed, start, n, per_player, families, params, small, deck,
                           packed, view, rng, trace, log, taken, cols, variant):
            return g
    return -1


# _nrt=False and out of the allocating run_chunk: there, each game's calls counted references
# to the work arrays (two atomic increments and five decrements a game). Only for tables of
# basic alone, as measured. (Every table once played here, and tables with pimc and peek
# seats played other games: numba dropped the deal's last store, the ass's holder into
# PUB_KNOWN, which the search reads. The cause, numba's alias analysis, is corrected in
# analyzer/numba_compat.py; tests/test_safety_engine.py plays such a table in this loop.)
@njit_no_runtime()
def _basic_alone_games(seed, start, count, n, per_player, families, params, small, deck, packed,
                       view, rng, trace, log, taken, cols, variant):
    return _each_game(seed, start, count, n, per_player, families, params, small, deck, packed,
                      view, rng, trace, log, taken, cols, variant)


@njit(cache=True, inline="always")
def _chunk_game(g, seed, start, n, per_player, families, params, small, deck, packed, view, rng,
                trace, log, taken, cols, variant):
    """Game ``start + g`` of run_chunk, its rows written at g * n..; False when a strategy
    moved illegally."""
    (index_out, seat_out, minus_points, ended_with_ass, dealt_ass, cards_left, jokers_left,
     ass_taken, went_out, rounds_out, ass_rounds_out, out_seat) = cols
    # a table of basic alone reads no public state but the dealt sizes: no view reset
    ass_seat = start_stream(seed, start + g, 0, n, per_player, small, deck, packed, view,
                            rng, taken, not _basic_alone(variant))
    rounds, ass_rounds, status = _play_chunk_game(variant, packed, ass_seat, -1, n,
                                                  families, params, view, rng, trace, log,
                                                  taken)
    if status != OK:
        return False
    first_out = -1
    for s in range(n):
        if view[PUB_SIZES + s] == 0:
            first_out = s
            break
    for s in range(n):
        row = g * n + s
        hand = packed[s]
        index_out[row] = start + g
        seat_out[row] = s
        minus_points[row] = score(hand)
        ended_with_ass[row] = count_of(hand, ASS) > 0
        dealt_ass[row] = s == ass_seat
        cards_left[row] = view[PUB_SIZES + s]
        jokers_left[row] = count_of(hand, JOKER)
        ass_taken[row] = taken[s]
        went_out[row] = view[PUB_SIZES + s] == 0
        rounds_out[row] = rounds
        ass_rounds_out[row] = ass_rounds
        out_seat[row] = first_out
    return True


@njit(cache=True)
def trace_game(seed, index, n, per_player, families, params, template, dealt, trace, final,
               variant):
    """Play one game in trace mode; return (rounds, ass_rounds, status, ass_seat).

    ``dealt`` and ``final`` (int64[n, 16]) receive the hands after the deal and at the end;
    ``trace`` (int64[MAX_ROUNDS, TRACE_WIDTH]) the moves.
    """
    packed = np.zeros(n, dtype=np.uint64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(DECK_SIZE, dtype=np.uint8)
    taken = np.zeros(n, dtype=np.int64)
    ass_seat = start_game(seed, index, n, per_player, _small_deck(template), deck, packed, view,
                          rng, taken)
    for s in range(n):
        unpack_to(packed[s], dealt[s], 0)
    rounds, ass_rounds, status = play_packed(packed, ass_seat, NO_BLOCK, n, families, params,
                                             view, rng, trace, TRACING, taken, variant)
    for s in range(n):
        unpack_to(packed[s], final[s], 0)
    return rounds, ass_rounds, status, ass_seat


# --- matches (A-12) ----------------------------------------------------------------------------
#
# Match (seed, index): the first dealer is randbelow(n) on stream DEALER_STREAM of (seed, index);
# game g (0..K-1) is dealt and played on stream g of (seed, index), exactly as a single game is
# on stream 0. So game 0 of match i is single game i's deal, and with K = 1 a match is single
# game i with the players seated by the drawn dealer. The dealer of game g is player
# (first + g) mod n and seat s holds player (dealer + 1 + s) mod n; totals are kept by player.

DEALER_STREAM = 0xFFFFFFFF  # far from every game stream 0..K-1 (K <= 1000, rules.py)


@njit(cache=True)
def first_dealer(seed, index, n, rng):
    """The first dealer of match (seed, index), drawn on the match's dealer stream (A-12)."""
    seed_state(rng, seed, index, DEALER_STREAM)
    return randbelow(rng, n)


@njit(cache=True)
def play_match(seed, index, n, per_player, games, families, params, template, deck, packed,
               view, rng, taken, seat_fams, seat_params, totals, tracing, traces, dealt, final,
               rounds_out, variant):
    """Play match (seed, index) of ``games`` games; return (status, game, first dealer).

    ``families``/``params`` are by player; ``seat_fams``/``seat_params`` (by seat) are work
    space. ``totals`` (int64[n]) receives the totals by player. status is OK, or the status of
    play_packed in game ``game`` (the *seat* that moved illegally there, or ROUND_BOUND).
    In trace mode ``traces[g]``, ``dealt[g]``, ``final[g]`` and ``rounds_out[g]`` receive game
    g's moves, hands after the deal and at the end (by seat) and its number of rounds.
    """
    first = first_dealer(seed, index, n, rng)
    for p in range(n):
        totals[p] = 0
    slots = params.shape[1]
    trace = traces[0]
    log = tracing or _searches(families)  # searches read the move record (_searches)
    for g in range(games):
        dealer = (first + g) % n
        for s in range(n):
            p = (dealer + 1 + s) % n
            seat_fams[s] = families[p]
            for i in range(slots):
                seat_params[s, i] = params[p, i]
        ass_seat = start_stream(seed, index, g, n, per_player, template, deck, packed, view, rng,
                                taken)
        view[PUB_GAME] = g
        view[PUB_GAMES] = games
        for s in range(n):
            view[PUB_TOTALS + s] = totals[(dealer + 1 + s) % n]
        if tracing:
            for s in range(n):
                unpack_to(packed[s], dealt[g, s], 0)
        if tracing:
            trace = traces[g]
        rounds, _, status = play_packed(packed, ass_seat, NO_BLOCK, n, seat_fams, seat_params,
                                        view, rng, trace, log, taken, variant)
        if tracing:
            rounds_out[g] = rounds
            for s in range(n):
                unpack_to(packed[s], final[g, s], 0)
        if status != OK:
            return status, g, first
        for s in range(n):
            totals[(dealer + 1 + s) % n] += score(packed[s])
    return OK, games, first


@njit(cache=True)
def match_shares(totals, n, shares):
    """A-12: the fewest total wins, and k players tied for it share the win. Fill
    ``shares[p]`` with player p's share in units of 1/WIN_SHARE_UNIT (WIN_SHARE_UNIT // k for
    each of the k, 0 for the others) and return k."""
    low = totals[0]
    for p in range(1, n):
        low = min(low, totals[p])
    k = 0
    for p in range(n):
        if totals[p] == low:
            k += 1
    for p in range(n):
        shares[p] = WIN_SHARE_UNIT // k if totals[p] == low else 0
    return k


@njit(cache=True, nogil=True)  # nogil: the threads backend runs chunks in parallel
def run_match_chunk(seed, start, count, n, per_player, games, families, params, template,
                    total_out, won_out, tied_out, share_out, winners_out, first_out, variant):
    """Play matches start..start+count-1 and fill the per-(match, player) result columns.

    Returns -1 when every match was played, else the position in the chunk of the first match
    in which a strategy made an illegal move (the kernel replays it to say which).
    """
    packed = np.zeros(n, dtype=np.uint64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    small = _small_deck(template)
    deck = np.empty(DECK_SIZE, dtype=np.uint8)
    traces = np.empty((1, MAX_ROUNDS, TRACE_WIDTH), dtype=np.int64)  # for searches
    dummy = np.empty((1, n, 16), dtype=np.int64)
    rounds = np.empty(1, dtype=np.int64)
    taken = np.zeros(n, dtype=np.int64)
    seat_fams = np.empty(n, dtype=np.int64)
    seat_params = np.empty((n, params.shape[1]), dtype=np.float64)
    totals = np.zeros(n, dtype=np.int64)
    shares = np.zeros(n, dtype=np.int64)
    for m in range(count):
        status, _, first = play_match(seed, start + m, n, per_player, games, families, params,
                                      small, deck, packed, view, rng, taken, seat_fams,
                                      seat_params, totals, UNTRACED, traces, dummy, dummy,
                                      rounds, variant)
        if status != OK:
            return m
        k = match_shares(totals, n, shares)
        for p in range(n):
            row = m * n + p
            total_out[row] = totals[p]
            won_out[row] = shares[p] > 0
            tied_out[row] = shares[p] > 0 and k > 1
            share_out[row] = shares[p]
            winners_out[row] = k
            first_out[row] = first
    return -1


@njit(cache=True)
def trace_match(seed, index, n, per_player, games, families, params, template, traces, dealt,
                final, rounds_out, totals, variant):
    """Play one match in trace mode; return (status, game, first dealer) as play_match.

    ``traces`` int64[K, MAX_ROUNDS, TRACE_WIDTH], ``dealt``/``final`` int64[K, n, 16],
    ``rounds_out`` int64[K], ``totals`` int64[n] (by player) receive the match.
    """
    packed = np.zeros(n, dtype=np.uint64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(DECK_SIZE, dtype=np.uint8)
    taken = np.zeros(n, dtype=np.int64)
    seat_fams = np.empty(n, dtype=np.int64)
    seat_params = np.empty((n, params.shape[1]), dtype=np.float64)
    return play_match(seed, index, n, per_player, games, families, params, _small_deck(template),
                      deck, packed, view, rng, taken, seat_fams, seat_params, totals, TRACING,
                      traces, dealt, final, rounds_out, variant)
