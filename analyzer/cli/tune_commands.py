"""``cardlab tune GAME`` and the global ``--strategies FILE`` option.

``--strategies FILE`` may stand anywhere on the command line: :func:`hoist_strategies_option`
moves it in front of the command, where the app's callback reads it and puts the file into
``CARDLAB_STRATEGIES`` (so worker processes load the same presets).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer

from analyzer.cli import options as opt
from analyzer.cli.app import app
from analyzer.cli.study_commands import rules_with_ruleset
from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError, CardlabIOError

OPTION = "--strategies"


def hoist_strategies_option(argv: list[str]) -> list[str]:
    """Move every ``--strategies FILE`` / ``--strategies=FILE`` to the front of ``argv``."""
    front, rest, i = [], [], 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        if arg == OPTION and i + 1 < len(argv):
            front += [arg, argv[i + 1]]
            i += 2
            continue
        if arg.startswith(OPTION + "="):
            front.append(arg)
        else:
            rest.append(arg)
        i += 1
    return front + rest


@app.command("tune")
def tune(
    game: str = typer.Argument(..., help="ass or jass."),
    start: str = typer.Option("heuristic", "--start",
                              help="Strategy to start from: its family's knobs are tuned, and "
                                   "the result is confirmed against it."),
    knob: list[str] = typer.Option([], "--knob", "-k",
                                   help="Knob to tune (repeat; default: every knob)."),
    strategy: list[str] = opt.strategy(None, "The field (the opponents): one for all seats or "
                                             "one per seat (default basic)."),
    field: list[str] = typer.Option(None, "--field", "-f", hidden=True),
    players: int = opt.players(4, "Players at the table."),
    games: int = opt.games(200_000, "Tuning budget in games (Jass: matches or deals)."),
    seed: int = opt.seed("Tuning seed; the confirmation plays seed + 1."),
    mode: str = typer.Option("", "--mode", hidden=True, help="jass: matches or deals."),
    ruleset: str = opt.ruleset(None),
    rule: list[str] = typer.Option([], "--rule", hidden=True, help="Rules option key=value."),
    metric: str = typer.Option(None, help="Result column to optimise (default: minus_points "
                                          "for ass, won for jass matches, sticks for deals)."),
    better: str = typer.Option(None, help="lower or higher (needed for other columns)."),
    deals_per_step: int = typer.Option(0, help="Deals per candidate per step (0: from the "
                                               "budget)."),
    against: list[str] = typer.Option([], "--against",
                                      help="Also confirm against this strategy (repeat)."),
    confirm_deals: int = typer.Option(20_000, "--confirm",
                                      help="Most deals of the held-out confirmation."),
    alpha: float = typer.Option(0.05, help="Error rate of the confirmation, over all its "
                                           "comparisons."),
    name: str = typer.Option("my-tuned", help="Name of the preset written."),
    out: Path = opt.out(Path("strategies.toml"), "Strategies file the preset is appended to "
                                                 "(created if missing; nothing already in it "
                                                 "changes)."),
    state: Path = typer.Option(None, "--state",
                               help="State file for resuming (default: OUT with "
                                    ".state.json); an interrupted run continues from it."),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(),
    progress: bool = opt.progress_alias(),
) -> None:
    """Tune a strategy family's knobs for one seat against a field (duplicate format).

    Discrete knobs by successive halving, continuous ones by CMA-ES; every step plays fresh
    deals shared by all its candidates. Then held-out deals confirm the result against the
    start by a sequential test, and the preset is added to --out. Example:

        cardlab tune ass --start heuristic -s basic --games 500000 --name mine
    """
    from analyzer.games import registry as games_registry
    from analyzer.runner.manifest import plural
    from analyzer.runner.play import KernelBackend
    from analyzer.runner.progress import RunProgress
    from analyzer.stats.duplicate import seat_swaps
    from analyzer.studies.compare import metric_for
    from analyzer.tune.space import space_for
    from analyzer.tune.tuner import (
        PROBE_DEALS,
        Tuner,
        TuneSettings,
        confirm,
        distinct_play,
        gain_sentence,
    )
    from strategies.files import Preset, check_append, check_name, write_presets
    from strategies.registry import catalog, parse_strategy

    if game not in games_registry.names():
        raise CardlabError(f"unknown game {game!r}; games: {', '.join(games_registry.names())}")
    field = opt.merge_alias(strategy, field, "--strategy", "--field") or ["basic"]
    progress = opt.show_progress(quiet, progress)
    if games < 1 or confirm_deals < 2:
        raise CardlabError("--games must be positive and --confirm at least 2")
    check_name(name)
    if name in catalog(game, with_files=False):
        raise CardlabError(f"{game} strategy {name!r} is built in; choose another --name")
    # --out is checked before the budget is spent: a strategies file (or none yet) that is
    # writable and still parses with the preset appended
    from analyzer.outputs import check_output_path

    check_output_path(out, "--out")  # never inside a run, study, report or training folder
    if state is not None:
        check_output_path(state, "--state")
    check_append(out, [Preset(game, name, _root_of(game, start), {})])
    from analyzer.runner.backends import cap_workers

    backend = KernelBackend(workers=cap_workers(workers), progress=False)
    space = space_for(game, start, knob or None)
    start_label = backend.canonical(game, start)
    field_labels = [backend.canonical(game, f) for f in field]
    seat_swaps("x", field_labels, players)
    rules = rules_with_ruleset(rule, ruleset)
    seats = field_labels * (players if len(field_labels) == 1 else 1)
    probe = backend.validate(RunSpec(game, players, tuple(seats), seed, mode, rules))
    col, lower = metric_for(game, probe.mode, metric, better)
    settings = TuneSettings(game, players, tuple(field_labels), start_label,
                            tuple(k.name for k in space.knobs), games, seed, col, lower,
                            probe.mode, tuple(sorted(rules.items())), deals_per_step)
    state_path = state or out.with_name(out.name + ".state.json")
    unit = games_registry.get(game).mode(probe.mode).unit
    command = "cardlab " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "cardlab tune"
    try:
        with RunProgress(games, 0, unit, progress) as bar:
            tuner = Tuner(backend, settings, space, state_path,
                          on_games=lambda done, total: bar.advance(0, min(done, total)))
            outcome = tuner.run()
        typer.echo(f"tuned {outcome.label} after {outcome.games:,} {plural(unit)} "
                   f"({len(outcome.history)} steps)")
        if outcome.inert:
            typer.echo(f"{', '.join(outcome.inert)} change no game with these choices "
                       f"({PROBE_DEALS} probe deals): kept at the start's values, not searched")
        if outcome.merged:
            typer.echo(f"merged {len(outcome.merged)} candidates that played exactly as another "
                       "(identical games on every deal they played), e.g.:")
            for a, b in outcome.merged[:3]:
                typer.echo(f"  {b} = {a}")
        baselines = [start_label]
        if len(set(field_labels)) == 1 and field_labels[0] not in baselines:
            baselines.append(field_labels[0])
        baselines += [backend.canonical(game, a) for a in against
                      if backend.canonical(game, a) not in baselines]
        lines = []
        if outcome.label == start_label:
            lines.append(f"tuning kept the start, {start_label}: nothing to confirm against it")
        kept, same = distinct_play(tuner, [outcome.label, *[b for b in baselines
                                                            if b != outcome.label]])
        for a, b in same:
            who = "the tuned strategy" if a == outcome.label else a
            lines.append(f"{b} plays exactly as {who} on {PROBE_DEALS} held-out deals: "
                         + ("nothing to confirm" if a == outcome.label else "compared once"))
        baselines = kept[1:]
        results = (confirm(tuner, outcome.label, baselines, confirm_deals, alpha)
                   if baselines else [])
        for base, res in zip(baselines, results, strict=True):
            role = ("the start" if base == start_label else
                    "the field's own play (best-response gain)" if base == field_labels[0]
                    else "a reference")
            lines.append(gain_sentence(outcome.label, base, role, res, col, lower, unit))
        for line in lines:
            typer.echo(f"- {line}")
        values = parse_strategy(game, outcome.label).describe_params()
        base = _root_of(game, outcome.label)
        preset = Preset(game, name, base, values,
                        f"tuned against {'/'.join(field_labels)} at {players} players")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            write_presets(out, [preset], comment=f"written by: {command}\n" + "\n".join(lines))
        except (OSError, CardlabError) as exc:
            reason = exc if isinstance(exc, CardlabError) else f"{out}: {exc.strerror or exc}"
            io = isinstance(exc, OSError) or getattr(exc, "exit_code", 2) == 1
            kind = CardlabIOError if io else CardlabError
            raise kind(f"{reason}; the tuning is kept in {state_path}: run the same "
                       "command again to write the preset") from None
        typer.echo(f"preset {name!r} added to {out} (use it: cardlab --strategies {out} ... "
                       f"-s {name})")
    except KeyboardInterrupt:
        saved = (f"the tuning so far is saved in {state_path}" if state_path.exists()
                 else "nothing was saved yet")
        typer.echo(f"interrupted; resume with: {command} ({saved}; {out} is unchanged)",
                   err=True)
        raise typer.Exit(130) from None


def _root_of(game: str, label: str) -> str:
    """The first registered strategy of the label's family with no preset (e.g. heuristic)."""
    from strategies.registry import catalog, parse_strategy

    fam = parse_strategy(game, label).family
    for spec in catalog(game, with_files=False).values():
        if spec.family == fam and not spec.preset:
            return spec.name
    return label.partition(":")[0]
