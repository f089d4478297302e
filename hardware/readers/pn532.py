"""The `pn532` reader: a PN532 module on a serial port (HSU: the Pi's UART, or a USB-UART dongle on any
computer) or on a Pi's I2C bus.

Each poll asks InListPassiveTarget for two targets (the chip resolves two stacked cards itself) and asks
again while it gets two (the cards listed are then halted, so a third one answers). The field stays on:
cards resting on the reader stay halted and silent until they leave it (see hardware/fakes/pn532_chip.py
for the reports this follows); it is cut only after a lost answer and before a tag write. The chip itself
looks for a card ~100 ms per listing, 1.6 ms apart, while the host sleeps.
For a self-describing deck, each new card's NTAG memory is read (NTAG READ through InDataExchange).
The thread reports `TagSeen` (debounced per UID, as the RC522 reader does) and `ReaderHealth`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.reader_words import Words, words
from companion.reads import ReaderQueue, TagSeen
from hardware.pn532 import Pn532, Pn532Error, Target, Transport
from hardware.readers.common import ERRORS, MISSING, OK, Backoff, HealthLatch, ReaderThread, crash_detail
from hardware.readers.permissions import serial_fix
from hardware.tag_memory import NTAG_FIRST_PAGE, code_from_ndef, ndef_bytes, ndef_needed

BAUD = 115200
POLL_MS = 40  # between two listings that found cards (an empty listing lasts ~100 ms in the chip)
READ_SLICE_S = 0.01  # pyserial's read timeout: one wait for the first byte (a byte ends it at once)
ACK_S = 0.1
FIRST_ACK_S = 1.5  # a USB-UART dongle's first ACK can take about a second (nfcpy waits 1.5 s)
RETRY_TIMEOUT = 0x05  # fRetryTimeout 1.6 ms between the chip's tries (its default 51.2 ms lets a card pass by)
RETRIES = 62  # MxRtyPassiveActivation: the chip itself looks for cards 63 times, ~100 ms, while the host waits
# asleep; a card arriving meanwhile is found within a try, and the host spends one command per 100 ms
LIST_ANSWER_S = (RETRIES + 1) * 0.0016 + 0.1  # silence longer than this after the ACK is a lost answer:
# the poll is tried again at once
MAX_LISTINGS = 4  # InListPassiveTarget calls per poll while each lists two cards (up to 8 cards stacked)
DEBOUNCE_S = 1.0
AFTER_FIELD_OFF_S = 0.5  # a card known before, listed this soon after the reader cut the field, is one resting
MAX_CODE_PAGES = 36
ERROR_POLLS = 10  # failed polls in a row before the reader is called down and reopened
I2C_ADDRESS = 0x24
I2C_SLAVE = 0x0703
I2C_TRIES = 4  # a transfer refused with EREMOTEIO is tried this many times


class SerialTransport:
    """HSU through pyserial: `port` opened at `baud` by `open_port` (pyserial's `serial.Serial` by default)."""

    needs_wakeup = True

    def __init__(self, port: str, baud: int = BAUD, open_port: Callable[..., Any] | None = None) -> None:
        if open_port is None:
            import serial

            open_port = serial.Serial
        self.port = port
        self._serial = open_port(port, baud, timeout=READ_SLICE_S)

    def write(self, data: bytes) -> None:
        self._serial.write(data)
        self._serial.flush()

    def read(self, timeout: float) -> bytes:
        """What arrived, waiting up to `timeout` for the first byte: asleep in select() where the port has a
        file descriptor (POSIX), else in reads of a short slice (the port's timeout, set once: changing it
        reconfigures the port every call)."""
        deadline = time.monotonic() + timeout
        fileno = getattr(self._serial, "fileno", None)
        if fileno is not None and os.name == "posix" and not self._serial.in_waiting and timeout > 0:
            select.select([fileno()], [], [], timeout)
        while True:
            waiting = self._serial.in_waiting
            if waiting:
                return bytes(self._serial.read(waiting))
            if time.monotonic() >= deadline:
                return b""
            first = bytes(self._serial.read(1))
            if first:
                return first + bytes(self._serial.read(self._serial.in_waiting))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._serial.close()


class I2cTransport:
    """I2C through Linux's i2c-dev (`/dev/i2c-1` on a Pi), or any `device` with read(n)/write(data): each read
    starts with the chip's ready byte (1: a frame follows). A transfer refused with EREMOTEIO (the Pi's
    I2C does not wait out the chip's clock stretching) is tried again a few times before it counts."""

    needs_wakeup = False

    def __init__(self, device: str = "/dev/i2c-1", address: int = I2C_ADDRESS, chunk: int = 64,
                 backend: Any = None, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.port = f"{device}@{address:#04x}"
        self._device = backend if backend is not None else I2cDevice(device, address)
        self._chunk = chunk
        self._sleep = sleep
        self._clock = clock
        self.remote_io_retries = 0

    def write(self, data: bytes) -> None:
        self._again(lambda: self._device.write(data))

    def read(self, timeout: float) -> bytes:
        """Poll the ready byte every millisecond until it says 1 (then the frame follows) or `timeout`."""
        deadline = self._clock() + timeout
        while True:
            data = bytes(self._again(lambda: self._device.read(self._chunk)))
            if data[:1] == b"\x01":
                return data[1:]
            if self._clock() >= deadline:
                return b""
            self._sleep(0.001)

    def _again(self, transfer: Callable[[], Any]) -> Any:
        for attempt in range(I2C_TRIES):
            try:
                return transfer()
            except OSError as error:
                if error.errno != errno.EREMOTEIO or attempt == I2C_TRIES - 1:
                    raise
                self.remote_io_retries += 1
                self._sleep(0.001)
        return None

    def close(self) -> None:
        self._device.close()


class I2cDevice:
    """An i2c-dev device file talking to one address (the ioctl I2C_SLAVE)."""

    def __init__(self, path: str, address: int) -> None:
        import fcntl  # Linux only, as i2c-dev is: the serial transport must load on Windows too

        self._fd = os.open(path, os.O_RDWR)
        try:
            fcntl.ioctl(self._fd, I2C_SLAVE, address)
        except OSError:
            os.close(self._fd)
            raise

    def read(self, count: int) -> bytes:
        return os.read(self._fd, count)

    def write(self, data: bytes) -> None:
        os.write(self._fd, data)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


USB_UART_IDS = frozenset({(0x10C4, 0xEA60), (0x1A86, 0x7523), (0x1A86, 0x55D4), (0x0403, 0x6001),
                          (0x0403, 0x6015), (0x067B, 0x2303)})
"""USB-UART bridges a PN532 is sold on: CP2102, CH340, CH9102, FTDI FT232R and FT231X, PL2303."""


def serial_ports(comports: Callable[[], list[Any]] | None = None) -> tuple[list[str], list[str]]:
    """(ports a PN532 may sit on, other ports): USB-UART bridges by their USB id, and the Pi's UART; the
    others (a modem, a Pico, a GPS…) are never sent wake-up bytes unless named with port= (libnfc probes
    no serial port by default either)."""
    if comports is None:
        from serial.tools import list_ports

        comports = list_ports.comports
    likely, others = set(), set()
    for info in comports():
        if (getattr(info, "vid", None), getattr(info, "pid", None)) in USB_UART_IDS:
            likely.add(info.device)
        else:
            others.add(info.device)
    likely |= {p for p in ("/dev/serial0",) if os.path.exists(p)}
    return sorted(likely), sorted(others - likely)


def open_transport(options: dict[str, str]) -> Transport:
    """The transport `--reader pn532` options ask for: `port=` (serial, default /dev/serial0) or `i2c=`."""
    if "i2c" in options:
        return I2cTransport(options["i2c"] or "/dev/i2c-1", int(options.get("address", "0x24"), 0))
    return SerialTransport(options.get("port", "/dev/serial0"), int(options.get("baud", str(BAUD))))


class Pn532Reader:
    """A pot reader on a PN532. `backend` builds the transport (a `Transport`) when the thread opens it."""

    def __init__(self, backend: Callable[[], Transport], *, name: str = "pn532", poll_ms: int = POLL_MS,
                 debounce_s: float = DEBOUNCE_S, where: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self._backend = backend
        self._poll_s = poll_ms / 1000
        self._debounce_s = debounce_s
        self._where = where
        self._clock = clock
        self._health = HealthLatch(name)
        self._thread = ReaderThread(name, self._run, lambda error: self._report(ERRORS, crash_detail(error)))
        self._out: ReaderQueue | None = None
        self._chip: Pn532 | None = None
        self._chip_lock = threading.Lock()
        self._codes = False
        self._known: Callable[[str], bool] = lambda uid: False
        self._last_seen: dict[str, float] = {}
        self._field_off_at: float | None = None  # when the reader last cut the field (resting cards wake)
        self.polls = 0
        self.errors = 0
        self._failures = 0

    @classmethod
    def from_options(cls, options: dict[str, str]) -> Pn532Reader:
        """`--reader pn532` options: `port` (default /dev/serial0), `baud`, or `i2c` (a device, e.g.
        /dev/i2c-1) and `address`; `poll_ms`, `name`."""
        known = {"port", "baud", "i2c", "address", "poll_ms", "name"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown pn532 option {unknown[0]!r}; known: {', '.join(sorted(known))}")
        where = options.get("i2c") or options.get("port", "/dev/serial0")
        return cls(lambda: open_transport(options), name=options.get("name", "pn532"),
                   poll_ms=int(options.get("poll_ms", str(POLL_MS))), where=where)

    # --- the reader protocol -------------------------------------------------------------

    def start(self, out: ReaderQueue) -> None:
        """Open the chip and poll it in a background thread until `close()`."""
        self._out = out
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and close the port; safe to call twice."""
        self._thread.close()
        self._drop()

    # --- tag memory ----------------------------------------------------------------------

    def report_codes(self, on: bool) -> None:
        """companion.reads.TagMemory: read each new card's NTAG memory and report its code."""
        self._codes = on

    def skip_codes_of(self, known: Callable[[str], bool]) -> None:
        """companion.reads.KnownTags: no memory read for a UID the deck already knows."""
        self._known = known

    def writes(self, uid: str) -> bool:
        """companion.reads.TagKinds: NTAG pages only (a 7-byte UID), never a MIFARE Classic's sectors."""
        return len(uid) == 14

    def write_card(self, uid: str, code: str) -> bool:
        """companion.reads.TagWriter: between two polls, write `code` on card `uid` and read it back."""
        with self._chip_lock:
            chip = self._chip
            if chip is None:
                return False
            try:
                self._field_off(chip)  # every card fresh: the one to write answers this listing
                target = next((t for t in chip.list_targets(2, LIST_ANSWER_S) if t.uid.hex() == uid), None)
                if target is None:
                    return False
                data = ndef_bytes(code)
                data += bytes(-len(data) % 4)
                for offset in range(0, len(data), 4):
                    chip.write_page(target.number, NTAG_FIRST_PAGE + offset // 4, data[offset : offset + 4])
                return _read_code(chip, target) == code
            except Pn532Error:
                return False

    # --- the thread ----------------------------------------------------------------------

    def _run(self, stop: threading.Event) -> None:
        backoff = Backoff()
        while not stop.is_set():
            wait = self.step(backoff)
            if wait > 0:
                stop.wait(wait)

    def step(self, backoff: Backoff) -> float:
        """One turn of the thread: open the chip if needed, poll it; the seconds to wait before the next."""
        began = self._clock()
        if self._chip is None and not self._open():
            return backoff.failed()
        backoff.succeeded()
        with self._chip_lock:  # the recovery too: a write_card between a lost answer and its field off
            try:              # would find a card selected, or the port closed under it
                listed = self._poll()
            except (Pn532Error, OSError) as error:
                self._recover(error)
                return 0.0  # a lost answer: the poll is tried again at once
        self._failures = 0
        if not listed:
            return 0.0  # the chip waited for a card itself: ask again at once
        return max(0.0, self._poll_s - (self._clock() - began))

    def _recover(self, error: Exception) -> None:
        """After a failed poll (the chip lock held): field off, or the chip dropped after too many in a row."""
        self._failures += 1
        self.errors += 1
        if self._failures >= ERROR_POLLS:
            self._report(ERRORS, words("pn532_silent", why=str(error)))
            self._drop()
            self._failures = 0
        elif self._chip is not None:
            with contextlib.suppress(Pn532Error, OSError):  # the lost answer may have selected a card
                self._field_off(self._chip)

    def _open(self) -> bool:
        try:
            transport = self._backend()
        except (OSError, ValueError) as error:
            self._report(MISSING, _cannot_open(str(error), self._where))
            return False
        except Exception as error:  # pyserial's SerialException is an OSError; anything else is reported too
            self._report(MISSING, words("cannot_open", where=self._where, why=str(error)))
            return False
        chip = Pn532(transport, ack_timeout=FIRST_ACK_S, clock=self._clock)
        try:
            chip.wake()
            chip.ack_timeout = ACK_S
            ic, version, revision = chip.firmware()
            chip.set_retries(RETRIES)
            chip.set_retry_timeout(RETRY_TIMEOUT)
        except (Pn532Error, OSError) as error:
            transport.close()
            self._report(MISSING, words("pn532_none", where=self._where, why=str(error)))
            return False
        if ic != 0x32:
            transport.close()
            self._report(ERRORS, words("pn532_other_chip", where=self._where, chip=f"PN5{ic:02X}"))
            return False
        self._chip = chip
        self._field_off_at = self._clock()  # a reopened chip wakes the cards resting on it: known ones stay said
        self._report(OK, words("ready_on", what=f"PN532 v{version}.{revision}", where=self._where))
        return True

    def _poll(self) -> bool:
        """List the cards (again while two answer: a third may lie under them); whether any was listed.

        The field stays on: every card listed ends halted (the chip halts a card to look for a second, and
        a card it wakes to select again falls back to HALT at the next REQA), so cards resting on the reader
        answer no further listing until they leave the field, and each empty listing waits its ~100 ms in
        the chip; a card dropped on them is IDLE and answers at once (hardware/fakes/pn532_chip.py)."""
        chip = self._chip
        assert chip is not None
        self.polls += 1
        listed: set[bytes] = set()
        for _ in range(MAX_LISTINGS):
            targets = [t for t in chip.list_targets(2, LIST_ANSWER_S) if t.uid not in listed]
            now = self._clock()
            for target in targets:
                listed.add(target.uid)
                if self._fresh(target.uid.hex(), now) and self._out is not None:
                    self._out.put(TagSeen(target.uid.hex(), self.name, card=self._code(target)))  # at once
            if len(targets) < 2:
                break
        if self._health.state != OK:
            self._report(OK, words("ready_on", what="PN532", where=self._where))
        return bool(listed)

    def _code(self, target: Target) -> str | None:
        if not self._codes or self._chip is None or self._known(target.uid.hex()):
            return None
        try:
            return _read_code(self._chip, target)
        except Pn532Error:
            return None

    def _field_off(self, chip: Pn532) -> None:
        """Cut the field: every card loses power, and the cards resting on the reader answer again."""
        chip.field(False)
        self._field_off_at = self._clock()

    def _fresh(self, uid: str, now: float) -> bool:
        """Same-card debounce: a UID seen again within `debounce_s` of its last sighting is the same passage.

        Cards resting on the reader stay halted and silent, so their last sighting grows old; when the reader
        cuts the field (a lost answer, a write) they answer again: a known UID listed within
        `AFTER_FIELD_OFF_S` of that is a card resting there, not a new passage."""
        last = self._last_seen.get(uid)
        self._last_seen[uid] = now
        if last is not None and self._field_off_at is not None and now - self._field_off_at < AFTER_FIELD_OFF_S:
            return False
        return last is None or now - last >= self._debounce_s

    def _drop(self) -> None:
        chip, self._chip = self._chip, None
        if chip is not None:
            chip.transport.close()

    def _report(self, state: str, said: Words) -> None:
        self._health.report(self._out, state, said, {"port": self._where})


def _read_code(chip: Pn532, target: Target) -> str | None:
    memory = chip.read_pages(target.number, NTAG_FIRST_PAGE)
    needed = ndef_needed(memory)
    page = NTAG_FIRST_PAGE + 4
    while len(memory) < needed and page < NTAG_FIRST_PAGE + MAX_CODE_PAGES:
        memory += chip.read_pages(target.number, page)
        page += 4
    return code_from_ndef(memory, None)


def _cannot_open(error: str, where: str) -> Words:
    """Why `where` did not open, with the one thing that fixes it when it is known."""
    if "ermission denied" in error or "ccess is denied" in error:
        return words("cannot_open_fix", where=where, why=error, fix=serial_fix(where))
    if "No such file" in error:
        return words("cannot_open_fix", where=where, why=error, fix=words("fix_plugged"))
    return words("cannot_open", where=where, why=error)
