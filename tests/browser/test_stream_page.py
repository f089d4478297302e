"""The page and its stream in Chromium: the backlog of a page opened mid-game, fragment order, outages."""

from __future__ import annotations

import http.client
import random
from typing import Any

import pytest

from companion.chaud_devant.simulate import random_game
from tests.browser.conftest import CuttingProxy, Server, wait_log, wait_stream

pytestmark = pytest.mark.browser


def _game() -> list[dict[str, Any]]:
    return random_game(random.Random(21), players=3)


def test_a_page_opened_mid_game_gets_what_was_said_before_its_stream_opened(page: Any, server: Server) -> None:
    events = _game()
    for event in events[:4]:
        server.post("/api/events", event)
    between = events[4:7]

    posted: list[bool] = []

    def late_stream(route: Any) -> None:  # the page is rendered; the stream is not open yet (once: a
        if not posted:  # stream opened again later, as the server stops, must not post again)
            posted.append(True)
            for event in between:
                server.post("/api/events", event)
        route.continue_()

    page.route("**/api/stream*", late_stream)
    page.goto(server.url + "/")
    wait_stream(page)
    wait_log(page, len(between))
    assert [m["seq"] for m in page.evaluate("window.marmiteLog")] == [5, 6, 7]
    log = page.locator("#log li").all_inner_texts()
    assert len(log) == 7 and len(set(log)) == 7  # four rendered with the page, three from the stream, once each
    said = " ".join(page.evaluate("window.__spoken"))
    assert said == " ".join(m["text"] for m in page.evaluate("window.marmiteLog"))


def test_an_older_fragment_never_covers_a_newer_one(page: Any, server: Server) -> None:
    events = _game()
    cards = [i for i, e in enumerate(events) if e["type"] == "card"]
    for event in events[: cards[0]]:
        server.post("/api/events", event)
    page.goto(server.url + "/")
    wait_stream(page)
    held: list[tuple[Any, Any]] = []

    def hold_first(route: Any) -> None:
        if not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page.route("**/fragment/table", hold_first)
    logged_before = page.evaluate("window.marmiteLog.length")
    server.post("/api/events", events[cards[0]])
    while not held:
        page.wait_for_timeout(20)
    server.post("/api/events", events[cards[0] + 1])
    newest = server.get("/api/state")
    # the newest fragment shown: its sum and whose turn it is (a pot that overflowed sums 0, as before any card)
    page.wait_for_function("s => document.getElementById('pot-sum') && "
                           "document.getElementById('pot-sum').textContent.trim().endsWith(String(s.sum))"
                           " && document.getElementById('state').innerText.includes(s.turn)"
                           " && window.marmiteLog.length >= s.logged + 2",
                           arg={"sum": newest["pot"]["sum"], "turn": f"À {newest['turn']} de jouer",
                                "logged": logged_before})
    shown = page.inner_text("#state")
    route, older = held[0]
    route.fulfill(response=older)
    page.wait_for_timeout(300)
    assert page.inner_text("#state") == shown


def test_after_an_outage_a_flood_is_summed_up_in_one_line(page: Any, server: Server) -> None:
    events = _game()
    proxy = CuttingProxy(server.port)
    page.goto(proxy.url + "/")
    wait_stream(page)
    server.post("/api/events", events[0])
    wait_log(page, 1)
    proxy.cut()
    page.wait_for_function("() => document.body.dataset.stream === 'reconnecting'")
    for event in events[1:10]:
        server.post("/api/events", event)
    wait_log(page, 10)
    page.wait_for_function("() => window.__spoken.some(t => t.startsWith('Pendant la coupure'))")
    texts = [m["text"] for m in page.evaluate("window.marmiteLog")]
    said = page.evaluate("window.__spoken")
    summary = [t for t in said if t.startswith("Pendant la coupure")]
    assert len(summary) == 1  # one summary; the last line follows it, in the same utterance when both are short
    assert " ".join(said[said.index(summary[0]):]).startswith("Pendant la coupure : 9 annonces. La dernière :")
    assert texts[-1].split(". ")[0] in " ".join(said[said.index(summary[0]):])
    assert not any(texts[i] in " ".join(said) for i in range(1, 9) if texts[i] != texts[-1])
    assert len(page.locator("#log li").all_inner_texts()) == 10  # all shown
    proxy.close()


def test_a_page_whose_stream_is_refused_tries_again_says_so_and_is_heard_again(page: Any, server: Server) -> None:
    held = []  # a stranger on the same address holds every stream it may (8)
    for _ in range(8):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/api/stream")
        answer = connection.getresponse()
        assert answer.status == 200
        held.append(connection)
    try:
        page.goto(server.url + "/")
        page.wait_for_function("() => document.body.dataset.stream === 'retrying'", timeout=15000)
        assert page.inner_text("#refusal").startswith("La table refuse cette page")  # said, and shown
        for connection in held:
            connection.close()
        held.clear()
        # It comes back by itself: the table frees a closed stream's place at its next write (at the latest its
        # 15 s heartbeat) and the page's next try may be 16 s away by then (1, 2, 4, 8, 16 s): a bound, not a figure.
        page.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=75000)
        assert page.evaluate("window.marmiteRetries") >= 1
        events = _game()
        server.post("/api/events", events[0])
        wait_log(page, 1)  # and hears the table again
    finally:
        for connection in held:
            connection.close()
