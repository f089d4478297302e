"""One whole round of each game at a practice table, played by keyboard, with a stand-in speech engine sped up
(its clock divided by a factor): robots wait for the tablet's voice, keys never drop a line, every buffet step
tells the person to choose, one announcement per robot card, one voice per person. Counts only, never times."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from benchmarks.speech_engine import engine_script
from companion.chaud_devant.simulate import random_game
from tests.browser.conftest import SPEECH_SPY, Server, unlock, wait_stream

FACTOR = 12
"""The stand-in engine speaks this many times faster than espeak-ng (a round in well under a minute)."""
KEYS = ["t", "s", "o", "r", "l", "m"]
"""Questions asked on the tablet while it still has lines to say: facts, where, repeat, the last five."""


def counts(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        "() => Object.assign({}, window.marmiteSpeechCounts, {overlaps: window.__engine.overlaps,"
        " said: window.__engine.said.length, yourMove: window.marmiteYourMove || 0,"
        " busy: window.MarmiteSpeech.voice.busy()})")
    return result


def log_of(page: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate("() => window.marmiteLog.map(m => ({kind: m.kind, text: m.text,"
                                                 " keys: (m.parts || []).map(p => p.key)}))")
    return result


def open_tablet_and_phone(browser: Any, page: Any, server: Server, start: dict[str, Any]) -> tuple[Any, Any, Any]:
    """The tablet (unlocked, reading everything aloud) and Ana's phone (aloud, what concerns her)."""
    tablet_context = page.context
    tablet_context.add_init_script(engine_script(FACTOR, speak="all"))
    assert server.post("/api/events", start)["accepted"]
    unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ana')", "href")
    assert link is not None
    page.goto(server.url + "/")
    wait_stream(page)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone.add_init_script(engine_script(FACTOR, speak="mine"))
    ana = phone.new_page()
    ana.goto(link)
    wait_stream(ana)
    return tablet_context, phone, ana


def press_on(page: Any, selector: str) -> None:
    """A person's keyboard: focus the control, then Enter."""
    page.focus(selector)
    page.keyboard.press("Enter")


def ask_questions(page: Any, asked: int) -> int:
    """While the tablet is saying an announcement (not an answer), one question key, as a person asks:
    its answer must not cost a line."""
    if page.evaluate("() => window.MarmiteSpeech.voice.busy() && !window.MarmiteSpeech.voice.answering()"):
        page.locator("body").press(KEYS[asked % len(KEYS)])
        page.wait_for_function("() => !window.MarmiteSpeech.voice.answering()", timeout=30000)
        return asked + 1
    return asked


def quiet_snapshot(page: Any) -> tuple[list[dict[str, Any]], str, dict[str, Any]]:
    """The tablet's log, everything it has said and its counts, read in one go at a moment it has nothing
    left to say (a table still playing may announce more between two reads)."""
    for _ in range(60):
        settle(page)
        snap: dict[str, Any] = page.evaluate(
            "() => ({busy: window.MarmiteSpeech.voice.busy(), said: window.__engine.said.join(' '),"
            " counts: Object.assign({}, window.marmiteSpeechCounts, {overlaps: window.__engine.overlaps}),"
            " log: window.marmiteLog.map(m => ({kind: m.kind, text: m.text, keys: (m.parts || []).map(p => p.key)}))})")
        if not snap["busy"]:
            return snap["log"], snap["said"], snap["counts"]
    raise AssertionError("the tablet never fell quiet")


def settle(page: Any) -> None:
    page.wait_for_function("() => !window.MarmiteSpeech.voice.busy()", timeout=30000)


def practice_tablet_after_anas_menu(page: Any, server: Server, script: str) -> None:
    """A Chaud Devant practice (Ana, dealer, and two robots) on the unlocked tablet reading aloud with `script`
    added to its speech engine; Ana's menu chosen, so the robots play up to her turn."""
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual", "aids": True}
    page.context.add_init_script(engine_script(FACTOR, speak="all") + script)
    assert server.post("/api/events", {"type": "new_game", "players": ["Ana", "Marmiton", "Cléo"], "dealer": "Ana",
                                       "robots": robots})["accepted"]
    unlock(page, server, "/")
    wait_stream(page)
    assert server.post("/api/events", {"type": "menu", "player": "Ana", "menu": "none"})["accepted"]


def test_a_chaud_devant_practice_round_by_keyboard_paced_by_speech(browser: Any, page: Any, server: Server) -> None:
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual", "aids": True}
    start = {"type": "new_game", "players": ["Ana", "Marmiton", "Cléo"], "dealer": "Cléo", "robots": robots}
    _, phone, ana = open_tablet_and_phone(browser, page, server, start)
    try:
        ana.wait_for_selector(".seat-menu-btn", timeout=30000)
        press_on(ana, ".seat-menu-btn[data-menu=none]")
        asked, scored, turns, deadline = 0, False, 0, time.monotonic() + 240
        while time.monotonic() < deadline and not scored:
            state = server.get("/api/state")
            scored = bool(state["rounds"]) and "points" in state["rounds"][0]
            turns += 1
            if turns % 4 == 0:  # now and then, not at every look (only while the tablet speaks)
                asked = ask_questions(page, asked)
            buttons = ana.locator(".practice-play:not([aria-disabled=true])")
            if state.get("turn") == "Ana" and buttons.count():
                codes = buttons.evaluate_all("bs => bs.map(b => b.dataset.card)")
                led = state["pot"]["led"] or ""
                suited = [i for i, code in enumerate(codes) if code.startswith(led + "-")] if led else []
                press_on(ana, f".practice-play:not([aria-disabled=true]) >> nth={(suited or [0])[0]}")
                time.sleep(0.3)
            time.sleep(0.1)
        assert scored  # the whole round, 13 cards of hers, by keyboard
        settle(page)
        tablet, mine = counts(page), counts(ana)
        assert asked >= 1  # how many depends on when she looked; each must cost no line
        assert tablet["queued"] == tablet["heard"]  # 0 lines dropped by the keys
        assert tablet["answers"] >= 1
        assert tablet["overlaps"] == 0 and mine["overlaps"] == 0  # one voice per device
        said_by_phone = set(ana.evaluate("window.__engine.said"))
        assert not said_by_phone & set(page.evaluate("window.__engine.said"))  # no line said by both
        log = log_of(page)
        robot_cards = [m for m in log if m["kind"] == "card"  # with its public reason, or plain when it has none
                       and m["keys"][0] in ("robot.played", "robot.played_plain")]
        played = sum(len(trick["cards"]) for trick in server.get("/api/state")["rounds"][0]["tricks"])
        hers = [m for m in log if m["kind"] == "card" and m["keys"][0] in ("card", "card_alone")]  # sum said or not
        assert hers  # (the round ends with the first hand played out: not always 13 cards each)
        assert len(robot_cards) == played - len(hers), [m["text"] for m in log if m["kind"] == "card"]  # one each
        assert not [m for m in log if m["kind"] == "robot" and m["text"]]  # and no second line for it
        paced = server.post("/api/spoken", {"serial": 0})  # the tablet is the voice the robots waited for
        assert "table" in paced["voices"]
    finally:
        phone.close()


def test_a_buffet_practice_round_by_keyboard_every_step_asks_the_person_to_choose(browser: Any, page: Any,
                                                                                 server: Server) -> None:
    robots = {"seats": {"Bip": "debutant", "Bop": "debutant", "Bup": "debutant"}, "practice": "virtual",
              "aids": True}
    start = {"type": "new_game", "game": "buffet", "players": ["Ana", "Bip", "Bop", "Bup"], "first": "Ana",
             "robots": robots}
    _, phone, ana = open_tablet_and_phone(browser, page, server, start)
    try:
        asked, chose, turns, deadline = 0, 0, 0, time.monotonic() + 240
        while time.monotonic() < deadline:
            state = server.get("/api/state")
            if state.get("round", 1) > 1 or state.get("phase") == "game_over":
                break
            turns += 1
            if turns % 8 == 0:
                asked = ask_questions(page, asked)
            if ana.locator("#practice-swap").count():
                press_on(ana, "#practice-swap button[type=submit]")  # keeps her hand
                ana.wait_for_selector("#practice-swap", state="detached", timeout=20000)
            elif ana.locator("#my-turn[data-move=choose]").count() and ana.locator(".practice-play").count():
                press_on(ana, ".practice-play >> nth=0")
                ana.wait_for_selector("#practice-chosen", timeout=20000)
                chose += 1
            time.sleep(0.1)
        assert chose >= 1
        log, said, tablet = quiet_snapshot(page)  # the robots play on into the next round: all read at once
        mine = counts(ana)
        assert tablet["queued"] == tablet["heard"]  # 0 lines dropped by the keys
        assert tablet["overlaps"] == 0 and mine["overlaps"] == 0
        log = [m for m in log if m["kind"] not in ("where", "repeat")]  # the answers to her questions aside
        assert not [m for m in log if "buffet_ready" in m["keys"] or "new_step" in m["keys"]]  # the words with cards
        steps, out = [], False  # every step opening while she is in the round calls her, none once she is out
        for m in log:
            out = out or bool(re.search(r"Ana (part avec|repart sans rien)", m["text"]))  # said before the step
            if "round_buffet" in m["keys"]:  # a new round (the last one's end said first, in the same line)
                out = False
            if {"round_buffet", "new_step_choose", "new_step_robots"} & set(m["keys"]):
                called = "buffet_ready_choose" in m["keys"] or "new_step_choose" in m["keys"]
                assert called != out and (not called or "Ana, à vous de choisir." in m["text"]), m
                steps.append(called)
        assert steps and said.count("Ana, à vous de choisir.") >= steps.count(True)  # each call said aloud
        assert mine["yourMove"] >= chose  # and her phone showed "your move" for each choice she made
        robot_lines = [m for m in log if m["kind"] == "card" and m["keys"][0] in ("robot.played_named", "moved")
                       and not m["text"].startswith("Ana ")]
        assert robot_lines and not [m for m in log if m["kind"] == "robot" and "robot.plays_mouse_virtual" in m["keys"]]
    finally:
        phone.close()


def test_a_practice_phone_by_keyboard_the_join_choice_is_focused_and_its_moves_two_tabs_away(
        browser: Any, page: Any, server: Server) -> None:
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual", "aids": True}
    assert server.post("/api/events", {"type": "new_game", "players": ["Ana", "Marmiton", "Cléo"],
                                       "dealer": "Cléo", "robots": robots})["accepted"]
    unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ana')", "href")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone.add_init_script(SPEECH_SPY)
    try:
        ana = phone.new_page()
        ana.goto(link)
        wait_stream(ana)
        assert ana.evaluate("document.activeElement.closest('#join-choice') !== null")  # asked where the keys are
        ana.keyboard.press("Enter")  # with my screen reader
        ana.wait_for_selector("#join-choice", state="hidden")
        ana.wait_for_selector(".seat-menu-btn", timeout=30000)
        ana.reload()  # from the top of the page, as opened
        wait_stream(ana)
        ana.wait_for_selector(".seat-menu-btn", timeout=30000)
        ana.keyboard.press("Tab")
        ana.keyboard.press("Tab")
        assert ana.evaluate("document.activeElement.id") == "skip-moves"
        ana.keyboard.press("Enter")
        assert ana.evaluate("document.activeElement.classList.contains('seat-menu-btn')")  # her move, 3 keys away
        ana.focus("#practice-hint")
        ana.keyboard.press("Enter")
        ana.wait_for_function("() => document.getElementById('practice-status').textContent", timeout=30000)
        assert ana.inner_text("#practice-status").startswith("Le chef ")  # for her screen reader (role=status)
        assert not [t for t in ana.evaluate("window.__spoken") if t.startswith("Le chef")]  # never a second voice
    finally:
        phone.close()


def test_the_brief_profile_on_a_practice_tablet_still_tells_the_person_to_play(page: Any, server: Server) -> None:
    """Brief leaves whose turn it is to the T key, except a person's own cue at a practice table: there the
    tablet is the voice that tells her to act (issue 30, item 3), and a robot's turn stays unsaid."""
    practice_tablet_after_anas_menu(page, server, "localStorage.setItem('marmite.profile', 'brief');")
    deadline = time.monotonic() + 60
    while not (server.get("/api/state").get("turn") == "Ana" and page.evaluate(
            "() => window.__engine.said.some(s => /À Ana/.test(s)) || !window.MarmiteSpeech.voice.busy()")):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    settle(page)
    said = page.evaluate("window.__engine.said")
    assert [line for line in said if "À Ana" in line], said  # her cue, after the robots' cards
    assert not [line for line in said if "À Marmiton" in line or "À Cléo" in line]  # brief: no robot's turn


def test_a_question_costs_no_line_the_cut_line_is_said_again_whole_after_the_answer(page: Any,
                                                                                   server: Server) -> None:
    """Issue 30, item 2: a fact key answers at once; the line it cut is said again whole, then the lines
    still waiting; nothing is thrown away (the engine at espeak-ng's own speed, so the key lands mid-line)."""
    page.context.add_init_script(engine_script(1, speak="all"))
    unlock(page, server, "/")
    wait_stream(page)
    events = random_game(random.Random(3), players=3)
    for event in events[:4]:  # a new game and three hands: four lines waiting, the first being said
        assert server.post("/api/events", event)["accepted"]
    page.wait_for_function("() => window.__engine.started.length >= 1 && window.MarmiteSpeech.voice.busy()")
    page.locator("body").press("s")
    settle_slowly(page)
    seen = counts(page)
    engine = page.evaluate("window.__engine")
    assert seen["answers"] >= 1 and seen["cut"] == 1  # (a long answer is two utterances)
    assert seen["queued"] == seen["heard"] >= 4  # every line of the four announcements heard to its end
    cut = engine["cut"][0]
    answer = next(i for i, text in enumerate(engine["said"]) if "étoile" in text)
    assert cut in engine["said"][answer + 1:]  # said again whole, after the answer


def settle_slowly(page: Any) -> None:
    page.wait_for_function("() => !window.MarmiteSpeech.voice.busy()", timeout=120000)


def test_a_reloaded_tablet_that_leaves_the_table_page_no_longer_holds_the_robots(page: Any, server: Server) -> None:
    """A tablet reloaded then taken to the settings page had told the table it speaks for it (its stream
    opened) but said no line since loading: it must still say it leaves, else the robots wait their whole
    ceiling for a voice that is gone (the evening walk found 20 s a card)."""
    practice_tablet_after_anas_menu(page, server, "")
    deadline = time.monotonic() + 60
    while server.get("/api/state").get("turn") != "Ana":  # the robots have played: the table waits for Ana only
        assert time.monotonic() < deadline
        time.sleep(0.1)
    settle(page)
    page.reload()
    wait_stream(page)

    def voices() -> str:
        return str(page.request.get(server.url + "/fragment/table").headers.get("x-table-voices", ""))

    deadline = time.monotonic() + 20
    while "table" not in voices():  # the reloaded page's stream opened: it speaks for the table again
        assert time.monotonic() < deadline, "the reloaded tablet never became the table's voice"
        time.sleep(0.1)
    page.goto(server.url + "/setup")
    deadline = time.monotonic() + 30  # a guard, not a measure: nothing is announced, so no ceiling lets it go
    while "table" in voices():
        assert time.monotonic() < deadline, "the tablet left, but the table still waits for its voice"
        time.sleep(0.1)


LATE_FRAGMENTS = """
(function () {
  const real = window.fetch.bind(window);
  let held = null;
  window.__fragments = [];  // per fragment: how many lines the page had logged when it was asked, and released
  const logged = function () { return (window.marmiteLog || []).length; };
  window.fetch = function (url, options) {
    if (typeof url !== "string" || url.indexOf("/fragment/") !== 0) return real(url, options);
    if (held) { held(); held = null; }  // a newer fragment is asked: the older answer arrives only now
    const order = { asked: logged(), released: -1 };
    window.__fragments.push(order);
    return real(url, options).then(function (response) {
      return new Promise(function (resolve) {
        let done = false;
        const release = function () {
          if (!done) { done = true; order.released = logged(); resolve(response); }
        };
        held = release;
        setTimeout(release, 1500);
      });
    });
  };
})();
"""
"""Each fragment's answer held until the next fragment is asked (at most 1.5 s): a refresh asked before a
line arrives is applied after it, as on a slow phone."""


def test_a_phone_reading_everything_says_one_cue_even_when_a_late_refresh_lands_after_the_turn_line(
        browser: Any, page: Any, server: Server) -> None:
    """Issue 30: "À Ana, couleur demandée Oignon." then "À vous de jouer !" on a practice phone reading
    everything: the refresh asked before the line, applied after it, forgot that the line told her."""
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual", "aids": True}
    assert server.post("/api/events", {"type": "new_game", "players": ["Ana", "Marmiton", "Cléo"],
                                       "dealer": "Ana", "robots": robots})["accepted"]
    unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ana')", "href")
    assert link is not None
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone.add_init_script(engine_script(FACTOR, speak="all") + LATE_FRAGMENTS)
    try:
        ana = phone.new_page()
        ana.goto(link)
        wait_stream(ana)
        ana.wait_for_selector(".seat-menu-btn", timeout=30000)
        press_on(ana, ".seat-menu-btn")
        ana.wait_for_selector("#my-turn", timeout=60000)
        ana.wait_for_function("() => !window.MarmiteSpeech.voice.busy()", timeout=30000)
        time.sleep(2)  # any late fragment held by the script has landed
        ana.wait_for_function("() => !window.MarmiteSpeech.voice.busy()", timeout=30000)
        said = ana.evaluate("window.__engine.said")
        assert [line for line in said if "À Ana" in line], said  # her cue, in the robot card's line
        assert not [line for line in said if "À vous de jouer" in line], said  # and not a second time
        log = [m["text"] for m in log_of(ana)]
        told = next(i for i, text in enumerate(log) if "À Ana" in text)  # the line that told her turn
        fragments = ana.evaluate("window.__fragments")
        assert [f for f in fragments if f["asked"] <= told < f["released"]], (told, fragments)  # the race ran
    finally:
        phone.close()
