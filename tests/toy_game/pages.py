"""Relay's pages: the squares on the table, a player's square on their phone."""

from __future__ import annotations

from tests.toy_game.rules import KIND
from web_ui.game_pages import GamePages


class RelayPages(GamePages):
    title = "Relay"

    def __init__(self) -> None:
        super().__init__(KIND.name, __name__)


PAGES = RelayPages()
