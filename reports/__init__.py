"""Tables, figures and HTML reports built from result tables (no numba here)."""
