"""Robot seats over HTTP: learning aids only at a practice table, a human's card from their phone at a
fully virtual table, a robot's hand entered by the host, the robot setup page."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.chaud_devant.cards import ALL_CODES
from companion.table import TableService
from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import own_phone
from web_ui.app import HINT_BURST
from web_ui.seats import seat_key

PLAYERS = ["Ana", "Marmiton", "Cléo"]
HANDS = {name: sorted(ALL_CODES[i::4][:13]) for i, name in enumerate(PLAYERS)}


def _start(client: FlaskClient, robots: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": PLAYERS, "dealer": "Cléo", "robots": robots})
    result: dict[str, Any] = answer.get_json()
    return result


def _deal_and_choose(service: TableService) -> None:
    for name in PLAYERS:
        assert service.submit({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    for name in PLAYERS:
        if service.robots.is_robot(name):  # a robot's menu is its own: noted first, as the robot driver does
            assert service.submit({"type": "robot", "player": name, "menu": "none"}, source="robot").accepted
        assert service.submit({"type": "menu", "player": name, "menu": "none"}).accepted


def test_learning_aids_are_impossible_without_robots_and_off_by_default(app: Flask, client: FlaskClient,
                                                                      service: TableService) -> None:
    refused = _start(client, {"aids": True})
    assert (refused["accepted"], refused["reason"]) == (False, "bad_setup")
    assert _start(client, {})["accepted"]  # no robots at all
    _deal_and_choose(service)
    phone, token = own_phone(app, "Ana")
    answer = phone.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token})
    assert answer.status_code == 403 and "learning aids are off" in answer.get_json()["error"]
    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "cards"})["accepted"]  # aids left off
    _deal_and_choose(service)
    phone, token = own_phone(app, "Ana")
    assert phone.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token}).status_code == 403
    assert "practice-hint" not in phone.get("/fragment/seat/Ana").get_data(as_text=True)


def test_the_chef_advises_on_the_players_own_phone_only(app: Flask, client: FlaskClient,
                                                       service: TableService) -> None:
    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "cards", "aids": True})["accepted"]
    _deal_and_choose(service)
    phone, token = own_phone(app, "Ana")
    assert 'id="practice-hint"' in phone.get("/fragment/seat/Ana").get_data(as_text=True)
    before = service.journal.last_seq
    answer = phone.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token})
    body = answer.get_json()
    assert answer.status_code == 200 and body["text"].startswith("Le chef jouerait ")
    assert body["event"]["card"] in HANDS["Ana"]
    assert service.journal.last_seq == before  # advice is the player's own: nothing journaled or announced
    other = app.test_client()
    assert other.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token}).status_code == 403
    assert client.post("/api/seat/Ana/hint", headers=HEADERS).status_code == 403  # the PIN is no seat


def test_advice_is_bounded_per_phone(app: Flask, client: FlaskClient, service: TableService) -> None:
    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "cards", "aids": True})["accepted"]
    _deal_and_choose(service)
    phone, token = own_phone(app, "Ana")
    answers = [phone.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token}) for _ in range(HINT_BURST + 1)]
    assert [a.status_code for a in answers] == [200] * HINT_BURST + [429]  # each one is a search: not unbounded
    assert int(answers[-1].headers["Retry-After"]) >= 1


def test_a_virtual_practice_player_plays_from_the_phone_on_their_turn_only(app: Flask, client: FlaskClient,
                                                                          service: TableService) -> None:
    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "virtual"})["accepted"]
    _deal_and_choose(service)
    ana, token = own_phone(app, "Ana")
    assert 'class="big practice-play' in ana.get("/fragment/seat/Ana").get_data(as_text=True)
    state = service.game_state
    assert state is not None
    card = state.legal_actions()[0]["card"]
    answer = ana.post("/api/seat/Ana/play", json={"card": card}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 200 and answer.get_json()["accepted"] is True
    again = ana.post("/api/seat/Ana/play", json={"card": HANDS["Ana"][1]}, headers={"X-CSRF-Token": token})
    assert again.status_code == 409 and "not Ana's turn" in again.get_json()["error"]


def test_a_card_the_journal_cannot_keep_is_a_400_from_the_phone(app: Flask, client: FlaskClient,
                                                               service: TableService) -> None:
    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "virtual"})["accepted"]
    _deal_and_choose(service)
    ana, token = own_phone(app, "Ana")
    before = service.journal.last_seq
    for body in ('{"card": "%s"}' % ("x" * 20_000), '{"card": "\\ud800"}'):  # too long; a lone surrogate
        answer = ana.post("/api/seat/Ana/play", data=body, content_type="application/json",
                          headers={"X-CSRF-Token": token})
        assert answer.status_code == 400, answer.get_data(as_text=True)
        assert answer.get_json()["error"]
    assert service.journal.last_seq == before


def test_phone_play_is_refused_at_a_table_with_cards(app: Flask, client: FlaskClient, service: TableService) -> None:
    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "cards"})["accepted"]
    _deal_and_choose(service)
    ana, token = own_phone(app, "Ana")
    answer = ana.post("/api/seat/Ana/play", json={"card": HANDS["Ana"][0]}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 409
    assert "practice-play" not in ana.get("/fragment/seat/Ana").get_data(as_text=True)


def test_the_host_enters_a_buffet_robots_hand(client: FlaskClient, service: TableService) -> None:
    start = {"type": "new_game", "game": "buffet", "players": ["Ana", "Marmiton", "Cléo"], "first": "Ana",
             "robots": {"seats": {"Marmiton": "cuisinier"}}}
    assert client.post("/api/events", headers=HEADERS, json=start).get_json()["accepted"]
    cards = ["mouse-3", "mouse-3", "mouse-n1", "mouse-9", "mouse-0", "mouse-5", "mouse-6", "mouse-2", "mouse-1"]
    assert client.post("/api/robots/Marmiton/hand", json={"cards": cards}).status_code == 401
    answer = client.post("/api/robots/Marmiton/hand", headers=HEADERS, json={"cards": cards})
    assert answer.get_json()["accepted"] is True
    assert service.robots.hand("Marmiton") == tuple(cards)
    refused = client.post("/api/robots/Ana/hand", headers=HEADERS, json={"cards": cards}).get_json()
    assert (refused["accepted"], refused["reason"]) == (False, "not_a_robot")
    assert client.post("/api/robots/Marmiton/hand", headers=HEADERS, json={"cards": "mouse-3"}).status_code == 400


def test_the_robot_setup_page_offers_every_level_and_table(client: FlaskClient) -> None:
    page = client.get("/setup/robots").get_data(as_text=True)
    for value in ('value="debutant"', 'value="cuisinier"', 'value="chef"', 'value="cards"', 'value="virtual"'):
        assert value in page
    assert "Partie avec des robots" in page or "robots" in page
    assert client.get("/api/robots").get_json()["setup"]["seats"] == {}


def test_the_robot_page_lets_the_host_type_a_buffet_robots_cards(client: FlaskClient, service: TableService) -> None:
    start = {"type": "new_game", "game": "buffet", "players": ["Ana", "Marmiton", "Cléo"], "first": "Ana",
             "robots": {"seats": {"Marmiton": "chef"}}}
    assert client.post("/api/events", headers=HEADERS, json=start).get_json()["accepted"]
    assert client.post("/api/unlock", json={"pin": "2468"}).status_code == 200
    assert 'data-robot="Marmiton"' in client.get("/setup/robots").get_data(as_text=True)
    answer = client.post("/api/robots/Marmiton/hand", headers=HEADERS, json={"cards": ["mouse-n1", "mouse-10"]})
    assert (answer.get_json()["accepted"], answer.get_json()["reason"]) == (False, "unknown_card")
    assert client.post("/api/robots/Marmiton/hand", headers=HEADERS,
                       json={"cards": ["mouse-n1", "mouse-9"]}).get_json()["accepted"]
    assert 'value="-1 9"' in client.get("/setup/robots").get_data(as_text=True)


def test_a_robot_seat_has_no_link_and_its_hand_opens_on_no_phone(app: Flask, client: FlaskClient,
                                                                 service: TableService) -> None:
    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "cards"})["accepted"]
    _deal_and_choose(service)
    assert client.post("/api/unlock", json={"pin": "2468"}).status_code == 200
    setup = client.get("/setup").get_data(as_text=True)
    assert "/seat/Ana?k=" in setup and "/seat/Marmiton?k=" not in setup
    phone = app.test_client()
    with app.test_request_context():
        key = seat_key("Marmiton")
    assert phone.get(f"/api/seat/Marmiton?k={key}").get_json().get("hand") is None


def test_after_a_buffet_robots_exchange_the_host_sees_its_discards_and_types_only_the_new_cards(
        client: FlaskClient, service: TableService) -> None:
    start = {"type": "new_game", "game": "buffet", "players": ["Ana", "Marmiton", "Cléo"], "first": "Ana",
             "robots": {"seats": {"Marmiton": "chef"}}}
    assert client.post("/api/events", headers=HEADERS, json=start).get_json()["accepted"]
    hand = ["mouse-n1", "mouse-0", "mouse-0", "mouse-1", "mouse-2", "mouse-5", "mouse-6", "mouse-7", "mouse-8"]
    assert client.post("/api/robots/Marmiton/hand", headers=HEADERS, json={"cards": hand}).get_json()["accepted"]
    kept = hand[3:]
    exchange = {"type": "robot", "player": "Marmiton", "hand": kept, "swap": hand[:3]}
    assert service.submit(exchange, source="robot").accepted
    assert client.post("/api/unlock", json={"pin": "2468"}).status_code == 200
    page = client.get("/setup/robots").get_data(as_text=True)
    assert "-1 0 0" in page.split('class="robot-discards"')[1].split("</p>")[0]  # on the host's page only
    assert 'data-field="drawn"' in page and "(3)" in page
    spoken = " ".join(m.text("fr") for m in service.messages_after(0))
    assert "-1" not in spoken and "moins un" not in spoken
    added = client.post("/api/robots/Marmiton/hand", headers=HEADERS, json={"drawn": ["mouse-9", "mouse-3", "mouse-4"]})
    assert added.get_json()["accepted"] is True
    assert service.robots.hand("Marmiton") == tuple(sorted([*kept, "mouse-9", "mouse-3", "mouse-4"]))
    assert service.robots.discards("Marmiton") == ()
    assert 'class="robot-discards"' not in client.get("/setup/robots").get_data(as_text=True)
    assert client.post("/api/robots/Ana/hand", headers=HEADERS, json={"drawn": ["mouse-1"]}).status_code == 409


def test_sus_au_buffet_practice_without_cards_a_person_chooses_face_down_and_exchanges_from_the_phone(
        app: Flask, client: FlaskClient, service: TableService) -> None:
    players = ["Ana", "Bip", "Bop", "Bup"]
    start = {"type": "new_game", "game": "buffet", "players": players, "first": "Ana",
             "robots": {"seats": {"Bip": "chef", "Bop": "chef", "Bup": "chef"}, "practice": "virtual"}}
    assert client.post("/api/events", headers=HEADERS, json=start).get_json()["accepted"]
    hand = ["mouse-n1", "mouse-0", "mouse-1", "mouse-2", "mouse-3", "mouse-4", "mouse-5", "mouse-6", "mouse-7"]
    for name in players:  # what the table's robot driver deals virtually
        assert service.submit({"type": "robot", "player": name, "hand": hand}, source="robot").accepted
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1"):
        assert service.submit({"type": "plate", "plate": plate}, source="robot").accepted
    ana, token = own_phone(app, "Ana")
    fragment = ana.get("/fragment/seat/Ana").get_data(as_text=True)
    assert fragment.count('class="big practice-play"') == 9 and "Choisir moins un" in fragment
    assert 'class="big practice-play"' not in client.get("/fragment/seat/Bip").get_data(as_text=True)
    assert 'id="practice-hand"' not in client.get("/fragment/seat/Ana").get_data(as_text=True)  # her phone only
    headers = {"X-CSRF-Token": token}
    answer = ana.post("/api/seat/Ana/play", json={"card": "mouse-9"}, headers=headers).get_json()
    assert (answer["accepted"], answer["reason"]) == (False, "robot_not_due")  # not in its hand: nothing chosen
    assert ana.post("/api/seat/Ana/play", json={"card": "mouse-n1"}, headers=headers).get_json()["accepted"]
    fragment = ana.get("/fragment/seat/Ana").get_data(as_text=True)
    assert "face cachée : moins un" in fragment and "practice-play" not in fragment
    assert service.state()["positions"]["Ana"] == 0  # chosen, not turned over
    assert ana.post("/api/seat/Ana/swap", json={"cards": []}, headers=headers).status_code == 409  # not due
    for name in players[1:]:
        assert service.submit({"type": "robot", "player": name, "card": "mouse-5"}, source="robot").accepted
    assert service.submit({"type": "card", "card": "mouse-3"}, source="robot").reason == "not_robot_card"
    for card in ("mouse-n1", "mouse-5", "mouse-5", "mouse-5"):  # what the driver turns over, in order
        assert service.submit({"type": "card", "card": card}, source="robot").accepted
    assert "Ana" not in service.state()["in_round"]  # Ana's mouse left first: she may exchange
    fragment = ana.get("/fragment/seat/Ana").get_data(as_text=True)
    assert 'id="practice-swap"' in fragment
    assert ana.post("/api/seat/Ana/swap", json={"cards": ["mouse-9"]}, headers=headers).status_code == 409
    swapped = ana.post("/api/seat/Ana/swap", json={"cards": ["mouse-0", "mouse-1"]}, headers=headers).get_json()
    assert swapped["accepted"] is True
    kept = service.robots.hand("Ana")
    assert kept is not None and len(kept) == 8 and "mouse-n1" not in kept
    assert 'id="practice-swap"' not in ana.get("/fragment/seat/Ana").get_data(as_text=True)
    assert any("Ana échange 2 cartes" in m.text("fr") for m in service.messages_after(0))


def test_at_a_buffet_practice_the_game_names_the_advice_and_hides_robots_choices_until_their_reveal(
        app: Flask, client: FlaskClient, service: TableService) -> None:
    players = ["Ana", "Bip", "Bop", "Bup"]
    start = {"type": "new_game", "game": "buffet", "players": players, "first": "Ana",
             "robots": {"seats": {"Bip": "chef", "Bop": "chef", "Bup": "chef"}, "practice": "virtual", "aids": True}}
    assert client.post("/api/events", headers=HEADERS, json=start).get_json()["accepted"]
    hand = ["mouse-n1", "mouse-0", "mouse-1", "mouse-2", "mouse-3", "mouse-4", "mouse-5", "mouse-6", "mouse-7"]
    for name in players:
        assert service.submit({"type": "robot", "player": name, "hand": hand}, source="robot").accepted
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1"):
        assert service.submit({"type": "plate", "plate": plate}, source="robot").accepted
    ana, token = own_phone(app, "Ana")
    advice = ana.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token}).get_json()
    assert advice["text"].startswith("Le chef jouerait la souris ")  # the game's phrase: a mouse card
    for name in players[1:]:
        assert service.submit({"type": "robot", "player": name, "card": "mouse-5"}, source="robot").accepted
    assert client.get("/api/robots").get_json()["asks"] == []  # chosen face down: named at the reveal only
    assert ana.post("/api/seat/Ana/play", json={"card": "mouse-0"}, headers={"X-CSRF-Token": token}
                    ).get_json()["accepted"]  # whoever's turn it is: a choice made face down
    assert service.submit({"type": "card", "card": "mouse-0"}, source="robot").accepted  # Ana's, turned over
    asks = client.get("/api/robots").get_json()["asks"]
    assert [(ask["player"], ask["card"]) for ask in asks] == [("Bip", "mouse-5")]  # its reveal is due


def test_the_advice_gives_its_reason_counted_over_the_deals_in_the_tables_language(
        app: Flask, client: FlaskClient, service: TableService) -> None:
    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "cards", "aids": True})["accepted"]
    _deal_and_choose(service)
    phone, token = own_phone(app, "Ana")
    said = {}
    for language in ("fr", "en", "nl"):
        assert client.post("/api/settings", json={"language": language}, headers=HEADERS).status_code == 200
        body = phone.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token}).get_json()
        said[language] = (body["lang"], body["text"])
    card = r"[^.]+"
    often = {"fr": r"(dans \d donnes? sur \d|presque à chaque donne|dans toutes les donnes)",
             "en": r"(in \d deals? out of \d|in almost every deal|in every deal)",
             "nl": r"(in \d van de \d gevallen|in bijna alle gevallen|in alle gevallen)"}
    assert re.fullmatch(rf"Le chef jouerait ({card})\. \1 vous (laisse sans pli|fait prendre le pli) {often['fr']}\.",
                        said["fr"][1]), said
    assert re.fullmatch(rf"The chef would play ({card})\. \1 (leaves you without the trick|makes you take the trick)"
                        rf" {often['en']}\.", said["en"][1]), said
    assert re.fullmatch(rf"De chef zou ({card}) spelen\. Met \1 (blijf je zonder slag|neem je de slag) {often['nl']}\.",
                        said["nl"][1]), said
    assert [lang for lang, _ in said.values()] == ["fr", "en", "nl"]
    assert "Pourquoi" not in said["fr"][1]  # the counted reason stands instead of the robot's own line


def test_a_persons_menu_for_a_robot_seat_is_refused_and_changes_nothing(app: Flask, client: FlaskClient,
                                                                         service: TableService) -> None:
    assert _start(client, {"seats": {"Marmiton": "chef"}})["accepted"]  # a real table: the robot's menu is secret
    for name in PLAYERS:
        assert service.submit({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    before = client.get("/api/state").get_json()
    answer = client.post("/api/events", headers=HEADERS,
                         json={"type": "menu", "player": "Marmiton", "menu": "onion"}).get_json()
    assert (answer["accepted"], answer["reason"]) == (False, "robot_chooses_menu")
    assert client.get("/api/state").get_json() == before
    said = [m.text("en") for m in service.messages_after(0)]
    assert "Refused: Marmiton is a robot and chooses its own menu; nothing was changed." in said
    assert client.post("/api/events", headers=HEADERS, json={"type": "menu", "player": "Ana", "menu": "none"}
                       ).get_json()["accepted"]  # a person's own menu as before
    # the robot's own menu, noted first as the robot driver does, is taken
    assert service.submit({"type": "robot", "player": "Marmiton", "menu": "onion"}, source="robot").accepted
    assert service.submit({"type": "menu", "player": "Marmiton", "menu": "onion"}, source="robot").accepted


def test_the_table_marks_a_new_game_with_robots_and_a_log_without_the_mark_replays_as_before(
        client: FlaskClient, service: TableService) -> None:
    """A journal written before robots noted their menus (no mark, no notes) must still replay: the gate holds
    only in a game the table marked when it journaled it."""
    from companion.referee import Referee
    from marmite.games import GAMES

    assert _start(client, {"seats": {"Marmiton": "chef"}})["accepted"]
    journaled = next(record.body for record in service.journal.records() if record.body["type"] == "new_game")
    assert journaled["robots"]["menus"] == "noted"
    old = Referee(GAMES)
    start = {"type": "new_game", "players": PLAYERS, "dealer": "Cléo", "robots": {"seats": {"Marmiton": "chef"}}}
    assert old.apply(start).accepted
    for name in PLAYERS:
        assert old.apply({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    assert old.apply({"type": "menu", "player": "Marmiton", "menu": "onion"}).accepted  # as robots wrote it then
    assert old.decide({**start, "robots": {"seats": {"Marmiton": "chef"}, "menus": "always"}}) == "bad_setup"


def test_a_practice_tables_pages_carry_its_robot_seats_a_real_tables_do_not(client: FlaskClient) -> None:
    """The page says which seats are robots from its first line (the brief profile keeps a person's cue, not
    a robot's turn); before, it learnt them from the first fragment's header, a message late."""
    import json as jsonlib
    import re as regex
    from html import unescape

    assert _start(client, {"seats": {"Marmiton": "chef"}, "practice": "cards"})["accepted"]
    found = regex.search(r'data-practice-robots="([^"]*)"', client.get("/", headers=HEADERS).get_data(as_text=True))
    assert found is not None and jsonlib.loads(unescape(found.group(1))) == ["Marmiton"]
    assert _start(client, {"seats": {"Marmiton": "chef"}})["accepted"]  # a real table: no practice seats
    assert "data-practice-robots" not in client.get("/", headers=HEADERS).get_data(as_text=True)
