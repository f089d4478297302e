"""The `pcsc` reader: an ACR122U (or any PC/SC contactless reader) through `pcscd` and `pyscard`.

The thread waits on `SCardGetStatusChange` (no busy loop: pcscd polls the reader) and, when a card
appears, asks its UID with the PC/SC pseudo-APDU `FF CA 00 00 00` and, for a self-describing deck,
its NTAG pages with `FF B0 00 pp 10`. pcscd looks at the reader a few times a second, so cards must
rest on it: a card dropped past it can be missed. No stacked cards: PC/SC shows one card at a time.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.reader_words import Words, install_fix, words
from companion.reads import ReaderQueue, TagSeen
from hardware.readers.common import ERRORS, MISSING, OK, Backoff, HealthLatch, ReaderThread, crash_detail
from hardware.readers.permissions import INSTALL, pcscd_refused
from hardware.tag_memory import NTAG_FIRST_PAGE, code_from_ndef, ndef_bytes, ndef_needed

GET_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]
BUZZER_OFF = [0xFF, 0x00, 0x52, 0x00, 0x00]  # ACR122U: no beep on card detection (kept until unplugged)
# ACR122U Bi-Color LED and Buzzer Control, FF 00 40 P2 04 T1 T2 R B (the API document): P2 masks both LEDs'
# final states (red on, green off: the idle look) and blinks one; T1/T2 in 100 ms, R times, no buzzer.
LED_ACCEPTED = [0xFF, 0x00, 0x40, 0xED, 0x04, 0x05, 0x01, 0x01, 0x00]  # green alone 500 ms (both LEDs blink)
LED_REFUSED = [0xFF, 0x00, 0x40, 0x5D, 0x04, 0x02, 0x02, 0x03, 0x00]  # red blinks three times
SIGNAL_WINDOW_S = 3.0  # a verdict this long after the last read is that read's (later ones: not a card here)
WAIT_MS = 250  # each status wait ends this often, so that close() and a replugged reader are noticed
MAX_CODE_PAGES = 36  # an NTAG213's user memory (pages 4 to 39)
SW_OK = [0x90, 0x00]
SW_FAILED = [0x63, 0x00]  # what the ACR122U answers when the card left before answering
CARDS_UNREAD = 3  # cards in a row that did not answer before the reader itself is called down


def named_like(name: str, wanted: str) -> bool:
    """Whether PC/SC reader `name` is the one asked for: part of its name, in any case; an ACS model's
    trailing U may be missing (Windows calls the ACR122U "ACS ACR122 0", Linux "ACS ACR122U PICC …")."""
    name, wanted = name.lower(), wanted.lower()
    return wanted in name or (wanted.startswith("acr") and wanted.endswith("u") and wanted[:-1] in name)


class PcscError(RuntimeError):
    """A PC/SC call failed; the message names the call and pyscard's reason."""


class CardGone(PcscError):
    """The card did not answer the reader (lifted mid-read, or not flat on it): no fault of the reader."""


def read_pages(transmit: Any, page: int) -> bytes:
    """`FF B0 00 pp 10`: four NTAG pages from `page`, through `transmit(apdu) -> response`."""
    return _checked(transmit([0xFF, 0xB0, 0x00, page, 0x10]), "READ BINARY")


def read_code(transmit: Any) -> str | None:
    """The code-shaped text an NTAG's NDEF memory holds, read 16 bytes at a time, or None."""
    memory = read_pages(transmit, NTAG_FIRST_PAGE)
    needed = ndef_needed(memory)
    page = NTAG_FIRST_PAGE + 4
    while len(memory) < needed and page < NTAG_FIRST_PAGE + MAX_CODE_PAGES:
        memory += read_pages(transmit, page)
        page += 4
    return code_from_ndef(memory, None)


def write_code(transmit: Any, code: str) -> None:
    """`FF D6 00 pp 04`: the card code's NDEF bytes, page by page from page 4."""
    data = ndef_bytes(code)
    data += bytes(-len(data) % 4)
    for offset in range(0, len(data), 4):
        page = NTAG_FIRST_PAGE + offset // 4
        _checked(transmit([0xFF, 0xD6, 0x00, page, 0x04, *data[offset : offset + 4]]), "UPDATE BINARY")


def _checked(response: list[int], what: str) -> bytes:
    if response[-2:] != SW_OK:
        status = " ".join(f"{byte:02X}" for byte in response[-2:])
        gone = response[-2:] == SW_FAILED  # the reader's "operation failed": no card answered it
        raise (CardGone if gone else PcscError)(f"{what} refused by the card (status {status})")
    return bytes(response[:-2])


class PcscReader:
    """A pot reader on PC/SC. `backend` is the `smartcard.scard` module (imported at start when not given);
    `reader` picks the PC/SC reader whose name contains it (default: the first one)."""

    def __init__(self, reader: str = "", *, backend: Any = None, name: str = "pcsc", wait_ms: int = WAIT_MS,
                 buzzer_off: bool | None = None, led: bool | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self._buzzer_off = buzzer_off  # None: for readers named like the ACR122U, which beeps on every card
        self._led = led  # None: for readers named like the ACR122U, whose LED says taken or refused
        self._clock = clock
        self._last_read: tuple[int, float] | None = None  # the last read (its number, when), until judged
        self._read_number = 0
        self.signals = 0  # verdicts shown on the LED
        self._quiet = False  # the buzzer was told to be quiet this session
        self.wanted = reader
        self._scard = backend
        self._wait_ms = wait_ms
        self._health = HealthLatch(name)
        self._thread = ReaderThread(name, self._run, lambda error: self._report(ERRORS, crash_detail(error)))
        self._out: ReaderQueue | None = None
        self._context: Any = None
        self._chosen = ""
        self._codes = False
        self._known: Callable[[str], bool] = lambda uid: False
        self._card_lock = threading.Lock()  # the poll's read and a tag write never overlap
        self.reads = 0
        self.errors = 0
        self._unread = 0  # cards in a row that did not answer

    @classmethod
    def from_options(cls, options: dict[str, str]) -> PcscReader:
        """`--reader pcsc` options: `reader` (part of the PC/SC reader's name), `name`."""
        return cls(options.get("reader", ""), name=options.get("name", "pcsc"))

    # --- the reader protocol -------------------------------------------------------------

    def start(self, out: ReaderQueue) -> None:
        """Watch the PC/SC reader in a background thread until `close()`."""
        self._out = out
        self._thread.start()

    def close(self) -> None:
        """Stop the thread (a status wait is cancelled); safe to call twice."""
        self._thread.close(self._cancel)

    def _cancel(self) -> None:
        context = self._context
        if context is not None and self._scard is not None:
            with contextlib.suppress(Exception):
                self._scard.SCardCancel(context)

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
        """companion.reads.TagWriter: write `code` on the card now on the reader if it is `uid`, read it back."""
        scard = self._scard
        if scard is None or not self._chosen:
            return False
        with self._card_lock:
            rc, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
            if rc != scard.SCARD_S_SUCCESS:
                return False
            try:
                with _Card(scard, context, self._chosen) as card:
                    if card.uid() != uid:
                        return False
                    write_code(card.transmit, code)
                    return read_code(card.transmit) == code
            except PcscError:
                return False
            finally:
                scard.SCardReleaseContext(context)

    # --- the table's verdict on the LED -----------------------------------------------------

    def read_judged(self, accepted: bool) -> None:
        """companion.reads.ReadSignals: green for a card taken, red for one refused, on the ACR122U's LED; only
        for the last card read here (a play refused on a phone is not this reader's), in a thread of its own."""
        chosen = self._chosen
        wanted = self._led if self._led is not None else named_like(chosen, "ACR122")
        last, self._last_read = self._last_read, None
        if not wanted or not chosen or last is None or self._clock() - last[1] > SIGNAL_WINDOW_S:
            return
        threading.Thread(target=self._show, args=(chosen, accepted), name=f"{self.name}-led", daemon=True).start()

    def _show(self, chosen: str, accepted: bool) -> None:
        """The LED command, through the card still on the reader (the ACR122U answers it itself)."""
        scard = self._scard
        if scard is None:
            return
        with self._card_lock:
            rc, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
            if rc != scard.SCARD_S_SUCCESS:
                return
            try:
                with _Card(scard, context, chosen) as card:
                    answer = card.transmit(LED_ACCEPTED if accepted else LED_REFUSED)
                if answer[-2:-1] == [0x90]:  # 90, then the LED's state (not 00)
                    self.signals += 1
            except PcscError:
                pass  # the card was lifted already: there is nothing to show it through
            finally:
                scard.SCardReleaseContext(context)

    # --- the thread ----------------------------------------------------------------------

    def _run(self, stop: threading.Event) -> None:
        backoff = Backoff()
        while not stop.is_set():
            try:
                scard = self._scard or importlib.import_module("smartcard.scard")
            except ImportError:
                self._report(MISSING, words("not_installed", module="pyscard", fix=install_fix('readers')))
                stop.wait(backoff.failed())
                continue
            self._scard = scard
            rc, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
            if rc != scard.SCARD_S_SUCCESS:
                self._report(MISSING, pcscd_problem(scard, rc))
                stop.wait(backoff.failed())
                continue
            self._context = context
            try:
                if self._watch(scard, context, stop):
                    backoff.succeeded()
            finally:
                self._context = None
                with contextlib.suppress(Exception):
                    scard.SCardReleaseContext(context)
            stop.wait(backoff.failed())

    def _watch(self, scard: Any, context: Any, stop: threading.Event) -> bool:
        """Find the reader, then wait for cards until it goes; True if it was there at all."""
        rc, names = scard.SCardListReaders(context, [])
        chosen = next((n for n in (names if rc == scard.SCARD_S_SUCCESS else []) if named_like(n, self.wanted)), "")
        if not chosen:
            self._report(MISSING, words("pcsc_none_named", wanted=repr(self.wanted)) if self.wanted
                         else words("pcsc_none"))
            return False
        self._chosen = chosen
        self._quiet = False  # plugged in again: the reader beeps again until told
        self._report(OK, words("ready", what=chosen))
        state = scard.SCARD_STATE_UNAWARE
        present = False
        while not stop.is_set():
            rc, states = scard.SCardGetStatusChange(context, self._wait_ms, [(chosen, state)])
            if rc == scard.SCARD_E_TIMEOUT:
                continue
            if rc != scard.SCARD_S_SUCCESS:
                if rc != scard.SCARD_E_CANCELLED:
                    self._report(MISSING, words("went_away", why=scard.SCardGetErrorMessage(rc).strip()))
                return True
            event = states[0][1]
            if event & (scard.SCARD_STATE_UNKNOWN | scard.SCARD_STATE_UNAVAILABLE):
                self._report(MISSING, words("unplugged", what=chosen))
                return True
            now_present = bool(event & scard.SCARD_STATE_PRESENT) and not event & scard.SCARD_STATE_MUTE
            if now_present and not present:
                self._card_arrived(scard, context, chosen)
            present = now_present
            state = event & ~scard.SCARD_STATE_CHANGED
        return True

    def _card_arrived(self, scard: Any, context: Any, chosen: str) -> None:
        """Ask the new card's UID (and code), put it on the queue; a failed exchange is reported as errors."""
        with self._card_lock:
            try:
                with _Card(scard, context, chosen) as card:
                    self._silence(card, chosen)
                    uid = card.uid()
                    code = None
                    if self._codes and not self._known(uid):
                        with contextlib.suppress(PcscError):
                            code = read_code(card.transmit)
            except CardGone as error:
                self._unanswered(chosen, error)
                return
            except PcscError as error:  # it answered, but what no card of a deck answers
                self.errors += 1
                self._report(ERRORS, words("pcsc_card_wrong", why=str(error)))
                return
        self.reads += 1
        self._unread = 0
        self._read_number += 1
        self._last_read = (self._read_number, self._clock())
        self._report(OK, words("ready", what=chosen))
        if self._out is not None:
            self._out.put(TagSeen(uid, self.name, card=code, done=functools.partial(self._dealt, self._read_number)))

    def _dealt(self, number: int) -> None:
        """The table is done with read `number` (its verdict, if any, was told first): a read it took without
        one (a double read, a member's card) leaves nothing for a later verdict to light."""
        last = self._last_read
        if last is not None and last[0] == number:
            self._last_read = None

    def _unanswered(self, chosen: str, error: PcscError) -> None:
        """A card that did not answer (lifted mid-read, or not flat): not the reader's fault, so not said as
        one (the card is simply not read, as with every reader); a few in a row are (a slot that cannot read
        these cards, a reader gone wrong)."""
        self.errors += 1
        self._unread += 1
        if self._unread >= CARDS_UNREAD:
            self._report(ERRORS, words("pcsc_cards_unread", count=self._unread), why=str(error))
        else:
            self._report(OK, words("pcsc_card_unread"), why=f"{error} ({self._unread} in a row)")

    def _silence(self, card: _Card, chosen: str) -> None:
        """Turn the ACR122U's beep off once (it beeps for every card, refused ones too: the table decides)."""
        wanted = self._buzzer_off if self._buzzer_off is not None else named_like(chosen, "ACR122")
        if wanted and not self._quiet:
            with contextlib.suppress(PcscError):
                card.transmit(BUZZER_OFF)
            self._quiet = True

    def _report(self, state: str, said: Words, why: str = "") -> None:
        info = {"reader": self._chosen} if self._chosen else {}
        self._health.report(self._out, state, said, {**info, "why": why} if why else info)


def pcscd_problem(scard: Any, rc: int) -> Words:
    """Why pcscd gave no context, and the one thing that fixes it."""
    why = scard.SCardGetErrorMessage(rc).strip()
    if pcscd_refused(scard, rc):
        return words("pcsc_refused", command=INSTALL, why=why)
    return words("pcsc_no_daemon", why=why)


class _Card:
    """A shared connection to the card on `reader`, disconnected (card left as it is) on exit."""

    def __init__(self, scard: Any, context: Any, reader: str) -> None:
        self._scard = scard
        self._context = context
        self._reader = reader
        self._handle: Any = None
        self._protocol = 0

    def __enter__(self) -> _Card:
        s = self._scard
        rc, self._handle, self._protocol = s.SCardConnect(
            self._context, self._reader, s.SCARD_SHARE_SHARED, s.SCARD_PROTOCOL_T0 | s.SCARD_PROTOCOL_T1
        )
        if rc != s.SCARD_S_SUCCESS:
            raise CardGone(f"SCardConnect: {s.SCardGetErrorMessage(rc).strip()}")
        return self

    def transmit(self, apdu: list[int]) -> list[int]:
        """One APDU to the card; PcscError when the exchange itself fails."""
        s = self._scard
        rc, response = s.SCardTransmit(self._handle, self._protocol, apdu)
        if rc != s.SCARD_S_SUCCESS:
            raise CardGone(f"SCardTransmit: {s.SCardGetErrorMessage(rc).strip()}")
        return list(response)

    def uid(self) -> str:
        """The card's UID in lower-case hex (`FF CA 00 00 00`)."""
        uid = _checked(self.transmit(GET_UID), "GET UID")
        if len(uid) not in (4, 7, 10):  # the one UID rule (companion.decks.UID_RULE)
            raise PcscError(f"GET UID answered {len(uid)} bytes, not a 4, 7 or 10-byte UID")
        return uid.hex()

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self._scard.SCardDisconnect(self._handle, self._scard.SCARD_LEAVE_CARD)
