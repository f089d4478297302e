"""`POST /api/spoken`: only the table's voice (the PIN holder, a practice player's own phone) paces the robots."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from companion.robot_table import RobotDriver
from companion.table import TableService
from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import own_phone
from web_ui.resources import table_resources
from web_ui.robot_api import parse_spoken

PLAYERS = ["Ana", "Marmiton", "Cléo"]


def _driver(app: Flask, service: TableService) -> RobotDriver:
    driver = RobotDriver(service, think_ms=10)  # never started: only its pace is asked
    table_resources(app).attached.robots = driver
    return driver


def _start(client: FlaskClient, practice: str) -> None:
    robots: dict[str, Any] = {"seats": {"Marmiton": "debutant"}, "practice": practice}
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": PLAYERS, "dealer": "Cléo", "robots": robots}).get_json()["accepted"]


def test_the_pin_holder_and_a_practice_players_phone_speak_for_the_table(app: Flask, client: FlaskClient,
                                                                        service: TableService) -> None:
    driver = _driver(app, service)
    _start(client, "virtual")
    last = service.last_serial
    answer = client.post("/api/spoken", headers=HEADERS, json={"serial": last})
    assert answer.status_code == 200 and answer.get_json()["voices"] == ["table"]
    phone, token = own_phone(app, "Ana")
    answer = phone.post("/api/spoken", headers={"X-CSRF-Token": token}, json={"serial": last, "seat": "Ana"})
    assert answer.status_code == 200 and driver.pace.voices() == ["seat:Ana", "table"]
    phone.post("/api/spoken", headers={"X-CSRF-Token": token}, json={"serial": last, "seat": "Ana", "leaving": True})
    assert driver.pace.voices() == ["table"]


def test_a_stranger_cannot_pace_the_robots(app: Flask, client: FlaskClient, service: TableService) -> None:
    driver = _driver(app, service)
    _start(client, "virtual")
    stranger = app.test_client()
    assert stranger.post("/api/spoken", json={"serial": 1}).status_code == 401
    assert stranger.post("/api/spoken", json={"serial": 1, "seat": "Ana"}).status_code == 403
    assert stranger.post("/api/spoken", json={"serial": 1, "seat": "Marmiton"}).status_code == 403  # a robot
    assert driver.pace.voices() == []


def test_a_seat_phone_speaks_for_the_table_only_at_a_practice_table(app: Flask, client: FlaskClient,
                                                                   service: TableService) -> None:
    driver = _driver(app, service)
    _start(client, "")  # a real table: the tablet (or the Pi's speaker) is its voice
    phone, token = own_phone(app, "Ana")
    answer = phone.post("/api/spoken", headers={"X-CSRF-Token": token}, json={"serial": 1, "seat": "Ana"})
    assert answer.status_code == 403 and driver.pace.voices() == []


def test_a_bad_report_is_refused_and_changes_nothing(app: Flask, client: FlaskClient, service: TableService) -> None:
    driver = _driver(app, service)
    _start(client, "virtual")
    for body in ({}, {"serial": -1}, {"serial": service.last_serial + 1}, {"serial": True}, {"serial": "3"},
                 {"serial": 1, "leaving": "yes"}, {"serial": 1, "extra": 1}, [1]):
        assert client.post("/api/spoken", headers=HEADERS, json=body).status_code == 400
    assert driver.pace.voices() == []


@given(st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=3),
                 st.dictionaries(st.sampled_from(["serial", "seat", "leaving", "x"]),
                                 st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=50)))))
def test_parse_spoken_accepts_exactly_the_reports_it_describes(body: object) -> None:
    try:
        serial, seat, leaving = parse_spoken(body, 10)
    except ValueError:
        return
    assert isinstance(body, dict) and set(body) <= {"serial", "seat", "leaving"}
    assert body["serial"] == serial and 0 <= serial <= 10 and type(serial) is int
    assert seat == body.get("seat") and (seat is None or 0 < len(seat) <= 40)
    assert leaving is body.get("leaving", False)
