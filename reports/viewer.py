"""The game viewer: one self-contained HTML page that steps through a recorded game.

:func:`viewer_steps` replays a game record (game-records.md: a Who's the Ass? game or match,
a Plus-Minus Jass match or deal) in plain Python, move by move, and returns the page's data:
per step every hand (all of them: the viewer is for after the game), the cards on the table,
who moved and whose turn it is, the running scores, and what happened in words.
:func:`viewer_html` embeds that data as JSON in a page with its own CSS and script (no
network, nothing beside it: it works copied alone) that steps with buttons, a slider and the
arrow keys; its colours are the board's (reports/palette.py, one source both read).
:func:`write_viewer` writes the page atomically (analyzer.outputs rules: a new
path, or an existing regular file with ``force``).

Annotations are optional: the dict ``{"moves": [{"seat", "move", "best", "loss", "loss_low",
"loss_high", "label"} or null, ...], "players": [...]}`` of
``analyzer.analysis.annotate.annotate_game``, one entry per move in record order (Who's the
Ass?: every entry of every round's ``plays``, passes included, game after game in a match;
Jass: every card of every trick, deal after deal), null where a seat was not analysed. With
them each move shows the best move beside the played one, the loss with its interval and the
label, a bar like a chess evaluation bar with its meaning written under it (a top-level
``"unit"`` names the loss's unit; by default minus points, or card points in Jass) and the
entry's ``alternatives`` (the top moves, formatted as the command line formats them, ``18 ±
3``); an evaluation graph per deal (game) draws each seat's ``value`` after each of its
moves, or, when the annotations carry a ``"timeline"`` (analysis.timeline.game_timeline),
every seat's expected final result after every move, as the player who moved saw it; each
``players`` entry becomes a sentence naming the seat's strategy, with a button per labelled
move; a strip of every move, coloured by label, jumps to it.

Numbering: moves are named as ``replay --analyze`` prints them, counted from 1 ("deal 2 move
23", "game 2 move 5", "move 5"); the URL fragment follows the move shown
(``game.html#deal-2-move-23``; ``#step-40`` for a step without a move) and opens the page
there.

Numbers: the final step's scores are the record's result (Who's the Ass?: each seat's
minus points, and in a match each player's totals; Jass: the stick totals). No engines here.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from analyzer import numbers
from analyzer.games.ass.cards import card_kind, hand_names, penalty
from analyzer.games.ass.readable import CARD_LEGEND as ASS_LEGEND
from analyzer.games.ass.readable import hand_counts, play_value, play_words
from analyzer.games.jass.cards import (
    PLAIN_POINTS_R,
    SUIT_LETTERS,
    SUIT_NAMES,
    card_points,
    parse_card,
)
from analyzer.games.jass.readable import CARD_LEGEND as JASS_LEGEND
from analyzer.games.jass.readable import sticks_words, trump_fix
from reports.facts import lower_is_better
from reports.palette import PALETTE_CSS

ALL_HANDS = "all hands shown: this viewer is for after the game"
LABELS = (None, "inaccuracy", "mistake", "blunder")


# ------------------------------------------------------------------------ Who's the Ass?
def _ass_hand(counts: list[int]) -> str:
    return " ".join(hand_names(counts))


def _ass_points(counts: list[int]) -> int:
    return sum(penalty(kind) * c for kind, c in enumerate(counts))


def _ass_game_steps(game: dict[str, Any], n: int, part: int, moves: list[int],
                    totals: list[int] | None, seat_players: list[int] | None) -> list[dict]:
    """The steps of one game (by seat); ``moves`` counts the moves seen so far (record
    order), ``totals`` are the players' match totals before this game (None: one game)."""
    hands = [hand_counts(h) for h in game["hands"]]
    steps = []

    def step(text: str, table: list[dict], turn: int | None, mover: int | None,
             move: int | None = None, where: str = "") -> None:
        steps.append({"part": part, "where": where, "text": text,
                      "hands": [_ass_hand(h) for h in hands], "table": table,
                      "turn": turn, "mover": mover, "move": move,
                      "scores": [_ass_points(h) for h in hands],
                      "totals": list(totals) if totals is not None else None})

    rounds = game["rounds"]
    first = rounds[0]["starter"] if rounds else None
    step(f"The deal: seat {first} holds the ass and starts.", [], first, None, where="dealt")
    for r, rnd in enumerate(rounds, start=1):
        ass_round = rnd["ass_round"]
        where = f"round {r}" + (" (ass round)" if ass_round else "")
        table: list[dict] = []
        for pos, play in enumerate(rnd["plays"]):
            seat = play["seat"]
            index = len(moves)
            moves.append(seat)
            nxt = rnd["plays"][pos + 1]["seat"] if pos + 1 < len(rnd["plays"]) else None
            if play.get("pass"):
                table = table + [{"seat": seat, "cards": "", "note": "pass"}]
                step(f"Seat {seat} passes.", table, nxt, seat, index, where)
                continue
            words = play_words(play, ass_round)
            for name in play["cards"]:
                hands[seat][card_kind(name)] -= 1
            verb = "leads" if pos == 0 else ("plays" if ass_round else "raises with")
            note = "" if "J" not in play["cards"] else f"jokers as {play_value(play, ass_round)}"
            table = table + [{"seat": seat, "cards": words, "note": note}]
            step(f"Seat {seat} {verb} {words}.", table, nxt, seat, index, where)
        winner = rnd["winner"]
        done = [dict(t, win=t["seat"] == winner) for t in table]
        if ass_round:
            for t in table:
                for name in t["cards"].split():
                    hands[winner][card_kind(name.split("=")[0])] += 1
            text = f"Seat {winner} played highest and takes every card, the ass included."
        else:
            text = f"Seat {winner} played highest: the cards leave the game."
        last = r == len(rounds)
        if last:
            out = [s for s in range(n) if sum(hands[s]) == 0]
            text += f" Seat {', '.join(map(str, out))} has no cards left: the game ends."
            if totals is not None and seat_players is not None:
                for s, p in enumerate(seat_players):
                    totals[p] += _ass_points(hands[s])
        else:
            text += f" Seat {winner} starts the next round."
        step(text, done, None if last else winner, None, where=where)
    return steps


def _ass_data(record: dict[str, Any]) -> dict[str, Any]:
    n = record["players"]
    moves: list[int] = []
    parts, steps = [], []
    if record.get("mode") == "matches":
        k = record["rules"]["games_per_match"]
        totals = [0] * n
        for g, game in enumerate(record["games"]):
            seats = game["seat_players"]
            parts.append({
                "title": f"game {g + 1} of {k}, player {game['dealer']} deals",
                "seats": [f"seat {s}: player {p} ({record['strategies'][p]})"
                          for s, p in enumerate(seats)]})
            steps += _ass_game_steps(game, n, g, moves, totals, seats)
        head = (f"Who's the Ass? seed {record['seed']}, match {record['index']}: {n} players, "
                f"{k} games")
        winners = ", ".join(f"player {p}" for p in record["winners"])
        result = f"Totals {record['totals']}: {winners} with the fewest minus points."
        totals_name = "match totals by player (after each game)"
    else:
        parts.append({"title": "", "seats": [f"seat {s} ({record['strategies'][s]})"
                                              for s in range(n)]})
        steps = _ass_game_steps(record, n, 0, moves, None, None)
        head = (f"Who's the Ass? seed {record['seed']}, game {record['index']}: {n} players, "
                f"{record['rules']['per_player']} cards each")
        result = f"Minus points {record['penalties']}."
        totals_name = ""
    steps[-1]["text"] += " " + result
    return {"game": "ass", "title": head, "legend": ASS_LEGEND, "parts": parts,
            "steps": steps, "moves": moves, "score_name": "minus points in hand",
            "score_note": "Minus points in hand: what each seat would score if the game ended "
                          "now (A-10).",
            "totals_name": totals_name, "unit": "minus points",
            "part_name": "game" if len(parts) > 1 else "", "part_word": "game",
            # how the page draws a card: no suits; a joker (J...) and the ass (A) marked
            "card_look": {"suited": False, "first": {"J": "j"}, "exact": {"A": "a"}},
            # the minus points in a hand tell of its cards: hidden with the hand
            "score_tells_hand": True,
            "value_text": "minus points at the end of the game"}


# ----------------------------------------------------------------------- Plus-Minus Jass
def _points_now(card: str, trump: int) -> int:
    """J-8 points of a card as the trump stands (before trump is fixed: plain points)."""
    c = parse_card(card)
    return card_points(c, trump) if trump >= 0 else int(PLAIN_POINTS_R[c % 9])


def _jass_deal_steps(deal: dict[str, Any], n: int, part: int, moves: list[int],
                     before: list[int]) -> list[dict]:
    """The steps of one deal; ``before`` are the stick totals before it."""
    hands = [list(h) for h in deal["hands"]]
    taken = [0] * n
    totals = list(before)
    fix = trump_fix(deal, n)
    trump = -1
    steps: list[dict] = []

    def step(text: str, table: list[dict], turn: int | None, mover: int | None,
             move: int | None = None, where: str = "") -> None:
        steps.append({"part": part, "where": where, "text": text,
                      "hands": [" ".join(h) for h in hands], "table": table, "turn": turn,
                      "mover": mover, "move": move, "scores": list(taken),
                      "totals": list(totals),
                      "trump": SUIT_LETTERS[trump] if trump >= 0 else None})

    leader = deal["tricks"][0]["leader"] if deal["tricks"] else None
    step(f"The deal: seat {leader} leads the first trick.", [], leader, None, where="dealt")
    for t, trick in enumerate(deal["tricks"]):
        where = f"trick {t + 1}"
        table: list[dict] = []
        for k, card in enumerate(trick["cards"]):
            seat = (trick["leader"] + k) % n
            index = len(moves)
            moves.append(seat)
            hands[seat].remove(card)
            note = ""
            text = f"Seat {seat} {'leads' if k == 0 else 'plays'} {card}."
            if fix is not None and fix[:2] == (t, k):
                trump = SUIT_LETTERS.index(card[0])
                note = "fixes trump"
                text = (f"Seat {seat} cannot follow suit and plays {card}: the first such card "
                        f"fixes {SUIT_NAMES[trump]} as trump for the rest of the deal (J-5).")
            table = table + [{"seat": seat, "cards": card, "note": note}]
            step(text, table, (seat + 1) % n if k + 1 < n else None, seat, index, where)
        w = trick["winner"]
        taken[w] += sum(_points_now(c, trump) for c in trick["cards"])
        last = t == len(deal["tricks"]) - 1
        text = f"Seat {w} takes the trick."
        if last:
            taken = list(deal["points"])
            totals = list(deal["totals"])
            counted = ("no trump was fixed, so every 8 counts 8" if deal["trump"] is None
                       else f"trump {SUIT_NAMES[SUIT_LETTERS.index(deal['trump'])]}")
            text += (f" The deal ends ({counted}; the last trick 5 more): points "
                     f"{deal['points']}; sticks {deal['sticks']}: {sticks_words(deal)}.")
        step(text, [dict(c, win=c["seat"] == w) for c in table], None if last else w, None,
             where=where)
    return steps


def _jass_data(record: dict[str, Any]) -> dict[str, Any]:
    n = record["players"]
    moves: list[int] = []
    parts, steps = [], []
    single = record.get("mode") == "deals"
    totals = [0] * n
    for d, deal in enumerate(record["deals"]):
        aims = deal.get("aims") or [None] * n
        parts.append({"title": "" if single else f"deal {d + 1}, seat {deal['dealer']} deals",
                      "seats": [f"seat {s} ({record['strategies'][s]}"
                                + (f", aims {aims[s]}" if aims[s] not in (None, "n/a") else "")
                                + ")" for s in range(n)]})
        steps += _jass_deal_steps(deal, n, d, moves, totals)
        totals = list(deal["totals"])
    unit = "deal" if single else "match"
    head = (f"Plus-Minus Jass seed {record['seed']}, {unit} {record['index']}: {n} players, "
            f"rule set {record['rules']['ruleset']}")
    if not single:
        steps[-1]["text"] += (f" Seat {record['winner']} wins the match."
                              if record["winner"] is not None
                              else " The match hit the deal cap: no winner.")
    return {"game": "jass", "title": head, "legend": JASS_LEGEND, "parts": parts,
            "steps": steps, "moves": moves,
            "score_name": "card points",
            "score_note": "Card points taken so far, counted as the trump stands; at the end "
                          "of a deal they are counted with the final trump and the last trick's "
                          "5 (J-8).",
            "totals_name": "sticks", "unit": "card points", "part_name": "deal",
            "part_word": "deal",
            # how the page draws a card: by its suit (the first letter), trump marked
            "card_look": {"suited": True, "first": {}, "exact": {}},
            "score_tells_hand": False,  # card points taken lie open on the table
            "value_text": "sticks from the deal"}


# ----------------------------------------------------------------------------- the data
def viewable_games() -> tuple[str, ...]:
    """The games whose adapter names the viewer's data (GameParts.viewer)."""
    from analyzer.games import registry

    return tuple(g for g in registry.names() if registry.get(g).has("viewer"))


def viewer_steps(record: dict[str, Any],
                 annotations: dict[str, Any] | None = None) -> dict[str, Any]:
    """The page's data for a game record: title, legend, the parts (games of a match, deals)
    with their seat names, every step, and per move its seat (``moves``, record order).

    ``annotations`` (see the module docstring) are checked against the record: one entry
    per move, each naming the seat that made it; a ValueError says what does not fit.
    """
    from analyzer.games import registry

    game = record.get("game")
    if game not in registry.names() or not registry.get(game).has("viewer"):
        raise ValueError(f"not a game record: game {game!r}; "
                         f"{' or '.join(viewable_games())}")
    data = registry.load(registry.get(game).parts.viewer)(record)  # the game's adapter's
    data["all_hands"] = ALL_HANDS
    data["refs"], data["names"] = _numbering(data)
    data["annotations"] = None
    data["summary"] = []
    data["timeline"] = None
    data["lower_is_better"] = lower_is_better(data["game"])
    if annotations is not None:
        data["annotations"] = _checked(annotations, data["moves"])
        data["unit"] = annotations.get("unit") or data["unit"]
        data["summary"] = [_summary_line(p, record, data["unit"])
                           for p in annotations.get("players") or []]
        if annotations.get("timeline") is not None:
            data["timeline"] = _checked_timeline(annotations["timeline"], data["moves"],
                                                 int(record["players"]))
    return data


def _numbering(data: dict[str, Any]) -> tuple[list[list[int]], list[str]]:
    """Per move its [part, number within the part] (both from 0) and its name on screen,
    counted from 1 as ``replay --analyze`` prints it: "deal 2 move 23" (Plus-Minus Jass),
    "game 2 move 5" (a Who's the Ass? match), "move 5" (one game)."""
    kind = data["part_name"]
    refs: list[list[int]] = []
    names: list[str] = []
    seen: dict[int, int] = {}
    for step in data["steps"]:
        if step["move"] is None:
            continue
        part = step["part"]
        k = seen.get(part, 0)
        seen[part] = k + 1
        refs.append([part, k])
        names.append((f"{kind} {part + 1} " if kind else "") + f"move {k + 1}")
    return refs, names


def fragment(name: str) -> str:
    """The URL fragment of a move's name: "deal 2 move 23" -> "deal-2-move-23"."""
    return name.replace(" ", "-")


def _est(value: float | None, low: float | None = None, high: float | None = None,
         signed: bool = False) -> str:
    """A value as the command line prints it: ``18 ± 3``, or the value alone."""
    if value is None:
        return "n/a"
    if low is None or high is None or high == low:
        return numbers.number(value, 2, signed)
    return numbers.interval(value, (high - low) / 2, signed=signed)


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def _summary_line(player: Any, record: dict[str, Any], unit: str) -> str:
    """One seat's (player's) summary of the annotations as a sentence naming its strategy."""
    if not isinstance(player, dict):
        return str(player)
    key = "player" if "player" in player else "seat"
    who = player.get(key)
    names = record.get("strategies") or []
    strategy = f" ({names[who]})" if isinstance(who, int) and 0 <= who < len(names) else ""
    moves = int(player.get("moves", 0))
    head = f"{key.capitalize()} {who}{strategy}: {_plural(moves, 'move')} analysed"
    counts = [(int(player.get(k, 0)), k) for k in ("inaccuracy", "mistake", "blunder")]
    if not any(n for n, _ in counts):
        return head + ", no clear error."
    words = ", ".join(_plural(n, k) for n, k in counts if n)
    lost = _est(player.get("lost"), player.get("lost_low"), player.get("lost_high"))
    return f"{head}; {words}, which lost {lost} {unit} in all."


def _checked(annotations: dict[str, Any], seats: list[int]) -> list[dict | None]:
    moves = annotations.get("moves")
    if not isinstance(moves, list) or len(moves) != len(seats):
        got = len(moves) if isinstance(moves, list) else "no"
        raise ValueError(f"the annotations hold {got} moves; the record has {len(seats)}, "
                         "one entry per move in record order (null for a seat not analysed)")
    out: list[dict | None] = []
    for i, (entry, seat) in enumerate(zip(moves, seats, strict=True)):
        if entry is None:
            out.append(None)
            continue
        if entry.get("seat") != seat:
            raise ValueError(f"annotation {i} is for seat {entry.get('seat')}, but move {i} of "
                             f"the record is seat {seat}'s")
        if entry.get("label") not in LABELS:
            raise ValueError(f"annotation {i} has label {entry.get('label')!r}; labels are "
                             "null, inaccuracy, mistake, blunder")
        keep = {key: entry.get(key) for key in ("seat", "move", "best", "label", "forced")}
        if "player" in entry:
            keep["player"] = entry["player"]
        for key in ("loss", "loss_low", "loss_high", "value", "best_value"):
            value = entry.get(key)
            keep[key] = None if value is None else float(value)
        keep["shown_loss"] = _est(keep["loss"], keep["loss_low"], keep["loss_high"])
        keep["alternatives"] = [
            {"move": str(r.get("move")), "value": _est(r.get("value"), r.get("low"),
                                                       r.get("high")),
             "diff": _est(r.get("diff"), r.get("diff_low"), r.get("diff_high"), signed=True)}
            for r in entry.get("alternatives") or [] if isinstance(r, dict)]
        out.append(keep)
    return out


def _checked_timeline(timeline: Any, seats: list[int], n: int) -> list[dict]:
    """Per move: every seat's expected final result after it (``value``) and as the command
    line prints it (``shown``: ``18 ± 3``), from analysis.timeline's ``points``."""
    points = timeline.get("points") if isinstance(timeline, dict) else None
    if not isinstance(points, list) or len(points) != len(seats):
        got = len(points) if isinstance(points, list) else "no"
        raise ValueError(f"the evaluation graph holds {got} points; the record has "
                         f"{len(seats)} moves, one point after each")
    out = []
    for m, (point, seat) in enumerate(zip(points, seats, strict=True)):
        values = point.get("value") if isinstance(point, dict) else None
        if not isinstance(values, list) or point.get("seat", seat) != seat or \
                len(values) != n or any(v is None for v in values):
            raise ValueError(f"point {m} of the evaluation graph is not move {m}'s (seat "
                             f"{seat}) with a value for each of the {n} seats")
        low = point.get("low") or [None] * n
        high = point.get("high") or [None] * n
        out.append({"value": [float(v) for v in values],
                    "shown": [_est(float(v), lo, hi) for v, lo, hi in zip(values, low, high,
                                                                          strict=True)]})
    return out


# ----------------------------------------------------------------------------- the page
def _json_for_script(data: Any) -> str:
    """JSON that cannot end its <script> element early."""
    return (json.dumps(data, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def viewer_html(record: dict[str, Any], annotations: dict[str, Any] | None = None) -> str:
    """The viewer page of a game record (optionally annotated), as one self-contained string."""
    data = viewer_steps(record, annotations)
    title = html.escape(data["title"])
    return (_PAGE.replace("__TITLE__", title)
            .replace("__CSS__", PALETTE_CSS + _CSS).replace("__JS__", _JS)
            .replace("__DATA__", _json_for_script(data)))


def write_viewer(out: Path, record: dict[str, Any], annotations: dict[str, Any] | None = None,
                 force: bool = False, what: str = "--html") -> Path:
    """Write the viewer page of ``record`` to ``out`` atomically: ``out`` must be new, or an
    existing regular file with ``force`` (analyzer.outputs)."""
    from analyzer.outputs import check_file_target, write_lines

    out = Path(out)
    check_file_target(out, force, what)
    page = viewer_html(record, annotations)
    write_lines(out, [page.rstrip("\n")], force, what)
    return out


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__CSS__</style></head>
<body>
<header><h1>__TITLE__</h1><p class="all" id="all"></p><p class="legend" id="legend"></p></header>
<nav class="controls" aria-label="step through the game">
<button type="button" id="first" title="first step (Home)">&#xAB; first</button>
<button type="button" id="prev" title="previous step (left arrow)">&#x25C0; back</button>
<button type="button" id="next" title="next step (right arrow)">next &#x25B6;</button>
<button type="button" id="last" title="last step (End)">last &#xBB;</button>
<span id="count" aria-live="polite"></span>
<input type="range" id="slider" min="0" value="0" aria-label="step">
</nav>
<main>
<section class="now"><p class="where" id="where"></p><p class="text" id="text"></p>
<div id="note"></div></section>
<section id="table-area"><h2>on the table</h2><div id="table"></div></section>
<section><h2 id="hands-title">hands</h2><p class="legend" id="score-note"></p>
<div id="seats" class="seats"></div></section>
<section id="graph-area" hidden><h2>evaluation over <span id="graph-part"></span></h2>
<p class="legend" id="graph-note"></p>
<svg id="graph" class="graph" viewBox="0 0 400 170" role="img"
aria-label="each seat's expected final result over the game"></svg>
<p class="legend" id="graph-key"></p></section>
<section id="mistakes-area" hidden><h2>mistakes by seat</h2>
<p class="legend">Each seat's summary; the buttons jump to its labelled moves.</p>
<div id="mistakes"></div></section>
<section id="moves-area"><h2>every move</h2>
<p class="legend">One square a move, coloured by its label (green: no clear error; yellow:
inaccuracy; orange: mistake; red: blunder; grey: not analysed); click to go there.</p>
<div id="strip" class="strip"></div></section>
</main>
<script type="application/json" id="game-data">__DATA__</script>
<script>__JS__</script>
</body></html>
"""

_CSS = """
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
padding:.6rem;max-width:70rem;color:var(--ink);background:#fff;overflow-wrap:anywhere}
h1{font-size:1.15rem;margin:.2rem 0}h2{font-size:.95rem;margin:.8rem 0 .3rem;color:var(--ink)}
.all{margin:.2rem 0;font-weight:600;color:var(--bad)}
.legend{font-size:.82rem;color:var(--muted);margin:.2rem 0}
.controls{position:sticky;top:0;background:#fff;padding:.4rem 0;display:flex;flex-wrap:wrap;
gap:.35rem;align-items:center;border-bottom:1px solid var(--line);z-index:1}
.controls button{font:inherit;padding:.35rem .7rem;border:1px solid #a0aec0;border-radius:6px;
background:#f7fafc;cursor:pointer}
.controls button:disabled{opacity:.4;cursor:default}
#slider{flex:1 1 8rem;min-width:6rem;max-width:100%}
#count{font-variant-numeric:tabular-nums;color:var(--muted)}
.where{margin:.5rem 0 0;color:var(--muted);font-size:.85rem}.text{margin:.1rem 0;font-weight:600}
.seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.5rem}
.seat{border:1px solid var(--line);border-radius:8px;padding:.4rem .5rem;min-width:0}
.seat.turn{border-color:var(--accent);box-shadow:0 0 0 2px #bee3f8}
.seat.mover{background:var(--hi)}
.seat h3{font-size:.85rem;margin:0 0 .2rem;font-weight:600}
.seat .score{font-size:.8rem;color:var(--muted)}
.badge{font-size:.72rem;background:var(--accent);color:#fff;border-radius:4px;padding:0 .3rem;
margin-left:.3rem}
.c{display:inline-block;min-width:1.7em;padding:.05em .25em;margin:.08em;border:1px solid #a0aec0;
border-radius:4px;background:#fff;font-weight:600;text-align:center;font-size:.85rem;line-height:1.3}
.c.j{background:#e9d8fd;border-color:#805ad5;color:#44337a}
.c.a{background:#fed7d7;border-color:var(--bad);color:var(--bad)}
.c.sB{color:#975a16;border-color:#d69e2e}.c.sS{color:#1a202c;border-color:var(--muted)}
.c.sR{color:var(--bad);border-color:#fc8181}.c.sA{color:var(--good);border-color:#68d391}
.c.trump{box-shadow:0 0 0 2px var(--mark)}
.none,.pass{color:#a0aec0;font-style:italic}
#table{display:flex;flex-wrap:wrap;gap:.4rem;min-height:2.2rem}
.play{border:1px dashed #cbd5e0;border-radius:6px;padding:.2rem .4rem;font-size:.85rem}
.play.win{background:#fefcbf;border-style:solid;border-color:var(--mark)}
.play small{color:var(--muted);margin-left:.2rem}
.totals{font-size:.85rem;color:var(--ink);margin:.3rem 0}
.ann{border:1px solid var(--line);border-radius:8px;padding:.4rem .5rem;margin-top:.4rem}
.ann .row{display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:.9rem}
.bar{position:relative;height:1rem;background:#e2f5e9;border:1px solid #a0aec0;border-radius:4px;
margin:.35rem 0;overflow:hidden}
.bar .loss{position:absolute;left:0;top:0;bottom:0;background:var(--bad)}
.bar .ci{position:absolute;top:35%;height:30%;background:rgba(26,32,44,.55)}
.lbl{font-weight:700;text-transform:uppercase;font-size:.75rem;padding:0 .3rem;border-radius:4px}
.lbl-inaccuracy{background:#fefcbf;color:var(--inaccuracy)}.lbl-mistake{background:#feebc8;color:var(--mistake)}
.lbl-blunder{background:#fed7d7;color:var(--blunder)}.lbl-none{background:#e2f5e9;color:var(--good)}
.strip{display:flex;flex-wrap:wrap;gap:2px}
.strip button{width:.8rem;height:1.2rem;padding:0;border:0;border-radius:2px;background:#cbd5e0;
cursor:pointer}
.strip button.ok{background:#9ae6b4}.strip button.inaccuracy{background:#f6e05e}
.strip button.mistake{background:#ed8936}.strip button.blunder{background:#e53e3e}
.strip button.here{outline:2px solid var(--accent);outline-offset:1px}
.graph{width:100%;height:auto;max-width:40rem;display:block;background:#fbfcfd;
border:1px solid var(--line);border-radius:6px;cursor:pointer}
.key{display:inline-block;margin-right:.8rem;white-space:nowrap}
.key i{display:inline-block;width:.9rem;height:.25rem;margin-right:.25rem;vertical-align:middle}
.bar-note{font-size:.8rem;color:var(--muted);margin:0}
.alts{border-collapse:collapse;font-size:.85rem;margin-top:.3rem}
.alts th,.alts td{padding:.1rem .5rem .1rem 0;text-align:left;white-space:nowrap}
.alts tr.played td{font-weight:700}
.seat-sum{margin:.3rem 0 .6rem}.seat-sum p{margin:.1rem 0}
.jump{font:inherit;font-size:.8rem;margin:.1rem;padding:.1rem .4rem;border:1px solid #a0aec0;
border-radius:4px;background:#f7fafc;cursor:pointer}
"""

_JS = r"""
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('game-data').textContent);
  var steps = data.steps, ann = data.annotations, at = 0;
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function cardClass(name, trump) {  // as the record's data declares (card_look)
    var look = data.card_look, s = name.charAt(0);
    if (look.suited) { return 'c s' + s + (trump && s === trump ? ' trump' : ''); }
    if (look.first[s]) { return 'c ' + look.first[s]; }
    return look.exact[name] ? 'c ' + look.exact[name] : 'c';
  }
  function cards(text, trump) {
    var box = el('span');
    var names = text ? text.split(' ') : [];
    if (!names.length) { box.appendChild(el('span', 'none', 'none')); }
    names.forEach(function (n) {
      var c = el('span', cardClass(n, trump), n);
      box.appendChild(c);
    });
    return box;
  }
  function fmt(x) {
    return x === null || x === undefined ? '?' : (Math.round(x * 100) / 100).toString();
  }
  var scale = 1;
  if (ann) {
    ann.forEach(function (a) {
      if (a && a.loss_high !== null) { scale = Math.max(scale, a.loss_high); }
      if (a && a.loss !== null) { scale = Math.max(scale, a.loss); }
    });
  }
  var refs = data.refs, names = data.names, stepOf = {};
  steps.forEach(function (s, i) { if (s.move !== null) { stepOf[s.move] = i; } });
  function frag(name) { return name.replace(/ /g, '-'); }
  function stepName(i) {  // the move shown at step i, or where it is
    var s = steps[i];
    if (s.move !== null) { return names[s.move]; }
    return null;
  }
  function annotation(step) {
    var box = $('note');
    box.textContent = '';
    if (!ann || step.move === null) { return; }
    var a = ann[step.move];
    var div = el('div', 'ann');
    if (!a) {
      div.appendChild(el('span', 'none', 'seat ' + data.moves[step.move] + ' was not analysed'));
      box.appendChild(div);
      return;
    }
    var row = el('div', 'row');
    row.appendChild(el('span', null, 'played: ' + a.move));
    row.appendChild(el('span', null, 'best: ' + a.best));
    row.appendChild(el('span', null, a.forced ? 'forced: the only legal move' :
                       'lost ' + a.shown_loss + ' ' + data.unit + ' against the best'));
    row.appendChild(el('span', 'lbl lbl-' + (a.label || 'none'), a.label || 'no clear error'));
    div.appendChild(row);
    var bar = el('div', 'bar');
    var loss = el('div', 'loss');
    loss.style.width = (100 * Math.max(0, Math.min(1, (a.loss || 0) / scale))) + '%';
    bar.appendChild(loss);
    if (a.loss_low !== null && a.loss_high !== null) {
      var lo = Math.max(0, Math.min(1, a.loss_low / scale));
      var hi = Math.max(0, Math.min(1, a.loss_high / scale));
      var ci = el('div', 'ci');
      ci.style.left = (100 * lo) + '%';
      ci.style.width = Math.max(0.5, 100 * (hi - lo)) + '%';
      bar.appendChild(ci);
    }
    div.appendChild(bar);
    div.appendChild(el('p', 'bar-note', 'The bar: red is this move\u2019s loss against the ' +
      'best move, the dark line its 95% interval; full width is the largest loss of the game (' +
      fmt(scale) + ' ' + data.unit + ').'));
    if (a.alternatives && a.alternatives.length) {
      var t = el('table', 'alts');
      var h = el('tr');
      ['top moves', 'value', 'vs best'].forEach(function (x) { h.appendChild(el('th', null, x)); });
      t.appendChild(h);
      a.alternatives.forEach(function (r) {
        var tr = el('tr', r.move === a.move ? 'played' : null);
        tr.appendChild(el('td', null, r.move + (r.move === a.move ? ' (played)' : '')));
        tr.appendChild(el('td', null, r.value));
        tr.appendChild(el('td', null, r.diff));
        t.appendChild(tr);
      });
      div.appendChild(t);
    }
    box.appendChild(div);
  }
  // the seats' colours and the cursor's: the palette shared with the board (reports/palette.py)
  var PALETTE = getComputedStyle(document.documentElement), COLORS = [];
  for (var c = 0; c < 12; c++) { COLORS.push(PALETTE.getPropertyValue('--seat' + c).trim()); }
  var MARK = PALETTE.getPropertyValue('--mark').trim();
  function graph(s) {
    var area = $('graph-area');
    if (!ann) { return; }
    var part = s.part, moves = [], tl = data.timeline;
    ann.forEach(function (a, m) {
      if (refs[m][0] !== part) { return; }
      if (tl) {  // every seat's expected result after every move
        moves.push({m: m, k: refs[m][1], seat: data.moves[m], values: tl[m].value,
                    label: a ? a.label : null});
      } else if (a && a.value !== null && a.value !== undefined) {
        var v = {}; v[data.moves[m]] = a.value;
        moves.push({m: m, k: refs[m][1], seat: data.moves[m], values: v, label: a.label});
      }
    });
    area.hidden = moves.length === 0;
    if (!moves.length) { return; }
    var count = 0;
    refs.forEach(function (r) { if (r[0] === part) { count = Math.max(count, r[1] + 1); } });
    var lo = Infinity, hi = -Infinity, seats = {};
    moves.forEach(function (p) {
      Object.keys(p.values).forEach(function (seat) {
        var v = p.values[seat];
        lo = Math.min(lo, v); hi = Math.max(hi, v);
        (seats[seat] = seats[seat] || []).push({k: p.k, value: v,
                                                label: +seat === p.seat ? p.label : null});
      });
    });
    if (hi - lo < 1e-9) { hi += 0.5; lo -= 0.5; }
    var W = 400, H = 170, L = 34, R = 8, T = 8, B = 22;
    var x = function (k) { return L + (W - L - R) * (count > 1 ? k / (count - 1) : 0.5); };
    var y = function (v) {  // better is up
      var f = (v - lo) / (hi - lo);
      return T + (H - T - B) * (data.lower_is_better ? f : 1 - f);
    };
    var svg = '<line x1="' + L + '" y1="' + T + '" x2="' + L + '" y2="' + (H - B) +
      '" stroke="#999"/><line x1="' + L + '" y1="' + (H - B) + '" x2="' + (W - R) + '" y2="' +
      (H - B) + '" stroke="#999"/>';
    var top = data.lower_is_better ? lo : hi, bottom = data.lower_is_better ? hi : lo;
    var axis = function (v) { return (Math.round(v * 10) / 10).toString(); };
    svg += '<text x="2" y="' + (T + 10) + '" font-size="12">' + axis(top) + '</text>' +
      '<text x="2" y="' + (H - B) + '" font-size="12">' + axis(bottom) + '</text>' +
      '<text x="' + L + '" y="' + (H - 5) + '" font-size="12">move 1</text>' +
      '<text x="' + (W - R) + '" y="' + (H - 5) + '" font-size="12" text-anchor="end">move ' +
      count + '</text>';
    var cur = s.move;
    if (cur === null) {
      for (var j = at; j >= 0 && cur === null; j--) { cur = steps[j].move; }
    }
    var here = cur !== null && refs[cur][0] === part;
    var key = $('graph-key');
    key.textContent = '';
    Object.keys(seats).forEach(function (seat) {
      var c = COLORS[seat % COLORS.length];
      var pts = seats[seat].map(function (p) {
        return x(p.k).toFixed(1) + ',' + y(p.value).toFixed(1);
      });
      svg += '<polyline fill="none" stroke="' + c + '" stroke-width="2" points="' +
        pts.join(' ') + '" data-seat="' + seat + '"/>';
      seats[seat].forEach(function (p) {
        if (p.label) {
          svg += '<circle cx="' + x(p.k).toFixed(1) + '" cy="' + y(p.value).toFixed(1) +
            '" r="4" fill="' + c + '" stroke="#000"/>';
        }
      });
      var k = el('span', 'key');
      var i = el('i'); i.style.background = c;
      k.appendChild(i);
      // with the timeline, the seat's expected result after the move shown
      k.appendChild(document.createTextNode('seat ' + seat +
        (tl && here ? ': ' + tl[cur].shown[seat] : '')));
      key.appendChild(k);
    });
    if (here) {
      svg += '<line x1="' + x(refs[cur][1]) + '" y1="' + T + '" x2="' + x(refs[cur][1]) +
        '" y2="' + (H - B) + '" stroke="' + MARK + '" stroke-width="2" data-cursor="1"/>';
    }
    $('graph').innerHTML = svg;
    $('graph').onclick = function (e) {
      var r = this.getBoundingClientRect();
      var k = Math.round(((e.clientX - r.left) * W / r.width - L) / (W - L - R) * (count - 1));
      k = Math.max(0, Math.min(count - 1, k));
      for (var m = 0; m < refs.length; m++) {
        if (refs[m][0] === part && refs[m][1] === k) { show(stepOf[m]); return; }
      }
    };
    $('graph-part').textContent = data.part_name ? data.part_name + ' ' + (part + 1)
      : 'the game';
    var unit = data.unit + (data.lower_is_better ? ', lower is better' : ', higher is better');
    $('graph-note').textContent = tl ?
      'Every seat\u2019s expected final result after every move (' + unit + '), as the ' +
      'player who moved saw it: its sampled worlds, the move it played rolled out to the end; ' +
      'better is up. Beside each seat, its value after the move shown (95% interval). A ringed ' +
      'dot marks a labelled move; the yellow line is the move shown. Click the graph to go to ' +
      'a move.' :
      'Each seat\u2019s expected result after each of its moves (' + unit + '), as the ' +
      'rollouts value the move it played; better is up. A ringed dot marks a labelled move; ' +
      'the yellow line is the move shown. Click the graph to go to a move.';
  }
  function mistakes() {
    var box = $('mistakes');
    if (!ann) { return; }
    $('mistakes-area').hidden = false;
    var bySeat = {};
    ann.forEach(function (a, m) {
      if (a && a.label) { (bySeat[a.seat] = bySeat[a.seat] || []).push(m); }
    });
    var lines = (data.summary || []).slice();
    if (!lines.length) {  // no summary given: a heading per seat analysed
      var seen = {};
      ann.forEach(function (a) { if (a && !seen[a.seat]) { seen[a.seat] = 1; } });
      lines = Object.keys(seen).map(function (k) { return 'Seat ' + k; });
    }
    lines.forEach(function (line) {
      var d = el('div', 'seat-sum');
      d.appendChild(el('p', null, line));
      var who = /^(Seat|Player) (\d+)/.exec(line), list = [];
      if (who && who[1] === 'Seat') { list = bySeat[+who[2]] || []; }
      if (who && who[1] === 'Player') {  // a player of a match: the seat changes by game
        ann.forEach(function (a, m) {
          if (a && a.label && a.player === +who[2]) { list.push(m); }
        });
      }
      list.forEach(function (m) {
        var b = el('button', 'jump', names[m] + ': ' + ann[m].label + ' (lost ' +
                   ann[m].shown_loss + ')');
        b.type = 'button';
        b.setAttribute('data-move', m);
        b.addEventListener('click', function () { show(stepOf[m]); });
        d.appendChild(b);
      });
      box.appendChild(d);
    });
  }
  function strip() {
    var box = $('strip');
    if (!ann) { $('moves-area').style.display = 'none'; return; }
    ann.forEach(function (a, m) {
      var b = el('button', a ? (a.label || 'ok') : '');
      b.type = 'button';
      b.title = names[m] + ', seat ' + data.moves[m] +
                (a ? ': ' + a.move + (a.label ? ' (' + a.label + ')' : '') : '');
      b.setAttribute('aria-label', b.title);
      b.setAttribute('data-move', m);
      b.addEventListener('click', function () { show(stepOf[m]); });
      box.appendChild(b);
    });
  }
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[at], part = data.parts[s.part];
    var name = stepName(at);
    $('count').textContent = (name ? name + ' \u00b7 ' : '') + 'step ' + (at + 1) + ' of ' +
      steps.length;
    try {
      history.replaceState(null, '', '#' + (name ? frag(name) : 'step-' + (at + 1)));
    } catch (err) { /* a page opened where the address cannot change */ }
    $('slider').value = at;
    $('first').disabled = $('prev').disabled = at === 0;
    $('last').disabled = $('next').disabled = at === steps.length - 1;
    $('where').textContent = [part.title, s.where].filter(Boolean).join(' \u00b7 ') +
      (s.trump ? ' \u00b7 trump ' + s.trump : '');
    $('text').textContent = s.text;
    annotation(s);
    graph(s);
    var table = $('table');
    table.textContent = '';
    if (!s.table.length) { table.appendChild(el('span', 'none', 'nothing on the table')); }
    s.table.forEach(function (p) {
      var d = el('div', 'play' + (p.win ? ' win' : ''));
      d.appendChild(el('b', null, 'seat ' + p.seat + ' '));
      d.appendChild(p.cards ? cards(p.cards, s.trump) : el('span', 'pass', 'pass'));
      if (p.note && p.note !== 'pass') { d.appendChild(el('small', null, p.note)); }
      if (p.win) { d.appendChild(el('small', null, 'highest')); }
      table.appendChild(d);
    });
    var seats = $('seats');
    seats.textContent = '';
    s.hands.forEach(function (h, seat) {
      var box = el('div', 'seat' + (s.turn === seat ? ' turn' : '') +
                   (s.mover === seat ? ' mover' : ''));
      var head = el('h3', null, part.seats[seat]);
      if (s.turn === seat) { head.appendChild(el('span', 'badge', 'to play')); }
      box.appendChild(head);
      var count = h ? h.split(' ').length : 0;
      box.appendChild(el('div', 'score', count + ' card' + (count === 1 ? '' : 's') + ' \u00b7 ' +
                         data.score_name + ': ' + s.scores[seat]));
      box.appendChild(cards(h, s.trump));
      seats.appendChild(box);
    });
    var tot = $('totals');
    if (tot) { tot.remove(); }
    if (s.totals && data.totals_name) {
      tot = el('p', 'totals', data.totals_name + ': ' + s.totals.join(', '));
      tot.id = 'totals';
      seats.parentNode.appendChild(tot);
    }
    Array.prototype.forEach.call(document.querySelectorAll('#strip button'), function (b) {
      b.classList.toggle('here', s.move !== null && +b.getAttribute('data-move') === s.move);
    });
  }
  $('all').textContent = data.all_hands;
  $('legend').textContent = data.legend;
  $('score-note').textContent = data.score_note;
  $('slider').max = steps.length - 1;
  $('first').addEventListener('click', function () { show(0); });
  $('prev').addEventListener('click', function () { show(at - 1); });
  $('next').addEventListener('click', function () { show(at + 1); });
  $('last').addEventListener('click', function () { show(steps.length - 1); });
  $('slider').addEventListener('input', function () { show(+this.value); });
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'INPUT' && e.target.type === 'range') { return; }
    var to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });
  strip();
  mistakes();
  // game.html#deal-2-move-23 (#game-2-move-5, #move-5) opens at that move, counted from 1 as
  // replay --analyze prints it; #step-40 (or #40) at step 40
  function fromHash() {
    var h = decodeURIComponent(location.hash.replace(/^#/, ''));
    var m = /^(?:step-)?(\d+)$/.exec(h);
    if (m) { return +m[1] - 1; }
    var i = names.map(frag).indexOf(h);
    return i >= 0 ? stepOf[i] : null;
  }
  window.addEventListener('hashchange', function () {
    var i = fromHash();
    if (i !== null && i !== at) { show(i); }
  });
  var start = fromHash();
  show(start === null ? 0 : start);
}());
"""
