"""The ``cardlab`` command line. Each module below adds its commands to the shared app."""

from analyzer.cli import (
    analyze_commands,  # noqa: F401
    board_commands,  # noqa: F401
    common_commands,  # noqa: F401
    ladder_commands,  # noqa: F401
    learn_commands,  # noqa: F401
    run_commands,  # noqa: F401
    study_commands,  # noqa: F401
    tune_commands,  # noqa: F401
)
from analyzer.cli.app import app, run_app
from analyzer.cli.console import plain_help_types
from analyzer.cli.options import strict_numbers
from analyzer.games import registry as _games

for _game in _games.names():  # each game's own commands (its adapter's ``cli``)
    if _games.get(_game).has("cli"):
        _games.load(_games.get(_game).parts.cli)

study_commands.declare_the_rest()  # every registered study has its command
plain_help_types()
strict_numbers(app)  # every numeric option reads its value with analyzer.numbers

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``cardlab`` console script."""
    import sys

    sys.argv[1:] = tune_commands.hoist_strategies_option(sys.argv[1:])
    run_app()
