"""At a real table a robot's card is shown on the table view and said by the T key, not only spoken once."""

from __future__ import annotations

import html

from flask.testing import FlaskClient

from companion.chaud_devant.cards import ALL_CODES
from companion.table import TableService
from tests.web_ui.conftest import HEADERS

PLAYERS = ["Ana", "Marmiton", "Cléo"]
HANDS = {name: sorted(ALL_CODES[i::4][:13]) for i, name in enumerate(PLAYERS)}


def up_to_the_robots_turn(client: FlaskClient, service: TableService, headers: dict[str, str] = HEADERS) -> None:
    """A real table where Marmiton is a robot chef: hands scanned, menus chosen, cards played to its turn."""
    assert client.post("/api/events", headers=headers, json={
        "type": "new_game", "players": PLAYERS, "dealer": "Ana",
        "robots": {"seats": {"Marmiton": "chef"}}}).get_json()["accepted"]
    for name in PLAYERS:
        assert service.submit({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    for name in PLAYERS:
        if name == "Marmiton":  # a robot's menu is its own: noted just before, as the robot driver does
            assert service.submit({"type": "robot", "player": name, "menu": "none"}, "robot").accepted
        assert service.submit({"type": "menu", "player": name, "menu": "none"}).accepted
    while service.state()["turn"] != "Marmiton":
        state = service.game_state
        assert state is not None
        assert service.submit(state.legal_actions()[0]).accepted


def test_the_robots_card_is_on_the_table_view_and_in_the_turn_fact(client: FlaskClient,
                                                                    service: TableService) -> None:
    up_to_the_robots_turn(client, service)
    assert 'id="robot-ask"' not in client.get("/fragment/table").get_data(as_text=True)  # not chosen yet
    state = service.game_state
    assert state is not None
    card = str(state.legal_actions()[0]["card"])
    assert service.submit({"type": "robot", "player": "Marmiton", "card": card}, source="robot").accepted
    page = html.unescape(client.get("/fragment/table").get_data(as_text=True))
    asked = [message.text("fr") for message in service.messages_after(0) if message.kind == "robot"][-1]
    assert f'id="robot-ask">{asked}</p>' in page  # shown, as it was said
    turn_fact = page.split('data-fact="turn">')[1].split("</p>")[0]
    assert turn_fact == f"À Marmiton de jouer. {asked}"  # and T says it
    assert service.submit({"type": "card", "card": card}).accepted
    assert 'id="robot-ask"' not in client.get("/fragment/table").get_data(as_text=True)  # played: gone


def test_the_tablet_offers_no_private_menu_choice_for_a_robot_seat(client: FlaskClient) -> None:
    """A robot chooses its own secret menu: the host cannot choose it in its place by mistake."""
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": PLAYERS, "dealer": "Ana",
        "robots": {"seats": {"Marmiton": "chef"}}}).get_json()["accepted"]
    page = client.get("/unlock").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    client.post("/unlock", data={"pin": HEADERS["X-Table-Pin"], "csrf_token": token})
    table = html.unescape(client.get("/fragment/table").get_data(as_text=True))
    assert "Choisir en privé : Ana" in table and "Choisir en privé : Cléo" in table
    assert "Choisir en privé : Marmiton" not in table


def test_a_robot_seats_page_never_says_your_turn(client: FlaskClient, service: TableService) -> None:
    """Issue 30: a robot's seat page opened on the tablet said "À vous de jouer !" as if a person played it."""
    up_to_the_robots_turn(client, service)
    robot = html.unescape(client.get("/fragment/seat/Marmiton").get_data(as_text=True))
    assert 'id="my-turn"' not in robot and "À vous de jouer" not in robot
    state = service.game_state
    assert state is not None
    assert service.submit({"type": "robot", "player": "Marmiton", "card": str(state.legal_actions()[0]["card"])},
                          source="robot").accepted
    assert service.submit({"type": "card", "card": str(state.legal_actions()[0]["card"])}).accepted
    person = html.unescape(client.get("/fragment/seat/" + service.state()["turn"]).get_data(as_text=True))
    assert 'id="my-turn"' in person  # a person's seat keeps its cue


def test_a_buffet_robot_seats_page_never_says_your_turn(client: FlaskClient, service: TableService) -> None:
    """Issue 30: at a real Sus au buffet ! table a robot's seat page said "À vous de dévoiler !" at its turn."""
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": ["Ana", "Ben", "Cléo"], "first": "Ana",
        "robots": {"seats": {"Ben": "debutant"}}}).get_json()["accepted"]
    for plate in ("plate-cheese-3", "plate-pizza-2", "plate-potato-1", "plate-chicken-0", "plate-salad-n1"):
        assert service.submit({"type": "plate", "plate": plate}).accepted
    assert service.state()["turn"] == "Ana"
    person = html.unescape(client.get("/fragment/seat/Ana").get_data(as_text=True))
    assert 'id="my-turn"' in person  # a person's seat keeps its cue
    assert service.submit({"type": "card", "card": "mouse-7"}).accepted
    assert service.state()["turn"] == "Ben"
    robot = html.unescape(client.get("/fragment/seat/Ben").get_data(as_text=True))
    assert 'id="my-turn"' not in robot and "À vous" not in robot
    assert "À Ben de dévoiler" in robot  # whose turn it is, said as of anyone
