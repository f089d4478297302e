"""In Chromium: a game replaced by another is resumed from the past games and played on (its export
replays to the live state, also after a SIGKILL), the other one closed shows as abandoned; secret menus
chosen on the tablet in private never show before the reveal."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from companion.chaud_devant.phrases import menu_name
from companion.chaud_devant.simulate import random_game
from tests.browser.conftest import ROOT, Server, audit, choose_in_private, unlock, wait_log, wait_stream

pytestmark = pytest.mark.browser


def marmite(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "marmite.cli", *args], cwd=ROOT, input=stdin, text=True,
                          capture_output=True, timeout=60, check=True)
    return done.stdout


def play_in_page(page: Any, events: list[dict[str, Any]], already: int) -> None:
    """Play events as the host would: cards through the virtual pot, menus in private."""
    for number, event in enumerate(events, start=already + 1):
        if event["type"] == "menu":
            choose_in_private(page, event["player"], event["menu"])
        else:
            page.click(f".card-btn[data-code='{event['card']}']")
        wait_log(page, number)


def test_resume_a_replaced_game_play_on_and_close_the_other(page: Any, server: Server) -> None:
    game_a = random_game(random.Random(11), players=3)
    first_card = next(i for i, event in enumerate(game_a) if event["type"] == "card")
    for event in game_a[:first_card]:  # the deal's menus, through the API
        server.post("/api/events", event)
    a = server.get("/api/games")[-1]["game"]
    unlock(page, server, "/")
    wait_stream(page)
    play_in_page(page, game_a[first_card:first_card + 5], 0)
    state_a = server.get("/api/state")

    page.goto(server.url + "/setup")  # game B replaces it, after the confirmation
    for index, name in enumerate(["Xavier", "Yves", "Zoé"]):
        page.fill(f"#player-{index}", name)
    page.select_option("#dealer", label="Zoé")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-game button[type=submit]")
    page.wait_for_url(server.url + "/")
    b = server.get("/api/games")[-1]["game"]
    assert b != a and server.get("/api/state")["phase"] == "menu"

    page.goto(server.url + "/setup")
    row = page.locator(f".past-games tr[data-game='{a}']")
    assert "interrompue à la manche 1" in row.inner_text()
    assert audit(page, "setup-past-games") == []
    row.locator(".resume-game").click()
    page.wait_for_url(server.url + "/")
    page.wait_for_function("() => window.__spoken.some(t => t.includes('reprise'))")
    said = next(text for text in page.evaluate("window.__spoken") if "reprise" in text)
    assert said.startswith("Partie du ") and said.endswith(f"reprise : à {state_a['turn']} de jouer.")
    assert said in page.inner_text("#now-answer")
    assert server.get("/api/state") == state_a
    wait_stream(page)
    play_in_page(page, game_a[first_card + 5:first_card + 12], 1)  # after what it said on arrival

    server.process.kill()  # a SIGKILL, then a restart: the resumed game is still the table's
    server.process.wait()
    server.process = None
    server.start()
    live = server.get("/api/state")
    exported = marmite("export", "--data", str(server.data), "--game", str(a))
    replayed = json.loads(marmite("replay", "-", stdin=exported))
    replayed.pop("refused")
    assert replayed == live and live != state_a
    assert [json.loads(line) for line in exported.splitlines()][:first_card + 12] == game_a[:first_card + 12]
    listing = marmite("export", "--data", str(server.data), "--list").splitlines()
    assert listing[0].split("\t")[-1] == "current" and listing[1].split("\t")[-1] == "unfinished"

    page.goto(server.url + "/setup")  # still unlocked: the same PIN after the restart
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f".past-games tr[data-game='{b}'] .close-game").click()
    page.wait_for_function(f"() => document.querySelector(\".past-games tr[data-game='{b}']\")"
                           ".innerText.includes('abandonnée')")
    assert "abandonnée à la manche 1" in page.locator(f".past-games tr[data-game='{b}']").inner_text()
    page.wait_for_function("() => window.__spoken.some(t => t.includes('abandonnée'))")
    assert marmite("export", "--data", str(server.data), "--list").splitlines()[1].endswith("\tabandoned")


def test_the_table_never_shows_a_secret_menu_before_the_reveal(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": ["Anne", "Bruno", "Chloé"], "dealer": "Anne"})
    unlock(page, server, "/")
    wait_stream(page)
    assert page.inner_text("#still-to-choose").endswith("Anne, Bruno, Chloé")
    assert audit(page, "table-menu-choice") == []
    names = {menu: menu_name(menu, "fr") for menu in ("none", "pepper")}
    picks = [("Anne", "none"), ("Bruno", "pepper")]
    for count, (player, menu) in enumerate(picks, start=1):
        page.get_by_role("button", name=f"Choisir en privé : {player}", exact=True).click()
        assert page.locator("#private-choices .private-menu-btn").count() == 0  # nothing before "I am…"
        assert names["none"] not in page.inner_text("body")
        page.click("#private-ready")
        assert audit(page, "table-private-menu") == []
        page.click(f".private-menu-btn[data-menu={menu}]")
        page.click("#private-confirm")
        wait_log(page, count)
        page.wait_for_function("n => document.querySelectorAll('.private-menu').length === n", arg=3 - count)
        state = page.inner_text("#state")
        shown = page.inner_text("body")
        assert names["none"] not in shown
        assert names["pepper"] not in state  # the grid names pepper cards; the state part never the menu
        assert page.locator("#private-choices *").count() == 0 and not page.locator("#private-menu").is_visible()
        assert page.locator(".menu-btn[aria-pressed=true], .menu-btn.chosen").count() == 0
        assert all(names["none"] not in data["text"] and names["pepper"] not in data["text"]
                   for data in page.evaluate("window.marmiteLog"))
    assert page.inner_text("#still-to-choose").endswith("Chloé")
    choose_in_private(page, "Chloé", "pea")  # the last one: the reveal
    wait_log(page, 3)
    page.wait_for_function("() => !document.getElementById('still-to-choose')")
    assert names["pepper"] in page.inner_text(".players")  # shown at the reveal, not before
