"""Plus-Minus Jass positions for analysis: from records, from typed input, and their values.

A :class:`Position` holds only what the player to move may know (J-11): its own hand and the
public state of the deal (``st``, ``played``, ``taken``: primitives' layout), which is built
by replaying the public order of play from the deal's start with the engine's ``play_card``
(trump fixing, voids and the bans the play proves, trick winners). The other hands are never
handed to it: a recorded position is rebuilt from the decider's hand and the cards played,
exactly as a typed one, so no hidden card can reach the analysis.

:func:`analyze` rolls out every legal card on the same worlds (kernels.jass_outcomes: the
worlds ``pimc`` with its defaults draws, by its own ``draw_worlds``; rollouts by its own
rollout preset, analyzer/analysis/model.py), so its best card is the card ``pimc`` would
play, up to cards within noise; :func:`pimc_card` asks ``pimc`` itself (tests and
benchmarks). Values: the sticks the player
gets from the deal (J-9, the standings and remembered ties included; higher is better) and
its card points (J-8). Cards that no rule can tell apart for the rest of the deal (a 6 and a
7 of one suit with no other seat's card between them, :func:`same_in_effect`) are one move
in effect: each is valued as the card of its set the evaluation values most
(:func:`valued_as`) and the advice names them as the same card.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.errors import CardlabError
from analyzer.games import registry as _registry
from analyzer.games.jass.cards import (
    N_RANKS,
    PAIR_SLOT,
    RANK_OF,
    SUIT_LETTERS,
    SUIT_OF,
    TRUMP_STRENGTH_R,
    card_name,
    card_points,
    hand_names,
    mask_cards,
    parse_card,
)
from analyzer.games.jass.primitives import (
    S_BAN,
    S_BEST_CARD,
    S_BEST_SEAT,
    S_DEAL_NO,
    S_DEALER,
    S_FIRST,
    S_FIXER,
    S_HIGH_TRUMP,
    S_LAST_WINNER,
    S_LEADER,
    S_LED,
    S_N,
    S_NTRICKS,
    S_STICKS,
    S_SWISS,
    S_TIES,
    S_TRUMP,
    ST_SIZE,
    SearchState,
)
from analyzer.numbers import NumberError, parse_int_list

# Worlds per position by default: the game's adapter declares it (GameParts.worlds)
DEFAULT_WORLDS = _registry.get("jass").parts.worlds
PLAIN_ORDER = np.arange(N_RANKS)  # J-1: the plain order, low to high, is the rank index
MOVE_NOUN = "card"  # what the advice calls one of the choices ("the only legal card")
WORLD_STREAM = 0
PIMC_STREAM = 1


@dataclass
class Position:
    """The decider's knowledge: ``seat``, ``hand`` (a card mask) and the public state."""

    seat: int
    hand: int
    st: np.ndarray
    played: np.ndarray
    taken: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)


def parse_cards(text: str, what: str) -> list[int]:
    """Cards of a list of typed card names (spaces or commas between them; the names players
    use, games.jass.names)."""
    from analyzer.games.jass.names import cards_of

    try:
        return cards_of(text)
    except ValueError as exc:
        raise CardlabError(f"{what}: {exc}") from None


def start_state(n: int, swiss: bool, first: int, deal_no: int, sticks: list[int],
                ties: Counter) -> np.ndarray:
    """The public state at the start of a deal (as engine.start_deal leaves it, with the
    match's remembered ties as engine.public_ties writes them)."""
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[S_N], st[S_SWISS] = n, int(swiss)
    st[S_TRUMP] = st[S_FIXER] = st[S_LED] = -1
    st[S_BEST_SEAT] = st[S_BEST_CARD] = st[S_HIGH_TRUMP] = st[S_LAST_WINNER] = -1
    st[S_FIRST] = st[S_LEADER] = first
    st[S_DEALER] = (first - 1) % n
    st[S_DEAL_NO] = deal_no
    st[S_NTRICKS] = 36 // n
    for i in range(n):
        st[S_STICKS + i] = sticks[i]
    for (a, b), count in ties.items():
        st[S_TIES + PAIR_SLOT[min(a, b), max(a, b)]] = count
    return st


def build(n: int, swiss: bool, first: int, deal_no: int, sticks: list[int], ties: Counter,
          history: list[int], hand_now: int, seat: int | None, source: str) -> Position:
    """Replay ``history`` (the deal's cards in playing order) from the deal's start knowing
    only the decider's hand; every card checked against what is public (a card played
    twice, a seat playing a card its earlier play proved it lacks, the decider's own cards
    legal from its hand). ``seat`` (None: whoever is to play) must be the seat to play."""
    from analyzer.engines.jass.engine import play_card
    from analyzer.games.jass.primitives import legal_mask
    from strategies.jass.play import to_move

    st = start_state(n, swiss, first, deal_no, sticks, ties)
    hands = np.zeros(4, dtype=np.uint64)
    played = np.zeros(4, dtype=np.uint64)
    taken = np.zeros(4, dtype=np.uint64)
    seen = hand_now
    if len(history) >= 36:
        raise CardlabError("the deal is over: every card has been played")
    me = _to_move_after(n, swiss, first, history)
    if seat is not None and seat != me:
        raise CardlabError(f"after the cards played, seat {me} is to play, not --seat {seat}")
    mine = hand_now | sum(1 << c for k, c in enumerate(history) if _seat_of(k, history, n,
                                                                              first, swiss) == me)
    ntr = 36 // n
    if bin(mine).count("1") != ntr:
        raise CardlabError(f"--hand holds {bin(hand_now).count('1')} cards; seat {me} has "
                           f"played {bin(mine).count('1') - bin(hand_now).count('1')}, so it "
                           f"must hold {ntr - (bin(mine).count('1') - bin(hand_now).count('1'))}"
                           f" ({ntr} dealt to each of {n} players)")
    hands[me] = np.uint64(mine)
    for k, card in enumerate(history):
        who = int(to_move(st))
        b = 1 << card
        trick, pos = divmod(k, n)
        what = f"trick {trick + 1} card {pos + 1} ({card_name(card)}, seat {who})"
        if who != me and seen & b:
            raise CardlabError(f"{what}: a card shown twice (in --hand or played before)")
        if who == me:
            if not int(hands[me]) & b:
                raise CardlabError(f"{what}: seat {me} is you, and the card is neither in "
                                   "--hand nor was it yours")
            if not int(legal_mask(hands[me], st)) & b:
                raise CardlabError(f"{what}: illegal for you with your hand (J-5, J-6)")
        elif int(st[S_BAN + who]) & b:
            raise CardlabError(f"{what}: seat {who}'s earlier play proved it does not hold "
                               "this card (it showed out, or could not trump, J-5/J-6)")
        seen |= b
        play_card(who, card, hands, played, taken, st)
    pos = Position(me, hand_now, st, played, taken, {"game": "jass", "source": source})
    pos.info.update(describe(pos))
    return pos


def _seat_of(k: int, history: list[int], n: int, first: int, swiss: bool) -> int:
    """The seat that played ``history[k]`` (the order of play is public, J-11)."""
    return _to_move_after(n, swiss, first, history[:k])


def _to_move_after(n: int, swiss: bool, first: int, history: list[int]) -> int:
    """The seat to play after ``history`` (tricks won by the rules, J-5..J-7)."""
    from analyzer.engines.jass.reference import trick_winner

    leader, trump = first, -1
    full = len(history) - len(history) % n
    for t in range(0, full, n):
        trick = history[t: t + n]
        for i, c in enumerate(trick):
            if trump < 0 and i > 0 and c // 9 != trick[0] // 9:
                trump = c // 9
        leader = (leader + trick_winner(trick, trump)) % n
    return (leader + len(history) % n) % n


def match_standing(record: dict[str, Any], d: int) -> tuple[int, list[int], Counter]:
    """(deal number, stick totals, remembered ties) before deal ``d`` of a record (J-9,
    J-10); a single deal has deal number 0 and no standings."""
    from analyzer.engines.jass.reference import pay_ties
    from analyzer.games.jass.sticks import deal_sticks

    n = record["players"]
    if record.get("mode") == "deals":
        return 0, [0] * n, Counter()
    pending: Counter = Counter()
    totals = [0] * n
    for deal in record["deals"][:d]:
        award, ties = deal_sticks(list(deal["points"]))
        pay_ties(pending, award, ties)
        totals = list(deal["totals"])
    return d + 1, totals, pending


def from_record(record: dict[str, Any], deal: int, move: int) -> Position:
    """The position before card ``move`` (0 = the deal's first card) of deal ``deal`` (0 =
    the first) of a match or deal record."""
    deals = record["deals"]
    if not 0 <= deal < len(deals):
        raise CardlabError(f"--deal {deal} is outside the record: it has deals 0 to "
                           f"{len(deals) - 1}")
    d = deals[deal]
    n = record["players"]
    history = [parse_card(c) for t in d["tricks"] for c in t["cards"]]
    if not 0 <= move < len(history):
        raise CardlabError(f"--move {move} is outside the deal: it has cards 0 to "
                           f"{len(history) - 1}")
    first = (int(d["dealer"]) + 1) % n
    seat = _to_move_after(n, False, first, history[:move])
    dealt = sum(1 << parse_card(c) for c in d["hands"][seat])
    mine = sum(1 << c for k, c in enumerate(history[:move])
               if _seat_of(k, history, n, first, False) == seat)
    deal_no, totals, ties = match_standing(record, deal)
    swiss = (record.get("rules") or {}).get("ruleset", "seed") == "swiss"  # J-6's default
    pos = build(n, swiss, first, deal_no, totals, ties,
                history[:move], dealt & ~mine, seat, "record")
    pos.info.update({"record_seed": record.get("seed"), "record_index": record.get("index"),
                     "deal": deal, "move": move})
    pos.info["typed"] = typed_options(pos.info, [card_name(c) for c in history[:move]], first)
    return pos


def typed_options(info: dict[str, Any], cards: list[str], first: int) -> str:
    """The ``cardlab analyze jass`` options that type this position by hand."""
    n = info["players"]
    out = [f"--players {n}", f"--hand '{' '.join(info['hand'])}'"]
    if cards:
        tricks = " / ".join(" ".join(cards[i: i + n]) for i in range(0, len(cards), n))
        out.append(f"--tricks '{tricks}'")
    out.append(f"--first {first}")
    if info["ruleset"] != "seed":
        out.append(f"--ruleset {info['ruleset']}")
    if "sticks" in info:
        out.append("--sticks " + ",".join(map(str, info["sticks"])))
        out += [f"--ties {pair}" for pair in info["ties"]]
    return " ".join(out)


def parse_sticks(text: str, n: int) -> list[int]:
    """``--sticks``: every seat's stick total before this deal, of a match still running
    (J-10: a match ends once one player has 7 or more sticks and more than every other)."""
    from analyzer.games.jass.rules import MAX_DEAL_CAP

    try:
        standings = parse_int_list(text, "--sticks")
    except NumberError as exc:
        raise CardlabError(f"{exc}; write {n} stick totals separated by commas") from None
    if len(standings) != n or min(standings) < 0:
        raise CardlabError(f"--sticks {text!r}: {n} stick totals (0 or more), one per seat")
    # a seat gains at most 2 sticks and one tie's bonus per deal (J-9) in at most deal_cap deals
    most = 3 * MAX_DEAL_CAP
    if max(standings) > most:
        raise CardlabError(f"--sticks {text!r}: a stick total before a deal is at most "
                           f"{most:,} (3 sticks per deal, at most {MAX_DEAL_CAP:,} deals)")
    top = max(standings)
    if top >= 7 and standings.count(top) == 1:
        raise CardlabError(f"--sticks {text!r}: seat {standings.index(top)} has {top} sticks, "
                           "7 or more and more than every other: the match is already over "
                           "(J-10)")
    return standings


def typed(players: int, hand: str, tricks: str | None, first: int, seat: int | None,
          trump: str | None, ruleset: str, sticks: str | None, ties: list[str]) -> Position:
    """A position typed by hand (docs/analyzing.md); every inconsistency a CardlabError."""
    n = players
    if n not in (3, 4):
        raise CardlabError(f"--players must be 3 or 4; got {n}")
    if ruleset not in ("seed", "swiss"):
        raise CardlabError(f"--ruleset must be seed or swiss; got {ruleset!r}")
    if not 0 <= first < n:
        raise CardlabError(f"--first must be a seat, 0 to {n - 1}; got {first}")
    if seat is not None and not 0 <= seat < n:
        raise CardlabError(f"--seat must be 0 to {n - 1}; got {seat}")
    own = parse_cards(hand, "--hand")
    if len(set(own)) != len(own):
        twice = next(card_name(c) for c in own if own.count(c) > 1)
        raise CardlabError(f"--hand: a card shown twice: {twice}")
    history: list[int] = []
    parts = (tricks or "").split("/") if (tricks or "").strip() else []
    for t, part in enumerate(parts):
        cards = parse_cards(part, f"--tricks trick {t + 1}")
        if len(cards) != n and t < len(parts) - 1:
            raise CardlabError(f"--tricks trick {t + 1} has {len(cards)} cards; every trick "
                               f"but the last has {n}")
        if len(cards) > n or not cards:
            raise CardlabError(f"--tricks trick {t + 1} has {len(cards)} cards; a trick has "
                               f"1 to {n}")
        history.extend(cards)
    dup = [c for c in history if history.count(c) > 1]
    if dup:
        raise CardlabError(f"--tricks: a card shown twice: {card_name(dup[0])}")
    both = [c for c in own if c in history]
    if both:
        raise CardlabError(f"a card shown twice: {card_name(both[0])} is in --hand and in "
                           "--tricks")
    standings = [0] * n
    deal_no = 0
    if sticks is not None:
        standings = parse_sticks(sticks, n)
        deal_no = 1
    pending: Counter = Counter()
    for item in ties:
        m = re.fullmatch(r"\s*([0-9])\s*-\s*([0-9])\s*", item)
        if not m or int(m.group(1)) == int(m.group(2)) or max(map(int, m.groups())) >= n:
            raise CardlabError(f"--ties {item!r}: write two different seats A-B, e.g. 0-2")
        a, b = sorted(map(int, m.groups()))
        pending[(a, b)] += 1
        deal_no = 1
    if n == 3 and pending:
        raise CardlabError("--ties: with 3 players no tie is remembered (J-9)")
    pos = build(n, ruleset == "swiss", first, deal_no, standings, pending, history,
                sum(1 << c for c in own), seat, "typed")
    if trump is not None:
        from analyzer.games.jass.names import suit_of

        try:
            want = suit_of(trump)
        except ValueError as exc:
            raise CardlabError(f"--trump: {exc}") from None
        have = SUIT_LETTERS[pos.st[S_TRUMP]] if pos.st[S_TRUMP] >= 0 else "none"
        if want != int(pos.st[S_TRUMP]):
            raise CardlabError(f"--trump {trump}: the tricks fix {have} as trump (the first "
                               "card that did not follow suit, J-5)")
    return pos


def describe(pos: Position) -> dict[str, Any]:
    """What the decider knows, for output (JSON-safe)."""
    st = SearchState(pos.st)
    n = st.n
    trump = st.trump
    points = [sum(card_points(c, trump) for c in mask_cards(int(pos.taken[i])))
              for i in range(n)]
    out: dict[str, Any] = {
        "players": n, "seat": pos.seat, "hand": hand_names(pos.hand),
        "trick": st.trick, "leader": st.leader,
        "table": [card_name(int(c)) for c in st.tcard[: st.pos]],
        "trump": SUIT_LETTERS[trump] if trump >= 0 else None,
        "fixer": st.fixer if trump >= 0 else None,
        "points": points, "ruleset": "swiss" if st.swiss else "seed",
        # J-5: no trump yet and none of the led suit in hand: the card played fixes trump
        "fixes_trump": bool(trump < 0 and st.pos > 0
                            and not any(c // 9 == st.led for c in mask_cards(pos.hand))),
        "played": [hand_names(int(pos.played[i])) for i in range(n)],
    }
    if st.deal_no > 0:
        out["sticks"] = [int(x) for x in st.sticks[:n]]
        out["ties"] = [f"{i}-{j}" for i in range(n) for j in range(i + 1, n)
                       for _ in range(int(st.ties[PAIR_SLOT[i, j]]))]
    return out


def legal_cards(pos: Position) -> list[int]:
    from analyzer.games.jass.primitives import legal_mask

    return mask_cards(int(legal_mask(np.uint64(pos.hand), pos.st)))


def prior_cards(pos: Position) -> list[int]:
    """The legal cards in ``pimc``'s prior order (search.prior_order: cheapest, dearest,
    second cheapest, ...), the order in which its search breaks ties: so among cards of
    exactly equal value the analysis names first the one ``pimc`` plays."""
    from strategies.jass.search import interleave, prior_order

    legal = np.uint64(sum(1 << c for c in legal_cards(pos)))
    ordered = np.zeros(12, dtype=np.int64)
    k = prior_order(legal, pos.st.copy(), ordered)
    out = np.zeros(12, dtype=np.int64)
    interleave(ordered, k, out)
    return [int(c) for c in out[:k]]


def same_in_effect(pos: Position, cards: list[int]) -> list[list[int]]:
    """``cards`` (legal cards of the decider's) in sets that are the same card in effect, each
    set in the order of ``cards``, the sets in the order of their first card.

    Two cards of one suit are the same card in effect when no rule can tell them apart for the
    rest of the deal: they score the same points under every trump the deal can still end
    with (J-8; J-5: the trump once fixed, before that any suit or none: so the 6 and the 7
    always, the 8 once trump is fixed, a plain 9 once another suit is trump), and every card
    of their suit ranked between them, in each order that can still rank them (J-1, J-7: the
    plain order while the suit can end plain, the trump order while it can become trump), is
    the decider's own or was played in an earlier trick. No other seat's card and no card on the
    table lies between them, so whichever is played, every trick is won by the same seat
    with the same points and every later card is as legal (J-6 ranks trumps only against
    the trick's cards): exchanging the two in any continuation of play changes nothing the
    rules count."""
    st = SearchState(pos.st)
    trump = int(st.trump)
    trumps = [trump] if trump >= 0 else [-1, 0, 1, 2, 3]  # -1: the deal ends with no trump
    played = 0
    for i in range(st.n):
        played |= int(pos.played[i])
    for c in st.tcard[: st.pos]:
        played &= ~(1 << int(c))  # the trick on the table: those cards still count
    free = played | int(pos.hand)  # cards that cannot lie between two of another seat's

    def between_free(a: int, b: int, strength) -> bool:
        lo, hi = sorted((int(strength[RANK_OF[a]]), int(strength[RANK_OF[b]])))
        suit = int(SUIT_OF[a])
        return all(free >> (suit * N_RANKS + r) & 1 for r in range(N_RANKS)
                   if lo < int(strength[r]) < hi)

    def same(a: int, b: int) -> bool:
        suit = int(SUIT_OF[a])
        if suit != int(SUIT_OF[b]):
            return False
        if any(card_points(a, t) != card_points(b, t) for t in trumps):
            return False
        if any(t != suit for t in trumps) and not between_free(a, b, PLAIN_ORDER):
            return False
        return suit not in trumps or between_free(a, b, TRUMP_STRENGTH_R)

    sets: list[list[int]] = []
    for c in cards:
        for group in sets:
            if same(group[0], c):
                group.append(c)
                break
        else:
            sets.append([c])
    return sets


def pimc_prm(worlds: int | None = None, continuation: str | None = None) -> np.ndarray:
    """``pimc``'s parameter vector with its defaults (model.search_values: the rollout
    replaced by ``continuation`` when given; ``worlds`` replaced when given)."""
    from analyzer.analysis.model import search_values
    from strategies.jass.knobs import P_WORLDS

    prm = np.array(search_values("jass", continuation), dtype=np.float64)
    if worlds is not None:
        prm[P_WORLDS] = worlds
    return prm


def pimc_card(pos: Position, seed: int, index: int = 0) -> int:
    """The card the real ``pimc`` (defaults) plays here (stream PIMC_STREAM of (seed,
    index))."""
    from analyzer.rng import new_state, seed_state
    from strategies.jass.search import pimc_card as search

    rng = new_state()
    seed_state(rng, seed, index, PIMC_STREAM)
    legal = np.uint64(sum(1 << c for c in legal_cards(pos)))
    return int(search(pimc_prm(), pos.seat, np.uint64(pos.hand), legal, pos.st.copy(),
                      pos.played.copy(), pos.taken.copy(), rng))


def outcomes(pos: Position, cards: list[int], worlds: int, seed: int, index: int = 0,
             values: tuple[float, ...] | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sticks, points) matrices, worlds x cards, and the worlds' weights
    (kernels.jass_outcomes): the worlds and evaluation of ``pimc`` with the parameter vector
    ``values`` (default: its defaults, model.search_values), ``worlds`` of them."""
    from analyzer.analysis.kernels import jass_outcomes
    from analyzer.rng import new_state, seed_state
    from strategies.jass.knobs import P_WORLDS

    rng = new_state()
    seed_state(rng, seed, index, WORLD_STREAM)
    sticks = np.zeros((worlds, len(cards)), dtype=np.float64)
    points = np.zeros((worlds, len(cards)), dtype=np.int64)
    weights = np.zeros(worlds, dtype=np.float64)
    prm = pimc_prm() if values is None else np.array(values, dtype=np.float64)
    prm[P_WORLDS] = worlds
    kept = jass_outcomes(prm, pos.seat, np.uint64(pos.hand),
                         pos.st.copy(), pos.played.copy(), pos.taken.copy(), rng,
                         np.array(cards, dtype=np.int64), sticks, points, weights)
    if kept < 0:
        raise CardlabError("no deal of the unseen cards fits this position (the play "
                           "proves more than the hand sizes allow)")
    return sticks[:kept], points[:kept], weights[:kept]


def analyze(pos: Position, worlds: int = DEFAULT_WORLDS, seed: int = 0, index: int = 0,
            continuation: str | None = None) -> dict[str, Any]:
    """``{"recommendation", "model", "position", "moves"}``: the advice in plain words first
    (model.advice), then every legal card's row (values.move_rows: sticks from the deal,
    higher is better; card points beside them), every legal card on the same worlds: pimc's
    own worlds and evaluation (its defaults), or with ``continuation`` every seat after the
    card playing that preset instead (a what-if)."""
    from analyzer.analysis.model import advice, rollout_name, search_values
    from analyzer.analysis.values import MIN_INTERVAL_WORLDS, TOO_FEW, move_rows

    values = search_values("jass", continuation)
    cards = prior_cards(pos)
    sticks, points, weights = outcomes(pos, cards, worlds, seed, index, values)
    # cards alike (same_in_effect) are one card by the rules: one value for each set
    groups = same_in_effect(pos, cards)
    column = valued_as(groups, cards, sticks, weights)
    sticks, points = sticks[:, column], points[:, column]
    rows = move_rows("jass", sticks, [card_name(c) for c in cards], None, {"points": points},
                     weights=weights)
    same_as = {card_name(c): card_name(g[0]) for g in groups for c in g[1:]}
    for row in rows:
        if row["move"] in same_as:
            row["same_as"] = same_as[row["move"]]
    info = {**pos.info, "worlds": int(sticks.shape[0]), "seed": seed,
            "unit": "sticks from the deal (higher is better); card points beside them",
            "continuation": rollout_name("jass", values),
            "worlds_from": "the hand, the cards played and what they prove (pimc's "
            f"infer={_infer(values)})"}
    if sticks.shape[0] < MIN_INTERVAL_WORLDS:
        info["intervals"] = TOO_FEW
    return {**advice("jass", rows, continuation, values), "position": info, "moves": rows}


def valued_as(groups: list[list[int]], cards: list[int], sticks: np.ndarray,
              weights: np.ndarray | None) -> list[int]:
    """For each of ``cards``, the column of ``sticks`` (worlds x cards, with the worlds'
    ``weights``) whose values the analysis gives it: its own, or, for cards alike (a set of
    ``groups``, :func:`same_in_effect`), the column of the set's card with the highest mean
    (the earlier in ``cards`` on a tie). By the rules the cards of a set are one card, so any
    way of playing on after one can be played after the other; the evaluation's players may
    still treat the two hands apart, and the best of them is what a player holding either
    can get. Its tie-break and arithmetic are the timeline's too (:func:`timeline_matrix`)."""
    from analyzer.analysis.values import world_means

    means = world_means(np.asarray(sticks, dtype=np.float64), weights)
    column = list(range(len(cards)))
    for group in groups:
        cols = [cards.index(c) for c in group]
        best = max(cols, key=lambda k: (means[k], -k))
        for k in cols:
            column[k] = best
    return column


def _infer(values: tuple[float, ...]) -> str:
    from strategies.jass.knobs import INFER_CHOICES, P_INFER

    return INFER_CHOICES[int(values[P_INFER])]


def record_plays(record: dict[str, Any]):
    """Every play of a record, in record order, as annotate reads it (analysis.annotate):
    (the head of its entry, the seat that made it, the card, the deal, the play's number in
    the deal, the position before it (a function))."""
    for d, deal in enumerate(record["deals"]):
        cards = [c for t in deal["tricks"] for c in t["cards"]]
        seat_of = [(t["leader"] + i) % record["players"] for t in deal["tricks"]
                   for i in range(len(t["cards"]))]
        for k, played in enumerate(cards):
            yield ({"seat": seat_of[k], "index": k, "deal": d}, seat_of[k], played, d, k,
                   lambda d=d, k=k: from_record(record, d, k))


# The typed-position options of ``cardlab analyze jass`` (Python names, for cardlab.analyze;
# docs/analyzing.md), with their defaults, in the order :func:`typed` reads them.
TYPED_OPTIONS = {"players": 4, "hand": None, "tricks": None, "first": 0, "seat": None,
                 "trump": None, "ruleset": "seed", "sticks": None, "ties": ()}


def timeline_matrix(pos: Position, card: int, worlds: int, seed: int, index: int):
    """(kept worlds x seats sticks from the deal, the worlds' weights) when the decider of
    ``pos`` plays ``card`` (analysis.timeline's point): pimc's worlds and evaluation, as
    :func:`outcomes` draws them; a card alike others (:func:`same_in_effect`) is evaluated
    as :func:`analyze` values it, as the card of its set valued most (:func:`valued_as`)."""
    from analyzer.analysis.timeline import jass_step
    from analyzer.rng import new_state, seed_state

    cards = prior_cards(pos)
    group = next((g for g in same_in_effect(pos, cards) if card in g), [card])
    got = []
    for member in group:
        rng = new_state()
        seed_state(rng, seed, index, WORLD_STREAM)
        step = jass_step(pimc_prm(worlds), pos.seat, np.uint64(pos.hand), pos.st.copy(),
                         pos.played.copy(), pos.taken.copy(), rng, member)
        if step is None:
            raise CardlabError("no deal of the unseen cards fits this position (the play "
                               "proves more than the hand sizes allow)")
        got.append(step)
    if len(group) > 1:
        own = np.stack([step[0][:, pos.seat] for step in got], axis=1)
        chosen = valued_as([group], group, own, got[0][2])[group.index(card)]
    else:
        chosen = 0
    return got[chosen][0], got[chosen][2]


def timeline_move(record: dict[str, Any], part: int, index: int):
    """(the position before play ``index`` of deal ``part`` of the record, the card played
    there), for the evaluation graph (analysis.timeline)."""
    from analyzer.games.jass.cards import parse_card

    cards = [c for t in record["deals"][part]["tricks"] for c in t["cards"]]
    return from_record(record, part, index), parse_card(cards[index])
