"""The table's services in one frozen object at one `app.extensions` key, handed to create_app whole."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from flask import Flask

from companion.table import TableService
from web_ui import context
from web_ui.resources import RESOURCES_KEY, TableResources, table_resources

ROOT = Path(__file__).resolve().parents[2]


def test_the_app_keeps_its_resources_at_one_key(app: Flask, service: TableService, tmp_path: Path) -> None:
    assert [key for key in app.extensions if "marmite" in key] == [RESOURCES_KEY]
    kept = table_resources(app)
    assert isinstance(kept, TableResources) and kept.service is service and kept.data_dir == tmp_path
    with pytest.raises(dataclasses.FrozenInstanceError):
        kept.table = kept.table  # type: ignore[misc]
    with app.test_request_context():
        assert context.resources() is kept and context.robot_driver() is None
        assert context.deck_desk() is kept.desk is not None
        assert context.service() is service and context.settings() is kept.settings


def test_no_product_module_reaches_a_resource_by_a_string_key() -> None:
    found = [str(path.relative_to(ROOT)) for top in ("web_ui", "marmite", "companion", "club")
             for path in (ROOT / top).rglob("*.py")
             if re.search(r"""extensions(\[|\.get\()["']marmite\.""", path.read_text(encoding="utf-8"))]
    assert found == []
