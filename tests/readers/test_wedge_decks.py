"""Wedge decks that travel: a deck taught through a 10-digit wedge in the default format keeps working with
the README's format for that reader, records the format it was taught in, refuses aloud a format that
would orphan it, and a deck written before formats were recorded keeps working and gains its format."""

from __future__ import annotations

import json
import queue
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.deck_desk import DeckDesk
from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from companion.table import TableService
from hardware.fakes.evdev_device import RecordedBackend, RecordedDevice, hid_stream
from hardware.readers.keyboard import KeyboardReader
from hardware.uid_formats import UidFormat, normalise, typed
from marmite.games import GAMES
from marmite.wiring import connect_partial_uids
from tests.readers.test_pcsc_reader import take

CARD = bytes.fromhex("04a1b2c3d4e5f6")  # an NTAG: the wedge types four bytes of cascade level 1
TEN = typed(CARD, UidFormat("dec", "lsb"))  # what a 10-digit reader types: those bytes reversed


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableService, DeckDesk]]:
    service = TableService.open(tmp_path, GAMES)
    desk = DeckDesk(service, tmp_path)
    yield service, desk
    service.close()


def started(desk: DeckDesk, fmt: str, at: float = 1000.0) -> tuple[KeyboardReader, RecordedDevice, ReaderQueue]:
    device = RecordedDevice("/dev/input/event5", "IC Reader")
    reader = KeyboardReader.from_options({"device": "IC Reader", "format": fmt})
    reader._evdev = RecordedBackend(device)
    reader._closed = lambda wanted: None
    connect_partial_uids(desk, reader)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    assert isinstance(take(out, ReaderHealth), ReaderHealth)
    return reader, device, out


def read_one(device: RecordedDevice, out: ReaderQueue, text: str, at: float) -> str:
    device.feed(hid_stream(text, start=at))
    seen = take(out, TagSeen)
    assert isinstance(seen, TagSeen)
    return seen.uid


def teach_first_card(service: TableService, desk: DeckDesk) -> str:
    """Enroll the first card the desk asks for through an `auto` wedge typing ten digits; its code."""
    reader, device, out = started(desk, "auto")
    try:
        assert desk.enroll_start()["outcome"] == "asked"
        uid = read_one(device, out, TEN, 1000.0)
        assert desk.tag_seen(uid) is not None
        desk.enroll_stop()
    finally:
        reader.close()
    (code,) = desk.store.load().values()
    return code


def test_auto_reads_ten_digits_in_the_order_most_readers_type() -> None:
    assert normalise(TEN) == normalise(TEN, UidFormat("dec", "lsb")) == bytes.fromhex("8804a1b2")


def test_a_deck_taught_in_auto_plays_with_the_readme_s_format_and_records_its_own(
        table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    code = teach_first_card(service, desk)
    assert desk.store.info().uid_format == "dec-lsb", "the deck records the format it was taught in"
    reader, device, out = started(desk, "dec-lsb")
    try:
        assert service.tags.lookup(read_one(device, out, TEN, 2000.0)) == code
    finally:
        reader.close()


def test_a_format_that_would_orphan_the_deck_is_refused_aloud(table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    code = teach_first_card(service, desk)
    device = RecordedDevice("/dev/input/event5", "IC Reader")
    reader = KeyboardReader("IC Reader", fmt=UidFormat.parse("hex-cl1"), backend=RecordedBackend(device),
                            closed=lambda wanted: None)
    connect_partial_uids(desk, reader)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and not health.ok
        assert health.detail.startswith("format=hex-cl1 refused: the deck was taught in dec-lsb")
        assert service.tags.lookup(read_one(device, out, TEN, 3000.0)) == code, "the deck still plays"
    finally:
        reader.close()
    assert desk.store.info().uid_format == "dec-lsb"


def test_a_deck_written_before_formats_were_recorded_plays_and_gains_its_format(tmp_path: Path) -> None:
    # what Marmite wrote before this change: a 10-digit card read in `auto` (then: the card's order), no format
    old = int(TEN).to_bytes(4, "big").hex()
    assert old == normalise(TEN, UidFormat("dec", "msb")).hex() != normalise(TEN).hex()
    decks = tmp_path / "decks"
    decks.mkdir()
    code = sorted(GAMES.tag_codes())[0]
    (decks / "1.csv").write_text(f"uid,card\n{old},{code}\n", encoding="utf-8")
    (decks / "decks.json").write_text(json.dumps({"active": "main", "decks": [
        {"name": "main", "file": "1.csv", "checked_at": None, "self_describing": False, "edition": "2005"}]}),
        encoding="utf-8")
    service = TableService.open(tmp_path, GAMES)
    try:
        desk = DeckDesk(service, tmp_path)
        service.tags.replace(desk.store.load())
        assert desk.store.info().uid_format is None
        for fmt, at in (("auto", 1000.0), ("dec-lsb", 2000.0)):
            reader, device, out = started(desk, fmt)
            try:
                assert service.tags.lookup(read_one(device, out, TEN, at)) == code, fmt
            finally:
                reader.close()
        assert desk.store.info().uid_format == "dec", "read in the order it was taught in, now recorded"
        assert json.loads((decks / "decks.json").read_text(encoding="utf-8"))["decks"][0]["uid_format"] == "dec"
    finally:
        service.close()


OLD_DECK = Path(__file__).parent / "data" / "deck_written_before_formats"
"""decks/ as the code before formats were recorded wrote it (commit 0fb0209's parent, its own DeckStore.save),
for one card taught through a wedge in `auto` typing TEN: that code stored the ten digits in the card's order."""


def test_a_deck_file_written_by_the_code_before_formats_plays_and_gains_its_format(tmp_path: Path) -> None:
    shutil.copytree(OLD_DECK / "decks", tmp_path / "decks")
    stored = (tmp_path / "decks" / "1.csv").read_text(encoding="utf-8").splitlines()[1]
    uid, code = stored.split(",")
    assert uid == normalise(TEN, UidFormat("dec", "msb")).hex() and code in GAMES.tag_codes()
    service = TableService.open(tmp_path, GAMES)
    try:
        desk = DeckDesk(service, tmp_path)
        service.tags.replace(desk.store.load())
        assert desk.store.info().uid_format is None
        for fmt, at in (("auto", 1000.0), ("dec-lsb", 2000.0)):
            reader, device, out = started(desk, fmt)
            try:
                assert service.tags.lookup(read_one(device, out, TEN, at)) == code, fmt
            finally:
                reader.close()
        assert desk.store.info().uid_format == "dec"
    finally:
        service.close()


def test_a_deck_of_whole_uids_records_uid_and_is_read_through_any_format(table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    code = sorted(GAMES.tag_codes())[0]
    desk.store.save({CARD.hex(): code})
    service.tags.replace({CARD.hex(): code})
    reader, device, out = started(desk, "dec-lsb")
    try:
        assert service.tags.lookup(read_one(device, out, TEN, 1000.0)) == code
    finally:
        reader.close()
    assert desk.store.info().uid_format == "uid"


CLASSIC = ("a1b2c3d4", "11223344")  # MIFARE Classic cards: whole 4-byte UIDs


def teach_on_a_whole_uid_reader(desk: DeckDesk) -> dict[str, str]:
    """Enroll two Classic cards as an RC522, PN532 or ACR122U reads them (whole UIDs, straight to the desk)."""
    assert desk.enroll_start()["outcome"] == "asked"
    for uid in CLASSIC:
        answer = desk.tag_seen(uid)
        assert answer is not None and answer["outcome"] == "learned"
    desk.enroll_stop()
    return desk.store.load()


def test_a_classic_deck_taught_on_a_whole_uid_reader_records_uid_and_a_hex_wedge_reads_it_later(
        table: tuple[TableService, DeckDesk]) -> None:
    service, desk = table
    deck = teach_on_a_whole_uid_reader(desk)
    assert desk.store.info().uid_format == "uid", "taught without a wedge on the table: whole UIDs"
    for fmt, at in (("auto", 1000.0), ("hex", 2000.0)):  # an auto wedge first must not make it "dec"
        reader, device, out = started(desk, fmt)
        try:
            assert reader.refusal == "" and reader.fmt == (None if fmt == "auto" else UidFormat.parse(fmt))
            assert service.tags.lookup(read_one(device, out, CLASSIC[0].upper(), at)) == deck[CLASSIC[0]], fmt
        finally:
            reader.close()
    assert desk.store.info().uid_format == "uid"


def test_a_card_taught_on_a_whole_uid_reader_beside_a_wedge_records_uid(
        table: tuple[TableService, DeckDesk]) -> None:
    _, desk = table
    reader, device, out = started(desk, "auto")
    try:
        read_one(device, out, TEN, 1000.0)  # the wedge typed a card during the game: its format is in memory
        teach_on_a_whole_uid_reader(desk)
    finally:
        reader.close()
    assert desk.store.info().uid_format == "uid"
