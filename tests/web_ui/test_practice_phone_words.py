"""A practice phone says why a card was not taken, in the table's language, and shows when it may play."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.chaud_devant.cards import ALL_CODES
from companion.table import TableService
from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import own_phone

PLAYERS = ["Ana", "Marmiton", "Cléo"]
HANDS = {name: sorted(ALL_CODES[i::4][:13]) for i, name in enumerate(PLAYERS)}


def _virtual_table(client: FlaskClient, service: TableService) -> None:
    """A practice table without cards, its hands and menus given by hand (no robot driver runs)."""
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual"}
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": PLAYERS, "dealer": "Ana", "robots": robots}).get_json()["accepted"]
    for name in PLAYERS:
        assert service.submit({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    for name in PLAYERS:
        if name != "Ana":  # a robot's menu is its own: noted just before, as the robot driver does
            assert service.submit({"type": "robot", "player": name, "menu": "none"}, "robot").accepted
        assert service.submit({"type": "menu", "player": name, "menu": "none"}).accepted
    assert service.state()["turn"] != "Ana"


def test_out_of_turn_the_phone_is_told_in_the_tables_language(app: Flask, client: FlaskClient,
                                                              service: TableService) -> None:
    _virtual_table(client, service)
    turn = service.state()["turn"]
    phone, token = own_phone(app, "Ana")
    page = phone.get("/fragment/seat/Ana").get_data(as_text=True)
    assert page.count('aria-disabled="true"') == 13  # every card button says it cannot be played yet
    answer = phone.post("/api/seat/Ana/play", headers={"X-CSRF-Token": token}, json={"card": HANDS["Ana"][0]})
    assert answer.status_code == 409
    assert answer.get_json()["text"] == f"Ce n’est pas votre tour : {turn} joue maintenant."
    client.post("/api/settings", headers=HEADERS, json={"language": "nl"})
    answer = phone.post("/api/seat/Ana/play", headers={"X-CSRF-Token": token}, json={"card": HANDS["Ana"][0]})
    assert answer.get_json()["text"] == f"Je bent niet aan de beurt: {turn} speelt nu."


def test_a_refused_card_says_its_rule_on_the_phone(app: Flask, client: FlaskClient, service: TableService) -> None:
    _virtual_table(client, service)
    while service.state()["turn"] != "Ana":
        state = service.game_state
        assert state is not None
        card = state.legal_actions()[0]["card"]
        assert service.submit({"type": "robot", "player": service.state()["turn"], "card": card}).accepted
        assert service.submit({"type": "card", "card": card}).accepted
    phone, token = own_phone(app, "Ana")
    state = service.game_state
    assert state is not None
    legal = {str(action["card"]) for action in state.legal_actions()}
    page = phone.get("/fragment/seat/Ana").get_data(as_text=True)
    assert page.count('aria-disabled="true"') == 13 - len(legal)  # her turn: only what the rules forbid
    answer = phone.post("/api/seat/Ana/play", headers={"X-CSRF-Token": token}, json={"card": HANDS["Cléo"][0]})
    body = answer.get_json()
    assert body["accepted"] is False
    said = [message for message in service.messages_after(0) if message.seq == body["seq"]]
    assert body["text"] == said[-1].text("fr") and body["text"]  # the table's own sentence for that rule


def test_the_phone_marks_exactly_the_cards_the_rules_allow(app: Flask, client: FlaskClient,
                                                          service: TableService) -> None:
    """The walk: "Aller à mes coups" put the focus on Pois 10 while Oignon was led and Ana held Oignon; the
    phone must mark the cards she may play (the keyboard goes to the first of them), no others."""
    _virtual_table(client, service)
    for _ in range(60):
        state = service.game_state
        assert state is not None
        legal = sorted(str(action["card"]) for action in state.legal_actions())
        turn = service.state()["turn"]
        if turn == "Ana" and len(legal) < len([c for c in HANDS["Ana"] if c not in state.progress.open_round.played]):
            break
        card = legal[0]
        if turn != "Ana":
            assert service.submit({"type": "robot", "player": turn, "card": card}).accepted
        assert service.submit({"type": "card", "card": card}).accepted
    else:
        raise AssertionError("Ana never had to follow a suit in this deal")
    phone, _ = own_phone(app, "Ana")
    page = phone.get("/fragment/seat/Ana").get_data(as_text=True)
    buttons = {chunk.split('"', 1)[0]: chunk.split(">", 1)[0] for chunk in page.split('data-card="')[1:]}
    assert sorted(card for card, attributes in buttons.items() if "data-playable" in attributes) == legal
    # a screen reader hears the others as unavailable (pressed anyway, the phone says the rule)
    assert sorted(card for card, attributes in buttons.items() if "aria-disabled" not in attributes) == legal
