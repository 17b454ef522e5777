"""Plus-Minus Jass engine layer: play loops, reference engine, records, the run kernel.

``engine``       the numba engine: whole matches and single deals, optional trace
``basic_play``   the plain run specialised to tables of ``basic`` alone
``reference``    the same game in plain, readable Python (checks the engine move for move)
``records``      engine trace -> game-records JSON, and record -> replay check
``kernel``       the contract of ``analyzer.engines.kernel`` (columns, validate, play_chunk)
``trump_value``  the counterfactual value of the trump choice (pandas table)
"""
