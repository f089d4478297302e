"""Robots in Chromium: a robot seat at the real table (its card named, a wrong card refused on screen and by
voice), and the practice table without cards on a phone (the chef's advice, a card played by tapping)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from companion.chaud_devant.cards import ALL_CODES
from tests.browser.conftest import SPEECH_SPY, Server, audit, refuse_then_accept, shot, unlock, wait_stream

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Marmiton", "Cléo"]
HANDS = {name: sorted(ALL_CODES[i::4][:13]) for i, name in enumerate(PLAYERS)}
LANG_SPY = """
window.__spokenLangs = [];
if ('speechSynthesis' in window) {
  const spoken = window.speechSynthesis.speak;
  window.speechSynthesis.speak = function (u) { window.__spokenLangs.push([u.text, u.lang]); spoken.call(this, u); };
}
"""
"""Beside the speech spy: each line said with the language its voice was asked for."""


def spoken(page: Any) -> list[str]:
    result: list[str] = page.evaluate("window.__spoken")
    return result


def logged(page: Any) -> list[str]:
    result: list[str] = page.evaluate("(window.marmiteLog || []).map(m => m.text)")
    return result


def test_a_robot_seat_at_the_real_table_names_its_card_and_refuses_another(page: Any, server: Server) -> None:
    unlock(page, server, "/setup/robots")
    assert audit(page, "robot-setup") == []
    for index, name in enumerate(PLAYERS):
        page.fill(f"#robot-name-{index}", name)
    page.select_option("#robot-level-1", "chef")
    page.fill("#robot-first", "3")  # Cléo deals, Ana leads
    page.click("#robot-game button[type=submit]")
    page.wait_for_url(server.url + "/")
    assert server.get("/api/robots")["setup"]["seats"] == {"Marmiton": "chef"}
    wait_stream(page)
    for name in PLAYERS:  # the hands scanned at the table, the robot's tray too
        assert server.post("/api/events", {"type": "hand", "player": name, "cards": HANDS[name]})["accepted"]
    for name in ("Ana", "Cléo"):
        assert server.post("/api/events", {"type": "menu", "player": name, "menu": "none"})["accepted"]
    page.wait_for_function("() => window.marmiteLog.some(m => m.text.includes('Menus'))", timeout=20000)
    lead = server.get("/api/state")
    assert lead["turn"] == "Ana"
    ana_card = next(code for code in HANDS["Ana"] if not code.startswith("pepper"))
    assert server.post("/api/drop", {"code": ana_card})["accepted"] is True
    page.wait_for_function("() => window.marmiteLog.some(m => m.text.startsWith('Marmiton joue '))", timeout=20000)
    ask = next(text for text in logged(page) if text.startswith("Marmiton joue "))
    assert ask.endswith(" : posez-la dans la marmite.")
    page.wait_for_function("t => window.__spoken.join(' ').includes(t)", arg="posez-la dans la marmite")
    chosen = server.get("/api/robots")["asks"][0]["card"]
    wrong = next(code for code in HANDS["Marmiton"] if code != chosen)
    before = server.get("/api/state")
    refused = server.post("/api/drop", {"code": wrong})
    assert (refused["accepted"], refused["reason"]) == (False, "not_robot_card")
    page.wait_for_selector("#refusal:not([hidden])")
    shown = page.inner_text("#refusal")
    assert shown.startswith("Ce n'est pas la carte de Marmiton : on attend ")
    page.wait_for_function("t => window.__spoken.join(' ').includes(t)", arg="Ce n'est pas la carte de Marmiton")
    assert server.get("/api/state") == before  # nothing changed
    shot(page, "robot-wrong-card")
    assert audit(page, "robot-wrong-card") == []
    assert server.post("/api/drop", {"code": chosen})["accepted"] is True
    assert server.get("/api/state")["turn"] == "Cléo"
    before_repeat = len(spoken(page))
    page.click("#repeat")  # "répéter" works as at any table
    page.wait_for_function("n => window.__spoken.length > n", arg=before_repeat)


def test_practice_without_cards_on_a_phone_the_chef_advises_and_a_tap_plays(browser: Any, page: Any,
                                                                              server: Server) -> None:
    robots = {"seats": {"Marmiton": "cuisinier", "Cléo": "chef"}, "practice": "virtual", "aids": True,
              "pace_ms": 200}
    assert server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Cléo",
                                       "robots": robots})["accepted"]
    unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ana')", "href")
    assert link is not None
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone.add_init_script(SPEECH_SPY)
    phone.add_init_script(LANG_SPY)
    try:
        ana = phone.new_page()
        ana.goto(link)
        wait_stream(ana)
        ana.wait_for_selector(".seat-menu-btn", timeout=20000)  # the robots dealt every hand
        ana.click(".seat-menu-btn[data-menu=none]")
        ana.wait_for_selector(".practice-play", timeout=20000)  # menus revealed: Ana leads
        assert ana.locator(".practice-play").count() == 13
        assert audit(ana, "practice-phone") == []
        ana.click("#practice-hint")
        ana.wait_for_function("() => (document.getElementById('practice-status') || {}).textContent", timeout=20000)
        advice = ana.inner_text("#practice-status")
        assert advice.startswith("Le chef jouerait ")
        assert any(text.startswith("Le chef jouerait ") for text in spoken(ana))  # said on her phone only
        assert not any("Le chef jouerait" in text for text in logged(page))
        suggested = ana.evaluate("window.marmiteHint")
        assert suggested == advice
        # the reason, counted over the deals she may imagine, said to her in her table's language
        named = advice.removeprefix("Le chef jouerait ").split(".")[0]
        assert re.search(rf"\. {re.escape(named)} vous (laisse sans pli|fait prendre le pli) "
                         r"(dans \d donnes? sur \d|presque à chaque donne|dans toutes les donnes)\.$", advice), advice
        assert [advice.split(". ", 1)[1], "fr-FR"] in ana.evaluate("window.__spokenLangs")  # a sentence an utterance
        server.post("/api/settings", {"language": "en"})
        ana.evaluate("document.getElementById('practice-status').textContent = ''")
        ana.click("#practice-hint")
        ana.wait_for_function("() => (window.marmiteHint || '').startsWith('The chef would play ')", timeout=20000)
        english = ana.evaluate("window.marmiteHint")
        assert re.search(r"(leaves you without the trick|makes you take the trick) "
                         r"(in \d deals? out of \d|in almost every deal|in every deal)\.$", english), english
        ana.wait_for_function("t => window.__spokenLangs.some(s => s[0] === t && s[1].startsWith('en'))",
                              arg=english.split(". ", 1)[1], timeout=20000)
        server.post("/api/settings", {"language": "fr"})
        button = ana.locator(".practice-play").filter(has_text=advice.removeprefix("Le chef jouerait ")
                                                      .split(".")[0]).first
        card = button.get_attribute("data-card")
        button.click()
        ana.wait_for_function("() => window.marmiteLog.some(m => m.text.startsWith('Marmiton : '))",
                              timeout=20000)
        state = server.get("/api/state")
        assert card in [c for trick in state["rounds"][0]["tricks"] for c in trick["cards"]] + state["pot"]["cards"]
        shot(ana, "practice-phone")
    finally:
        phone.close()


def test_sus_au_buffet_robot_at_the_real_table_chooses_face_down_and_is_named_at_its_reveal(
        page: Any, server: Server) -> None:
    unlock(page, server, "/setup/robots")
    page.select_option("#robot-game-kind", "buffet")
    for index, name in enumerate(["Ana", "Marmiton", "Cléo", "Dan"]):
        page.fill(f"#robot-name-{index}", name)
    page.select_option("#robot-level-1", "cuisinier")
    page.fill("#robot-first", "1")
    page.click("#robot-game button[type=submit]")
    page.wait_for_url(server.url + "/")
    page.goto(server.url + "/setup/robots")
    page.fill("form.robot-hand[data-robot=Marmiton] input", "3 3 -1 9 0 5 6 2 1")
    page.click("form.robot-hand[data-robot=Marmiton] button")
    page.wait_for_function("() => document.getElementById('robot-hand-status').textContent.includes('Marmiton')")
    assert audit(page, "robot-hands") == []
    page.goto(server.url + "/")
    wait_stream(page)
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1"):
        assert server.post("/api/drop", {"code": plate})["accepted"] is True
    page.wait_for_function("() => window.__spoken.join(' ').includes('Marmiton a choisi sa carte, face cachée')",
                           timeout=20000)
    assert not any("Marmiton joue" in text for text in spoken(page))  # named only when its reveal comes
    assert server.post("/api/drop", {"code": "mouse-4@1"})["accepted"] is True  # Ana reveals
    page.wait_for_function("() => window.__spoken.join(' ').includes('Marmiton joue la souris')", timeout=20000)
    ask = next(text for text in logged(page) if text.startswith("Marmiton joue la souris"))
    assert ask.endswith(" : posez-la dans la marmite.")
    chosen = server.get("/api/robots")["asks"][0]["card"]
    wrong = "mouse-8" if chosen != "mouse-8" else "mouse-7"
    refused = server.post("/api/drop", {"code": wrong + "@1"})
    assert refused["reason"] == "not_robot_card"
    page.wait_for_function("() => window.__spoken.join(' ').includes(\"Ce n'est pas la carte de Marmiton\")")
    assert audit(page, "buffet-robot-refusal") == []
    assert server.post("/api/drop", {"code": chosen + "@2"})["accepted"] is True


@pytest.mark.parametrize(("language", "title"), [("en", "A game with robots"), ("nl", "Spel met robots")])
def test_the_robot_setup_page_in_english_and_dutch_passes_axe(page: Any, server: Server, language: str,
                                                              title: str) -> None:
    server.post("/api/settings", {"language": language})
    unlock(page, server, "/setup/robots")
    assert page.inner_text("h1") == title
    assert page.get_attribute("html", "lang") == language
    assert audit(page, f"robot-setup-{language}") == []


BUFFET_PLAYERS = ["Ana", "Bip", "Bop", "Bup"]


def buffet_phone(browser: Any, page: Any, server: Server, language: str = "fr", *,
                 unlocked: bool = False) -> tuple[Any, Any]:
    """A Sus au buffet ! practice without cards (Ana and three robots) and Ana's phone, once the table has
    dealt every hand and laid the buffet: (context, page)."""
    robots = {"seats": {"Bip": "debutant", "Bop": "cuisinier", "Bup": "chef"}, "practice": "virtual",
              "aids": True, "pace_ms": 100}
    assert server.post("/api/events", {"type": "new_game", "game": "buffet", "players": BUFFET_PLAYERS,
                                       "first": "Ana", "robots": robots})["accepted"]
    if unlocked:
        page.goto(server.url + "/setup")
    else:
        unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ana')", "href")
    assert link is not None
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale=f"{language}-FR")
    phone.add_init_script(SPEECH_SPY)
    ana = phone.new_page()
    ana.goto(link)
    wait_stream(ana)
    ana.wait_for_selector(".practice-play", timeout=20000)  # hands dealt, plates laid: the step begins
    return phone, ana


def test_sus_au_buffet_practice_without_cards_on_a_phone_choose_face_down_and_the_robots_play_by_voice(
        browser: Any, page: Any, server: Server) -> None:
    phone, ana = buffet_phone(browser, page, server)
    try:
        page.goto(server.url + "/")
        wait_stream(page)
        assert audit(ana, "buffet-practice-phone") == []
        assert ana.inner_text("#practice-hand").startswith("Vos cartes :")
        ana.click("#practice-hint")
        ana.wait_for_function("() => (document.getElementById('practice-status') || {}).textContent", timeout=20000)
        assert ana.inner_text("#practice-status").startswith("Le chef jouerait la souris ")
        assert not any("Le chef jouerait" in text for text in logged(page))  # her advice stays on her phone
        chosen, deadline = 0, time.monotonic() + 90
        while time.monotonic() < deadline:  # Ana chooses her lowest card each step, while her mouse is in
            if ana.locator("#practice-swap").count():
                break  # her mouse left first: the table waits for her exchange
            if ana.locator(".practice-play").count():
                said = "() => window.__spoken.filter(t => t.includes('Ana a choisi sa carte, face cachée')).length"
                before_choice = page.evaluate(said)
                ana.locator(".practice-play").first.click()  # her choice is said at the table; her phone's
                page.wait_for_function(f"n => ({said})() > n", arg=before_choice, timeout=20000)  # "chosen"
                chosen += 1  # line may already be gone when the robots had chosen and the step turned over
                ana.wait_for_function("() => !document.getElementById('practice-chosen')", timeout=30000)
            elif "Ana" not in server.get("/api/state")["in_round"] and chosen:
                time.sleep(0.5)
                if not ana.locator("#practice-swap").count():
                    break  # another mouse left first
            time.sleep(0.05)
        assert chosen >= 1
        page.wait_for_function("() => window.__spoken.join(' ').includes('Ana a choisi sa carte, face cachée')",
                               timeout=20000)
        page.wait_for_function("() => window.__spoken.some(t => /^B[iou]p : /.test(t))", timeout=20000)  # one line
        assert any(text.startswith("Ana : ") for text in logged(page))  # her card turned over by the table
        if ana.locator("#practice-swap").count():
            assert audit(ana, "buffet-practice-swap") == []
            ana.locator("#practice-swap input[type=checkbox]").first.check()
            ana.click("#practice-swap button[type=submit]")
            page.wait_for_function("() => window.__spoken.join(' ').includes('Ana échange 1 carte')", timeout=20000)
        shot(ana, "buffet-practice-phone")
        before = len(spoken(page))
        page.click("#where")  # "où en est-on" and "répéter" work as at any table
        page.wait_for_function("n => window.__spoken.length > n", arg=before)
        page.click("#repeat")
        page.wait_for_function("n => window.__spoken.length > n + 1", arg=before)
        page.click("#last-five")
        page.wait_for_function("n => window.__spoken.length > n + 2", arg=before)
    finally:
        phone.close()


def test_the_buffet_practice_phone_in_english_and_dutch_passes_axe(browser: Any, page: Any, server: Server) -> None:
    for language, choose in (("en", "Choose "), ("nl", "Kies ")):  # one server for both: CI time
        server.post("/api/settings", {"language": language})
        phone, ana = buffet_phone(browser, page, server, language, unlocked=language == "nl")
        try:
            assert ana.locator(".practice-play").first.inner_text().startswith(choose)
            assert ana.get_attribute("html", "lang") == language
            assert audit(ana, f"buffet-practice-phone-{language}") == []
        finally:
            phone.close()


def test_a_buffet_robots_exchange_at_the_real_table_shown_to_the_host_only_and_only_new_cards_typed(
        page: Any, server: Server) -> None:
    start = {"type": "new_game", "game": "buffet", "players": ["Ana", "Marmiton", "Cléo"], "first": "Ana",
             "robots": {"seats": {"Marmiton": "chef"}}}
    assert server.post("/api/events", start)["accepted"]
    hand = ["mouse-n1", "mouse-0", "mouse-0", "mouse-1", "mouse-2", "mouse-5", "mouse-6", "mouse-7", "mouse-8"]
    assert server.post("/api/robots/Marmiton/hand", {"cards": hand})["accepted"]
    exchange = {"type": "robot", "player": "Marmiton", "hand": hand[3:], "swap": hand[:3]}
    assert server.post("/api/events", exchange)["accepted"]  # as the robot driver journals it
    unlock(page, server, "/setup/robots")
    assert page.inner_text(".robot-discards[data-robot=Marmiton]").endswith("-1 0 0")
    assert audit(page, "robot-exchange-real-table") == []
    page.fill("form.robot-drawn[data-robot=Marmiton] input", "9 3 4")
    page.click("form.robot-drawn[data-robot=Marmiton] button")
    page.wait_for_function("() => document.getElementById('robot-hand-status').textContent.includes('Marmiton')")
    hands = server.get("/api/robots")
    assert hands["setup"]["seats"] == {"Marmiton": "chef"}
    page.reload()
    assert page.input_value("form.robot-hand[data-robot=Marmiton]:not(.robot-drawn) input") == "1 2 3 4 5 6 7 8 9"
    assert not page.locator(".robot-discards").count()


def test_the_buffet_practice_phone_says_my_cards_in_one_key(browser: Any, page: Any, server: Server) -> None:
    """Issue 30, item 12: the Chaud Devant phone says its hand in one key (M); the buffet phone had no key for
    its cards. C says them, and the key help lists it."""
    phone, ana = buffet_phone(browser, page, server)
    try:
        assert ana.locator("#fact-keys [data-fact=cards][aria-keyshortcuts=C]").count() == 1
        ana.evaluate("document.activeElement && document.activeElement.blur()")
        ana.keyboard.press("c")
        answer = ana.inner_text("#fact-answer")
        shown = ana.inner_text("#practice-hand")  # "Vos cartes : zéro, un, …" as the practice section shows them
        assert answer.startswith("Vos cartes : ") and len(answer.split(" ; ")) == 9, answer
        assert answer.removeprefix("Vos cartes : ").split(" ; ") == shown.removeprefix("Vos cartes : ").split(", ")
        ana.keyboard.press("m")
        assert ana.inner_text("#fact-answer").startswith("Assiettes")  # M stays my plates
    finally:
        phone.close()


def test_a_robot_game_asks_before_it_replaces_a_game_in_progress(page: Any, server: Server) -> None:
    """The robots' form replaced a running game without a word, where the games' own forms ask (the walk)."""
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Cléo"})
    running = server.get("/api/state")
    unlock(page, server, "/setup/robots")
    for index, name in enumerate(["Zoé", "Marmiton", "Yves"]):
        page.fill(f"#robot-name-{index}", name)
    asked = refuse_then_accept(page)
    page.click("#robot-game button[type=submit]")
    assert len(asked) == 1 and "partie est en cours" in asked[0]  # asked before anything is sent
    assert list(server.get("/api/state")["stars"]) == list(running["stars"]) == PLAYERS  # kept
    page.click("#robot-game button[type=submit]")
    page.wait_for_url(server.url + "/")
    assert len(asked) == 2 and list(server.get("/api/state")["stars"]) == ["Zoé", "Marmiton", "Yves"]
