"""The app's resources, for any blueprint: typed accessors over the one `TableResources` (see resources.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import request

from web_ui.resources import TableResources, table_resources

if TYPE_CHECKING:
    from companion.deck_desk import DeckDesk
    from companion.robot_table import RobotDriver
    from companion.table import TableService
    from web_ui.settings import SettingsStore


def resources() -> TableResources:
    """The current app's resources."""
    return table_resources()


def service() -> TableService:
    """The app's table service."""
    return table_resources().service


def settings() -> SettingsStore:
    """The app's display settings."""
    return table_resources().settings


def deck_desk() -> DeckDesk | None:
    """The deck desk the composition root built (None: no deck page actions)."""
    return table_resources().desk


def robot_driver() -> RobotDriver | None:
    """The robot driver, once the composition root attached it."""
    return table_resources().attached.robots


def client_address() -> str:
    """The request's client address (the socket's peer: proxy headers are not trusted)."""
    return request.remote_addr or "?"
