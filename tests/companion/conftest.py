"""Fixtures for the companion's tests: a hand-driven clock and a table service on a temporary journal."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.robot_table import RobotDriver
from companion.table import TableService
from marmite.games import GAMES
from tests.companion.clock import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(tmp_path: Path, clock: Clock) -> TableService:
    return TableService(Journal.open(tmp_path), GAMES, clock=clock)


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[Callable[[], tuple[TableService, RobotDriver]]]:
    """Open the table in tmp_path with its robot driver (again after a close: a restart); both closed after."""
    made: list[tuple[TableService, RobotDriver]] = []

    def open_table() -> tuple[TableService, RobotDriver]:
        table = TableService.open(tmp_path, GAMES)
        driver = RobotDriver(table, think_ms=30).start()
        made.append((table, driver))
        return table, driver

    yield open_table
    for table, driver in made:
        driver.close()
        table.close()
