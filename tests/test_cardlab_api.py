"""`import cardlab`: the Python interface's examples run, its tables name each seat's strategy,
and it reads run folders as carefully as `cardlab summarize` does."""

import doctest
import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import cardlab
from analyzer.cli import app

runner = CliRunner()


def test_the_documented_examples_run():
    failures, tried = doctest.testmod(cardlab, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried >= 8 and failures == 0


def test_simulate_names_each_seat_and_replays_the_same_games():
    rows = cardlab.simulate("ass", 5, ["careful", "basic", "basic", "basic", "random"],
                            games=300, seed=4)
    again = cardlab.simulate("ass", 5, ["careful", "basic", "basic", "basic", "random"],
                             games=100, seed=4, start=200)
    assert list(rows.columns[:3]) == ["index", "seat", "strategy"]
    assert rows.groupby("seat")["strategy"].first().tolist() == [
        "careful", "basic", "basic", "basic", "random"]
    late = rows[rows["index"] >= 200].reset_index(drop=True)
    pd.testing.assert_frame_equal(late, again, check_dtype=True)
    assert rows.attrs["seed"] == 4 and rows.attrs["players"] == 5


def test_summarize_gives_each_seat_an_interval_over_games():
    rows = cardlab.simulate("jass", 4, "aim-low", games=400, seed=9)
    table = cardlab.summarize(rows)
    assert list(table["strategy"]) == ["aim-low"] * 4 and set(table["n"]) == {400}
    won = rows.groupby("seat")["won"].mean().to_numpy()
    assert np.allclose(table["won"], won)
    assert ((table["won_low"] <= won) & (won <= table["won_high"])).all()
    assert ((table["won_low"] >= 0) & (table["won_high"] <= 1)).all()


@pytest.mark.parametrize("bad, message", [
    (dict(strategies=["basic", "careful"]), "2 strategies for 4 players"),
    (dict(strategies="no-such-player"), "no-such-player"),
    (dict(games=0), "games must be a whole number"),
    (dict(mode="evenings"), "unknown mode"),
])
def test_bad_calls_raise_one_line(bad, message):
    args = dict(game="ass", players=4, strategies="basic", games=10) | bad
    with pytest.raises(cardlab.CardlabError, match=message) as info:
        cardlab.simulate(**args)
    assert "\n" not in str(info.value)


def _run_folder(tmp_path):
    out = tmp_path / "run"
    res = runner.invoke(app, ["simulate", "ass", "--players", "4", "--games", "3000",
                              "--seed", "2", "-s", "careful", "-s", "basic", "-s", "basic",
                              "-s", "basic", "--out", str(out), "--backend", "serial",
                              "--chunk-size", "1000", "--quiet"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return out


def test_load_run_gives_the_simulated_rows_and_refuses_an_unfinished_run(tmp_path):
    out = _run_folder(tmp_path)
    rows = cardlab.load_run(out)
    same = cardlab.simulate("ass", 4, ["careful", "basic", "basic", "basic"], games=3000,
                            seed=2)
    pd.testing.assert_frame_equal(rows, same, check_dtype=True)
    assert rows.attrs["complete"] is True
    # interrupted: its last part and the manifest never written
    (out / "_manifest.json").unlink()
    last = sorted(out.glob("part-*.parquet"))[-1]
    last.unlink()
    with pytest.raises(cardlab.CardlabError, match="unfinished: 2,000 of 3,000 games"):
        cardlab.load_run(out)
    assert len(pd.read_parquet(out)) == 8000  # what pandas alone would give, without a word
    part = cardlab.load_run(out, unfinished=True)
    assert part.attrs["complete"] is False and len(part) == 8000
    assert cardlab.summarize(part)["n"].tolist() == [2000] * 4


def test_load_run_refuses_an_edited_part(tmp_path):
    out = _run_folder(tmp_path)
    part = sorted(out.glob("part-*.parquet"))[0]
    rows = pd.read_parquet(part)
    rows.loc[0, "minus_points"] += 1
    meta = __import__("pyarrow.parquet", fromlist=["x"]).read_schema(part).metadata
    table = __import__("pyarrow", fromlist=["x"]).Table.from_pandas(rows, preserve_index=False)
    __import__("pyarrow.parquet", fromlist=["x"]).write_table(
        table.replace_schema_metadata(meta), part)
    with pytest.raises(cardlab.CardlabError, match="damaged"):
        cardlab.load_run(out)
    assert json.loads((out / "_manifest.json").read_text())["games"] == 3000


def test_compare_ranks_on_the_same_deals():
    c = cardlab.compare("ass", ["careful", "random"], players=4, games=60, seed=3)
    assert sorted(c.ranking["strategy"]) == ["careful", "random"]
    assert len(c.pairs) == 1 and c.headlines
    with pytest.raises(cardlab.CardlabError, match="play exactly alike"):
        cardlab.compare("ass", ["basic", "basic"], games=10)


def test_match_details_add_up_to_the_engines_match_rows():
    """Per-deal (Jass) and per-game (Who's the Ass?) rows are the same matches as the
    engine's match rows: the last running total is the match's total, the count of parts its
    length, the bonus sticks add up."""
    deals = cardlab.match_details("jass", 4, ["aim-low", "basic", "aim-high", "adaptive"],
                                  matches=40, seed=5)
    rows = cardlab.simulate("jass", 4, ["aim-low", "basic", "aim-high", "adaptive"],
                            games=40, seed=5, mode="matches")
    last = deals.groupby(["index", "seat"]).last()
    merged = rows.set_index(["index", "seat"]).join(
        last.drop(columns=["sticks", "bonus_sticks", "strategy"]))
    assert (merged["sticks"] == merged["total"]).all()
    assert (merged["deals"] == merged["deal"]).all()
    bonus = deals.groupby(["index", "seat"])["bonus_sticks"].sum()
    assert (rows.set_index(["index", "seat"])["bonus_sticks"] == bonus).all()
    assert (deals.groupby(["index", "deal"])["points"].sum() == 157).all()
    assert (deals.groupby(["index", "deal"])["fixed_trump"].sum()
            == (deals.groupby(["index", "deal"])["trump"].first() >= 0)).all()
    evenings = cardlab.match_details("ass", 5, "basic", matches=30, seed=6)
    totals = cardlab.simulate("ass", 5, "basic", games=30, seed=6, mode="matches")
    final = evenings.groupby(["index", "player"])["total"].last()
    assert (totals.set_index(["index", "seat"])["total"].to_numpy() == final.to_numpy()).all()
    assert (evenings.groupby("index")["game"].max() == 5).all()  # K = the player count


@pytest.mark.parametrize("game, hand, options, argv", [
    ("ass", "3 3 8 J", dict(players=4, sizes="4,6,5,9", gone="1 1 2", known=["3:A"]),
     ["--players", "4", "--sizes", "4,6,5,9", "--gone", "1 1 2", "--known", "3:A"]),
    ("jass", "B6 B9 S10 SU R7 RO A6 AU", dict(tricks="R10 RK R6 RA"),
     ["--tricks", "R10 RK R6 RA"]),
])
def test_analyze_gives_the_commands_values(game, hand, options, argv, capsys):
    from cli_check import run_cli

    moves = cardlab.analyze(game, hand, worlds=80, seed=5, **options)
    code, out, _ = run_cli(capsys, "analyze", game, "--hand", hand, *argv, "--worlds", "80",
                           "--seed", "5", "--format", "json")
    assert code in (0, None)
    shown = json.loads(out)
    assert moves.to_dict("records") == shown["moves"]
    assert moves.attrs["position"] == shown["position"]
    with pytest.raises(cardlab.CardlabError, match="no option 'sizes'"):
        cardlab.analyze("jass", hand, sizes="1,2,3")
