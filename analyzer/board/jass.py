"""The analysis board's part of Plus-Minus Jass (the game's adapter's ``board``): the typed
position's fields, a record's parts and positions, and the warm-up (analyzer.board.app)."""

from __future__ import annotations

from typing import Any

from analyzer.board.app import _int, _list, _q, _text

# the page's fields of a typed position, as ``cardlab analyze jass`` names its options
FIELDS = ("players", "hand", "tricks", "first", "seat", "trump", "ruleset", "sticks", "ties")


def typed(fields: dict[str, Any]):
    """(Position, the ``cardlab analyze jass`` options) of the page's jass fields."""
    from analyzer.analysis import jass

    players = _int(fields.get("players"), "players", 4)
    hand = _text(fields.get("hand"), "hand") or ""
    tricks = _text(fields.get("tricks"), "tricks")
    first = _int(fields.get("first"), "first", 0)
    seat = _int(fields.get("seat"), "seat", None)
    trump = _text(fields.get("trump"), "trump")
    ruleset = _text(fields.get("ruleset"), "ruleset") or "seed"
    sticks = _text(fields.get("sticks"), "sticks")
    ties = _list(fields.get("ties"), "ties")
    pos = jass.typed(players, hand, tricks, first, seat, trump, ruleset, sticks, ties)
    opts = [f"--players {players}", f"--hand {_q(hand)}"]
    if tricks is not None:
        opts.append(f"--tricks {_q(tricks)}")
    opts.append(f"--first {first}")
    if seat is not None:
        opts.append(f"--seat {seat}")
    if trump is not None:
        opts.append(f"--trump {trump}")
    if ruleset != "seed":
        opts.append(f"--ruleset {ruleset}")
    if sticks is not None:
        opts.append(f"--sticks {sticks}")
    opts += [f"--ties {t}" for t in ties]
    return pos, " ".join(opts)


def line(p: dict[str, Any]) -> str:
    """The analysed position in one line for the page (``p``: the analysis's position)."""
    return (f"Plus-Minus Jass, {p['players']} players: seat {p['seat']} to play, trick "
            f"{p['trick'] + 1}, on the table {' '.join(p['table']) or '-'}; hand "
            f"{' '.join(p['hand'])}; trump {p['trump'] or 'not fixed'}")


def parts(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per deal of the record: the seats that played, in record order, and the cards."""
    n = record["players"]
    return [{"seats": [(t["leader"] + i) % n for t in d["tricks"]
                       for i in range(len(t["cards"]))],
             "moves": [c for t in d["tricks"] for c in t["cards"]], "players": None}
            for d in record["deals"]]


def position(record: dict[str, Any], part: int, move: int):
    """(Position, the ``cardlab analyze`` options before ``--move``) of card ``move`` of deal
    ``part`` of the record."""
    from analyzer.analysis import jass

    return jass.from_record(record, part, move), f"--deal {part} "


def warm() -> None:
    """Compile (or load from the cache) the analysis code: one small analysis."""
    from analyzer.analysis import jass

    pos = jass.typed(4, "B6 B9 BA S10 SU SK A6 AU AA", "R10", 0, None, None, "seed", None, [])
    jass.analyze(pos, 4, 0)
