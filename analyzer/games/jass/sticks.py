"""J-9 for one deal, in plain Python: who gets sticks for the deal's card points, and why.

:func:`deal_sticks` is the ruling as the reference engine plays it (the numba engine is held
to it pattern by pattern); :func:`explain_sticks` says the same in words for replays and the
report. Nothing here imports numba.
"""

from __future__ import annotations


def deal_sticks(points: list[int]) -> tuple[list[int], list[tuple[int, int]]]:
    """J-9 cases 1-3 for one deal: sticks awarded and the two-way ties made."""
    n = len(points)
    award = [0] * n
    for i in range(n):
        others = [points[j] for j in range(n) if j != i]
        if len(set(others)) == 1 and points[i] != others[0]:
            award[i] = 2  # case 1
            return award, []
    ties: list[tuple[int, int]] = []

    def give(value: int) -> None:
        holders = [i for i in range(n) if points[i] == value]
        if len(holders) == 1:
            award[holders[0]] += 1
        elif len(holders) == 2:
            ties.append((holders[0], holders[1]))

    give(min(points))  # the fewest: case 2 and case 3
    if max(points) < 100:  # case 3: also the most
        give(max(points))
    return award, ties


def explain_sticks(points: list[int]) -> str:
    """J-9 for one deal in words.

    >>> explain_sticks([40, 40, 40, 37])
    'every seat but seat 3 has 40 points: seat 3 gets 2 sticks (J-9 case 1)'
    """
    n = len(points)
    award, _ = deal_sticks(points)
    if 2 in award:
        lone = award.index(2)
        return (f"every seat but seat {lone} has {points[(lone + 1) % n]} points: seat {lone} "
                "gets 2 sticks (J-9 case 1)")

    def who(value: int, what: str) -> str:
        holders = [i for i in range(n) if points[i] == value]
        if len(holders) == 1:
            return f"seat {holders[0]} has the {what} ({value}): 1 stick"
        names = " and ".join(str(i) for i in holders)
        if len(holders) == 2:
            return f"seats {names} tie for the {what} at {value}: remembered, no stick"
        return f"seats {names} tie for the {what} at {value}: no stick"

    if max(points) >= 100:
        top = points.index(max(points))
        fewest = who(min(points), "fewest points")
        return (f"seat {top} has 100 or more, so only the fewest points earn a stick: "
                f"{fewest} (J-9 case 2)")
    return f"{who(max(points), 'most points')}; {who(min(points), 'fewest points')} (J-9 case 3)"
