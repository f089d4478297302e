"""A player's phone opening its seat link as a real browser does: the page (which sets the session
cookie and carries its CSRF token), then the claim its script POSTs."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from web_ui.seats import seat_key


def key_of(app: Flask, name: str) -> str:
    with app.test_request_context():
        return seat_key(name)


def claim(phone: FlaskClient, name: str) -> str:
    """Open `name`'s seat link on `phone` and claim the seat as its page's script does; the key."""
    key = key_of(phone.application, name)
    page = phone.get(f"/seat/{name}?k={key}").get_data(as_text=True)
    match = re.search(r'data-csrf="([^"]+)"', page)
    assert match is not None, "the seat page carries its CSRF token"
    answer = phone.post(f"/api/seat/{name}/claim", json={"k": key}, headers={"X-CSRF-Token": match.group(1)})
    assert answer.status_code == 200, answer.get_json()
    return key


def own_phone(app: Flask, name: str) -> tuple[FlaskClient, str]:
    """`name`'s own phone, its seat claimed and its page opened: the client and the page's CSRF token."""
    phone = app.test_client()
    key = claim(phone, name)  # as the seat page's script does: opening a link claims nothing
    page = phone.get(f"/seat/{name}?k={key}").get_data(as_text=True)
    match = re.search(r'data-csrf="([^"]+)"', page)
    assert match is not None, "the seat page carries its CSRF token"
    return phone, match.group(1)
