"""End to end in Chromium: a whole game through the virtual pot, a refusal, reconnects, the seat view, axe."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.chaud_devant.simulate import Noise, random_game, simulate
from companion.referee import Referee
from marmite.games import GAMES
from tests.browser.conftest import (
    CuttingProxy,
    Server,
    audit,
    choose_in_private,
    shot,
    spoken_once_quiet,
    unlock,
    wait_log,
    wait_stream,
)

pytestmark = pytest.mark.browser


def test_whole_game_through_the_virtual_pot(page: Any, server: Server) -> None:
    events = random_game(random.Random(11), players=4)
    setup, rest = events[0], events[1:]
    unlock(page, server, "/setup")
    assert audit(page, "setup") == []
    for index, name in enumerate(setup["players"]):
        page.fill(f"#player-{index}", name)
    page.select_option("#dealer", label=setup["dealer"])
    page.click("#new-game button[type=submit]")
    page.wait_for_url(server.url + "/")
    wait_stream(page)
    for number, event in enumerate(rest):
        if event["type"] == "menu":
            choose_in_private(page, event["player"], event["menu"])
        else:
            page.click(f".card-btn[data-code='{event['card']}']")
        wait_log(page, number + 1)
        if number == 6:
            shot(page, "table-during-play")
            assert audit(page, "table-play") == []
    page.wait_for_selector("#summary-title")
    shot(page, "table-final-standings")
    state = server.get("/api/state")
    referee = Referee(GAMES)
    for event in events:
        referee.apply(event)
    assert state["phase"] == "game_over"
    assert state["stars"] == {name: referee.state.progress.stars[seat] for seat, name in enumerate(setup["players"])}
    text = page.inner_text("#state")
    assert "Classement final" in text
    standings = page.locator(".standings li").all_inner_texts()
    ranked = sorted(state["stars"].items(), key=lambda item: -item[1])
    assert [line.split(" — ")[0] for line in standings] == [name for name, _ in ranked]
    for (name, stars), line in zip(ranked, standings, strict=True):
        assert f"{stars} étoiles" in line
        assert ("vainqueur" in line) == (name in state["winners"])
    assert page.locator(".chart svg polyline").count() == 4
    assert audit(page, "table-final") == []
    spoken = page.evaluate("window.__spoken")
    assert any("Fin de la partie" in text for text in spoken)


def _until_refusal() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A known-hands game up to its first must_follow_suit refusal: the events before, and the refused one."""
    events = simulate(random.Random(5), players=3, known_hands={0, 1, 2}, noise=Noise(revoke=1.0)).events
    referee = Referee(GAMES)
    for index, event in enumerate(events):
        if referee.decide(event) is not None:
            assert str(referee.decide(event)) == "must_follow_suit"
            return events[:index], event
        referee.apply(event)
    raise AssertionError("no refusal in the simulated game")


def test_refused_play_is_shown_and_spoken(page: Any, server: Server) -> None:
    before, refused = _until_refusal()
    for event in before:
        server.post("/api/events", event)
    unlock(page, server, "/")
    wait_stream(page)
    page.check("input[name=mode][value=event]")
    page.click(f".card-btn[data-code='{refused['card']}']")
    page.wait_for_selector("#refusal:not([hidden])")
    banner = page.inner_text("#refusal")
    assert "Il faut fournir" in banner and "règle 1" in banner
    shot(page, "refusal")
    spoken = page.evaluate("window.__spoken")
    assert spoken[-1] == banner
    # Read aloud (the voice is on): the screen reader's live regions stay quiet, one voice at a time; the
    # refusal is no alert either (a screen reader would say it a second time), and a line of the log.
    assert page.inner_text("#announce-urgent") == ""
    assert page.get_attribute("#refusal", "role") is None
    assert banner in page.locator("#log li.refused").first.inner_text()
    assert server.get("/api/state")["pot"]["cards"] == [e["card"] for e in before if e["type"] == "card"][
        -len(server.get("/api/state")["pot"]["cards"]):]
    page.click("#repeat")
    page.wait_for_function("() => window.__spoken.length >= 2")
    assert page.evaluate("window.__spoken")[-1] == banner
    page.click("#where")
    page.wait_for_function("() => window.__spoken.length >= 3")
    assert page.evaluate("window.__spoken")[2].startswith("Manche 1.")


def test_stream_survives_a_dropped_connection_and_a_restart(page: Any, server: Server) -> None:
    events = random_game(random.Random(2), players=3)
    proxy = CuttingProxy(server.port)
    page.goto(proxy.url + "/")
    wait_stream(page)
    for event in events[:4]:
        server.post("/api/events", event)
    wait_log(page, 4)
    proxy.cut()
    page.wait_for_function("() => document.body.dataset.stream === 'reconnecting'")
    for event in events[4:8]:
        server.post("/api/events", event)
    wait_log(page, 8)
    server.stop()
    page.wait_for_function("() => document.body.dataset.stream === 'reconnecting'")
    server.start()
    for event in events[8:14]:
        server.post("/api/events", event)
    wait_log(page, 14)
    seqs = [message["seq"] for message in page.evaluate("window.marmiteLog")]
    assert seqs == list(range(1, 15))
    said = " ".join(spoken_once_quiet(page))
    texts = [m["text"] for m in page.evaluate("window.marmiteLog")]
    assert said.startswith(" ".join(texts[:4]))  # live: every word; after the outages: in full or summed up
    assert texts[-1].split(". ")[-1] in said
    proxy.close()


def test_seat_view_on_a_phone(page: Any, server: Server) -> None:
    events = random_game(random.Random(4), players=4)
    players = events[0]["players"]
    me = players[1]
    page.set_viewport_size({"width": 390, "height": 844})
    index = 0
    while events[index]["type"] != "card":
        server.post("/api/events", events[index])
        index += 1
    page.goto(f"{server.url}/seat/{me}")  # without the player's link: no secrets
    assert "Votre menu" not in page.inner_text("#state")
    unlock(page, server, "/setup")  # the organiser hands out the seat links
    link = page.get_attribute(f".seat-links a:text-is('{me}')", "href")
    page.context.clear_cookies()  # the player's phone: not unlocked
    page.goto(link)
    wait_stream(page)
    own = next(e["menu"] for e in events[:index] if e["type"] == "menu" and e["player"] == me)
    assert "Votre menu" in page.inner_text("#state")
    assert own == page.evaluate("async url => (await (await fetch(url)).json()).my_menu",
                                link.replace("/seat/", "/api/seat/"))
    # The phone claimed the seat: the same link from anywhere else (another browser) shows nothing.
    assert server.get(f"{link.removeprefix(server.url).replace('/seat/', '/api/seat/')}")["my_menu"] is None
    assert server.get(f"/api/seat/{me}")["my_menu"] is None
    while server.get("/api/state")["turn"] != me:
        server.post("/api/drop", {"code": events[index]["card"]})
        index += 1
    page.wait_for_selector("#my-turn")
    assert "À vous de jouer" in page.inner_text("#my-turn")
    shot(page, "seat-view")
    assert audit(page, "seat") == []
    page.click("#where")
    page.wait_for_function("() => window.__spoken.some(t => t.startsWith('Manche 1.'))")
    page.goto(server.url + "/history")
    assert "Pli 1" in page.inner_text("main")
    assert audit(page, "history") == []


def test_the_players_table_never_breaks_a_word_on_a_tablet(page: Any, server: Server) -> None:
    """On the 1024 px tablet the headers read "Men u" and "Étoil es": a column was narrower than its word."""
    server.post("/api/events", {"type": "new_game", "players": ["Ana", "Bruno", "Cléo", "David"], "dealer": "David"})
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(server.url + "/")
    page.wait_for_selector("table.players th")
    broken = page.evaluate("""() => Array.from(document.querySelectorAll('table.players th')).filter(th => {
      const range = document.createRange();
      range.selectNodeContents(th);
      const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size;
      return lines > th.textContent.trim().split(/\\s+/).length;  // more lines than words: a word was cut
    }).map(th => th.textContent.trim())""")
    assert broken == []
