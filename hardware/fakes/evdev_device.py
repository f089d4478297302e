"""A fake event device: key streams as a USB keyboard-wedge reader sends them, for evdev's own code.

A HID keyboard reports each key as MSC_SCAN (its usage code), EV_KEY (down, then up) and SYN_REPORT;
`hid_stream` builds that sequence for a typed text with the timing a reader uses (a few ms a key).
`RecordedDevice` plays such a stream through a pipe so `select` works as on a real event device.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from typing import Any

import evdev
from evdev import InputEvent, ecodes

HID_USAGE = {**{str(d): 0x7001E + (d - 1) % 10 for d in range(10)}, **{c: 0x70004 + i for i, c in enumerate("ABCDEF")}}
KEYS = {**{str(d): ecodes.ecodes[f"KEY_{d}"] for d in range(10)}, **{c: ecodes.ecodes[f"KEY_{c}"] for c in "ABCDEF"}}


def hid_stream(text: str, start: float = 1000.0, key_s: float = 0.004, shift: bool = False,
               extra: tuple[int, ...] = ()) -> list[InputEvent]:
    """The events a reader sends typing `text` then Enter (uppercase letters with Shift when `shift`;
    the key codes `extra` pressed first, as a stray media key would be)."""
    events: list[InputEvent] = []
    now = start

    def at(kind: int, code: int, value: int) -> None:
        sec = int(now)
        events.append(InputEvent(sec, round((now - sec) * 1e6), kind, code, value))

    def press(code: int, usage: int) -> None:
        nonlocal now
        for value in (1, 0):
            at(ecodes.EV_MSC, ecodes.MSC_SCAN, usage)
            at(ecodes.EV_KEY, code, value)
            at(ecodes.EV_SYN, ecodes.SYN_REPORT, 0)
            now += key_s / 2

    for code in extra:
        press(code, 0)
    for char in text:
        letter = char.isalpha()
        if letter and shift:
            at(ecodes.EV_KEY, ecodes.KEY_LEFTSHIFT, 1)
        press(KEYS[char.upper()], HID_USAGE[char.upper()])
        if letter and shift:
            at(ecodes.EV_KEY, ecodes.KEY_LEFTSHIFT, 0)
    press(ecodes.KEY_ENTER, 0x70028)
    return events


class RecordedDevice:
    """An event device that plays recorded events: `feed` queues them, `read` hands them out."""

    def __init__(self, path: str, name: str) -> None:
        self.path = path
        self.name = name
        self._read_fd, self._write_fd = os.pipe()
        self.fd = self._read_fd
        self._pending: list[InputEvent] = []
        self.grabbed = False
        self.gone = False
        self.closed = False

    def feed(self, events: Iterable[InputEvent]) -> None:
        self._pending.extend(events)
        os.write(self._write_fd, b"x")

    def unplug(self) -> None:
        self.gone = True
        os.write(self._write_fd, b"x")

    def read(self) -> list[InputEvent]:
        os.read(self._read_fd, 4096)
        if self.gone:
            raise OSError(errno.ENODEV, "No such device")
        events, self._pending = self._pending, []
        return events

    def grab(self) -> None:
        self.grabbed = True

    def ungrab(self) -> None:
        self.grabbed = False

    def close(self) -> None:
        self.closed = True


def categorize_v2(event: InputEvent) -> Any:
    """evdev.categorize as python-evdev 2.0 does it, whatever version is installed: a key code with
    several names (KEY_MUTE is also KEY_MIN_INTERESTING, and nine others) gives them as a tuple, where
    1.x gave a list (python-evdev 2.0.0's `ecodes.KEY`/`keys` values; seen with 2.0.0 in this venv)."""
    found: Any = evdev.categorize(event)
    if isinstance(getattr(found, "keycode", None), list):
        found.keycode = tuple(found.keycode)
    return found


class RecordedBackend:
    """The evdev module as the reader uses it, with these devices in place of /dev/input."""

    ecodes = evdev.ecodes
    categorize = staticmethod(categorize_v2)

    def __init__(self, *devices: RecordedDevice) -> None:
        self.devices = {device.path: device for device in devices}

    def list_devices(self) -> list[str]:
        return list(self.devices)

    def InputDevice(self, path: str) -> Any:
        if path not in self.devices:
            raise OSError(errno.ENOENT, "No such file or directory")
        return self.devices[path]
