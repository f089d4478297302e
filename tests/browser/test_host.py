"""The host's tablet in Chromium: the bar above the grid, played cards marked, round ends, round 5."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.chaud_devant.simulate import random_game
from tests.browser.conftest import Server, audit, unlock, wait_log, wait_stream

pytestmark = pytest.mark.browser


def test_the_host_sees_pot_turn_and_answer_while_using_the_grid(page: Any, server: Server) -> None:
    events = random_game(random.Random(8), players=3)
    first_card = next(i for i, e in enumerate(events) if e["type"] == "card")
    for event in events[:first_card]:
        server.post("/api/events", event)
    unlock(page, server, "/")
    wait_stream(page)
    codes = [e["card"] for e in events[first_card:first_card + 2]]
    for number, code in enumerate(codes, start=1):
        page.click(f".card-btn[data-code='{code}']")
        wait_log(page, number)
    state = server.get("/api/state")
    grid_top = page.locator(".grid").bounding_box()["y"]
    page.mouse.wheel(0, grid_top)  # scrolled down to the grid
    page.wait_for_timeout(200)
    bar = page.locator("#now")
    box = bar.bounding_box()
    assert box is not None and 0 <= box["y"] < 800  # still on screen
    text = bar.inner_text()
    assert f"Marmite : {state['pot']['sum']}" in text and f"À {state['turn']} de jouer" in text
    assert page.evaluate("window.marmiteLog.at(-1).text") in text
    marked = page.locator(".card-btn.played")
    assert sorted(marked.evaluate_all("bs => bs.map(b => b.dataset.code)")) == sorted(codes)
    assert page.locator(".card-btn.played .played-mark").count() == 2
    page.check("input[name=mode][value=event]")
    page.click(f".card-btn[data-code='{codes[0]}']")  # played already: refused, and the bar says so
    page.wait_for_function("() => document.getElementById('now-answer').classList.contains('refused')")
    assert audit(page, "host-grid") == []


def test_a_round_end_summary_stays_and_round_five_menus_take_one_tap(page: Any, server: Server) -> None:
    events = random_game(random.Random(9), players=3)
    menus = [i for i, e in enumerate(events) if e["type"] == "menu"]
    round_two = menus[3]  # the first menu of round 2
    for event in events[:round_two]:
        server.post("/api/events", event)
    unlock(page, server, "/")
    wait_stream(page)
    page.wait_for_function("() => Number(document.body.dataset.refreshed || 0) >= 1")
    summary = page.locator("#summary-title")
    assert summary.inner_text() == "Bilan de la manche 1"
    assert summary.bounding_box()["y"] < page.locator(".round-line").bounding_box()["y"]  # first, above
    assert "Dernier pli pour" in page.inner_text(".summary")
    round_five = menus[12]
    for event in events[round_two:round_five]:
        server.post("/api/events", event)
    page.reload()
    wait_stream(page)
    before = len(page.evaluate("window.marmiteLog"))
    page.click("#forced-menus")
    wait_log(page, before + 3)
    state = server.get("/api/state")
    assert state["phase"] == "play" and state["round"] == 5
    assert state["rounds"][-1]["menus"] == {e["player"]: e["menu"] for e in events[round_five:round_five + 3]}
