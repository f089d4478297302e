"""Chaud Devant !'s pages: its table, seat, history and setup form, its deck words and printable checklist."""

from web_ui.games.chaud_devant.pages import PAGES

__all__ = ["PAGES"]
