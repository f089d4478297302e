"""A table service on a temporary data dir, for the composition root's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table import TableService
from marmite.games import GAMES


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    table = TableService.open(tmp_path, GAMES)
    yield table
    table.close()
