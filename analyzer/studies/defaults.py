"""The studies' default fields and choosers, in one place: the studies play them and their
commands' help lists them from here (a light module the command line can import at once).

A field is the strategy in every other seat; ``learned`` (fast and strong) is in each
study's default fields, ``pimc`` (the strongest, tagged slow) where a study gives it a share.
"""

from __future__ import annotations

# cardlab study fields: Who's the Ass? fields, and the Jass players of its trump question
FIELDS = ("basic", "careful", "tuned", "random", "learned")
TRUMP_FIELDS = ("adaptive", "aim-low", "catch-up", "tuned", "learned")
# cardlab study trump: choosers, each on a table of its own (its seats all play it)
TRUMP_CHOOSERS = ("re-aim", "learned", "pimc")
# cardlab study ladder: a strategy tagged slow (pimc) enters on 1/LADDER_SLOW_SHARE of the
# deals; half, because at a tenth the Jass first group (pimc, then learned some 5 to 10
# points of match wins behind) changed with the seed.
LADDER_SLOW_SHARE = 2


def words(names: tuple[str, ...]) -> str:
    """'a, b, c' for a command's help."""
    return ", ".join(names)
