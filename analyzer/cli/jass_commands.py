"""Commands for Plus-Minus Jass: ``cardlab replay jass`` and ``cardlab export jass``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from analyzer.cli.app import export_app, replay_app
from analyzer.cli.atomic import (
    FORCE_HELP,
    OUT_HELP,
    check_index,
    check_range,
    check_seed,
    export_lines,
)

STRATEGY_HELP = (
    "Strategy for every seat, or repeat once per seat (seat 0 first); "
    "NAME or NAME:key=value (see `cardlab strategies jass`)."
)
RULESET_HELP = (
    "Rule set: seed (default, the rules as the seed text reads them) or swiss (common Swiss "
    "practice); docs/rulings.md J-6 lists the differences."
)
MODE_HELP = "matches: whole matches (default); deals: single deals (seat n-1 deals)."
CAP_HELP = "Most deals a match may last; an undecided match is reported as capped."


def _spec(seed: int, players: int, strategy: list[str] | None, ruleset: str, mode: str,
          deal_cap: int):
    from analyzer.games.jass.kernel import validate
    from analyzer.games.kernel import RunSpec

    return validate(RunSpec("jass", players, tuple(strategy or ("basic",)), seed, mode=mode,
                            rules={"ruleset": ruleset, "deal_cap": deal_cap}))


@replay_app.command("jass")
def replay_jass(
    seed: int = typer.Option(..., "--seed", help="Master seed of the run (0 .. 2**63-1)."),
    index: int = typer.Option(..., "--index", help="Match (or deal) number in the run (>= 0)."),
    players: int = typer.Option(4, "--players", help="Number of players, 3 or 4."),
    strategy: list[str] = typer.Option(None, "--strategy", help=STRATEGY_HELP),
    ruleset: str = typer.Option("seed", "--ruleset", help=RULESET_HELP),
    mode: str = typer.Option("matches", "--mode", help=MODE_HELP),
    deal_cap: int = typer.Option(200, "--deal-cap", help=CAP_HELP),
    pretty: bool = typer.Option(False, "--pretty", help="A readable trick-by-trick account."),
) -> None:
    """Replay match INDEX of a run and print it as one JSON line (game-records format).

    The same seed, index, players, rules and strategies always give the same match, so a
    match seen in a simulation or an export can be looked at again card by card.
    """
    from analyzer.games.jass.records import to_json, trace_record

    check_seed(seed)
    check_index(index)
    record = trace_record(_spec(seed, players, strategy, ruleset, mode, deal_cap), index)
    typer.echo(format_pretty(record) if pretty else to_json(record))


@export_app.command("jass")
def export_jass(
    seed: int = typer.Option(..., "--seed", help="Master seed of the run (0 .. 2**63-1)."),
    matches: int = typer.Option(..., "--matches", help="How many matches (or deals) to write."),
    out: Path = typer.Option(..., "--out", help=OUT_HELP),
    players: int = typer.Option(4, "--players", help="Number of players, 3 or 4."),
    strategy: list[str] = typer.Option(None, "--strategy", help=STRATEGY_HELP),
    ruleset: str = typer.Option("seed", "--ruleset", help=RULESET_HELP),
    mode: str = typer.Option("matches", "--mode", help=MODE_HELP),
    deal_cap: int = typer.Option(200, "--deal-cap", help=CAP_HELP),
    start: int = typer.Option(0, "--start", help="Index of the first match (>= 0)."),
    force: bool = typer.Option(False, "--force", help=FORCE_HELP),
) -> None:
    """Write matches START .. START+MATCHES-1 as JSON Lines, one match record per line.

    The file appears under its name only when complete (written to a temporary file in the
    same folder, then renamed).
    """
    from analyzer.games.jass.records import to_json, trace_record

    check_seed(seed)
    check_range(start, matches, "--matches")
    spec = _spec(seed, players, strategy, ruleset, mode, deal_cap)
    unit = "matches" if mode == "matches" else "deals"
    export_lines(out, (to_json(trace_record(spec, index))
                       for index in range(start, start + matches)), force, unit)


CARD_LEGEND = (
    "Cards: suit letter + rank. Suits B bells, S shields, R roses, A acorns; ranks 6 7 8 9, "
    "10 Banner, U Under, O Ober, K King, A Ace (so AU is the Under of acorns, RA the Ace of "
    "roses)."
)


def format_pretty(record: dict[str, Any]) -> str:
    """A readable account of a match (or deal) record, one line per trick, with a legend."""
    n = record["players"]
    rules = record["rules"]
    mode = record.get("mode", "matches")
    unit = "deal" if mode == "deals" else "match"
    lines = [
        f"Plus-Minus Jass seed {record['seed']}, {unit} {record['index']}: {n} players, "
        f"rule set {rules['ruleset']}",
        CARD_LEGEND,
        "Seats: " + ", ".join(f"{s} = {record['strategies'][s]}" for s in range(n)),
    ]
    for k, deal in enumerate(record["deals"], start=1):
        aims = deal.get("aims") or ["n/a"] * n
        lines.append(f"Deal {k}, seat {deal['dealer']} deals:")
        for seat in range(n):
            aim = "" if aims[seat] in ("n/a", None) else f" (aims {aims[seat]})"
            lines.append(f"  seat {seat}{aim}: {' '.join(deal['hands'][seat])}")
        for t, trick in enumerate(deal["tricks"], start=1):
            lines.append(f"  trick {t:2d}: seat {trick['leader']} leads "
                         f"{' '.join(trick['cards']):<18} -> seat {trick['winner']}")
        trump = deal["trump"] or "none"
        fixer = "" if deal.get("fixer") is None else f" (fixed by seat {deal['fixer']})"
        lines.append(f"  trump {trump}{fixer}; points {deal['points']}; sticks "
                     f"{deal['sticks']}; totals {deal['totals']}")
    if mode == "matches":
        if record["winner"] is None:
            lines.append(f"No winner: the match hit the deal cap of {rules['deal_cap']}.")
        else:
            lines.append(f"Seat {record['winner']} wins after {len(record['deals'])} deals.")
    return "\n".join(lines)
