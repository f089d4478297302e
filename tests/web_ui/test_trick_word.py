"""The log's word for a trick on every page comes from the game's pages' own attribute, not from computing
the game's whole helpers on each render."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_ui.conftest import HEADERS
from web_ui.games.buffet.pages import BuffetPages
from web_ui.page_common import trick_word


def test_the_buffets_trick_word_needs_none_of_its_helpers(app: Flask, client: FlaskClient,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with app.test_request_context():
        assert trick_word() is None  # Chaud Devant: the log's own word ("pli")
    start = {"type": "new_game", "game": "buffet", "players": ["Ana", "Bip", "Bop"], "first": "Ana"}
    assert client.post("/api/events", headers=HEADERS, json=start).get_json()["accepted"]

    def costly(self: Any, language: str) -> dict[str, Any]:
        raise AssertionError("the whole helpers dict computed for one word")

    monkeypatch.setattr(BuffetPages, "helpers", costly)
    with app.test_request_context():
        assert trick_word() == "étape %(n)s"
    assert client.post("/api/settings", json={"language": "en"}, headers=HEADERS).status_code == 200
    with app.test_request_context():
        assert trick_word() == "step %(n)s"
