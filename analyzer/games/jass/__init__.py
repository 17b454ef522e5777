"""Plus-Minus Jass (3 or 4 players): the rules, the bottom layer of the game.

Modules, one job each (none imports a strategy, an engine or anything above them):

``description``  the game's facts declared once (players, modes, units, columns, metrics)
``cards``        card encoding (bitmasks in a uint64), names and constant tables
``rules``        the rules config (players, ruleset seed/swiss, deal cap) and its checks
``primitives``   jitted legal moves (J-5, J-6), trick comparison (J-7), points (J-8), state layout
``scoring``      jitted sticks (J-9), remembered ties and the match end (J-10)
``sticks``       J-9 in words, for records and samples
``names``        cards as players type them (``Rosen-Ass``, ``EU``): the parser of typed cards

The strategies (``strategies.jass``) sit above these; the play loops, the reference engine,
records and the run kernel (``analyzer.engines.jass``) above the strategies.
"""
