"""The model behind ``cardlab analyze``'s values, and its advice in one voice.

The values are the strongest player's own: ``pimc`` with its defaults (strategies/*/catalog.py)
draws the worlds (its inference: Who's the Ass? ``infer``, ``oversample`` and ``eps``;
Plus-Minus Jass ``draw_worlds`` with the bans the play proves and its ``infer``) and plays
every seat after the move by its own evaluation, its ``rollout`` knob, read from the catalogue
(never named here: whatever ``pimc``'s default evaluation is, the analysis uses it). So the
best move is the move ``pimc`` would play, up to moves within noise of each other.

``--continuation NAME`` asks a what-if: the same worlds, but every seat after the move plays
NAME (any strategy that does not search; the ``rollout`` knob's own check), or an evaluation
the knob takes besides strategies (its ``extras``: Who's the Ass?'s ``value`` model).

:func:`recommendation` says the analysis in plain words, first: the move to play, the moves as
good within noise (their paired, selection-widened interval of the loss reaches 0,
analyzer/analysis/values.py), and what the others cost; :func:`model_line` names the model in
one short line.
"""

from __future__ import annotations

from typing import Any

from analyzer import numbers
from analyzer.errors import CardlabError

SEARCH = "pimc"  # the strongest player: its defaults are the model


def _analysis(game: str):
    """The game's own analysis module (its adapter's ``analysis`` part)."""
    from analyzer.games import registry

    return registry.load(registry.get(game).part("analysis", "the analysis"))


def default_worlds(game: str) -> int:
    """Worlds per position by default, as the game's adapter declares them
    (``GameParts.worlds``: a position in about a second or less on one core with pimc's
    default evaluation; scripts/bench_advice.py measures it)."""
    from analyzer.games import registry

    return int(registry.get(game).parts.worlds)


def default_worlds_text() -> str:
    """Every game's default worlds in words, for the commands' help."""
    from analyzer.games import registry

    return ", ".join(f"{default_worlds(g):,} ({registry.title(g)})" for g in registry.names()
                     if registry.get(g).parts.analysis)


def search_values(game: str, continuation: str | None = None) -> tuple[float, ...]:
    """``pimc``'s parameter vector with its defaults, its rollout replaced by
    ``continuation`` when given (checked: one line naming the allowed ones)."""
    from strategies.registry import StrategyError, parse_strategy

    if continuation is None:
        return tuple(parse_strategy(game, SEARCH).values)
    allowed = continuations(game)
    if continuation not in allowed:
        raise CardlabError(f"--continuation {continuation!r}: a strategy that does not search, "
                           f"one of {', '.join(allowed)}")
    try:
        return tuple(parse_strategy(game, f"{SEARCH}:rollout={continuation}").values)
    except StrategyError as exc:  # e.g. a learned strategy without its weights
        raise CardlabError(f"--continuation {continuation}: {exc}") from None


def continuations(game: str) -> list[str]:
    """The strategies ``--continuation`` accepts: those ``pimc``'s rollout knob takes."""
    from strategies.registry import StrategyError, catalog, parse_strategy

    knob = _rollout_knob(game)
    if knob.choices:
        return list(knob.spellings)
    out = []
    for name, spec in catalog(game).items():
        if spec.name == SEARCH or not spec.legal_player:
            continue
        try:
            parse_strategy(game, f"{SEARCH}:rollout={name}")
        except StrategyError:  # a search, or knobs a rollout cannot carry
            continue
        out.append(name)
    return out + list(getattr(knob, "extras", {}))


def _rollout_knob(game: str):
    from strategies.registry import catalog

    return next(p for p in catalog(game)[SEARCH].params if p.name == "rollout")


def rollout_name(game: str, values: tuple[float, ...]) -> str:
    """The name of the rollout strategy in ``pimc``'s parameter vector ``values``."""
    knob = _rollout_knob(game)
    return knob.show(values[knob.slot])


def model_line(game: str, continuation: str | None, values: tuple[float, ...]) -> str:
    """The one short line that names the model behind the values."""
    if continuation is None:
        name = rollout_name(game, values)
        what = getattr(_rollout_knob(game), "extras", {}).get(name, f"rollout {name}")
        return ("Values assume strong play by everyone after this move (pimc's worlds and "
                f"evaluation: {what}).")
    extra = getattr(_rollout_knob(game), "extras", {}).get(continuation)
    if extra:
        return (f"Values assume {extra} after this move (a what-if; the worlds as pimc draws "
                "them).")
    return (f"Values assume {continuation} by everyone after this move (a what-if; the worlds "
            "as pimc draws them).")


def unit_words(game: str) -> str:
    """The unit of the values, from the game's description (its analysis column)."""
    from analyzer.analysis.values import THRESHOLDS
    from analyzer.games import registry

    column = THRESHOLDS[game].column
    for mode in registry.get(game).modes:
        for c in mode.columns:
            if c.name == column and c.unit:
                return c.unit
    return THRESHOLDS[game].unit


def _names(moves: list[str]) -> str:
    if len(moves) > 3:
        return f"{', '.join(moves[:3])} and {len(moves) - 3} more"
    return moves[0] if len(moves) == 1 else f"{', '.join(moves[:-1])} and {moves[-1]}"


def _about(loss: float) -> str:
    if loss >= 10:
        return numbers.number(loss, 0)
    return numbers.number(loss, 1 if loss >= 1 else 2)


def recommendation(game: str, rows: list[dict[str, Any]]) -> str:
    """The analysis in plain words (rows best first, values.move_rows): the move to play (and
    the cards that are the same card in effect: rows whose ``same_as`` names it), the moves as
    good within noise, what the others cost."""
    from analyzer.analysis.values import loss_of

    best = rows[0]["move"]
    if len(rows) == 1:
        return f"Play {best}: it is the only legal {_analysis(game).MOVE_NOUN}."
    unit = unit_words(game)
    if rows[0]["diff_low"] is None:
        return (f"Play {best}; with so few worlds no other move is told apart from it (no "
                "intervals).")
    ties, worse, same = [], [], []
    for row in rows[1:]:
        if row.get("same_as") == best:  # no rule tells the two apart (analysis.jass)
            same.append(row["move"])
            continue
        loss, low, _ = loss_of(game, row)
        (worse if low is not None and low > 0 else ties).append((row["move"], loss))
    words = [f"Play {best}" + (f" ({_names(same)} {'is' if len(same) == 1 else 'are'} the "
                               "same card here)." if same else ".")]
    if ties:
        words.append(f"{_names([m for m, _ in ties])} {'is' if len(ties) == 1 else 'are'} as "
                     "good within noise" + (";" if worse else "."))
    parts = []
    passing = next((loss for m, loss in worse if m == "pass"), None)
    if passing is not None:
        parts.append(f"passing costs about {_about(passing)} {unit}")
        worse = [(m, loss) for m, loss in worse if m != "pass"]
    if len(worse) == 1:
        parts.append(f"{worse[0][0]} costs about {_about(worse[0][1])} {unit}")
    elif worse:
        low, high = min(loss for _, loss in worse), max(loss for _, loss in worse)
        noun = _analysis(game).MOVE_NOUN
        lead = f"every other {noun} costs" if not ties and passing is None else \
            f"the other {len(worse)} {noun}s cost"
        parts.append(f"{lead} about {_about(low)} to {_about(high)} {unit}")
    if parts:
        text = "; ".join(parts)
        words.append((text[0].upper() + text[1:] if not ties else text) + ".")
    return " ".join(words)


def advice(game: str, rows: list[dict[str, Any]], continuation: str | None,
           values: tuple[float, ...]) -> dict[str, str]:
    """``{"recommendation", "model"}``: what an analysis result leads with."""
    return {"recommendation": recommendation(game, rows),
            "model": model_line(game, continuation, values)}
