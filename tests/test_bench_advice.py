"""scripts/bench_advice.py: with ``--table`` its positions are ``pimc``'s own moves among the
players named (seat 0, never another seat's), and a table that is no strategy is refused in
one line before any game is played."""

from itertools import islice

import pytest
from script_module import load

from analyzer.analysis import ass, jass
from analyzer.games.jass.cards import card_name


def _module():
    return load("bench_advice")


def test_a_table_gives_pimcs_moves_in_seat_0_only():
    bench = _module()
    assert bench.seating(4, None) == ("pimc",) * 4
    assert bench.seating(3, "aim-low") == ("pimc", "aim-low", "aim-low")
    for pos, played, _ in islice(bench.jass_positions(3, 3, 1, "aim-low"), 12):
        assert pos.seat == 0
        legal = jass.legal_cards(pos)
        assert len(legal) >= 2
        assert played in {card_name(c) for c in legal}
    seats = {int(pos.info["seat"])
             for pos, _, _ in islice(bench.ass_positions(3, 4, 1, "basic"), 12)}
    assert seats == {0}
    # without a table every seat is pimc's, and its moves come from more than one seat
    seats = {int(pos.info["seat"]) for pos, _, _ in islice(bench.ass_positions(3, 4, 1), 40)}
    assert len(seats) > 1
    for pos, _, _ in islice(bench.ass_positions(3, 4, 1, "basic"), 3):
        assert ass.count_legal(pos) >= 2


def test_a_table_that_is_no_strategy_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        _module().main(["--game", "jass", "--table", "nobody"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--table: unknown jass strategy 'nobody'" in err and "aim-low" in err


def test_the_agreement_is_printed_with_its_interval_over_the_games(capsys):
    """The share that agrees and the chance that a move of pimc's agrees (also per player
    count) each come with a 95% interval (counted by the deal the positions come from) that
    holds the share."""
    import re

    _module().main(["--game", "jass", "--positions", "6", "--worlds", "40", "--modal", "2"])
    out = capsys.readouterr().out
    share = re.search(r"within noise (\d+\.\d)% \[(\d+\.\d)%, (\d+\.\d)%\]", out)
    chance = re.search(r"averaged over the positions\) (\d+\.\d)% \[(\d+\.\d)%, (\d+\.\d)%\]",
                       out)
    by_players = re.findall(r"(\d+\.\d)% \[(\d+\.\d)%, (\d+\.\d)%\] at (\d) players", out)
    assert [int(n) for *_, n in by_players] == [3, 4], out
    for found in (share, chance):
        assert found, out
        value, low, high = (float(x) for x in found.groups())
        assert low <= value <= high and low < high
    for value, low, high, _ in by_players:
        assert float(low) <= float(value) <= float(high)
