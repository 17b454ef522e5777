"""A toy game in one folder, added to cardlab by one registration (docs/adding-a-game.md).

*Coins*: every seat tosses ``coins`` coins (its strategy's knob), the most heads wins (ties:
the lowest seat). The folder holds what a game must provide: its description with its
adapter (``description.py``), its kernel (``kernel.py``: the runner contract, here numpy
alone) and its strategies (``catalog.py``). It leaves out every optional part (analysis,
board, viewer, command line, Python bots, labels, warm parts, extra tables): cardlab says
in one line that a part is not available for it. tests/test_toy_game.py registers it with
``analyzer.games.registry.register(DESCRIPTION)``.
"""
