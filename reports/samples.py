"""Sample games drawn as cards: Who's the Ass? round by round, Plus-Minus Jass trick by trick.

The game is chosen by :mod:`analyzer.studies.samples` (a joker hoarder caught with jokers; a
trump choice that crossed 100) and handed in as a record; this module only draws it, says
why it was picked, gives the ``cardlab replay ... --pretty`` command that prints the same
game in a terminal, and names the viewer page (reports/viewer.py) the report writes beside
itself for stepping through the game. No engines here.
"""

from __future__ import annotations

import html
import shlex
from dataclasses import dataclass
from typing import Any

from analyzer.games.ass.readable import play_value
from analyzer.games.jass.readable import trump_fix
from analyzer.games.jass.sticks import explain_sticks
from analyzer.studies.registry import study_game
from reports.names import ruleset_label

SUIT_NAMES = {"B": "bells", "S": "shields", "R": "roses", "A": "acorns"}
RANK_NAMES = {"U": "Under", "O": "Ober", "K": "King", "A": "Ace", "10": "Banner"}


@dataclass(frozen=True)
class SampleGame:
    """One game drawn for the report: what it shows, the drawing, how to replay it, and its
    record with the report-relative path of its viewer page (``games/<study>-<index>.html``,
    reports/viewer.py; written by reports/build.py)."""

    study: str
    title: str
    caption: str
    html: str
    command: str
    record: dict[str, Any] | None = None
    page: str = ""


def viewer_page(study: str, index: int) -> str:
    """Where a sample's viewer page lies in the report folder."""
    return f"games/{study}-{index}.html"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


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
                if "J" in play["cards"]:  # every joker with the value it played as
                    body += f'<small> J as {play_value(play, rnd["ass_round"])}</small>'
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


def jokers_drawing(sample) -> SampleGame:
    """The hoarder's game: caption, drawing and replay command."""
    record, seat, index = sample.record, sample.seat, sample.index
    hoarder = record["strategies"][seat]
    jokers = record["final_hands"][seat].count("J")
    others = [s for s in range(record["players"]) if s != seat]
    rest = ", ".join(str(record["penalties"][s]) for s in others)
    field = ", ".join(sorted(set(record["strategies"]) - {hoarder})) or "itself"
    caption = (f"Seat {seat} plays {hoarder} (never a joker while number cards remain) "
               f"against {field}. It ends the game with {jokers} joker"
               f"{'s' if jokers != 1 else ''} still in hand and {record['penalties'][seat]} "
               f"minus points (the others: {rest}): the jokers it saved for later never got "
               "played.")
    command = shlex.join(["cardlab", "replay", study_game("jokers"), "--seed", str(record["seed"]),
                          "--index", str(index), "--players", str(record["players"]),
                          *_strategy_args(record["strategies"]), "--pretty"])
    return SampleGame("jokers", "A sample game: a hoarder caught with jokers", caption,
                      ass_game_html(record, seat), command, record, viewer_page("jokers", index))


# ----------------------------------------------------------------------- Plus-Minus Jass
def _jass_card(card: str, extra: str = "") -> str:
    suit, rank = card[0], card[1:]
    title = f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES.get(suit, suit)}"
    return f'<span class="c s{suit}{extra}" title="{title}">{_e(suit)}{_e(rank)}</span>'


def _fixing_card(deal: dict[str, Any], n: int) -> tuple[int, int] | None:
    """(trick number, seat) of the first card that did not follow suit: it fixed trump."""
    fix = trump_fix(deal, n)
    return None if fix is None else (fix[0], fix[2])


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


def trump_drawing(sample) -> SampleGame:
    """The trump deal: caption, drawing and replay command."""
    record, fixer, index = sample.record, sample.seat, sample.index
    deal, n = record["deals"][0], record["players"]
    suit = SUIT_NAMES.get(deal["trump"], deal["trump"])
    held = sum(1 for c in deal["hands"][fixer] if c[0] == deal["trump"])
    pts = deal["points"][fixer]
    outcome = (f"and took {pts} card points. Sticks: "
               f"{explain_sticks(list(deal['points']))}.")
    caption = (f"{n} players, {ruleset_label(record['rules']['ruleset'])}, one deal. Seat "
               f"{fixer} was the first who could not follow suit and fixed {suit} as trump, "
               f"a suit of which it held {held} card{'s' if held != 1 else ''}, {outcome}")
    command = shlex.join(["cardlab", "replay", study_game("trump"), "--seed", str(record["seed"]),
                          "--index", str(index), "--players", str(n), "--deals",
                          "--ruleset", record["rules"]["ruleset"],
                          *_strategy_args(record["strategies"]), "--pretty"])
    return SampleGame("trump", "A sample deal: a trump choice that crossed 100", caption,
                      jass_deal_html(deal, n, record["strategies"], fixer), command, record,
                      viewer_page("trump", index))


def draw_sample(sample) -> SampleGame | None:
    """The drawing of a sample (an ``analyzer.studies.samples.Sample``), or None: the
    ``drawing`` of its study's report module (reports/studies/<study>.py)."""
    from reports.studies import part

    draw = part(sample.study, "drawing") if sample is not None else None
    return draw(sample) if draw else None
