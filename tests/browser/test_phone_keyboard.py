"""Phones by keyboard (issue 30, item 12): on a seat phone (390×844) the join choice takes the focus when it
appears, and from the top of the page the first *Jouer* (or *Choisir*) button is within three Tabs and one
Enter (31 to 33 Tabs before "Aller à mes coups"). Counts keys, never times."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.conftest import SPEECH_SPY, Server, unlock, wait_stream

pytestmark = pytest.mark.browser

TABS = 3
"""Tabs allowed from the top of the page to the link that reaches the first move."""


def phone_of(browser: Any, page: Any, server: Server, start: dict[str, Any]) -> tuple[Any, Any]:
    """The game started, Ana's seat link opened on a phone-sized page: (context, page)."""
    assert server.post("/api/events", start)["accepted"]
    unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ana')", "href")
    assert link is not None
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone.add_init_script(SPEECH_SPY)
    ana = phone.new_page()
    ana.goto(link)
    wait_stream(ana)
    return phone, ana


def answer_join_by_keyboard(ana: Any) -> None:
    """The join choice has the focus as it appears: Enter answers it (with my screen reader)."""
    ana.wait_for_selector("#join-choice", state="visible")
    assert ana.evaluate("document.activeElement.closest('#join-choice') !== null")
    ana.keyboard.press("Enter")
    ana.wait_for_selector("#join-choice", state="hidden")


PLAYABLE = ".practice-play[data-playable]:not([aria-disabled=true])"
"""A card the rules allow Ana to play now."""


def practice_phone_with_cards(browser: Any, page: Any, server: Server) -> tuple[Any, Any]:
    """A Chaud Devant practice (Ana and two robots), Ana's phone joined and her menu chosen by Enter: every
    Jouer button is shown. (context, page)."""
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual", "pace_ms": 0}
    phone, ana = phone_of(browser, page, server, {"type": "new_game", "players": ["Ana", "Marmiton", "Cléo"],
                                                  "dealer": "Cléo", "robots": robots})
    answer_join_by_keyboard(ana)
    ana.wait_for_selector(".seat-menu-btn", timeout=30000)
    ana.focus(".seat-menu-btn")
    ana.keyboard.press("Enter")
    return phone, ana


def tabs_to_first_move(ana: Any, move: str) -> int:
    """From the top of the freshly loaded page: Tabs until "Aller à mes coups", then Enter; the Tabs pressed,
    once the focus is on the first `move` button."""
    ana.reload()
    wait_stream(ana)
    ana.wait_for_selector(move, timeout=30000)
    for pressed in range(1, TABS + 1):
        ana.keyboard.press("Tab")
        if ana.evaluate("document.activeElement.id") == "skip-moves":
            ana.keyboard.press("Enter")
            first = ana.evaluate(f"document.activeElement === document.querySelector({move!r})")
            assert first, ana.evaluate("document.activeElement.outerHTML")
            return pressed
    raise AssertionError(f"no way to the moves within {TABS} Tabs: "
                         + ana.evaluate("document.activeElement.outerHTML"))


def test_chaud_devant_practice_phone_reaches_its_first_jouer_button_in_three_tabs(
        browser: Any, page: Any, server: Server) -> None:
    phone, ana = practice_phone_with_cards(browser, page, server)
    try:
        assert tabs_to_first_move(ana, PLAYABLE) <= TABS  # her turn: the first card the rules allow
        assert ana.evaluate("document.activeElement.textContent").startswith("Jouer ")
    finally:
        phone.close()


def test_buffet_practice_phone_takes_the_join_choice_and_reaches_choisir_in_three_tabs(
        browser: Any, page: Any, server: Server) -> None:
    robots = {"seats": {"Bip": "debutant", "Bop": "debutant", "Bup": "debutant"}, "practice": "virtual",
              "pace_ms": 0}
    phone, ana = phone_of(browser, page, server, {"type": "new_game", "game": "buffet", "first": "Ana",
                                                  "players": ["Ana", "Bip", "Bop", "Bup"], "robots": robots})
    try:
        answer_join_by_keyboard(ana)
        assert tabs_to_first_move(ana, ".practice-play") <= TABS
        assert ana.evaluate("document.activeElement.textContent").startswith("Choisir ")
    finally:
        phone.close()


LANG_SPY = """
window.__langs = [];
if ('speechSynthesis' in window) {
  const spoken = window.speechSynthesis.speak;
  window.speechSynthesis.speak = function (u) { window.__langs.push([u.text, u.lang]); spoken.call(this, u); };
}
"""


def test_out_of_turn_the_practice_phone_says_why_in_the_tables_language_and_voice(
        browser: Any, page: Any, server: Server) -> None:
    """Issue 30, item 5: "it is not Ana's turn" was said in English by the French voice, buttons enabled."""
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual", "pace_ms": 0}
    phone, ana = phone_of(browser, page, server, {"type": "new_game", "players": ["Ana", "Marmiton", "Cléo"],
                                                  "dealer": "Ana", "robots": robots})  # Marmiton leads
    try:
        ana.add_init_script(LANG_SPY)
        ana.click("[data-output=aloud]")
        ana.reload()
        wait_stream(ana)
        ana.wait_for_selector(".seat-menu-btn", timeout=30000)
        ana.click(".seat-menu-btn")
        ana.wait_for_selector(".practice-play[data-playable]:not([aria-disabled=true])", timeout=30000)  # hers
        assert server.post("/api/undo")["accepted"]  # Cléo's card back: a robot's turn, and robots wait after
        assert server.get("/api/state")["turn"] == "Cléo"  # an undo until a person plays or the host resumes
        ana.wait_for_function("() => !document.querySelector('.practice-play:not([aria-disabled=true])')",
                              timeout=15000)  # at her turn the cards the rules forbid are unavailable too
        assert ana.locator(".practice-play[aria-disabled=true]").count() == ana.locator(".practice-play").count()
        ana.focus(".practice-play")  # by keyboard: an aria-disabled button still answers Enter
        ana.keyboard.press("Enter")
        ana.wait_for_function("() => document.getElementById('practice-status').textContent", timeout=15000)
        assert ana.inner_text("#practice-status") == "Ce n’est pas votre tour : Cléo joue maintenant."
        ana.wait_for_function("() => window.__langs.some(([t]) => t.startsWith('Ce n’est pas votre tour'))")
        said = [lang for text, lang in ana.evaluate("window.__langs") if text.startswith("Ce n’est pas votre tour")]
        assert said and all(lang.startswith("fr") for lang in said)
    finally:
        phone.close()


def test_after_playing_a_card_by_keyboard_the_focus_stays_among_the_moves(
        browser: Any, page: Any, server: Server) -> None:
    """The card played leaves the hand: the focus goes to the next move or the seat's state, not to the page's
    body, whose next Tab would skip every move (the evening walk found it)."""
    phone, ana = practice_phone_with_cards(browser, page, server)
    try:
        ana.wait_for_selector(PLAYABLE, timeout=30000)
        before = ana.eval_on_selector_all(".practice-play", "buttons => buttons.length")
        ana.focus(PLAYABLE)
        ana.keyboard.press("Enter")
        deadline = time.monotonic() + 30  # a guard against hanging: the refresh that takes the card away
        while ana.eval_on_selector_all(".practice-play", "buttons => buttons.length") >= before:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        ana.wait_for_selector("body[data-refreshed]")
        assert ana.evaluate("!!document.activeElement.closest('#state')"), ana.evaluate(
            "document.activeElement.outerHTML")
    finally:
        phone.close()
