"""The deck at the table, in Chromium: enrollment from the tablet with a restart, import, check, the guide."""

from __future__ import annotations

import re
from typing import Any

import pytest

from marmite.games import GAMES
from tests.browser.conftest import Server, audit, shot, unlock

pytestmark = pytest.mark.browser
CODES = GAMES.kinds[GAMES.default].tag_codes  # a Chaud Devant box (the default game's cards)


def uid(index: int) -> str:
    return f"04{index:012x}"


def current_is(page: Any, text: str) -> None:
    page.wait_for_function("t => document.getElementById('enroll-current').textContent === t", arg=text,
                           timeout=15000)


def spoken_includes(page: Any, text: str) -> None:
    page.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=text, timeout=15000)


def test_a_whole_deck_enrolled_from_the_tablet_with_a_restart(page: Any, server: Server) -> None:
    unlock(page, server, "/deck")
    page.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=15000)
    page.click("#enroll-start")
    current_is(page, "Pois, zéro, bouillon — premier exemplaire")
    spoken_includes(page, "Pois, zéro, bouillon — premier exemplaire.")
    assert page.inner_text("#enroll-count") == "0 / 77"
    server.post("/api/drop", {"uid": uid(0)})  # the reader sees the first card
    current_is(page, "Pois, zéro, bouillon — second exemplaire")
    server.post("/api/drop", {"uid": uid(0)})  # the same tag again: refused, naming its card
    spoken_includes(page, "Refusée : cette étiquette est déjà Pois, zéro, bouillon — premier exemplaire.")
    page.click("[data-enroll=skip]")
    current_is(page, "Pois, un — premier exemplaire")
    page.click("[data-enroll=back]")
    current_is(page, "Pois, zéro, bouillon — second exemplaire")
    for index in range(1, 20):
        server.post("/api/drop", {"uid": uid(index)})
    page.wait_for_function("() => document.getElementById('enroll-count').textContent === '20 / 77'")
    shot(page, "deck-enrolling")
    assert audit(page, "deck-enrolling") == []
    page.click("[data-enroll=stop]")
    spoken_includes(page, "Enregistrement arrêté")
    server.stop()
    server.start()
    page.goto(server.url + "/deck")
    page.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=15000)
    page.click("#enroll-start")
    current_is(page, "Oignon, trois — premier exemplaire")  # CODES[20]: where we stopped
    assert CODES[20] == "onion-3a"
    for index in range(20, 77):
        server.post("/api/drop", {"uid": uid(index)})
    spoken_includes(page, "Enregistrement terminé : 77 sur 77.")
    page.wait_for_function("() => document.body.dataset.deckActivity === 'none'")  # the reader is the game's again
    assert page.is_hidden("#enroll-panel")
    assert server.get("/api/deck")["decks"][0]["cards"] == 77 and server.get("/api/deck")["activity"] is None


def test_a_busy_reader_refuses_in_view_and_aloud_saying_how_to_free_it(page: Any, server: Server) -> None:
    unlock(page, server, "/deck")
    page.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=15000)
    page.click("#enroll-start")
    page.wait_for_function("() => document.body.dataset.deckActivity === 'enroll'")
    page.click("[data-check=start]")
    said = ("Le lecteur enregistre le jeu de cartes : les cartes ne sont pas jouées. Pour le libérer, appuyez"
            " sur « Arrêter (reprendre plus tard) » sur la page Jeu de cartes.")
    page.wait_for_function("t => document.getElementById('check-refused').textContent === t", arg=said)
    refused = page.locator("#check-refused")
    assert refused.is_visible() and refused.evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")  # in view
    spoken_includes(page, said)
    shot(page, "deck-reader-busy")
    assert audit(page, "deck-reader-busy") == []
    page.click("[data-enroll=stop]")
    page.click("[data-check=start]")
    page.wait_for_function("() => document.body.dataset.deckActivity === 'check'")
    assert page.inner_text("#check-refused") == ""


def test_import_a_deck_file_then_check_it_on_the_setup_path(page: Any, server: Server) -> None:
    unlock(page, server, "/setup")
    page.click("a[href='/deck']")
    page.wait_for_url(server.url + "/deck")
    page.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=15000)
    rows = "".join(f"{uid(i)},{code}\n" for i, code in enumerate(CODES))
    bad = "uid,card\n" + rows + f"{uid(99)},pea-0a\n"
    page.set_input_files("#deck-file", files=[{"name": "deck.csv", "mimeType": "text/csv", "buffer": bad.encode()}])
    page.click("#deck-import button[type=submit]")
    page.wait_for_function("() => document.getElementById('deck-status').textContent.includes('row 79')")
    assert server.get("/api/deck")["decks"][0]["cards"] == 0
    page.set_input_files("#deck-file", files=[{"name": "deck.csv", "mimeType": "text/csv",
                                               "buffer": ("uid,card\n" + rows).encode()}])
    page.click("#deck-import button[type=submit]")
    page.wait_for_function("() => document.body.textContent.includes('77 étiquettes')", timeout=15000)
    page.click("[data-check=start]")
    spoken_includes(page, "Passez tout le paquet au-dessus du lecteur.")
    for index in [*range(1, 77), 5]:
        server.post("/api/drop", {"uid": uid(index)})
    server.post("/api/drop", {"uid": "cafebabe"})
    page.wait_for_function("() => document.getElementById('check-live').textContent === '76 / 77'")
    page.click("[data-check=finish]")
    page.wait_for_selector("#check-report:not([hidden])")
    assert page.locator("#check-missing li").all_inner_texts() == ["Pois, zéro, bouillon — premier exemplaire"]
    assert page.locator("#check-unknown li").all_inner_texts() == ["cafebabe"]
    assert page.locator("#check-doubled li").all_inner_texts() == ["Pois, deux — second exemplaire"]
    spoken_includes(page, "Pas vues : Pois, zéro, bouillon — premier exemplaire.")
    shot(page, "deck-check-report")
    assert audit(page, "deck-check") == []


@pytest.mark.parametrize("lang", ["fr", "en", "nl"])
def test_the_adaptation_guide_is_large_print_and_accessible(page: Any, server: Server, lang: str) -> None:
    page.goto(f"{server.url}/guide?lang={lang}")
    assert page.get_attribute("html", "lang") == lang
    assert page.locator("table tbody tr").count() == 77
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('main p')).fontSize)")
    assert size >= 24  # large print: 1.6rem
    words = {"fr": "en haut à droite", "en": "top right", "nl": "rechtsboven"}[lang]
    assert words in page.inner_text("main")
    shot(page, f"guide-{lang}")
    assert audit(page, f"guide-{lang}") == []


def test_the_guide_prints_to_pdf_in_each_language(tmp_path: Any) -> None:
    from pathlib import Path

    from marmite.guide_pdf import CHROMIUM, print_guides

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/test installs it)")
    written = print_guides(tmp_path, languages=("fr", "nl"))
    assert [path.name for path in written] == ["guide-fr.pdf", "guide-nl.pdf"]
    for path in written:
        data = path.read_bytes()
        assert data.startswith(b"%PDF-")
        pages = re.findall(rb"/Type\s*/Page[^s]", data)
        assert len(pages) >= 3  # large print: the checklist alone takes several pages
