"""Commands of the learned strategies: ``cardlab decisions GAME`` (pimc's decision data to a
run folder) and ``cardlab train GAME`` (the weights, by expert iteration, or ``--from`` data).

Both check every argument before any work (one line, exit 2). ``learn-strength`` (hidden) is
the measurement ``train`` runs in a process of its own for each round's weights.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from analyzer.cli import options as opt
from analyzer.cli.app import app, fail
from analyzer.cli.atomic import check_range, check_seed
from analyzer.errors import CardlabError

TRAINED = ("ass",)  # the games with a learned family


def _game(game: str) -> None:
    from analyzer.games import registry as games

    if game not in games.names():
        raise CardlabError(f"unknown game {game!r}; games: {', '.join(games.names())}")
    if game not in TRAINED:
        raise CardlabError(f"{game}: no learned strategy for this game in this cardlab; "
                           f"games with one: {', '.join(TRAINED)}")


def _players(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(p) for p in text.split(","))
    except ValueError:
        raise CardlabError(f"--players must be numbers 3..12 separated by commas; got {text!r}"
                           ) from None
    if not counts or any(not 3 <= p <= 12 for p in counts) or len(set(counts)) != len(counts):
        raise CardlabError(f"--players must be distinct numbers 3..12; got {text!r}")
    return counts


@app.command("decisions")
def decisions(
    game: str = typer.Argument(..., help="ass (Who's the Ass?)."),
    out: Path = typer.Option(..., *opt.SHARED_FLAGS["out"],
                             help="The run folder to write (Parquet parts)."),
    games_: int = opt.games(200, "Games to play."),
    seed: int = opt.seed("Seed of the deals (0..2**63-1)."),
    start: int = typer.Option(0, "--start", help="First game index."),
    players: int = opt.players_of("ass", 4),
    searcher: str = typer.Option("pimc:worlds=64", "--searcher",
                                 help="The search strategy in every seat (pimc:KNOBS)."),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted run."),
    quiet: bool = opt.quiet(),
) -> None:
    """Play games with a search player in every seat and write, for every decision with a
    choice, each natural move's features and pimc's value of it (mean, spread, worlds)."""
    from strategies.registry import StrategyError, parse_strategy

    try:
        _game(game)
        check_seed(seed)
        check_range(start, games_)
        if not 3 <= players <= 12:
            raise CardlabError(f"--players must be 3..12; got {players}")
        strategy = parse_strategy(game, searcher)
        if strategy.spec.name != "pimc":
            raise CardlabError(f"--searcher must be pimc with knobs; got {searcher!r}")
        from analyzer.learn.ass_decisions import run_decisions

        manifest = run_decisions(out, seed, games_, players, strategy, resume, not quiet,
                                 start=start)
    except (CardlabError, StrategyError) as exc:
        fail(exc)
    typer.echo(f"{out}: {manifest['count']} games, {manifest['candidate_rows']} candidate rows")


@app.command("train")
def train(
    game: str = typer.Argument(..., help="ass (Who's the Ass?)."),
    out: Path = typer.Option(Path("runs/train-ass"), *opt.SHARED_FLAGS["out"],
                             help="Work folder: each round's data, weights and strength."),
    weights: Path = typer.Option(None, "--weights",
                                 help="Where the best weights go (default OUT/learned.json)."),
    seed: int = opt.seed("Seed of the decision data; the shipped weights: --seed 23."),
    games_: int = opt.games(1500, "Games of decision data per round and player count."),
    players: str = typer.Option("4,6", *opt.SHARED_FLAGS["players"],
                                help="Player counts of the data, e.g. 4,6 (3 to 12)."),
    worlds: int = typer.Option(64, "--worlds", help="pimc's worlds per decision."),
    rounds: int = typer.Option(2, "--rounds", help="Expert-iteration rounds."),
    eval_games: int = typer.Option(3000, "--eval-games",
                                   help="Held-out deals per seating to measure each round."),
    eval_seed: int = typer.Option(9923, "--eval-seed", help="Seed of the held-out deals."),
    from_: list[Path] = typer.Option(None, "--from",
                                     help="Train on these decisions runs instead (no rounds)."),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted training."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --weights file."),
    quiet: bool = opt.quiet(),
) -> None:
    """Train the learned strategy's weights (expert iteration from pimc's values), or fit
    them to existing decision data (--from)."""
    from analyzer.learn.train import TrainPlan
    from analyzer.learn.train import train as run_training

    try:
        _game(game)
        check_seed(seed)
        check_seed(eval_seed)
        counts = _players(players)
        check_range(0, games_)
        check_range(0, eval_games, "--eval-games")
        if not 1 <= worlds <= 256:
            raise CardlabError(f"--worlds must be 1..256; got {worlds}")
        if not 1 <= rounds <= 20:
            raise CardlabError(f"--rounds must be 1..20; got {rounds}")
        if eval_seed == seed:
            raise CardlabError("--eval-seed must differ from --seed (held-out deals)")
        for path in from_ or []:
            if not (path / "_run.json").is_file():
                raise CardlabError(f"--from {path} is not a decisions run folder")
        if out.exists() and any(out.iterdir()) and not (out / "_train.json").is_file():
            raise CardlabError(f"--out {out} is a folder cardlab did not make for a training; "
                               "give a new or empty folder")
        if weights is not None:
            from analyzer.outputs import check_file_target

            check_file_target(weights, force, "--weights")
        plan = TrainPlan(seed, games_, counts, worlds, rounds, eval_games, eval_seed)
        result = run_training(out, plan, resume, not quiet, weights or out / "learned.json",
                              list(from_) if from_ else None, say=typer.echo)
    except CardlabError as exc:
        fail(exc)
    typer.echo(f"weights: {result['weights']}")


@app.command("learn-strength", hidden=True)
def learn_strength(
    games_: int = typer.Option(..., *opt.SHARED_FLAGS["games"]),
    seed: int = opt.seed(),
    out: Path = typer.Option(..., *opt.SHARED_FLAGS["out"]),
    players: int = opt.players_of("ass", 4),
) -> None:
    """Mean minus points of learned (the weights of CARDLAB_LEARNED_ASS) and its field."""
    from analyzer.learn.train import strength
    from analyzer.runner.folder import atomic_write_bytes
    from strategies.ass.learned_weights import check_weights

    try:
        check_weights()
        result = strength(games_, seed, players)
    except CardlabError as exc:
        fail(exc)
    atomic_write_bytes(out, (json.dumps(result, indent=1) + "\n").encode())
