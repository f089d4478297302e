"""`marmite reader scan`: find every reader this computer can use, test each a few seconds, and print the
exact `--reader …` that starts it.

It looks for an RC522 on the Pi's SPI bus, a Pico bridge on USB, keyboard-wedge readers (input devices
named like readers), PN532 modules on the serial ports, and PC/SC readers (ACR122U…). Each is started
as `marmite run` would start it; its health (ok, missing, errors) is what the table would show.
"""

from __future__ import annotations

import contextlib
import glob
import importlib
import queue
import re
import shlex
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.extras import install_hint
from companion.reader_words import Words, detail_in, words
from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from hardware.readers.permissions import ClosedInput, closed_inputs
from marmite.readers import make_reader

CONTACTLESS = re.compile(r"picc|contactless|nfc|acr1\d\d|\bcl\b|omnikey 5", re.IGNORECASE)
"""Words in the names PC/SC gives contactless readers (a contact smart-card slot says none of them)."""

READER_NAMES = re.compile(r"rfid|reader|\bic\b|id&ic|nfc|mifare|08ff:0009|ffff:0035|sycreader", re.IGNORECASE)
"""Words in the names keyboard-wedge readers give themselves (a real keyboard is never grabbed by a scan)."""


@dataclass(frozen=True)
class Candidate:
    """A reader to try: its `--reader` name and options, and where it was found."""

    reader: str
    options: tuple[tuple[str, str], ...] = ()
    where: str = ""
    place: Words | None = field(default=None, compare=False)  # `where` in any language

    def where_in(self, language: str) -> str:
        """Where it was found, in `language`."""
        return detail_in(self.where, self.place, language)

    def arguments(self) -> str:
        """The exact `--reader … --reader-option …` for `marmite run`."""
        words = ["--reader", self.reader]
        for key, value in self.options:
            words += ["--reader-option", f"{key}={value}"]
        return shlex.join(words)


@dataclass
class Verdict:
    """What a few seconds with a candidate showed: its state (ok, missing, errors), why, and the cards seen."""

    candidate: Candidate
    state: str
    detail: str
    tags: list[str] = field(default_factory=list)
    unsure: bool = False  # it answers, but nothing says it reads contactless cards (no card seen either)
    said: Words | None = None  # the detail as words, for the tablet's language

    def for_page(self, language: str = "en") -> dict[str, Any]:
        """The verdict for a page, its words in `language`; `said` and `place` keep them for any other
        (catalog words, not JSON: the readers page renders them in its own language)."""
        return {"reader": self.candidate.reader, "where": self.candidate.where_in(language), "state": self.state,
                "detail": detail_in(self.detail, self.said, language), "tags": self.tags,
                "arguments": self.candidate.arguments(), "unsure": self.unsure, "said": self.said,
                "place": self.candidate.place}


# --- finding ------------------------------------------------------------------------------


def spi_candidates(pattern: str = "/dev/spidev0.*") -> list[Candidate]:
    """An RC522 on SPI, if this is a Pi with SPI on."""
    place = words("where_spi")
    return [Candidate("rc522", (), str(place), place)] if glob.glob(pattern) else []


def pico_candidates(notes: list[str] | None = None) -> list[Candidate]:
    """Pico bridges on USB, by their USB id."""
    try:
        from firmware_bridge.ports import find_board_ports

        return [Candidate("usb", (("port", port),), str(words("where_pico", where=port)),
                          words("where_pico", where=port)) for port in find_board_ports()]
    except ImportError as error:
        _note(notes, f"Pico on USB: not looked for, {error.name or 'pyserial'} is not installed "
                     "(it comes with Marmite: in the Marmite folder, run .venv/bin/pip install -e .)")
    except OSError as error:
        _note(notes, f"Pico on USB: not looked for, the USB ports could not be listed ({error})")
    return []


def keyboard_candidates(evdev: Any = None, notes: list[str] | None = None,
                        closed: Callable[[], list[ClosedInput]] = closed_inputs) -> list[Candidate]:
    """Input devices that type digits and Enter and are named like readers (Linux, python-evdev); `notes`
    gets what could not be looked at (no evdev, devices closed to this user) and why."""
    if evdev is None:
        try:
            evdev = importlib.import_module("evdev")
        except ImportError:
            why = (f"python-evdev is not installed ({install_hint('readers')})" if sys.platform == "linux"
                   else f"they are read through Linux's evdev, not on {sys.platform}: use a PN532 or a PC/SC reader")
            _note(notes, f"keyboard-wedge readers: not looked for, {why}")
            return []
    for shut in closed() if notes is not None else []:
        if READER_NAMES.search(shut.name) or not shut.name:
            _note(notes, f"{shut.name or shut.path} ({shut.path}) is plugged in but you may not open it: {shut.fix()}")
    return [Candidate("keyboard", (("device", name),), f"{name} ({path})")
            for path, name, like_reader in _keyboards(evdev) if like_reader]


def other_keyboards(evdev: Any = None) -> list[str]:
    """The names of the other devices that type digits and Enter: a reader with a plain name may be one."""
    return [name for _path, name, like_reader in _keyboards(evdev) if not like_reader]


def _keyboards(evdev: Any) -> list[tuple[str, str, bool]]:
    """(path, name, named like a reader) of every input device with digit keys and Enter."""
    try:
        evdev = evdev or importlib.import_module("evdev")
    except ImportError:
        return []
    found = []
    for path in evdev.list_devices():
        with contextlib.suppress(OSError):
            device = evdev.InputDevice(path)
            try:
                keys = device.capabilities().get(evdev.ecodes.EV_KEY, [])
                name = str(device.name)
            finally:
                device.close()
            if evdev.ecodes.KEY_ENTER in keys and evdev.ecodes.KEY_1 in keys:
                found.append((str(path), name, bool(READER_NAMES.search(name))))
    return found


def serial_candidates(exclude: Sequence[str] = (), notes: list[str] | None = None) -> list[Candidate]:
    """Serial ports a PN532 may answer on (the Pico's own ports left out)."""
    try:
        from hardware.readers.pn532 import serial_ports

        ports, others = serial_ports()
    except ImportError as error:
        _note(notes, f"PN532 on serial ports: not looked for, {error.name or 'pyserial'} could not be loaded "
                     f"({error}; it comes with Marmite: in the Marmite folder, run .venv/bin/pip install -e .)")
        return []
    except OSError as error:
        _note(notes, f"PN532 on serial ports: not looked for, the ports could not be listed ({error})")
        return []
    others = [port for port in others if port not in exclude]
    if others:
        _note(notes, f"serial ports not probed (not a USB-UART dongle a PN532 comes on): {', '.join(others)}; "
                     "to try one: --reader pn532 --reader-option port=PORT")
    return [Candidate("pn532", (("port", port),), str(words("where_serial", where=port)),
                      words("where_serial", where=port)) for port in ports if port not in exclude]


def pcsc_candidates(scard: Any = None, notes: list[str] | None = None) -> list[Candidate]:
    """The readers pcscd knows (nothing when pyscard or pcscd is missing: `notes` says so)."""
    try:
        scard = scard or importlib.import_module("smartcard.scard")
    except ImportError:
        _note(notes, f"PC/SC readers: not looked for, pyscard is not installed ({install_hint('readers')})")
        return []
    rc, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if rc != scard.SCARD_S_SUCCESS:
        from hardware.readers.pcsc import pcscd_problem

        _note(notes, f"PC/SC readers: not looked for, {pcscd_problem(scard, rc)}")
        return []
    try:
        rc, names = scard.SCardListReaders(context, [])
        names = names if rc == scard.SCARD_S_SUCCESS else []
    finally:
        scard.SCardReleaseContext(context)
    return [Candidate("pcsc", (("reader", name),), str(words("where_pcsc", what=name)), words("where_pcsc", what=name))
            for name in names]


def find_all(notes: list[str] | None = None) -> list[Candidate]:
    """Every candidate on this computer, in the order of the guide (RC522, Pico, keyboard, PN532, PC/SC);
    `notes` gets a line for each kind that could not be looked for, and why."""
    picos = pico_candidates(notes)
    busy = [dict(c.options)["port"] for c in picos]
    return [*spi_candidates(), *picos, *keyboard_candidates(notes=notes), *serial_candidates(busy, notes),
            *pcsc_candidates(notes=notes)]


def _note(notes: list[str] | None, line: str) -> None:
    if notes is not None:
        notes.append(line)


# --- testing ------------------------------------------------------------------------------


def try_reader(candidate: Candidate, seconds: float,
               make: Callable[[str, dict[str, str]], Any] = make_reader) -> Verdict:
    """Run the candidate's reader for `seconds` (less once it is ok for a second): its last health and tags."""
    try:
        reader = make(candidate.reader, dict(candidate.options))
    except ValueError as error:
        return Verdict(candidate, "errors", str(error), said=words("bad_option", why=str(error)))
    out: ReaderQueue = queue.Queue()
    verdict = Verdict(candidate, "missing", str(words("no_report")), said=words("no_report"))
    ok_since: float | None = None
    reader.start(out)
    try:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if ok_since is not None and time.monotonic() - ok_since >= min(1.0, seconds):
                break
            try:
                message = out.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue
            if isinstance(message, TagSeen):
                if message.done is not None:
                    message.done()
                verdict.tags.append(message.uid)
            elif isinstance(message, ReaderHealth):
                verdict.state = dict(message.info).get("state") or ("ok" if message.ok else "errors")
                verdict.detail, verdict.said = message.detail, message.words
                ok_since = time.monotonic() if message.ok and ok_since is None else ok_since
    finally:
        reader.close()
    if candidate.reader == "pcsc" and verdict.state == "ok" and not verdict.tags \
            and not CONTACTLESS.search(candidate.where):
        verdict.unsure = True  # a laptop's smart-card slot or a security key answers pcscd too
        verdict.said = words("pcsc_unsure", what=verdict.said or verdict.detail)
        verdict.detail = str(verdict.said)
    return verdict


def scan(seconds: float = 3.0, candidates: Sequence[Candidate] | None = None,
         make: Callable[[str, dict[str, str]], Any] = make_reader, notes: list[str] | None = None) -> list[Verdict]:
    """Test every candidate at once (each in its own thread), `seconds` at most; verdicts in candidate order.
    `notes` gets what could not be looked for (when the candidates are found here)."""
    found = list(find_all(notes) if candidates is None else candidates)
    verdicts: list[Verdict | None] = [None] * len(found)

    def run(index: int) -> None:
        verdicts[index] = try_reader(found[index], seconds, make)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(found))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 10)
    unfinished = words("test_unfinished")
    return [v if v is not None else Verdict(c, "errors", str(unfinished), said=unfinished)
            for c, v in zip(found, verdicts, strict=True)]


def report(verdicts: Sequence[Verdict], others: Sequence[str] = (), unsearched: Sequence[str] = ()) -> list[str]:
    """The lines `marmite reader scan` prints; `others`: keyboards not named like readers (not tested);
    `unsearched`: what could not be looked for, and why."""
    hint = ([f"other keyboards, not tested (if one is your reader: --reader keyboard --reader-option "
             f"device=NAME): {', '.join(others)}"] if others else [])
    hint += [f"NOT SEEN {line}" for line in unsearched]
    if not verdicts:
        return ["no reader found. Plug one in (see hardware/README.md), or play with --reader sim.", *hint]
    lines = []
    for verdict in verdicts:
        seen = f"; saw {len(verdict.tags)} card(s)" if verdict.tags else ""
        label = "UNSURE" if verdict.unsure else verdict.state.upper()
        lines.append(f"{label:8} {verdict.candidate.where}: {verdict.detail}{seen}")
        if verdict.state == "ok":
            lines.append(f"         marmite run {verdict.candidate.arguments()}")
    good = [v for v in verdicts if v.state == "ok" and not v.unsure]
    if not good:
        lines.append("no reader answered: the lines above say why.")
    return lines + hint


def scan_beside(running: str, seconds: float = 3.0) -> list[dict[str, Any]]:
    """The tablet's search while `marmite run` uses reader `running`: readers of that kind are not opened
    a second time (a grabbed device, a serial port in use), every other one is tested."""
    candidates = [c for c in find_all() if c.reader != running]
    return [verdict.for_page() for verdict in scan(seconds, candidates)]
