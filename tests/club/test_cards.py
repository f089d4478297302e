"""Members' NFC cards: bound on the director's console (typed, or tapped at a table's reader), sent to a table
only as keyed hashes of its seated players' cards, and read at a real `marmite run` table between games to take
a seat, tell where a player sits, or be refused; never a play during a game. Real Mosquitto, real processes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.cards import CardError, MemberCards, card_hash
from club.topics import ClubURL, Topics
from tests.club.helpers import Hub, Table, game_events, play
from tests.club.test_bad_input import Client
from tests.club.test_console import Browser, director_page
from tests.drill.helpers import Display

ALICE_CARD = "04a1b2c3d4e5f6"
BRUNO_CARD = "0a0b0c0d"
STRANGER_CARD = "1122334455667788990a"
PLAYERS = ["Alice", "Bruno", "Chloé", "David", "Emma", "Fanny"]


def test_the_card_list_refuses_bad_uids_and_cards_bound_to_someone_else(tmp_path: Path) -> None:
    cards = MemberCards(tmp_path / "club.sqlite3")
    assert cards.bind("Alice", "04:A1:B2:C3:D4:E5:F6", PLAYERS) == ALICE_CARD  # typed as a reader shows it
    for bad in ("04a1b2", "zz a1 b2 c3", "04a1b2c3d4", ""):  # not 4, 7 or 10 bytes of hex: the decks' one rule
        with pytest.raises(CardError) as refused:
            cards.bind("Bruno", bad, PLAYERS)
        assert refused.value.kind == "not_a_uid"
    with pytest.raises(CardError) as refused:
        cards.bind("Bruno", ALICE_CARD, PLAYERS)
    assert (refused.value.kind, refused.value.owner) == ("taken", "Alice")
    with pytest.raises(CardError) as refused:
        cards.bind("Mallory", BRUNO_CARD, PLAYERS)
    assert refused.value.kind == "no_player"
    assert cards.cards() == {"Alice": ALICE_CARD}  # nothing changed by the refusals
    cards.bind("Alice", BRUNO_CARD, PLAYERS)  # one card per player: a new card replaces the old one
    assert cards.cards() == {"Alice": BRUNO_CARD} and cards.owner(ALICE_CARD) is None
    cards.close()
    kept = MemberCards(tmp_path / "club.sqlite3")  # kept across nights, with the same key
    assert kept.cards() == {"Alice": BRUNO_CARD}


def test_a_table_is_sent_hashes_of_its_seated_players_cards_only(tmp_path: Path) -> None:
    cards = MemberCards(tmp_path / "club.sqlite3")
    cards.bind("Alice", ALICE_CARD, PLAYERS)
    cards.bind("David", BRUNO_CARD, PLAYERS)
    here = {"table": 1, "round": 1, "game": "chaud_devant", "players": ["Bruno", "Alice", "Chloé"]}
    sent = cards.for_seating(1, here)
    assert ALICE_CARD not in json.dumps(sent) and BRUNO_CARD not in json.dumps(sent)
    key = sent["cards"]["key"]
    assert sent["cards"]["seats"] == [None, card_hash(key, ALICE_CARD), None]  # David sits elsewhere: absent
    elsewhere = cards.for_seating(2, {**here, "table": 2, "players": ["Alice", "Emma", "Fanny"]})
    next_game = cards.for_seating(1, {**here, "round": 2})
    assert len({key, elsewhere["cards"]["key"], next_game["cards"]["key"]}) == 3  # hashes never link
    assert elsewhere["cards"]["seats"][0] != sent["cards"]["seats"][1]
    assert cards.for_seating(1, {**here, "players": ["Bruno", "Chloé", "Emma"]}) == {
        **here, "players": ["Bruno", "Chloé", "Emma"]}  # no card seated: the seating as it was


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PLAYERS), min_size=3, max_size=6, unique=True),
       st.dictionaries(st.sampled_from(PLAYERS), st.binary(min_size=7, max_size=7).map(bytes.hex), max_size=6),
       st.integers(1, 20), st.integers(1, 5))
def test_a_seating_carries_exactly_its_seated_players_card_hashes(seated: list[str], given_cards: dict[str, str],
                                                                  table: int, round_number: int) -> None:
    cards = MemberCards(Path(":memory:"))  # the same SQL, without a file per example
    bound: dict[str, str] = {}
    for player, uid in given_cards.items():
        with contextlib.suppress(CardError):  # two players drew the same card: the second is refused
            cards.bind(player, uid, PLAYERS)
            bound[player] = uid
    assert cards.cards() == bound
    seating = {"table": table, "round": round_number, "game": "buffet", "players": seated}
    sent = cards.for_seating(table, seating)
    text = json.dumps(sent)
    assert not any(uid in text for uid in bound.values())
    expected = [bound.get(name) for name in seated]
    if not any(expected):
        assert sent == seating
    else:
        key = sent["cards"]["key"]
        assert sent["cards"]["seats"] == [card_hash(key, uid) if uid else None for uid in expected]
    cards.close()


def test_the_hub_answers_every_kind_of_tap(tmp_path: Path) -> None:
    from club.hub import ClubHub
    from club.store import Store
    from marmite.games import GAMES

    said: list[str] = []
    hub = ClubHub(Store.open(tmp_path), ClubURL.parse("mqtt://hub:x@127.0.0.1:9/testclub"), GAMES, tables=2,
                  console=said.append)  # never started: what it publishes waits in paho's queue
    hub.store.add_players([*PLAYERS, "Gaspard"])
    hub.seat(1, {"table": 1, "round": 1, "game": "chaud_devant", "players": PLAYERS[:3], "dealer": "Alice"})
    hub.seat(2, {"table": 2, "round": 1, "game": "chaud_devant", "players": PLAYERS[3:], "dealer": "David"})
    hub.bind_card("Alice", ALICE_CARD)
    hub.bind_card("Gaspard", BRUNO_CARD)
    assert hub._tap_answer(1, ALICE_CARD) == {"kind": "seat", "player": "Alice", "table": 1, "seat": 1, "round": 1}
    assert hub._tap_answer(2, ALICE_CARD) == {"kind": "elsewhere", "player": "Alice", "table": 1, "seat": 1,
                                              "round": 1}
    assert hub._tap_answer(2, BRUNO_CARD) == {"kind": "not_seated", "player": "Gaspard"}
    assert hub._tap_answer(2, STRANGER_CARD) == {"kind": "unknown"}
    hub.cards.wait_for_tap(2, "Emma", hub.store.players())
    assert hub._tap_answer(2, ALICE_CARD) == {"kind": "taken", "player": "Alice"}
    assert [w.player for w in hub.cards.waiting()] == ["Emma"]  # still awaited: the right card may come
    assert hub._tap_answer(2, STRANGER_CARD) == {"kind": "bound", "player": "Emma"}
    assert hub.cards.waiting() == [] and hub.cards.owner(STRANGER_CARD) == "Emma"
    assert hub._tap_answer(2, STRANGER_CARD) == {"kind": "seat", "player": "Emma", "table": 2, "seat": 2,
                                                 "round": 1}
    assert any("Emma's card tapped and bound" in line for line in said)
    hub.cards.close()
    hub.store.close()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[Hub, Table, Table]]:
    hub = Hub(tmp_path / "hub", tables=3).start()  # table 3's credentials are the test's own (client id = user)
    tables = [Table(tmp_path / f"table{n}", hub.urls[n], n).start() for n in (1, 2)]
    yield hub, tables[0], tables[1]
    for table in tables:
        table.stop()
    hub.stop()
    left = brokers_on(str(hub.data / "mosquitto" / "mosquitto.conf"))
    for pid in left:  # never left behind, even when the check below fails
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    assert left == [], f"the stopped hub left its Mosquitto running (pids {left})"


def brokers_on(config: str) -> list[int]:
    """The processes running Mosquitto on this config file (this test's hub's, no other test's)."""
    found = []
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if proc.name.isdigit() and config in (proc / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(proc.name))
    return found


def drop(table: Table, uid: str) -> dict[str, Any]:
    """A tag passes the table's (simulated) reader."""
    status, _, raw = table.request("POST", "/api/drop", {"uid": uid}, {"X-Table-Pin": table.pin})
    assert status == 200, raw
    answer: dict[str, Any] = json.loads(raw)
    return answer


def console(director: Browser, path: str, **fields: Any) -> str:
    page = director.get("/director")[1]
    return director.post(path, {"csrf_token": director.csrf(page), **fields})[1]


def wait_seating(table: Table, round_number: int, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seating = table.club_status().get("seating")
        if isinstance(seating, dict) and seating.get("round") == round_number:
            return seating
        time.sleep(0.05)
    raise AssertionError(f"table {table.table} never received seating {round_number}: {table.club_status()}")


def said(display: Display, text: str) -> None:
    assert display.read_until(json.dumps(text, ensure_ascii=False)[1:-1].encode(), timeout=10), \
        display.seen.decode(errors="replace")[-2000:]


def test_members_cards_take_seats_at_a_real_table_and_say_where_others_sit(club: tuple[Hub, Table, Table]) -> None:
    hub, one, two = club
    director = director_page(hub, "fr")
    console(director, "/director/seat", players="\n".join(PLAYERS), game="chaud_devant")
    seatings = {table.table: wait_seating(table, 1) for table in (one, two)}
    alice_at = next(n for n, s in seatings.items() if "Alice" in s["players"])
    alice_table, other_table = (one, two) if alice_at == 1 else (two, one)
    alice_seat = seatings[alice_at]["players"].index("Alice") + 1
    bruno_at = next(n for n, s in seatings.items() if "Bruno" in s["players"])
    bruno_seat = seatings[bruno_at]["players"].index("Bruno") + 1

    # Typed on the console: a malformed UID and a card someone holds are refused, nothing changed.
    page = console(director, "/director/card", player="Alice", uid="04:A1:B2")
    assert "n'est pas l'UID d'une carte" in page and "pas de carte" in page
    page = console(director, "/director/card", player="Alice", uid="04 A1 B2 C3 D4 E5 F6")
    assert "Carte de membre enregistrée : Alice." in page and "carte finissant par …e5f6" in page
    page = console(director, "/director/card", player="Chloé", uid=ALICE_CARD)
    assert "Refusé : cette carte est déjà enregistrée pour Alice." in page

    # Tapped at a table for Bruno: a forged tap with the other table's credentials never reaches the hub.
    page = console(director, "/director/card/tap", player="Bruno", table=1)
    assert "Table 1 : carte attendue pour Bruno." in page
    url_two = ClubURL.parse(hub.urls[3])  # another table's credentials (one not running: it would be pushed off)
    forger = Client(hub.port, url_two.user, url_two.password)
    assert forger.connected.is_set()
    forger.publish(Topics(url_two.club, 1).tap, {"table": 1, "uid": STRANGER_CARD})
    forger.publish(Topics(url_two.club, 3).tap, {"table": 1, "uid": STRANGER_CARD})  # its own topic, lying
    forger.close()
    time.sleep(0.5)
    assert "Table 1 : carte attendue pour Bruno." in director.get("/director")[1]
    with sqlite3.connect(hub.data / "club.sqlite3") as db:
        assert db.execute("SELECT player FROM member_cards WHERE uid = ?", (STRANGER_CARD,)).fetchall() == []
    shown_one = Display(one, "127.0.0.1")
    assert drop(one, BRUNO_CARD) == {"ignored": True}  # taken by the club, not journaled
    said(shown_one, "Carte enregistrée : Bruno.")
    page = director.get("/director")[1]
    assert "carte finissant par …0c0d" in page and "carte attendue pour Bruno" not in page
    assert one.journal() == []

    # At Alice's table her card takes her seat; at the other table it says where she sits.
    shown_alice = Display(alice_table, "127.0.0.1")
    shown_other = Display(other_table, "127.0.0.1")
    drop(alice_table, ALICE_CARD)
    said(shown_alice, f"Alice, place {alice_seat}.")
    assert alice_table.club_status()["confirmed"] == [{"seat": alice_seat, "player": "Alice"}]
    drop(other_table, ALICE_CARD)
    said(shown_other, f"Alice : table {alice_at}, place {alice_seat}.")
    if bruno_at != other_table.table:
        drop(other_table, BRUNO_CARD)
        said(shown_other, f"Bruno : table {bruno_at}, place {bruno_seat}.")
    drop(other_table, STRANGER_CARD)  # no one's card: refused and said, nothing changed
    said(shown_other, "Carte inconnue : rien n'a été changé.")
    assert other_table.club_status()["confirmed"] == []
    # A card tapped for a player while it is someone else's: refused and said; the console still waits.
    console(director, "/director/card/tap", player="Chloé", table=other_table.table)
    drop(other_table, ALICE_CARD)
    said(shown_other, "Refusée : cette carte est déjà celle d'Alice.")
    page = director.get("/director")[1]
    assert f"Table {other_table.table} : carte attendue pour Chloé." in page and "pas de carte" in page
    assert one.journal() == [] and two.journal() == []

    # The hub answers a table that has no hash for the card (a seating not yet refreshed) with where its
    # player sits; a tap that is not a UID is refused loudly and answered not at all. (Table 3, not running:
    # a table's credentials in a second client would push the table itself off the broker.)
    url = ClubURL.parse(hub.urls[3])
    asker = Client(hub.port, url.user, url.password)
    asker.client.subscribe(Topics(url.club, 3).tapped, 1)
    time.sleep(0.3)
    asker.publish(Topics(url.club, 3).tap, {"table": 3, "uid": "not-a-uid"})
    asker.publish(Topics(url.club, 3).tap, {"table": 3, "uid": ALICE_CARD})
    deadline = time.monotonic() + 10
    while not asker.received and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    asker.close()
    assert [json.loads(payload) for _, payload in asker.received] == [
        {"kind": "elsewhere", "player": "Alice", "table": alice_at, "seat": alice_seat, "round": 1}]
    assert "a tapped card's message was refused" in hub.console()

    # During a game the card is never a play: refused as any tag that is no card, no seat taken; once the
    # game is over, it takes a seat again.
    events = game_events(5, players=3)
    play(alice_table, events[:10])
    before = alice_table.last_seq()
    answer = drop(alice_table, ALICE_CARD)
    assert answer["accepted"] is False and answer["reason"] == "unknown_card"
    assert alice_table.last_seq() == before + 1
    play(alice_table, events[10:])
    status, _, raw = alice_table.request("GET", "/api/state")
    assert status == 200 and json.loads(raw)["phase"] == "game_over"
    shown_alice.seen = b""
    assert drop(alice_table, ALICE_CARD) == {"ignored": True}
    said(shown_alice, f"Alice, place {alice_seat}.")

    # Cards go with the seating: each table hears only its own players' cards, as keyed hashes. (Read with the
    # hub's own credentials just before the hub stops: its client id is its user, so this takes the hub's place.)
    retained = Client(hub.port, "hub", json.loads((hub.data / "credentials.json").read_text())["hub"])
    retained.client.subscribe(f"marmite/{url_two.club}/table/+/seating", 1)
    deadline = time.monotonic() + 10
    while len(retained.received) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    retained.close()
    for topic, payload in retained.received:
        assert ALICE_CARD not in payload.decode() and BRUNO_CARD not in payload.decode()
        body = json.loads(payload)
        hashes = [h for h in body.get("cards", {}).get("seats", []) if h]
        assert len(hashes) == ("Alice" in body["players"]) + ("Bruno" in body["players"]), topic
    assert "cards" not in alice_table.club_status()["seating"]  # nor on the table's own page

    # The hub away: a seated player's card still takes the seat (the hashes are at the table); any other
    # card is said not recognised.
    hub.stop()
    deadline = time.monotonic() + 10
    while alice_table.club_status()["reachable"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alice_table.club_status()["reachable"]
    shown_alice.seen = b""
    drop(alice_table, STRANGER_CARD)
    said(shown_alice, "Carte non reconnue : le club est injoignable.")
    drop(alice_table, ALICE_CARD)
    said(shown_alice, f"Alice, place {alice_seat}.")
    for display in (shown_one, shown_alice, shown_other):
        display.close()
