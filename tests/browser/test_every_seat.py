"""A seat for every player, in Chromium at 1024×768 (tablet) and 390×844 (phone): no page wider than its
screen, the announcement log, verbosity profiles, one key per fact, sounds off by default, the focus kept
through live updates, and the evening's rough edges (issue 21)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from companion.chaud_devant.simulate import Noise, random_game, simulate
from tests.browser.conftest import Server, audit, shot, unlock, wait_log, wait_stream

pytestmark = pytest.mark.browser

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
PLAYERS = ["Anne", "Bruno", "Chloé"]
# Fails when the page scrolls sideways: any element past the viewport's right edge names itself.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  if (document.documentElement.scrollWidth > width) wide.push('document ' + document.documentElement.scrollWidth);
  for (const element of document.querySelectorAll('body *')) {
    const box = element.getBoundingClientRect();
    const exempt = element.closest('[hidden], .visually-hidden, .table-wrap, dialog:not([open])');
    if (box.width && box.right > width + 1 && !exempt)
      wide.push(element.tagName + '#' + element.id + '.' + element.className + ' ' + Math.round(box.right));
  }
  return wide.slice(0, 5);
}"""


def no_overflow(page: Any, name: str) -> None:
    wide = page.evaluate(OVERFLOW)
    if wide:
        shot(page, f"overflow-{name}")
    assert wide == [], f"{name}: wider than the screen: {wide}"


def game_events(seed: int = 3) -> list[dict[str, Any]]:
    events = random_game(random.Random(seed), players=3)
    return events


def seat_link(page: Any, server: Server, name: str) -> str:
    unlock(page, server, "/setup")
    link: str = page.get_attribute(f".seat-links a:text-is('{name}')", "href")
    page.context.clear_cookies()
    return link


def keep_focus_marker(page: Any, selector: str) -> None:
    page.focus(selector)
    page.evaluate("() => { window.__focused = document.activeElement; }")


def focus_kept(page: Any) -> bool:
    result: bool = page.evaluate(
        "() => document.activeElement === window.__focused && document.contains(window.__focused)")
    return result


@pytest.mark.parametrize("size", SIZES)
def test_no_page_is_wider_than_its_screen(page: Any, server: Server, size: str) -> None:
    """End of game, setup, guide, deck, history, a seat, the buffet: nothing scrolls sideways."""
    page.set_viewport_size(SIZES[size])
    events = game_events()
    for event in events:
        server.post("/api/events", event)
    unlock(page, server, "/")
    wait_stream(page)
    assert "Classement final" in page.inner_text("#state")
    no_overflow(page, f"{size}-game-over")
    for path in ("/setup", "/guide", "/deck", "/history"):
        page.goto(server.url + path)
        no_overflow(page, f"{size}-{path.strip('/')}")
    server.post("/api/events", {"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Anne"})
    page.goto(server.url + "/")
    wait_stream(page)
    no_overflow(page, f"{size}-buffet")
    page.goto(server.url + "/seat/Anne")
    wait_stream(page)
    no_overflow(page, f"{size}-buffet-seat")


def test_game_over_takes_the_grid_away_and_puts_the_standings_first(page: Any, server: Server) -> None:
    events = game_events()
    for event in events[:-1]:
        server.post("/api/events", event)
    page.set_viewport_size(SIZES["tablet"])
    unlock(page, server, "/")
    wait_stream(page)
    assert page.is_visible(".card-btn")
    server.post("/api/events", events[-1])
    page.wait_for_function("() => document.getElementById('state').innerText.includes('Classement final')")
    page.wait_for_timeout(200)  # the host bar is applied with the fragment
    assert not page.is_visible(".card-btn")
    summary = page.inner_text("#summary-title + *")
    assert summary.splitlines()[0].startswith(PLAYERS[0]) or "★" in summary  # the standings, not the last trick
    # What a player hears about the game's end stays reachable above the fold at 1024×768.
    for control in ("#repeat", "#where", "#voice-toggle"):
        box = page.locator(control).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1024, control


def test_a_refusal_is_shown_said_once_a_log_line_and_a_sound_when_chosen(page: Any, server: Server) -> None:
    events = simulate(random.Random(5), players=3, known_hands={0, 1, 2}, noise=Noise(revoke=1.0)).events
    page.set_viewport_size(SIZES["tablet"])
    page.goto(server.url + "/")
    assert page.evaluate("window.marmiteCues") == []
    assert page.get_attribute("#sounds-toggle", "aria-pressed") == "false"  # off by default
    page.click("#sounds-toggle")
    assert page.evaluate("window.marmiteCues") == ["turn"]  # the sample
    unlock(page, server, "/")
    wait_stream(page)
    count = 0
    for event in events:
        answer = server.post("/api/events", event)
        count += 1
        if not answer["accepted"]:
            break
    wait_log(page, count)
    page.wait_for_selector("#refusal:not([hidden])")
    banner = page.inner_text("#refusal")
    assert page.get_attribute("#refusal", "role") is None  # shown; said once, by the page's one voice
    said = page.evaluate("window.__spoken") if page.evaluate("document.body.dataset.voice") == "on" else \
        [page.inner_text("#announce-urgent")]
    assert sum(1 for text in said if banner in text) <= 1
    refused = page.locator("#log li.refused").first.inner_text()
    assert refused.startswith("Refusé :") and banner in refused
    assert "refused" in page.evaluate("window.marmiteCues")
    # The log: headings per round and trick, newest first, then oldest first on demand.
    headings = page.locator("#log h4").all_inner_texts()
    assert any(h.startswith("Manche 1 · pli") for h in headings)
    assert "Manche 1" in page.locator("#log h3").all_inner_texts()  # a heading per round, the tricks under it
    newest = page.locator("#log li").first.inner_text()
    page.click("#log-order")
    assert page.locator("#log li").last.inner_text() == newest
    page.reload()
    wait_stream(page)
    assert page.locator("#log li").last.inner_text() == newest  # the order is remembered
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.id") == "log-title"


def test_a_refusal_box_is_whole_above_the_fold_at_1024x768(page: Any, server: Server) -> None:
    events = simulate(random.Random(5), players=3, known_hands={0, 1, 2}, noise=Noise(revoke=1.0)).events
    page.set_viewport_size(SIZES["tablet"])
    unlock(page, server, "/")
    wait_stream(page)
    for event in events:
        if not server.post("/api/events", event)["accepted"]:
            break
    page.wait_for_selector("#refusal:not([hidden])")
    box = page.locator("#refusal").bounding_box()
    assert page.evaluate("window.scrollY") == 0
    assert box is not None and box["y"] + box["height"] <= 768


def test_the_log_keeps_the_whole_game(page: Any, server: Server) -> None:
    events = random_game(random.Random(4), players=5)
    for event in events:
        server.post("/api/events", event)
    page.goto(server.url + "/")
    wait_stream(page)
    shown = page.locator("#log li").count()
    assert shown == len(events) and len(events) > 200  # every announcement of the game, not the last 200
    rounds = page.locator("#log h3").all_inner_texts()
    assert [f"Manche {n}" in rounds for n in range(1, 6)] == [True] * 5  # a heading per round


def test_fact_keys_answer_at_once_and_the_profile_is_one_key(page: Any, server: Server) -> None:
    events = game_events()
    cards = [i for i, e in enumerate(events) if e["type"] == "card"]
    for event in events[: cards[4]]:
        server.post("/api/events", event)
    page.goto(server.url + "/")
    wait_stream(page)
    pot = server.get("/api/state")["pot"]["sum"]
    page.keyboard.press("p")
    assert page.evaluate("window.__spoken")[-1].startswith(f"Marmite : {pot}")
    page.keyboard.press("t")
    assert "jouer" in page.evaluate("window.__spoken")[-1]
    page.keyboard.press("s")
    assert "étoile" in page.evaluate("window.__spoken")[-1]
    assert page.inner_text("#fact-answer").endswith(page.evaluate("window.__spoken")[-1])
    assert page.inner_text("#profile-toggle") == "Verbosité : normale"
    page.keyboard.press("v")
    assert page.inner_text("#profile-toggle") == "Verbosité : détaillée"
    assert page.evaluate("window.__spoken")[-1] == "Verbosité : détaillée"
    page.keyboard.press("v")
    assert page.inner_text("#profile-toggle") == "Verbosité : brève"
    page.reload()
    wait_stream(page)
    assert page.inner_text("#profile-toggle") == "Verbosité : brève"  # remembered on this device
    before = len(page.evaluate("window.__spoken"))
    server.post("/api/events", events[cards[4]])
    wait_log(page, 1)
    said = " ".join(page.evaluate("window.__spoken")[before:])
    full = page.evaluate("window.marmiteLog")[-1]
    turn = [part["text"] for part in full["parts"] if part["key"] == "turn"]
    assert turn and turn[0] not in said  # brief: whose turn is left to the T key


@pytest.mark.parametrize("size", SIZES)
def test_a_live_update_never_moves_the_focus(page: Any, server: Server, size: str) -> None:
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Chloé"})
    link = seat_link(page, server, "Bruno")
    page.set_viewport_size(SIZES[size])
    page.goto(link)
    wait_stream(page)
    page.click("[data-output=aloud]")
    keep_focus_marker(page, ".seat-menu-btn[data-menu=onion]")  # a control inside the live part
    refreshed = int(page.evaluate("document.body.dataset.refreshed"))
    for name, menu in (("Anne", "pea"), ("Chloé", "pepper")):
        server.post("/api/events", {"type": "menu", "player": name, "menu": menu})
    page.wait_for_function("n => Number(document.body.dataset.refreshed) >= n", arg=refreshed + 2)
    assert focus_kept(page)
    keep_focus_marker(page, "#fact-keys [data-fact=turn]")  # a fact key, beside the live part
    server.post("/api/events", {"type": "menu", "player": "Bruno", "menu": "onion"})
    page.wait_for_function("n => Number(document.body.dataset.refreshed) >= n", arg=refreshed + 3)
    assert focus_kept(page)
    no_overflow(page, f"{size}-seat")


def test_the_tablet_keeps_its_focus_on_the_card_grid(page: Any, server: Server) -> None:
    events = game_events()
    cards = [i for i, e in enumerate(events) if e["type"] == "card"]
    for event in events[: cards[0]]:
        server.post("/api/events", event)
    page.set_viewport_size(SIZES["tablet"])
    unlock(page, server, "/")
    wait_stream(page)
    keep_focus_marker(page, ".card-btn[data-code='pepper-5b']")
    refreshed = int(page.evaluate("document.body.dataset.refreshed"))
    for event in events[cards[0]: cards[0] + 3]:
        server.post("/api/events", event)
    page.wait_for_function("n => Number(document.body.dataset.refreshed) >= n", arg=refreshed + 3)
    assert focus_kept(page)


def test_vibration_is_offered_only_where_the_phone_has_it(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Chloé"})
    page.context.add_init_script(
        "window.__buzzes = []; navigator.vibrate = p => { window.__buzzes.push(p); return true; };")
    page.goto(server.url + "/seat/Anne")
    wait_stream(page)
    assert page.is_visible("#vibration-toggle")
    assert page.get_attribute("#vibration-toggle", "aria-pressed") == "false"  # off by default
    page.click("#vibration-toggle")
    assert page.evaluate("window.__buzzes") == [[200, 100, 200]]  # the turn pattern, as a sample
    other = page.context.browser.new_context(viewport=SIZES["phone"], locale="fr-FR")
    other.add_init_script("delete Navigator.prototype.vibrate;")
    without = other.new_page()
    without.goto(server.url + "/seat/Anne")
    without.wait_for_function("() => document.body.dataset.stream === 'open'")
    assert not without.is_visible("#vibration-toggle")  # silently absent
    other.close()


def test_joining_a_seat_asks_for_one_voice(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Chloé"})
    link = seat_link(page, server, "Anne")
    page.set_viewport_size(SIZES["phone"])
    page.goto(link)
    wait_stream(page)
    assert page.is_visible("#join-choice")
    assert audit(page, "join-choice") == []
    page.click("[data-output=reader]")
    assert not page.is_visible("#join-choice")
    spoken_before = len(page.evaluate("window.__spoken"))
    server.post("/api/events", {"type": "menu", "player": "Bruno", "menu": "pea"})
    wait_log(page, 1)
    page.wait_for_function("() => document.getElementById('announce').textContent.length > 0")
    assert len(page.evaluate("window.__spoken")) == spoken_before  # the screen reader's voice only
    page.reload()
    wait_stream(page)
    assert not page.is_visible("#join-choice")  # remembered
    assert page.is_checked("input[name=output][value=reader]")


def test_a_phone_left_on_a_replaced_game_says_so(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Chloé"})
    link = seat_link(page, server, "Chloé")
    page.goto(link)
    wait_stream(page)
    server.post("/api/events", {"type": "new_game", "players": ["Denis", "Eva", "Fanny"], "dealer": "Eva"})
    page.wait_for_selector("#seat-gone")
    assert "Chloé" in page.inner_text("#seat-gone")
    assert page.locator("#log li").count() == 1  # the new game's log starts afresh


def test_the_buffet_phone_can_speak_only_what_concerns_its_player(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Anne"})
    page.goto(server.url + "/seat/Bruno")
    wait_stream(page)
    assert page.locator("input[name=speak][value=mine]").count() == 1
    assert page.is_checked("input[name=speak][value=mine]")


def test_private_menu_buttons_are_big_enough_and_suits_stay_with_their_names(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Chloé"})
    page.set_viewport_size(SIZES["tablet"])
    unlock(page, server, "/")
    wait_stream(page)
    page.click(".private-menu[data-seat='0']")
    page.click("#private-ready")
    for box in [b.bounding_box() for b in page.locator("#private-menu button:visible").all()]:
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    white = page.evaluate("""() => { const s = document.createElement('span'); s.className = 'suit';
        document.body.appendChild(s); const w = getComputedStyle(s).whiteSpace; s.remove(); return w; }""")
    assert white == "nowrap"


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_new_states_pass_axe_in_three_languages(page: Any, server: Server, language: str) -> None:
    unlock(page, server, "/setup")
    server.post("/api/settings", {"language": language})
    events = simulate(random.Random(5), players=3, known_hands={0, 1, 2}, noise=Noise(revoke=1.0)).events
    for event in events:
        if not server.post("/api/events", event)["accepted"]:
            break
    page.goto(server.url + "/")
    wait_stream(page)
    page.click("#sounds-toggle")
    page.click("#log-order")
    page.keyboard.press("p")
    assert audit(page, f"table-{language}") == []
    no_overflow(page, f"table-{language}")
    page.goto(server.url + "/setup")
    assert audit(page, f"setup-pin-{language}") == []
    page.context.clear_cookies()
    page.goto(server.url + "/seat/" + events[0]["players"][0])
    wait_stream(page)
    assert audit(page, f"seat-{language}") == []


def test_a_players_own_keys_on_their_phone(page: Any, server: Server) -> None:
    events = simulate(random.Random(2), players=3, known_hands={0, 1, 2}).events
    first_card = next(i for i, e in enumerate(events) if e["type"] == "card")
    for event in events[:first_card]:
        server.post("/api/events", event)
    owner = events[0]["players"][1]
    hand = next(e for e in events if e["type"] == "hand" and e["player"] == owner)
    link = seat_link(page, server, owner)
    page.set_viewport_size(SIZES["phone"])
    page.goto(link)
    wait_stream(page)
    page.click("[data-output=aloud]")
    page.keyboard.press("m")
    said = " ".join(page.evaluate("window.__spoken")[-4:])
    assert f"{len(hand['cards'])} cartes" in page.inner_text("#fact-answer") and said
    page.keyboard.press("1")
    assert page.inner_text("#fact-answer").startswith("Pois :")
    faces = [name for name in page.inner_text("#fact-answer")[7:].split(" ; ") if name]  # the suit said once:
    assert all(name.isdigit() or name in ("bouillon", "carte débordement", "aucune") for name in faces), faces
    page.keyboard.press("e")
    assert page.inner_text("#fact-answer").startswith("Votre menu :")
    page.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: '&', code: 'Digit1', bubbles: true}))")
    assert page.inner_text("#fact-answer").startswith("Pois :")  # the 1 key of a French AZERTY keyboard
    no_overflow(page, "phone-own-seat")


def test_buffet_keys_on_the_tablet(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Bruno"})
    page.goto(server.url + "/")
    wait_stream(page)
    page.keyboard.press("t")
    assert page.inner_text("#fact-answer").startswith(page.inner_text("#turn").split(":")[0])
    page.keyboard.press("s")
    assert all(name in page.inner_text("#fact-answer") for name in PLAYERS)
    assert page.locator("#fact-keys [data-fact=led]").count() == 0  # no led suit in this game


HOLD_FRAGMENTS = """
(function () {
  const real = window.fetch.bind(window);
  window.__releasedFragments = 0;
  window.fetch = function (url, options) {
    if (typeof url !== "string" || url.indexOf("/fragment/") !== 0) return real(url, options);
    const older = window.__heldFragment;
    if (older) { window.__heldFragment = null; older(); }  // the older answer arrives only now, late
    return real(url, options).then(function (response) {
      return new Promise(function (resolve) {
        let done = false;
        const release = function () {
          if (!done) { done = true; window.__releasedFragments += 1; resolve(response); }
        };
        window.__heldFragment = release;
        setTimeout(function () {
          if (window.__heldFragment === release) window.__heldFragment = null;
          release();
        }, 2000);
      });
    });
  };
})();
"""
"""From now on, each fragment's answer is held until the next fragment is asked (at most 2 s)."""


def test_the_detailed_profile_adds_the_state_after_a_play_but_not_what_the_plays_line_said(page: Any,
                                                                                          server: Server) -> None:
    """Issue 30: "Marmite : 9, Oignon. À Cléo de jouer." right after "Oignon 4 — 9. À Cléo, couleur demandée
    Oignon." said the pot and the turn twice; the state after a play keeps only what its line did not say."""
    events = game_events()
    cards = [i for i, e in enumerate(events) if e["type"] == "card"]
    for event in events[: cards[1]]:
        server.post("/api/events", event)
    page.context.add_init_script("localStorage.setItem('marmite.profile', 'detailed');")
    page.goto(server.url + "/")
    wait_stream(page)
    assert page.inner_text("#profile-toggle") == "Verbosité : détaillée"
    before = len(page.evaluate("window.__spoken"))
    logged, refreshed = page.evaluate("[window.marmiteLog.length, Number(document.body.dataset.refreshed || 0)]")
    server.post("/api/events", events[cards[1]])
    state = server.get("/api/state")
    page.wait_for_function("a => window.marmiteLog.length > a[0] && Number(document.body.dataset.refreshed) > a[1]",
                           arg=[logged, refreshed])
    page.wait_for_function("() => !window.MarmiteSpeech.voice.busy()")
    line = page.evaluate("window.marmiteLog[window.marmiteLog.length - 1].text")
    pot = state["pot"]
    assert state["turn"] in line  # the card's line said the turn and the pot (its sum, or the trick taken)
    assert (f"— {pot['sum']}" in line) if pot["cards"] else ("gagne le pli" in line), line
    assert not [t for t in page.evaluate("window.__spoken")[before:] if t.startswith("Marmite")]
    whole = page.evaluate("window.MarmiteA11y.detailAfter('')")  # the pieces, none said yet
    assert whole.startswith(f"Marmite : {pot['sum']}." if pot["cards"] else "Marmite vide."), whole
    assert whole.endswith(f"À {state['turn']} de jouer."), whole
    assert page.evaluate("l => window.MarmiteA11y.detailAfter(l)", line) == ""
    assert page.evaluate("window.MarmiteA11y.detailAfter('Un pli sans rapport.')") == whole
    # a refresh answered late (held until the next is asked) shows the state before the next line: never said
    page.evaluate(HOLD_FRAGMENTS)
    spoken_before = len(page.evaluate("window.__spoken"))
    server.post("/api/events", events[cards[1] + 1])
    page.wait_for_function("() => window.__heldFragment")  # the state after that card, held in the page
    server.post("/api/events", events[cards[1] + 2])
    page.wait_for_function("() => window.__releasedFragments >= 2", timeout=10000)
    page.wait_for_function("() => !window.MarmiteSpeech.voice.busy()")
    stale = [t for t in page.evaluate("window.__spoken")[spoken_before:] if t.startswith("Marmite")]
    assert not stale, page.evaluate("window.__spoken")[spoken_before:]
    # a silent message between a play's line and its refresh (at a practice table: the next robot's choice,
    # noted without a word) leaves the line the state is said against: "Marmite : 9. … À Marmiton de jouer."
    # came whole after "Pois 1 — 9. À Marmiton."
    spoken_before = len(page.evaluate("window.__spoken"))
    released = page.evaluate("window.__releasedFragments")
    server.post("/api/events", events[cards[1] + 3])
    page.wait_for_function("() => window.__heldFragment")
    page.evaluate("""() => window.marmiteSource.onmessage({data: JSON.stringify(
        {kind: "robot", accepted: true, text: "", parts: []}), lastEventId: ""})""")
    page.wait_for_function("r => window.__releasedFragments >= r + 2", arg=released, timeout=10000)
    page.wait_for_function("() => !window.MarmiteSpeech.voice.busy()")
    whole = [t for t in page.evaluate("window.__spoken")[spoken_before:] if t.startswith("Marmite")]
    assert not whole, page.evaluate("window.__spoken")[spoken_before:]
    rest = events[cards[1] + 4:cards[1] + 80]  # more of the game: cards, trick and round ends, new hands, menus
    last = 0
    for event in rest:
        last = server.post("/api/events", event)["seq"]
    page.wait_for_function("s => window.marmiteLog.some(m => m.seq >= s)", arg=last, timeout=30000)
    page.wait_for_function("() => !window.MarmiteSpeech.voice.busy()")
    said = page.evaluate("window.__spoken")
    assert not [t for t in said if t.startswith("Rien à dire")]  # never "nothing to say" after a play
    details = [t for t in said if t.startswith("Marmite :")]
    assert all(a != b for a, b in itertools.pairwise(details))  # never the same state twice



def test_a_phone_speaking_what_concerns_its_player_says_the_state_its_own_line_left_out(page: Any,
                                                                                       server: Server) -> None:
    """Issue 30: Ana's "mine" phone said nothing of Bruno's card, yet the whole card line was taken as said, so
    the detailed profile dropped every piece: "Marmite : 9, Oignon. À Cléo de jouer." was never heard."""
    events = game_events()
    cards = [i for i, e in enumerate(events) if e["type"] == "card"]
    for event in events[: cards[0]]:
        server.post("/api/events", event)
    leader = server.get("/api/state")["turn"]  # neither plays the second card nor plays next: not her line
    for event in events[cards[0]: cards[1]]:
        server.post("/api/events", event)
    link = seat_link(page, server, leader)
    page.context.add_init_script("localStorage.setItem('marmite.profile', 'detailed');"
                                 "localStorage.setItem('marmite.voice', 'on');"
                                 "localStorage.setItem('marmite.speak', 'mine');")
    page.goto(link)  # a real table whose tablet is not open: this phone is its player's only voice
    wait_stream(page)
    assert page.is_checked("input[name=speak][value=mine]")
    before = len(page.evaluate("window.__spoken"))
    logged, refreshed = page.evaluate("[window.marmiteLog.length, Number(document.body.dataset.refreshed || 0)]")
    server.post("/api/events", events[cards[1]])
    state = server.get("/api/state")
    assert state["turn"] != leader
    page.wait_for_function("a => window.marmiteLog.length > a[0] && Number(document.body.dataset.refreshed) > a[1]",
                           arg=[logged, refreshed])
    page.wait_for_function("() => !window.MarmiteSpeech.voice.busy()")
    said = page.evaluate("window.__spoken")[before:]
    details = [t for t in said if t.startswith("Marmite")]
    assert details, said
    heard = " ".join(t for t in said if not t.startswith("Marmite"))  # what this phone said of the line
    assert details == [page.evaluate("l => window.MarmiteA11y.detailAfter(l)", heard)], said


def test_the_detailed_state_drops_only_pieces_its_line_names_as_whole_words(page: Any, server: Server) -> None:
    """Issue 30: a piece was dropped when its words were only inside another word: the Dutch suit "Ui" in "om te
    duiken" or "Bouillon", "Ana" in "Anaïs"; the card "Pois 1" in "Pois 10"."""
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Chloé"})
    page.goto(server.url + "/")
    wait_stream(page)
    after = page.evaluate("""lines => {
      document.querySelectorAll('#facts').forEach(f => f.remove());
      const facts = document.createElement('div');
      facts.id = 'facts';
      facts.hidden = true;
      facts.innerHTML = '<p data-fact="detail"><span data-heard="Pois 1">Marmite : 11</span>. '
        + '<span data-heard="Ui">Gevraagde kleur: Ui</span>. '
        + '<span data-heard="Ana|Anne">Ana is aan de beurt</span>.</p>';
      document.body.appendChild(facts);
      return lines.map(l => window.MarmiteA11y.detailAfter(l));
    }""", ["Bouillon om te duiken, Anaïs komt uit.", "Ui 4 — 9. Aan Ana.", "ui 4, anne.", "Pois 10 — 11. À Ana.",
           "Pois 1 — 11."])
    assert after == ["Marmite : 11. Gevraagde kleur: Ui. Ana is aan de beurt.", "Marmite : 11.", "Marmite : 11.",
                     "Marmite : 11. Gevraagde kleur: Ui.", "Gevraagde kleur: Ui. Ana is aan de beurt."]


def test_switching_to_the_detailed_profile_says_no_state_against_a_line_heard_before(page: Any,
                                                                                    server: Server) -> None:
    """Issue 30: outside the detailed profile the play's refresh never cleared what the state was to follow, so
    switching to it with V said the state of an old line at the next refresh."""
    events = game_events()
    cards = [i for i, e in enumerate(events) if e["type"] == "card"]
    for event in events[: cards[0]]:
        server.post("/api/events", event)
    leader = server.get("/api/state")["turn"]
    for event in events[cards[0]: cards[1]]:
        server.post("/api/events", event)
    link = seat_link(page, server, leader)
    page.context.add_init_script("localStorage.setItem('marmite.voice', 'on');"
                                 "localStorage.setItem('marmite.speak', 'mine');")
    page.goto(link)  # normal profile: a play's line is said, never the state after it
    wait_stream(page)
    logged, refreshed = page.evaluate("[window.marmiteLog.length, Number(document.body.dataset.refreshed || 0)]")
    server.post("/api/events", events[cards[1]])
    page.wait_for_function("a => window.marmiteLog.length > a[0] && Number(document.body.dataset.refreshed) > a[1]",
                           arg=[logged, refreshed])
    page.keyboard.press("v")
    assert page.inner_text("#profile-toggle") == "Verbosité : détaillée"
    before = len(page.evaluate("window.__spoken"))
    refreshed = page.evaluate("Number(document.body.dataset.refreshed)")
    page.evaluate("""() => window.marmiteSource.onmessage({data: JSON.stringify(
        {kind: "robot", accepted: true, text: "", parts: []}), lastEventId: ""})""")  # a silent message: a refresh
    page.wait_for_function("r => Number(document.body.dataset.refreshed) > r", arg=refreshed)
    page.wait_for_function("() => !window.MarmiteSpeech.voice.busy()")
    assert not [t for t in page.evaluate("window.__spoken")[before:] if t.startswith("Marmite")]


def test_a_status_the_page_wrote_survives_the_next_refresh(page: Any, server: Server) -> None:
    """The chef's advice in #practice-status was wiped by the next robot's refresh (the server's copy is empty),
    sometimes before anyone could read it; a status the page writes stays until the page writes another."""
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Chloé"})
    page.goto(server.url + "/")
    wait_stream(page)
    kept = page.evaluate("""() => {
      const box = document.createElement('div');
      box.innerHTML = '<p id="own" role="status" data-page-status></p><p id="plain" role="status"></p>';
      document.body.appendChild(box);
      box.querySelector('#own').textContent = 'Le chef jouerait Pois 5.';
      box.querySelector('#plain').textContent = 'old';
      window.MarmiteA11y.update(box, '<p id="own" role="status" data-page-status></p><p id="plain" role="status"></p>');
      const first = [box.querySelector('#own').textContent, box.querySelector('#plain').textContent];
      const plain = '<p id="plain" role="status"></p>';
      window.MarmiteA11y.update(box, '<p id="own" role="status" data-page-status>Nouveau</p>' + plain);
      return first.concat([box.querySelector('#own').textContent]);
    }""")
    assert kept == ["Le chef jouerait Pois 5.", "", "Nouveau"]
