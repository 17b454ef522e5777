/* Who's the Ass? with `basic` in every seat, hand-written in C: the same-run yardstick of
 * issue 13 (scripts/cbaseline.py builds it, scripts/cbase_ass.py wraps it).
 *
 * It plays exactly the games of the numba engine (analyzer/engines/ass/engine.py: deal_packed,
 * play_packed, run_chunk; the rules: docs/rulings.md A-1..A-10) for every (seed, index), and
 * plays on from a mid-game state exactly as strategies/ass/rollout.py's play_on does with
 * `basic`; tests/test_cbase_ass.py holds it to both. It shares no code with them:
 *
 *  - the stream: splitmix64 from stream_start(seed, index, 0), randbelow(n) by 32-bit
 *    multiply-shift (analyzer/rng.py); the deal's 109 draws are computed in one loop ahead
 *    of the shuffle (the splitmix64 states form an arithmetic sequence, so the loop carries
 *    only an induction variable and gcc vectorises it; 512-bit vectors where the CPU has
 *    them, measured about 1.5x faster for this loop than gcc's default 256 on this VM);
 *  - the deal: Fisher-Yates on a byte copy of the canonical deck (1..13 eight each, 5
 *    jokers), the ass inserted at stack position p = randbelow(39) by one memmove, stack
 *    position q to seat q mod n; the ass is kind 0, so `1 << 4 * kind` packs every card;
 *  - a hand is a uint64 of 4-bit counts by kind (0 the ass, 1..13, 14 jokers); each of
 *    `basic`'s scans is a mask and a count of trailing zeros; a play is one subtraction; no
 *    move codes, no hand sizes (a hand is empty when its uint64 is 0, and a follower with
 *    fewer than k cards finds nothing to play, so `basic` passes without a size check);
 *  - hands in a small local array, the seat wrapped with a compare, nothing allocated; one
 *    copy of the play loop per player count (n a compile-time constant), out of line (one
 *    call per game): 0 to 5% faster than one loop for every n in interleaved runs on this
 *    shared VM, for a build of 1.4 s instead of 0.6 (inlined into each entry point: 5 s).
 *
 * Entry points (plain C types, for ctypes):
 *   ass_play_games  games start..start+count-1 of `seed`: minus points per (game, seat) and
 *                   rounds per game (run_chunk's minus_points and rounds columns), a checksum;
 *   ass_game_rows   the same games with the numba kernel's twelve result columns per
 *                   (game, seat): what a game costs the numba engine's chunk (the "game");
 *   ass_deal_games  the deals alone (for the deal/play split of scripts/bench_ass_split.py);
 *   ass_rollouts    play on from round starts of mid-game states (scripts/bench_ass_search.py
 *                   mid_game_states), every state `repeats` times, the state copied first.
 */
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("prefer-vector-width=512") /* no effect without 512-bit vectors */
#endif

#define GOLDEN 0x9E3779B97F4A7C15ULL
#define DECK 109          /* cards without the ass */
#define WINDOW 39         /* the ass goes among the first 39 stack positions */
#define MAXN 12
#define MAX_ROUNDS 221    /* engine.py's proven bound on rounds, 2 * 110 + 1 */
#define ROUND_BOUND 1000  /* status: the bound was hit (an engine bug) */

#define NUMBERS 0x00FFFFFFFFFFFFF0ULL /* the fields of kinds 1..13 */
#define NIB_ONES 0x1111111111111111ULL
#define NIB_HIGH 0x8888888888888888ULL
#define JSHIFT 56                     /* 4 * the joker's kind (14) */
#define JOKER_HIGH 14

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t stream_start(uint64_t seed, uint64_t index, uint64_t stream)
{
    uint64_t s = mix64(seed + GOLDEN);
    s = mix64(s + index);
    return mix64(s + stream);
}

/* The canonical deck, padded to 112 bytes. */
static const uint8_t TEMPLATE[112] = {
    1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6,
    7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9,
    10, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 11,
    12, 12, 12, 12, 12, 12, 12, 12, 13, 13, 13, 13, 13, 13, 13, 13,
    14, 14, 14, 14, 14, 0, 0, 0};

/* The fields of the number values above v (v = 0..14; none from 13 on). */
static const uint64_t ABOVE[16] = {
    NUMBERS & (~0ULL << 4),  NUMBERS & (~0ULL << 8),  NUMBERS & (~0ULL << 12),
    NUMBERS & (~0ULL << 16), NUMBERS & (~0ULL << 20), NUMBERS & (~0ULL << 24),
    NUMBERS & (~0ULL << 28), NUMBERS & (~0ULL << 32), NUMBERS & (~0ULL << 36),
    NUMBERS & (~0ULL << 40), NUMBERS & (~0ULL << 44), NUMBERS & (~0ULL << 48),
    NUMBERS & (~0ULL << 52), 0, 0, 0};

/* at_least(hand, k): the top bit of every field holding >= k cards (1 <= k <= 8): adding
 * 8 - k to a count 0..8 carries into no other field and reaches 8 exactly when count >= k. */
static const uint64_t ADD_FOR[9] = {
    0, NIB_ONES * 7, NIB_ONES * 6, NIB_ONES * 5, NIB_ONES * 4,
    NIB_ONES * 3, NIB_ONES * 2, NIB_ONES * 1, 0};

static inline int lowest_kind(uint64_t mask) { return __builtin_ctzll(mask) >> 2; }
static inline int count_of(uint64_t hand, int kind) { return (int)(hand >> (4 * kind)) & 15; }

/* Shuffle and deal game `start`'s stream into hands[0..n-1]; return the ass's
 * seat, who starts the first round. */
static inline __attribute__((always_inline)) int
deal(uint64_t start, int n, int per_player, uint64_t *hands)
{
    uint8_t deck[112];
    uint32_t js[DECK - 1];
    memcpy(deck, TEMPLATE, sizeof deck);
    uint64_t state = start;
    for (uint32_t k = 0; k < DECK - 1; ++k) { /* draw k + 1 is the j of step i = 108 - k */
        state += GOLDEN;
        uint32_t r = (uint32_t)(mix64(state) >> 32);
        js[k] = (uint32_t)(((uint64_t)r * (DECK - k)) >> 32);
    }
    int p = (int)(((mix64(start + GOLDEN * (uint64_t)DECK) >> 32) * WINDOW) >> 32);
    for (int i = DECK - 1; i > 0; --i) {
        int j = js[DECK - 1 - i];
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    int m = n * per_player; /* >= 39 > p */
    memmove(deck + p + 1, deck + p, (size_t)(m - 1 - p));
    deck[p] = 0; /* the ass, kind 0: its field is bit 0 */
    for (int s = 0; s < n; ++s) {
        uint64_t hand = 0;
        for (int q = s; q < m; q += n)
            hand += 1ULL << (4 * deck[q]);
        hands[s] = hand;
    }
    return p % n;
}

/* Play `basic` in every seat from the start of a round to the end of the game (A-5..A-9).
 * Returns the number of rounds played, or -ROUND_BOUND at the proven bound (never for a
 * correct engine). */
static inline __attribute__((always_inline)) int64_t
play(uint64_t *h, int n, int starter, int blocked, int64_t rounds, int64_t *taken)
{
    int64_t first = rounds;
    int empty = 0;
    for (int s = 0; s < n; ++s)
        empty |= h[s] == 0;
    for (;;) {
        if (rounds >= MAX_ROUNDS)
            return -ROUND_BOUND;
        uint64_t hand = h[starter];
        int high_seat = starter;
        int emptied = empty;
        int seat = starter;
        if ((hand & 15) && starter != blocked) { /* basic leads the ass when it may */
            uint64_t table = 1;                   /* one card each, any value */
            int high = 0;
            h[starter] = hand - 1;
            emptied |= hand == 1;
            for (int pos = 1; pos < n; ++pos) {
                if (++seat == n)
                    seat = 0;
                uint64_t mine = h[seat];
                uint64_t delta;
                int v;
                if (mine >> JSHIFT) { /* a joker, declared 1 */
                    v = 1;
                    delta = 1ULL << JSHIFT;
                } else {
                    uint64_t nums = mine & NUMBERS;
                    if (!nums)
                        continue; /* no card (it holds no ass: that is on the table) */
                    v = lowest_kind(nums);
                    delta = 1ULL << (4 * v);
                }
                h[seat] = mine - delta;
                table += delta;
                emptied |= mine == delta;
                if (v >= high) { /* the last of several equal highest takes */
                    high = v;
                    high_seat = seat;
                }
            }
            h[high_seat] += table; /* the taker takes every card, the ass included */
            if (taken)             /* the result rows count the ass rounds each seat lost */
                ++taken[high_seat];
            blocked = high_seat;
        } else { /* basic leads all its lowest number cards, else all its jokers */
            uint64_t nums = hand & NUMBERS;
            int high, k;
            uint64_t delta;
            if (nums) {
                high = lowest_kind(nums);
                k = count_of(hand, high);
                delta = (uint64_t)k << (4 * high);
            } else {
                high = JOKER_HIGH;
                k = (int)(hand >> JSHIFT);
                delta = (uint64_t)k << JSHIFT;
            }
            h[starter] = hand - delta;
            emptied |= hand == delta;
            /* k cards of a higher value; nothing beats 14 (all pass) */
            for (int pos = 1; pos < n && high != JOKER_HIGH; ++pos) {
                if (++seat == n)
                    seat = 0;
                uint64_t mine = h[seat];
                int jokers = (int)(mine >> JSHIFT);
                uint64_t above = ABOVE[high];
                uint64_t m;
                if (k <= 8 && (m = ((mine + ADD_FOR[k]) & NIB_HIGH & above))) {
                    high = lowest_kind(m); /* the lowest value above with k cards */
                    delta = (uint64_t)k << (4 * high);
                } else {
                    int need = k - jokers > 1 ? k - jokers : 1;
                    if (need <= 8 && (m = ((mine + ADD_FOR[need]) & NIB_HIGH & above))) {
                        high = lowest_kind(m); /* its cards, made up with jokers */
                        int c = count_of(mine, high);
                        delta = ((uint64_t)c << (4 * high)) + ((uint64_t)(k - c) << JSHIFT);
                    } else if (jokers >= k) { /* high < 14 here */
                        high = JOKER_HIGH;
                        delta = (uint64_t)k << JSHIFT;
                    } else {
                        continue; /* a pass */
                    }
                }
                h[seat] = mine - delta;
                emptied |= mine == delta;
                high_seat = seat;
            }
            blocked = -1; /* the cards leave the game */
        }
        starter = high_seat;
        ++rounds;
        if (emptied) { /* the game ends after a round with a hand empty */
            for (int s = 0; s < n; ++s)
                if (h[s] == 0)
                    return rounds - first;
        }
    }
}

/* One copy of the play loop per player count, n a constant in each (out of line: one call
 * per game or rollout). */
typedef int64_t (*play_fn)(uint64_t *, int, int, int64_t, int64_t *);
#define PLAY_N(N)                                                                   \
    static __attribute__((noinline)) int64_t play_##N(uint64_t *h, int starter, int blocked, \
                                                      int64_t rounds, int64_t *taken) \
    {                                                                               \
        return play(h, N, starter, blocked, rounds, taken);                         \
    }
PLAY_N(3)
PLAY_N(4)
PLAY_N(5)
PLAY_N(6)
PLAY_N(7)
PLAY_N(8)
PLAY_N(9)
PLAY_N(10)
PLAY_N(11)
PLAY_N(12)
static const play_fn PLAY[MAXN + 1] = {0, 0, 0, play_3, play_4, play_5, play_6,
                                       play_7, play_8, play_9, play_10, play_11, play_12};

/* 3..12 players, at least the 39 cards the ass's window needs dealt, at most the 110. */
static int valid(int n, int per_player)
{
    return n >= 3 && n <= MAXN && per_player >= 1 && n * per_player >= WINDOW &&
           n * per_player <= DECK + 1;
}

/* Minus points of a hand: the ass 20, a joker 14, a number card its value. */
static inline int64_t score(uint64_t hand)
{
    int64_t total = 20 * (int64_t)(hand & 15) + 14 * (int64_t)(hand >> JSHIFT);
    for (int w = 1; w <= 13; ++w)
        total += w * (int64_t)count_of(hand, w);
    return total;
}

/* Play games start..start+count-1 of `seed` (stream 0 of each) with `basic` in every seat;
 * minus_out[g * n + s] (or NULL) receives seat s's minus points in game start + g and
 * rounds_out[g] (or NULL) the game's rounds, as run_chunk's columns. Returns a checksum, or
 * INT64_MIN (+ the game's position) for bad arguments or a game that hit the round bound. */
int64_t ass_play_games(uint64_t seed, int64_t start, int64_t count, int32_t n,
                       int32_t per_player, int64_t *minus_out, int64_t *rounds_out)
{
    if (!valid(n, per_player))
        return INT64_MIN;
    uint64_t h[MAXN];
    int64_t check = 0;
    for (int64_t g = 0; g < count; ++g) {
        int ass_seat = deal(stream_start(seed, (uint64_t)(start + g), 0), n, per_player, h);
        int64_t rounds = PLAY[n](h, ass_seat, -1, 0, NULL);
        if (rounds < 0)
            return INT64_MIN + g; /* the round bound: never for a correct engine */
        if (rounds_out)
            rounds_out[g] = rounds;
        if (minus_out)
            for (int s = 0; s < n; ++s)
                minus_out[g * n + s] = score(h[s]);
        check += rounds + (int64_t)(h[0] & 0xFFFF);
    }
    return check;
}

/* The number of cards in a hand: its sixteen 4-bit counts summed. */
static inline int64_t hand_size(uint64_t hand)
{
    uint64_t b = (hand & 0x0F0F0F0F0F0F0F0FULL) + ((hand >> 4) & 0x0F0F0F0F0F0F0F0FULL);
    return (int64_t)((b * 0x0101010101010101ULL) >> 56);
}

/* Play games start..start+count-1 of `seed` as ass_play_games, and fill the numba kernel's
 * twelve result columns (analyzer/games/ass/description.py; kernel.play_chunk), row
 * g * n + s for seat s of game start + g, in the kernel's dtypes: index int64; seat,
 * minus_points, cards_left, jokers_left, ass_taken, rounds, ass_rounds, out_seat int16;
 * ended_with_ass, dealt_ass, went_out one byte (numpy bool). What issue 13's "per game" is
 * timed on: the same deal, play and rows as the numba engine's chunk. Returns a checksum, or
 * INT64_MIN (+ the game's position) as ass_play_games. */
int64_t ass_game_rows(uint64_t seed, int64_t start, int64_t count, int32_t n,
                      int32_t per_player, int64_t *index, int16_t *seat, int16_t *minus,
                      uint8_t *ended_with_ass, uint8_t *dealt_ass, int16_t *cards_left,
                      int16_t *jokers_left, int16_t *ass_taken, uint8_t *went_out,
                      int16_t *rounds_out, int16_t *ass_rounds_out, int16_t *out_seat)
{
    if (!valid(n, per_player))
        return INT64_MIN;
    uint64_t h[MAXN];
    int64_t taken[MAXN];
    int64_t check = 0;
    for (int64_t g = 0; g < count; ++g) {
        int ass_seat = deal(stream_start(seed, (uint64_t)(start + g), 0), n, per_player, h);
        for (int s = 0; s < n; ++s)
            taken[s] = 0;
        int64_t rounds = PLAY[n](h, ass_seat, -1, 0, taken);
        if (rounds < 0)
            return INT64_MIN + g;
        int64_t ass_rounds = 0;
        int first_out = -1;
        for (int s = n - 1; s >= 0; --s) {
            ass_rounds += taken[s];
            if (h[s] == 0)
                first_out = s;
        }
        for (int s = 0; s < n; ++s) {
            int64_t row = g * n + s;
            uint64_t hand = h[s];
            index[row] = start + g;
            seat[row] = (int16_t)s;
            minus[row] = (int16_t)score(hand);
            ended_with_ass[row] = (hand & 15) != 0;
            dealt_ass[row] = s == ass_seat;
            cards_left[row] = (int16_t)hand_size(hand);
            jokers_left[row] = (int16_t)(hand >> JSHIFT);
            ass_taken[row] = (int16_t)taken[s];
            went_out[row] = hand == 0;
            rounds_out[row] = (int16_t)rounds;
            ass_rounds_out[row] = (int16_t)ass_rounds;
            out_seat[row] = (int16_t)first_out;
        }
        check += rounds;
    }
    return check;
}

/* Play on from `count` states at the start of a round (bench_ass_search.mid_game_states:
 * states[i * n + s] the packed hands (their sizes are implicit), starters[i] the seat that
 * leads, blocked[i] the seat that may not lead the ass (-1: none; A-8), rounds[i] the
 * round's number), `basic` in every seat, as rollout.play_on does from pos 0; every state
 * `repeats` times, the state copied first. hands_out[i * n + s] (or NULL) receives the
 * final hands and turns_out[i] (or NULL) play_on's turns (every seat's turn in every round
 * played), the same on every repeat. Returns a checksum, or INT64_MIN (+ i) as
 * ass_play_games. */
int64_t ass_rollouts(const uint64_t *states, const int64_t *starters, const int64_t *blocked,
                     const int64_t *rounds, int64_t count, int32_t n, int64_t repeats,
                     uint64_t *hands_out, int64_t *turns_out)
{
    if (n < 3 || n > MAXN)
        return INT64_MIN;
    uint64_t h[MAXN];
    int64_t check = 0;
    for (int64_t r = 0; r < repeats; ++r) {
        for (int64_t i = 0; i < count; ++i) {
            for (int s = 0; s < n; ++s) /* the copy of the state, as every rollout needs */
                h[s] = states[i * n + s];
            int64_t played = PLAY[n](h, (int)starters[i], (int)blocked[i], rounds[i], NULL);
            if (played < 0)
                return INT64_MIN + i;
            if (turns_out)
                turns_out[i] = played * n; /* every seat has a turn in every round */
            if (hands_out)
                for (int s = 0; s < n; ++s)
                    hands_out[i * n + s] = h[s];
            check += played + (int64_t)(h[0] & 0xFFFF);
        }
    }
    return check;
}

/* The deals of games start..start+count-1 alone; a checksum of the hands (for the split). */
int64_t ass_deal_games(uint64_t seed, int64_t start, int64_t count, int32_t n,
                       int32_t per_player)
{
    if (!valid(n, per_player))
        return INT64_MIN;
    uint64_t h[MAXN];
    int64_t check = 0;
    for (int64_t g = 0; g < count; ++g) {
        int ass_seat = deal(stream_start(seed, (uint64_t)(start + g), 0), n, per_player, h);
        check += ass_seat + (int64_t)(h[0] & 0xFFFF);
    }
    return check;
}

