"""Speech in Chromium: each device's choices kept, a phone speaks its player's news, short utterances."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.chaud_devant.simulate import random_game
from tests.browser.conftest import Server, spoken_once_quiet, wait_log, wait_stream

pytestmark = pytest.mark.browser


def spoken(page: Any) -> list[str]:
    return spoken_once_quiet(page)


def test_the_voice_toggle_shows_its_state_and_is_remembered(page: Any, server: Server) -> None:
    events = random_game(random.Random(3), players=3)
    server.post("/api/events", events[0])
    page.goto(server.url + "/")
    wait_stream(page)
    toggle = page.locator("#voice-toggle")
    assert toggle.inner_text() == "Voix : activée" and toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    assert toggle.inner_text() == "Voix : coupée" and toggle.get_attribute("aria-pressed") == "false"
    page.reload()
    wait_stream(page)
    assert page.locator("#voice-toggle").inner_text() == "Voix : coupée"
    server.post("/api/events", events[1])
    wait_log(page, 1)
    assert spoken(page) == []
    page.click("#voice-toggle")
    server.post("/api/events", events[2])
    wait_log(page, 2)
    assert " ".join(spoken(page)) == page.evaluate("window.marmiteLog[1].text")


def test_a_phone_speaks_what_concerns_its_player_unless_told_otherwise(page: Any, server: Server) -> None:
    events = random_game(random.Random(4), players=4)
    players = events[0]["players"]
    me = players[1]
    page.set_viewport_size({"width": 390, "height": 844})
    index = 0
    while events[index]["type"] != "card":
        server.post("/api/events", events[index])
        index += 1
    page.goto(f"{server.url}/seat/{me}")
    wait_stream(page)
    assert page.is_checked("input[name=speak][value=mine]")
    seen = 0
    while server.get("/api/state")["turn"] != me:
        server.post("/api/drop", {"code": events[index]["card"]})
        index += 1
        seen += 1
        wait_log(page, seen)
    said = spoken(page)
    assert said and said[-1].startswith(f"À {me}")  # my turn, with the suit I must follow
    log = [m["text"] for m in page.evaluate("window.marmiteLog")]
    assert not any(text.startswith(log[0].split(" — ")[0] + " —") for text in said)  # others' cards are shown
    assert log[0].split(". ")[0] in page.inner_text("#log")                           # ...not spoken
    page.check("input[name=speak][value=all]")
    page.reload()
    wait_stream(page)
    assert page.is_checked("input[name=speak][value=all]")
    server.post("/api/drop", {"code": events[index]["card"]})
    page.wait_for_function("() => window.marmiteLog.length >= 1")
    assert " ".join(spoken(page)[-len(page.evaluate("window.marmiteLog")) * 3:]).endswith(
        page.evaluate("window.marmiteLog.at(-1).text"))


def test_long_announcements_are_short_utterances_and_the_last_five_on_demand(page: Any, server: Server) -> None:
    events = random_game(random.Random(11), players=5)
    page.goto(server.url + "/")
    wait_stream(page)
    ends = [i for i, e in enumerate(events) if e["type"] == "menu"]
    upto = ends[5 * 1] if len(ends) > 5 else len(events)  # past the end of round 1
    for event in events[:upto]:
        server.post("/api/events", event)
    wait_log(page, upto)
    texts = [m["text"] for m in page.evaluate("window.marmiteLog")]
    assert any("Fin de la manche 1." in text and len(text.split()) > 12 for text in texts)
    said = spoken(page)
    assert " ".join(said) == " ".join(texts)
    assert all(len(u.split()) <= 12 or (". " not in u and "; " not in u) for u in said)
    before = len(said)
    page.click("#last-five")
    page.wait_for_function("n => window.__spoken.length > n", arg=before)
    assert " ".join(spoken(page)[before:]) == " ".join(texts[-5:])
