"""The deck desk through the HTTP API: drops by UID, deck files, enrollment, deck check, deal by tag."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.chaud_devant.cards import ALL_CODES
from companion.decks import DeckStore
from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app
from tests.web_ui.conftest import HEADERS, PIN
from tests.web_ui.seat_phone import claim
from web_ui.resources import table_resources

CODES = GAMES.kinds[GAMES.default].tag_codes  # a Chaud Devant box (the default game's cards)
FIVE = ["Ana", "Ben", "Cléo", "Dan", "Eva"]


def uid(index: int) -> str:
    return f"04{index:012x}"


def deck_file(count: int = len(CODES)) -> str:
    return "uid,card\n" + "".join(f"{uid(i)},{code}\n" for i, code in enumerate(CODES[:count]))


def post(client: FlaskClient, url: str, body: dict[str, Any]) -> Any:
    answer = client.post(url, json=body, headers=HEADERS)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def drop(client: FlaskClient, tag: str) -> Any:
    return post(client, "/api/drop", {"uid": tag})


def test_an_unknown_uid_is_refused_unknown_card_and_a_known_one_plays(client: FlaskClient) -> None:
    client.post("/api/deck/import", data="uid,card\n0a0b0c0d,pea-3a\n", headers=HEADERS, content_type="text/csv")
    client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": FIVE[:4], "dealer": "Dan"})
    for name, menu in zip(FIVE[:4], ("pea", "onion", "mushroom", "none"), strict=True):
        post(client, "/api/events", {"type": "menu", "player": name, "menu": menu})
    refused = drop(client, "DEADBEEF")
    assert refused["accepted"] is False and refused["reason"] == "unknown_card"
    assert client.get("/api/state").get_json()["pot"]["cards"] == []
    assert drop(client, "0A0B0C0D")["accepted"] is True
    assert drop(client, "0a0b0c0d") == {"ignored": True}
    assert client.get("/api/state").get_json()["pot"]["cards"] == ["pea-3a"]
    for bad in ({"uid": "xyz"}, {"uid": "abc"}, {"uid": 12}, {"code": "pea-3a", "uid": "0a0b0c0d"}, {}):
        assert client.post("/api/drop", json=bad, headers=HEADERS).status_code == 400
    assert client.post("/api/drop", json={"uid": "0a0b0c0d"}).status_code == 401


def test_a_deck_file_round_trips_and_a_bad_one_changes_nothing(client: FlaskClient, tmp_path: Path) -> None:
    assert client.post("/api/deck/import", data=deck_file(), headers=HEADERS,
                       content_type="text/csv").get_json()["imported"] == 77
    assert client.get("/api/deck/export", headers=HEADERS).get_data(as_text=True) == deck_file()
    bad = deck_file(3) + f"{uid(9)},pea-0a\n"
    answer = client.post("/api/deck/import", json={"csv": bad}, headers=HEADERS)
    assert answer.status_code == 400 and "row 5" in answer.get_json()["error"]
    assert client.get("/api/deck/export", headers=HEADERS).get_data(as_text=True) == deck_file()
    assert client.get("/api/deck/export").status_code == 401
    assert client.post("/api/deck/import", data=deck_file(), content_type="text/csv").status_code == 401


def enroll(client: FlaskClient, action: str, **extra: str) -> Any:
    return post(client, "/api/deck/enroll", {"action": action, **extra})


def test_a_whole_deck_enrolled_with_a_refusal_a_skip_a_back_and_a_resume_after_restart(
        app: Flask, client: FlaskClient, service: TableService, tmp_path: Path) -> None:
    started = enroll(client, "start")
    assert started["text"] == "Pois, zéro, bouillon — premier exemplaire."
    assert started["activity"]["count"] == 0 and started["activity"]["total"] == 77
    assert drop(client, uid(0))["deck"]["outcome"] == "learned"
    taken = drop(client, uid(0))["deck"]
    assert taken["outcome"] == "taken"
    assert taken["text"].startswith("Refusée : cette étiquette est déjà Pois, zéro, bouillon — premier exemplaire.")
    assert enroll(client, "skip")["activity"]["current"] == "pea-1a"
    assert enroll(client, "back")["activity"]["current"] == "pea-0b"
    assert drop(client, uid(1))["deck"]["activity"]["count"] == 2
    for index in range(2, 40):
        drop(client, uid(index))
    stopped = enroll(client, "stop")
    assert stopped["text"] == "Enregistrement arrêté ; il reprendra à cette carte."
    # While stopped, reads go to the game again (here: no game, so the card is refused and journaled).
    assert drop(client, uid(40))["accepted"] is False
    # A restart: a new table and app on the same data dir resume at the card where we stopped.
    service.close()
    table = TableService.open(tmp_path, GAMES)
    again = table_app(table, pin=PIN, data_dir=tmp_path, config={"TESTING": True}).test_client()
    resumed = enroll(again, "start")
    assert resumed["activity"]["current"] == CODES[40] and resumed["activity"]["count"] == 40
    for index in range(40, 77):
        answer = drop(again, uid(index))["deck"]
    assert answer["text"].endswith("Enregistrement terminé : 77 sur 77.")
    assert answer["activity"] is None  # the pass is over: the enrollment gave the reader back to the game
    assert again.post("/api/deck/enroll", json={"action": "stop"}, headers=HEADERS).status_code == 409  # none left
    assert DeckStore(tmp_path, CODES).load() == {uid(i): code for i, code in enumerate(CODES)}
    assert table.tags.lookup(uid(12)) == CODES[12]
    # A lost card replaced afterwards: a new tag for it, the old one forgotten.
    redo = enroll(again, "redo", card="onion-3b")
    assert redo["text"] == "Nouvelle étiquette pour : Oignon, trois — second exemplaire."
    assert drop(again, "0badcafe")["deck"]["outcome"] == "learned"
    assert table.tags.lookup("0badcafe") == "onion-3b"
    assert table.tags.lookup(uid(CODES.index("onion-3b"))) is None
    table.close()


def test_enrolling_names_cards_in_the_tables_language(client: FlaskClient) -> None:
    post(client, "/api/settings", {"language": "en"})
    assert enroll(client, "start")["text"] == "Pea, zero, bouillon — first copy."
    skipped = "Pea, zero, bouillon — first copy: skipped. Pea, zero, bouillon — second copy."
    assert enroll(client, "skip")["text"] == skipped


def test_deck_check_names_the_missing_unknown_and_doubled(client: FlaskClient, tmp_path: Path) -> None:
    client.post("/api/deck/import", data=deck_file(), headers=HEADERS, content_type="text/csv")
    assert post(client, "/api/deck/check", {"action": "start"})["text"] == "Passez tout le paquet au-dessus du lecteur."
    for index in range(1, 77):
        drop(client, uid(index))
    assert CODES[30] == "mushroom-1a"
    assert drop(client, uid(30))["deck"]["text"] == "Champignons, un — premier exemplaire : déjà vue."
    assert drop(client, "cafebabe")["deck"]["text"] == "Étiquette inconnue."
    report = post(client, "/api/deck/check", {"action": "finish"})
    assert report["report"]["missing"] == ["pea-0a"]
    assert report["report"]["unknown"] == ["cafebabe"]
    assert report["report"]["doubled"] == [CODES[30]]
    assert "Pas vues : Pois, zéro, bouillon — premier exemplaire." in report["text"]
    assert DeckStore(tmp_path, CODES).info().checked_at is None
    post(client, "/api/deck/check", {"action": "start"})
    for index in range(77):
        drop(client, uid(index))
    clean = post(client, "/api/deck/check", {"action": "finish"})
    assert clean["report"]["ok"] is True
    assert client.get("/api/deck").get_json()["decks"][0]["checked_at"] == clean["report"]["checked_at"]


def deal_round(client: FlaskClient, edition: str) -> dict[str, list[str]]:
    """A five-player game dealt by tag: the dealer passes every card, one at a time clockwise."""
    client.post("/api/deck/import", data=deck_file(), headers=HEADERS, content_type="text/csv")
    post(client, "/api/events", {"type": "new_game", "players": FIVE, "dealer": "Eva", "rules": {"edition": edition}})
    started = post(client, "/api/deck/deal", {"action": "start"})
    assert started["text"] == "Distribuez : chaque carte au-dessus du lecteur, en commençant par Ana."
    order = list(range(52))
    given = drop(client, uid(order[0]))["deck"]
    assert given["text"] == "Ben." and given["activity"]["count"] == 1
    drop(client, uid(order[1]))
    undone = post(client, "/api/deck/deal", {"action": "undo"})
    assert undone["text"] == "Annulé ; à Ben."
    assert drop(client, uid(order[0]))["deck"]["text"] == "Carte déjà distribuée ; à Ben."
    assert drop(client, uid(60))["deck"]["text"] == "Pas une carte de soupe ; à Ben."  # a menu card
    total = 52 if edition == "2005" else 50
    for index in order[1:total - 1]:
        drop(client, uid(index))
    last = drop(client, uid(order[total - 1]))["deck"]
    assert last["outcome"] == "complete" and last["text"] == "Distribution terminée."
    with client.application.test_request_context():
        return {name: client.get(f"/api/seat/{name}").get_json().get("hand") for name in FIVE}


@pytest.mark.parametrize("edition", ["2005", "2023"])
def test_a_five_player_deal_by_tag_then_the_referee_knows_the_hands(client: FlaskClient, edition: str) -> None:
    hidden = deal_round(client, edition)
    assert all(hand is None for hand in hidden.values())  # nobody's hand without their seat key
    app = client.application
    hands = {}
    for name in FIVE:
        phone = app.test_client()
        key = claim(phone, name)
        hands[name] = phone.get(f"/api/seat/{name}?k={key}").get_json()["hand"]
    sizes = [len(hands[name]) for name in FIVE]
    assert sizes == ([11, 11, 10, 10, 10] if edition == "2005" else [10] * 5)
    # Clockwise from Ana, one at a time: the i-th card passed went to seat i mod 5.
    assert ALL_CODES[0] in hands["Ana"]
    assert ALL_CODES[1] in hands["Ben"] and ALL_CODES[5] in hands["Ana"] and ALL_CODES[4] in hands["Eva"]
    for name, menu in zip(FIVE, ("pea", "onion", "mushroom", "pepper", "none"), strict=True):
        post(client, "/api/events", {"type": "menu", "player": name, "menu": menu})
    refused = drop(client, uid(ALL_CODES.index(hands["Ben"][0])))
    assert refused["accepted"] is False and refused["reason"] == "out_of_turn"
    undealt = [code for code in ALL_CODES if not any(code in hand for hand in hands.values())]
    assert len(undealt) == (0 if edition == "2005" else 2)
    for code in undealt:  # the 2023 edition leaves two cards out: nobody holds them
        refused = drop(client, uid(ALL_CODES.index(code)))
        assert refused["accepted"] is False and refused["reason"] == "not_in_hand"
    lead = next(code for code in hands["Ana"] if code.startswith("pea-") and code != "pea-x")
    assert drop(client, uid(ALL_CODES.index(lead)))["accepted"] is True
    assert any(code.startswith("pea-") for code in hands["Ben"])
    off_suit = next(code for code in hands["Ben"] if code.startswith("onion-"))
    refused = drop(client, uid(ALL_CODES.index(off_suit)))
    assert refused["accepted"] is False and refused["reason"] == "must_follow_suit"
    suit = "Pois" if edition == "2005" else "Insectes"
    assert f"Il faut fournir {suit} — règle 1" in refused_text(client)


def refused_text(client: FlaskClient) -> str:
    """The last announcement (a refusal names the rule)."""
    return str(client.post("/api/repeat").get_json()["text"])


def test_a_seat_page_shows_its_own_hand_only(client: FlaskClient) -> None:
    deal_round(client, "2005")
    app = client.application
    phone = app.test_client()
    key = claim(phone, "Ben")
    page = phone.get(f"/seat/Ben?k={key}").get_data(as_text=True)
    assert 'id="my-hand"' in page and "Lire ma main à voix haute" in page
    assert "Bouillon de Pois" in page and "Pois 3" in page  # pea-0b and pea-3a: the 2nd and 7th cards passed
    assert 'id="my-hand"' not in phone.get("/seat/Ana").get_data(as_text=True)
    assert 'id="my-hand"' not in app.test_client().get("/fragment/seat/Ben").get_data(as_text=True)


def test_a_game_dealt_by_tag_every_round_opens_the_next_deal_by_itself(client: FlaskClient) -> None:
    client.post("/api/deck/import", data=deck_file(), headers=HEADERS, content_type="text/csv")
    post(client, "/api/events", {"type": "new_game", "players": FIVE[:3], "dealer": "Cléo"})
    post(client, "/api/deck/deal", {"action": "start", "every_round": True})
    for index in range(39):
        last = drop(client, uid(index))["deck"]
    assert last["outcome"] == "complete"
    assert client.get("/api/deck").get_json()["activity"] is None  # the hands are in; play the round
    for name, menu in zip(FIVE[:3], ("pea", "onion", "mushroom"), strict=True):
        post(client, "/api/events", {"type": "menu", "player": name, "menu": menu})
    state = table_resources(client.application).service.game_state
    while state.progress.phase == "play":  # play the round out with legal cards
        card = state.legal_actions()[0]
        assert post(client, "/api/events", card)["accepted"] is True
    activity = client.get("/api/deck").get_json()["activity"]
    assert activity is not None and activity["kind"] == "deal" and activity["every_round"] is True
    assert activity["next"] == "Ben"  # round 2: the deal moved to Ana, so Ben gets the first card
    post(client, "/api/deck/deal", {"action": "cancel"})
    post(client, "/api/events", {"type": "new_game", "players": FIVE[:3], "dealer": "Cléo"})
    assert client.get("/api/deck").get_json()["activity"] is None  # chosen per game: a new game asks again


class WritingReader:
    """A reader with tag memory (companion.reads.TagMemory), as the RC522 has."""

    def __init__(self) -> None:
        self.codes = False

    def report_codes(self, on: bool) -> None:
        self.codes = on

    def write_card(self, uid: str, code: str) -> bool:
        return True


def test_self_describing_is_refused_aloud_with_a_reader_that_cannot_write(client: FlaskClient) -> None:
    """Before, it was accepted and each enrolled card said "Noted" with nothing written on its tag."""
    service = table_resources(client.application).service
    desk = table_resources(client.application).desk
    heard: list[Any] = []
    service.add_listener(heard.append)
    answer = client.post("/api/deck/self_describing", json={"on": True}, headers=HEADERS)
    refusal = ("Refusé : ce lecteur ne sait pas écrire sur les étiquettes, les cartes ne peuvent donc pas "
               "se présenter elles-mêmes.")
    assert answer.status_code == 400 and answer.get_json()["error"] == refusal
    assert [service.render(m)["text"] for m in heard] == [refusal]  # said to the table, not only shown
    assert client.get("/api/deck").get_json()["decks"][0]["self_describing"] is False
    desk.store.set_self_describing(True)  # set earlier with a reader that writes, now gone
    started = client.post("/api/deck/enroll", json={"action": "start"}, headers=HEADERS)
    assert started.status_code == 400 and started.get_json()["error"] == refusal
    assert client.get("/api/deck").get_json()["activity"] is None
    desk.attach_memory(WritingReader())
    post(client, "/api/deck/enroll", {"action": "start"})


def test_a_self_describing_card_the_deck_lacks_is_offered_then_added(client: FlaskClient) -> None:
    service = table_resources(client.application).service
    table_resources(client.application).desk.attach_memory(WritingReader())
    post(client, "/api/deck/self_describing", {"on": True})
    assert client.get("/api/deck").get_json()["decks"][0]["self_describing"] is True
    assert service.tag_seen("0badf00d", source="reader:rc522", written="onion-10") is None  # taken: offered
    assert client.get("/api/deck").get_json()["offers"] == {"0badf00d": "onion-10"}
    answer = post(client, "/api/deck/adopt", {"uid": "0badf00d"})
    assert answer["text"] == "Carte ajoutée au jeu : Oignon, dix."
    assert service.tags.lookup("0badf00d") == "onion-10"
    assert client.post("/api/deck/adopt", json={"uid": "0badf00d"}, headers=HEADERS).status_code == 400
    assert client.post("/api/deck/self_describing", json={"on": "yes"}, headers=HEADERS).status_code == 400


@pytest.mark.parametrize(("language", "asked", "said"), [
    ("fr", "Insectes, zéro, bouillon — premier exemplaire.",
     "Pas vues : Insectes, zéro, bouillon — second exemplaire ; Insectes, un — premier exemplaire ; "),
    ("en", "Insects, zero, bouillon — first copy.",
     "Not seen: Insects, zero, bouillon — second copy; Insects, one — first copy; "),
    ("nl", "Insecten, nul, bouillon — eerste exemplaar.",
     "Niet gezien: Insecten, nul, bouillon — tweede exemplaar; Insecten, één — eerste exemplaar; "),
])
def test_a_2023_deck_is_enrolled_checked_and_shown_by_its_editions_names(
        client: FlaskClient, language: str, asked: str, said: str) -> None:
    post(client, "/api/settings", {"language": language})
    assert client.post("/api/deck/new", json={"name": "Forêt", "edition": "1999"}, headers=HEADERS).status_code == 400
    assert [d["name"] for d in client.get("/api/deck").get_json()["decks"]] == ["main"]  # nothing changed
    decks = post(client, "/api/deck/new", {"name": "Forêt", "edition": "2023"})
    assert decks["editions"] == ["2005", "2023"] and decks["decks"][-1]["edition"] == "2023"
    assert post(client, "/api/deck/enroll", {"action": "start"})["text"] == asked
    drop(client, uid(0))
    post(client, "/api/deck/enroll", {"action": "stop"})
    post(client, "/api/deck/check", {"action": "start"})
    drop(client, uid(0))
    report = post(client, "/api/deck/check", {"action": "finish"})
    assert report["text"].startswith(said)
    page = client.get("/deck").get_data(as_text=True)
    assert asked.rstrip(".") in page and "Pois, zéro" not in page
    post(client, "/api/deck/edition", {"edition": "2005"})  # the box was a 2005 one after all
    assert post(client, "/api/deck/enroll", {"action": "start"})["text"].startswith(
        {"fr": "Pois, zéro", "en": "Pea, zero", "nl": "Erwten, nul"}[language])


def test_a_deal_under_way_ends_when_another_game_is_resumed(client: FlaskClient) -> None:
    """Found in review: a deal kept going after a resume and gave its hands to the resumed game."""
    client.post("/api/deck/import", data=deck_file(), headers=HEADERS, content_type="text/csv")
    post(client, "/api/events", {"type": "new_game", "players": FIVE[:3], "dealer": "Cléo"})
    first = table_resources(client.application).service.current_game
    post(client, "/api/events", {"type": "new_game", "players": ["Xavier", "Yann", "Zoé"], "dealer": "Zoé"})
    post(client, "/api/deck/deal", {"action": "start"})
    for index in range(5):
        drop(client, uid(index))
    assert client.get("/api/deck").get_json()["activity"]["kind"] == "deal"
    assert client.post(f"/api/games/{first}/resume", headers=HEADERS).status_code == 200
    assert client.get("/api/deck").get_json()["activity"] is None
    played = drop(client, uid(5))  # the next card is the resumed game's again, not the dead deal's
    assert "deck" not in played or played["deck"] is None


@pytest.mark.usefixtures("robot_driver")
def test_a_practice_deal_by_tag_deals_the_people_only_and_the_robots_virtually(client: FlaskClient,
                                                                             service: TableService) -> None:
    import time

    client.post("/api/deck/import", data=deck_file(), headers=HEADERS, content_type="text/csv")
    post(client, "/api/events", {"type": "new_game", "players": ["Ana", "Bot", "Cléo"], "dealer": "Cléo",
                                 "robots": {"seats": {"Bot": "chef"}, "practice": "cards", "pace_ms": 0}})
    started = post(client, "/api/deck/deal", {"action": "start"})
    assert started["activity"]["total"] == 26  # 13 for each person, none for the robot
    for index in range(26):
        drop(client, uid(index))
    deadline = time.monotonic() + 20
    while True:
        state: Any = service.game_state
        hands = state.progress.open_round.hands
        if len(hands) == 3:
            break
        assert time.monotonic() < deadline
        time.sleep(0.02)
    people = set(hands[0]) | set(hands[2])
    assert people == {ALL_CODES[i] for i in range(26)}  # the cards passed went to the people
    assert len(hands[1]) == 13 and not hands[1] & people  # the robot's from the cards left


def test_the_pin_header_reads_a_hand_dealt_by_tag_but_never_a_secret_menu(client: FlaskClient) -> None:
    """docs/CONTRACT_EXTENSIONS.md: `GET /api/seat/<name>` gives the known hand with the seat key or the PIN
    header (it answered `hand: null` to the PIN for a hand dealt by tag); the secret menu stays the phone's."""
    deal_round(client, "2005")
    phone = client.application.test_client()
    key = claim(phone, "Ana")
    own = phone.get(f"/api/seat/Ana?k={key}").get_json()["hand"]
    post(client, "/api/events", {"type": "menu", "player": "Ana", "menu": "pea"})
    host = client.get("/api/seat/Ana", headers=HEADERS).get_json()
    assert host["hand"] == own and len(own) == 11
    assert host["my_menu"] is None and host["playable"] == []  # the PIN opens no secret menu
    assert client.get("/api/seat/Ana").get_json()["hand"] is None  # nor does asking without it
    assert client.get("/api/seat/Ana", headers={"X-Table-Pin": "0000"}).get_json()["hand"] is None
