"""A card lifted mid-read on a PC/SC reader is not said as a fault of the reader (it is simply not read,
as with every reader), and what is said is in the table's language; only cards that keep not answering call
the reader down. A fake `smartcard.scard`."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from companion.decks import is_uid
from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from companion.table import Message, TableService
from hardware.readers.pcsc import CARDS_UNREAD, PcscReader
from marmite.games import GAMES

UID = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]


class FakeScard:
    """Just enough of pyscard's `smartcard.scard` for one card's GET UID: `lifted` makes it answer 63 00."""

    SCARD_S_SUCCESS = 0
    SCARD_SHARE_SHARED = 2
    SCARD_PROTOCOL_T0 = 1
    SCARD_PROTOCOL_T1 = 2
    SCARD_LEAVE_CARD = 0

    def __init__(self) -> None:
        self.lifted = False

    def SCardConnect(self, context: object, reader: str, share: int, protocols: int) -> tuple[int, int, int]:
        return 0, 1, self.SCARD_PROTOCOL_T1

    def SCardTransmit(self, handle: int, protocol: int, apdu: list[int]) -> tuple[int, list[int]]:
        return 0, [0x63, 0x00] if self.lifted else [*UID, 0x90, 0x00]

    def SCardDisconnect(self, handle: int, disposition: int) -> int:
        return 0

    def SCardGetErrorMessage(self, rc: int) -> str:
        return "Command successful."


def test_a_lifted_card_is_not_said_as_a_fault_but_cards_that_keep_not_answering_are(tmp_path: Path) -> None:
    scard = FakeScard()
    reader = PcscReader("Fake PCD", backend=scard, buzzer_off=False)
    out: ReaderQueue = queue.Queue()
    reader._out = out
    service = TableService.open(tmp_path, GAMES)
    heard: list[str] = []
    said: list[Message] = []
    service.add_listener(lambda m: said.append(m) if m.kind == "reader" else None)
    service.add_listener(lambda m: heard.append(str(service.render(m)["text"])) if m.kind == "reader" else None)

    def arrive(lifted: bool) -> list[object]:
        scard.lifted = lifted
        reader._card_arrived(scard, None, "Fake PCD")
        got: list[object] = []
        while not out.empty():
            item = out.get()
            got.append(item)
            if isinstance(item, ReaderHealth):
                service.reader_health(item.reader, item.ok, item.detail, dict(item.info), item.words)
        return got

    try:
        service.reader_health("pcsc", True, "Fake PCD ready", {"state": "ok"})
        (health,) = arrive(lifted=True)
        assert isinstance(health, ReaderHealth) and health.ok and dict(health.info)["state"] == "ok"
        assert "63 00" in dict(health.info)["why"], "what the reader answered stays in the facts"
        lifted = "Lecteur pcsc : une carte n'a pas été lue, levée trop tôt : laissez-la à plat sur le lecteur."
        assert heard == ["Lecteur pcsc prêt.", lifted], "not a fault of the reader; said in the table's language"
        assert service.table_view()["readers"][0]["detail"] == lifted.removeprefix("Lecteur pcsc : ")[:-1]
        assert any(isinstance(m, TagSeen) for m in arrive(lifted=False))
        arrive(lifted=True)
        assert heard[-1] == lifted and len(heard) == 3, "each card lifted is said"
        assert any(isinstance(m, TagSeen) for m in arrive(lifted=False))
        for _ in range(CARDS_UNREAD):
            arrive(lifted=True)
        assert heard[-1] == (f"Lecteur pcsc en panne : {CARDS_UNREAD} cartes d'affilée n'ont pas répondu : est-ce"
                             " un lecteur sans contact ? `marmite reader scan` le teste.")
        assert reader._health.state == "errors"
        assert said[-1].text("en").startswith("Reader pcsc down: 3 cards in a row did not answer")
    finally:
        service.close()


class AnswersUid(FakeScard):
    """A card whose GET UID answers `uid`."""

    def __init__(self, uid: list[int]) -> None:
        super().__init__()
        self.uid = uid

    def SCardTransmit(self, handle: int, protocol: int, apdu: list[int]) -> tuple[int, list[int]]:
        return 0, [*self.uid, 0x90, 0x00]


@pytest.mark.parametrize("size", [3, 4, 5, 7, 8, 10, 11])
def test_only_4_7_and_10_byte_uids_are_cards_by_the_one_rule(size: int) -> None:
    uid = list(range(0x04, 0x04 + size))
    scard = AnswersUid(uid)
    reader = PcscReader("Fake PCD", backend=scard, buzzer_off=False)
    out: ReaderQueue = queue.Queue()
    reader._out = out
    reader._card_arrived(scard, None, "Fake PCD")
    got = [out.get() for _ in range(out.qsize())]
    seen = [m for m in got if isinstance(m, TagSeen)]
    if size in (4, 7, 10):
        assert [m.uid for m in seen] == [bytes(uid).hex()] and is_uid(seen[0].uid)
    else:
        assert seen == [], "no card has such a UID: not a refused play, nothing played"
        (health,) = got
        assert isinstance(health, ReaderHealth) and dict(health.info)["state"] == "errors"
