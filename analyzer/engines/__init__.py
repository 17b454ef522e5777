"""The engine layer: each game's play loops, reference engine, records and run kernel.

It sits above the rules (``analyzer.games``) and the strategies (``strategies``), which it
dispatches to, and below the runner, studies, tune, reports and command line.
``kernel`` is the contract every game's kernel module fulfils for the runner.
"""
