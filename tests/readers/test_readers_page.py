"""The tablet's readers page: the reader's health as the table knows it, and the PIN-guarded search."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.reader_words import words
from companion.table import TableService
from marmite.games import GAMES
from marmite.reader_scan import Candidate, Verdict, report
from marmite.serve import table_app
from web_ui.resources import Scanner

PIN = "2468"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    table = TableService.open(tmp_path, GAMES)
    yield table
    table.close()


@pytest.fixture
def app(service: TableService, tmp_path: Path) -> Flask:
    return table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True})


def csrf(client: FlaskClient, path: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).get_data(as_text=True))
    assert found is not None
    return found.group(1)


def unlock(client: FlaskClient) -> None:
    token = csrf(client, "/unlock")
    assert client.post("/unlock", data={"csrf_token": token, "pin": PIN, "next": "/readers"}).status_code == 302


def test_the_page_shows_each_reader_s_state_in_the_table_s_language(app: Flask, service: TableService) -> None:
    service.reader_health("pcsc", False, "no PC/SC reader: plug the reader in", {"state": "missing"})
    service.reader_health("pn532", True, "PN532 v1.6 ready on /dev/ttyUSB0", {"state": "ok"})
    page = app.test_client().get("/readers").get_data(as_text=True)
    assert "<strong>pcsc</strong> : absent — no PC/SC reader: plug the reader in" in page
    assert "<strong>pn532</strong> : prêt — PN532 v1.6 ready on /dev/ttyUSB0" in page
    assert "Déverrouiller" in page or "PIN" in page, "no search without the PIN"
    assert "Chercher les lecteurs" not in page


def scanning(service: TableService, tmp_path: Path, scanner: Scanner) -> Flask:
    """The app with the composition root's reader search handed in."""
    return table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True}, reader_scan=scanner)


def test_the_search_needs_the_pin_and_shows_the_exact_command(service: TableService, tmp_path: Path) -> None:
    calls: list[int] = []

    def scanner() -> list[dict[str, Any]]:
        calls.append(1)
        return [Verdict(Candidate("pn532", (("port", "/dev/ttyUSB0"),), "serial port /dev/ttyUSB0"), "ok",
                        "PN532 v1.6 ready on /dev/ttyUSB0").for_page(),
                Verdict(Candidate("pn532", (("port", "/dev/ttyS0"),), "serial port /dev/ttyS0"), "missing",
                        "no PN532 answers on /dev/ttyS0").for_page()]

    app = scanning(service, tmp_path, scanner)
    client = app.test_client()
    token = csrf(client, "/unlock")
    locked = client.post("/readers/scan", data={"csrf_token": token})
    assert locked.status_code == 302 and "/unlock" in locked.headers["Location"] and not calls
    assert client.post("/readers/scan", data={}).status_code == 400, "no CSRF token, no search"
    unlock(client)
    done = client.post("/readers/scan", data={"csrf_token": csrf(client, "/readers")})
    assert done.status_code == 302 and calls == [1]
    page = client.get("/readers").get_data(as_text=True)
    assert "<code>marmite run --reader pn532 --reader-option port=/dev/ttyUSB0</code>" in page
    assert "absent — no PN532 answers on /dev/ttyS0" in page
    assert page.count("<code>") == 1, "only a reader that answered gets a command"


def test_the_setup_page_links_to_it(app: Flask) -> None:
    assert 'href="/readers"' in app.test_client().get("/setup").get_data(as_text=True)


def test_a_pc_sc_reader_that_says_nothing_of_contactless_cards_is_unsure_on_the_page_as_in_the_terminal(
        service: TableService, tmp_path: Path) -> None:
    slot = Verdict(Candidate("pcsc", (("reader", "Alcor Micro AU9540"),), "PC/SC Alcor Micro AU9540 00 00"), "ok",
                   "Alcor Micro AU9540 00 00 ready; not named like a contactless reader", unsure=True)
    assert report([slot])[0].startswith("UNSURE "), "what `marmite reader scan` prints"
    app = scanning(service, tmp_path, lambda: [slot.for_page()])
    client = app.test_client()
    unlock(client)
    assert client.post("/readers/scan", data={"csrf_token": csrf(client, "/readers")}).status_code == 302
    page = client.get("/readers").get_data(as_text=True)
    assert '<tr data-state="unsure">' in page and "<td>incertain — Alcor Micro AU9540 00 00 ready" in page
    assert "<td>prêt" not in page


def test_health_and_search_results_are_shown_in_the_table_s_language(service: TableService, tmp_path: Path) -> None:
    missing = words("pcsc_none")
    service.reader_health("pcsc", False, str(missing), {"state": "missing"}, missing)
    said = words("pn532_none", where="/dev/ttyS0", why="timeout")
    place = words("where_serial", where="/dev/ttyS0")
    verdict = Verdict(Candidate("pn532", (("port", "/dev/ttyS0"),), str(place), place), "missing", str(said),
                      said=said)
    app = scanning(service, tmp_path, lambda: [verdict.for_page()])
    client = app.test_client()
    unlock(client)
    assert client.post("/readers/scan", data={"csrf_token": csrf(client, "/readers")}).status_code == 302
    page = client.get("/readers").get_data(as_text=True)
    assert "<strong>pcsc</strong> : absent — aucun lecteur PC/SC : branchez le lecteur" in page
    assert '<th scope="row">port série /dev/ttyS0</th>' in page
    assert "absent — aucun PN532 ne répond sur /dev/ttyS0 (timeout) ; mettez ses interrupteurs" in page
    assert "no PN532 answers" not in page and "serial port" not in page
