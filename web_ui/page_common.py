"""What every page shows, whatever the game: lock state, CSRF token, settings, language, recent announcements.

It sits below `web_ui.pages` and the game packages (`web_ui.games.*`), so both use it without a circle.
"""

from __future__ import annotations

from typing import Any

from companion.phrases import LANGUAGES
from web_ui.auth import csrf_token, unlocked
from web_ui.context import service, settings


def common_context() -> dict[str, Any]:
    """The values base.html and the speech controls need on every page."""
    return {"unlocked": unlocked(), "csrf": csrf_token(), "settings": settings().current,
            "lang": service().language, "languages": LANGUAGES, "recent": recent_announcements(),
            "last_seq": last_seq()}


def recent_announcements(count: int = 10) -> list[str]:
    """The last game announcements, newest first, so a page opened mid-game is not blank."""
    table = service()
    events = [m for m in table.messages_after(0) if m.is_event]
    return [table.render(m)["text"] for m in reversed(events[-count:])]


def last_seq() -> int:
    """The journal seq of the newest announcement the page shows; its stream resumes after it."""
    events = [m for m in service().messages_after(0) if m.is_event and m.stream_id is not None]
    return int(events[-1].stream_id or 0) if events else 0
