"""The Sus au buffet ! pages: the tablet (ring, buffet, reveals, stacks, summary, standings), the phones,
the setup page and the history, in the table's language."""

from __future__ import annotations

import random
import re
from typing import Any

from flask.testing import FlaskClient

from companion.buffet.simulate import random_game
from tests.web_ui.conftest import HEADERS

SIX = ["Ana", "Ben", "Cléo", "Dan", "Éloïse", "Farid"]


def post(client: FlaskClient, event: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.post("/api/events", json=event, headers=HEADERS).get_json()
    return answer


def start(client: FlaskClient, players: list[str], plates: list[str]) -> None:
    assert post(client, {"type": "new_game", "game": "buffet", "players": players, "first": players[0]})["accepted"]
    for code in plates:
        assert post(client, {"type": "plate", "plate": code})["accepted"]


def cards(client: FlaskClient, *values: int) -> None:
    for value in values:
        assert post(client, {"type": "card", "card": "mouse-n1" if value == -1 else f"mouse-{value}"})["accepted"]


def test_the_tablet_shows_the_ring_every_mouse_by_name_colour_and_shape(client: FlaskClient) -> None:
    start(client, SIX, ["plate-cheese-3", "plate-salad-n1", "plate-pizza-2", "plate-potato-1", "plate-chicken-0"])
    cards(client, 7, 3)
    page = client.get("/").get_data(as_text=True)
    assert 'id="ring-title"' in page and page.count('class="mouse mouse-') == 6
    for name in SIX:
        assert name in page
    assert "(rouge, rond)" in page and "(bleu, carré)" in page and "(orange, hexagone)" in page
    assert "Case 7, en tête" in page and "Case 3, deuxième" in page and "Case 0, troisième ex æquo" in page
    assert "À Cléo de dévoiler" in page
    buffet = re.search(r'<ol class="plates" id="buffet">(.*?)</ol>', page, re.S)
    assert buffet is not None
    assert re.findall(r">([^<>]+?)</li>", buffet.group(1)) == [
        "fromage à 3", "pizza à 2", "pommes de terre à 1", "poulet à 0", "salade de tomates à −1"]
    reveals = re.search(r'<ol id="reveals">(.*?)</ol>', page, re.S)
    assert reveals is not None and "Ana : 7" in reveals.group(1) and "Ben : 3" in reveals.group(1)
    assert "style=" not in page and "<script>" not in page


def test_stacked_plates_mark_the_counted_one_and_the_round_summary_lists_departures(client: FlaskClient) -> None:
    players = ["Ana", "Ben", "Cléo", "Dan"]
    start(client, players, ["plate-cheese-3", "plate-salad-n1", "plate-pizza-2"])
    cards(client, 9, 8, 7, 6, 9, 8, 7, 9, 8)  # Dan salad −1, Cléo pizza 2, Ana cheese 3, Ben nothing
    for code in ("plate-salad-3", "plate-potato-0", "plate-chicken-1"):
        post(client, {"type": "plate", "plate": code})
    cards(client, 9, 8, 7, 6, 9, 8, 7, 9, 8)  # Dan potato 0, Cléo chicken 1, Ana salad 3
    page = client.get("/fragment/table").get_data(as_text=True)
    assert "Fin de la manche 2" in page and "Ben — rien" in page
    dan = page[page.rindex("> Dan"):]
    assert "salade de tomates à −1 <small>(compte)" in dan and "pommes de terre à 0 <small>(compte)" in dan
    ana = page[page.rindex("> Ana"):page.rindex("> Ben")]
    assert "fromage à 3 <small>(compte)" in ana and "salade de tomates à 3 <small>(compte)" in ana


def test_a_covered_plate_is_marked_covered(client: FlaskClient) -> None:
    players = ["Ana", "Ben", "Cléo", "Dan"]
    start(client, players, ["plate-cheese-3", "plate-salad-n1", "plate-pizza-2"])
    cards(client, 9, 8, 7, 6, 9, 8, 7, 9, 8)  # Ana cheese 3
    for code in ("plate-cheese-4", "plate-potato-0", "plate-chicken-1"):
        post(client, {"type": "plate", "plate": code})
    cards(client, 9, 8, 7, 6, 9, 8, 7, 9, 8)  # Ana cheese 4, on top of cheese 3
    seat = client.get("/seat/Ana").get_data(as_text=True)
    assert "fromage à 3 <small>(recouverte)" in seat and "fromage à 4 <small>(compte)" in seat
    page = client.get("/fragment/table").get_data(as_text=True)
    ana_row = page[page.rindex("> Ana"):page.rindex("> Ben")]
    assert ana_row.index("fromage à 3 <small>(recouverte)") < ana_row.index("fromage à 4 <small>(compte)")
    assert client.get("/api/state").get_json()["score"]["Ana"] == 4


def test_the_phone_shows_position_distances_and_plates(client: FlaskClient) -> None:
    start(client, ["Ana", "Ben", "Cléo", "Dan"], ["plate-cheese-3", "plate-salad-n1", "plate-pizza-2"])
    cards(client, 7, 3, 5)
    ben = client.get("/fragment/seat/Ben").get_data(as_text=True)
    assert "Case 3" in ben and "Souris derrière : à 3 cases" in ben and "Souris devant : à 2 cases" in ben
    dan = client.get("/fragment/seat/Dan").get_data(as_text=True)
    assert 'id="my-turn"' in dan and "Personne devant" not in dan
    ana = client.get("/seat/Ana").get_data(as_text=True)
    assert "Personne devant" in ana and "Souris derrière : à 2 cases" in ana and "buffet.js" in ana


def test_final_standings_explain_the_tie_break_and_history_lists_steps(client: FlaskClient) -> None:
    for event in random_game(random.Random(8), players=3):
        post(client, event)
    state = client.get("/api/state").get_json()
    assert state["phase"] == "game_over"
    page = client.get("/fragment/table").get_data(as_text=True)
    assert "Classement final" in page and all(winner in page for winner in state["winners"])
    history = client.get("/history").get_data(as_text=True)
    assert "Manche 7" in history and "Départs" in history


def test_the_tie_break_sentence_names_the_deciding_food(client: FlaskClient) -> None:
    for event in random_game(random.Random(9), players=3):  # a seed whose game ends 5, 8, 8: Ben's food decides
        post(client, event)
    state = client.get("/api/state").get_json()
    tied = [name for name, points in state["score"].items() if points == max(state["score"].values())]
    assert len(tied) == 2 and len(state["winners"]) == 1
    page = client.get("/fragment/table").get_data(as_text=True)
    sentence = re.search(r'<p id="tie-break">Égalité départagée par les plats ; plat décisif : (.+?).</p>', page)
    assert sentence is not None
    food = sentence.group(1)
    winner_row = re.search(rf"<li>{state['winners'][0]} — .*?</li>", page)
    loser = next(name for name in tied if name not in state["winners"])
    loser_row = re.search(rf"<li>{loser} — .*?</li>", page)
    assert winner_row is not None and loser_row is not None
    assert food in winner_row.group(0) and food not in loser_row.group(0)


def test_a_shared_victory_is_said_so(client: FlaskClient) -> None:
    for event in random_game(random.Random(2), players=3):  # a seed whose game ends 12, 8, 12 with the same foods
        post(client, event)
    assert len(client.get("/api/state").get_json()["winners"]) == 2
    assert '<p id="tie-break">Victoire partagée : mêmes plats.</p>' in client.get("/").get_data(as_text=True)


def test_the_buffet_setup_page_and_its_link(client: FlaskClient) -> None:
    assert "/setup/buffet" in client.get("/setup").get_data(as_text=True)
    page = client.get("/setup/buffet").get_data(as_text=True)
    assert 'id="new-buffet-game"' in page and "3 à 6 joueurs" in page and "buffet.js" in page


def test_controls_list_every_plate_and_mouse_card_when_unlocked(client: FlaskClient) -> None:
    start(client, ["Ana", "Ben", "Cléo"], [])
    assert 'class="plate-btn"' not in client.get("/").get_data(as_text=True)
    client.post("/api/unlock", json={"pin": HEADERS["X-Table-Pin"]})
    page = client.get("/").get_data(as_text=True)
    assert page.count('class="plate-btn"') == 42 and page.count('class="mouse-btn"') == 11 and 'id="undo"' in page


def test_buffet_pages_follow_the_table_language(client: FlaskClient) -> None:
    start(client, ["Ana", "Ben", "Cléo"], ["plate-cheese-3", "plate-salad-n1", "plate-pizza-2", "plate-potato-1",
                                           "plate-chicken-0"])
    client.post("/api/settings", json={"language": "nl"}, headers=HEADERS)
    page = client.get("/").get_data(as_text=True)
    assert "Ronde 1 · deel 1" in page and "kaas 3" in page and "in dit deel te winnen" in page
    client.post("/api/settings", json={"language": "en"}, headers=HEADERS)
    assert "The buffet, best to worst" in client.get("/").get_data(as_text=True)


def test_past_games_list_a_buffet_game_with_its_scores(client: FlaskClient) -> None:
    for event in random_game(random.Random(2), players=3):
        post(client, event)
    state = client.get("/api/state").get_json()
    page = client.get("/setup").get_data(as_text=True)
    for name, points in state["score"].items():
        assert f"{name} {points}" in page
    assert client.get("/api/games").get_json()[-1]["score"] == state["score"]


def test_english_and_dutch_pages_put_no_space_before_colons_and_semicolons(client: FlaskClient) -> None:
    for event in random_game(random.Random(8), players=3):
        post(client, event)
    french = client.get("/history").get_data(as_text=True)
    assert "Assiettes" in french and " : " in french  # French keeps its space before the colon
    for language in ("en", "nl"):
        client.post("/api/settings", json={"language": language}, headers=HEADERS)
        for path in ("/history", "/", "/seat/Ana"):
            page = client.get(path).get_data(as_text=True)
            text = re.sub(r"<[^>]+>", "", page)
            assert " : " not in text and " ; " not in text, (language, path)
