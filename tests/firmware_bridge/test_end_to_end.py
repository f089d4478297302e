"""The firmware's loop on a fake RC522, the host reader over a pty: every card once, no false card, no loss.

Unplugs, replugs, resets, garbage and bit flips are injected; the assertions are about what reaches the
reader queue (and, in the last test, the table's journal). Waits have generous limits: they are not
timing thresholds, they only bound a hang.
"""

from __future__ import annotations

import json
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal, JournalError
from companion.reads import ReaderHealth, ReaderMessage, TagSeen
from companion.table import Submission, TableService
from companion.tags import TagMap
from firmware_bridge import protocol as p
from firmware_bridge.host_reader import UsbReader
from firmware_bridge.simulator import SimulatedPico
from hardware.fakes.cards import FakeCard
from hardware.fakes.mfrc522_chip import Fault, LockUp
from marmite.games import GAMES
from marmite.wiring import ReaderPump
from tests.companion.chaud_devant.rulebook import started
from tests.firmware_bridge.stalling_host import STALLED

ROOT = Path(__file__).resolve().parents[2]
WAIT = 10.0
CARDS = {
    "04a1b2c3d4e5f6": "pea-1a",
    "04112233445566": "pea-3a",
    "deadbeef": "onion-10",
    "0a0b0c0d": "pepper-2a",
    "04778899aabbcc": "pea-2b",
}


def card(uid: str) -> FakeCard:
    """A fake tag: 7-byte UIDs are NTAG213 stickers, 4-byte ones MIFARE Classic cards."""
    return FakeCard.ntag213(uid) if len(uid) == 14 else FakeCard.classic1k(uid)


class Table:
    """The host side as the table service sees it: the reader queue, split into tags and health.

    Each tag taken is dealt with at once (`done`, as the reader pump does once it is journaled),
    unless `acknowledging` is off: then the tags wait in `unfinished`.
    """

    def __init__(self, reader: UsbReader, *, acknowledging: bool = True) -> None:
        self.reader = reader
        self.acknowledging = acknowledging
        self.queue: queue.Queue[ReaderMessage] = queue.Queue()
        self.tags: list[str] = []
        self.resting: list[str] = []  # tags seen again after a reset, delivered before it: the table judges them
        self.unfinished: list[TagSeen] = []
        self.health: list[ReaderHealth] = []
        self.tag_map = TagMap(GAMES.tag_codes(), CARDS)

    def pump(self, seconds: float = 0.05) -> None:
        """Move what the reader queued into `tags` and `health`, for up to `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                item = self.queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return
            if isinstance(item, TagSeen):
                assert item.reader == "usb" and item.done is not None
                if item.resting:  # the table judges (pile or new round): see the tests with a TableService
                    self.resting.append(item.uid)
                    item.done()
                    continue
                self.tags.append(item.uid)
                if self.acknowledging:
                    item.done()
                else:
                    self.unfinished.append(item)
            else:
                self.health.append(item)

    def until(self, condition: Callable[[], bool], what: str) -> None:
        """Pump until `condition` holds; fail after WAIT seconds."""
        deadline = time.monotonic() + WAIT
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"gave up waiting for {what}; tags={self.tags}")
            self.pump()

    def wait_tags(self, count: int) -> None:
        self.until(lambda: len(self.tags) >= count, f"{count} tags")

    def settle(self, seconds: float = 0.8) -> None:
        """Let resends and heartbeats run: long enough for any duplicate to show up."""
        self.pump(seconds)

    def wait_healthy(self) -> None:
        self.until(lambda: bool(self.health) and self.health[-1].ok and self.reader.health().ok, "a healthy board")

    def codes(self) -> list[str | None]:
        return [self.tag_map.lookup(uid) for uid in self.tags]


@pytest.fixture
def pico() -> Iterator[SimulatedPico]:
    board = SimulatedPico().power_on()
    yield board
    board.close()


@pytest.fixture
def table(pico: SimulatedPico) -> Iterator[Table]:
    reader = UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2), silence_reconnect=3.0)
    host = Table(reader)
    reader.start(host.queue)
    host.wait_healthy()
    yield host
    reader.close()


def test_a_card_entering_the_field_is_one_tag(pico: SimulatedPico, table: Table) -> None:
    pico.chip.enter(card("04a1b2c3d4e5f6"))
    table.wait_tags(1)
    pico.chip.enter(card("deadbeef"))
    table.wait_tags(2)
    table.settle()
    assert table.codes() == ["pea-1a", "onion-10"]
    assert pico.board.pending == []
    buzzer = pico.board.feedback.buzzer
    assert buzzer.beeps == 2 and buzzer.duty == 0


def test_cards_lying_on_the_reader_are_read_once(pico: SimulatedPico, table: Table) -> None:
    pile = [card(uid) for uid in ("04a1b2c3d4e5f6", "deadbeef", "04112233445566")]
    for each in pile:
        pico.chip.enter(each)  # all at once: anticollision sorts them out
    table.wait_tags(3)
    table.settle(1.0)
    assert sorted(table.tags) == sorted(c.uid_hex for c in pile)


def test_a_card_played_again_after_leaving_is_a_new_tag(pico: SimulatedPico, table: Table) -> None:
    sticker = card("04a1b2c3d4e5f6")
    pico.chip.enter(sticker)
    table.wait_tags(1)
    pico.chip.leave(sticker)
    time.sleep(1.6)  # past the firmware's debounce
    pico.chip.enter(sticker)
    table.wait_tags(2)
    table.settle(0.5)
    assert table.tags == ["04a1b2c3d4e5f6"] * 2


def test_unplug_and_replug_mid_game_loses_nothing(pico: SimulatedPico, table: Table) -> None:
    pico.chip.enter(card("04a1b2c3d4e5f6"))
    table.wait_tags(1)
    ghost = p.Frame(p.TAG, 999, p.tag_body(pico.board.boot_id, bytes.fromhex("0a0b0c0d")))
    pico.cable.inject(p.encode_frame(ghost)[:-5])  # the cable goes in the middle of a frame
    pico.unplug()
    table.until(lambda: not table.reader.health().ok, "the host to notice the unplug")
    pico.chip.enter(card("deadbeef"))  # read by the board while the cable is out
    pico.chip.enter(card("04112233445566"))
    table.until(lambda: len(pico.board.pending) == 2, "the board to hold both tags")
    pico.replug()  # a new pty (Linux may give it the old number back, as it may a real ttyACM)
    table.wait_tags(3)
    table.settle()
    assert table.codes() == ["pea-1a", "onion-10", "pea-3a"]
    assert table.reader.connections == 2
    assert any(not h.ok for h in table.health) and table.health[-1].ok
    assert pico.board.pending == []


def test_lost_acks_mean_resends_never_a_second_card(pico: SimulatedPico, table: Table) -> None:
    pico.cable.flip_bits(3, incoming=True)  # the host's next ACKs (and pings) arrive damaged
    pico.chip.enter(card("deadbeef"))
    table.wait_tags(1)
    table.until(lambda: pico.board.pending == [], "an ACK to get through")
    table.settle()
    assert table.tags == ["deadbeef"]
    assert table.reader.session.facts.duplicates_dropped >= 1


def test_bit_flips_and_garbage_on_the_line_make_no_false_card(pico: SimulatedPico, table: Table) -> None:
    noise = random.Random(522)
    played = ["04a1b2c3d4e5f6", "deadbeef", "04112233445566", "0a0b0c0d"]
    for index, uid in enumerate(played):
        pico.cable.flip_bits(2)
        pico.cable.inject(bytes(noise.randrange(256) for _ in range(200)))
        pico.chip.enter(card(uid))
        pico.cable.inject(b"\x00" + bytes(noise.randrange(1, 256) for _ in range(300)) + b"\x00")
        table.wait_tags(index + 1)
    table.settle()
    assert table.tags == played
    decoder = table.reader.session.decoder
    assert decoder.frames_bad + decoder.frames_oversize >= 4


def test_a_board_reset_neither_repeats_the_pile_nor_loses_a_new_card(pico: SimulatedPico, table: Table) -> None:
    pile = [card("04a1b2c3d4e5f6"), card("deadbeef")]
    for each in pile:
        pico.chip.enter(each)
        table.wait_tags(len(table.tags) + 1)
    old_boot = pico.board.boot_id
    pico.power_off()
    pico.chip.enter(card("04112233445566"))  # dropped while the board was down
    pico.cable.unplug()
    pico.power_on()  # the pile is still on the antenna and answers again after the reset
    assert pico.board.boot_id != old_boot
    table.wait_tags(3)
    pico.chip.enter(card("0a0b0c0d"))
    table.wait_tags(4)
    table.settle(1.0)
    assert table.codes() == ["pea-1a", "onion-10", "pea-3a", "pepper-2a"]
    facts = table.reader.session.facts
    assert facts.resets_seen == 1 and facts.boot_repeats == 2
    assert sorted(table.resting) == ["04a1b2c3d4e5f6", "deadbeef"]


def test_a_restarted_host_gets_what_the_board_still_holds(pico: SimulatedPico, table: Table) -> None:
    pico.chip.enter(card("04a1b2c3d4e5f6"))
    table.wait_tags(1)
    table.reader.close()
    pico.chip.enter(card("deadbeef"))
    table.until(lambda: len(pico.board.pending) == 1, "the board to hold the tag")
    second = Table(UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2)))
    second.reader.start(second.queue)
    try:
        second.wait_tags(1)
        second.settle()
        assert second.tags == ["deadbeef"]
    finally:
        second.reader.close()


def test_health_tells_port_firmware_and_heartbeat(pico: SimulatedPico, table: Table) -> None:
    health = table.reader.health()
    info = dict(health.info)
    assert health.ok and info["connected"] == "yes" and info["port"] == pico.port
    assert info["firmware"] == "marmite-pico 1.0.0" and info["protocol"] == str(p.PROTOCOL_VERSION)
    assert info["boot"] == f"{pico.board.boot_id:08x}"
    assert abs(float(info["last_heartbeat"]) - time.time()) < WAIT


def test_commands_reach_the_board(pico: SimulatedPico, table: Table) -> None:
    assert table.reader.ping() is not None
    assert table.reader.beep(50, 1000)
    assert pico.machine.pins[15] is not None and pico.board.feedback.buzzer.frequency == 1000
    assert table.reader.led(p.LED_OFF)
    table.until(lambda: pico.machine.pins["LED"].level == 0, "the LED to go off")
    assert pico.board.feedback.mode == p.LED_OFF


def test_a_card_becomes_a_play_on_the_table(tmp_path: Path, pico: SimulatedPico) -> None:
    service = TableService(Journal.open(tmp_path), GAMES, tags=TagMap(GAMES.tag_codes(), CARDS))
    for event in started():
        service.submit(event)
    reader = UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2))
    played = ["04a1b2c3d4e5f6", "04112233445566", "deadbeef"]

    def accepted_cards() -> list[str]:
        return [r.body["card"] for r in service.journal.records() if r.body["type"] == "card" and r.accepted]

    with ReaderPump(service, reader):
        for index, uid in enumerate(played):
            pico.chip.enter(card(uid))
            deadline = time.monotonic() + WAIT
            while len(accepted_cards()) < index + 1 and time.monotonic() < deadline:
                time.sleep(0.02)
        time.sleep(0.5)
    assert accepted_cards() == ["pea-1a", "pea-3a", "onion-10"]
    refused = [r.body for r in service.journal.records() if not r.accepted]
    assert refused == []


def test_console_control_bytes_and_interrupts_do_not_stop_the_board(pico: SimulatedPico, table: Table) -> None:
    pico.cable.inject_to_board(b"\x03\x03\x01\x04\r\nimport machine\r\n\x02")  # ^C ^C ^A ^D, REPL text, ^B
    pico.cable.interrupt(3)
    pico.chip.enter(card("deadbeef"))
    table.wait_tags(1)
    table.settle(0.3)
    assert table.tags == ["deadbeef"]
    assert not pico.board.stopped and pico.board.loop_errors == 0


def test_a_board_without_its_rc522_says_so_and_recovers_when_wired() -> None:
    pico = SimulatedPico()
    pico.machine.rc522_wired = False
    with pico, UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2)) as reader:
        host = Table(reader)
        reader.start(host.queue)
        host.until(lambda: any("RC522" in h.detail for h in host.health), "the missing RC522 to be reported")
        assert not reader.health().ok
        pico.machine.rc522_wired = True
        host.wait_healthy()
        pico.chip.enter(card("deadbeef"))
        host.wait_tags(1)
    assert host.tags == ["deadbeef"]


def test_radio_faults_and_a_chip_gone_wrong_make_no_false_card(pico: SimulatedPico, table: Table) -> None:
    played = ["04a1b2c3d4e5f6", "deadbeef", "04112233445566", "0a0b0c0d", "04778899aabbcc"]
    faults = [
        (Fault.CRC, "anticoll"), (Fault.PARITY, "any"), (Fault.COLLISION, "anticoll"),
        (Fault.NO_ANSWER, "select"), (Fault.CRC, "select"),
    ]
    for index, (uid, (fault, on)) in enumerate(zip(played, faults, strict=True)):
        pico.chip.inject(fault, on=on, count=2)
        if index == 2:
            pico.chip.lock_up(LockUp.STUCK)  # cured by a SoftReset
        if index == 4:
            pico.chip.lock_up(LockUp.GARBAGE)  # SPI answers noise until the reset line is pulsed
        pico.chip.enter(card(uid))
        table.wait_tags(index + 1)
    table.settle()
    assert table.tags == played
    assert pico.chip.locked_up is None


def test_a_whole_rough_game_every_card_exactly_once(pico: SimulatedPico, table: Table) -> None:
    """Twelve cards piling up in the pot, with every disruption mixed in at random (fixed seed)."""
    rng = random.Random(2026)
    uids = [f"04{index:02x}a1b2c3d4e5" for index in range(8)] + [f"c0{index:02x}beef" for index in range(4)]
    rng.shuffle(uids)
    disruptions = ["unplug", "reset", "noise", "flips", "lost acks", "host restart", "none", "none"]
    for uid in uids:
        disruption = rng.choice(disruptions)
        if disruption == "unplug":
            pico.unplug()
            table.until(lambda: not table.reader.health().ok, "the unplug to be noticed")
            pico.chip.enter(card(uid))
            time.sleep(0.1)
            pico.replug()
        elif disruption == "reset":
            pico.power_off()
            pico.chip.enter(card(uid))
            pico.cable.unplug()
            pico.power_on()
        elif disruption == "host restart":
            table.reader.close()
            pico.chip.enter(card(uid))
            table.reader = UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2))
            table.reader.start(table.queue)
        else:
            if disruption == "noise":
                pico.cable.inject(bytes(rng.randrange(256) for _ in range(300)))
            elif disruption == "flips":
                pico.cable.flip_bits(2)
            elif disruption == "lost acks":
                pico.cable.flip_bits(2, incoming=True)
            pico.chip.enter(card(uid))
        table.until(lambda uid=uid: uid in table.tags, f"card {uid} after {disruption}")
    table.settle(1.0)
    assert sorted(table.tags) == sorted(uids)
    assert len(table.tags) == len(set(table.tags))
    table.reader.close()


def test_a_restarted_host_with_memory_does_not_redeliver_the_pile(tmp_path: Path, pico: SimulatedPico) -> None:
    memory = tmp_path / "usb-reader.json"
    first = Table(UsbReader(find_ports=pico.find_ports, memory=memory))
    first.reader.start(first.queue)
    for uid in ("04a1b2c3d4e5f6", "deadbeef"):
        pico.chip.enter(card(uid))
        first.wait_tags(len(first.tags) + 1)
    first.reader.close()
    second = Table(UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2), memory=memory))
    second.reader.start(second.queue)
    try:
        second.wait_healthy()
        pico.reset()  # the pile answers again after the reset
        pico.chip.enter(card("04112233445566"))
        second.wait_tags(1)
        second.settle(1.0)
        assert second.tags == ["04112233445566"]
        assert sorted(second.resting) == ["04a1b2c3d4e5f6", "deadbeef"]
        assert second.reader.session.facts.boot_repeats == 2
    finally:
        second.reader.close()


# ---------------------------------------------------------------- the ACK waits for the table


def accepted_cards(service: TableService) -> list[str]:
    return [r.body["card"] for r in service.journal.records() if r.body["type"] == "card" and r.accepted]


def refused_events(service: TableService) -> list[dict[str, object]]:
    return [r.body for r in service.journal.records() if not r.accepted]


def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll `condition`; fail after WAIT seconds (a bound on a hang, not a timing threshold)."""
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)


def resent_since(pico: SimulatedPico, seq: int, sent_at: int) -> bool:
    """True once the board resent its pending TAG `seq` after `sent_at` (so it still holds it)."""
    return any(entry[0] == seq and entry[2] != sent_at for entry in list(pico.board.pending))


def started_table(data: Path, **options: object) -> TableService:
    """A table on `data` with the test deck's tags and a game in its play phase."""
    TagMap(GAMES.tag_codes(), CARDS).save(data)
    service = TableService.open(data, GAMES, **options)
    for event in started():
        service.submit(event)
    return service


def test_a_tag_the_table_never_finishes_is_resent_and_not_remembered(tmp_path: Path, pico: SimulatedPico) -> None:
    memory = tmp_path / "usb-reader.json"
    host = Table(UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2), memory=memory), acknowledging=False)
    host.reader.start(host.queue)
    try:
        pico.chip.enter(card("deadbeef"))
        host.wait_tags(1)
        session = host.reader.session
        host.until(lambda: session.facts.duplicates_dropped >= 1, "a resend held while the table works")
        host.until(lambda: len(host.tags) >= 2, "the tag handed over again (the first hand-over failed)")
        assert host.tags == ["deadbeef", "deadbeef"]
        assert [entry[0] for entry in pico.board.pending] == [session.in_flight()[0].seq]  # never ACKed
        assert session.delivered() == [] and not memory.exists()
        done = host.unfinished[0].done
        assert done is not None
        done()  # the table is done at last: ACK, and now the UID counts as delivered
        host.until(lambda: pico.board.pending == [], "the ACK to reach the board")
        assert session.delivered() == [("deadbeef", pico.board.boot_id)] and session.in_flight() == []
        assert json.loads(memory.read_text(encoding="utf-8"))["delivered"] == [["deadbeef", pico.board.boot_id]]
    finally:
        host.reader.close()


class FailingOnceJournal(Journal):
    """A journal whose first card write fails (a full disk, a locked database), then works."""

    failed = False

    def append(self, event: dict[str, Any], accepted: bool, reason: str | None, source: str = "api",
               **options: Any) -> int:
        if event.get("type") == "card" and not self.failed:
            self.failed = True
            raise JournalError(f"{self.path}: cannot record event: disk I/O error (test)")
        return super().append(event, accepted, reason, source, **options)


def test_a_card_whose_journal_write_failed_is_resent_and_journaled_once(tmp_path: Path, pico: SimulatedPico) -> None:
    started_table(tmp_path).close()
    service = TableService(FailingOnceJournal.open(tmp_path), GAMES, tags=TagMap(GAMES.tag_codes(), CARDS))
    reader = UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2))
    with ReaderPump(service, reader):
        pico.chip.enter(card("04a1b2c3d4e5f6"))
        wait_until(lambda: isinstance(service.journal, FailingOnceJournal) and service.journal.failed,
                   "the first journal write to fail")
        wait_until(lambda: accepted_cards(service) == ["pea-1a"], "the resent card to be journaled")
        wait_until(lambda: pico.board.pending == [], "the ACK to reach the board")
    assert accepted_cards(service) == ["pea-1a"] and refused_events(service) == []
    assert reader.session.facts.tags_redelivered >= 1


class HeldTable(TableService):
    """A table whose `tag_seen` waits until the test lets it go on (a table busy elsewhere)."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.entered = threading.Event()
        self.go = threading.Event()

    def tag_seen(self, uid: str, source: str = "reader") -> Submission | None:
        self.entered.set()
        assert self.go.wait(WAIT), "the test never let the table go on"
        return super().tag_seen(uid, source)


def test_a_double_read_is_acknowledged_once_judged(tmp_path: Path, pico: SimulatedPico) -> None:
    frozen = 1000.0  # the table's double-read window never runs out in this test, however slow the machine
    started_table(tmp_path, clock=lambda: frozen).close()
    service = HeldTable(Journal.open(tmp_path), GAMES, tags=TagMap(GAMES.tag_codes(), CARDS), clock=lambda: frozen)
    reader = UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2))
    sticker = card("04a1b2c3d4e5f6")
    with ReaderPump(service, reader):
        service.go.set()
        pico.chip.enter(sticker)
        wait_until(lambda: accepted_cards(service) == ["pea-1a"] and pico.board.pending == [], "the play")
        pico.chip.leave(sticker)
        service.go.clear()
        service.entered.clear()
        time.sleep(1.6)  # past the firmware's debounce: the card comes back as a new read, a new TAG
        pico.chip.enter(sticker)
        assert service.entered.wait(WAIT)
        seq, sent_at = pico.board.pending[0][0], pico.board.pending[0][2]
        wait_until(lambda: resent_since(pico, seq, sent_at), "the board to resend the unjudged tag")
        service.go.set()  # judged a double read: tag_seen returns, the pump calls done
        wait_until(lambda: pico.board.pending == [], "the ACK of the double read")
    assert accepted_cards(service) == ["pea-1a"] and refused_events(service) == []


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_host_killed_between_queue_and_commit_gets_the_card_again(
    tmp_path: Path, pico: SimulatedPico, when: str
) -> None:
    """A real host process SIGKILLed while its journal write hangs: before the commit (the card must come
    back from the board) or after it (the card comes back and is a double read): journaled once either way."""
    started_table(tmp_path).close()
    log = tmp_path / "host.log"
    with open(log, "wb") as output:
        host = subprocess.Popen(
            [sys.executable, "-m", "tests.firmware_bridge.stalling_host", str(tmp_path), pico.port, when],
            cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
    try:
        pico.chip.enter(card("04a1b2c3d4e5f6"))
        wait_until(lambda: (tmp_path / STALLED).exists() or host.poll() is not None, "the host to stall")
        assert host.poll() is None, log.read_text(encoding="utf-8")
        pending = [(entry[0], entry[2]) for entry in pico.board.pending]
        assert pending != [], "the host acknowledged a card it had not recorded"
        wait_until(lambda: resent_since(pico, *pending[0]), "the board to resend it")
    finally:
        host.send_signal(signal.SIGKILL)
        host.wait()
    service = TableService.open(tmp_path, GAMES)
    with ReaderPump(service, UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2))):
        wait_until(lambda: accepted_cards(service) == ["pea-1a"] and pico.board.pending == [],
                   "the card to be journaled and acknowledged")
        time.sleep(0.5)  # room for a wrong second delivery to show
    assert accepted_cards(service) == ["pea-1a"] and refused_events(service) == []
    service.close()


def test_a_card_of_an_earlier_round_dropped_just_after_a_board_reset_is_played(tmp_path: Path,
                                                                                pico: SimulatedPico) -> None:
    """Its UID was delivered in round 1; the board resets in round 2 and the card is dropped at once: a
    new play. Before, the host took it for the pile and dropped it, during the two seconds after boot."""
    from companion.chaud_devant.cards import ALL_CODES
    from tests.companion.chaud_devant.rulebook import card as card_event
    from tests.companion.chaud_devant.rulebook import menu

    service = started_table(tmp_path)
    uid = "04a1b2c3d4e5f6"
    with ReaderPump(service, UsbReader(find_ports=pico.find_ports, backoff=(0.05, 0.2))):
        played = pico.chip.enter(card(uid))
        wait_until(lambda: accepted_cards(service) == ["pea-1a"], "pea-1a played")
        pico.chip.leave(played)
        for code in ALL_CODES:  # round 1 played out on the tablet
            if service.state()["phase"] != "play":
                break
            if code != "pea-1a":
                assert service.submit(card_event(code)).accepted
        for player, choice in zip(("Bruno", "Valentine", "Nicolas", "Virginie"), ("pea", "none", "pepper", "onion"),
                                  strict=True):
            assert service.submit(menu(player, choice)).accepted
        pico.reset()
        pico.chip.enter(card(uid))  # within the board's first two seconds: flagged AT_BOOT
        wait_until(lambda: accepted_cards(service).count("pea-1a") == 2, "pea-1a played again in round 2")
        time.sleep(0.5)
    assert accepted_cards(service).count("pea-1a") == 2 and refused_events(service) == []
    assert service.state()["round"] == 2
    service.close()
