"""Issue 45 item 2: each game's public state is declared once, as named pieces with sizes
(analyzer.layout), and both the kernels' offsets and a readable accessor follow from it.

The offsets stay plain module-level ints with today's values (numba freezes them into the
compiled kernels, and the literal stack sizes in strategies/ass/pimc.py rest on them): the
literals below are the hand-numbered offsets the declaration replaced.
"""

import numpy as np
import pytest

import analyzer.games.ass.cards as ass_cards
import analyzer.games.jass.primitives as jass_primitives
from analyzer.layout import Layout, LayoutView

ASS_BEFORE = {
    "PUB_K": 16, "PUB_HIGH": 17, "PUB_ASS_ROUND": 18, "PUB_MAY_LEAD_ASS": 19, "PUB_SEAT": 20,
    "PUB_PLAYERS": 21, "PUB_POS": 22, "PUB_STARTER": 23, "PUB_HIGH_SEAT": 24, "PUB_ROUND": 25,
    "PUB_GAME": 26, "PUB_GAMES": 27, "PUB_GONE": 32, "PUB_TABLE": 48, "PUB_SIZES": 64,
    "PUB_TOTALS": 80, "PUB_KNOWN": 96, "SCRATCH": 112, "MAX_MOVES": 1024, "VIEW_LEN": 1136,
}
JASS_BEFORE = {
    "S_N": 0, "S_SWISS": 1, "S_TRUMP": 2, "S_FIXER": 3, "S_LEADER": 4, "S_POS": 5,
    "S_TRICK": 6, "S_LED": 7, "S_BEST_SEAT": 8, "S_BEST_CARD": 9, "S_HIGH_TRUMP": 10,
    "S_LAST_WINNER": 11, "S_DEALER": 12, "S_DEAL_NO": 13, "S_FIRST": 14, "S_NTRICKS": 15,
    "S_TCARD": 16, "S_TSEAT": 20, "S_VOID": 24, "S_STICKS": 28, "S_WON": 32, "S_BAN": 36,
    "S_TIES": 40, "S_HIST": 46, "ST_SIZE": 82,
}


@pytest.mark.parametrize(("module", "before", "prefix"),
                         [(ass_cards, ASS_BEFORE, "PUB_"), (jass_primitives, JASS_BEFORE, "S_")])
def test_the_offsets_are_todays_plain_ints(module, before, prefix):
    got = {name: getattr(module, name) for name in before}
    assert got == before
    assert all(type(v) is int for v in got.values())  # what numba freezes as a constant
    # and no offset beyond those: a new piece is a new name here too
    assert sorted(n for n in vars(module) if n.startswith(prefix)) == sorted(
        n for n in before if n.startswith(prefix))


@pytest.mark.parametrize(("module", "layout", "prefix", "unbound"),
                         [(ass_cards, ass_cards.VIEW, "PUB_", {"hand", "unused", "scratch"}),
                          (jass_primitives, jass_primitives.ST, "S_", set())])
def test_every_offset_is_its_pieces_offset(module, layout, prefix, unbound):
    """The constant PREFIX + NAME is the offset of piece ``name``; the pieces tile the array."""
    at = 0
    for offset, size, name, meaning in layout.table():
        assert offset == at and size >= 1 and meaning
        at += size
        if name not in unbound:
            assert getattr(module, prefix + name.upper()) == offset, name
    assert at == layout.size
    assert layout["scratch" if prefix == "PUB_" else "hist"].end == layout.size


def test_a_layout_refuses_a_name_twice_and_an_empty_piece():
    lay = Layout("t")
    assert lay.piece("a", 2, "") == 0 and lay.piece("b", 1, "") == 2 and lay.size == 3
    with pytest.raises(ValueError, match="not a new public identifier"):
        lay.piece("a", 1, "")
    with pytest.raises(ValueError, match="sizes are >= 1"):
        lay.piece("c", 0, "")
    with pytest.raises(KeyError, match="no piece 'z'"):
        lay["z"]


def test_the_public_view_reads_the_engines_deal_by_name():
    from analyzer.engines.ass.engine import canonical_deck, new_view, start_game
    from analyzer.games.ass.cards import PublicView
    from analyzer.games.ass.rules import AssRules

    n = 4
    per_player = AssRules.for_players(n).per_player
    view = new_view()
    packed = np.zeros(n, dtype=np.uint64)
    ass_seat = start_game(3, 9, n, per_player, canonical_deck(), np.zeros(109, np.int64),
                          packed, view, np.zeros(1, np.uint64), np.zeros(n, np.uint64))
    view[ass_cards.PUB_PLAYERS] = n
    pv = PublicView(view)
    assert pv.players == n and isinstance(pv.players, int)
    assert list(pv.sizes[:n]) == [per_player] * n
    assert pv.known[ass_seat] == 1 and pv.known.sum() == 1  # the ass's holder is public
    assert pv.sizes.base is view or pv.sizes.base is view.base  # a view of the array, no copy
    view[ass_cards.PUB_SIZES] = 5
    assert pv.sizes[0] == 5  # reads what the array holds when asked
    d = pv.as_dict()
    assert "scratch" not in d and "unused" not in d
    assert d["sizes"] == [5] + [per_player] * (n - 1)  # per seat: the n seats only
    assert d["known"][ass_seat] == 1 and len(d["known"]) == n
    text = pv.describe()
    assert "players" in text and "the deciding seat" in text and "scratch" not in text
    with pytest.raises(ValueError, match="1136 or more slots"):
        PublicView(np.zeros(10, np.int64))


def test_the_search_state_reads_st_by_name():
    from analyzer.games.jass.primitives import SearchState

    st = np.zeros(jass_primitives.ST_SIZE, dtype=np.int64)
    st[jass_primitives.S_N], st[jass_primitives.S_TRUMP] = 3, 2
    st[jass_primitives.S_STICKS: jass_primitives.S_STICKS + 3] = [157, 0, 30]
    ss = SearchState(st)
    assert (ss.n, ss.trump) == (3, 2)
    assert ss.as_dict()["sticks"] == [157, 0, 30]
    assert len(ss.as_dict()["hist"]) == 36 and len(ss.as_dict()["ties"]) == 6
    assert "trump suit" in ss.describe()


def test_a_reader_needs_its_layout_pieces_to_be_new_names():
    lay = Layout("t")
    lay.piece("as_dict", 1, "")
    with pytest.raises(TypeError, match="hides an attribute"):
        class Bad(LayoutView, layout=lay):
            pass
