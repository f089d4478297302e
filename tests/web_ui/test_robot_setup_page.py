"""The robots page lists the page table's games whose rules seat robots, each with its own setup words."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient


def options(page: str) -> list[str]:
    return re.findall(r'<option value="(\w+)" data-first="(\w*)"( data-default)?>', page)  # type: ignore[return-value]


def test_the_product_games_are_listed_with_the_same_words_as_before(client: FlaskClient) -> None:
    page = client.get("/setup/robots").get_data(as_text=True)
    assert options(page) == [("chaud_devant", "dealer", " data-default"), ("buffet", "first", "")]
    assert "Donneur (Chaud Devant) ou premier joueur (Sus au buffet) : numéro du joueur" in page
    assert ("vérifiez les noms, le nombre de joueurs (3 à 5 pour Chaud Devant, 3 à 6 pour Sus au buffet), qu’au"
            in html.unescape(page))

