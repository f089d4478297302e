"""A seat is claimed only by its page in a real browser (a POST with the page's cookie and CSRF token):
link previews, QR peeks and `curl` (cookieless GET or HEAD) never claim; the PIN holder can release a seat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table import TableService
from marmite.serve import table_app
from tests.web_ui.conftest import HEADERS, PIN, new_game
from tests.web_ui.seat_phone import claim, key_of
from web_ui.resources import table_resources


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
    service = table_resources(app).service
    serial = service.last_serial
    released = client.post("/api/seat/Bruno/release", headers=HEADERS)
    assert released.status_code == 200 and released.get_json() == {"released": True}
    said = [service.render(message)["text"] for message in service.wait_after(serial, 0.1)]
    assert "Place de Bruno libérée : l’hôte donne son nouveau lien depuis les Réglages." in said  # by voice too
    assert secret_menu(lost, "Bruno") is None  # the lost phone no longer sees it
    assert f"k={key_of(app, 'Bruno')}" in organiser.get("/setup").get_data(as_text=True)  # a link to hand out
    found = app.test_client()
    claim(found, "Bruno")
    assert secret_menu(found, "Bruno") == "pepper"


def _csrf(page: str) -> str:
    match = re.search(r'data-csrf="([^"]+)"', page)
    assert match is not None
    return match.group(1)


def test_a_released_seats_old_link_and_old_phone_never_claim_it_back(app: Flask, client: FlaskClient,
                                                                     service: TableService, tmp_path: Path) -> None:
    new_game(client)
    client.post("/api/events", headers=HEADERS, json={"type": "menu", "player": "Bruno", "menu": "pepper"})
    lost = app.test_client()
    old_key = claim(lost, "Bruno")
    assert client.post("/api/seat/Bruno/release", headers=HEADERS).get_json() == {"released": True}
    new_key = key_of(app, "Bruno")
    assert new_key != old_key  # the release made a new link
    for phone in (lost, app.test_client()):  # the old phone (its cookie remembers the key), or anyone with the link
        page = phone.get(f"/seat/Bruno?k={old_key}").get_data(as_text=True)
        assert "data-claim" not in page  # the page's script does not claim it back
        again = phone.post("/api/seat/Bruno/claim", json={"k": old_key}, headers={"X-CSRF-Token": _csrf(page)})
        assert again.status_code == 403
        assert secret_menu(phone, "Bruno") is None
    organiser = app.test_client()
    organiser.post("/api/unlock", json={"pin": PIN})
    setup = organiser.get("/setup").get_data(as_text=True)
    assert f"k={new_key}" in setup and f"k={old_key}" not in setup  # the host hands out the new link
    assert claim(lost, "Bruno") == new_key  # the released player comes back with it
    assert secret_menu(lost, "Bruno") == "pepper"
    restarted = table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True})
    assert key_of(restarted, "Bruno") == new_key  # a restart keeps the new key: the old link stays dead
    assert key_of(restarted, "Virginie") == key_of(app, "Virginie")  # other seats keep their links


def test_a_release_that_cannot_be_kept_changes_nothing(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    new_game(client)
    client.post("/api/events", headers=HEADERS, json={"type": "menu", "player": "Bruno", "menu": "pepper"})
    phone = app.test_client()
    key = claim(phone, "Bruno")
    (tmp_path / "seat-releases.json").mkdir()  # the release file cannot be replaced
    refused = client.post("/api/seat/Bruno/release", headers=HEADERS)
    assert refused.status_code == 507 and "nothing changed" in refused.get_json()["error"]
    assert key_of(app, "Bruno") == key
    assert secret_menu(phone, "Bruno") == "pepper"  # the phone still holds its seat
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".seat-releases")] == []


def test_a_name_with_a_slash_has_its_seat_page_link_and_menu(app: Flask, client: FlaskClient) -> None:
    """The contract allows any name: 'Jean/Marie' gets a seat page, a claim and a secret menu like anyone."""
    answer = client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": ["Jean/Marie", "Bruno", "Chloé"], "dealer": "Bruno"})
    assert answer.get_json()["accepted"] is True
    organiser = app.test_client()
    organiser.post("/api/unlock", json={"pin": PIN})
    assert "/seat/Jean%2FMarie?k=" in organiser.get("/setup").get_data(as_text=True)
    phone = app.test_client()
    key = key_of(app, "Jean/Marie")
    page = phone.get(f"/seat/Jean%2FMarie?k={key}")  # as the setup page's link and the script send it
    assert page.status_code == 200
    token = {"X-CSRF-Token": page.get_data(as_text=True).split('data-csrf="')[1].split('"')[0]}
    assert phone.post("/api/seat/Jean%2FMarie/claim", json={"k": key}, headers=token).status_code == 200
    assert phone.get("/fragment/seat/Jean%2FMarie").status_code == 200
    chose = phone.post("/api/seat/Jean%2FMarie/menu", json={"menu": "pepper"}, headers=token)
    assert chose.status_code == 200, chose.get_json()
    assert phone.get("/api/seat/Jean%2FMarie").get_json()["my_menu"] == "pepper"


def test_a_seat_link_opened_on_a_second_phone_says_why_it_shows_no_secrets(app: Flask, client: FlaskClient) -> None:
    """The second phone saw the seat's page without its menu or hand and no word of why (the walk's leftover)."""
    new_game(client)
    client.post("/api/events", headers=HEADERS, json={"type": "menu", "player": "Bruno", "menu": "pepper"})
    phone = app.test_client()
    key = claim(phone, "Bruno")
    notice = "Cette place est déjà ouverte sur un autre téléphone"
    own = phone.get(f"/seat/Bruno?k={key}").get_data(as_text=True)
    assert notice not in own and "Votre menu" in own  # the holder's own page, with its secret menu
    assert notice not in app.test_client().get("/seat/Bruno").get_data(as_text=True)  # no link: a public page
    second = app.test_client().get(f"/seat/Bruno?k={key}").get_data(as_text=True)
    assert notice in second and "Votre menu" not in second


def test_the_seat_links_say_what_a_link_shows_in_either_game(app: Flask, client: FlaskClient) -> None:
    """The links' hint said "il affiche son menu" in Sus au buffet !, which has no menu (the walk)."""
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": ["Ana", "Bip", "Bop"], "first": "Ana"}).get_json()["accepted"]
    organiser = app.test_client()
    organiser.post("/api/unlock", json={"pin": PIN})
    setup = organiser.get("/setup").get_data(as_text=True)
    assert "ce qui n’est qu’à lui" in setup and "il affiche son menu" not in setup
