"""Fixtures for the drills in process: a table service on a temporary data dir and its Flask app."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app

PIN = "975310"
HEADERS = {"X-Table-Pin": PIN}
PLAYERS = ["Anna", "Bert", "Chloé", "Dirk"]


@pytest.fixture
def service(tmp_path: Path) -> TableService:
    return TableService.open(tmp_path, GAMES)


@pytest.fixture
def app(service: TableService, tmp_path: Path) -> Flask:
    return table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True})
