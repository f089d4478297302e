"""Who takes a card read before the game: the takers the table declares, asked in that order, each read
logged with the taker that took it (or the game)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.deck_desk import DeckDesk
from companion.reads import READ_ORDER, ReadTakers
from companion.table import TableService
from companion.tags import simulated_uid

UID = "04a1b2c3d4e5f6"


def taken_by(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage().rsplit(" taken by ", 1)[1] for r in caplog.records if " taken by " in r.getMessage()]


def test_the_declared_order_holds_whatever_the_order_of_registering() -> None:
    takers = ReadTakers()
    asked: list[str] = []
    takers.add("seat_cards", lambda uid, written: asked.append("seat_cards") or True)
    takers.add("deck_desk", lambda uid, written: asked.append("deck_desk") or uid == "mine")
    takers.add("other", lambda uid, written: asked.append("other") or True)
    assert READ_ORDER == ("deck_desk", "seat_cards")
    assert takers.names() == ("deck_desk", "seat_cards", "other"), "declared first, then the rest as registered"
    assert takers.take("mine", None) == "deck_desk" and asked == ["deck_desk"]
    assert takers.take("yours", None) == "seat_cards" and asked == ["deck_desk", "deck_desk", "seat_cards"]


def test_a_taker_of_the_same_name_replaces_the_old_one() -> None:
    takers = ReadTakers()
    takers.add("deck_desk", lambda uid, written: False)
    takers.add("deck_desk", lambda uid, written: True)  # a new deck desk on the same table
    assert takers.names() == ("deck_desk",) and takers.take(UID, None) == "deck_desk"


def test_each_read_is_logged_with_its_taker(table: TableService, tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="companion.table")
    taken: list[str] = []
    table.read_takers.add("seat_cards", lambda uid, written: taken.append(uid) or uid == UID)
    desk = DeckDesk(table, tmp_path)  # registered after the seat cards, asked before them
    assert table.read_takers.names() == ("deck_desk", "seat_cards")
    desk.enroll_start()
    assert table.tag_seen(UID, source="reader:sim") is None
    assert taken == [] and taken_by(caplog) == ["deck_desk"], "the deck desk took it: the seat cards never saw it"
    desk.enroll_stop()
    caplog.clear()
    assert table.tag_seen(UID, source="reader:sim") is None
    assert taken == [UID] and taken_by(caplog) == ["seat_cards"]
    caplog.clear()
    table.tag_seen(simulated_uid("pea-1a"), source="reader:sim")
    assert taken_by(caplog) == ["the game"]
