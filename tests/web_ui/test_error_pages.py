"""Error pages a person meets (too many PIN tries on the unlock page) speak the table's language."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web_ui.conftest import HEADERS


def _token(client: FlaskClient) -> str:
    page = client.get("/unlock").get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def _until_429(client: FlaskClient) -> str:
    token = _token(client)
    for _ in range(20):
        answer = client.post("/unlock", data={"csrf_token": token, "pin": "0000"})
        if answer.status_code == 429:
            assert int(answer.headers["Retry-After"]) >= 1
            assert answer.mimetype == "text/html"
            return answer.get_data(as_text=True)
        assert answer.status_code == 200
    raise AssertionError("the unlock page was never limited")


def test_too_many_tries_on_the_unlock_page_is_said_in_french(client: FlaskClient) -> None:
    page = _until_429(client)
    assert 'lang="fr"' in page and "Trop d’essais" in page
    assert "Too Many Requests" not in page and "too many" not in page


def test_and_in_dutch_when_the_table_speaks_dutch(client: FlaskClient) -> None:
    assert client.post("/api/settings", json={"language": "nl"}, headers=HEADERS).status_code == 200
    page = _until_429(client)
    assert 'lang="nl"' in page and "Te veel pogingen" in page


def test_a_missing_page_and_an_expired_form_are_said_in_the_tables_language(client: FlaskClient) -> None:
    """Found in review: every error page but the 429 was English on a French table."""
    missing = client.get("/no-such-page")
    assert missing.status_code == 404
    page = missing.get_data(as_text=True)
    assert 'lang="fr"' in page and "Page introuvable" in page and "Not Found" not in page
    stranger = client.get("/seat/Personne")
    assert stranger.status_code == 404 and "Aucun joueur nommé Personne" in stranger.get_data(as_text=True)
    expired = client.post("/unlock", data={"csrf_token": "stale", "pin": "0000"})
    assert expired.status_code == 400 and "Cette page a expiré" in expired.get_data(as_text=True)
    assert client.post("/api/settings", json={"language": "nl"}, headers=HEADERS).status_code == 200
    assert "Pagina niet gevonden" in client.get("/no-such-page").get_data(as_text=True)
    assert "<script>" not in client.get("/seat/%3Cscript%3E").get_data(as_text=True)  # still escaped
