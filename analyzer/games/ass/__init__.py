"""Who's the Ass? (3 to 12 players): the rules, the bottom layer of the game.

Modules, one job each (none imports a strategy, an engine or anything above them):

``description``  the game's facts declared once (players, modes, units, columns, metrics)
``rules``        the rules config (players, per_player from the rulebook table) and its checks
``cards``        card encoding, card names, move codes and the layout of the public state
``moves``        jitted legal-move generation and checking (shared by engine, policies, tests)
``names``        cards as players type them (``joker``, ``ass``): the parser of typed cards

The strategies (``strategies.ass``) sit above these; the play loops, the reference engine,
records and the run kernel (``analyzer.engines.ass``) above the strategies.
"""
