"""cardlab's engine room: games, runner, statistics and the command line."""

from analyzer.numba_env import configure_numba_cache, configure_vector_width

configure_numba_cache()
configure_vector_width()

__version__ = "0.1.0"
