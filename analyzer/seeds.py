"""The master seed's facts, for code that checks or defaults a seed without playing a game.

A game is identified by (seed, index) (:mod:`analyzer.rng`, the random-number contract, which
checks its seeds against :data:`MAX_SEED` from here). They live apart from the jitted
generator so that the command line can check a ``--seed`` and print its help without
importing numba.
"""

MAX_SEED = (1 << 63) - 1
# The master seed a command uses when none is given: the same for every command and study.
DEFAULT_SEED = 0
