"""Fixtures: a table service on a temporary data dir, its Flask app, and its robot driver."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.robot_table import RobotDriver
from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app

PIN = "2468"
HEADERS = {"X-Table-Pin": PIN}
PLAYERS = ["Virginie", "Bruno", "Valentine", "Nicolas"]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    table = TableService.open(tmp_path, GAMES)
    yield table
    table.close()


@pytest.fixture
def app(service: TableService, tmp_path: Path) -> Flask:
    return table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def robot_driver(service: TableService) -> Iterator[RobotDriver]:
    """The table's robot driver, as `marmite run` starts it (thinking 30 ms a move); closed after."""
    driver = RobotDriver(service, think_ms=30).start()
    yield driver
    driver.close()


def new_game(client: FlaskClient, menu_reveal: str = "simultaneous") -> None:
    """Start a four-player game through the API."""
    answer = client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": PLAYERS, "dealer": "Nicolas", "rules": {"menu_reveal": menu_reveal}})
    assert answer.get_json()["accepted"] is True
