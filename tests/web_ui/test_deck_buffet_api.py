"""Sus au buffet !'s box at the deck desk through the HTTP API: enrollment and deck check by name."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from companion.buffet.plates import PHYSICAL_MOUSE_CARDS, STAND_IN_SET
from marmite.games import GAMES
from tests.web_ui.conftest import HEADERS

BOX = GAMES.kinds["buffet"].tag_codes  # 110 mouse cards, then the 42 possible plates
DECK = PHYSICAL_MOUSE_CARDS + STAND_IN_SET  # one box: 110 mouse cards and 36 plates


def uid(index: int) -> str:
    return f"05{index:012x}"


def post(client: FlaskClient, url: str, body: dict[str, Any]) -> Any:
    answer = client.post(url, json=body, headers=HEADERS)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def enroll(client: FlaskClient, action: str, **extra: str) -> Any:
    return post(client, "/api/deck/enroll", {"action": action, **extra})


def drop(client: FlaskClient, tag: str) -> Any:
    return post(client, "/api/drop", {"uid": tag})["deck"]


def import_box(client: FlaskClient) -> None:
    rows = "".join(f"{uid(i)},{code}\n" for i, code in enumerate(DECK))
    answer = client.post("/api/deck/import", data="uid,card\n" + rows, headers=HEADERS, content_type="text/csv")
    assert answer.status_code == 200, answer.get_json()


def test_buffet_cards_enrolled_by_name_with_a_refusal_a_skip_a_back_and_a_resume(client: FlaskClient) -> None:
    started = enroll(client, "start", game="buffet")
    assert started["text"] == "Souris moins un, exemplaire 1."
    activity = started["activity"]
    assert (activity["game"], activity["current"], activity["count"], activity["total"]) == \
        ("buffet", "mouse-n1@1", 0, 146)
    assert activity["current_name"] == "Souris moins un, exemplaire 1"
    assert drop(client, uid(0))["outcome"] == "learned"
    taken = drop(client, uid(0))
    assert taken["outcome"] == "taken"
    assert taken["text"] == ("Refusée : cette étiquette est déjà Souris moins un, exemplaire 1. "
                             "Souris moins un, exemplaire 2.")
    assert enroll(client, "skip")["activity"]["current"] == "mouse-n1@3"
    assert enroll(client, "back")["activity"]["current"] == "mouse-n1@2"
    assert drop(client, uid(1))["activity"]["count"] == 2
    assert enroll(client, "stop")["text"] == "Enregistrement arrêté ; il reprendra à cette carte."
    # Another game's box starts its own enrollment; this game's known cards stay known.
    assert enroll(client, "start", game="chaud_devant")["activity"]["current"] == "pea-0a"
    enroll(client, "stop")
    post(client, "/api/settings", {"language": "en"})
    assert enroll(client, "start", game="buffet")["text"] == "Mouse minus one, copy 3."
    enroll(client, "stop")
    post(client, "/api/settings", {"language": "nl"})
    resumed = enroll(client, "start")  # no game named: the stopped enrollment's game
    assert resumed["text"] == "Muis min één, exemplaar 3."
    assert resumed["activity"]["count"] == 2
    assert client.get("/api/deck").get_json()["decks"][0]["cards"] == 2


def test_a_plate_replaced_afterwards_starts_the_buffet_box(client: FlaskClient) -> None:
    redo = enroll(client, "redo", card="plate-cheese-3")
    assert redo["text"] == "Nouvelle étiquette pour : Fromage à 3."
    assert drop(client, "0badcafe")["outcome"] == "learned"
    assert enroll(client, "stop")["outcome"] == "stopped"
    assert client.get("/api/deck").get_json()["decks"][0]["cards"] == 1


def test_bad_game_names_are_refused_and_start_nothing(client: FlaskClient) -> None:
    for body in ({"action": "start", "game": "chess"}, {"action": "again", "game": 3},
                 {"action": "redo", "card": "mouse-7"}):
        answer = client.post("/api/deck/enroll", json=body, headers=HEADERS)
        assert answer.status_code == 400, body
    answer = client.post("/api/deck/check", json={"action": "start", "game": "chess"}, headers=HEADERS)
    assert answer.status_code == 400 and "chess" in answer.get_json()["error"]
    assert client.get("/api/deck").get_json()["activity"] is None


def test_a_box_of_110_mouse_cards_and_36_plates_completes_the_enrollment(client: FlaskClient) -> None:
    answer = enroll(client, "start", game="buffet")
    for index, code in enumerate(BOX):
        assert answer["activity"]["current"] == code
        answer = drop(client, uid(index)) if code in DECK else enroll(client, "skip")
    assert answer["text"].endswith("Enregistrement terminé : 146 sur 146.")
    assert answer["activity"] is None  # complete: the enrollment ended and gave the reader back
    assert client.post("/api/deck/enroll", json={"action": "stop"}, headers=HEADERS).status_code == 409


def test_buffet_deck_check_names_the_missing_unknown_and_doubled(client: FlaskClient) -> None:
    import_box(client)
    started = post(client, "/api/deck/check", {"action": "start", "game": "buffet"})
    assert started["text"] == "Passez tout le paquet au-dessus du lecteur."
    assert started["activity"]["game"] == "buffet" and started["activity"]["total"] == 146
    for index in range(1, len(DECK)):
        drop(client, uid(index))
    assert DECK[114] == "plate-cheese-3"
    assert drop(client, uid(114))["text"] == "Fromage à 3 : déjà vue."
    assert drop(client, "cafebabe")["text"] == "Étiquette inconnue."
    report = post(client, "/api/deck/check", {"action": "finish"})
    assert report["report"]["missing"] == ["mouse-n1@1"]
    assert report["report"]["unknown"] == ["cafebabe"]
    assert report["report"]["doubled"] == ["plate-cheese-3"]
    assert report["report"]["names"] == {"mouse-n1@1": "Souris moins un, exemplaire 1",
                                         "plate-cheese-3": "Fromage à 3"}
    assert "Pas vues : Souris moins un, exemplaire 1." in report["text"]
    post(client, "/api/deck/check", {"action": "start", "game": "buffet"})
    for index in range(len(DECK)):
        drop(client, uid(index))
    clean = post(client, "/api/deck/check", {"action": "finish"})
    assert clean["report"]["ok"] is True  # the six plates this box lacks are not expected
    assert "146" in clean["text"]
