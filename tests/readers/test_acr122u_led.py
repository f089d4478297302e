"""The ACR122U's red/green LED says what the table decided of a card (issue 32 item 7): the real pyscard
and pcscd against the vpcd fake, whose reader LED answers `FF 00 40` as the ACR122U API document says."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.reads import ReaderHealth, ReaderQueue, ReadSignals, TagSeen
from companion.table import TableService
from hardware.fakes.vicc import Acr122uLed, PrivatePcscd, Signal, VirtualCard
from hardware.readers.pcsc import PcscReader
from marmite.games import GAMES
from marmite.wiring import ReaderPump, connect_read_signals
from tests.readers.test_pcsc_reader import take

KNOWN = bytes.fromhex("04a1b2c3d4e5f6")
UNKNOWN = bytes.fromhex("04112233445566")
GREEN = Signal(((False, True, 500), (True, False, 100)), (True, False), 0)
RED = Signal(((True, False, 200), (False, False, 200)) * 3, (True, False), 0)


def shown(led: Acr122uLed, count: int, bound: float = 10.0) -> list[Signal]:
    """The LED's signals once there are `count` (the bound only ends a hang)."""
    deadline = time.monotonic() + bound
    while len(led.shown) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return led.shown


@pytest.fixture
def acr122u(pcscd: PrivatePcscd) -> Iterator[tuple[PcscReader, ReaderQueue]]:
    reader = PcscReader("Marmite virtual PCD 00 00", led=True)  # the fake's name; an ACR122U's says so itself
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    assert isinstance(take(out, ReaderHealth), ReaderHealth)
    yield reader, out
    reader.close()


def test_the_led_blinks_green_for_a_card_taken_and_red_for_one_refused(
        acr122u: tuple[PcscReader, ReaderQueue], pcscd: PrivatePcscd) -> None:
    reader, out = acr122u
    led = Acr122uLed()
    card = VirtualCard(KNOWN, port=pcscd.port, led=led)
    assert isinstance(reader, ReadSignals)
    try:
        card.place()
        assert isinstance(take(out, TagSeen), TagSeen)
        reader.read_judged(True)
        assert shown(led, 1) == [GREEN]
        reader.read_judged(False)  # no read since: a verdict on a phone's play, not on this card
        time.sleep(0.3)
        assert led.shown == [GREEN]
        card.lift()
        time.sleep(0.6)
        card.place()
        assert isinstance(take(out, TagSeen), TagSeen)
        reader.read_judged(False)
        assert shown(led, 2) == [GREEN, RED]
        assert bytes.fromhex("FF00405D0402020300") in card.apdus
    finally:
        card.lift()
        time.sleep(0.5)


def test_a_read_the_table_dealt_with_without_a_verdict_leaves_nothing_for_the_next_one(
        acr122u: tuple[PcscReader, ReaderQueue], pcscd: PrivatePcscd) -> None:
    reader, out = acr122u
    led = Acr122uLed()
    card = VirtualCard(KNOWN, port=pcscd.port, led=led)
    try:
        card.place()
        seen = take(out, TagSeen)
        assert isinstance(seen, TagSeen) and seen.done is not None
        seen.done()  # taken without a word (a member's card at a club table, a double read)
        reader.read_judged(True)  # then a phone's play is accepted: not this card's verdict
        time.sleep(0.3)
        assert led.shown == []
    finally:
        card.lift()
        time.sleep(0.5)


def test_the_table_s_verdicts_reach_the_led(acr122u: tuple[PcscReader, ReaderQueue], pcscd: PrivatePcscd,
                                            tmp_path: Path) -> None:
    reader, out = acr122u
    service = TableService.open(tmp_path, GAMES)
    assert connect_read_signals(service, reader)
    pump = ReaderPump(service, reader)
    led = Acr122uLed()
    card = VirtualCard(UNKNOWN, port=pcscd.port, led=led)
    try:
        card.place()
        seen = take(out, TagSeen)
        pump.handle(seen)  # no deck knows it: refused, aloud, and red on the reader
        assert shown(led, 1) == [RED]
    finally:
        card.lift()
        time.sleep(0.5)
        service.close()


def test_a_reader_not_named_like_the_acr122u_is_sent_no_led_command(pcscd: PrivatePcscd) -> None:
    reader = PcscReader("Marmite virtual PCD 00 00")
    out: ReaderQueue = queue.Queue()
    led = Acr122uLed()
    card = VirtualCard(KNOWN, port=pcscd.port, led=led)
    reader.start(out)
    try:
        take(out, ReaderHealth)
        card.place()
        assert isinstance(take(out, TagSeen), TagSeen)
        reader.read_judged(True)
        time.sleep(0.3)
        assert led.shown == [] and not any(apdu[:3] == bytes.fromhex("FF0040") for apdu in card.apdus)
    finally:
        reader.close()
        card.lift()
        time.sleep(0.5)
