"""Sticks (J-9), remembered ties and the match end (J-10), jitted.

Single deals (``deals`` mode, and the trump-choice table in that mode) use :func:`base_sticks`
alone: J-9 applied to that one deal with no memory, so a two-way tie for the most or the fewest
points gives that stick to nobody and is then simply dropped.

In a match, :func:`settle_ties` pays remembered ties after the deal's base sticks are known and
then remembers the ties this deal made; ``ties[i, j]`` (i < j) counts the pending ties of a pair.

Every function here is inlined into its callers (numba's ``inline="always"``): they run once per
deal in the plain run's loops, where a call passes each array as seven to nine values; inlined,
they cost a ``basic``-alone deal about 3% less and a deal of a match about 8% less
(``scripts/cbase_jass.py --rounds``, issue 13). The searches for equal points are written
without early exits, so that the compiled code selects instead of branching on the points.
"""

from __future__ import annotations

from analyzer.numba_compat import njit_no_runtime

MATCH_TARGET = 7  # J-10: 7 or more sticks and more than every other player


@njit_no_runtime(inline="always")
def base_sticks(points, n, award, newties):
    """J-9 cases 1-3 for one deal.

    Writes the sticks each seat is awarded into ``award`` (n slots, overwritten) and the ties it
    creates into ``newties`` as (a, b) pairs with a < b; returns the number of ties (0 or 1 with
    4 players: two pairs at once would need a, a, b, b points, impossible as 157 is odd).
    """
    for i in range(n):
        award[i] = 0
    # Case 1: all players but one have the same points. Each test is an and of comparisons
    # with no early exit, so the only data-dependent branch left is the rare case-1 return:
    # 25 ns against 37 for base_sticks on real deals (the search-and-break form before).
    for i in range(n):
        ref = points[1] if i == 0 else points[0]  # the points of the first other seat
        same = True
        for j in range(n):
            same &= (j == i) | (points[j] == ref)
        if same and points[i] != ref:
            award[i] = 2
            return 0
    lo = points[0]
    hi = points[0]
    for i in range(1, n):
        lo = min(lo, points[i])
        hi = max(hi, points[i])
    nt = 0
    # The fewest gets a stick in cases 2 and 3; the most only in case 3 (nobody has 100).
    nt = _give(points, n, lo, award, newties, nt)
    if hi < 100:
        nt = _give(points, n, hi, award, newties, nt)
    return nt


@njit_no_runtime(inline="always")
def _give(points, n, value, award, newties, nt):
    """One stick to the single seat with ``value`` points, or remember the two-way tie."""
    first = -1  # the lowest seat with ``value``, then the next lowest
    second = -1
    count = 0
    for i in range(n - 1, -1, -1):
        hit = points[i] == value
        count += hit
        if hit:
            second = first
            first = i
    if count == 1:
        award[first] += 1
    elif count == 2:  # only reachable with 4 players (3 players: a two-way tie is case 1)
        newties[2 * nt] = first
        newties[2 * nt + 1] = second
        nt += 1
    return nt


@njit_no_runtime(inline="always")
def settle_ties(award, bonus, ties, newties, nt, n):
    """Pay remembered ties (J-9) and then remember this deal's ties.

    A pending tie of (i, j) pays when exactly one of the two was awarded a stick in this deal:
    that one gets one extra stick per pending tie of the pair, and the pair's ties are forgotten.
    Ties made in this deal are added only afterwards, so they cannot pay in the deal that made
    them. ``bonus`` (n slots) is overwritten with the extra sticks.
    """
    for i in range(n):
        bonus[i] = 0
    for i in range(n):
        for j in range(i + 1, n):
            c = ties[i, j]
            if c == 0:
                continue
            gi = award[i] > 0
            gj = award[j] > 0
            if gi and not gj:
                bonus[i] += c
                ties[i, j] = 0
            elif gj and not gi:
                bonus[j] += c
                ties[i, j] = 0
    for k in range(nt):
        ties[newties[2 * k], newties[2 * k + 1]] += 1


@njit_no_runtime(inline="always")
def match_winner(sticks, n):
    """J-10: the seat with 7 or more sticks and more than every other player, else -1."""
    best = 0
    for i in range(1, n):
        if sticks[i] > sticks[best]:
            best = i
    if sticks[best] < MATCH_TARGET:
        return -1
    for i in range(n):
        if i != best and sticks[i] >= sticks[best]:
            return -1
    return best
