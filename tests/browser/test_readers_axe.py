"""axe-core on the readers page (before and after a search), in French, English and Dutch, at tablet size."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, unlock
from tests.browser.test_axe_states import violations

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_readers_page_passes_axe(page: Any, server: Server, language: str) -> None:
    server.post("/api/settings", {"language": language})
    page.set_viewport_size({"width": 1024, "height": 768})
    unlock(page, server, "/readers")
    found = {"readers": violations(page, f"{language}-readers")}
    page.click("form[action='/readers/scan'] button[type=submit]")
    page.wait_for_url(f"{server.url}/readers")
    page.wait_for_selector("#reader-find-title")
    assert page.locator("table.readers-found, #reader-find-title ~ p").count() > 0
    found["readers-searched"] = violations(page, f"{language}-readers-searched")
    health = page.locator(".reader-health li").first.inner_text()
    assert health.startswith("sim"), health
    assert not any(found.values()), found
