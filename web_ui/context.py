"""The app's resources, for any blueprint: the table service and the display settings."""

from __future__ import annotations

from flask import current_app, request

from companion.table import TableService
from web_ui.settings import SettingsStore


def service() -> TableService:
    """The app's table service."""
    table: TableService = current_app.extensions["marmite.service"]
    return table


def settings() -> SettingsStore:
    """The app's display settings."""
    store: SettingsStore = current_app.extensions["marmite.settings"]
    return store


def client_address() -> str:
    """The request's client address (the socket's peer: proxy headers are not trusted)."""
    return request.remote_addr or "?"
