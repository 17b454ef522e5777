"""Issue 45 item 2: the jokers study counts the jokers dealt to a seat through the engine's
own deal (engine.dealt_hands: start_game's seeding and deal_packed), not a re-deal of its own.

The numpy re-deal it replaced drew the same 109 + 1 numbers from the same stream and placed
the cards the same way; the values below were computed with it before the switch (seed,
players, games 0..39, the counts of seat 0..n-1 of each game in a row), so the study's
numbers stay what they were for the same seed.
"""

import numpy as np
import pytest

from analyzer.engines.ass.engine import canonical_deck, dealt_hands
from analyzer.engines.ass.reference import deal
from analyzer.games.ass.cards import JOKER
from analyzer.games.ass.rules import AssRules
from analyzer.rng import PyRng
from analyzer.studies.jokers import jokers_dealt

BEFORE = {
    (11, 3): "020010002010110011001012111200011011101011011110000102011001013010000110"
             "001030110111000310203000020011011020110110201001",
    (2024, 4): "110111100102110000010111001201110010010010000011001102111110110001010000"
               "100110101100000101110010200021010101201201110021020101010120010110120201"
               "0111120111011100",
    (7, 5): "102010100100010001101201001010102100110020101010021002112110020003010010"
            "100020011010100002031003000011110001000200020101210110111010200110010020"
            "22011020100100200200000011001210011000100100011101101100",
    (123456789, 6): "020111012002000212020011110000020100002100110101100010111010000211300110"
                    "001100010030101101011010100121101110100110013000212000000131010011001110"
                    "001001020101031000111011121100000111010210011020020010010101101001110100"
                    "110200111200120001010200",
}


@pytest.mark.parametrize(("seed", "players"), sorted(BEFORE))
def test_jokers_dealt_are_the_counts_of_before(seed, players):
    got = jokers_dealt(seed, np.arange(40), players)
    assert got.shape == (40, players) and got.dtype == np.int64
    assert "".join(str(int(x)) for x in got.ravel()) == BEFORE[seed, players]


def test_large_indices_and_a_short_deal():
    """Indices beyond 2**32 and per_player below the full deal, as before the switch."""
    got = jokers_dealt(5, np.array([10**12, 3, 2**40 + 7]), 4, 5)
    assert got.tolist() == [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]]


@pytest.mark.parametrize("players", [3, 5, 12])
def test_jokers_dealt_read_the_engines_deal(players):
    """jokers_dealt is the joker count of the engine's deal, which is the reference's deal
    card for card (every seat's whole hand, the ass included)."""
    indices = np.array([0, 1, 17, 2**40 + 3])
    rules = AssRules.for_players(players)
    hands = np.zeros((indices.size, players), dtype=np.uint64)
    dealt_hands(11, indices, players, rules.per_player, canonical_deck(), hands)
    for row, index in zip(hands, indices, strict=True):
        ref, _ = deal(rules, PyRng(11, int(index), 0))
        assert [[(int(h) >> 4 * k) & 15 for k in range(15)] for h in row] == [
            list(h[:15]) for h in ref]
    counts = (hands >> np.uint64(4 * JOKER)) & np.uint64(15)
    assert jokers_dealt(11, indices, players).tolist() == counts.astype(np.int64).tolist()


def test_the_study_has_no_deal_of_its_own():
    """No second shuffle beside the engine's: the study module draws no random numbers."""
    import inspect

    import analyzer.studies.jokers as jokers

    source = inspect.getsource(jokers)
    assert "randbelow" not in source and "GOLDEN" not in source
