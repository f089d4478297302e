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
