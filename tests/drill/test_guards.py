"""Drills in process: escaping and CSP on every page, own-path redirects, sessions tied to the PIN,
secret menus kept from the PIN holder, the hub's events safe from notes, espeak-ng given data only."""

from __future__ import annotations

import re
import shutil
import threading
from pathlib import Path

import pytest
from flask import Flask

from companion.hub import Hub
from companion.phrases import TABLE_VOICE
from companion.seam import Part
from companion.table import TableService
from marmite.serve import table_app
from tests.drill.conftest import HEADERS, PIN, PLAYERS
from tests.web_ui.seat_phone import claim
from web_ui.speaker import Phrase, Speaker, SpeechQueue, command, speakable

HOSTILE = '<img src=x onerror="alert(1)">'


def start(app: Flask, players: list[str] = PLAYERS) -> None:
    answer = app.test_client().post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": players, "dealer": players[-1]})
    assert answer.get_json()["accepted"] is True, answer.get_json()


@pytest.mark.parametrize("path", [f"/seat/{HOSTILE}", f"/fragment/seat/{HOSTILE}", "/nothing/<script>x</script>"])
def test_unknown_names_are_echoed_as_text(app: Flask, path: str) -> None:
    start(app)
    answer = app.test_client().get(path)
    assert answer.status_code == 404
    text = answer.get_data(as_text=True)
    assert "<img" not in text and "<script>x" not in text
    assert path.startswith("/nothing") or "&lt;img" in text  # the name is shown, as text


def test_every_page_has_a_strict_policy_and_no_inline_code(app: Flask) -> None:
    start(app, [HOSTILE, "Bert", "Chloé"])
    client = app.test_client()
    client.post("/api/unlock", json={"pin": PIN})
    for path in ("/", "/setup", "/history", "/unlock", "/fragment/table", "/seat/Bert", "/deck", "/guide",
                 "/api/state", "/nope"):
        answer = client.get(path)
        policy = answer.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe" not in policy
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        if answer.mimetype != "text/html":
            continue  # JSON may hold any name: it is never rendered as a page (nosniff)
        html = answer.get_data(as_text=True)
        # no inline script; a JSON data block (the log's seed) is never run, and a name cannot close it
        assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))", html), path
        assert html.count("<script") == html.count("</script>"), path
        assert not re.search(r"<style|<[^>]*\s(style|on[a-z]+)=", html), path  # no inline style or handler
        assert "<img" not in html, path


def test_session_cookie_is_httponly_and_strict(app: Flask) -> None:
    answer = app.test_client().post("/api/unlock", json={"pin": PIN})
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


@pytest.mark.parametrize("target", ["/%09/evil.example", "/\t/evil.example", "//evil.example", "/\\evil.example",
                                    "http://evil.example/", " /x", "/x\r\nSet-Cookie: a=b", "javascript:alert(1)"])
def test_unlock_redirects_only_to_this_site(app: Flask, target: str) -> None:
    from urllib.parse import unquote
    client = app.test_client()
    page = client.get("/unlock").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf is not None
    answer = client.post("/unlock", data={"pin": PIN, "csrf_token": csrf.group(1), "next": unquote(target)})
    assert answer.status_code == 302 and answer.headers["Location"] == "/"


def test_a_plain_path_is_still_followed(app: Flask) -> None:
    client = app.test_client()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/unlock").get_data(as_text=True))
    assert csrf is not None
    answer = client.post("/unlock", data={"pin": PIN, "csrf_token": csrf.group(1), "next": "/setup"})
    assert answer.headers["Location"] == "/setup"


def test_a_new_pin_locks_browsers_unlocked_with_the_old_one(service: TableService, tmp_path: Path) -> None:
    old = table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True})
    browser = old.test_client()
    csrf = browser.post("/api/unlock", json={"pin": PIN}).get_json()["csrf"]
    assert browser.get("/api/auth").get_json()["authorized"] is False  # no CSRF header on a GET
    assert browser.get("/api/auth", headers={"X-CSRF-Token": csrf}).get_json()["authorized"] is True
    cookie = browser.get_cookie("session")
    assert cookie is not None
    new = table_app(service, pin="111111", data_dir=tmp_path, config={"TESTING": True})  # a restart, same data dir
    same_browser = new.test_client()
    same_browser.set_cookie("session", cookie.value)
    answer = same_browser.get("/api/auth", headers={"X-CSRF-Token": csrf}).get_json()
    assert answer["authorized"] is False
    # … and with the same PIN, the restart keeps it unlocked.
    again = table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True}).test_client()
    again.set_cookie("session", cookie.value)
    assert again.get("/api/auth", headers={"X-CSRF-Token": csrf}).get_json()["authorized"] is True


def test_pending_menus_reach_only_their_own_seat(app: Flask) -> None:
    start(app)
    organiser = app.test_client()
    organiser.post("/api/unlock", json={"pin": PIN})
    anna = app.test_client()
    key = claim(anna, "Anna")  # Anna's phone claims her seat (its page POSTs the claim)
    organiser.post("/api/events", headers=HEADERS, json={"type": "menu", "player": "Anna", "menu": "pepper"})
    assert anna.get("/api/seat/Anna").get_json()["my_menu"] == "pepper"
    for view in (organiser.get("/api/seat/Anna", headers=HEADERS), organiser.get(f"/api/seat/Anna?k={key}"),
                 app.test_client().get(f"/api/seat/Anna?k={key}", headers=HEADERS)):
        assert view.get_json()["my_menu"] is None  # the PIN and a reused link give no secret
    setup = organiser.get("/setup").get_data(as_text=True)
    assert key not in setup and "Bert" in setup and "Anna : place tenue par un téléphone" in setup  # held
    row = re.search(r"Anna.*?</tr>", organiser.get("/fragment/table").get_data(as_text=True), re.S)
    assert row is not None and "piment" not in row.group(0).lower()
    holder = app.test_client()  # the PIN header, no unlocked session: no controls listing every card
    for path in ("/", "/setup", "/history", "/fragment/table", "/api/state", "/api/table", "/api/history"):
        text = holder.get(path, headers=HEADERS).get_data(as_text=True).lower()
        assert "piment" not in text and not re.search(r"(?<![\w-])pepper(?![\w-])", text), path


def test_where_and_repeat_never_push_events_out() -> None:
    hub = Hub(threading.RLock(), max_events=50, max_notes=10)
    for seq in range(1, 6):
        hub.publish("card", (Part("where_no_game"),), TABLE_VOICE, seq=seq, is_event=True)
    for _ in range(500):
        hub.publish("where", (Part("where_no_game"),), TABLE_VOICE, seq=5, is_event=False)
    assert [m.seq for m in hub.after(0) if m.is_event] == [1, 2, 3, 4, 5]
    assert len(hub.after(None, serial=0)) == 5 + 10


def test_the_speech_queue_is_bounded_and_coalesces() -> None:
    queue = SpeechQueue(limit=4)
    for _ in range(300):
        queue.put(Phrase("fr", "Manche 1.", "where"))
    assert len(queue) == 1
    for index in range(10):
        queue.put(Phrase("fr", f"Carte {index}.", "card"))
        queue.put(Phrase("fr", f"Où en est-on {index} ?", "where"))
    assert len(queue) == 4


def test_text_reaches_espeak_as_data() -> None:
    assert command("espeak-ng", "fr", 165, "-w/tmp/x.wav")[-2:] == ["--", "-w/tmp/x.wav"]
    assert speakable("a\x00b\x1b[2Jc\n" + "d" * 5000).startswith("a b [2Jc d")
    assert len(speakable("d" * 5000)) == 1000


def test_a_name_like_an_option_is_only_spoken(service: TableService, app: Flask, tmp_path: Path) -> None:
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip("espeak-ng is not installed")
    target = tmp_path / "evil.wav"
    wrapper = tmp_path / "espeak-with-stdin"  # as under a terminal: espeak-ng reads stdin when it has no text
    wrapper.write_text(f'#!/bin/sh\necho bonjour | exec {espeak} "$@" 2>/dev/null\n')
    wrapper.chmod(0o755)
    speaker = Speaker(service, program=str(wrapper)).start()
    start(app, [f"-w{target}", "Bert", "Chloé\x00"])
    app.test_client().post("/api/events", headers=HEADERS,
                           json={"type": "menu", "player": f"-w{target}", "menu": "pea"})
    speaker.close()
    speaker._thread.join(timeout=60)
    assert not speaker._thread.is_alive()
    assert list(tmp_path.glob("evil.wav*")) == []


def test_shutdown_wakes_every_waiting_stream_at_once() -> None:
    hub = Hub(threading.RLock())
    returned: list[object] = []
    waiter = threading.Thread(target=lambda: returned.append(hub.wait_after(hub.serial, timeout=3600)))
    waiter.start()
    hub.wake()
    waiter.join(timeout=60)  # a guard against hanging, not a timing: without the wake it waits an hour
    assert returned == [[]]
    assert hub.wait_after(hub.serial, timeout=3600) == []  # and any later wait returns at once
