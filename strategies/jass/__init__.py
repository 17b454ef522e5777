"""Plus-Minus Jass strategies: the catalogue (names, knobs) and the jitted policy families."""
