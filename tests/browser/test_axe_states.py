"""axe-core on every page state, in French, English and Dutch: no violation of any impact."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.chaud_devant.simulate import random_game
from tests.browser.conftest import ARTIFACTS, AXE, Server, unlock, wait_stream

pytestmark = pytest.mark.browser


def violations(page: Any, name: str) -> list[str]:
    """Every axe violation (any impact) of the page as it stands, as 'rule: target' lines."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed (scripts/test runs npm install in tests/browser)")
    page.wait_for_function("() => !document.body.dataset.stream || document.body.dataset.stream === 'open'")
    page.evaluate(AXE.read_text(encoding="utf-8"))  # through DevTools: the page's CSP forbids inline scripts
    found = page.evaluate("async () => (await axe.run(document, {runOnly: "
                          "['wcag2a','wcag2aa','wcag21a','wcag21aa','wcag22aa','best-practice']})).violations")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-all-{name}.json").write_text(json.dumps(found, indent=1))
    return [f"{v['id']} ({v['impact']}): {n['target']}" for v in found for n in v["nodes"]]


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_every_page_state_passes_axe(page: Any, server: Server, language: str) -> None:
    server.post("/api/settings", {"language": language})
    events = random_game(random.Random(6), players=3)
    players = events[0]["players"]
    menus = [i for i, e in enumerate(events) if e["type"] == "menu"]
    found: dict[str, list[str]] = {}

    def check(name: str, path: str | None = None) -> None:
        if path is not None:
            page.goto(server.url + path)
        found[name] = violations(page, f"{language}-{name}")

    check("unlock", "/unlock")
    check("table-empty", "/")
    unlock(page, server, "/setup")
    check("setup-empty")
    server.post("/api/events", events[0])
    page.goto(server.url + "/setup")
    link = page.get_attribute(f".seat-links a:text-is('{players[0]}')", "href")
    check("setup-running")
    check("table-menus", "/")
    for event in events[1:menus[3]]:  # round 1 played and scored
        server.post("/api/events", event)
    check("table-round-end", "/")
    server.post("/api/events", events[menus[3]])
    server.post("/api/events", events[menus[3] + 1])
    page.goto(server.url + "/")
    wait_stream(page)
    check("table-menu-chosen")
    for event in events[menus[3] + 2: menus[5] + 3]:
        server.post("/api/events", event)
    page.goto(server.url + "/")
    wait_stream(page)
    page.check("input[name=mode][value=event]")
    played = server.get("/api/state")["pot"]["cards"][0]
    page.click(f".card-btn[data-code='{played}']")
    page.wait_for_selector("#refusal:not([hidden])")
    check("table-play-refusal")
    check("history", "/history")
    phone = page.context.browser.new_context(viewport={"width": 390, "height": 844}, locale=f"{language}")
    seat = phone.new_page()
    seat.goto(link)
    wait_stream(seat)
    found["seat-play"] = violations(seat, f"{language}-seat-play")
    for event in events[menus[5] + 3: menus[6]]:
        server.post("/api/events", event)
    seat.goto(link)
    wait_stream(seat)
    assert seat.locator(".seat-menu-btn").count() > 0
    found["seat-menu-choice"] = violations(seat, f"{language}-seat-menu-choice")
    for event in events[menus[6]:]:
        server.post("/api/events", event)
    seat.goto(link)
    found["seat-over"] = violations(seat, f"{language}-seat-over")
    phone.close()
    check("table-over", "/")
    assert {name: lines for name, lines in found.items() if lines} == {}
