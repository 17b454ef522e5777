"""Who's the Ass? engine layer: play loops, reference engine, records, the run kernel.

``engine``     the numba engine: deal, rounds, scoring, optional move trace
``reference``  the same game in plain, readable Python (checks the engine move for move)
``records``    engine trace -> game-records JSON, and record -> replay check
``positions``  the full state before any play of a record, and the decider's view there
``kernel``     the contract of ``analyzer.engines.kernel`` (columns, validate, play_chunk)
"""
