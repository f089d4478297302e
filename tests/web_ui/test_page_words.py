"""What the pages write: plurals that agree with their numbers, French spacing, no code for a player."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.chaud_devant.simulate import random_game
from companion.referee import Referee
from marmite.games import GAMES
from tests.web_ui.conftest import HEADERS


def _agree(text: str, singular: str, plural: str) -> list[str]:
    """Counts whose noun disagrees with them under the French rule (0 and 1 singular)."""
    wrong = []
    for count, noun in re.findall(rf"(\d+) ({singular}|{plural})\b", text):
        if (noun == singular) != (int(count) <= 1):
            wrong.append(f"{count} {noun}")
    return wrong


def test_final_table_counts_tricks_and_stars_in_good_french(client: FlaskClient) -> None:
    for seed in range(3, 40):
        events = random_game(random.Random(seed), players=3)
        referee = Referee(GAMES)
        for event in events:
            referee.apply(event)
        stars = referee.state.progress.stars if referee.state is not None else []
        if min(stars) <= 1:  # a game where someone ends on 0 or 1 star
            break
    for event in events:
        client.post("/api/events", json=event, headers=HEADERS)
    page = re.sub(r"<[^>]+>", " ", client.get("/fragment/table").get_data(as_text=True))
    assert re.search(r"\b[01] (pli|étoile)\b", page)  # the singular is exercised
    assert _agree(page, "pli", "plis") == []
    assert _agree(page, "étoile", "étoiles") == []
    assert re.search(r"\w : [+-]\d", page)  # "Pois : +7"
    assert not re.search(r"\w: [+-]\d", page)


def _until_a_pepper_lead() -> list[dict[str, Any]]:
    """The events of a simulated game up to a pot holding only a Piment lead."""
    for seed in range(200):
        events = random_game(random.Random(seed), players=3)
        referee = Referee(GAMES)
        for index, event in enumerate(events):
            referee.apply(event)
            pot = referee.state.progress.pot if referee.state is not None else None
            if pot is not None and pot.cards and pot.led is None:
                return events[: index + 1]
    raise AssertionError("no Piment lead in 200 games")


def test_a_pepper_lead_is_not_an_empty_pot(client: FlaskClient) -> None:
    """After a Piment lead the pot has a card but no led suit yet: never "Marmite vide"."""
    for event in _until_a_pepper_lead():
        client.post("/api/events", json=event, headers=HEADERS)
    page = client.get("/fragment/table").get_data(as_text=True)
    assert "Marmite vide" not in page
    assert "Pas encore de couleur demandée" in page


def _pot_fact(client: FlaskClient, language: str) -> str:
    client.post("/api/settings", json={"language": language}, headers=HEADERS)
    page = client.get("/fragment/table").get_data(as_text=True)
    found = re.search(r'<p data-fact="pot">(.*?)</p>', page)
    assert found is not None
    return html.unescape(found.group(1))


def test_the_pot_key_says_an_empty_pot_once_and_a_spoiled_soup_mid_sentence_in_lower_case(
        client: FlaskClient) -> None:
    """Issue 30: P said "Marmite : 0, Marmite vide" and "Pot: 2, Spoiled soup" (a capital mid-sentence)."""
    events = _until_a_pepper_lead()
    for event in events[:-1]:
        client.post("/api/events", json=event, headers=HEADERS)
    assert _pot_fact(client, "fr") == "Marmite vide"
    client.post("/api/events", json=events[-1], headers=HEADERS)
    assert re.fullmatch(r"Marmite : \d+, soupe gâchée", _pot_fact(client, "fr"))
    assert re.fullmatch(r"Pot: \d+, spoiled soup", _pot_fact(client, "en"))
    assert re.fullmatch(r"Pot: \d+, soep bedorven", _pot_fact(client, "nl"))


def test_a_refused_setup_is_explained_in_the_page_language(client: FlaskClient) -> None:
    page = html.unescape(client.get("/setup").get_data(as_text=True))
    assert "La partie n'a pas été lancée : il faut 3 à 5 joueurs" in page
    assert "data-msg-locked=\"Déverrouillez d'abord la table" in page
    assert '<select id="dealer"' in page and 'type="number" min="1" max="5"' not in page


def test_the_final_chart_has_axis_values_and_small_legend_swatches(client: FlaskClient) -> None:
    for event in random_game(random.Random(3), players=3):
        client.post("/api/events", json=event, headers=HEADERS)
    page = client.get("/fragment/table").get_data(as_text=True)
    stars = client.get("/api/table").get_json()["stars_by_round"]
    top = max([5, *(v for point in stars for v in point.values())])
    chart = page[page.index('<figure class="chart">'):]
    ticks = re.findall(r'class="tick"[^>]*>(\d+)</text>', chart)
    assert str(top) in ticks and "0" in ticks
    css = (Path(__file__).resolve().parents[2] / "web_ui" / "static" / "app.css").read_text()
    assert re.search(r"\.chart \.legend svg \{[^}]*width: 40px", css)
    assert "line-through" not in css


def test_the_favicon_is_served(client: FlaskClient) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.get_data(as_text=True).startswith("<svg")
    assert 'rel="icon"' in client.get("/").get_data(as_text=True)


def test_round_five_forced_menus_follow_the_reveal_order(client: FlaskClient) -> None:
    events = random_game(random.Random(5), players=4, menu_reveal="sequential")
    menus = [i for i, e in enumerate(events) if e["type"] == "menu"]
    for event in events[: menus[16]]:
        client.post("/api/events", json=event, headers=HEADERS)
    client.post("/api/unlock", json={"pin": HEADERS["X-Table-Pin"]})
    page = client.get("/fragment/table").get_data(as_text=True)
    forced = html.unescape(page.split('data-forced="')[1].split('"')[0]).split(";")
    assert forced == [f"{e['player']}={e['menu']}" for e in events[menus[16]: menus[16] + 4]]
    for pair in forced:
        name, menu = pair.split("=")
        answer = client.post("/api/events", json={"type": "menu", "player": name, "menu": menu}, headers=HEADERS)
        assert answer.get_json()["accepted"] is True
    assert client.get("/api/state").get_json()["phase"] == "play"


def test_english_and_dutch_facts_put_no_space_before_semicolons(client: FlaskClient) -> None:
    events = random_game(random.Random(5), players=4)
    for event in events[: len(events) // 2]:
        client.post("/api/events", json=event, headers=HEADERS)
    assert " ; " in re.sub(r"<[^>]+>", "", client.get("/").get_data(as_text=True))  # French: its space
    for language in ("en", "nl"):
        client.post("/api/settings", json={"language": language}, headers=HEADERS)
        text = re.sub(r"<[^>]+>", "", client.get("/").get_data(as_text=True))
        assert " ; " not in text and " : " not in text, language


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_detailed_state_knows_the_spoiled_soup_its_line_said(client: FlaskClient, language: str) -> None:
    """Issue 30: the English line says ", soup spoiled" but the detail's piece listened for "spoiled soup", so
    the detailed profile said the spoiled soup a second time."""
    client.post("/api/settings", json={"language": language}, headers=HEADERS)
    for event in _until_a_pepper_lead():
        client.post("/api/events", json=event, headers=HEADERS)
    page = html.unescape(client.get("/fragment/table").get_data(as_text=True))
    detail = re.search(r'<p data-fact="detail">(.*?)</p>', page, re.S)
    assert detail is not None
    heard = [words for words in re.findall(r'data-heard="([^"]*)"', detail.group(1))]
    spoiled = heard[1]  # the pot, the spoiled soup, the turn
    line = client.post("/api/repeat", headers=HEADERS).get_json()["text"].lower()  # the last line said
    assert any(words and words.lower() in line for words in spoiled.split("|")), (spoiled, line)
