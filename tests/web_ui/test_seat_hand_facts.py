"""The own seat's hand keys (1 to 4, one suit each) name each card once, without its suit again."""

from __future__ import annotations

import html

from flask import Flask

from companion.table import TableService
from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import own_phone

PLAYERS = ["Ana", "Bruno", "Cléo"]
PEPPERS = ["pepper-1a", "pepper-1b", "pepper-2a", "pepper-2b", "pepper-3a", "pepper-3b", "pepper-4a", "pepper-4b"]


def test_a_suit_key_says_the_suit_once_then_each_cards_value(app: Flask, service: TableService) -> None:
    client = app.test_client()
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": PLAYERS, "dealer": "Cléo"}).get_json()["accepted"]
    assert service.submit({"type": "hand", "player": "Ana",
                           "cards": ["pea-0a", "pea-3a", "pea-5a", "pea-x", "onion-10", *PEPPERS]}).accepted
    phone, _ = own_phone(app, "Ana")
    page = html.unescape(phone.get("/fragment/seat/Ana").get_data(as_text=True))
    fact = page.split('data-fact="hand-1">')[1].split("</p>")[0]
    assert fact == "Pois : bouillon ; 3 ; 5 ; carte débordement"  # was "Pois : Bouillon de Pois ; Pois 3 ; …"
    assert page.split('data-fact="hand-2">')[1].split("</p>")[0] == "Oignon : 10"


def test_the_buffet_phones_cards_key_is_its_own_and_says_when_the_table_knows_none(app: Flask) -> None:
    """C ("my cards") on a buffet phone: the seat's own phone only; at a real table the cards are the player's
    alone, and C says so rather than nothing."""
    client = app.test_client()
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Ana"}).get_json()["accepted"]
    phone, _ = own_phone(app, "Ana")
    page = html.unescape(phone.get("/fragment/seat/Ana").get_data(as_text=True))
    assert page.split('data-fact="cards">')[1].split("</p>")[0] == \
        "La table ne connaît pas vos cartes : elles sont dans votre main."
    assert 'aria-keyshortcuts="C"' in html.unescape(phone.get("/seat/Ana").get_data(as_text=True))
    other = html.unescape(client.get("/seat/Ana").get_data(as_text=True))
    assert 'data-fact="cards"' not in other and 'aria-keyshortcuts="C"' not in other  # not anyone else's
