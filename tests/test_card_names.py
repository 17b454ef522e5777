"""Issue 44 item 4: card names players use, accepted besides the record names, by one parser
per game (analyzer.games.ass.names, analyzer.games.jass.names) that every typed card goes
through: ``cardlab analyze`` (--hand, --round, --gone, --known, --tricks, --trump), the board's
typed positions (the same ``typed`` functions) and the Python API's ``from_position``.
docs/analyzing.md has the table."""

from __future__ import annotations

import numpy as np
import pytest
from cli_check import one_error

ASS = ["analyze", "ass", "--players", "4"]
JASS = ["analyze", "jass", "--players", "4"]


# --- Who's the Ass? --------------------------------------------------------------------------

ASS_SAME = [
    ("joker", "J"), ("Joker", "J"), ("JOKER", "J"), ("j", "J"),
    ("ass", "A"), ("Ass", "A"), ("a", "A"),
    ("7", "7"), ("13", "13"),
]


@pytest.mark.parametrize("name,record", ASS_SAME)
def test_issue44_item4_ass_names_players_use_are_the_record_cards(name, record):
    from analyzer.analysis.ass import parse_cards
    from analyzer.games.ass.cards import card_kind

    assert parse_cards(name, "--hand") == [card_kind(record)]


def test_issue44_item4_ass_typed_position_in_words_is_the_same_position():
    from analyzer.analysis import ass

    words = ass.typed(4, 1, "3 3 joker ass", "9,4,8,7", "5 5 / Pass", "Joker 2", ["2:joker"],
                      False, None, None)
    record = ass.typed(4, 1, "3 3 J A", "9,4,8,7", "5 5 / pass", "J 2", ["2:J"], False, None,
                       None)
    assert np.array_equal(words.view, record.view)


def test_issue44_item4_ass_joker_declared_in_words():
    from analyzer.analysis import ass

    words = ass.typed(4, 2, "9", "5,7,1,6", "ass / joker=14", None, [], False, None, None)
    record = ass.typed(4, 2, "9", "5,7,1,6", "A / J=14", None, [], False, None, None)
    assert np.array_equal(words.view, record.view)


def test_issue44_item4_ass_unknown_name_is_one_line_naming_the_names(cli):
    code, out, err = cli(*ASS, "--hand", "3 queen", "--sizes", "2,5,5,5")
    assert code == 2 and out == ""
    one_error(err, "unknown card 'queen'", hint=False)
    for allowed in ("1..13", "joker", "ass"):
        assert allowed in err


def test_issue44_item4_ass_api_reads_the_same_names():
    from cardlab.games.ass import State

    words = State.from_position([["3", "joker"], ["Ass", "9"], ["5", "j"]], starter=1)
    record = State.from_position([["3", "J"], ["A", "9"], ["5", "J"]], starter=1)
    assert [words.action_to_string(a) for a in words.legal_actions()] == \
        [record.action_to_string(a) for a in record.legal_actions()]


# --- Plus-Minus Jass -------------------------------------------------------------------------

JASS_SAME = [
    # German-Swiss suit words, English suit words, with a space, a hyphen or nothing between
    ("Schellen 6", "B6"), ("Schelle-7", "B7"), ("schellenkönig", "BK"), ("bells ace", "BA"),
    ("Schilten Ober", "SO"), ("Schilte-10", "S10"), ("shields under", "SU"),
    ("Rosen Ass", "RA"), ("Rose-König", "RK"), ("rosen koenig", "RK"), ("Rosen Banner", "R10"),
    ("Eicheln Under", "AU"), ("Eichel-9", "A9"), ("eichelober", "AO"), ("acorns king", "AK"),
    # letters: E for Eicheln besides A, any case
    ("E10", "A10"), ("ea", "AA"), ("eU", "AU"), ("r10", "R10"), ("au", "AU"), ("Bk", "BK"),
]


@pytest.mark.parametrize("name,record", [(n, r) for n, r in JASS_SAME if r])
def test_issue44_item4_jass_names_players_use_are_the_record_cards(name, record):
    from analyzer.analysis.jass import parse_cards
    from analyzer.games.jass.cards import parse_card

    assert parse_cards(name, "--hand") == [parse_card(record)]


def test_issue44_item4_jass_every_record_name_still_reads():
    from analyzer.analysis.jass import parse_cards
    from analyzer.games.jass.cards import N_CARDS, card_name

    names = " ".join(card_name(c) for c in range(N_CARDS))
    assert parse_cards(names, "--hand") == list(range(N_CARDS))
    assert parse_cards(names.lower(), "--hand") == list(range(N_CARDS))


@pytest.mark.parametrize("name,words", [
    ("Sch10", "ambiguous"),  # Schellen or Schilten
    ("Z9", "unknown card 'Z9'"),
    ("Rosen", "unknown card 'Rosen'"),  # a suit without a rank
    ("Rosen Queen", "unknown card"),
])
def test_issue44_item4_jass_ambiguous_or_unknown_name_is_one_line(cli, name, words):
    code, out, err = cli(*JASS, "--hand", name)
    assert code == 2 and out == ""
    one_error(err, words, hint=False)
    for allowed in ("Schellen", "Schilten", "Rosen", "Eicheln", "Under", "Ober", "König"):
        assert allowed in err


def test_issue44_item4_jass_typed_position_in_words_is_the_same_position():
    from analyzer.analysis import jass

    hand = "Schellen 6, Schellen 9, Schilten 10, Schilten Under, Rosen 7, Eicheln 6, EU, EA"
    words = jass.typed(4, hand, "Rosen 10 Rosen König R6 Rosen-Ass", 0, None, "none", "seed",
                       None, [])
    record = jass.typed(4, "B6 B9 S10 SU R7 A6 AU AA", "R10 RK R6 RA", 0, None, None, "seed",
                        None, [])
    assert words.hand == record.hand and words.seat == record.seat
    assert np.array_equal(words.st, record.st) and np.array_equal(words.played, record.played)


@pytest.mark.parametrize("trump", ["Rosen", "rosen", "roses", "R", "r"])
def test_issue44_item4_jass_trump_in_words(trump):
    from analyzer.analysis import jass

    pos = jass.typed(4, "B6 B9 S10 SU R7 A6 AU AA SK", "B10 B7 R6", 0, None, trump, "seed",
                     None, [])
    assert pos.info["trump"] == "R"


def test_issue44_item4_jass_api_reads_the_same_names():
    from cardlab.games.jass import State

    record = [["B6", "B7", "B8", "B9", "B10", "BU", "BO", "BK", "BA", "S6", "S7", "S8"],
              ["S9", "S10", "SU", "SO", "SK", "SA", "R6", "R7", "R8", "R9", "R10", "RU"],
              ["RO", "RK", "RA", "A6", "A7", "A8", "A9", "A10", "AU", "AO", "AK", "AA"]]
    words = [[n.replace("B", "Schellen ", 1) if n[0] == "B" else n for n in h] for h in record]
    words[2] = [n.replace("A", "E", 1) if n[0] == "A" else n for n in words[2]]
    a = State.from_position(words, rules={"ruleset": "swiss"})
    b = State.from_position(record, rules={"ruleset": "swiss"})
    assert a.legal_actions() == b.legal_actions()


def test_issue44_item4_the_names_table_is_in_the_docs():
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "analyzing.md").read_text()
    for word in ("Schellen", "Schilten", "Rosen", "Eicheln", "Under", "Ober", "König", "Ass",
                 "joker", "| `E`"):
        assert word in text, word


# --- the first play of a Who's the Ass? game -------------------------------------------------

HAND13 = "2 2 3 5 6 6 9 10 11 12 13 J A"  # 13 cards, the ass among them
HAND13_NO_ASS = "2 2 3 5 6 6 9 10 11 12 13 J J"


def _ass_typed(players, seat, hand, sizes=None, round_=None, gone=None, known=(),
               just_took_ass=False):
    from analyzer.analysis import ass

    return ass.typed(players, seat, hand, sizes, round_, gone, list(known), just_took_ass,
                     None, None)


@pytest.mark.parametrize("players,each", [(4, 13), (8, 13), (9, 12), (10, 11), (12, 9)])
def test_issue44_item4_first_play_sizes_follow_from_the_player_count(players, each):
    from analyzer.games.ass.names import kinds_of

    hand = " ".join(["A"] + ["7"] * 8 + ["J"] * 5 + ["3"] * 8)
    hand = " ".join(hand.split()[:each])
    pos = _ass_typed(players, 0, hand)
    assert pos.info["sizes"] == [each] * players
    assert len(kinds_of(hand)) == each


def test_issue44_item4_first_play_sizes_less_this_rounds_plays():
    pos = _ass_typed(4, 2, HAND13_NO_ASS, round_="4 4 / pass")
    assert pos.info["sizes"] == [11, 13, 13, 13]
    assert pos.info["sizes"] == _ass_typed(4, 2, HAND13_NO_ASS, "11,13,13,13", "4 4 / pass",
                                           known=["0:A"]).info["sizes"]


@pytest.mark.parametrize("sizes", [None, "11,13,13,13"])
def test_issue44_item4_first_play_the_starter_holds_the_ass(sizes):
    """A-8: whoever holds the ass at the deal starts the first round, so at the first play the
    starter is known to hold it: the same position as with --known 0:A typed."""
    told = _ass_typed(4, 2, HAND13_NO_ASS, "11,13,13,13", "4 4 / pass", known=["0:A"])
    default = _ass_typed(4, 2, HAND13_NO_ASS, sizes, "4 4 / pass")
    assert np.array_equal(told.view, default.view)
    assert default.info["known"] == {"0": ["A"]}


def test_issue44_item4_first_play_the_ass_placed_elsewhere_is_kept():
    """Told otherwise (--known SEAT:A), the position keeps what it was told."""
    pos = _ass_typed(4, 2, HAND13_NO_ASS, None, "4 4 / pass", known=["3:A"])
    assert pos.info["known"] == {"3": ["A"]}


def test_issue44_item4_a_later_position_assumes_nothing_about_the_ass():
    pos = _ass_typed(4, 2, "3 3", "4,6,2,5", "9 / pass", gone="1 1 2")
    assert pos.info["known"] == {}


@pytest.mark.parametrize("args,words", [
    (["--seat", "2", "--hand", HAND13_NO_ASS, "--gone", "1 1"], "give --sizes"),
    (["--seat", "0", "--hand", "A 3 3 9"], "give --sizes"),
    (["--seat", "0", "--hand", "A 3 3 9", "--just-took-ass"], "give --sizes"),
    (["--seat", "0", "--hand", HAND13_NO_ASS], "holds the ass (A-8)"),
])
def test_issue44_item4_first_play_errors_are_one_line(cli, args, words):
    code, out, err = cli(*ASS, *args)
    assert code == 2 and out == ""
    one_error(err, words, hint=False)


def test_issue44_item4_first_play_without_sizes_runs(cli):
    code, out, err = cli(*ASS, "--seat", "1", "--hand", HAND13_NO_ASS, "--round", "5 5",
                         "--worlds", "40", "--format", "json")
    assert code == 0, err
    import json

    pos = json.loads(out)["position"]
    assert pos["sizes"] == [11, 13, 13, 13] and pos["known"] == {"0": ["A"]}


def test_issue44_item4_the_boards_typed_positions_read_the_same():
    """The analysis board builds its typed positions with the command line's functions."""
    from analyzer.board.ass import typed as typed_ass
    from analyzer.board.jass import typed as typed_jass

    pos, opts = typed_ass({"players": 4, "seat": 1, "hand": HAND13_NO_ASS.replace("J", "joker"),
                           "round": "5 5"})
    assert pos.info["sizes"] == [11, 13, 13, 13] and pos.info["known"] == {"0": ["A"]}
    assert "--sizes" not in opts
    words, _ = typed_jass({"players": 4, "hand": "Schellen 6 B9 S10 SU R7 E6 EU Eicheln-Ass",
                           "tricks": "R10 Rosen König R6 RA"})
    record, _ = typed_jass({"players": 4, "hand": "B6 B9 S10 SU R7 A6 AU AA",
                            "tricks": "R10 RK R6 RA"})
    assert words.hand == record.hand and np.array_equal(words.st, record.st)
