"""The analysis board's part of Who's the Ass? (the game's adapter's ``board``): the typed
position's fields, a record's parts and positions, and the warm-up (analyzer.board.app)."""

from __future__ import annotations

from typing import Any

from analyzer.board.app import _int, _list, _q, _text

# the page's fields of a typed position, as ``cardlab analyze ass`` names its options
FIELDS = ("players", "seat", "hand", "sizes", "round", "gone", "known", "just_took_ass",
          "totals", "game")


def typed(fields: dict[str, Any]):
    """(Position, the ``cardlab analyze ass`` options) of the page's ass fields."""
    from analyzer.analysis import ass

    players = _int(fields.get("players"), "players", 4)
    seat = _int(fields.get("seat"), "seat", 0)
    hand = _text(fields.get("hand"), "hand") or ""
    sizes = _text(fields.get("sizes"), "sizes")
    round_ = _text(fields.get("round"), "round")
    gone = _text(fields.get("gone"), "gone")
    known = _list(fields.get("known"), "known")
    just = bool(fields.get("just_took_ass"))
    totals = _text(fields.get("totals"), "totals")
    game = _text(fields.get("game"), "game")
    pos = ass.typed(players, seat, hand, sizes, round_, gone, known, just, totals, game)
    opts = [f"--players {players}", f"--seat {seat}", f"--hand {_q(hand)}"]
    if sizes is not None:
        opts.append(f"--sizes {sizes}")
    if round_ is not None:
        opts.append(f"--round {_q(round_)}")
    if gone is not None:
        opts.append(f"--gone {_q(gone)}")
    opts += [f"--known {_q(k)}" for k in known]
    if just:
        opts.append("--just-took-ass")
    if totals is not None:
        opts.append(f"--totals {totals}")
    if game is not None:
        opts.append(f"--game {game}")
    return pos, " ".join(opts)


def line(p: dict[str, Any]) -> str:
    """The analysed position in one line for the page (``p``: the analysis's position)."""
    where = ("leads" if p["position_in_round"] == 0 else
             f"plays into {'an ass' if p['ass_round'] else 'a normal'} round: table "
             f"{' '.join(p['table']) or '-'}")
    return (f"Who's the Ass?, {p['players']} players: seat {p['seat']} {where}; hand "
            f"{' '.join(p['hand'])}; hand sizes {', '.join(str(s) for s in p['sizes'])}")


def parts(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per game of the record (its games in a match, else the game): the seats that moved,
    in record order, the moves' notation and the match's seat players."""
    from analyzer.analysis import ass

    games = record["games"] if record.get("mode") == "matches" else [record]
    out = []
    for g in games:
        view = {**g, "players": record["players"]}
        seats, names = [], []
        for r, p in ass.plays_of(view):
            rnd = g["rounds"][r]
            play = rnd["plays"][p]
            seats.append(play["seat"])
            names.append(ass.move_text(ass.record_move(play, rnd["ass_round"]),
                                       rnd["ass_round"], p))
        out.append({"seats": seats, "moves": names, "players": g.get("seat_players")})
    return out


def position(record: dict[str, Any], part: int, move: int):
    """(Position, the ``cardlab analyze`` options before ``--move``) of move ``move`` of game
    ``part`` of the record."""
    from analyzer.analysis import ass

    in_match = part if record.get("mode") == "matches" else None
    pos = ass.from_record(record, move, in_match)
    return pos, (f"--game-in-match {part} " if in_match is not None else "")


def warm() -> None:
    """Compile (or load from the cache) the analysis code: one small analysis, and one point
    of the evaluation graph (its kernels are its own: every seat's value of a leaf)."""
    from analyzer.analysis import ass

    pos = ass.typed(4, 0, "3 3 8 J", "4,6,5,9", None, "1 1 2", ["3:A"], False, None, None)
    ass.analyze(pos, 4, 0)
    ass.timeline_matrix(pos, ass.legal_codes(pos)[0], 4, 0, 0)
