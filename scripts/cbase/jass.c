/* A hand-written C engine of Plus-Minus Jass, `basic` in every seat: the same-run yardstick
 * of issue 13 (scripts/cbase_jass.py loads it, scripts/bench_jass.py times it beside numba).
 *
 * It plays exactly the deals and matches of the numba engine (analyzer/engines/jass/engine.py)
 * for every (seed, index): the same stream (analyzer/rng.py: splitmix64, randbelow by 32-bit
 * multiply-shift, stream_start(seed, index, 0)), the same Fisher-Yates shuffle and deal in
 * packets of three (J-2), the first dealer drawn first in a match (J-3), the `seed` rule set of
 * J-4..J-7, `basic` of docs/baseline-strategies.md with its tie-breaks, J-8 points, J-9 sticks
 * with remembered ties in a match, J-10 and the deal cap. tests/test_cbase_jass.py checks it
 * against the numba kernel's result columns and the numba rollout.
 *
 * Written for speed, not as a transliteration: 36-bit card masks, the trick state in locals,
 * n a compile-time constant (one copy of the play loop for 3 and one for 4 players, so no
 * division anywhere), a card's trick power from one table (trump 16 + trump strength, led
 * suit its rank, else -1: the trick's best card is the one of highest power), `basic` as the
 * minimum of four 9-bit-pattern table lookups, points from 9-bit-pattern tables, nothing
 * allocated. It keeps only the state `basic` and the scores need: not the public record
 * (voids, inferences, the order of play) that the numba engine keeps for other strategies.
 * The rule set is `seed` only.
 *
 * Card c = suit * 9 + rank, suits B S R A, ranks 6 7 8 9 10 U O K A (analyzer/games/jass/cards.py).
 */
#include <stdint.h>
#include <string.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL
#define M9 511ULL
#define NO_KEY 0xFFFFu

/* The numba engine's packed state (analyzer/games/jass/primitives.py), for the rollouts. */
enum {
    S_N = 0, S_TRUMP = 2, S_FIXER = 3, S_LEADER = 4, S_POS = 5, S_TRICK = 6, S_LED = 7,
    S_BEST_SEAT = 8, S_BEST_CARD = 9, S_LAST_WINNER = 11, S_NTRICKS = 15, S_TCARD = 16,
    S_WON = 32, ST_SIZE = 82
};
/* One row of a packed rollout state: hands, played, taken (4 each) and the stream. */
enum { U_HANDS = 0, U_TAKEN = 8, U_WIDTH = 13 };

/* Output columns, in the order of the kernel's play_chunk. */
enum { D_POINTS, D_TRICKS, D_STICKS, D_FIXED, D_TRUMP, D_LAST, D_COLS };
enum { M_STICKS, M_WON, M_BONUS, M_DEALS, M_CAPPED, M_WINNER, M_FIRST_DEALER, M_COLS };
enum { R_TAKEN = 0, R_WON = 4, R_LAST = 8, R_TRUMP = 9, R_FIXER = 10, R_COLS = 11 };

static const int TRUMP_STRENGTH_R[9] = {0, 1, 2, 7, 3, 8, 4, 5, 6};
static const int PLAIN_POINTS_R[9] = {0, 0, 0, 0, 10, 2, 3, 4, 11};
static const int TRUMP_POINTS_R[9] = {0, 0, 0, 14, 10, 20, 3, 4, 11};
static const int NO_TRUMP_POINTS_R[9] = {0, 0, 8, 0, 10, 2, 3, 4, 11};

/* KEY9[t][m]: `basic`'s choice within one suit whose legal cards form the 9-bit pattern m,
 * counted as plain cards (t = 0) or as trumps (t = 1): points << 10 | strength << 6 | rank, the
 * minimum over the pattern; the caller ors in suit << 4, so the minimum over the suits orders
 * by (points, strength in the card's own order, suit) as the numba BASIC_KEY does. */
static uint16_t KEY9[2][512];
/* PTS9[k][m]: points of the cards of one suit, k = 0 plain, 1 trump, 2 no trump in the deal. */
static uint8_t PTS9[3][512];
/* HIGHER9[h]: ranks whose trump strength exceeds h (9-bit pattern), h = 0..8. */
static uint16_t HIGHER9[9];
/* POWER[trump + 1][led][card]: the card's power in a trick (see above). */
static int8_t POWER[5][4][36];
/* OWNER[n - 3][first][k]: the seat that receives the card at deck position k (J-2). */
static uint8_t OWNER[2][4][36];
static uint8_t SUIT_OF[36];

__attribute__((constructor)) static void init_tables(void)
{
    for (int m = 0; m < 512; m++) {
        unsigned plain = NO_KEY, trump = NO_KEY;
        int pp = 0, pt = 0, pn = 0;
        for (int r = 0; r < 9; r++) {
            if (!(m >> r & 1))
                continue;
            unsigned kp = (unsigned)(PLAIN_POINTS_R[r] << 10 | r << 6 | r);
            unsigned kt = (unsigned)(TRUMP_POINTS_R[r] << 10 | TRUMP_STRENGTH_R[r] << 6 | r);
            if (kp < plain)
                plain = kp;
            if (kt < trump)
                trump = kt;
            pp += PLAIN_POINTS_R[r];
            pt += TRUMP_POINTS_R[r];
            pn += NO_TRUMP_POINTS_R[r];
        }
        KEY9[0][m] = (uint16_t)plain;
        KEY9[1][m] = (uint16_t)trump;
        PTS9[0][m] = (uint8_t)pp;
        PTS9[1][m] = (uint8_t)pt;
        PTS9[2][m] = (uint8_t)pn;
    }
    for (int h = 0; h < 9; h++) {
        unsigned m = 0;
        for (int r = 0; r < 9; r++)
            if (TRUMP_STRENGTH_R[r] > h)
                m |= 1u << r;
        HIGHER9[h] = (uint16_t)m;
    }
    for (int t = -1; t < 4; t++)
        for (int led = 0; led < 4; led++)
            for (int c = 0; c < 36; c++) {
                int s = c / 9, r = c % 9;
                POWER[t + 1][led][c] = (int8_t)(s == t ? 16 + TRUMP_STRENGTH_R[r]
                                                       : s == led ? r : -1);
            }
    for (int n = 3; n <= 4; n++)
        for (int first = 0; first < n; first++)
            for (int k = 0; k < 36; k++)
                OWNER[n - 3][first][k] = (uint8_t)((first + (k / 3) % n) % n);
    for (int c = 0; c < 36; c++)
        SUIT_OF[c] = (uint8_t)(c / 9);
}

#define INLINE static inline __attribute__((always_inline))

INLINE uint64_t suit_mask(int s) { return M9 << (9 * s); }

INLINE uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

INLINE uint64_t stream_start(uint64_t seed, uint64_t index)
{
    uint64_t s = mix64(seed + GOLDEN);
    s = mix64(s + index);
    return mix64(s + 0); /* stream 0: the game itself */
}

INLINE int randbelow(uint64_t *rng, uint32_t n)
{
    *rng += GOLDEN;
    return (int)(((mix64(*rng) >> 32) * n) >> 32);
}

/* `basic` within one suit: its key (see KEY9) for the legal cards `m9` of suit s. */
INLINE unsigned suit_key(int t, uint64_t m9, int s)
{
    return KEY9[t][m9] | (unsigned)s << 4;
}

INLINE int key_card(unsigned key) { return (int)((key >> 4 & 3) * 9 + (key & 15)); }

INLINE unsigned min_key(unsigned a, unsigned b) { return a < b ? a : b; }

/* `basic` over a whole hand (a lead, or a follower free to play anything): suits in
 * `tsuits` (bit s) count as trumps. */
INLINE int basic_any(uint64_t hand, unsigned tsuits)
{
    unsigned best = NO_KEY;
    for (int s = 0; s < 4; s++)
        best = min_key(best, suit_key(tsuits >> s & 1, (hand >> (9 * s)) & M9, s));
    return key_card(best);
}

/* One deal in play: hands, tricks won, trump. */
typedef struct {
    uint64_t hand[4], taken[4];
    int won[4];
    int trump, fixer, leader, last;
} Deal;

/* A follower's move, J-5/J-6 under `seed` and `basic` fused: each case of the legal cards
 * picks `basic`'s card from the one or two suits it allows. `power` is the trick's best power
 * so far (16 + trump strength once a trump is in the trick). */
INLINE void follow(Deal *d, int seat, int led, uint64_t *trick, int *power, int *best)
{
    uint64_t hand = d->hand[seat];
    int trump = d->trump;
    uint64_t led9 = (hand >> (9 * led)) & M9;
    int card;
    if (trump < 0) {
        if (led9)
            card = led * 9 + (KEY9[0][led9] & 15);
        else { /* J-5: void in the led suit, any card; it fixes trump and counts as one */
            card = basic_any(hand, 15u);
            trump = d->trump = SUIT_OF[card];
            d->fixer = seat;
        }
    } else {
        uint64_t tr9 = (hand >> (9 * trump)) & M9;
        if (led == trump) /* trump led: a trump if held */
            card = tr9 ? trump * 9 + (KEY9[1][tr9] & 15) : basic_any(hand, 1u << trump);
        else if (*power < 16) /* no trump in the trick: follow or trump */
            card = led9 ? key_card(min_key(suit_key(0, led9, led), suit_key(1, tr9, trump)))
                        : basic_any(hand, 1u << trump);
        else { /* a trump in the trick: follow or over-trump; void: over-trump, else under */
            uint64_t higher9 = tr9 & HIGHER9[*power - 16];
            if (led9)
                card = key_card(min_key(suit_key(0, led9, led), suit_key(1, higher9, trump)));
            else if (higher9)
                card = trump * 9 + (KEY9[1][higher9] & 15);
            else if (tr9)
                card = trump * 9 + (KEY9[1][tr9] & 15);
            else
                card = basic_any(hand, 1u << trump);
        }
    }
    uint64_t b = 1ULL << card;
    d->hand[seat] = hand & ~b;
    *trick |= b;
    int p = POWER[trump + 1][led][card];
    *best = p > *power ? seat : *best;
    *power = p > *power ? p : *power;
}

INLINE int next_seat(const int n, int seat)
{
    return n == 4 ? (seat + 1) & 3 : seat == n - 1 ? 0 : seat + 1;
}

INLINE void end_trick(Deal *d, uint64_t trick, int best)
{
    d->taken[best] |= trick;
    d->won[best]++;
    d->leader = best;
}

/* Play the deal on from the start of trick `t` to its end. */
INLINE void play_tricks(const int n, Deal *d, int t)
{
    const int ntr = 36 / n;
    for (; t < ntr; t++) {
        int seat = d->leader;
        int trump = d->trump;
        int card = basic_any(d->hand[seat], trump >= 0 ? 1u << trump : 0u); /* J-4 */
        uint64_t trick = 1ULL << card;
        d->hand[seat] &= ~trick;
        int led = SUIT_OF[card];
        int power = POWER[trump + 1][led][card];
        int best = seat;
        for (int pos = 1; pos < n; pos++) {
            seat = next_seat(n, seat);
            follow(d, seat, led, &trick, &power, &best);
        }
        end_trick(d, trick, best);
    }
    d->last = d->leader;
}

/* J-2: shuffle (35 draws) and deal in packets of three from the seat after the dealer. */
INLINE void deal_cards(const int n, Deal *d, uint64_t *rng, int first)
{
    static const uint8_t IDENTITY[36] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                         12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                                         24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};
    uint8_t deck[36];
    const uint8_t *owner = OWNER[n - 3][first];
    uint64_t h[4] = {0, 0, 0, 0};
    memcpy(deck, IDENTITY, 36);
    for (int i = 35; i > 0; i--) { /* Fisher-Yates; position i is final after its swap */
        int j = randbelow(rng, (uint32_t)i + 1);
        uint8_t c = deck[j];
        deck[j] = deck[i];
        h[owner[i]] |= 1ULL << c;
    }
    h[owner[0]] |= 1ULL << deck[0];
    for (int i = 0; i < 4; i++) {
        d->hand[i] = h[i];
        d->taken[i] = 0;
        d->won[i] = 0;
    }
    d->trump = -1;
    d->fixer = -1;
    d->leader = first;
}

/* J-8: points of every seat, the last trick's 5 included. */
INLINE void deal_points(const int n, const Deal *d, int *points)
{
    for (int i = 0; i < n; i++) {
        uint64_t m = d->taken[i];
        int p = 0;
        for (int s = 0; s < 4; s++) {
            int k = d->trump < 0 ? 2 : s == d->trump ? 1 : 0;
            p += PTS9[k][(m >> (9 * s)) & M9];
        }
        points[i] = p;
    }
    points[d->last] += 5;
}

/* J-9 cases 1-3 for one deal: sticks in award; a two-way tie (4 players) in *tie_a, *tie_b
 * (else -1). Returns nothing else: two ties at once cannot happen (157 is odd). */
INLINE void give(const int n, const int *points, int value, int *award, int *ta, int *tb)
{
    int first = -1, second = -1, count = 0;
    for (int i = 0; i < n; i++)
        if (points[i] == value) {
            count++;
            if (first < 0)
                first = i;
            else
                second = i;
        }
    if (count == 1)
        award[first] += 1;
    else if (count == 2) {
        *ta = first;
        *tb = second;
    }
}

INLINE void base_sticks(const int n, const int *points, int *award, int *ta, int *tb)
{
    *ta = *tb = -1;
    for (int i = 0; i < n; i++)
        award[i] = 0;
    for (int i = 0; i < n; i++) { /* case 1: all but one have the same points */
        int ref = points[i == 0 ? 1 : 0];
        int same = 1;
        for (int j = 0; j < n; j++)
            if (j != i && points[j] != ref)
                same = 0;
        if (same && points[i] != ref) {
            award[i] = 2;
            return;
        }
    }
    int lo = points[0], hi = points[0];
    for (int i = 1; i < n; i++) {
        lo = points[i] < lo ? points[i] : lo;
        hi = points[i] > hi ? points[i] : hi;
    }
    give(n, points, lo, award, ta, tb);
    if (hi < 100)
        give(n, points, hi, award, ta, tb);
}

/* The numba kernel's result columns (analyzer/games/jass/description.py), in its dtypes, one
 * row per (unit, seat): what its play_chunk returns in fresh arrays. numpy bools are bytes. */
typedef struct {
    int64_t *index;
    int16_t *seat, *points, *tricks, *sticks;
    uint8_t *fixed;
    int8_t *trump;
    uint8_t *last;
} DealCols;

typedef struct {
    int64_t *index;
    int16_t *seat, *sticks;
    uint8_t *won;
    int16_t *bonus, *deals;
    uint8_t *capped;
    int16_t *winner, *first_dealer;
} MatchCols;

/* One single deal (J-3: seat n-1 deals, seat 0 leads; J-9 alone, no remembered ties); its
 * results in `row` (int64 rows of D_COLS) or in the kernel's columns `cols` at rows k0.. */
INLINE int64_t one_deal(const int n, uint64_t seed, int64_t index, int64_t *row,
                        const DealCols *cols, int64_t k0)
{
    Deal d;
    uint64_t rng = stream_start(seed, (uint64_t)index);
    deal_cards(n, &d, &rng, 0);
    play_tricks(n, &d, 0);
    int points[4], award[4], ta, tb;
    deal_points(n, &d, points);
    base_sticks(n, points, award, &ta, &tb);
    int64_t check = d.trump * 7 + d.fixer;
    for (int i = 0; i < n; i++) {
        check += (points[i] * 3 + award[i]) * (i + 1);
        if (row) {
            int64_t *r = row + i * D_COLS;
            r[D_POINTS] = points[i];
            r[D_TRICKS] = d.won[i];
            r[D_STICKS] = award[i];
            r[D_FIXED] = d.fixer == i;
            r[D_TRUMP] = d.trump;
            r[D_LAST] = d.last == i;
        }
        if (cols) {
            int64_t k = k0 + i;
            cols->index[k] = index;
            cols->seat[k] = (int16_t)i;
            cols->points[k] = (int16_t)points[i];
            cols->tricks[k] = (int16_t)d.won[i];
            cols->sticks[k] = (int16_t)award[i];
            cols->fixed[k] = d.fixer == i;
            cols->trump[k] = (int8_t)d.trump;
            cols->last[k] = d.last == i;
        }
    }
    return check;
}

/* One match (J-10): the first dealer drawn first, the deal passing on, remembered ties. */
INLINE int64_t one_match(const int n, uint64_t seed, int64_t index, int cap, int64_t *row,
                         const MatchCols *cols, int64_t k0)
{
    Deal d;
    uint64_t rng = stream_start(seed, (uint64_t)index);
    int dealer = randbelow(&rng, (uint32_t)n);
    int first_dealer = dealer;
    int sticks[4] = {0, 0, 0, 0}, bonus_total[4] = {0, 0, 0, 0};
    int ties[4][4];
    memset(ties, 0, sizeof ties);
    int winner = -1, deals = 0;
    while (deals < cap) {
        deals++;
        deal_cards(n, &d, &rng, next_seat(n, dealer));
        play_tricks(n, &d, 0);
        int points[4], award[4], bonus[4] = {0, 0, 0, 0}, ta, tb;
        deal_points(n, &d, points);
        base_sticks(n, points, award, &ta, &tb);
        if (n == 4) { /* J-9: pay remembered ties, then remember this deal's */
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) {
                    int c = ties[i][j];
                    if (c == 0)
                        continue;
                    if (award[i] > 0 && award[j] == 0) {
                        bonus[i] += c;
                        ties[i][j] = 0;
                    } else if (award[j] > 0 && award[i] == 0) {
                        bonus[j] += c;
                        ties[i][j] = 0;
                    }
                }
            if (ta >= 0)
                ties[ta][tb]++;
        }
        for (int i = 0; i < n; i++) {
            sticks[i] += award[i] + bonus[i];
            bonus_total[i] += bonus[i];
        }
        int best = 0; /* J-10: 7 or more and more than every other player */
        for (int i = 1; i < n; i++)
            if (sticks[i] > sticks[best])
                best = i;
        if (sticks[best] >= 7) {
            int alone = 1;
            for (int i = 0; i < n; i++)
                if (i != best && sticks[i] >= sticks[best])
                    alone = 0;
            if (alone) {
                winner = best;
                break;
            }
        }
        dealer = next_seat(n, dealer);
    }
    int64_t check = deals * 11 + winner * 5 + first_dealer;
    for (int i = 0; i < n; i++) {
        check += (sticks[i] * 13 + bonus_total[i]) * (i + 1);
        if (row) {
            int64_t *r = row + i * M_COLS;
            r[M_STICKS] = sticks[i];
            r[M_WON] = winner == i;
            r[M_BONUS] = bonus_total[i];
            r[M_DEALS] = deals;
            r[M_CAPPED] = winner < 0;
            r[M_WINNER] = winner;
            r[M_FIRST_DEALER] = first_dealer;
        }
        if (cols) {
            int64_t k = k0 + i;
            cols->index[k] = index;
            cols->seat[k] = (int16_t)i;
            cols->sticks[k] = (int16_t)sticks[i];
            cols->won[k] = winner == i;
            cols->bonus[k] = (int16_t)bonus_total[i];
            cols->deals[k] = (int16_t)deals;
            cols->capped[k] = winner < 0;
            cols->winner[k] = (int16_t)winner;
            cols->first_dealer[k] = (int16_t)first_dealer;
        }
    }
    return check;
}

static int64_t deals_n3(uint64_t seed, int64_t start, int64_t count, int64_t *out)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++)
        check += one_deal(3, seed, start + u, out ? out + u * 3 * D_COLS : 0, 0, 0);
    return check;
}

static int64_t deals_n4(uint64_t seed, int64_t start, int64_t count, int64_t *out)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++)
        check += one_deal(4, seed, start + u, out ? out + u * 4 * D_COLS : 0, 0, 0);
    return check;
}

/* Single deals start..start+count-1 with n players; out (if not NULL): count * n rows of
 * D_COLS int64 (points, tricks, sticks, fixed_trump, trump, last_trick), seats relative to the
 * dealer as in the kernel's deals mode. Returns a checksum of the results, or -1 for a bad n. */
int64_t jass_play_deals(uint64_t seed, int64_t start, int64_t count, int32_t n, int64_t *out)
{
    if (n == 3)
        return deals_n3(seed, start, count, out);
    if (n == 4)
        return deals_n4(seed, start, count, out);
    return -1;
}

/* The parts of a single deal, for the split of scripts/bench_jass.py: part 0 shuffles and
 * deals only, part 1 also plays the 36 cards (no points, sticks or columns). Returns a
 * checksum, or -1 for a bad n or part. */
INLINE int64_t deal_part(const int n, uint64_t seed, int64_t start, int64_t count, int part)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++) {
        Deal d;
        uint64_t rng = stream_start(seed, (uint64_t)(start + u));
        deal_cards(n, &d, &rng, 0);
        if (part == 0) {
            check += (int64_t)(d.hand[0] & 0xFF);
            continue;
        }
        play_tricks(n, &d, 0);
        check += d.last + (int64_t)(d.taken[0] & 0xFF);
    }
    return check;
}

int64_t jass_deal_parts(uint64_t seed, int64_t start, int64_t count, int32_t n, int32_t part)
{
    if (part != 0 && part != 1)
        return -1;
    if (n == 3)
        return part ? deal_part(3, seed, start, count, 1) : deal_part(3, seed, start, count, 0);
    if (n == 4)
        return part ? deal_part(4, seed, start, count, 1) : deal_part(4, seed, start, count, 0);
    return -1;
}

static int64_t matches_n3(uint64_t seed, int64_t start, int64_t count, int cap, int64_t *out)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++)
        check += one_match(3, seed, start + u, cap, out ? out + u * 3 * M_COLS : 0, 0, 0);
    return check;
}

static int64_t matches_n4(uint64_t seed, int64_t start, int64_t count, int cap, int64_t *out)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++)
        check += one_match(4, seed, start + u, cap, out ? out + u * 4 * M_COLS : 0, 0, 0);
    return check;
}

/* Matches start..start+count-1 with n players and at most `cap` deals each; out (if not NULL):
 * count * n rows of M_COLS int64 (sticks, won, bonus_sticks, deals, capped, winner,
 * first_dealer) as the kernel's matches mode. Returns a checksum, or -1 for a bad n or cap. */
int64_t jass_play_matches(uint64_t seed, int64_t start, int64_t count, int32_t n, int32_t cap,
                          int64_t *out)
{
    if (cap < 1)
        return -1;
    if (n == 3)
        return matches_n3(seed, start, count, cap, out);
    if (n == 4)
        return matches_n4(seed, start, count, cap, out);
    return -1;
}

/* Single deals (as jass_play_deals) written into the numba kernel's eight deals-mode columns,
 * fresh arrays of count * n rows from the caller, in play_chunk's order: index int64; seat,
 * points, tricks, sticks int16; fixed_trump byte; trump int8 (on every seat's row);
 * last_trick byte. What a deal costs the numba engine's chunk: the same deal, play, scores
 * and rows. Returns a checksum, or -1 for a bad n. */
static int64_t deal_rows_n3(uint64_t seed, int64_t start, int64_t count, const DealCols *c)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++)
        check += one_deal(3, seed, start + u, 0, c, u * 3);
    return check;
}

static int64_t deal_rows_n4(uint64_t seed, int64_t start, int64_t count, const DealCols *c)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++)
        check += one_deal(4, seed, start + u, 0, c, u * 4);
    return check;
}

int64_t jass_deal_rows(uint64_t seed, int64_t start, int64_t count, int32_t n, int64_t *index,
                       int16_t *seat, int16_t *points, int16_t *tricks, int16_t *sticks,
                       uint8_t *fixed, int8_t *trump, uint8_t *last)
{
    DealCols c = {index, seat, points, tricks, sticks, fixed, trump, last};
    if (n == 3)
        return deal_rows_n3(seed, start, count, &c);
    if (n == 4)
        return deal_rows_n4(seed, start, count, &c);
    return -1;
}

/* Matches (as jass_play_matches) written into the numba kernel's nine matches-mode columns,
 * fresh arrays of count * n rows: index int64; seat, sticks int16; won byte; bonus_sticks,
 * deals int16; capped byte; winner, first_dealer int16 (the per-match values on every seat's
 * row). Returns a checksum, or -1 for a bad n or cap. */
static int64_t match_rows_n3(uint64_t seed, int64_t start, int64_t count, int cap,
                             const MatchCols *c)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++)
        check += one_match(3, seed, start + u, cap, 0, c, u * 3);
    return check;
}

static int64_t match_rows_n4(uint64_t seed, int64_t start, int64_t count, int cap,
                             const MatchCols *c)
{
    int64_t check = 0;
    for (int64_t u = 0; u < count; u++)
        check += one_match(4, seed, start + u, cap, 0, c, u * 4);
    return check;
}

int64_t jass_match_rows(uint64_t seed, int64_t start, int64_t count, int32_t n, int32_t cap,
                        int64_t *index, int16_t *seat, int16_t *sticks, uint8_t *won,
                        int16_t *bonus, int16_t *deals, uint8_t *capped, int16_t *winner,
                        int16_t *first_dealer)
{
    MatchCols c = {index, seat, sticks, won, bonus, deals, capped, winner, first_dealer};
    if (cap < 1)
        return -1;
    if (n == 3)
        return match_rows_n3(seed, start, count, cap, &c);
    if (n == 4)
        return match_rows_n4(seed, start, count, cap, &c);
    return -1;
}

/* Unpack a numba packed state, finish its current trick and play the deal to the end. */
INLINE int64_t rollout_one(const int n, const uint64_t *u, const int64_t *st, int64_t *row)
{
    Deal d;
    for (int i = 0; i < 4; i++) {
        d.hand[i] = u[U_HANDS + i];
        d.taken[i] = u[U_TAKEN + i];
        d.won[i] = (int)st[S_WON + i];
    }
    d.trump = (int)st[S_TRUMP];
    d.fixer = (int)st[S_FIXER];
    d.leader = (int)st[S_LEADER];
    d.last = (int)st[S_LAST_WINNER];
    int t = (int)st[S_TRICK];
    int pos = (int)st[S_POS];
    if (pos > 0) {
        int led = (int)st[S_LED];
        int best = (int)st[S_BEST_SEAT];
        int power = POWER[d.trump + 1][led][st[S_BEST_CARD]];
        uint64_t trick = 0;
        for (int k = 0; k < pos; k++)
            trick |= 1ULL << st[S_TCARD + k];
        int seat = d.leader + pos - 1;
        seat = seat >= n ? seat - n : seat;
        for (; pos < n; pos++) {
            seat = next_seat(n, seat);
            follow(&d, seat, led, &trick, &power, &best);
        }
        end_trick(&d, trick, best);
        t++;
    }
    if (t < 36 / n)
        play_tricks(n, &d, t);
    else if (pos > 0) /* the state's trick was the last */
        d.last = d.leader;
    int64_t check = d.last * 5 + d.trump;
    for (int i = 0; i < n; i++)
        check += (int64_t)(d.taken[i] % 1021) * (i + 1) + d.won[i];
    if (row) {
        for (int i = 0; i < 4; i++) {
            row[R_TAKEN + i] = (int64_t)d.taken[i];
            row[R_WON + i] = d.won[i];
        }
        row[R_LAST] = d.last;
        row[R_TRUMP] = d.trump;
        row[R_FIXER] = d.fixer;
    }
    return check;
}

/* Roll `rows` packed states (u: rows x U_WIDTH uint64 hands/played/taken/stream as
 * scripts/bench_jass.py packs them; st: rows x ST_SIZE int64, the numba public state; all
 * with n = st[S_N] players and `basic` in every seat) to the end of their deal, `reps` times
 * over. out (if not NULL): rows x R_COLS int64 (taken masks, tricks won per seat, last
 * winner, trump, fixer) of the last pass. play = 0 only unpacks (the copy the timing
 * subtracts). Returns a checksum, or -1 for a state that is not of a 3- or 4-player deal. */
int64_t jass_rollouts(const uint64_t *u, const int64_t *st, int64_t rows, int64_t reps,
                      int32_t play, int64_t *out)
{
    int64_t check = 0;
    for (int64_t k = 0; k < rows; k++)
        if (st[k * ST_SIZE + S_N] != 3 && st[k * ST_SIZE + S_N] != 4)
            return -1;
    for (int64_t r = 0; r < reps; r++)
        for (int64_t k = 0; k < rows; k++) {
            const uint64_t *uk = u + k * U_WIDTH;
            const int64_t *sk = st + k * ST_SIZE;
            int64_t *row = out && r == reps - 1 ? out + k * R_COLS : 0;
            if (!play)
                check += (int64_t)(uk[U_HANDS] ^ uk[U_TAKEN]) + sk[S_TRICK];
            else if (sk[S_N] == 4)
                check += rollout_one(4, uk, sk, row);
            else
                check += rollout_one(3, uk, sk, row);
        }
    return check;
}
