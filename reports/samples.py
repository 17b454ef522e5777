"""A sample game for the report, chosen to show a finding, drawn as cards.

* Who's the Ass? (jokers study): a game in which the joker hoarder is caught with jokers in
  hand at the end, from the study's own runs, drawn round by round.
* Plus-Minus Jass (trump study): a deal in which the player who fixed trump went past 100
  card points (so, by J-9, the stick goes to the player with the fewest), drawn trick by trick.

Each sample carries the ``cardlab replay ... --pretty`` command that prints the same game in
the terminal. Games are replayed from the study's manifest (seed, index, one strategy per
seat) with the engines' trace mode, so numba is imported only here, and only when a report
with such a study is built.
"""

from __future__ import annotations

import html
import shlex
from dataclasses import dataclass
from typing import Any

from analyzer.studies.results import StudyResult
from reports.names import ruleset_label

SEARCH = 300  # games (deals) looked at for one that shows the finding
SUIT_NAMES = {"B": "bells", "S": "shields", "R": "roses", "A": "acorns"}
RANK_NAMES = {"U": "Under", "O": "Ober", "K": "King", "A": "Ace", "10": "Banner"}


@dataclass(frozen=True)
class SampleGame:
    """One game drawn for the report: what it shows, the drawing, and how to replay it."""

    study: str
    title: str
    caption: str
    html: str
    command: str


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _run_of(result: StudyResult, want: dict[str, Any], prefer_players: int = 4) -> dict | None:
    """The manifest run matching ``want`` at ``prefer_players`` players (else the first)."""
    runs = [r for r in result.manifest.get("runs") or []
            if all(r.get(k) == v or (k == "rules" and all(r.get("rules", {}).get(kk) == vv
                                                           for kk, vv in v.items()))
                   for k, v in want.items())]
    best = [r for r in runs if r.get("players") == prefer_players]
    return (best or runs or [None])[0]


def _spec(run: dict):
    from analyzer.games.kernel import RunSpec

    return RunSpec(run["game"], int(run["players"]), tuple(run["strategies"]), int(run["seed"]),
                   run.get("mode", ""), dict(run.get("rules") or {}))


def _strategy_args(strategies: list[str]) -> list[str]:
    if len(set(strategies)) == 1:
        return ["--strategy", strategies[0]]
    return [x for s in strategies for x in ("--strategy", s)]


# ------------------------------------------------------------------------ Who's the Ass?
def _ass_card(card: str) -> str:
    kind = " j" if card == "J" else " a" if card == "A" else ""
    title = {"J": "joker", "A": "the ass"}.get(card, f"a {card}")
    return f'<span class="c{kind}" title="{title}">{_e(card)}</span>'


def _ass_cards(cards: list[str]) -> str:
    return "".join(_ass_card(c) for c in cards) if cards else '<span class="none">none</span>'


def ass_game_html(record: dict[str, Any], focus: int) -> str:
    """A Who's the Ass? record as a table of hands and a grid of rounds (one column a seat)."""
    n = record["players"]
    seat_head = "".join(
        f'<th class="{"focus" if s == focus else ""}">seat {s}<br>'
        f'<small>{_e(record["strategies"][s])}</small></th>' for s in range(n))
    dealt = "".join(f'<td class="{"focus" if s == focus else ""}">'
                    f'{_ass_cards(record["hands"][s])}</td>' for s in range(n))
    rows = [f'<tr class="dealt"><th>dealt</th>{dealt}</tr>']
    for number, rnd in enumerate(record["rounds"], start=1):
        by_seat = {p["seat"]: p for p in rnd["plays"]}
        cells = []
        for s in range(n):
            play = by_seat.get(s)
            mark = []
            if s == rnd["starter"]:
                mark.append("lead")
            if s == rnd["winner"]:
                mark.append("win")
            if play is None or play.get("pass"):
                body = '<span class="pass">pass</span>'
            else:
                body = _ass_cards(play["cards"])
                if "joker_value" in play:
                    body += f'<small> as {play["joker_value"]}</small>'
            cells.append(f'<td class="{" ".join(mark)}">{body}</td>')
        kind = "ass round" if rnd["ass_round"] else ""
        rows.append(f'<tr class="{"assr" if rnd["ass_round"] else ""}"><th>{number}'
                    f'{"<br><small>" + kind + "</small>" if kind else ""}</th>'
                    f'{"".join(cells)}</tr>')
    final = "".join(f'<td class="{"focus" if s == focus else ""}">'
                    f'{_ass_cards(record["final_hands"][s])}</td>' for s in range(n))
    pens = "".join(f'<td class="{"focus" if s == focus else ""}"><b>{p}</b></td>'
                   for s, p in enumerate(record["penalties"]))
    rows.append(f'<tr class="end"><th>left in hand</th>{final}</tr>')
    rows.append(f'<tr class="end"><th>minus points</th>{pens}</tr>')
    return (f'<div class="scroll-x"><table class="game"><thead><tr><th>round</th>{seat_head}'
            f'</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
            '<p class="legend">Cards: 1 to 13 number cards, <span class="c j">J</span> joker, '
            '<span class="c a">A</span> the ass. In each round the outlined cell leads and the '
            'shaded cell wins (in an ass round, takes the cards and the ass).</p>')


def jokers_sample(result: StudyResult) -> SampleGame | None:
    """A game in which the joker hoarder ends with jokers in hand."""
    from analyzer.games.ass.records import Tracer

    hoarder = (result.manifest.get("policies") or {}).get("hoard", "joker-hoarder")
    runs = [r for r in result.manifest.get("runs") or [] if hoarder in r.get("strategies", [])]
    if not runs:
        return None
    run = ([r for r in runs if r["players"] == 4] or runs)[0]
    seat = run["strategies"].index(hoarder)
    tracer = Tracer(_spec(run))
    chosen, fallback = None, None
    for index in range(SEARCH):
        record, status = tracer.record(index)
        if status >= 0:
            continue
        jokers = record["final_hands"][seat].count("J")
        if fallback is None or record["penalties"][seat] > fallback[0]["penalties"][seat]:
            fallback = (record, index)
        if jokers and record["penalties"][seat] == max(record["penalties"]):
            chosen = (record, index)
            break
    record, index = chosen or fallback
    jokers = record["final_hands"][seat].count("J")
    others = [s for s in range(record["players"]) if s != seat]
    rest = ", ".join(str(record["penalties"][s]) for s in others)
    caption = (f"Seat {seat} plays {hoarder} (never a joker while number cards remain) "
               f"against {', '.join(sorted(set(record['strategies']) - {hoarder})) or 'itself'}"
               f". It ends the game with {jokers} joker{'s' if jokers != 1 else ''} still in "
               f"hand and {record['penalties'][seat]} minus points (the others: {rest}): the "
               "jokers it saved for later never got played.")
    command = shlex.join(["cardlab", "replay", "ass", "--seed", str(record["seed"]),
                          "--index", str(index), "--players", str(record["players"]),
                          *_strategy_args(record["strategies"]), "--pretty"])
    return SampleGame("jokers", "A sample game: a hoarder caught with jokers", caption,
                      ass_game_html(record, seat), command)


# ----------------------------------------------------------------------- Plus-Minus Jass
def _jass_card(card: str, extra: str = "") -> str:
    suit, rank = card[0], card[1:]
    title = f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES.get(suit, suit)}"
    return f'<span class="c s{suit}{extra}" title="{title}">{_e(suit)}{_e(rank)}</span>'


def _fixing_card(deal: dict[str, Any], n: int) -> tuple[int, int] | None:
    """(trick number, seat) of the first card that did not follow suit: it fixed trump."""
    for t, trick in enumerate(deal["tricks"]):
        led = trick["cards"][0][0]
        for k, card in enumerate(trick["cards"][1:], start=1):
            if card[0] != led:
                return t, (trick["leader"] + k) % n
    return None


def jass_deal_html(deal: dict[str, Any], n: int, strategies: list[str], focus: int) -> str:
    """One Jass deal: the hands, then a grid of tricks (one column a seat)."""
    fixing = _fixing_card(deal, n)
    aims = deal.get("aims") or []
    seat_head = "".join(
        f'<th class="{"focus" if s == focus else ""}">seat {s}<br><small>{_e(strategies[s])}'
        + (f", aims {_e(aims[s])}" if s < len(aims) and aims[s] not in ("n/a", None) else "")
        + "</small></th>" for s in range(n))
    hands = "".join(f'<td class="{"focus" if s == focus else ""}">'
                    + "".join(_jass_card(c) for c in deal["hands"][s]) + "</td>"
                    for s in range(n))
    rows = [f'<tr class="dealt"><th>hands</th>{hands}</tr>']
    for t, trick in enumerate(deal["tricks"]):
        played = {(trick["leader"] + k) % n: c for k, c in enumerate(trick["cards"])}
        cells = []
        for s in range(n):
            mark = [m for m, on in (("lead", s == trick["leader"]), ("win", s == trick["winner"]))
                    if on]
            fix = fixing is not None and fixing == (t, s)
            body = _jass_card(played[s], " fix" if fix else "")
            if fix:
                body += "<small> fixes trump</small>"
            cells.append(f'<td class="{" ".join(mark)}">{body}</td>')
        rows.append(f"<tr><th>trick {t + 1}</th>{''.join(cells)}</tr>")
    pts = "".join(f'<td class="{"focus" if s == focus else ""}"><b>{p}</b></td>'
                  for s, p in enumerate(deal["points"]))
    sticks = "".join(f'<td class="{"focus" if s == focus else ""}">{k}</td>'
                     for s, k in enumerate(deal["sticks"]))
    rows.append(f'<tr class="end"><th>card points</th>{pts}</tr>')
    rows.append(f'<tr class="end"><th>sticks</th>{sticks}</tr>')
    return (f'<div class="scroll-x"><table class="game"><thead><tr><th></th>{seat_head}</tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table></div>'
            '<p class="legend">Cards: suit letter and rank. Suits <span class="c sB">B</span> '
            'bells, <span class="c sS">S</span> shields, <span class="c sR">R</span> roses, '
            '<span class="c sA">A</span> acorns; ranks 6 7 8 9 10 (Banner) U (Under) O (Ober) '
            'K (King) A (Ace). In each trick the outlined cell leads and the shaded cell wins; '
            'the first card that does not follow suit fixes trump.</p>')


def trump_sample(result: StudyResult) -> SampleGame | None:
    """A deal in which the player who fixed trump went past 100 card points."""
    from analyzer.games.jass.records import trace_record

    run = _run_of(result, {"rules": {"ruleset": "seed"}}) or _run_of(result, {})
    if run is None:
        return None
    spec = _spec(run)
    chosen, fallback = None, None
    for index in range(SEARCH):
        record = trace_record(spec, index)
        deal = record["deals"][0]
        fixer = deal.get("fixer")
        if fixer is None:
            continue
        if fallback is None:
            fallback = (record, index)
        if deal["points"][fixer] >= 100:
            chosen = (record, index)
            break
    if chosen is None and fallback is None:
        return None
    record, index = chosen or fallback
    deal, n = record["deals"][0], record["players"]
    fixer = deal["fixer"]
    suit = SUIT_NAMES.get(deal["trump"], deal["trump"])
    held = sum(1 for c in deal["hands"][fixer] if c[0] == deal["trump"])
    pts = deal["points"][fixer]
    fewest = min(range(n), key=lambda s: deal["points"][s])
    if pts >= 100:
        outcome = (f"and took {pts} card points. Past 100, the deal's stick goes to the player "
                   f"with the fewest points (ruling J-9): seat {fewest}, with "
                   f"{deal['points'][fewest]}.")
    else:
        outcome = f"and took {pts} card points."
    caption = (f"{n} players, {ruleset_label(record['rules']['ruleset'])}, one deal. Seat "
               f"{fixer} was the first who could not follow suit and fixed {suit} as trump, "
               f"a suit of which it held {held} card{'s' if held != 1 else ''}, {outcome}")
    command = shlex.join(["cardlab", "replay", "jass", "--seed", str(record["seed"]),
                          "--index", str(index), "--players", str(n), "--mode", "deals",
                          "--ruleset", record["rules"]["ruleset"],
                          *_strategy_args(record["strategies"]), "--pretty"])
    return SampleGame("trump", "A sample deal: a trump choice that crossed 100", caption,
                      jass_deal_html(deal, n, record["strategies"], fixer), command)


SAMPLES = {"jokers": jokers_sample, "trump": trump_sample}


def study_sample(result: StudyResult) -> SampleGame | None:
    """The sample game of ``result``'s study, or None when the study has none."""
    make = SAMPLES.get(result.study)
    return make(result) if make else None
