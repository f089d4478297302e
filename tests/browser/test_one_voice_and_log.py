"""Issue 30, items 6 and 10, the parts no other test held: a screen-reader phone hears its own refusal once and
no one else's, its "your move" never cuts the line before it (no assertive region), a robot-led trick's first
line sits under its own heading, and the log's headings follow a change of language."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.chaud_devant.simulate import simulate
from tests.browser.conftest import Server, unlock, wait_log, wait_stream

pytestmark = pytest.mark.browser

LIVE_SPY = """
window.__live = [];
new MutationObserver(function (changes) {
  changes.forEach(function (change) {
    const node = change.target.nodeType === 1 ? change.target : change.target.parentElement;
    const region = node && node.closest('[aria-live], [role=alert], [role=status]');
    if (region && region.textContent && !region.hidden) {  // an alert is assertive, a status polite
      const polite = region.getAttribute('role') === 'alert' ? 'assertive' : 'polite';
      window.__live.push({id: region.id, live: region.getAttribute('aria-live') || polite,
                          text: region.textContent});
    }
  });
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def live(page: Any) -> list[dict[str, str]]:
    result: list[dict[str, str]] = page.evaluate("window.__live")
    return result


def test_a_screen_reader_phone_hears_its_own_refusal_once_no_one_elses_and_its_turn_politely(
        browser: Any, page: Any, server: Server) -> None:
    events = simulate(random.Random(2), players=3, known_hands={0, 1, 2}).events
    me = events[0]["players"][1]
    index = 0
    while events[index]["type"] != "card":
        assert server.post("/api/events", events[index])["accepted"]
        index += 1
    unlock(page, server, "/setup")
    link = page.get_attribute(f".seat-links a:text-is('{me}')", "href")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone.add_init_script(LIVE_SPY)
    try:
        mine = phone.new_page()
        mine.goto(link)
        wait_stream(mine)
        mine.click("[data-output=reader]")  # with my screen reader: the live regions are its one voice
        mine.wait_for_selector("#join-choice", state="hidden")
        first = events[index]["card"]
        assert server.post("/api/events", events[index])["accepted"]
        index += 1
        seen = len(mine.evaluate("window.marmiteLog"))
        refused = server.post("/api/events", {"type": "card", "card": first})  # played already: names nobody
        assert refused["accepted"] is False
        mine.wait_for_function("n => window.marmiteLog.length > n", arg=seen)
        others = mine.evaluate("window.marmiteLog.at(-1).text")
        assert me not in others
        assert not [w for w in live(mine) if others in w["text"]]  # another's refusal: in the log, not said
        hand = next(e for e in events if e["type"] == "hand" and e["player"] == me)["cards"]
        turn = server.get("/api/state")["turn"]
        if turn != me:  # a card of mine out of turn: a refusal that names me, said once
            seen = len(mine.evaluate("window.marmiteLog"))
            assert not server.post("/api/events", {"type": "card", "card": hand[0]})["accepted"]
            mine.wait_for_function("n => window.marmiteLog.length > n", arg=seen)
            own = mine.evaluate("window.marmiteLog.at(-1).text")
            assert me in own
            mine.wait_for_function("t => window.__live.some(w => w.text.includes(t))", arg=own)
            assert len([w for w in live(mine) if own in w["text"]]) == 1  # once: #refusal is no alert
        while server.get("/api/state")["turn"] != me:
            assert server.post("/api/events", events[index])["accepted"]
            index += 1
        mine.wait_for_selector("#my-turn", timeout=15000)
        mine.wait_for_function("() => window.__live.some(w => w.id === 'announce-turn')", timeout=15000)
        told = [w for w in live(mine) if w["id"] == "announce-turn"]
        assert told[-1]["live"] == "polite"  # "À vous de jouer !" waits for the turn line, never cuts it
        assert not [w for w in live(mine) if w["live"] == "assertive" and "vous de jouer" in w["text"]]
    finally:
        phone.close()


def message(kind: str, keys: list[str], text: str) -> dict[str, Any]:
    return {"kind": kind, "text": text, "parts": [{"key": key, "text": text} for key in keys], "accepted": True}


def test_a_robot_led_tricks_first_line_is_under_its_own_heading(page: Any, server: Server) -> None:
    """At a real table a robot that won the trick leads the next: its ask (kind `robot`) opened no trick."""
    page.goto(server.url + "/")
    wait_stream(page)
    said = [message("new_game", ["game_started"], "Nouvelle partie."),
            message("round", ["round_opened"], "Manche 1."),
            message("card", ["card"], "Ana : Pois 3."), message("card", ["card"], "Marmiton : Pois 5."),
            message("card", ["card", "trick_won"], "Cléo : Pois 2. Marmiton gagne le pli."),
            message("robot", ["robot.plays"], "Marmiton joue Oignon 4 : posez-la dans la marmite."),
            message("card", ["card"], "Oignon 4.")]
    page.evaluate("ms => ms.forEach(m => window.MarmiteA11y.addToLog(m))", said)
    trick2 = page.locator("#log section[data-group='1-2']")
    assert trick2.locator("h4").inner_text() == "Manche 1 · pli 2"
    assert "Marmiton joue Oignon 4" in trick2.inner_text()
    assert "Marmiton joue" not in page.locator("#log section[data-group='1-1']").inner_text()


def test_a_buffet_practice_without_cards_has_a_heading_per_round_and_step(page: Any, server: Server) -> None:
    """Without cards no plate is said: a round opens with its call and buffet line, and a step with its call
    (or, once the person is out, "Nouvelle étape."): each still opens its heading in the log."""
    page.goto(server.url + "/")
    wait_stream(page)
    said = [message("new_game", ["game_started"], "Sus au buffet !"),
            message("plate", ["buffet_ready_choose", "round_buffet"], "Ana, à vous de choisir. Manche 1 — buffet."),
            message("card", ["moved"], "Ana : un — case 1."),
            message("card", ["robot.played_named", "new_step_choose", "departure"], "Bip : deux. Ana, à vous…"),
            message("card", ["moved", "departure", "new_step_robots"], "Ana : zéro. Ana part. Nouvelle étape."),
            message("card", ["robot.played_named"], "Bop : six — case 16."),
            message("plate", ["buffet_ready_choose", "round_ended", "round_buffet"], "Ana, à vous… Manche 2 — …")]
    page.evaluate("ms => ms.forEach(m => window.MarmiteA11y.addToLog(m))", said)
    groups = page.eval_on_selector_all("#log section[data-group]", "ss => ss.map(s => s.dataset.group)")
    assert {"1-1", "1-2", "1-3", "2-1"} <= set(groups), groups
    assert "Bop : six" in page.locator("#log section[data-group='1-3']").inner_text()


def test_a_page_whose_games_declare_no_round_opening_still_heads_each_round(page: Any, server: Server) -> None:
    """The log falls back on "round_opened" when the page's games declare no round opening (an empty list
    counted as declared: every round went under a heading of round 0)."""
    def without_round_opens(route: Any) -> None:
        body = route.fetch().text()
        body = re.sub(r"(&#34;round_opens&#34;: )\[[^\]]*\]", r"\1[]", body)
        route.fulfill(body=body, content_type="text/html; charset=utf-8")

    page.route(server.url + "/", without_round_opens)
    page.goto(server.url + "/")
    wait_stream(page)
    assert page.evaluate("window.MarmiteSpeech.keys.round_opens") == []
    said = [message("new_game", ["game_started"], "Nouvelle partie."), message("round", ["round_opened"], "Manche 1."),
            message("card", ["card"], "Ana : Pois 3."), message("round", ["round_opened"], "Manche 2.")]
    page.evaluate("ms => ms.forEach(m => window.MarmiteA11y.addToLog(m))", said)
    groups = page.eval_on_selector_all("#log section[data-group]", "ss => ss.map(s => s.dataset.group)")
    assert {"1-1", "2-1"} <= set(groups), groups


def test_after_a_change_of_language_the_logs_headings_speak_it(page: Any, server: Server) -> None:
    events = simulate(random.Random(2), players=3, known_hands={0, 1, 2}).events
    first_card = next(i for i, e in enumerate(events) if e["type"] == "card")
    page.goto(server.url + "/")
    wait_stream(page)
    for event in events[:first_card + 1]:
        server.post("/api/events", event)
    wait_log(page, first_card + 1)
    assert "Manche 1" in page.locator("#log h3").all_inner_texts()
    server.post("/api/settings", {"language": "en"})
    server.post("/api/events", events[first_card + 1])
    page.wait_for_function("() => document.documentElement.lang === 'en'", timeout=15000)
    wait_stream(page)
    page.wait_for_function("() => [...document.querySelectorAll('#log h3')].some(h => h.textContent === 'Round 1')",
                           timeout=15000)
    assert not [h for h in page.locator("#log h3, #log h4").all_inner_texts() if h.startswith("Manche")]
