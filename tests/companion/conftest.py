"""Fixtures for the companion's tests: a hand-driven clock and a table service on a temporary journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.journal import Journal
from companion.table import TableService
from marmite.games import GAMES
from tests.companion.clock import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(tmp_path: Path, clock: Clock) -> TableService:
    return TableService(Journal.open(tmp_path), GAMES, clock=clock)
