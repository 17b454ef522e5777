"""Who's the Ass? (3 to 12 players): rules config, numba engine, pure-Python reference, records.

Modules, one job each:

``rules``      the rules config (players, per_player from the rulebook table) and its checks
``cards``      card encoding, card names, move codes and the layout of the public state
``moves``      jitted legal-move generation and checking (shared by engine, policies, tests)
``engine``     the numba engine: deal, rounds, scoring, optional move trace
``reference``  the same game in plain, readable Python (checks the engine move for move)
``records``    engine trace -> game-records JSON, and record -> replay check
``kernel``     the contract of ``analyzer.games.kernel`` (columns, validate, play_chunk)
"""
