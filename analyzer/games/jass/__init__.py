"""Plus-Minus Jass (3 or 4 players): rules config, numba engine, pure-Python reference, records.

Modules, one job each:

``cards``        card encoding (bitmasks in a uint64), names and constant tables
``rules``        the rules config (players, ruleset seed/swiss, deal cap) and its checks
``primitives``   jitted legal moves (J-5, J-6), trick comparison (J-7), points (J-8), state layout
``scoring``      jitted sticks (J-9), remembered ties and the match end (J-10)
``engine``       the numba engine: whole matches and single deals, optional trace
``reference``    the same game in plain, readable Python (checks the engine move for move)
``records``      engine trace -> game-records JSON, and record -> replay check
``kernel``       the contract of ``analyzer.games.kernel`` (columns, validate, play_chunk)
``trump_value``  the counterfactual value of the trump choice (pandas table)
"""
