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


def test_replacing_a_running_game_asks_first_and_past_games_read_well(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": ["Anne", "Bruno", "Chloé"], "dealer": "Anne"})
    unlock(page, server, "/setup")
    _names(page, ["Xavier", "Yves", "Zoé"])
    page.select_option("#dealer", label="Zoé")
    asked: list[str] = []

    def refuse(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", refuse)
    page.click("#new-game button[type=submit]")
    page.wait_for_timeout(300)
    assert asked and asked[0].startswith("Une partie est en cours. La remplacer")
    assert [p["name"] for p in server.get("/api/table")["players"]] == ["Anne", "Bruno", "Chloé"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-game button[type=submit]")
    page.wait_for_url(server.url + "/")
    assert [p["name"] for p in server.get("/api/table")["players"]] == ["Xavier", "Yves", "Zoé"]
    page.goto(server.url + "/setup")
    rows = page.locator(".past-games tbody tr").all_inner_texts()
    assert len(rows) == 2 and "Xavier, Yves, Zoé" in rows[0] and "Anne, Bruno, Chloé" in rows[1]
    old = rows[1]
    assert "UTC" not in old and "#" not in old and "T" not in old.split("\t")[0]
    assert "manche 1 en cours" in rows[0] and "interrompue à la manche 1" in old and "—" in old
