"""The analysis board's server sends what its page used to work out from the game's name:
the analysed position in one line (each game's board module's ``line``, the words the page
wrote before) and the name of the column the rows carry beside the value (``extra_name``)."""

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ASS = {"players": 4, "seat": 0, "hand": "3 3 8 J", "sizes": "4,6,5,9", "gone": "1 1 2",
       "known": ["3:A"]}
ASS_FOLLOW = dict(ASS, round="5 5", seat=1, sizes="4,5,5,9", hand="3 3 8 8 J")
JASS = {"players": 4, "hand": "B6 B9 S10 SU R7 A6 AU AA", "tricks": "R10 RK R6 RA"}


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from analyzer.board.app import make_app

    with TestClient(make_app()) as c:
        yield c


@pytest.mark.parametrize("game, fields, line, extra", [
    ("ass", ASS, "Who's the Ass?, 4 players: seat 0 leads; hand 3 3 8 J; hand sizes 4, 6, 5, 9",
     None),
    ("ass", ASS_FOLLOW, "Who's the Ass?, 4 players: seat 1 plays into a normal round: table "
     "5 5; hand 3 3 8 8 J; hand sizes 4, 5, 5, 9", None),
    ("jass", JASS, "Plus-Minus Jass, 4 players: seat 3 to play, trick 2, on the table -; hand "
     "B6 B9 S10 SU R7 A6 AU AA; trump not fixed", "card points"),
], ids=["ass-lead", "ass-follow", "jass"])
def test_the_server_sends_the_position_line_and_the_extra_columns_name(client, game, fields,
                                                                       line, extra):
    r = client.post("/api/analyze", json={"game": game, "typed": fields, "worlds": 10,
                                          "seed": 1})
    assert r.status_code == 200, r.text
    page = r.json()
    assert page["position_line"] == line
    assert page["extra_name"] == extra
