"""Readable terminal replays (issue 22 item 4): a legend, jokers with the value they played
as, every hand after each ass round's pickup, the card that fixed trump marked, sticks
explained (J-9), and text wrapped at word boundaries to the terminal width.

The records come from the pure-Python reference engines (the numba engine is held to them
move for move elsewhere), so these tests need no compiling.
"""

import re

import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.cli.ass_commands import format_pretty, format_pretty_match
from analyzer.cli.jass_commands import format_pretty as jass_pretty
from analyzer.engines.ass.reference import play_record
from analyzer.engines.jass.reference import ReferenceJass
from analyzer.games.ass.readable import hands_after_rounds, play_words
from analyzer.games.jass.readable import sticks_words, trump_fix
from analyzer.games.jass.rules import make_rules
from strategies.registry import parse_strategy, seat_strategies


def _ass(index: int, players: int = 4, strategy: str = "random") -> dict:
    return play_record(11, index, [parse_strategy("ass", strategy)] * players)


def _ass_with(pred, players: int = 4) -> dict:
    for index in range(400):
        record = _ass(index, players)
        if pred(record):
            return record
    raise AssertionError("no such game in 400")


def _jass(index: int = 0, players: int = 4, mode: str = "matches") -> dict:
    ref = ReferenceJass(make_rules(players, {"ruleset": "seed"}),
                        seat_strategies("jass", ["random"], players))
    return ref.play_match(5, index) if mode == "matches" else ref.play_single_deal(5, index)


def _plays(record, pred):
    return [(p, r["ass_round"]) for r in record["rounds"] for p in r["plays"] if pred(p, r)]


# ------------------------------------------------------------------------ Who's the Ass?
def test_ass_replay_opens_with_a_legend_of_names_and_scoring():
    text = format_pretty(_ass(0), width=0)
    legend = text.splitlines()[1]
    for words in ("J a joker", "A the ass", "J=7", "joker 14", "ass 20", "number card its value"):
        assert words in legend, words


def test_every_joker_is_written_with_the_value_it_played_as():
    record = _ass_with(lambda r: _plays(r, lambda p, rnd: "J" in p.get("cards", [])
                                        and not rnd["ass_round"] and len(set(p["cards"])) > 1)
                       and _plays(r, lambda p, rnd: "J" in p.get("cards", [])
                                  and rnd["ass_round"]))
    text = format_pretty(record, width=0)
    plays = [line for line in text.splitlines()
             if re.match(r"  seat \d+ (leads|plays|raises with) ", line)]
    assert plays
    for line in plays:
        assert not re.search(r"(^| )J( |$)", line), line  # never a bare J
    in_sets = [line for line in plays if re.search(r"raises with|leads", line) and "J=" in line]
    assert in_sets
    for line in in_sets:  # a joker in a set plays as the set's numbers (or 14 alone)
        cards = line.split(" with ", 1)[-1].split(" leads ", 1)[-1].split()
        numbers = {c for c in cards if not c.startswith("J=")}
        jokers = {c[2:] for c in cards if c.startswith("J=")}
        assert jokers == (numbers or {"14"}), line
    assert re.search(r"plays J=(1|14)$", text, re.M)


def test_play_words_covers_every_kind_of_play():
    assert play_words({"seat": 0, "cards": ["7", "7", "J"]}, False) == "7 7 J=7"
    assert play_words({"seat": 0, "cards": ["J", "J"]}, False) == "J=14 J=14"
    assert play_words({"seat": 0, "cards": ["J"], "joker_value": 1}, True) == "J=1"
    assert play_words({"seat": 0, "cards": ["A"]}, True) == "A"
    assert play_words({"seat": 0, "pass": True}, False) == "pass"


def test_hands_are_shown_after_every_pickup():
    record = _ass_with(lambda r: sum(rnd["ass_round"] for rnd in r["rounds"]) >= 2)
    after = hands_after_rounds(record)
    assert after[-1] == record["final_hands"]  # the plain replay ends where the record does
    text = format_pretty(record, width=0)
    blocks = text.split("takes the cards, the ass included. Hands now:")[1:]
    ass_rounds = [r for r, rnd in enumerate(record["rounds"]) if rnd["ass_round"]]
    assert len(blocks) == len(ass_rounds)
    for r, block in zip(ass_rounds, blocks, strict=True):
        lines = block.strip("\n").splitlines()[:record["players"]]
        for seat, line in enumerate(lines):
            hand = after[r][seat]
            assert line == f"    seat {seat} ({len(hand)} card{'s' if len(hand) != 1 else ''})" \
                           f": {' '.join(hand) or '-'}"
        assert "A" in after[r][record["rounds"][r]["winner"]]  # the taker holds the ass


@pytest.mark.parametrize("width", [40, 60, 80])
def test_ass_replay_wraps_at_word_boundaries(width):
    record = _ass(3, players=6)
    flat = format_pretty(record, width=0)
    text = format_pretty(record, width=width)
    assert max(len(line) for line in text.splitlines()) <= width
    assert text.split() == flat.split()  # no word cut, lost or added
    assert max(len(line) for line in flat.splitlines()) > width  # there was something to wrap


def test_the_terminal_width_is_the_default(monkeypatch):
    record = _ass(3, players=6)
    monkeypatch.setenv("COLUMNS", "50")
    assert max(len(line) for line in format_pretty(record).splitlines()) <= 50
    monkeypatch.delenv("COLUMNS")  # a pipe: whole lines
    assert max(len(line) for line in format_pretty(record).splitlines()) > 50


def test_a_match_replay_has_the_legend_and_wraps_its_games_too():
    from analyzer.engines.ass.reference import play_match_record

    record = play_match_record(2, 0, [parse_strategy("ass", "random")] * 3)
    flat = format_pretty_match(record, width=0)
    assert "J a joker" in flat.splitlines()[1]
    assert flat.count("Hands now:") == sum(rnd["ass_round"] for g in record["games"]
                                           for rnd in g["rounds"])
    text = format_pretty_match(record, width=44)
    assert max(len(line) for line in text.splitlines()) <= 44
    assert text.split() == flat.split()


# --------------------------------------------------------------------- Plus-Minus Jass
def test_jass_replay_has_a_scoring_legend():
    text = jass_pretty(_jass(), width=0)
    assert "Suits B bells, S shields, R roses, A acorns" in text
    assert "Card points (J-8): Ace 11, Banner 10" in text and "157 in a deal" in text


def test_the_trick_that_fixes_trump_is_marked():
    record = _jass()
    text = jass_pretty(record, width=0)
    n = record["players"]
    for k, deal in enumerate(record["deals"], start=1):
        section = text.split(f"Deal {k}, seat")[1].split("Deal ")[0]
        marked = [line for line in section.splitlines() if "fixes trump" in line]
        fix = trump_fix(deal, n)
        if deal["trump"] is None:
            assert fix is None and not marked and "no trump" in section
            continue
        assert fix[2] == deal["fixer"]  # the record's own fixer
        trick = deal["tricks"][fix[0]]
        card = trick["cards"][fix[1]]
        assert card[0] == deal["trump"] and card[0] != trick["cards"][0][0]
        assert len(marked) == 1
        assert marked[0].startswith(f"  trick {fix[0] + 1:2d}:")
        assert f"{card} by seat {fix[2]} does not follow suit" in marked[0]


def test_sticks_are_explained_with_remembered_ties():
    deal = {"points": [40, 0, 0, 117], "bonus": [0, 0, 0, 0]}
    assert sticks_words(deal) == ("seat 3 has 100 or more, so only the fewest points earn a "
                                  "stick: seats 1 and 2 tie for the fewest points at 0: "
                                  "remembered, no stick (J-9 case 2)")
    paid = sticks_words({"points": [60, 30, 30, 37], "bonus": [1, 0, 0, 0]})
    assert paid.endswith("a remembered tie pays: seat 0 gets 1 extra stick")
    record = _jass()
    text = jass_pretty(record, width=0)
    for deal in record["deals"]:
        assert f"sticks {deal['sticks']} ({sticks_words(deal)})" in text


def test_jass_replay_wraps_and_the_cli_prints_it(monkeypatch):
    record = _jass(mode="deals")
    text = jass_pretty(record, width=50)
    assert max(len(line) for line in text.splitlines()) <= 50
    assert text.split() == jass_pretty(record, width=0).split()
    result = CliRunner().invoke(app, ["replay", "jass", "--seed", "5", "--index", "0",
                                      "--deals", "--strategy", "random", "--pretty"],
                                env={"COLUMNS": "60"})
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 60
    assert result.stdout.split() == text.split()  # the engine's deal is the reference's
