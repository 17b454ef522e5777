"""Commands of the learned strategies: ``cardlab decisions GAME`` (pimc's decision data to a
run folder) and ``cardlab train GAME`` (the weights, by expert iteration, or ``--from`` data).

Both check every argument before any work (one line, exit 2). ``learn-strength`` (hidden) is
the measurement ``train`` runs in a process of its own for each round's weights.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer

from analyzer.cli import options as opt
from analyzer.cli.app import app, fail
from analyzer.cli.atomic import check_range, check_seed
from analyzer.errors import CardlabError


def _game(game: str):
    """The decisions module of ``game`` (analyzer/learn/train.py GAMES), or a one-line error."""
    from analyzer.games import registry as games
    from analyzer.learn.train import GAMES

    if game not in games.names():
        raise CardlabError(f"unknown game {game!r}; games: {', '.join(games.names())}")
    if game not in GAMES:
        raise CardlabError(f"{game}: no learned strategy for this game in this cardlab; "
                           f"games with one: {', '.join(GAMES)}")
    return GAMES[game]


def _check_players(game: str, counts: tuple[int, ...]) -> None:
    from analyzer.games.registry import get

    d = get(game)
    for p in counts:
        if not d.min_players <= p <= d.max_players:
            raise CardlabError(f"--players must be {d.min_players}..{d.max_players} for "
                               f"{game}; got {p}")


def _players(text: str) -> tuple[int, ...]:
    try:
        from analyzer.numbers import parse_int_list

        counts = tuple(parse_int_list(text, "--players"))
    except ValueError:
        raise CardlabError(f"--players must be numbers 3..12 separated by commas; got {text!r}"
                           ) from None
    if not counts or any(not 3 <= p <= 12 for p in counts) or len(set(counts)) != len(counts):
        raise CardlabError(f"--players must be distinct numbers 3..12; got {text!r}")
    return counts


def _check_training_outputs(out: Path, weights: Path | None, force: bool,
                            resume: bool) -> Path | None:
    """Every check of ``train``'s outputs before anything is created: the work folder (new,
    empty or a training; never inside another cardlab folder; ``--resume`` needs a training
    there) and ``--weights`` (the one shared file check, never inside a cardlab folder nor the
    work folder, whatever --force says). Returns --weights (None: OUT/learned.json)."""
    from analyzer.outputs import check_file_target, check_output_path, claim_folder

    check_output_path(out, "--out", own=("training",),
                      advice="a training needs a folder of its own: choose a new --out")
    if out.exists() and not out.is_dir():
        raise CardlabError(f"--out {out} exists and is not a folder; give a new or empty folder")
    if out.is_dir() and any(out.iterdir()) and not (out / "_train.json").is_file():
        raise CardlabError(f"--out {out} is a folder cardlab did not make for a training; "
                           "give a new or empty folder")
    if resume and not (out / "_train.json").is_file():
        raise CardlabError(f"--resume: {out} holds no training to continue (is the path "
                           "right? without --resume a new training starts there)")
    if weights is not None:
        work, file = Path(os.path.abspath(out)), Path(os.path.abspath(weights))
        if file == work / "learned.json":
            weights = None  # the default place
        elif work in file.parents:
            raise CardlabError(f"--weights {weights} is inside the --out folder {out}; leave "
                               "out --weights (the best weights go to OUT/learned.json) or "
                               "choose a file outside it")
        else:
            check_file_target(weights, force, "--weights")
    claim_folder(out, "--out")  # a second training into this folder: refused, in use
    return weights


def _check_eval_seed(seed: int, eval_seed: int, counts: tuple[int, ...], rounds: int) -> None:
    """The held-out deals must be no training deals: ``eval_seed`` is none of the data seeds
    (analyzer/learn/train.py ``data_seed``: one per round and player count), nor ``seed``."""
    from analyzer.learn.train import data_seed
    from analyzer.seeds import MAX_SEED

    if data_seed(seed, rounds, max(counts)) > MAX_SEED:
        raise CardlabError(f"--seed {seed} leaves no room for the data seeds (--seed + 1000 x "
                           f"round + players must stay below 2**63): give a smaller --seed")
    used = {seed} | {data_seed(seed, r, p) for r in range(1, rounds + 1) for p in counts}
    if eval_seed in used:
        where = next(((r, p) for r in range(1, rounds + 1) for p in counts
                      if data_seed(seed, r, p) == eval_seed), None)
        what = ("--seed" if where is None else
                f"the seed of round {where[0]}'s {where[1]}-player decision data")
        raise CardlabError(f"--eval-seed {eval_seed} is {what} (the held-out deals must be "
                           f"no training deals); the data seeds are --seed + 1000 x round + "
                           f"players: choose another --eval-seed")


@app.command("decisions")
def decisions(
    game: str = typer.Argument(..., help="ass (Who's the Ass?) or jass (Plus-Minus Jass)."),
    out: Path = typer.Option(..., *opt.SHARED_FLAGS["out"],
                             help="The run folder to write (Parquet parts)."),
    games_: int = opt.games(200, "Games to play (Plus-Minus Jass: single deals)."),
    seed: int = opt.seed("Seed of the deals (0..2**63-1)."),
    start: int = typer.Option(0, "--start", help="First game (deal) index."),
    players: int = opt.players(4, "Players: 3 to 12 (Who's the Ass?), 3 or 4 (Jass)."),
    searcher: str = typer.Option("pimc:worlds=64", "--searcher",
                                 help="The search strategy in every seat (pimc:KNOBS)."),
    field: str = opt.strategy(None, "The other seats' strategy, e.g. aim-low; "
                                    "the searcher then values one seat per deal (deal index "
                                    "mod players), which plays learned's card (the positions "
                                    "learned reaches itself)."),
    field_mix: str = typer.Option(None, "--field-mix",
                                  help="As --strategy, but each other seat of each game (deal) "
                                       "is drawn from these strategies, e.g. "
                                       "aim-low+learned+pimc (reproducibly from seed and index; "
                                       "repeat one to draw it more often)."),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted run."),
    repair: bool = typer.Option(False, "--repair", help="With --resume: move damaged parts "
                                "(and a damaged manifest) into _damaged/ and play exactly "
                                "their ranges again."),
    quiet: bool = opt.quiet(),
) -> None:
    """Play games (Jass: single deals) with a search player in every seat and write, for
    every decision with a choice, each candidate move's features and pimc's value of it (mean,
    spread, worlds). With --strategy or --field-mix: one searched seat that plays learned's
    move, that strategy (strategies drawn from the mix) in the others."""
    from strategies.registry import StrategyError, parse_strategy

    try:
        module = _game(game)
        if repair and not resume:
            raise CardlabError("--repair needs --resume (it repairs the run it continues)")
        check_seed(seed)
        check_range(start, games_)
        _check_players(game, (players,))
        strategy = parse_strategy(game, searcher)
        if strategy.spec.name != "pimc":
            raise CardlabError(f"--searcher must be pimc with knobs; got {searcher!r}")
        others = None
        if field is not None and field_mix is not None:
            raise CardlabError("give --strategy (one field) or --field-mix (a mix), not both")
        if field_mix is not None:
            from analyzer.learn.decisions import parse_mix

            others = parse_mix(game, field_mix)
            if module.MODEL.WEIGHTS_ERROR:  # the searched seat plays learned's card
                raise CardlabError(module.MODEL.WEIGHTS_ERROR)
        if field is not None:
            others = parse_strategy(game, field)
            if others.spec.name == "pimc" or "slow" in others.spec.tags:
                raise CardlabError(f"--strategy must be a strategy that does not search; "
                                   f"got {field!r}")
            if module.MODEL.WEIGHTS_ERROR:  # the searched seat plays learned's card
                raise CardlabError(module.MODEL.WEIGHTS_ERROR)
        from analyzer.learn.decisions import run_decisions
        from analyzer.runner.interrupts import watch_parent_from_env

        watch_parent_from_env()  # started by `cardlab train`: never outlive it
        manifest = run_decisions(module, out, seed, games_, players, strategy, resume,
                                 not quiet, start=start, field=others, repair=repair)
    except (CardlabError, StrategyError) as exc:
        fail(exc)
    except KeyboardInterrupt:
        typer.echo(f"interrupted; the finished parts are kept in {out}: continue with the "
                   "same command and --resume", err=True)
        raise typer.Exit(130) from None
    typer.echo(f"{out}: {manifest['count']} {module.UNIT}s, {manifest['candidate_rows']} "
               "candidate rows")


def _check_rollout(game: str, rollout: str) -> str:
    """``--rollout``: what pimc's ``rollout`` knob takes in this game, read by the knob's own
    parser (Plus-Minus Jass: its named choices; Who's the Ass?: any strategy that does not
    search, or ``value``); one line naming what is allowed when not."""
    from strategies.registry import StrategyError, catalog

    param = next(p for p in catalog(game)["pimc"].params if p.name == "rollout")
    name = rollout.strip()
    try:
        param.parse(name)
    except StrategyError as exc:
        raise CardlabError(f"--rollout {rollout!r} is not a rollout of pimc: {exc}") from None
    return name


@app.command("train")
def train(
    game: str = typer.Argument(..., help="ass (Who's the Ass?) or jass (Plus-Minus Jass)."),
    out: Path = typer.Option(None, *opt.SHARED_FLAGS["out"],
                             help="Work folder: each round's data, weights and strength "
                                  "(default runs/train-GAME)."),
    weights: Path = typer.Option(None, "--weights",
                                 help="Where the best weights go (default OUT/learned.json)."),
    seed: int = opt.seed("Seed of the decision data; the shipped weights: --seed 23."),
    games_: int = opt.games(None, "Games (Jass: deals) of decision data per round and player "
                                  "count (default ass 1500, jass 3000)."),
    players: str = typer.Option(None, *opt.SHARED_FLAGS["players"],
                                help="Player counts of the data, e.g. 4,6 (default ass 4,6; "
                                     "jass 3,4)."),
    worlds: int = typer.Option(None, "--worlds", help="pimc's worlds per decision (64)."),
    rounds: int = typer.Option(None, "--rounds",
                               help="Expert-iteration rounds (ass 2, jass 3)."),
    eval_games: int = typer.Option(None, "--eval-games",
                                   help="Held-out deals (Jass: matches) per seating to measure "
                                        "each round (3000)."),
    later_games: int = typer.Option(None, "--later-games",
                                    help="Games (Jass: deals) of decision data per player count "
                                         "in rounds 2 and on (default: as --games)."),
    eval_seed: int = typer.Option(None, "--eval-seed",
                                  help="Seed of the held-out deals (ass 9923, jass 9925)."),
    field_mix: str = typer.Option(None, "--field-mix",
                                  help="The field of rounds 2 and on: each other seat of each "
                                       "game (deal) drawn from these strategies, learned (the "
                                       "round before's weights) in the searched seat (default: "
                                       "docs/learned.md; ass none: pimc with learned rollouts "
                                       "in every seat, jass aim-low: the trainings before the "
                                       "mix)."),
    rollout: str = typer.Option(None, "--rollout",
                                help="The searcher's rollout (pimc's rollout knob) in every "
                                     "round, e.g. value: pimc's value model, learning from the "
                                     "default player's values (default: the rollouts the "
                                     "shipped weights were searched with, docs/learned.md)."),
    from_: list[Path] = typer.Option(None, "--from",
                                     help="Train on these decisions runs instead (no rounds)."),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted training."),
    repair: bool = typer.Option(False, "--repair", help="With --resume: repair the training's "
                                "damaged decision data (their damaged parts are played "
                                "again)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --weights file."),
    quiet: bool = opt.quiet(),
) -> None:
    """Train the learned strategy's weights (expert iteration from pimc's values), or fit
    them to existing decision data (--from)."""
    from analyzer.learn.train import TrainPlan
    from analyzer.learn.train import train as run_training

    try:
        module = _game(game)
        if repair and not resume:
            raise CardlabError("--repair needs --resume (it repairs the training it continues)")
        if from_:  # one fit of those runs: the options of the training rounds have no use
            unused = [name for name, value in (
                ("--games", games_), ("--players", players), ("--worlds", worlds),
                ("--rounds", rounds), ("--eval-games", eval_games),
                ("--later-games", later_games), ("--eval-seed", eval_seed),
                ("--field-mix", field_mix), ("--rollout", rollout)) if value is not None]
            if unused:
                raise CardlabError(f"{unused[0]} applies to training rounds; with --from (one fit "
                                   "of those decisions runs, no rounds) leave it out")
        d = module.DEFAULTS
        out = out if out is not None else Path(d["out"])
        games_ = d["games"] if games_ is None else games_
        players = d["players"] if players is None else players
        worlds = d["worlds"] if worlds is None else worlds
        rounds = d["rounds"] if rounds is None else rounds
        eval_games = d["eval_games"] if eval_games is None else eval_games
        eval_seed = d["eval_seed"] if eval_seed is None else eval_seed
        later_games = d.get("later_games", games_) if later_games is None else later_games
        field_mix = d.get("field_mix") if field_mix is None else field_mix
        if field_mix is not None and not from_:
            from analyzer.learn.decisions import mix_label, parse_mix
            from analyzer.learn.train import NO_FIELD

            if field_mix.strip() != NO_FIELD:
                field_mix = mix_label(parse_mix(game, field_mix))
            else:
                field_mix = NO_FIELD
        if rollout is not None and not from_:
            rollout = _check_rollout(game, rollout)
        check_seed(seed)
        check_seed(eval_seed)
        counts = _players(players)
        _check_players(game, counts)
        check_range(0, games_)
        check_range(0, eval_games, "--eval-games")
        check_range(0, later_games, "--later-games")
        if not 1 <= worlds <= 256:
            raise CardlabError(f"--worlds must be 1..256; got {worlds}")
        if not 1 <= rounds <= 20:
            raise CardlabError(f"--rounds must be 1..20; got {rounds}")
        _check_eval_seed(seed, eval_seed, counts, rounds)
        for path in from_ or []:
            if not (path / "_run.json").is_file():
                raise CardlabError(f"--from {path} is not a decisions run folder")
        weights = _check_training_outputs(out, weights, force, resume)
        plan = TrainPlan(game, seed, games_, counts, worlds, rounds, eval_games, eval_seed,
                         later_games, field_mix, rollout)
        result = run_training(out, plan, resume, not quiet, weights or out / "learned.json",
                              list(from_) if from_ else None, say=typer.echo,
                              repair=repair)
    except CardlabError as exc:
        fail(exc)
    except KeyboardInterrupt as exc:  # interrupts.Stopped: no child process is left running
        signum = getattr(exc, "signum", 2)
        typer.echo(f"interrupted; the finished steps are kept in {out}: continue with the "
                   "same command and --resume", err=True)
        raise typer.Exit(128 + signum) from None
    typer.echo(f"weights: {result['weights']}")


@app.command("learn-strength", hidden=True)
def learn_strength(
    game: str = typer.Argument(...),
    games_: int = opt.games(..., "Held-out deals (Jass: matches) per seating."),
    seed: int = opt.seed(),
    out: Path = typer.Option(..., *opt.SHARED_FLAGS["out"]),
) -> None:
    """The strength of learned (the weights of CARDLAB_LEARNED_GAME) against its field."""
    from analyzer.runner.folder import atomic_write_bytes
    from analyzer.runner.interrupts import checked_interrupts, watch_parent_from_env
    from strategies.registry import StrategyError, parse_strategy

    try:
        from analyzer.outputs import TRAINING_ENV, check_output_path

        within = os.environ.get(TRAINING_ENV)  # `cardlab train` writes into its own folder
        check_output_path(out, "--out", within=Path(within) if within else None)
        module = _game(game)
        parse_strategy(game, "learned")  # the weights file's one-line check
        watch_parent_from_env()  # started by `cardlab train`: never outlive it
        with checked_interrupts():  # Ctrl-C: once the measurement in hand is done
            result = module.strength(games_, seed)
    except (CardlabError, StrategyError) as exc:
        fail(exc)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None
    atomic_write_bytes(out, (json.dumps(result, indent=1) + "\n").encode())
