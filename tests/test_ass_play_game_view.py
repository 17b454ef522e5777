"""engine.play_game leaves the view's public state as it always did: play_packed no longer
writes the cards gone and the table back into the view (once per game, every game), so
play_game rebuilds them from the hands before and after."""

import numpy as np

from analyzer.engines.ass.engine import OK, TRACE_WIDTH, canonical_deck, deal, play_game
from analyzer.games.ass.cards import DECK_SIZE, JOKER, PUB_TABLE, VIEW_LEN, PublicView
from analyzer.games.ass.rules import AssRules
from analyzer.rng import new_state, seed_state
from strategies.ass.catalog import BASIC, HEURISTIC


def test_play_game_leaves_the_cards_gone_and_an_empty_table_in_the_view():
    n = 4
    rules = AssRules.for_players(n)
    families = np.array([BASIC, HEURISTIC, BASIC, BASIC], dtype=np.int64)
    params = np.zeros((n, 8))
    template = canonical_deck().astype(np.uint8)
    for index in range(6):
        rng = new_state()
        seed_state(rng, 5, index, 0)
        view = np.zeros(VIEW_LEN, dtype=np.int64)
        hands = np.zeros((n, 16), dtype=np.int64)
        starter = deal(rng, n, rules.per_player, template, np.empty(DECK_SIZE, np.uint8),
                       hands, view)
        view[PUB_TABLE:PUB_TABLE + 16] = 7  # stale: play_game must leave the table empty
        dealt = hands.sum(axis=0)
        trace = np.empty((1, TRACE_WIDTH), dtype=np.int64)
        taken = np.zeros(n, dtype=np.int64)
        _, _, status = play_game(hands, starter, -1, n, families, params, view, rng, trace,
                                 False, taken, (True, None))
        assert status == OK
        gone = PublicView(view).gone[: JOKER + 1]
        # every dealt card is in a hand or gone, and only played cards are gone
        assert (gone + hands.sum(axis=0)[: JOKER + 1] == dealt[: JOKER + 1]).all()
        assert gone.sum() > 0 and (PublicView(view).table == 0).all()
