"""Sus au buffet !'s pages: its table (the ring, the buffet), seat, history and setup page, its deck words."""

from web_ui.games.buffet.pages import PAGES

__all__ = ["PAGES"]
