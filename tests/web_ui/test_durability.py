"""Recording POSTs: Idempotency-Key (a resend is recorded once, across restarts), strict event bodies,
and storage trouble answered 503, announced, and cleared when writing works again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.events import MalformedEvent
from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app
from tests.web_ui.conftest import HEADERS, PIN, PLAYERS, new_game

CARD = {"type": "menu", "player": "Bruno", "menu": "pea"}


def keyed(key: str) -> dict[str, str]:
    return {**HEADERS, "Idempotency-Key": key}


def test_a_resent_event_gets_the_first_answer_and_is_recorded_once(client: FlaskClient,
                                                                   service: TableService) -> None:
    new_game(client)
    first = client.post("/api/events", json=CARD, headers=keyed("tap-1"))
    again = client.post("/api/events", json=CARD, headers=keyed("tap-1"))
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json() == {"accepted": True, "seq": 2}
    other = client.post("/api/events", json=CARD, headers=keyed("tap-2")).get_json()
    assert other["seq"] == 3 and other["accepted"] is True  # a new tap is a new event (a new choice)
    assert service.journal.last_seq == 3


def test_a_resent_undo_takes_back_one_play_only(client: FlaskClient, service: TableService) -> None:
    new_game(client)
    for player, menu in (("Virginie", "pea"), ("Bruno", "onion")):
        client.post("/api/events", json={"type": "menu", "player": player, "menu": menu}, headers=HEADERS)
    first = client.post("/api/undo", headers=keyed("undo-1")).get_json()
    assert client.post("/api/undo", headers=keyed("undo-1")).get_json() == first
    assert service.journal.last_seq == 4
    assert client.post("/api/undo", headers=keyed("undo-2")).get_json()["accepted"] is True


def test_a_resent_drop_is_recorded_once_even_after_the_double_read_window(client: FlaskClient,
                                                                        service: TableService) -> None:
    new_game(client)
    first = client.post("/api/drop", json={"code": "menu-pea@2"}, headers=keyed("drop-1")).get_json()
    assert first["accepted"] is True
    assert client.post("/api/drop", json={"code": "menu-pea@2"}, headers=keyed("drop-1")).get_json() == first
    assert service.journal.last_seq == first["seq"]


def test_the_first_answer_survives_a_restart(tmp_path: Path) -> None:
    service = TableService.open(tmp_path, GAMES)
    client = table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True}).test_client()
    new_game(client)
    first = client.post("/api/events", json={"type": "card", "card": "pea-1a"}, headers=keyed("k")).get_json()
    service.close()
    service = TableService.open(tmp_path, GAMES)
    client = table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True}).test_client()
    assert client.post("/api/events", json={"type": "card", "card": "pea-1a"}, headers=keyed("k")).get_json() \
        == first == {"accepted": False, "reason": "wrong_phase", "seq": 2}
    assert service.journal.last_seq == 2
    service.close()


def test_a_bad_key_is_a_400_and_records_nothing(client: FlaskClient, service: TableService) -> None:
    for bad in ("", "x" * 65, "two words", "clé", "tab\there"):
        for path, body in (("/api/events", CARD), ("/api/undo", {}), ("/api/drop", {"code": "pea-1a"})):
            answer = client.post(path, json=body, headers=keyed(bad))
            assert answer.status_code == 400, (bad, path)
            assert "Idempotency-Key" in answer.get_json()["error"]
    assert service.journal.last_seq == 0
    assert client.post("/api/events", json=CARD, headers=keyed("x" * 64)).status_code == 200
    assert client.post("/api/events", json=CARD, headers=keyed("!~")).status_code == 200


def test_strict_bodies_are_400_and_a_lone_surrogate_does_not_break_the_next_card(client: FlaskClient,
                                                                               service: TableService) -> None:
    new_game(client)
    raw = {
        "NaN": '{"type": "card", "card": NaN}',
        "Infinity": '{"type": "card", "card": "pea-1a", "x": -Infinity}',
        "surrogate": '{"type": "card", "card": "\\ud800"}',
        "deep": '{"type": "card", "card": "pea-1a", "x": ' + "[" * 20 + "]" * 20 + "}",
        "long": json.dumps({"type": "card", "card": "pea-1a", "x": "a" * 20_000}),
    }
    for name, body in raw.items():
        answer = client.post("/api/events", data=body, headers={**HEADERS, "Content-Type": "application/json"})
        assert answer.status_code == 400, name
        assert answer.get_json()["error"], name
    assert service.journal.last_seq == 1
    answer = client.post("/api/events", json={"type": "menu", "player": "Bruno", "menu": "pea"}, headers=HEADERS)
    assert answer.status_code == 200 and answer.get_json() == {"accepted": True, "seq": 2}


def test_a_lone_surrogate_submitted_directly_rolls_back(service: TableService) -> None:
    service.submit({"type": "new_game", "players": PLAYERS, "dealer": "Nicolas"})
    with pytest.raises(MalformedEvent, match="surrogate"):
        service.submit({"type": "card", "card": "\ud800"})
    assert not service.journal._db.in_transaction
    assert service.submit({"type": "menu", "player": "Bruno", "menu": "pea"}).seq == 2


def fill_the_disk(service: TableService) -> None:
    """SQLite's max_page_count: the database may not grow by one page more (no root needed)."""
    pages = service.journal._db.execute("PRAGMA page_count").fetchone()[0]
    service.journal._db.execute(f"PRAGMA max_page_count={pages}")


def test_a_full_disk_is_a_503_announced_then_cleared(client: FlaskClient, service: TableService) -> None:
    new_game(client)
    fill_the_disk(service)
    serial = service.last_serial
    full = None
    for number in range(400):  # the pages already there fill up first
        answer = client.post("/api/events", json={"type": "card", "card": f"tag:{number:040x}"}, headers=HEADERS)
        if answer.status_code != 200:
            full = answer
            break
    assert full is not None and full.status_code == 503
    assert full.get_json()["error"] == "the disk is full: nothing was recorded"
    seq, state = service.journal.last_seq, client.get("/api/state").get_json()
    assert client.post("/api/events", json=CARD, headers=HEADERS).status_code == 503
    assert (service.journal.last_seq, client.get("/api/state").get_json()) == (seq, state)
    said = [service.render(m)["text"] for m in service.messages_after(None, serial) if m.kind == "storage"]
    assert said == ["Le disque est plein : rien n'est enregistré."], "announced once, in French"
    assert client.get("/api/table").get_json()["storage"] == {"ok": False, "trouble": "full"}
    service.journal._db.execute("PRAGMA max_page_count=1073741823")
    assert client.post("/api/events", json=CARD, headers=HEADERS).get_json() == {"accepted": True, "seq": seq + 1}
    said = [service.render(m)["text"] for m in service.messages_after(None, serial) if m.kind == "storage"]
    assert said[-1] == "Le disque écrit de nouveau : les coups sont enregistrés."
    assert client.get("/api/table").get_json()["storage"] == {"ok": True, "trouble": None}


def test_a_settings_change_that_cannot_be_written_changes_nothing(client: FlaskClient, service: TableService,
                                                                  tmp_path: Path) -> None:
    (tmp_path / "web.json").mkdir()  # the file cannot be replaced, whoever runs the test
    answer = client.post("/api/settings", json={"language": "en"}, headers=HEADERS)
    assert answer.status_code == 503 and "nothing changed" in answer.get_json()["error"]
    assert client.get("/api/settings").get_json()["language"] == "fr"
    assert service.language == "fr"
