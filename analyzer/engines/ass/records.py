"""Game records (game-records.md, JSON Lines): engine trace -> record, record -> checks.

``trace_record`` replays game (seed, index) of a run in the numba engine's trace mode and
returns its record. ``verify_record`` checks a record against the rules alone (deal, every
move legal, winners, end of game, final hands, penalties), with the reference engine's deal and
legal-move generator and without knowing the strategies: an independent program could do the
same. ``replay_matches`` plays a record's game again from its seed, index and strategies and
says whether the engine reproduces it exactly.

Matches (A-12, mode ``matches``) have the same three: ``trace_match_record`` (and
:class:`MatchTracer`), ``verify_match_record`` and ``replay_match_matches``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from analyzer.engines.kernel import IllegalStep, RunSpec, first_illegal_step
from analyzer.games.ass.cards import (
    ASS,
    HAND_SLOTS,
    JOKER,
    N_VALUES,
    PASS,
    card_kind,
    decode,
    hand_names,
    move_cards,
)
from analyzer.games.ass.readable import play_move
from strategies.registry import engine_arrays, parse_strategy

VERSION = 1
OK_STATUS = -1  # the engine's OK (engine.OK), repeated to keep numba out of this import


class Tracer:
    """Plays single games of one run in the engine's trace mode and builds their records."""

    def __init__(self, spec: RunSpec) -> None:
        from analyzer.engines.ass.engine import MAX_ROUNDS, TRACE_WIDTH, canonical_deck, variant_for
        from analyzer.engines.ass.runspec import checked, engine_inputs

        self.spec, self.strategies = checked(spec)  # parsed once
        n = self.spec.players
        self.families, self.params = engine_inputs(self.spec, self.strategies)
        self.variant = variant_for(self.families)
        self.template = canonical_deck()
        self.dealt = np.zeros((n, HAND_SLOTS), dtype=np.int64)
        self.final = np.zeros((n, HAND_SLOTS), dtype=np.int64)
        self.trace = np.full((MAX_ROUNDS, TRACE_WIDTH), PASS, dtype=np.int64)

    def record(self, index: int) -> tuple[dict[str, Any], int]:
        """The record of game ``index`` and the engine status (-1 = ok, else the seat that
        moved illegally; the record then stops before that move's round)."""
        from analyzer.engines.ass.engine import OK, trace_game
        from analyzer.engines.ass.reference import minus_points

        spec = self.spec
        n = spec.players
        rounds, _, status, _ = trace_game(
            spec.seed, index, n, spec.rules["per_player"], self.families, self.params,
            self.template, self.dealt, self.trace, self.final, self.variant,
        )
        record = {
            "game": "ass",
            "version": VERSION,
            "seed": spec.seed,
            "index": index,
            "players": n,
            "strategies": [s.label() for s in self.strategies],
            "rules": dict(spec.rules),
            "hands": [hand_names(h) for h in self.dealt],
            "rounds": [_round(self.trace[r], n) for r in range(rounds)],
            "final_hands": [hand_names(h) for h in self.final],
            "penalties": [minus_points([int(x) for x in h[: JOKER + 1]]) for h in self.final],
        }
        return record, (-1 if status == OK else int(status))


def trace_record(spec: RunSpec, index: int) -> tuple[dict[str, Any], int]:
    """The record of game ``index`` of ``spec`` and the engine status (see Tracer.record)."""
    return Tracer(spec).record(index)


def play_position(
    hands: list[list[str]],
    strategies: list[str],
    starter: int,
    blocked: int = -1,
    gone: list[str] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Play on from a hand-built position in the numba engine (for tests and examples).

    ``hands`` are card names per seat, ``starter`` starts the next round, ``blocked`` may not
    lead the ass in it (A-8), ``gone`` names cards already out of the game. Random strategies
    draw from the stream of game (seed, 0) without a deal. Returns the record rounds, final
    hands, penalties, the ass rounds taken per seat and the engine status (-1 = ok).
    """
    from analyzer.engines.ass.engine import (
        MAX_ROUNDS,
        TRACE_WIDTH,
        new_view,
        play_game,
        variant_for,
    )
    from analyzer.engines.ass.reference import minus_points
    from analyzer.games.ass.cards import PUB_GONE, PUB_SIZES
    from analyzer.rng import new_state, seed_state

    n = len(hands)
    counts = np.zeros((n, HAND_SLOTS), dtype=np.int64)
    for seat, names in enumerate(hands):
        for name in names:
            counts[seat, card_kind(name)] += 1
    view = new_view()
    for seat in range(n):
        view[PUB_SIZES + seat] = len(hands[seat])
    for name in gone or []:
        view[PUB_GONE + card_kind(name)] += 1
    families, params = engine_arrays([parse_strategy("ass", t) for t in strategies])
    rng = new_state()
    seed_state(rng, seed, 0, 0)
    trace = np.full((MAX_ROUNDS, TRACE_WIDTH), PASS, dtype=np.int64)
    taken = np.zeros(n, dtype=np.int64)
    rounds, _, status = play_game(counts, starter, blocked, n, families, params, view, rng,
                                  trace, True, taken, variant_for(families))
    return {
        "rounds": [_round(trace[r], n) for r in range(rounds)],
        "final_hands": [hand_names(h) for h in counts],
        "penalties": [minus_points([int(x) for x in h[: JOKER + 1]]) for h in counts],
        "taken": [int(t) for t in taken],
        "status": -1 if status == OK_STATUS else int(status),
    }


def _round(row: np.ndarray, n: int) -> dict[str, Any]:
    starter = int(row[0])
    ass_round = int(row[2]) >= 0 and decode(int(row[2]))[0] == ASS
    plays = []
    for pos in range(n):
        seat = (starter + pos) % n
        code = int(row[2 + pos])
        if code == PASS:
            plays.append({"seat": seat, "pass": True})
            continue
        play: dict[str, Any] = {"seat": seat, "cards": move_cards(code)}
        v, c, j = decode(code)
        if ass_round and pos > 0 and j == 1:
            play["joker_value"] = v
        plays.append(play)
    return {"starter": starter, "ass_round": ass_round, "plays": plays, "winner": int(row[1])}


class MatchTracer:
    """Plays matches of one run (mode ``matches``) in trace mode and builds their records."""

    def __init__(self, spec: RunSpec) -> None:
        from analyzer.engines.ass.engine import MAX_ROUNDS, TRACE_WIDTH, canonical_deck, variant_for
        from analyzer.engines.ass.runspec import checked, engine_inputs

        self.spec, self.strategies = checked(replace(spec, mode="matches"))  # parsed once
        n = self.spec.players
        k = self.spec.rules["games_per_match"]
        self.families, self.params = engine_inputs(self.spec, self.strategies)
        self.variant = variant_for(self.families)
        self.template = canonical_deck()
        self.dealt = np.zeros((k, n, HAND_SLOTS), dtype=np.int64)
        self.final = np.zeros((k, n, HAND_SLOTS), dtype=np.int64)
        self.traces = np.full((k, MAX_ROUNDS, TRACE_WIDTH), PASS, dtype=np.int64)
        self.rounds = np.zeros(k, dtype=np.int64)
        self.totals = np.zeros(n, dtype=np.int64)

    def record(self, index: int) -> tuple[dict[str, Any], int]:
        """The record of match ``index`` and the engine status (-1 = ok, else the *player*
        who moved illegally; the record then ends with that game, stopped before the round
        of that move)."""
        from analyzer.engines.ass.engine import OK, trace_match
        from analyzer.engines.ass.reference import match_winners, minus_points

        spec = self.spec
        n = spec.players
        status, last, first = trace_match(
            spec.seed, index, n, spec.rules["per_player"], spec.rules["games_per_match"],
            self.families, self.params, self.template, self.traces, self.dealt, self.final,
            self.rounds, self.totals, self.variant,
        )
        games = []
        for g in range(min(last + 1, spec.rules["games_per_match"])):
            dealer = (int(first) + g) % n
            final = self.final[g]
            games.append({
                "dealer": dealer,
                "seat_players": [(dealer + 1 + s) % n for s in range(n)],
                "hands": [hand_names(h) for h in self.dealt[g]],
                "rounds": [_round(self.traces[g, r], n) for r in range(self.rounds[g])],
                "final_hands": [hand_names(h) for h in final],
                "penalties": [minus_points([int(x) for x in h[: JOKER + 1]]) for h in final],
            })
        totals = [int(t) for t in self.totals]
        record = {
            "game": "ass",
            "version": VERSION,
            "mode": "matches",
            "seed": spec.seed,
            "index": index,
            "players": n,
            "strategies": [s.label() for s in self.strategies],
            "rules": dict(spec.rules),
            "first_dealer": int(first),
            "games": games,
            "totals": totals,
            "winners": match_winners(totals),
        }
        if status == OK:
            return record, -1
        seat = int(status)
        return record, (games[-1]["seat_players"][seat] if 0 <= seat < n else seat)


def trace_match_record(spec: RunSpec, index: int) -> tuple[dict[str, Any], int]:
    """The record of match ``index`` of ``spec`` and the status (see MatchTracer.record)."""
    return MatchTracer(spec).record(index)


def unit_record(spec: RunSpec, index: int) -> dict[str, Any]:
    """The record of unit ``index`` of ``spec`` (a game, or a match in mode ``matches``), as
    every game's records module gives it (``cardlab analyze``, the replays); an illegal move
    is an engine bug, one line."""
    from analyzer.errors import CardlabError

    tracer = MatchTracer(spec) if spec.mode == "matches" else Tracer(spec)
    record, status = tracer.record(index)
    if status >= 0:
        raise CardlabError(f"strategy at seat {status} made an illegal move (engine bug)")
    return record


def verify_record(record: dict[str, Any]) -> list[str]:
    """Check a record against the rules alone; return the problems found (empty = valid)."""
    from analyzer.games.ass.rules import rules_from_options
    from analyzer.rng import PyRng

    n = record["players"]
    rules = rules_from_options(n, record.get("rules", {}))
    return _verify_game(record, rules, PyRng(record["seed"], record["index"], 0))


def _verify_game(record: dict[str, Any], rules, rng) -> list[str]:
    """verify_record's checks of one game (hands, rounds, final hands, penalties, by seat),
    dealt from ``rng``."""
    from analyzer.engines.ass.reference import (
        KINDS,
        Turn,
        deal,
        legal_moves,
        minus_points,
        put_down,
    )

    problems: list[str] = []
    n = rules.players
    hands, ass_seat = deal(rules, rng)
    if [hand_names(h) for h in hands] != record["hands"]:
        return ["dealt hands differ from the deal of (seed, index) (A-2)"]
    starter, blocked = ass_seat, -1
    rounds = record["rounds"]
    for r, rnd in enumerate(rounds):
        where = f"round {r}"
        if rnd["starter"] != starter:
            return problems + [f"{where}: starter {rnd['starter']}, expected {starter}"]
        if len(rnd["plays"]) != n:
            return problems + [f"{where}: {len(rnd['plays'])} plays, expected {n}"]
        turn = Turn(seat=starter, position=0,
                    may_lead_ass=hands[starter][ASS] > 0 and starter != blocked)
        on_table = [0] * KINDS
        high_seat = starter
        for pos, play in enumerate(rnd["plays"]):
            seat = (starter + pos) % n
            if play["seat"] != seat:
                return problems + [f"{where}: play {pos} by seat {play['seat']}, expected {seat}"]
            turn.seat, turn.position = seat, pos
            move = play_move(play, turn.ass_round)
            forced = pos > 0 and not turn.ass_round and sum(hands[seat]) < turn.k
            if forced and move is not None:
                return problems + [f"{where}: seat {seat} played with fewer than k cards"]
            if not forced and move not in legal_moves(hands[seat], turn):
                return problems + [f"{where}: illegal move {play} by seat {seat}"]
            if move is None:
                continue
            if move_cards(move[0] * 256 + move[1] * 16 + move[2]) != play["cards"]:
                problems.append(f"{where}: cards of seat {seat} not in record order")
            if put_down(hands[seat], on_table, turn, move):
                high_seat = seat
        if rnd["ass_round"] != turn.ass_round:
            problems.append(f"{where}: ass_round flag is wrong")
        if rnd["winner"] != high_seat:
            return problems + [f"{where}: winner {rnd['winner']}, expected {high_seat}"]
        target = hands[high_seat] if turn.ass_round else None
        for kind in range(KINDS):
            if target is not None:
                target[kind] += on_table[kind]
        blocked = high_seat if turn.ass_round else -1
        starter = high_seat
        someone_out = any(sum(h) == 0 for h in hands)
        if someone_out != (r == len(rounds) - 1):
            return problems + [f"{where}: the game must end exactly when a hand is empty (A-9)"]
    if [hand_names(h) for h in hands] != record["final_hands"]:
        problems.append("final hands differ from the replayed moves")
    if [minus_points(h) for h in hands] != record["penalties"]:
        problems.append("penalties differ from the final hands (A-10)")
    return problems


def replay_matches(record: dict[str, Any]) -> bool:
    """True when the engine, given the record's seed, index and strategies, reproduces it."""
    spec = RunSpec("ass", record["players"], tuple(record["strategies"]), record["seed"],
                   rules=dict(record.get("rules", {})))
    again, _ = trace_record(spec, record["index"])
    return again == record


def verify_match_record(record: dict[str, Any]) -> list[str]:
    """Check a match record against the rules alone (A-12 and every game as verify_record
    does); return the problems found (empty = valid)."""
    from analyzer.engines.ass.reference import DEALER_STREAM, match_winners
    from analyzer.games.ass.rules import games_per_match, rules_from_options
    from analyzer.rng import PyRng

    n = record["players"]
    options = record.get("rules", {})
    rules = rules_from_options(n, options, matches=True)
    k = games_per_match(n, options)
    seed, index = record["seed"], record["index"]
    if record.get("mode") != "matches":
        return ["a match record has mode 'matches'"]
    first = PyRng(seed, index, DEALER_STREAM).randbelow(n)
    if record["first_dealer"] != first:
        return [f"first dealer {record['first_dealer']}, the draw gives {first} (A-12)"]
    if len(record["games"]) != k:
        return [f"{len(record['games'])} games, games_per_match is {k} (A-12)"]
    problems: list[str] = []
    totals = [0] * n
    for g, game in enumerate(record["games"]):
        dealer = (first + g) % n
        seats = [(dealer + 1 + s) % n for s in range(n)]
        if game["dealer"] != dealer or game["seat_players"] != seats:
            return problems + [f"game {g}: dealer {game['dealer']}, seats "
                               f"{game['seat_players']}; expected {dealer}, {seats} (A-12)"]
        found = _verify_game(game, rules, PyRng(seed, index, g))
        if found:
            return problems + [f"game {g}: {p}" for p in found]
        for s, p in enumerate(seats):
            totals[p] += game["penalties"][s]
    if record["totals"] != totals:
        problems.append(f"totals {record['totals']}, the games add up to {totals} (A-12)")
    if record["winners"] != match_winners(totals):
        problems.append(f"winners {record['winners']}, expected {match_winners(totals)} "
                        "(every player tied for the fewest total, A-12)")
    return problems


def replay_match_matches(record: dict[str, Any]) -> bool:
    """True when the engine, given a match record's seed, index, strategies and rules,
    reproduces it exactly."""
    spec = RunSpec("ass", record["players"], tuple(record["strategies"]), record["seed"],
                   mode="matches", rules=dict(record.get("rules", {})))
    again, _ = trace_match_record(spec, record["index"])
    return again == record



def match_records(spec: RunSpec, start: int, count: int):
    """The records of matches ``start`` .. ``start + count - 1`` of ``spec``, one by one."""
    tracer = MatchTracer(spec)
    for index in range(start, start + count):
        record, status = tracer.record(index)
        if status != -1:
            raise RuntimeError(f"player {status} moved illegally in ass seed={spec.seed} "
                               f"index={index}")
        yield record


def detail_rows(records) -> dict[str, np.ndarray]:
    """One row per player of each game of each match record: the columns of the
    description's ``MATCH_GAME_COLUMNS`` (docs/data-dictionary.md), in order."""
    from analyzer.games.ass.description import MATCH_GAME_COLUMNS

    out: dict[str, list] = {c.name: [] for c in MATCH_GAME_COLUMNS}
    for record in records:
        n = record["players"]
        totals = [0] * n
        for g, game in enumerate(record["games"], start=1):
            seat_of = {p: s for s, p in enumerate(game["seat_players"])}
            for p in range(n):
                totals[p] += game["penalties"][seat_of[p]]
                for name, value in (
                        ("index", record["index"]), ("game", g), ("player", p),
                        ("seat", seat_of[p]), ("dealer", game["dealer"]),
                        ("minus_points", game["penalties"][seat_of[p]]),
                        ("total", totals[p])):
                    out[name].append(value)
    return {c.name: np.asarray(out[c.name], dtype=c.dtype) for c in MATCH_GAME_COLUMNS}


# --- a record read from a file, replayed through the rules before it is used ---------------


def first_illegal(record: dict[str, Any]) -> str | None:
    """The first step of a game or match record (from a file, perhaps edited by hand) that the
    rules do not allow, as ``"where: what (ruling)"``; None when every step is legal. The
    record is replayed through the rules alone: the deck and the deal's shape (A-1, A-2), who
    starts (A-8, A-6, A-7), every play against the hand it comes from (A-4 to A-8), each
    round's taker, the end of the game (A-9), final hands and minus points (A-10) and, for a
    match, the seats, games and running totals (A-12). Not checked: that the deal is the one
    the record's seed gives (a game played at a real table has no seed)."""
    return first_illegal_step(_check_record, record)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_record(record: dict[str, Any]) -> None:
    from analyzer.errors import CardlabError
    from analyzer.games.ass.rules import (
        MAX_PLAYERS,
        MIN_PLAYERS,
        games_per_match,
        rules_from_options,
    )

    if not isinstance(record, dict):
        raise IllegalStep("record", "not a JSON object", "docs/game-records.md")
    n = record["players"]
    if not _whole(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise IllegalStep("players", f"{n!r} players; Who's the Ass? is played by "
                          f"{MIN_PLAYERS} to {MAX_PLAYERS}", "A-2")
    matches = record.get("mode") == "matches"
    options = record.get("rules", {})
    if not isinstance(options, dict):
        raise IllegalStep("rules", f"{options!r} is not an object of rules options", "A-2")
    try:
        rules = rules_from_options(n, options, matches=matches)
        k = games_per_match(n, options) if matches else 1
    except CardlabError as exc:
        raise IllegalStep("rules", str(exc), "A-2" if not matches else "A-12") from None
    if not matches:
        _check_game(record, rules, "")
        return
    games = record["games"]
    if not isinstance(games, list) or not 1 <= len(games) <= k:
        raise IllegalStep("games", f"{len(games) if isinstance(games, list) else games!r} "
                          f"games; a match has 1 to games_per_match = {k}", "A-12")
    first = record["first_dealer"]
    if not _whole(first) or not 0 <= first < n:
        raise IllegalStep("first_dealer", f"{first!r} is not a player 0 to {n - 1}", "A-12")
    totals = [0] * n
    for g, game in enumerate(games):
        dealer = (first + g) % n
        seats = [(dealer + 1 + s) % n for s in range(n)]
        if game["dealer"] != dealer or game["seat_players"] != seats:
            raise IllegalStep(f"game {g}", f"dealer {game['dealer']}, seat_players "
                              f"{game['seat_players']}; the deal moves one player on each "
                              f"game: dealer {dealer}, seat_players {seats}", "A-12")
        _check_game(game, rules, f"game {g}, ")
        for s, p in enumerate(seats):
            totals[p] += game["penalties"][s]
    if "totals" in record and record["totals"] != totals:
        raise IllegalStep("totals", f"{record['totals']}; the games add up to {totals}", "A-12")


def _hand_of(names: Any, where: str) -> list[int]:
    from analyzer.engines.ass.reference import KINDS

    if not isinstance(names, list):
        raise IllegalStep(where, f"{names!r} is not a list of cards", "A-1")
    counts = [0] * KINDS
    for name in names:
        try:
            counts[card_kind(name)] += 1
        except (ValueError, TypeError):
            raise IllegalStep(where, f"unknown card {name!r}; cards are 1..13, J, A",
                              "A-1") from None
    return counts


def _check_game(game: dict[str, Any], rules, at: str) -> None:
    """Replay one game of a record through the rules (IllegalStep at the first bad step)."""
    from analyzer.engines.ass.reference import (
        KINDS,
        Turn,
        legal_moves,
        minus_points,
        put_down,
    )
    from analyzer.games.ass.cards import COPIES, N_JOKERS

    n = rules.players
    dealt = game["hands"]
    if not isinstance(dealt, list) or len(dealt) != n:
        raise IllegalStep(f"{at}hands", f"{len(dealt) if isinstance(dealt, list) else 0} "
                          f"hands for {n} players", "A-2")
    hands = [_hand_of(h, f"{at}hands seat {s}") for s, h in enumerate(dealt)]
    for s, h in enumerate(hands):
        if sum(h) != rules.per_player:
            raise IllegalStep(f"{at}hands seat {s}", f"{sum(h)} cards; with {n} players each "
                              f"is dealt {rules.per_player}", "A-2")
    for kind in range(KINDS):
        held = sum(h[kind] for h in hands)
        copies = 1 if kind == ASS else N_JOKERS if kind == JOKER else COPIES
        name = {ASS: "the ass", JOKER: "jokers"}.get(kind, f"{kind}s")
        if held > copies or (kind == ASS and held != 1):
            raise IllegalStep(f"{at}hands", f"{name} {held} times in the hands; the deck has "
                              f"{copies}" + (" and it is always dealt" if kind == ASS else ""),
                              "A-1" if held > copies else "A-2")
    starter = next(s for s in range(n) if hands[s][ASS])
    blocked = -1
    rounds = game["rounds"]
    if not isinstance(rounds, list) or not rounds:
        raise IllegalStep(f"{at}rounds", "no rounds; a game is played until a hand is empty",
                          "A-9")
    move = 0
    for r, rnd in enumerate(rounds):
        where = f"{at}round {r}"
        if rnd["starter"] != starter:
            why = ("the holder of the ass starts the first round" if r == 0 else
                   "the previous round's highest play starts the next")
            raise IllegalStep(where, f"starter {rnd['starter']}; seat {starter} starts: {why}",
                              "A-8" if r == 0 else "A-7" if blocked >= 0 else "A-6")
        plays = rnd["plays"]
        if not isinstance(plays, list) or len(plays) != n:
            raise IllegalStep(where, f"{len(plays) if isinstance(plays, list) else 0} plays; "
                              f"every seat has one turn in a round, {n}", "A-6")
        turn = Turn(seat=starter, position=0,
                    may_lead_ass=hands[starter][ASS] > 0 and starter != blocked)
        on_table = [0] * KINDS
        high_seat = starter
        for pos, play in enumerate(plays):
            seat = (starter + pos) % n
            step = f"{where}, play {pos} (--move {move})"
            move += 1
            turn.seat, turn.position = seat, pos
            if not isinstance(play, dict) or play.get("seat") != seat:
                who = play.get("seat") if isinstance(play, dict) else play
                raise IllegalStep(step, f"by seat {who!r}; play goes clockwise from the "
                                  f"starter: seat {seat}", "A-3")
            try:
                mv = play_move(play, turn.ass_round)
            except (ValueError, TypeError, KeyError) as exc:
                raise IllegalStep(step, f"seat {seat}: {exc}", "A-4") from None
            if mv is not None:
                v, c, j = mv
                need = [0] * KINDS
                if v <= N_VALUES and c:
                    need[v] += c
                need[JOKER] += j
                short = [k for k in range(KINDS) if need[k] > hands[seat][k]]
                if short:
                    k = short[0]
                    name = {ASS: "the ass", JOKER: "jokers"}.get(k, f"{k}s")
                    raise IllegalStep(step, f"seat {seat} plays {' '.join(play['cards'])} but "
                                      f"holds {hands[seat][k]} of {name} (its dealt hand and "
                                      "the rounds so far)", "A-2")
            forced = pos > 0 and not turn.ass_round and sum(hands[seat]) < turn.k
            if forced and mv is not None:
                raise IllegalStep(step, f"seat {seat} plays with fewer than {turn.k} cards",
                                  "A-6")
            if not forced and mv not in legal_moves(hands[seat], turn):
                shown = "pass" if mv is None else " ".join(play["cards"])
                ruling = ("A-8" if mv is not None and mv[0] == ASS else "A-5" if pos == 0
                          else "A-7" if turn.ass_round else "A-6")
                why = {"A-8": "the ass is led alone by the starter, not in the round after "
                              "taking it",
                       "A-5": "the starter leads a set",
                       "A-7": "in an ass round each plays exactly one card, a joker as 1 or 14",
                       "A-6": f"pass, or exactly {turn.k} cards of a value above {turn.high}"}
                raise IllegalStep(step, f"seat {seat} plays {shown}: {why[ruling]}", ruling)
            if mv is None:
                continue
            if put_down(hands[seat], on_table, turn, mv):
                high_seat = seat
        if rnd.get("ass_round") != turn.ass_round:
            raise IllegalStep(where, f"ass_round {rnd.get('ass_round')}; the lead makes it "
                              f"{turn.ass_round}", "A-7")
        if rnd["winner"] != high_seat:
            raise IllegalStep(where, f"winner {rnd['winner']}; seat {high_seat} played the "
                              "highest", "A-7" if turn.ass_round else "A-6")
        if turn.ass_round:
            for kind in range(KINDS):
                hands[high_seat][kind] += on_table[kind]
        blocked = high_seat if turn.ass_round else -1
        starter = high_seat
        out = any(sum(h) == 0 for h in hands)
        if out and r < len(rounds) - 1:
            raise IllegalStep(f"{at}round {r + 1}", "a round after a hand went empty: the game "
                              "ended with round " + str(r), "A-9")
        if not out and r == len(rounds) - 1:
            raise IllegalStep(f"{at}round {r}", "the last round leaves every hand with cards; "
                              "the game ends only when a hand is empty", "A-9")
    if "final_hands" in game and [_hand_of(h, f"{at}final_hands") for h in
                                  game["final_hands"]] != hands:
        raise IllegalStep(f"{at}final_hands", "differ from the hands the rounds leave", "A-9")
    if "penalties" in game and game["penalties"] != [minus_points(h) for h in hands]:
        raise IllegalStep(f"{at}penalties", f"{game['penalties']}; the final hands score "
                          f"{[minus_points(h) for h in hands]}", "A-10")
