"""A keyboard-wedge reader meets a deck: its format learned from a known card (typed and normalised
shown), the deck mapped onto what it types, and an enrollment refused, by name and spoken, when it
types two of the deck's cards alike."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.deck_desk import DeckDesk
from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from companion.seam import Part
from companion.table import Message, TableService
from hardware.fakes.evdev_device import RecordedBackend, RecordedDevice, hid_stream
from hardware.readers.keyboard import KeyboardReader
from hardware.uid_formats import UidFormat, typed
from marmite.games import GAMES
from marmite.serve import table_app
from marmite.wiring import connect_partial_uids
from tests.readers.test_pcsc_reader import take
from web_ui.resources import table_resources

PEA_0A = bytes.fromhex("04a1b2c3d4e5f6")
PEA_0B = bytes.fromhex("04a1b2c37a2b90")  # same batch: alike at cascade level 1
PEA_1A = bytes.fromhex("04ffee0102a3b4")
CL1 = UidFormat("hex", "msb", "cl1")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableService, DeckDesk]]:
    service = TableService.open(tmp_path, GAMES)
    desk = DeckDesk(service, tmp_path)
    yield service, desk
    service.close()


def deck(desk: DeckDesk, service: TableService, cards: dict[bytes, str]) -> None:
    mapping = {uid.hex(): code for uid, code in cards.items()}
    desk.store.save(mapping)
    service.tags.replace(mapping)


def started(fmt: str) -> tuple[KeyboardReader, RecordedDevice, ReaderQueue]:
    device = RecordedDevice("/dev/input/event5", "IC Reader")
    reader = KeyboardReader.from_options({"device": "IC Reader", "format": fmt})
    reader._evdev = RecordedBackend(device)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    assert isinstance(take(out, ReaderHealth), ReaderHealth)
    return reader, device, out


def test_an_enrollment_is_refused_by_name_when_the_reader_types_two_cards_alike(
        table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    deck(desk, service, {PEA_0A: "pea-0a", PEA_0B: "pea-0b", PEA_1A: "pea-1a"})
    reader = KeyboardReader("IC Reader", fmt=CL1, backend=RecordedBackend())
    assert connect_partial_uids(desk, reader)
    heard: list[Message] = []
    service.add_listener(heard.append)
    answer = desk.enroll_start()
    assert answer["outcome"] == "refused" and answer["alike"] == [["pea-0a", "pea-0b"]]
    assert desk.enrollment is None
    assert answer["text"].startswith("Refusé : ce lecteur tape le même numéro pour Pois, zéro, bouillon")
    assert " et " in answer["text"] and "l'UID entier" in answer["text"]
    part = Part("reader_alike", {"groups": (("pea-0a", "pea-0b"),)})
    assert desk.voice.render([part], "en").startswith("Refused: this reader types the same number for ")
    assert desk.voice.render([part], "nl").startswith("Geweigerd: deze lezer typt hetzelfde nummer voor ")
    said = [m for m in heard if m.kind == "deck"]  # announced: the speaker and every display say it
    assert len(said) == 1 and said[0].accepted is False
    assert service.render(said[0])["text"] == answer["text"]


def test_a_reader_that_types_the_whole_uid_enrolls_the_same_deck(table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    deck(desk, service, {PEA_0A: "pea-0a", PEA_0B: "pea-0b"})
    connect_partial_uids(desk, KeyboardReader("IC Reader", fmt=UidFormat("hex", "lsb"), backend=RecordedBackend()))
    assert desk.enroll_start()["outcome"] == "asked"


def test_the_format_is_learned_from_a_known_card_and_the_deck_plays_through_it(
        table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    deck(desk, service, {PEA_0A: "pea-0a", PEA_1A: "pea-1a"})
    reader, device, out = started("auto")
    try:
        connect_partial_uids(desk, reader)
        text = typed(PEA_1A, UidFormat("dec", "lsb"))  # ten digits, bytes reversed, cascade level 1
        device.feed(hid_stream(text))
        learned = take(out, ReaderHealth)
        assert isinstance(learned, ReaderHealth) and learned.ok
        assert learned.detail.startswith("format learned: dec-lsb")
        for secret in ("pea-1a", text, PEA_1A.hex()):  # the first card may be one being dealt: public health
            assert secret not in learned.detail  # (/readers, /api/table) never names it
        seen = take(out, TagSeen)
        assert isinstance(seen, TagSeen) and (seen.raw, seen.uid) == (text, PEA_1A.hex())
        assert service.tags.lookup(seen.uid) == "pea-1a"
        device.feed(hid_stream(typed(PEA_0A, UidFormat("dec", "lsb"))))
        other = take(out, TagSeen)
        assert isinstance(other, TagSeen) and service.tags.lookup(other.uid) == "pea-0a"
    finally:
        reader.close()


def test_learning_a_format_that_confuses_cards_says_which(table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    deck(desk, service, {PEA_0A: "pea-0a", PEA_0B: "pea-0b", PEA_1A: "pea-1a"})
    reader, device, out = started("auto")
    try:
        connect_partial_uids(desk, reader)
        assert desk.enroll_start()["outcome"] == "asked", "auto format: the reader is taken to type whole UIDs"
        device.feed(hid_stream(typed(PEA_0B, CL1)))
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and not health.ok
        assert "it types these cards alike: pea-0a = pea-0b" in health.detail
        clash = take(out, TagSeen)
        assert isinstance(clash, TagSeen) and service.tags.lookup(clash.uid) is None, "never guessed"
        refused = desk.tag_seen(clash.uid)
        assert refused is not None and refused["outcome"] == "refused" and desk.enrollment is None
        assert "Pois, zéro, bouillon" in refused["text"]
        assert desk.enroll_start()["outcome"] == "refused"
    finally:
        reader.close()


def test_a_redo_that_opens_the_enrollment_is_refused_by_name_and_spoken(
        table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    deck(desk, service, {PEA_0A: "pea-0a", PEA_0B: "pea-0b", PEA_1A: "pea-1a"})
    connect_partial_uids(desk, KeyboardReader("IC Reader", fmt=CL1, backend=RecordedBackend()))
    heard: list[Message] = []
    service.add_listener(heard.append)
    answer = desk.enroll_control("redo", "pea-1a")  # a lost card's replacement, no enrollment under way
    assert answer["outcome"] == "refused" and answer["alike"] == [["pea-0a", "pea-0b"]]
    assert answer["text"].startswith("Refusé : ce lecteur tape le même numéro pour Pois, zéro, bouillon")
    assert desk.enrollment is None
    said = [m for m in heard if m.kind == "deck"]  # said once, as the start's refusal is
    assert len(said) == 1 and said[0].accepted is False
    assert service.render(said[0])["text"] == answer["text"]


def test_the_deck_page_answers_a_refused_redo_with_what_the_table_said(tmp_path: Path) -> None:
    service = TableService.open(tmp_path, GAMES)
    try:
        app = table_app(service, pin="2468", data_dir=tmp_path, config={"TESTING": True})
        desk = table_resources(app).desk
        deck(desk, service, {PEA_0A: "pea-0a", PEA_0B: "pea-0b", PEA_1A: "pea-1a"})
        connect_partial_uids(desk, KeyboardReader("IC Reader", fmt=CL1, backend=RecordedBackend()))
        answer = app.test_client().post("/api/deck/enroll", headers={"X-Table-Pin": "2468"},
                                        json={"action": "redo", "card": "pea-1a"})
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        assert body["outcome"] == "refused" and "Pois, zéro, bouillon" in body["text"]
    finally:
        service.close()
