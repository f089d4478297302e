"""The deck never bricks the table: one UID rule, refused before it is written and said; an unreadable deck
file set aside at start; a finished enrollment gives the reader back; a busy reader says so and how to free it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.decks import DeckError, DeckStore
from companion.table import TableService
from marmite.games import GAMES
from tests.drill.helpers import Running
from tests.web_ui.conftest import HEADERS
from web_ui.resources import table_resources

CODES = GAMES.kinds[GAMES.default].tag_codes
PLAYERS = ["Ana", "Ben", "Cléo", "Dan"]


def uid(index: int) -> str:
    return f"04{index:012x}"


def deck_file(count: int = len(CODES)) -> str:
    return "uid,card\n" + "".join(f"{uid(i)},{code}\n" for i, code in enumerate(CODES[:count]))


def post(client: FlaskClient, url: str, body: dict[str, Any]) -> Any:
    answer = client.post(url, json=body, headers=HEADERS)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def said_since(service: TableService, serial: int) -> list[str]:
    return [str(service.render(message)["text"]) for message in service.wait_after(serial, 0.1)]


@pytest.mark.parametrize("odd", ["04a1b2000000", "04a1b2c3d4e5f6a7", "0a0b0c", "04" * 16])
def test_a_uid_of_another_length_is_refused_said_and_never_written(client: FlaskClient, tmp_path: Path,
                                                                    odd: str) -> None:
    service: TableService = table_resources(client.application).service
    client.post("/api/deck/import", data=deck_file(70), headers=HEADERS, content_type="text/csv")
    post(client, "/api/deck/enroll", {"action": "start"})
    deck = sorted((tmp_path / "decks").glob("*.csv"))[0]
    before = deck.read_bytes()
    serial = service.last_serial
    answer = client.post("/api/drop", json={"uid": odd}, headers=HEADERS)
    assert answer.status_code == 400 and "4, 7 or 10 bytes" in answer.get_json()["error"]
    assert f"Refusé : {odd} n'est pas l'UID d'une étiquette (4, 7 ou 10 octets) ; rien n'est noté." in said_since(
        service, serial)
    taken = table_resources(client.application).desk.tag_seen(odd)  # the same from a reader
    assert taken["outcome"] == "not_a_uid" and "rien n'est noté" in taken["text"]
    assert deck.read_bytes() == before
    assert client.get("/deck", headers=HEADERS).status_code == 200
    assert client.post("/api/drop", json={"uid": uid(70)}, headers=HEADERS).status_code == 200  # enrollment goes on
    with pytest.raises(DeckError, match="not a UID"):
        DeckStore(tmp_path, GAMES.tag_codes()).save({odd: CODES[0]})
    assert deck.read_bytes() != before and odd not in deck.read_text()


def test_marmite_run_starts_with_an_unreadable_deck_set_aside_and_says_so(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = DeckStore(data, GAMES.tag_codes())
    store.import_file(deck_file(10))
    bad = store.folder / store.info().file
    bad.write_text(deck_file(10) + f"04a1b2000000,{CODES[10]}\n", encoding="utf-8")  # what an older table wrote
    server = Running(data).start()  # refused to start before (exit 2)
    try:
        status, _, _ = server.request("GET", "/deck", headers={"X-Table-Pin": server.pin})
        assert status == 200
        status, _, body = server.request("GET", "/api/deck", headers={"X-Table-Pin": server.pin})
        assert status == 200 and b"illisible" in body and b"unreadable-" in body
        assert server.play({"type": "new_game", "players": PLAYERS, "dealer": "Dan"})[1]["accepted"]
    finally:
        server.stop()
    assert b"set aside" in server.stderr and b"04a1b2000000" in server.stderr
    assert not bad.exists() and len(list(store.folder.glob("*.unreadable-*"))) == 1  # kept, never deleted


def test_a_finished_enrollment_gives_the_reader_back_to_the_game(client: FlaskClient) -> None:
    client.post("/api/deck/import", data=deck_file(len(CODES) - 1), headers=HEADERS, content_type="text/csv")
    post(client, "/api/deck/enroll", {"action": "start"})
    last = post(client, "/api/drop", {"uid": uid(len(CODES) - 1)})["deck"]
    assert last["outcome"] == "learned" and "77 sur 77" in last["text"]
    assert client.get("/api/deck").get_json()["activity"] is None  # closed at the end
    post(client, "/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Dan"})
    for name, menu in zip(PLAYERS, ("pea", "onion", "mushroom", "none"), strict=True):
        post(client, "/api/events", {"type": "menu", "player": name, "menu": menu})
    played = post(client, "/api/drop", {"uid": uid(5)})
    assert "deck" not in played and "accepted" in played  # the game took the card
    again = post(client, "/api/deck/enroll", {"action": "start"})  # "start or resume" on a complete deck
    assert "77 sur 77" in again["text"] and client.get("/api/deck").get_json()["activity"] is None
    assert post(client, "/api/deck/check", {"action": "start"})["outcome"] == "started"


@pytest.mark.parametrize(("first", "then", "said"), [
    (("/api/deck/enroll", {"action": "start"}), ("/api/deck/check", {"action": "start"}),
     "Le lecteur enregistre le jeu de cartes : les cartes ne sont pas jouées. Pour le libérer, appuyez sur"
     " « Arrêter (reprendre plus tard) » sur la page Jeu de cartes."),
    (("/api/deck/check", {"action": "start"}), ("/api/deck/enroll", {"action": "start"}),
     "Le lecteur vérifie le jeu de cartes : les cartes ne sont pas jouées. Pour le libérer, appuyez sur"
     " « Terminer » sur la page Jeu de cartes."),
])
def test_a_busy_reader_says_so_and_how_to_free_it(client: FlaskClient, first: tuple[str, dict[str, Any]],
                                                  then: tuple[str, dict[str, Any]], said: str) -> None:
    service: TableService = table_resources(client.application).service
    client.post("/api/deck/import", data=deck_file(40), headers=HEADERS, content_type="text/csv")
    post(client, *first)
    serial = service.last_serial
    refused = client.post(then[0], json=then[1], headers=HEADERS)
    assert refused.status_code == 409 and refused.get_json()["error"] == said
    assert said in said_since(service, serial)  # on every display and spoken
    client.application.config["BABEL_DEFAULT_LOCALE"] = "en"
    post(client, "/api/settings", {"language": "en"})
    english = client.post(then[0], json=then[1], headers=HEADERS).get_json()["error"]
    assert english.startswith("The reader is ") and "To free it, press" in english
