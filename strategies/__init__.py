"""Pluggable strategies for both games and the registry that names them."""

import analyzer  # noqa: F401  (sets the numba cache location before any kernel is compiled)
