"""Self-describing tags in a running table: the RC522 reader's thread (the real `mfrc522` code against the
fake chip) wired to the table service, the deck desk and the tablet's API the way `marmite run` wires them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ndef
import pytest
from flask.testing import FlaskClient

from companion.decks import DeckStore
from companion.table import Message, TableService
from hardware.fakes import FakeGPIO, FakeMFRC522, VirtualClock
from hardware.rc522 import RC522Config
from hardware.readers.rc522 import AFTER_RESET_S, RC522Reader
from hardware.tag_memory import RECORD_TYPE, code_from_classic
from marmite.games import GAMES
from marmite.serve import table_app
from marmite.wiring import ReaderPump, connect_tag_memory
from tests.companion.chaud_devant.rulebook import started
from tests.hardware.test_tag_memory import FlakyCard, classic, ntag
from web_ui.resources import table_resources

PIN = "2468"
HEADERS = {"X-Table-Pin": PIN}
WAIT_S = 20.0  # how long a test waits for the reader thread before it fails (not a measured time)


@dataclass
class Table:
    """A table as `marmite run --reader rc522` composes it, with the tablet's client."""

    service: TableService
    reader: RC522Reader
    client: FlaskClient
    chip: FakeMFRC522

    def enter(self, card: FlakyCard) -> None:
        """A card put on the reader (between two polls of its thread)."""
        with self.reader._chip_lock:
            self.chip.enter(card)

    def next_said(self, after: int, kind: str = "deck") -> Message:
        """The first announcement of `kind` after serial `after`."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            for message in self.service.wait_after(after, timeout=1):
                if message.kind == kind:
                    return message
                after = max(after, message.serial)
        raise AssertionError(f"no {kind} announcement within {WAIT_S} s")

    def text(self, message: Message) -> str:
        return str(self.service.render(message)["text"])

    def post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.client.post(url, headers=HEADERS, json=body)
        assert answer.status_code == 200, answer.get_json()
        data: dict[str, Any] = answer.get_json()
        return data


@contextmanager
def running_table(data_dir: Path, chip: FakeMFRC522, clock: VirtualClock) -> Iterator[Table]:
    """Service, app, rc522 reader, tag memory and pump, in `marmite run`'s order. The reader is
    `marmite.readers`' rc522 but sleeps on the fake chip's clock (its air time is virtual)."""
    service = TableService.open(data_dir, GAMES)
    app = table_app(service, pin=PIN, data_dir=data_dir, config={"TESTING": True})
    reader = RC522Reader(RC522Config.from_options({"debounce_s": "0"}), sleep=clock.sleep)
    assert connect_tag_memory(table_resources(app).desk, reader)
    pump = ReaderPump(service, reader).start()
    table = Table(service, reader, app.test_client(), chip)
    try:
        table.next_said(0, "reader")  # the chip is open...
        time.sleep(AFTER_RESET_S)  # ...and a card put back on it now is a new passage, not one woken by the opening
        yield table
    finally:
        pump.close()
        service.close()


def ndef_code(card: FlakyCard) -> str | None:
    """What any NDEF reader finds on an NTAG (page 4 on), independently of Marmite's decoder."""
    memory = bytes(card.memory[16:])
    if memory[0] != 0x03 or memory[1] == 0:
        return None
    records = list(ndef.message_decoder(memory[2 : 2 + memory[1]]))
    return bytes(records[0].data).decode() if records and records[0].type == RECORD_TYPE else None


@pytest.fixture
def fakes(chip: FakeMFRC522, gpio: FakeGPIO) -> FakeMFRC522:
    """The fake chip, with the fake spidev and RPi.GPIO installed."""
    return chip


def test_enrolling_writes_and_verifies_each_tag_and_a_lifted_card_is_asked_again(
        fakes: FakeMFRC522, clock: VirtualClock, tmp_path: Path) -> None:
    with running_table(tmp_path, fakes, clock) as table:
        table.post("/api/deck/self_describing", {"on": True})
        asked = table.post("/api/deck/enroll", {"action": "start"})
        assert asked["activity"]["current"] == "pea-0a"
        serial = table.service.last_serial
        sticker = ntag("04000000000001")
        table.enter(sticker)
        said = table.text(table.next_said(serial))
        assert said.startswith("Noté. Code écrit sur l'étiquette et vérifié. ")
        assert ndef_code(sticker) == "pea-0a"
        assert table.service.tags.lookup("04000000000001") == "pea-0a"

        serial = table.service.last_serial
        lifted = classic("0a0b0c0d")
        lifted.writes_left = 1  # lifted after its first block: the header never comes
        table.enter(lifted)
        said = table.text(table.next_said(serial))
        assert said.startswith("Écriture ratée sur l'étiquette ; reposez la carte.")
        state = table.client.get("/api/deck").get_json()
        assert state["activity"]["current"] == "pea-0b"
        assert table.service.tags.lookup("0a0b0c0d") is None
        blocks = {block: lifted.block(block) for block in (4, 5, 6)}
        assert blocks[5].startswith(b"pea-0b")  # the first block did land...
        assert code_from_classic(blocks, GAMES.tag_codes()) is None  # ...but nothing half-written is trusted

        serial = table.service.last_serial
        with table.reader._chip_lock:
            lifted.come_back()  # put down again
        said = table.text(table.next_said(serial))
        assert said.startswith("Noté. Code écrit sur l'étiquette et vérifié. ")
        assert code_from_classic({b: lifted.block(b) for b in (4, 5, 6)}, GAMES.tag_codes()) == "pea-0b"
        assert DeckStore(tmp_path, GAMES.tag_codes()).load() == {"04000000000001": "pea-0a", "0a0b0c0d": "pea-0b"}


def test_a_plain_deck_writes_nothing(fakes: FakeMFRC522, clock: VirtualClock, tmp_path: Path) -> None:
    with running_table(tmp_path, fakes, clock) as table:
        table.post("/api/deck/enroll", {"action": "start"})
        serial = table.service.last_serial
        sticker = ntag("04000000000001")
        table.enter(sticker)
        assert table.text(table.next_said(serial)).startswith("Noté. Pois, zéro, bouillon — second exemplaire.")
        assert ndef_code(sticker) is None and table.service.tags.lookup("04000000000001") == "pea-0a"


def test_a_self_describing_card_the_deck_lacks_is_offered_not_played(
        fakes: FakeMFRC522, clock: VirtualClock, tmp_path: Path) -> None:
    club, home = tmp_path / "club", tmp_path / "home"
    written, half = ntag("04000000000001"), classic("0a0b0c0d")
    with running_table(club, fakes, clock) as table:  # the club enrolls two cards, the second one interrupted
        table.post("/api/deck/self_describing", {"on": True})
        table.post("/api/deck/enroll", {"action": "start"})
        serial = table.service.last_serial
        table.enter(written)
        table.next_said(serial)
        half.writes_left = 1
        serial = table.service.last_serial
        table.enter(half)
        assert table.text(table.next_said(serial)).startswith("Écriture ratée")
    for card in (written, half):
        fakes.leave(card)
        card.come_back()

    with running_table(home, fakes, clock) as table:  # another table, whose deck lacks both cards, in a game
        table.post("/api/deck/self_describing", {"on": True})
        for event in started():
            table.service.submit(event)
        played = table.service.journal.last_seq
        serial = table.service.last_serial
        table.enter(written)
        offer = table.next_said(serial)
        assert table.text(offer) == ("Cette carte se présente comme Pois, zéro, bouillon — premier exemplaire ; "
                                     "ajoutez-la au jeu sur la page Jeu de cartes.")
        assert table.service.journal.last_seq == played  # not played
        assert table.client.get("/api/deck").get_json()["offers"] == {"04000000000001": "pea-0a"}

        serial = table.service.last_serial
        table.enter(half)  # its header was never written: an unknown tag, refused as any other
        refused = table.next_said(serial, "refused")
        assert dict(refused.detail)["card"] == "tag:0a0b0c0d"
        assert table.client.get("/api/deck").get_json()["offers"] == {"04000000000001": "pea-0a"}

        assert table.client.post("/api/deck/adopt", json={"uid": "04000000000001"}).status_code in (401, 403)
        adopted = table.post("/api/deck/adopt", {"uid": "04000000000001"})
        assert adopted["text"] == "Carte ajoutée au jeu : Pois, zéro, bouillon — premier exemplaire."
        assert DeckStore(home, GAMES.tag_codes()).load() == {"04000000000001": "pea-0a"}
        serial = table.service.last_serial
        with table.reader._chip_lock:
            fakes.leave(written)
            written.come_back()
        table.enter(written)  # now a card of the deck: it is played
        play = table.next_said(serial, "card")
        assert play.accepted and dict(play.detail)["card"] == "pea-0a"
        assert table.service.journal.last_seq == played + 2  # the refused unknown tag, then this card
