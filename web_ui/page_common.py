"""What every page shows, whatever the game: lock state, CSRF token, settings, language, the log's announcements.

It sits below `web_ui.pages` and the game packages (`web_ui.games.*`), so both use it without a circle.
"""

from __future__ import annotations

from typing import Any

from companion.phrases import LANGUAGES
from web_ui.auth import csrf_token, unlocked
from web_ui.context import resources, service, settings


def common_context() -> dict[str, Any]:
    """The values base.html and the speech controls need on every page."""
    return {"unlocked": unlocked(), "csrf": csrf_token(), "settings": settings().current,
            "lang": service().language, "languages": LANGUAGES, "log_seed": log_seed,
            "last_seq": last_seq()}


def trick_word() -> str | None:
    """The current game's word for a trick in the log's headings ("étape" at the buffet), for every page
    (an app context processor: the log stands on pages that render without the common context)."""
    current = resources().pages.get(service().game_name)
    return current.trick_word(service().language) if current is not None else None


LOG_SEED = 5000
"""Announcements of the current game a page's log starts from: the whole game (a five-round game says
about 600), bounded."""


def log_seed() -> list[dict[str, Any]]:
    """The current game's announcements, oldest first, as the stream sends them (called by the log
    partial only): a page opened mid-game is not blank, and a new game's log does not carry the last's."""
    table = service()
    start = table.current_game or 0
    events = [m for m in table.messages_after(0) if m.is_event and m.seq >= start]
    return [table.render(m) for m in events[-LOG_SEED:]]


def last_seq() -> int:
    """The journal seq of the newest announcement the page shows; its stream resumes after it."""
    events = [m for m in service().messages_after(0) if m.is_event and m.stream_id is not None]
    return int(events[-1].stream_id or 0) if events else 0


def game_in_progress() -> bool:
    """True while a game is under way on the table: a new game replaces it, so the new-game forms ask first."""
    view = service().table_view()
    return bool(view["players"]) and view["phase"] != "game_over"
