"""How many cases the sampling tests play: a quick sample in ``make test``, the full one in
``make test-deep``.

Some tests check a property on many sampled games (the engine against its pure-Python
reference, game by game; records against the independent rules check). Every case they
cover (player count, rule set, strategy, mode) is covered in both tiers; the deep tier plays
more games of each, with the same seeds, so a deep run repeats the quick run's games and adds
to them. ``make test`` (and CI) runs the quick tier; ``make test-deep``
(``CARDLAB_TEST_DEEP=1``) the deep one, before a release or after a change to an engine, a
reference or a strategy.

    GAMES = cases(60, 300)  # 60 games per case in make test, 300 in make test-deep
"""

from __future__ import annotations

import os

ENV = "CARDLAB_TEST_DEEP"
DEEP = os.environ.get(ENV, "").lower() in ("1", "true", "yes")


def cases(quick: int, deep: int) -> int:
    """``deep`` under ``make test-deep``, else ``quick`` (``quick <= deep``)."""
    if not 0 < quick <= deep:
        raise ValueError(f"cases(quick={quick}, deep={deep}): want 0 < quick <= deep")
    return deep if DEEP else quick
