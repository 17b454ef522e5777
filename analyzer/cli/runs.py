"""A run folder as the replaying commands read it: verified first, then its plan, then the
files its strategies read (a learned family's weights) checked against the run's record.

Shared by ``replay --from`` and ``analyze --from`` (both below the commands that use them).
"""

from __future__ import annotations

from pathlib import Path

from analyzer.errors import CardlabError


def run_spec(run: Path):
    """The RunSpec, first index, count and plan of a run folder, after the folder has passed
    the very verification ``summarize`` makes (RunFolder.verify): a damaged or edited folder
    is refused with the reason, never replayed."""
    from analyzer.runner.folder import RunFolder, damaged_error
    from analyzer.runner.manifest import spec_of

    folder = RunFolder(run)
    plan = folder.read_plan()
    check = folder.verify(plan)
    if check.damage and not folder.is_locked():
        raise damaged_error(folder, check, "nothing is replayed")
    try:
        spec, start, count = spec_of(plan), int(plan["start"]), int(plan["count"])
    except (ValueError, KeyError, TypeError) as exc:
        raise CardlabError(f"cannot read the plan of {run}: {exc}") from None
    check_recorded_weights(plan, run)
    check_recorded_player_counts(plan, run)
    return spec, start, count, plan


def check_recorded_player_counts(plan: dict, run: Path) -> None:
    """One line, before anything is played, when a seat's knob that follows the player count
    (the plan's ``at_players``, runner/manifest.py ``describe_strategies``) played another
    value than the same knob plays now at the run's player count: the replay would play
    another game."""
    from analyzer.runner.manifest import recorded_strategies
    from strategies.registry import StrategyError, from_definition

    recorded = recorded_strategies(plan)
    for entry in plan.get("strategies") or []:
        played = entry.get("at_players") if isinstance(entry, dict) else None
        text = entry.get("strategy") if isinstance(entry, dict) else None
        if not isinstance(played, dict) or text not in recorded:
            continue
        try:
            now = from_definition(plan["game"], recorded[text]).by_players_at(
                int(plan["players"]))
        except (StrategyError, KeyError, TypeError, ValueError) as exc:
            raise CardlabError(f"cannot replay {run}: {exc}") from None
        for knob, value in played.items():
            if now.get(knob) != value:
                raise CardlabError(
                    f"cannot replay {run}: its {text!r} played {knob}={value} at "
                    f"{plan['players']} players, where the same strategy plays "
                    f"{knob}={now.get(knob)} now, and a replay would play another game")


def check_recorded_weights(plan: dict, run: Path) -> None:
    """One line, before anything is played, when a strategy of the run reads learned weights
    (a ``learned`` seat, ``pimc:rollout=learned``), the game's pinned learned model
    (Who's the Ass?'s ``learned-linear``, Plus-Minus Jass's ``learned-leaf``, and
    ``pimc:rollout=value``, whose rounds or tricks it finishes) or a value
    model (``pimc:rollout=value``, the plan's ``value_weights``) and the weights this process
    would play are not those the run recorded: the replay would play another game. A
    ``learned`` seat's recorded description names its weights' sha256; a rollout's are in
    the plan's ``weights`` and ``linear_weights`` / ``leaf_weights`` (a run that did not
    record them cannot be replayed faithfully)."""
    import re

    from analyzer.runner.manifest import (
        PINNED,
        VALUE,
        pinned_key,
        reads_pinned_weights,
        reads_value_weights,
        reads_weights,
        recorded_strategies,
        weights_in_use,
    )
    from strategies.registry import StrategyError, from_definition

    game = plan.get("game")
    for text, definition in recorded_strategies(plan).items():
        try:
            strategy = from_definition(game, definition)
        except StrategyError as exc:  # the weights in use are unusable, or the record edited
            raise CardlabError(f"cannot replay {run}: {exc}") from None
        if reads_value_weights(strategy):
            now, model = weights_in_use(game, VALUE)
            played = (plan.get("value_weights") or {}).get(game)
            if played != now:
                raise _other_weights(run, text, "value", played, now, model)
        for kind, how, key in ((PINNED, reads_pinned_weights(strategy), pinned_key(game)),
                               ("learned", reads_weights(strategy), "weights")):
            if how is None:
                continue
            now, model = weights_in_use(game, kind)
            if how == "family":
                found = re.search(r"\(weights ([0-9a-f]{12})\)",
                                  str(definition.get("description")))
                played = found.group(1) if found else None
                same = played == now[:12]
            else:
                # (runs before the pinned model had a key of its own recorded its digest as
                # the learned weights', the same file then)
                played = (plan.get(key) or (plan.get("weights") if kind == PINNED else None)
                          or {}).get(game)
                same = played == now
            if not same:
                raise _other_weights(run, text, "learned" if kind != PINNED else
                                     model.kind.removesuffix(" weights"), played, now, model)


def _other_weights(run: Path, text: str, kind: str, played, now: str, model) -> CardlabError:
    """The one line of :func:`check_recorded_weights`: ``text`` played ``kind`` weights
    ``played`` (their sha256 or its first 12 digits; None: not recorded), ``now`` are in use."""
    was = (f"{kind} weights {played[:12]}" if isinstance(played, str) and played
           else f"{kind} weights it did not record")
    return CardlabError(
        f"cannot replay {run}: its {text!r} played {was}, the weights in use now "
        f"({model.path()}) are {now[:12]}, and a replay would play another game; "
        f"set {model.env} to the weights file the run played")
