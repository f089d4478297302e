"""The setup page in Chromium: the dealer chosen by name, refusals explained in the page's language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, unlock

pytestmark = pytest.mark.browser


def _names(page: Any, names: list[str]) -> None:
    for index, name in enumerate(names):
        page.fill(f"#player-{index}", name)


def test_setup_speaks_french_to_the_host(page: Any, server: Server) -> None:
    page.goto(server.url + "/setup")
    _names(page, ["Anne", "Bruno", "Chloé"])
    assert page.locator("#dealer option:not([disabled])").all_inner_texts() == ["Anne", "Bruno", "Chloé"]
    page.select_option("#dealer", label="Chloé")
    page.click("#new-game button[type=submit]")
    page.wait_for_function("() => document.getElementById('setup-status').textContent !== ''")
    locked = page.inner_text("#setup-status")
    assert locked == "Déverrouillez d'abord la table avec le code PIN."
    assert "PIN" in locked and "X-Table-Pin" not in locked and "needs" not in locked

    unlock(page, server, "/setup")
    _names(page, ["Anne", "Anne", "Chloé"])
    page.select_option("#dealer", label="Chloé")
    page.click("#new-game button[type=submit]")
    page.wait_for_function("() => document.getElementById('setup-status').textContent !== ''")
    refused = page.inner_text("#setup-status")
    assert refused.startswith("La partie n'a pas été lancée : il faut 3 à 5 joueurs aux noms différents")
    assert "bad_setup" not in refused
    assert server.get("/api/state")["stars"] == {}

    _names(page, ["Anne", "Bruno", "Chloé"])
    page.select_option("#dealer", label="Chloé")
    page.click("#new-game button[type=submit]")
    page.wait_for_url(server.url + "/")
    dealer = next(p for p in server.get("/api/table")["players"] if p["dealer"])
    assert dealer["name"] == "Chloé"
