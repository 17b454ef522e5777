"""Who's the Ass? strategies: the catalogue (names, knobs) and the jitted policy families."""
