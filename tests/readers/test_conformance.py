"""One conformance suite for every reader, each on its fake (as tests/conformance has for the games): the
RC522 on its register-level chip, the Pico running its real firmware loop on that chip behind a pty, the
keyboard wedge, the PN532, PC/SC and the simulated reader. Each starts and says so, says its health states
in the table's language, sees every card once, does not read a resting card again, closes idempotently, and
bad bytes change nothing. The simulated reader has no hardware to miss or to garble its bytes: it is never
missing, and what is not a UID is refused to whoever drops it."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.phrases import TABLE_VOICE
from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from companion.table import TableService
from hardware.fakes.evdev_device import RecordedBackend, RecordedDevice, hid_stream
from hardware.fakes.pn532_chip import FakeNtag, FakePn532
from hardware.readers.keyboard import KeyboardReader
from hardware.readers.pcsc import PcscReader
from hardware.readers.pn532 import Pn532Reader
from marmite.games import GAMES
from tests.readers.test_pcsc_reader import nothing_more, take

CARDS = ("04a1b2c3d4e5f6", "04112233445566")
READY = {"fr": "Lecteur {} prêt.", "en": "Reader {} ready.", "nl": "Lezer {} klaar."}


@dataclass
class Rig:
    """A reader kind on its fake: how to build it, absent, and how its fake places cards and sends garbage."""

    name: str
    reader: Callable[[], Any]
    missing: Callable[[], Any]
    place: Callable[[str], None]
    lift: Callable[[str], None]
    garble: Callable[[], None]
    ungarble: Callable[[], None] = lambda: None
    cleanup: list[Callable[[], None]] = field(default_factory=list)
    ready: ReaderHealth | None = None  # what it said when it started
    hardware: bool = True  # False: nothing to be missing or to garble (the simulated reader)


def keyboard_rig() -> Rig:
    device = RecordedDevice("/dev/input/event7", "Sycreader USB Reader")
    clock = [1000.0]

    def typed(text: str) -> None:
        clock[0] += 10
        device.feed(hid_stream(text, start=clock[0]))

    return Rig("keyboard",
               lambda: KeyboardReader("sycreader", backend=RecordedBackend(device), closed=lambda wanted: None),
               lambda: KeyboardReader("sycreader", backend=RecordedBackend(), closed=lambda wanted: None),
               lambda uid: typed(uid.upper()), lambda uid: None, lambda: typed("12345"))


def pn532_rig() -> Rig:
    chip = FakePn532()
    cards = {uid: FakeNtag(bytes.fromhex(uid)) for uid in CARDS}

    def garble() -> None:
        chip.garble = 40  # more broken answers than the reader tolerates in a row (each failed poll: two)

    rig = Rig("pn532", lambda: Pn532Reader.from_options({"port": chip.port}),
              lambda: Pn532Reader.from_options({"port": "/dev/ttyNOPE9"}),
              lambda uid: chip.put(cards[uid]), lambda uid: chip.take(cards[uid]), garble,
              lambda: setattr(chip, "garble", 0))
    rig.cleanup.append(chip.close)
    return rig


def pcsc_rig(request: pytest.FixtureRequest) -> Rig:
    daemon = request.getfixturevalue("pcscd")
    from hardware.fakes.vicc import VirtualCard

    cards = {uid: VirtualCard(bytes.fromhex(uid), port=daemon.port) for uid in CARDS}
    odd = VirtualCard(bytes.fromhex("0411223344"), port=daemon.port)  # a 5-byte UID: no such card

    def lift(uid: str) -> None:
        cards[uid].lift()
        time.sleep(0.5)  # pcscd sees the slot empty

    def ungarble() -> None:
        odd.lift()
        time.sleep(0.5)

    rig = Rig("pcsc", lambda: PcscReader("Marmite virtual PCD 00 00"), lambda: PcscReader("No such reader"),
              lambda uid: cards[uid].place(), lift, odd.place, ungarble)
    rig.cleanup += [card.lift for card in cards.values()] + [odd.lift]
    return rig


def rc522_rig() -> Rig:
    from contextlib import ExitStack

    from hardware.fakes import FakeCard, FakeMFRC522, LockUp, installed
    from hardware.rc522 import RC522Config
    from hardware.readers.rc522 import RC522Reader

    chip = FakeMFRC522()
    stack = ExitStack()
    stack.enter_context(installed(chip))  # the fake spidev (bus 0.0) and RPi.GPIO, for this rig's life
    placed: dict[str, Any] = {}

    def place(uid: str) -> None:
        placed[uid] = chip.enter(FakeCard.ntag213(uid))

    rig = Rig("rc522", RC522Reader, lambda: RC522Reader(RC522Config(bus=1)), place,
              lambda uid: chip.leave(placed.pop(uid)), lambda: chip.lock_up(LockUp.GARBAGE))
    rig.cleanup.append(stack.close)
    return rig


def pico_rig() -> Rig:
    """The Pico bridge: the real firmware loop (firmware_bridge/firmware) on a fake RC522 and a pty for USB,
    the host's `UsbReader` on the other end; its bad bytes are a USB line that garbles every frame."""
    from firmware_bridge.host_reader import UsbReader
    from firmware_bridge.simulator import SimulatedPico
    from hardware.fakes import FakeCard

    pico = SimulatedPico().power_on()
    placed: dict[str, Any] = {}

    def place(uid: str) -> None:
        placed[uid] = pico.chip.enter(FakeCard.ntag213(uid))

    rig = Rig("usb", lambda: UsbReader(pico.port, find_ports=pico.find_ports),
              lambda: UsbReader(find_ports=lambda: []), place, lambda uid: pico.chip.leave(placed.pop(uid)),
              lambda: pico.cable.flip_bits(10**6), pico.cable.stop_flipping)
    rig.cleanup.append(pico.close)
    return rig


def sim_rig() -> Rig:
    """The simulated reader: cards dropped by software; its bad bytes are a drop of text that is no UID."""
    from hardware.readers.sim import SimReader

    made: list[SimReader] = []

    def reader() -> SimReader:
        made.append(SimReader())
        return made[-1]

    def garble() -> None:
        with pytest.raises(ValueError, match="not a UID"):
            made[-1].drop("04:a1 zz")

    return Rig("sim", reader, reader, lambda uid: made[-1].drop(uid), lambda uid: None, garble, hardware=False)


RIGS: dict[str, Callable[[pytest.FixtureRequest], Rig]] = {
    "sim": lambda request: sim_rig(),
    "pico": lambda request: pico_rig(),
    "keyboard": lambda request: keyboard_rig(),
    "rc522": lambda request: rc522_rig(),
    "pn532": lambda request: pn532_rig(),
    "pcsc": pcsc_rig,
}


@pytest.fixture(params=sorted(RIGS))
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    made = RIGS[request.param](request)
    yield made
    for undo in made.cleanup:
        undo()


@pytest.fixture
def started(rig: Rig) -> Iterator[tuple[Any, ReaderQueue]]:
    reader = rig.reader()
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    health = take(out, ReaderHealth, timeout=10)
    assert isinstance(health, ReaderHealth) and health.ok, health
    rig.ready = health
    yield reader, out
    reader.close()


def take_unwell(out: ReaderQueue, timeout: float = 15.0) -> ReaderHealth:
    """The next health that is not ok (a reader may say again that it is ready: the Pico does, now and then)."""
    deadline = time.monotonic() + timeout
    while True:
        health = take(out, ReaderHealth, timeout=max(0.01, deadline - time.monotonic()))
        assert isinstance(health, ReaderHealth)
        if not health.ok:
            return health


def said(health: ReaderHealth, tmp_path: Path) -> dict[str, str]:
    """What the table says for this health, in each language."""
    service = TableService.open(tmp_path, GAMES)
    heard: list[Any] = []
    service.add_listener(heard.append)
    try:
        service.reader_health(health.reader, health.ok, health.detail, dict(health.info), health.words)
    finally:
        service.close()
    parts = [m for m in heard if m.kind == "reader"][-1].parts
    return {language: TABLE_VOICE.render(parts, language) for language in ("fr", "en", "nl")}


def assert_catalog_words(health: ReaderHealth, words: dict[str, str]) -> None:
    """The detail comes from the catalogs in each language: no English inside a French sentence."""
    assert health.words is not None, f"{health.detail!r} has no words the table can say in its language"
    for language, sentence in words.items():
        assert sentence.endswith(f"{health.words.text(language)}."), (language, sentence)
    assert health.words.text("fr") != health.words.text("en"), "the French words are French"
    assert health.detail == health.words.text("en"), "logs and the command line read the English"


def test_it_starts_and_ready_is_said_in_the_table_s_language(rig: Rig, started: tuple[Any, ReaderQueue],
                                                             tmp_path: Path) -> None:
    reader, _ = started
    health = ReaderHealth(reader.name, True, "ready", (("state", "ok"),))
    assert said(health, tmp_path) == {lang: text.format(reader.name) for lang, text in READY.items()}
    shown = TableService.open(tmp_path / "shown", GAMES)
    try:
        first = rig.ready
        assert first is not None
        shown.reader_health(first.reader, first.ok, first.detail, dict(first.info), first.words)
        assert first.words is not None and shown.table_view()["readers"][0]["detail"] == first.words.text("fr")
    finally:
        shown.close()


def test_missing_is_said_as_missing(rig: Rig, tmp_path: Path) -> None:
    reader = rig.missing()
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth, timeout=10)
    finally:
        reader.close()
    if not rig.hardware:  # nothing to be missing: it says it is ready, in catalog words, whatever is plugged in
        assert isinstance(health, ReaderHealth) and health.ok and dict(health.info)["state"] == "ok"
        assert health.words is not None and health.words.text("fr") != health.words.text("en")
        return
    assert isinstance(health, ReaderHealth) and dict(health.info)["state"] == "missing"
    words = said(health, tmp_path)
    assert_catalog_words(health, words)
    assert words["fr"].startswith(f"Lecteur {reader.name} absent : ")
    assert words["en"].startswith(f"Reader {reader.name} missing: ")
    assert words["nl"].startswith(f"Lezer {reader.name} afwezig: ")


def test_every_card_is_seen_once(rig: Rig, started: tuple[Any, ReaderQueue]) -> None:
    _, out = started
    uids = []
    for uid in CARDS:
        rig.place(uid)
        seen = take(out, TagSeen, timeout=5)
        assert isinstance(seen, TagSeen)
        uids.append(seen.uid)
        rig.lift(uid)
    assert uids == list(CARDS)
    assert nothing_more(out, TagSeen, 0.5)


def test_a_resting_card_is_not_read_again(rig: Rig, started: tuple[Any, ReaderQueue]) -> None:
    _, out = started
    rig.place(CARDS[0])
    assert isinstance(take(out, TagSeen, timeout=5), TagSeen)
    assert nothing_more(out, TagSeen, 1.5), "past the debounce time, still one read"
    rig.lift(CARDS[0])


def test_close_is_idempotent(rig: Rig) -> None:
    reader = rig.reader()
    reader.close()  # never started
    reader.start(queue.Queue())
    reader.close()
    reader.close()
    if not rig.hardware:
        return  # no thread of its own: a card dropped after close reaches no queue
    thread = getattr(reader._thread, "_thread", reader._thread)  # ReaderThread, or the RC522's own thread
    assert thread is not None and not thread.is_alive()


def test_bad_bytes_change_nothing(rig: Rig, started: tuple[Any, ReaderQueue], tmp_path: Path) -> None:
    _, out = started
    rig.garble()
    if not rig.hardware:  # refused to the one who dropped it, nothing played, and it reads on
        assert nothing_more(out, TagSeen, 0.3), "nothing played from garbage"
        rig.place(CARDS[1])
        seen = take(out, TagSeen, timeout=10)
        assert isinstance(seen, TagSeen) and seen.uid == CARDS[1]
        return
    health = take_unwell(out)
    assert dict(health.info)["state"] == "errors", health
    if rig.name == "usb":  # frames keep coming, none whole: the cable is named, not a silent board
        assert health.words is not None and health.words.key == "pico_garbled", health
    words = said(health, tmp_path)
    assert_catalog_words(health, words)
    assert words["fr"].startswith(f"Lecteur {rig.name} en panne : ")
    assert nothing_more(out, TagSeen, 0.3), "nothing played from garbage"
    rig.ungarble()
    rig.place(CARDS[1])
    seen = take(out, TagSeen, timeout=10)
    assert isinstance(seen, TagSeen) and seen.uid == CARDS[1], "the reader reads on"
    rig.lift(CARDS[1])
