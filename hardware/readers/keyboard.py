"""The `keyboard` reader: a USB 13.56 MHz reader that types each card's number and presses Enter
(a "keyboard wedge"), read on Linux through evdev.

The device is chosen by path (`/dev/input/event7`) or by name, and grabbed exclusively: what it types
never reaches another window. Key presses become a line; Enter ends it; the line is turned into a UID
by the reader's `UidFormat` (see hardware/uid_formats.py). Such readers see one card at a time and
cannot read tag memory: no stacked cards, no self-describing decks.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import select
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.reader_words import Words, install_fix, words
from companion.reads import ReaderQueue, TagSeen
from hardware.readers.common import ERRORS, MISSING, OK, Backoff, HealthLatch, ReaderThread, crash_detail
from hardware.readers.permissions import ClosedInput, closed_input_named
from hardware.uid_formats import (
    WHOLE,
    UidFormat,
    UidFormatError,
    collisions,
    deck_aliases,
    guessed,
    key,
    learn,
    legacy_label,
    normalise,
    taught_label,
)

LINE_GAP_S = 0.5  # keys further apart than this are not one card's number: the partial line is dropped
WAIT_S = 0.25
ENTER_KEYS = frozenset({"KEY_ENTER", "KEY_KPENTER"})


def key_text(keycode: str) -> str:
    """The character a key types for a UID ('' for keys that type none: Shift, Tab…)."""
    name = keycode.removeprefix("KEY_").removeprefix("KP")
    if len(name) == 1 and (name.isdigit() or name in "ABCDEF"):
        return name
    return ""


def key_names(keycode: object) -> list[str]:
    """evdev's keycode as a list of names: one name, or every alias of the code (a list before
    python-evdev 2.0, a tuple since), or a hex number for a code evdev does not know."""
    if isinstance(keycode, (list, tuple)):
        return [str(name) for name in keycode]
    return [str(keycode)]


def find_device(evdev: Any, wanted: str) -> str | None:
    """The event device path for `wanted`: a path as given, else a device whose name contains it, one that
    has an Enter key first (a reader often shows a second, keyless device under the same name)."""
    if wanted.startswith("/dev/"):
        return wanted
    named: list[tuple[bool, str]] = []
    for path in evdev.list_devices():
        with contextlib.suppress(OSError):
            device = evdev.InputDevice(path)
            try:
                if wanted.lower() in device.name.lower():
                    named.append((_types_enter(evdev, device), str(path)))
            finally:
                device.close()
    named.sort(key=lambda found: not found[0])  # stable: devices with Enter first, in listing order
    return named[0][1] if named else None


def _types_enter(evdev: Any, device: Any) -> bool:
    """Whether the device has an Enter key (True when it cannot say)."""
    try:
        return evdev.ecodes.KEY_ENTER in device.capabilities().get(evdev.ecodes.EV_KEY, [])
    except (AttributeError, OSError):
        return True


class KeyboardReader:
    """A pot reader on a keyboard-wedge device. `backend` is the `evdev` module (imported at start when not
    given); `device` a path or part of the device's name; `fmt` how it types UIDs (None: hex or ten digits,
    in the card's order, guessed per line)."""

    def __init__(self, device: str, *, backend: Any = None, fmt: UidFormat | None = None,
                 name: str = "keyboard", line_gap_s: float = LINE_GAP_S,
                 closed: Callable[[str], ClosedInput | None] = closed_input_named) -> None:
        if not device:
            raise ValueError("the keyboard reader needs device=PATH or device=NAME: `marmite reader scan` lists them")
        self.name = name
        self.device = device
        self.fmt = fmt
        self._evdev = backend
        self._line_gap_s = line_gap_s
        self._closed = closed
        self._health = HealthLatch(name)
        self._thread = ReaderThread(name, self._run, lambda error: self._report(ERRORS, crash_detail(error)))
        self._out: ReaderQueue | None = None
        self._aliases: dict[str, str] = {}
        self._deck: dict[str, str] = {}
        self._taught: str | None = None  # the format the deck was taught in
        self._applied: str | None = None  # the format the last line was read in
        self._sent: dict[str, str] = {}  # the last UIDs sent → the format each was read in
        self.refusal = ""  # why the format asked for was refused (the deck's own is used)
        self._refused = words("reading", where=device)  # the refusal's words
        self._asked = fmt
        self.clashes: list[list[str]] = []
        self.lines: list[tuple[str, str]] = []  # (typed, UID) for the last lines, for `reader test`
        self.bad_lines = 0

    @classmethod
    def from_options(cls, options: dict[str, str]) -> KeyboardReader:
        """`--reader keyboard` options: `device` (path or name), `format` (auto, hex, hex-lsb, dec, dec-lsb,
        hex-cl1…), `name`."""
        known = {"device", "format", "name"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown keyboard option {unknown[0]!r}; known: {', '.join(sorted(known))}")
        text = options.get("format", "auto")
        fmt = None if text == "auto" else UidFormat.parse(text)
        return cls(options.get("device", ""), fmt=fmt, name=options.get("name", "keyboard"))

    def use_deck(self, cards: Mapping[str, str], taught: str | None = None) -> list[list[str]]:
        """companion.reads.PartialUids: read a deck (UID hex → card code) taught in format `taught` (None: a
        deck written before decks recorded it) through this reader's format. A deck of whole UIDs is read
        through the format, each typed UID becoming the card's full UID; a deck taught through a wedge is
        read by what that wedge typed, so a deck taught in `auto` still plays once `format=dec-lsb` is set.
        A format that would leave every card unknown is refused aloud (the deck's own format is kept).
        Returns the groups of cards it cannot tell apart (those are never guessed). With `format=auto`,
        the first known card typed teaches the reader its format."""
        self._deck = dict(cards)
        self._taught = taught or (legacy_label(self._deck, self.fmt) if self._deck else None)
        return self._map_deck()

    def taught(self) -> str | None:
        """companion.reads.PartialUids: the format the deck should record: its own, or the one its cards
        were just taught in through this reader (None while nothing says)."""
        return self._taught or self._applied

    def sent_as(self, uid: str) -> str | None:
        """companion.reads.PartialUids: the format in which this reader lately sent `uid` (None: it did not
        send it; another reader, one that sends whole UIDs, did)."""
        return self._sent.get(uid.lower())

    def _map_deck(self) -> list[list[str]]:
        if self.refusal:  # another deck: the format asked for is tried again
            self.fmt, self.refusal = self._asked, ""
        if self._taught is not None and self._taught != WHOLE:
            return self._map_partial_deck(self._taught)
        fmt = self.fmt or UidFormat()
        clashes = collisions(self._deck, fmt)
        clashing = {code for group in clashes for code in group}
        self._aliases = {key(bytes.fromhex(uid), fmt): uid for uid, code in self._deck.items() if code not in clashing}
        self.clashes = clashes
        return clashes

    def _map_partial_deck(self, taught: str) -> list[list[str]]:
        """A deck taught through a wedge: each card is what that wedge typed, read through this format."""
        aliases = deck_aliases(self._deck, taught, self.fmt)
        if aliases is None:
            asked = self.fmt.label() if self.fmt else "auto"
            self.fmt = UidFormat.parse(taught)
            self._refused = words("keyboard_refused", asked=asked, taught=taught)
            self.refusal = str(self._refused)
            self._report(ERRORS, self._refused)
            aliases = deck_aliases(self._deck, taught, self.fmt) or {}
        self._aliases = {typed_as: uid for typed_as, uid in aliases.items() if typed_as != uid}
        self.clashes = []
        return []

    def _learn(self, typed: str) -> bool:
        """Format `auto` with a deck of whole UIDs: adopt the format in which `typed` is one of its cards."""
        if self.fmt is not None or self._taught not in (None, WHOLE):
            return False
        for uid in self._deck:
            found = learn(typed, bytes.fromhex(uid))
            if found:
                self.fmt = found[0]
                clashes = self._map_deck()
                # never the card nor its number: the health is public (/readers) and this card may be
                # one being dealt into a hand; `marmite reader test` shows the lines typed
                if clashes:
                    alike = "; ".join(" = ".join(group) for group in clashes)
                    self._report(ERRORS, words("keyboard_alike", format=self.fmt.label(), cards=alike))
                else:
                    self._report(OK, words("keyboard_learned", format=self.fmt.label()))
                return True
        return False

    # --- the reader protocol -------------------------------------------------------------

    def start(self, out: ReaderQueue) -> None:
        """Grab the device and read it in a background thread until `close()`."""
        self._out = out
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and let go of the device; safe to call twice."""
        self._thread.close()

    # --- the thread ----------------------------------------------------------------------

    def _run(self, stop: threading.Event) -> None:
        backoff = Backoff(0.5, 5.0)
        while not stop.is_set():
            try:
                evdev = self._evdev or importlib.import_module("evdev")
            except ImportError:
                self._report(MISSING, words("not_installed_linux", module="python-evdev", fix=install_fix('readers')))
                stop.wait(backoff.failed())
                continue
            self._evdev = evdev
            device = self._open(evdev)
            if device is None:
                stop.wait(backoff.failed())
                continue
            backoff.succeeded()
            try:
                self._read(evdev, device, stop)
            finally:
                with contextlib.suppress(OSError):
                    device.ungrab()
                with contextlib.suppress(OSError):
                    device.close()

    def _open(self, evdev: Any) -> Any:
        try:
            path = find_device(evdev, self.device)
        except OSError as error:
            self._report(MISSING, words("keyboard_cannot_list", why=str(error)))
            return None
        if path is None:
            closed = self._closed(self.device)
            if closed is not None:  # evdev lists only what we may open: the reader is there, closed to us
                self._report(MISSING, words("keyboard_closed", what=closed.name or closed.path, fix=closed.fix()))
            else:
                self._report(MISSING, words("keyboard_none", wanted=repr(self.device)))
            return None
        try:
            device = evdev.InputDevice(path)
        except OSError as error:
            refused = error.errno in (errno.EACCES, errno.EPERM)
            closed = (self._closed(path) or ClosedInput(str(path), "", "")) if refused else None
            self._report(MISSING, words("cannot_open_fix", where=str(path), why=error.strerror, fix=closed.fix())
                         if closed is not None else words("cannot_open", where=str(path), why=error.strerror))
            return None
        try:
            device.grab()
        except OSError as error:
            device.close()
            self._report(ERRORS, words("keyboard_held", where=str(path), why=error.strerror))
            return None
        if self.refusal:  # said when the reader starts too: use_deck may come before anyone listens
            self._report(ERRORS, self._refused, {"path": str(path)})
        else:
            self._report(OK, words("ready_on", what=device.name, where=str(path)), {"path": str(path)})
        return device

    def _read(self, evdev: Any, device: Any, stop: threading.Event) -> None:
        line = ""
        last_key = 0.0
        while not stop.is_set():
            try:
                ready = select.select([device.fd], [], [], WAIT_S)[0]
                events = list(device.read()) if ready else []
            except BlockingIOError:
                continue
            except OSError as error:
                self._report(MISSING, words("went_away", why=error.strerror))
                return
            for event in events:
                if event.type != evdev.ecodes.EV_KEY:
                    continue
                pressed = evdev.categorize(event)
                if pressed.keystate != pressed.key_down:
                    continue
                codes = key_names(pressed.keycode)
                now = event.timestamp()
                if line and now - last_key > self._line_gap_s:
                    line = ""  # a stray key long before: not part of this card's number
                last_key = now
                if ENTER_KEYS & set(codes):
                    if line:
                        self._line(line)
                    line = ""
                else:
                    line += next((text for text in map(key_text, codes) if text), "")

    def _line(self, typed: str) -> None:
        """One typed number: its UID on the queue, or an error report when it is not one."""
        try:
            uid = normalise(typed, self.fmt).hex()
            if uid not in self._deck and uid not in self._aliases and self._learn(typed):
                uid = normalise(typed, self.fmt).hex()
        except UidFormatError as error:
            self.bad_lines += 1
            self._report(ERRORS, words("keyboard_bad_line", why=str(error)))
            return
        self._applied = taught_label(bytes.fromhex(uid), self.fmt or guessed(typed))
        uid = self._aliases.get(uid, uid)
        self._sent = {**dict(list(self._sent.items())[-15:]), uid: self._applied}
        self.lines = [*self.lines[-9:], (typed, uid)]
        if self._health.state != OK and not self.clashes:
            self._report(OK, words("reading", where=self.device))
        if self._out is not None:
            self._out.put(TagSeen(uid, self.name, at=time.time(), raw=typed))

    def _report(self, state: str, said: Words, info: dict[str, str] | None = None) -> None:
        facts = {"device": self.device, "format": self.fmt.label() if self.fmt else "auto", **(info or {})}
        self._health.report(self._out, state, said, facts)
