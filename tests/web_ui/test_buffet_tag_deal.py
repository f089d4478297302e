"""Sus au buffet ! dealt by tag through the real table: the people's real hands at a practice table (the
robot's drawn from the cards left, the chef's advice then possible), a robot's tray at a real table."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.buffet.plates import COPIES, MOUSE_CARDS
from companion.replay import replay
from companion.robot_table import RobotDriver
from companion.table import TableService
from marmite.games import GAMES
from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import own_phone

BOX = GAMES.kinds["buffet"].tag_codes  # 110 mouse cards (ten copies of each value), then the plates
UIDS = {code: f"05{index:012x}" for index, code in enumerate(BOX)}
PLAYERS = ["Ana", "Bip", "Cléo"]
PLATES = ("plate-cheese-3", "plate-potato-2", "plate-pizza-1", "plate-sausage-0", "plate-salad-5")  # five with three


def post(client: FlaskClient, url: str, body: dict[str, Any], status: int = 200) -> Any:
    answer = client.post(url, json=body, headers=HEADERS)
    assert answer.status_code == status, answer.get_json()
    return answer.get_json()


def drop(client: FlaskClient, code: str) -> Any:
    return post(client, "/api/drop", {"uid": UIDS[code]})


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


@pytest.fixture
def table(client: FlaskClient, service: TableService, robot_driver: RobotDriver) -> TableService:
    """The table with its robot driver and the whole box as its deck."""
    deck = "uid,card\n" + "".join(f"{uid},{code}\n" for code, uid in UIDS.items())
    assert client.post("/api/deck/import", data=deck, headers=HEADERS, content_type="text/csv").status_code == 200
    return service


def start(client: FlaskClient, practice: str, aids: bool = False) -> None:
    robots = {"seats": {"Bip": "chef"}, "practice": practice, "pace_ms": 0, "aids": aids}
    post(client, "/api/events", {"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Ana",
                                 "robots": robots})


def hand(service: TableService, name: str) -> tuple[str, ...] | None:
    with service.lock:
        return service.robots.hand(name)


def test_a_practice_deal_by_tag_knows_the_peoples_hands_and_draws_the_robot_from_the_cards_left(
        app: Flask, client: FlaskClient, table: TableService) -> None:
    start(client, "cards", aids=True)
    robot = wait_for(lambda: hand(table, "Bip"))  # dealt virtually at once, from the whole composition
    phone, token = own_phone(app, "Ana")
    assert phone.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token}).status_code == 409  # not known yet

    most = Counter(robot).most_common(1)[0][0]  # the people take every copy of the robot's commonest value
    others = [code for code in MOUSE_CARDS if code != most]
    ana = [f"{most}@{copy}" for copy in range(1, 10)]
    cleo = [f"{most}@10"] + [f"{others[i % len(others)]}@{1 + i // len(others)}" for i in range(8)]
    started = post(client, "/api/deck/deal", {"action": "start"})
    assert started["activity"]["total"] == 18 and started["activity"]["next"] == "Ana"  # the robot: none
    assert started["text"].startswith("Distribuez")
    before = table.journal.last_seq
    plate = drop(client, PLATES[0])["deck"]  # a plate is no mouse card: refused, said, nothing changed
    assert plate["outcome"] == "deal_not_a_mouse" and plate["text"] == "Pas une carte souris ; à Ana."
    passes = [card for pair in zip(ana, cleo, strict=True) for card in pair]  # clockwise from Ana, Bip skipped
    for card in passes[:-1]:
        drop(client, card)
    again = drop(client, ana[0])["deck"]  # the same physical card twice: refused, nothing changed
    assert again["outcome"] == "deal_already" and again["activity"]["count"] == 18 - 1
    drop(client, passes[-1])  # the last card completes the deal: both hands journaled together
    assert table.journal.last_seq > before
    assert hand(table, "Ana") == tuple(sorted([most] * 9))
    assert hand(table, "Cléo") == tuple(sorted(code.partition("@")[0] for code in cleo))
    redrawn = wait_for(lambda: (h := hand(table, "Bip")) and most not in h and h)  # its copies were all dealt
    assert len(redrawn) == 9
    held = Counter([*(hand(table, "Ana") or ()), *(hand(table, "Cléo") or ()), *redrawn])
    assert max(held.values()) <= COPIES  # no value held more often than the box holds it
    refused = post(client, "/api/deck/deal", {"action": "start"}, status=400)  # every hand is full
    assert "rien à distribuer" in refused["error"]
    assert table.journal.last_seq >= before and client.get("/api/deck").get_json()["activity"] is None

    for plate_code in PLATES:
        drop(client, plate_code)
    wait_for(lambda: table.state()["phase"] == "step")
    advice = phone.post("/api/seat/Ana/hint", headers={"X-CSRF-Token": token})
    assert advice.status_code == 200 and advice.get_json()["event"]["card"] == most  # her only value
    assert drop(client, ana[0])["accepted"] is True  # the reader turns her card over: her known hand shrinks
    assert hand(table, "Ana") == tuple([most] * 8)
    texts = [message.text("fr") for message in table.messages_after(0)]
    assert "Main d'Ana connue : 9 cartes." in texts
    assert not any(most in text for text in texts)  # the deal never names a dealt card aloud
    log = [record.body for record in table.journal.records() if record.accepted]
    assert {"type": "robot", "player": "Ana", "hand": [most] * 9} in log  # journaled as a known hand
    replayed = replay(list(enumerate(log, 1)), GAMES)  # `marmite replay` folds it like any game
    assert replayed["positions"] == table.state()["positions"] and replayed["refused"] == []


def test_at_a_real_table_the_robots_tray_is_dealt_by_tag(client: FlaskClient, table: TableService) -> None:
    start(client, "")
    started = post(client, "/api/deck/deal", {"action": "start"})
    assert started["activity"]["total"] == 9 and started["activity"]["next"] == "Bip"  # the people: none
    tray = [f"{code}@1" for code in list(MOUSE_CARDS)[:9]]
    for card in tray:
        drop(client, card)
    assert hand(table, "Bip") == tuple(sorted(code.partition("@")[0] for code in tray))
    texts = [message.text("en") for message in table.messages_after(0)]
    assert "Bip's hand is known: 9 cards." in texts
