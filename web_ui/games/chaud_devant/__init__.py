"""Chaud Devant !'s pages: its table, seat, history and setup form, its deck words and printable checklist.

Loaded on demand (`pages()`): a command that serves no page (`marmite reader test`, `replay`…) never
imports Flask and the templates' helpers, which cost a Pi Zero seconds at start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from web_ui.game_pages import GamePages


def pages() -> GamePages:
    """This game's pages, imported when the web app is built."""
    from web_ui.games.chaud_devant.pages import PAGES

    return PAGES
