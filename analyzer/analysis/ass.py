"""Who's the Ass? positions for analysis: from records, from typed input, and their values.

A :class:`Position` is what the player to move may know (A-11) and nothing else: its view
(analyzer.games.ass.cards: own hand, public state, known holdings, match facts) and, for a
position of a recorded game, the public move record so far (the engine's trace layout,
positions.record_at). :func:`analyze` rolls out every legal move on the same sampled worlds
(kernels.ass_outcomes): the worlds and the evaluation of the real ``pimc`` with its defaults
(analyzer/analysis/model.py), so its best move is the move ``pimc`` would play, up to moves
within noise; :func:`pimc_move` asks ``pimc`` itself (tests and benchmarks).

Move notation (docs/analyzing.md): the cards of a play as in game records, separated by
spaces (``7 7 J``), ``pass``, ``A`` for the ass; in an ass round a joker played as 1 or 14
is ``J=1`` / ``J=14``. Each legal move is a distinct set of cards (counts by kind), so no
two moves are identical in effect and none is grouped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.errors import CardlabError
from analyzer.games import registry as _registry
from analyzer.games.ass.cards import (
    ASS,
    COPIES,
    JOKER,
    JOKER_HIGH,
    N_JOKERS,
    PASS,
    PUB_ASS_ROUND,
    PUB_GAME,
    PUB_GAMES,
    PUB_GONE,
    PUB_HIGH,
    PUB_HIGH_SEAT,
    PUB_K,
    PUB_KNOWN,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_SEAT,
    PUB_SIZES,
    PUB_STARTER,
    PUB_TABLE,
    PUB_TOTALS,
    SCRATCH,
    VIEW_LEN,
    PublicView,
    decode,
    encode,
    hand_names,
    move_cards,
)
from analyzer.numbers import NumberError, parse_int, parse_int_list

# Worlds per position by default: the game's adapter declares it (GameParts.worlds)
DEFAULT_WORLDS = _registry.get("ass").parts.worlds
MOVE_NOUN = "move"  # what the advice calls one of the choices ("the only legal move")
MAX_WORLDS = 20_000
WORLD_STREAM = 0  # the stream of (seed, index) the worlds are drawn from
PIMC_STREAM = 1  # the stream the pimc decision draws from


@dataclass
class Position:
    """The decider's knowledge at one decision: ``view`` (int64[VIEW_LEN]) and ``trace``
    (the public move record, or None for a typed position). ``info`` describes it for
    output (JSON-safe)."""

    view: np.ndarray
    trace: np.ndarray | None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def seat(self) -> int:
        return PublicView(self.view).seat


# --- notation -------------------------------------------------------------------------------


def move_text(code: int, ass_round: bool, pos: int) -> str:
    """A move as written in docs/analyzing.md (the cards as game records name them)."""
    if code == PASS:
        return "pass"
    v, c, j = decode(code)
    if ass_round and pos > 0 and c == 0 and j == 1:
        return f"J={v}"
    return " ".join(move_cards(code))


def record_move(play: dict[str, Any], ass_round: bool) -> int:
    """The move code of a record play."""
    from analyzer.engines.ass.records import play_move

    move = play_move(play, ass_round)
    return PASS if move is None else encode(*move)


def parse_cards(text: str, what: str) -> list[int]:
    """Card kinds of a list of typed card names (spaces or commas between them; the names
    players use, games.ass.names)."""
    from analyzer.games.ass.names import kinds_of

    try:
        return kinds_of(text)
    except ValueError as exc:
        raise CardlabError(f"{what}: {exc}") from None


def _play_of(text: str, ass_round: bool, pos: int, what: str) -> int:
    """The move code of one typed play of a round."""
    text = text.strip()
    if text.lower() == "pass":
        return PASS
    from analyzer.games.ass.names import joker_declared

    value = joker_declared(text)
    if value is not None:
        if not (ass_round and pos > 0) or value not in (1, JOKER_HIGH):
            raise CardlabError(f"{what}: {text!r}: a joker is declared 1 or 14 only when "
                               "played into an ass round (J=1, J=14)")
        return encode(value, 0, 1)
    kinds = parse_cards(text, what)
    if not kinds:
        raise CardlabError(f"{what}: an empty play; write pass, or the cards")
    if ASS in kinds:
        if kinds != [ASS] or pos > 0:
            raise CardlabError(f"{what}: the ass is played alone, as the lead (A-8)")
        return encode(ASS, 1, 0)
    numbers = sorted({k for k in kinds if k != JOKER})
    jokers = kinds.count(JOKER)
    if len(numbers) > 1:
        raise CardlabError(f"{what}: {text!r} mixes values; a set is one value plus jokers "
                           "(A-4)")
    if not numbers:
        return encode(JOKER_HIGH, 0, jokers)
    return encode(numbers[0], len(kinds) - jokers, jokers)


# --- positions ----------------------------------------------------------------------------


def plays_of(game: dict[str, Any]) -> list[tuple[int, int]]:
    """(round, position) of every play of a game record, in record order."""
    return [(r, p) for r, rnd in enumerate(game["rounds"]) for p in range(len(rnd["plays"]))]


def game_of(record: dict[str, Any], game_in_match: int | None) -> tuple[dict[str, Any], int]:
    """The game (with ``players``) and its number within the match of a record."""
    if record.get("mode") == "matches":
        games = record["games"]
        g = 0 if game_in_match is None else game_in_match
        if not 0 <= g < len(games):
            raise CardlabError(f"--game-in-match {g} is outside the match: it has games 0 to "
                               f"{len(games) - 1}")
        return {**games[g], "players": record["players"]}, g
    if game_in_match is not None:
        raise CardlabError("--game-in-match applies to a match record (mode matches)")
    return record, 0


def match_facts(record: dict[str, Any], g: int) -> tuple[int, int, list[int]]:
    """(game number, games per match, running totals by seat before game g) of a match
    record (A-12, public on the score sheet); (0, 0, zeros) for a single game."""
    n = record["players"]
    if record.get("mode") != "matches":
        return 0, 0, [0] * n
    totals = [0] * n  # by player
    for game in record["games"][:g]:
        for s, p in enumerate(game["seat_players"]):
            totals[p] += game["penalties"][s]
    from analyzer.games.ass.rules import games_per_match

    seats = record["games"][g]["seat_players"]
    k = games_per_match(n, record.get("rules", {}))  # default: the number of players
    return g, k, [totals[seats[s]] for s in range(n)]


def engine_view(state: dict[str, Any]) -> np.ndarray:
    """positions.view_of, with the round's kind unknown before its lead (as the engine's
    view has it: whether a round is an ass round is decided by the lead itself)."""
    from analyzer.engines.ass.positions import view_of

    view = view_of(state)
    if state["pos"] == 0:
        view[PUB_ASS_ROUND] = 0
    return view


def from_record(record: dict[str, Any], move: int, game_in_match: int | None = None
                ) -> Position:
    """The position before play ``move`` (0 = the first play of the game, every entry of the
    record's plays counted, forced passes included) of a game or match record."""
    from analyzer.engines.ass.positions import record_at, state_at

    game, g = game_of(record, game_in_match)
    plays = plays_of(game)
    if not 0 <= move < len(plays):
        raise CardlabError(f"--move {move} is outside the game: it has plays 0 to "
                           f"{len(plays) - 1}")
    r, p = plays[move]
    view = engine_view(state_at(game, r, p))
    number, games, totals = match_facts(record, g)
    view[PUB_GAME], view[PUB_GAMES] = number, games
    view[PUB_TOTALS: PUB_TOTALS + len(totals)] = totals
    info = {"game": "ass", "source": "record", "record_seed": record.get("seed"),
            "record_index": record.get("index"), "move": move, "round": r}
    if record.get("mode") == "matches":
        info["game_in_match"] = g
    pos = Position(view, record_at(game, r, p), info)
    pos.info.update(describe(pos))
    rnd = game["rounds"][r]
    plays = [move_text(record_move(play, rnd["ass_round"]), rnd["ass_round"], i)
             for i, play in enumerate(rnd["plays"][:p])]
    pos.info["typed"] = typed_options(pos.info, plays, state_at(game, r, p)["blocked"])
    return pos


def _quote(text: str) -> str:
    return f"'{text}'"


def typed_options(info: dict[str, Any], plays: list[str], blocked: int) -> str:
    """The ``cardlab analyze ass`` options that type this position by hand (the move record
    is not part of them: typed, the worlds read the hand sizes and known holdings only)."""
    out = [f"--players {info['players']}", f"--seat {info['seat']}",
           f"--hand {_quote(' '.join(info['hand']))}",
           "--sizes " + ",".join(map(str, info["sizes"]))]
    if plays:
        out.append(f"--round {_quote(' / '.join(plays))}")
    if info["gone"]:
        out.append(f"--gone {_quote(' '.join(info['gone']))}")
    for s, cards in info["known"].items():
        out.append(f"--known {_quote(s + ':' + ' '.join(cards))}")
    if blocked == info["seat"] and info["position_in_round"] == 0:
        out.append("--just-took-ass")
    if "game_of_match" in info:
        out.append(f"--game {info['game_of_match']} --totals "
                   + ",".join(map(str, info["totals"])))
    return " ".join(out)


def from_state(state: dict[str, Any], trace: np.ndarray | None) -> Position:
    """The position of a full state (positions.state_at) as its decider sees it."""
    pos = Position(engine_view(state), trace, {"game": "ass", "source": "state"})
    pos.info.update(describe(pos))
    return pos


def max_minus_points() -> int:
    """The most minus points one seat can score in a game, as the game's description bounds
    its minus_points (the whole deck in one hand, A-1, A-10): what a match total grows by
    per game at most."""
    from analyzer.games.ass.description import ALL_MINUS_POINTS

    return ALL_MINUS_POINTS


def parse_game(text: str) -> tuple[int, int]:
    """``--game G/K``: (G - 1, K), game G (1 first) of a match of K games (A-12: K at most
    games_per_match allows)."""
    from analyzer.games.ass.rules import MAX_GAMES_PER_MATCH

    shape = f"--game {text!r}: write G/K, game G (1 first) of K, e.g. 2/4"
    first, sep, last = text.partition("/")
    try:
        g, k = parse_int(first.strip(), "--game"), parse_int(last.strip(), "--game")
    except NumberError as exc:
        raise CardlabError(f"{shape} ({exc})") from None
    if not sep or not 1 <= g <= k:
        raise CardlabError(shape)
    if k > MAX_GAMES_PER_MATCH:
        raise CardlabError(f"--game {text}: a match has at most {MAX_GAMES_PER_MATCH:,} games "
                           "(games_per_match)")
    return g - 1, k


def first_play_size(players: int) -> int:
    """The cards each seat holds at the game's first play: those dealt (A-2)."""
    from analyzer.games.ass.rules import AssRules

    return AssRules.for_players(players).per_player


def typed(players: int, seat: int, hand: str, sizes: str | None, round_: str | None,
          gone: str | None, known: list[str], just_took_ass: bool, totals: str | None,
          game: str | None) -> Position:
    """A position typed by hand (docs/analyzing.md); every inconsistency is a CardlabError
    naming it."""
    n = players
    if not 3 <= n <= 12:
        raise CardlabError(f"--players must be 3 to 12; got {n}")
    if not 0 <= seat < n:
        raise CardlabError(f"--seat must be 0 to {n - 1}; got {seat}")
    own = np.zeros(16, dtype=np.int64)
    for k in parse_cards(hand, "--hand"):
        own[k] += 1
    # the round so far, from its starter: the decider is next
    texts = [t for t in (round_ or "").split("/")] if (round_ or "").strip() else []
    p = len(texts)
    if p >= n:
        raise CardlabError(f"--round has {p} plays; with {n} players a round has at most "
                           f"{n - 1} before the player to move")
    starter = (seat - p) % n
    table = np.zeros(16, dtype=np.int64)
    played = [0] * n  # cards each seat played this round
    k = high = 0
    ass_round = False
    high_seat = starter
    for i, text in enumerate(texts):
        who = (starter + i) % n
        what = f"--round play {i + 1} (seat {who})"
        code = _play_of(text, ass_round, i, what)
        if code != PASS:
            played[who] += sum(decode(code)[1:])
        if i == 0:
            if code == PASS:
                raise CardlabError(f"{what}: the starter must lead, not pass (A-5)")
            v, c, j = decode(code)
            ass_round = v == ASS
            k, high = (1 if ass_round else c + j), v
        elif code == PASS:
            if ass_round:
                raise CardlabError(f"{what}: nobody passes in an ass round (A-7)")
            continue
        else:
            v, c, j = decode(code)
            if c + j != k:
                raise CardlabError(f"{what}: {text.strip()!r} has {c + j} cards; the lead "
                                   f"fixed {k} (A-6, A-7)")
            if not ass_round and v <= high:
                raise CardlabError(f"{what}: {text.strip()!r} does not beat the "
                                   f"{'jokers' if high == JOKER_HIGH else high} played before "
                                   "it (A-6)")
            if v > high or (ass_round and v == high):
                high, high_seat = v, who
        v, c, j = decode(code)
        if v != JOKER_HIGH and not (ass_round and i > 0 and c == 0):
            table[v] += c
        table[JOKER] += j
    gone_counts = np.zeros(16, dtype=np.int64)
    for kind in parse_cards(gone or "", "--gone"):
        gone_counts[kind] += 1
    if gone_counts[ASS]:
        raise CardlabError("--gone: the ass never leaves the game (A-7: its round's taker "
                           "takes it)")
    known_counts = np.zeros((n, 16), dtype=np.int64)
    for item in known:
        who, sep, cards = item.partition(":")
        try:
            s = parse_int(who.strip(), "--known seat")
        except NumberError:
            s = None
        if not sep or s is None:
            raise CardlabError(f"--known {item!r}: write SEAT:CARDS, e.g. --known 2:A")
        if not 0 <= s < n or s == seat:
            raise CardlabError(f"--known {item!r}: the seat must be another player's, 0 to "
                               f"{n - 1} but not {seat}")
        for kind in parse_cards(cards, f"--known {s}"):
            known_counts[s, kind] += 1
    # the game's first round (nothing gone, no ass taken): the sizes are the deal's
    # less this round's plays, and the starter holds the ass unless told otherwise
    first_round = not gone_counts.any() and not just_took_ass
    dealt = [first_play_size(n) - played[s] for s in range(n)]
    if sizes is None:
        if not first_round or int(own.sum()) != dealt[seat]:
            why = (f"--hand holds {int(own.sum())} cards, not the {dealt[seat]} of the first "
                   "play" if first_round else "they follow from the player count only at "
                   "the game's first play (nothing --gone, no --just-took-ass)")
            raise CardlabError(f"give --sizes: the hand sizes of all {n} seats now, e.g. "
                               + ",".join([str(first_play_size(n))] * n) + f"; {why}")
        size = dealt
    else:
        try:
            size = parse_int_list(sizes, "--sizes")
        except NumberError as exc:
            raise CardlabError(f"{exc}; write {n} whole numbers separated by commas") from None
        if len(size) != n or min(size) < 0:
            raise CardlabError(f"--sizes {sizes!r}: {n} hand sizes (0 or more) are needed, "
                               "one per seat")
    if first_round and list(size) == dealt and not (
            own[ASS] or table[ASS] or known_counts[:, ASS].any()):
        if starter == seat:
            raise CardlabError(f"at the game's first play the starter, seat {seat}, holds the "
                               "ass (A-8), but --hand has no A; add it, or give --known "
                               "SEAT:A to place it elsewhere")
        known_counts[starter, ASS] = 1
    if size[seat] != int(own.sum()):
        raise CardlabError(f"--sizes gives seat {seat} {size[seat]} cards but --hand holds "
                           f"{int(own.sum())}")
    for s in range(n):
        if known_counts[s].sum() > size[s]:
            raise CardlabError(f"--known: seat {s} is known to hold "
                               f"{int(known_counts[s].sum())} cards but holds {size[s]}")
    for kind in range(JOKER + 1):
        total = own[kind] + gone_counts[kind] + table[kind] + known_counts[:, kind].sum()
        copies = 1 if kind == ASS else (N_JOKERS if kind == JOKER else COPIES)
        if total > copies:
            name = {ASS: "the ass", JOKER: "jokers"}.get(kind, f"{kind}s")
            raise CardlabError(f"a card shown too often: {name} {int(total)} times in "
                               f"--hand, --round, --gone and --known; the deck has {copies}")
    if p == 0 and own.sum() == 0:
        raise CardlabError(f"seat {seat} leads but --hand is empty")
    if just_took_ass and (p > 0 or own[ASS] == 0):
        raise CardlabError("--just-took-ass: the seat that took the ass holds it and starts the "
                           "next round (A-7, A-8); " + ("--round has plays before you, so you "
                                                       "do not lead" if p > 0 else
                                                       "--hand has no ass (A)"))
    if p == 0 and min(size) == 0:
        raise CardlabError(f"a hand of 0 cards at the start of a round: the game is over (A-9); "
                           f"--sizes {sizes}")
    unseen = 110 - int(own.sum() + gone_counts.sum() + table.sum())
    hidden = sum(size[s] for s in range(n) if s != seat)
    if hidden > unseen:
        raise CardlabError(f"hand sizes that cannot be: the others hold {hidden} cards but "
                           f"only {unseen} cards are unseen")
    # an ass neither held, on the table nor known: the worlds give it to another seat
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    view[:16] = own
    view[PUB_GONE: PUB_GONE + 16] = gone_counts
    view[PUB_TABLE: PUB_TABLE + 16] = table
    for s in range(n):
        view[PUB_SIZES + s] = size[s]
        view[PUB_KNOWN + s] = sum(int(c) << (4 * kind) for kind, c in enumerate(known_counts[s]))
    view[PUB_PLAYERS], view[PUB_SEAT], view[PUB_POS] = n, seat, p
    view[PUB_K], view[PUB_HIGH], view[PUB_ASS_ROUND] = k, high, int(ass_round)
    view[PUB_STARTER], view[PUB_HIGH_SEAT] = starter, high_seat
    view[PUB_MAY_LEAD_ASS] = int(p == 0 and own[ASS] > 0 and not just_took_ass)
    if game is not None:
        view[PUB_GAME], view[PUB_GAMES] = parse_game(game)
    if totals is not None:
        try:
            tot = parse_int_list(totals, "--totals")
        except NumberError as exc:
            raise CardlabError(f"{exc}; write {n} running totals of minus points") from None
        if len(tot) != n or min(tot) < 0:
            raise CardlabError(f"--totals {totals!r}: {n} running totals of minus points (0 or "
                               "more), one per seat")
        if game is None:
            raise CardlabError("--totals needs --game G/K (the match's game)")
        g = int(view[PUB_GAME])
        most = g * max_minus_points()
        if max(tot) > most:
            raise CardlabError(f"--totals {totals!r}: before game {g + 1} of a match a seat "
                               f"has at most {most:,} minus points ({g} games of at most "
                               f"{max_minus_points()}, A-10)")
        view[PUB_TOTALS: PUB_TOTALS + n] = tot
    pos = Position(view, None, {"game": "ass", "source": "typed"})
    if count_legal(pos) == 0:
        raise CardlabError(f"seat {seat} has no card to play into the ass round")
    pos.info.update(describe(pos))
    return pos


def count_legal(pos: Position) -> int:
    from analyzer.games.ass.moves import legal_moves

    return int(legal_moves(pos.view.copy()))


def legal_codes(pos: Position) -> list[int]:
    """The decider's legal moves in canonical order (a player with no move passes)."""
    from analyzer.games.ass.moves import legal_moves

    view = pos.view.copy()
    count = int(legal_moves(view))
    return [int(x) for x in view[SCRATCH: SCRATCH + count]] or [PASS]


def describe(pos: Position) -> dict[str, Any]:
    """What the decider knows, for output (JSON-safe)."""
    v = PublicView(pos.view)
    n = v.players
    out: dict[str, Any] = {
        "players": n, "seat": v.seat, "hand": hand_names(v.hand),
        "sizes": [int(x) for x in v.sizes[:n]],
        "starter": v.starter, "position_in_round": v.pos, "ass_round": bool(v.ass_round),
        "table": hand_names(v.table), "gone": hand_names(v.gone),
        "may_lead_ass": bool(v.may_lead_ass),
        "known": {str(s): _known_names(int(v.known[s])) for s in range(n)
                  if v.known[s] and s != v.seat},
    }
    if v.pos > 0:
        out["k"], out["high"] = v.k, v.high
    if v.games:
        out["game_of_match"] = f"{v.game + 1}/{v.games}"
        out["totals"] = [int(x) for x in v.totals[:n]]
    return out


def _known_names(packed: int) -> list[str]:
    return hand_names([(packed >> (4 * k)) & 15 for k in range(16)])


# --- values -------------------------------------------------------------------------------


def pimc_params() -> tuple[int, tuple[float, ...]]:
    """Family id and parameters of ``pimc`` with its defaults, as the engine passes them (a
    tuple of floats: an array would compile a second copy of the whole search)."""
    from analyzer.analysis.model import search_values
    from strategies.ass.catalog import PIMC

    return PIMC, tuple(float(v) for v in search_values("ass"))


def pimc_move(pos: Position, seed: int, index: int = 0) -> int:
    """The move the real ``pimc`` (defaults) plays here, drawing from stream PIMC_STREAM of
    (seed, index)."""
    from analyzer.rng import new_state, seed_state
    from strategies.ass.pimc import search_move

    family, params = pimc_params()
    rng = new_state()
    seed_state(rng, seed, index, PIMC_STREAM)
    n = int(pos.view[PUB_PLAYERS])
    trace = pos.trace if pos.trace is not None else np.full((0, 14), PASS, dtype=np.int64)
    return int(search_move(family, params, pos.view.copy(), rng, np.zeros(n, np.uint64),
                           trace))


def outcomes(pos: Position, moves: list[int], worlds: int, seed: int, index: int = 0,
             params: tuple[float, ...] | None = None
             ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """The outcome matrices (worlds x moves) of kernels.ass_outcomes: minus points, and in a
    match the share of the match win (else None), and the worlds' weights; worlds drawn from
    stream WORLD_STREAM of (seed, index) as ``pimc`` with ``params`` (default: its defaults,
    model.search_values) draws them, and rolled out by its rollout strategy."""
    from analyzer.analysis.kernels import ass_outcomes
    from analyzer.analysis.model import search_values
    from analyzer.engines.ass.engine import canonical_deck
    from analyzer.games.ass.rules import PER_PLAYER
    from analyzer.rng import new_state, seed_state

    params = search_values("ass") if params is None else params
    rng = new_state()
    seed_state(rng, seed, index, WORLD_STREAM)
    out = np.zeros((worlds, len(moves)), dtype=np.float64)  # rollout=value: not whole points
    wins = np.zeros((worlds, len(moves)), dtype=np.float64)
    n = int(pos.view[PUB_PLAYERS])
    trace = pos.trace if pos.trace is not None else np.full((0, 14), PASS, dtype=np.int64)
    weights = ass_outcomes(pos.view.copy(), trace, np.array(moves, dtype=np.int64), worlds,
                           params, rng, out, wins, PER_PLAYER[n], canonical_deck())
    return out, (wins if pos.view[PUB_GAMES] else None), weights


def analyze(pos: Position, worlds: int = DEFAULT_WORLDS, seed: int = 0, index: int = 0,
            continuation: str | None = None) -> dict[str, Any]:
    """``{"recommendation", "model", "position", "moves"}``: the advice in plain words first
    (model.advice), then every legal move's row (values.move_rows: minus points at the end of
    the game, lower is better), every legal move on the same ``worlds`` worlds: pimc's own
    worlds and evaluation (its defaults), or with ``continuation`` every seat after the move
    playing that strategy instead (a what-if)."""
    from analyzer.analysis.model import advice, rollout_name, search_values
    from analyzer.analysis.values import MIN_INTERVAL_WORLDS, TOO_FEW, move_rows
    from strategies.ass.catalog import INFER, SLOT_INFER

    params = search_values("ass", continuation)
    moves = legal_codes(pos)
    ass_round, p = bool(pos.view[PUB_ASS_ROUND]), int(pos.view[PUB_POS])
    names = [move_text(m, ass_round, p) for m in moves]
    matrix, wins, weights = outcomes(pos, moves, worlds, seed, index, params)
    infer = INFER[int(params[SLOT_INFER])]
    # pimc reads the record with infer=policy, but a typed position has none, and random
    # rollouts explain every move alike
    policy = infer == "policy" and pos.trace is not None and rollout_name("ass", params) != "random"
    shown = "voids" if infer == "policy" else infer
    # every interval inside its value's range: minus points >= 0, a chance in [0, 1]
    rows = move_rows("ass", matrix, names, None, None if wins is None else {"win": wins},
                     weights=weights)
    info = {**pos.info, "worlds": int(matrix.shape[0]),
            "seed": seed, "unit": "minus points at the end of the game (lower is better)"
            + ("; beside them the chance to win the match" if wins is not None else ""),
            "continuation": rollout_name("ass", params),
            "worlds_from": "the move record (pimc's infer=policy)" if policy
            else f"hand sizes and known holdings (pimc's infer={shown})"}
    if matrix.shape[0] < MIN_INTERVAL_WORLDS:
        info["intervals"] = TOO_FEW
    return {**advice("ass", rows, continuation, params), "position": info, "moves": rows}


def max_worlds_check(worlds: int) -> None:
    if not 1 <= worlds <= MAX_WORLDS:
        raise CardlabError(f"--worlds must be 1 to {MAX_WORLDS}; got {worlds}")


def record_plays(record: dict[str, Any]):
    """Every play of a record, in record order, as annotate reads it (analysis.annotate):
    (the head of its entry, who made it (the player in a match, else the seat), the move,
    the game of the match (0 for a single game), its number, the position before it (a
    function))."""
    matches = record.get("mode") == "matches"
    games = record["games"] if matches else [record]
    for g, game in enumerate(games):
        view = {**game, "players": record["players"]}
        number = g if matches else None
        for k, (r, p) in enumerate(plays_of(view)):
            rnd = game["rounds"][r]
            play = rnd["plays"][p]
            seat = play["seat"]
            played = move_text(record_move(play, rnd["ass_round"]), rnd["ass_round"], p)
            head: dict[str, Any] = {"seat": seat, "index": k}
            who = seat
            if number is not None:
                who = game["seat_players"][seat]
                head.update(game=number, player=who)
            yield (head, who, played, g, k,
                   lambda k=k, number=number: from_record(record, k, number))


# The typed-position options of ``cardlab analyze ass`` (Python names, for cardlab.analyze;
# docs/analyzing.md), with their defaults, in the order :func:`typed` reads them.
TYPED_OPTIONS = {"players": 4, "seat": 0, "hand": None, "sizes": None, "round": None,
                 "gone": None, "known": (), "just_took_ass": False, "totals": None,
                 "match_game": None}


def timeline_matrix(pos: Position, move: int, worlds: int, seed: int, index: int):
    """(worlds x seats minus points, the worlds' weights) when the decider of ``pos`` plays
    ``move`` (analysis.timeline's point): pimc's worlds and evaluation (its defaults) from
    stream WORLD_STREAM of (seed, index), as :func:`outcomes` draws them."""
    from analyzer.analysis.timeline import ass_step
    from analyzer.rng import new_state, seed_state

    rng = new_state()
    seed_state(rng, seed, index, WORLD_STREAM)
    trace = pos.trace if pos.trace is not None else np.full((0, 14), PASS, dtype=np.int64)
    return ass_step(pos.view.copy(), trace, move, worlds, pimc_params()[1], rng)


def timeline_move(record: dict[str, Any], part: int, index: int):
    """(the position before play ``index`` of game ``part`` of the record, the move played
    there), for the evaluation graph (analysis.timeline)."""
    number = part if record.get("mode") == "matches" else None
    pos = from_record(record, index, number)
    view = game_of(record, number)[0]
    r, p = plays_of(view)[index]
    rnd = view["rounds"][r]
    return pos, record_move(rnd["plays"][p], rnd["ass_round"])
