"""The table's services in one typed object, kept at one `app.extensions` key and read through accessors.

The composition root hands `create_app` a `TableServices` whole; the app adds what it owns (settings, seat
claims, limits) to make the `TableResources`. What is attached after the app exists (the robot driver, the
last reader search) has a typed slot in `Attached`, never a new key. The club's room on a table keeps its own
state under its own blueprint's key (`club.table.EXTENSION`), as a Flask extension does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

if TYPE_CHECKING:
    from companion.deck_desk import DeckDesk
    from companion.robot_table import RobotDriver
    from companion.table import TableService
    from web_ui.game_pages import PageTable
    from web_ui.limits import GuessWindow, RateLimit, StreamGate
    from web_ui.seats import SeatClaims
    from web_ui.settings import SettingsStore

RESOURCES_KEY = "marmite"
"""The one `app.extensions` key of the table's resources."""

Scanner = Callable[[], list[dict[str, Any]]]
"""Finds and tests the readers (a few seconds): one dict per reader (`reader`, `where`, `state`, `detail`,
`tags`, `arguments`, and `unsure`: it answers, but nothing says it reads contactless cards)."""


@dataclass(frozen=True, slots=True)
class TableServices:
    """What the composition root builds and hands to `create_app`: the table and the services around it.
    `pages`: every hosted game's pages (by game name); `desk`: the deck desk (none: no deck page actions);
    `reader_scan`: the tablet's search for readers (none: the page cannot search)."""

    service: TableService
    pages: PageTable
    desk: DeckDesk | None = None
    data_dir: Path | None = None
    reader_scan: Scanner | None = None


@dataclass(slots=True)
class Attached:
    """Typed slots for what joins the app after it is made: each is set by its one owner."""

    robots: RobotDriver | None = None
    """The robot driver (the composition root, once the table runs)."""
    reader_found: dict[str, Any] | None = None
    """The last reader search's results (the readers page)."""


@dataclass(frozen=True, slots=True)
class TableResources:
    """Everything a blueprint may reach: the root's services, the app's own, and the attached slots."""

    table: TableServices
    settings: SettingsStore
    claims: SeatClaims
    guesses: GuessWindow
    streams: StreamGate
    rates: Mapping[str, RateLimit]
    stop: threading.Event = field(default_factory=threading.Event)
    attached: Attached = field(default_factory=Attached)

    @property
    def service(self) -> TableService:
        return self.table.service

    @property
    def desk(self) -> DeckDesk | None:
        return self.table.desk

    @property
    def pages(self) -> PageTable:
        return self.table.pages

    @property
    def data_dir(self) -> Path | None:
        return self.table.data_dir


def keep_resources(app: Flask, resources: TableResources) -> None:
    """Keep the app's resources at their one key (create_app, once)."""
    app.extensions[RESOURCES_KEY] = resources


def table_resources(app: Flask | None = None) -> TableResources:
    """The resources of `app` (the current app by default)."""
    found = (app or current_app).extensions[RESOURCES_KEY]
    assert isinstance(found, TableResources)
    return found
