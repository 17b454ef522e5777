"""Tuning strategy knobs against a field (``cardlab tune``)."""
