"""A seat is claimed only by its page in a real browser (a POST with the page's cookie and CSRF token):
link previews, QR peeks and `curl` (cookieless GET or HEAD) never claim; the PIN holder can release a seat."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_ui.conftest import HEADERS, new_game
from tests.web_ui.seat_phone import claim, key_of


def secret_menu(phone: FlaskClient, name: str) -> object:
    return phone.get(f"/api/seat/{name}").get_json()["my_menu"]


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_link_preview_never_claims_the_seat(app: Flask, client: FlaskClient, method: str) -> None:
    new_game(client)
    client.post("/api/events", headers=HEADERS, json={"type": "menu", "player": "Bruno", "menu": "pepper"})
    key = key_of(app, "Bruno")
    preview = app.test_client(use_cookies=False)  # a chat app's preview, a QR scanner, curl
    for path in (f"/seat/Bruno?k={key}", f"/fragment/seat/Bruno?k={key}", f"/api/seat/Bruno?k={key}"):
        assert preview.open(path, method=method).status_code == 200
    organiser = app.test_client()
    organiser.post("/api/unlock", json={"pin": "2468"})
    assert f"k={key}" in organiser.get("/setup").get_data(as_text=True)  # the link is still free to hand out
    phone = app.test_client()
    claim(phone, "Bruno")  # the real phone, later, gets its secrets
    assert secret_menu(phone, "Bruno") == "pepper"
    assert secret_menu(preview, "Bruno") is None


def test_a_claim_needs_the_pages_cookie_and_the_links_key(app: Flask, client: FlaskClient) -> None:
    new_game(client)
    key = key_of(app, "Bruno")
    bare = app.test_client(use_cookies=False)
    assert bare.post("/api/seat/Bruno/claim", json={"k": key}).status_code == 403  # no session, no CSRF
    phone = app.test_client()
    page = phone.get("/seat/Bruno").get_data(as_text=True)
    token = page.split('data-csrf="')[1].split('"')[0]
    wrong = phone.post("/api/seat/Bruno/claim", json={"k": "0" * 20}, headers={"X-CSRF-Token": token})
    assert wrong.status_code == 403
    assert phone.post("/api/seat/Nobody/claim", json={"k": key}, headers={"X-CSRF-Token": token}).status_code == 404
    seat_page = phone.get(f"/seat/Bruno?k={key}").get_data(as_text=True)
    assert f'data-claim="{key}"' in seat_page  # its script claims it
    claim(phone, "Bruno")
    assert "data-claim" not in phone.get(f"/seat/Bruno?k={key}").get_data(as_text=True)
    other = app.test_client()
    page = other.get(f"/seat/Bruno?k={key}").get_data(as_text=True)
    assert "data-claim" not in page
    token = page.split('data-csrf="')[1].split('"')[0]
    taken = other.post("/api/seat/Bruno/claim", json={"k": key}, headers={"X-CSRF-Token": token})
    assert taken.status_code == 409 and "release" in taken.get_json()["error"]


def test_the_pin_holder_releases_a_seat_from_the_setup_page(app: Flask, client: FlaskClient) -> None:
    new_game(client)
    client.post("/api/events", headers=HEADERS, json={"type": "menu", "player": "Bruno", "menu": "pepper"})
    lost = app.test_client()
    claim(lost, "Bruno")
    organiser = app.test_client()
    organiser.post("/api/unlock", json={"pin": "2468"})
    setup = organiser.get("/setup").get_data(as_text=True)
    assert "Bruno : place tenue par un téléphone" in setup and 'data-release="Bruno"' in setup
    assert "Libérer la place : Bruno" in setup
    assert app.test_client().post("/api/seat/Bruno/release").status_code == 401  # only the PIN holder
    service = app.extensions["marmite.service"]
    serial = service.last_serial
    released = client.post("/api/seat/Bruno/release", headers=HEADERS)
    assert released.status_code == 200 and released.get_json() == {"released": True}
    said = [service.render(message)["text"] for message in service.wait_after(serial, 0.1)]
    assert "Place de Bruno libérée : son lien peut être rouvert." in said  # on every display and by voice
    assert secret_menu(lost, "Bruno") is None  # the lost phone no longer sees it
    assert f"k={key_of(app, 'Bruno')}" in organiser.get("/setup").get_data(as_text=True)  # the link works again
    found = app.test_client()
    claim(found, "Bruno")
    assert secret_menu(found, "Bruno") == "pepper"
