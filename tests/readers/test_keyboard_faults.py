"""The keyboard reader when things go wrong: evdev 2.0's aliased key codes, a thread that meets the
unexpected, and a reader that is plugged in but closed to this user."""

from __future__ import annotations

import errno
import queue
from pathlib import Path
from typing import Any

from evdev import ecodes

from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from hardware.fakes.evdev_device import RecordedBackend, RecordedDevice, categorize_v2, hid_stream
from hardware.readers.common import ReaderThread
from hardware.readers.keyboard import KeyboardReader
from hardware.readers.permissions import ClosedInput, closed_input_named, closed_inputs
from tests.readers.test_pcsc_reader import take

NAME = "Sycreader USB Reader"
NTAG = "04a1b2c3d4e5f6"


def started(device: RecordedDevice, backend: Any = None) -> tuple[KeyboardReader, ReaderQueue]:
    reader = KeyboardReader("sycreader", backend=backend or RecordedBackend(device), closed=lambda _: None)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    health = take(out, ReaderHealth)
    assert isinstance(health, ReaderHealth) and health.ok, health
    return reader, out


def test_the_fake_gives_aliased_codes_as_evdev_2_does() -> None:
    from evdev import InputEvent

    found = categorize_v2(InputEvent(0, 0, ecodes.EV_KEY, ecodes.KEY_MUTE, 1))
    assert isinstance(found.keycode, tuple) and "KEY_MUTE" in found.keycode


def test_an_aliased_key_before_a_card_neither_kills_the_reader_nor_enters_the_number() -> None:
    device = RecordedDevice("/dev/input/event7", NAME)
    reader, out = started(device)
    try:
        device.feed(hid_stream("04A1B2C3D4E5F6", extra=(ecodes.KEY_MUTE,)))
        seen = take(out, TagSeen)
        assert isinstance(seen, TagSeen) and seen.uid == NTAG
        device.feed(hid_stream("04A1B2C3D4E5F6", start=2000.0))
        again = take(out, TagSeen)
        assert isinstance(again, TagSeen) and again.uid == NTAG, "the reader still reads after the odd key"
    finally:
        reader.close()


class Surprising(RecordedBackend):
    """An evdev whose categorize raises once, as a library surprise would."""

    def __init__(self, *devices: RecordedDevice) -> None:
        super().__init__(*devices)
        self.surprises = 1

    def categorize(self, event: Any) -> Any:  # type: ignore[override]
        if self.surprises and event.type == ecodes.EV_KEY:
            self.surprises -= 1
            raise TypeError("a surprise")
        return categorize_v2(event)


def test_a_thread_that_meets_the_unexpected_says_so_and_starts_again() -> None:
    device = RecordedDevice("/dev/input/event7", NAME)
    reader, out = started(device, Surprising(device))
    try:
        device.feed(hid_stream("04A1B2C3D4E5F6"))
        down = take(out, ReaderHealth)
        assert isinstance(down, ReaderHealth) and not down.ok
        assert dict(down.info)["state"] == "errors" and "TypeError" in down.detail
        back = take(out, ReaderHealth)
        assert isinstance(back, ReaderHealth) and back.ok
        device.feed(hid_stream("04A1B2C3D4E5F6", start=2000.0))
        seen = take(out, TagSeen)
        assert isinstance(seen, TagSeen) and seen.uid == NTAG
    finally:
        reader.close()


def test_a_reader_thread_body_that_raises_is_reported_not_silent() -> None:
    told: list[BaseException] = []
    runs: list[int] = []

    def body(stop: Any) -> None:
        runs.append(1)
        if len(runs) == 1:
            raise KeyError("boom")
        stop.wait(5)

    thread = ReaderThread("x", body, told.append)
    thread.start()
    try:
        for _ in range(100):
            if len(runs) >= 2:
                break
            thread.stop.wait(0.05)
        assert [type(e) for e in told] == [KeyError] and len(runs) == 2 and thread.crashes == 1
    finally:
        thread.close()


def _fake_input(tmp_path: Path, event: str, name: str, vid: str = "08ff", pid: str = "0009") -> tuple[str, str]:
    dev, sysfs = tmp_path / "dev", tmp_path / "sys"
    dev.mkdir(exist_ok=True)
    (dev / event).write_text("")
    ids = sysfs / event / "device" / "id"
    ids.mkdir(parents=True)
    (sysfs / event / "device" / "name").write_text(name + "\n")
    for field, value in (("vendor", vid), ("product", pid), ("bustype", "0003")):
        (ids / field).write_text(value + "\n")
    return str(dev), str(sysfs)


def test_closed_input_devices_are_named_with_their_usb_id(tmp_path: Path) -> None:
    dev, sysfs = _fake_input(tmp_path, "event7", NAME)
    assert closed_inputs(dev, sysfs, opens=lambda path: True) == []
    assert closed_inputs(dev, sysfs, opens=lambda path: False) == [ClosedInput(f"{dev}/event7", NAME, "08ff:0009")]
    found = closed_input_named("sycreader", dev, sysfs, opens=lambda path: False)
    assert found is not None and "sudo scripts/install-readers 08ff:0009" in str(found.fix())


def test_a_reader_closed_to_the_user_is_not_told_to_plug_it_in() -> None:
    closed = ClosedInput("/dev/input/event7", NAME, "08ff:0009")
    reader = KeyboardReader("sycreader", backend=RecordedBackend(), closed=lambda wanted: closed)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and dict(health.info)["state"] == "missing"
        assert "plug the reader in" not in health.detail
        assert "may not open it" in health.detail and "sudo scripts/install-readers 08ff:0009" in health.detail
    finally:
        reader.close()


class Refusing(RecordedBackend):
    def InputDevice(self, path: str) -> Any:
        raise OSError(errno.EACCES, "Permission denied")


def test_a_device_path_refused_names_the_command_that_opens_it() -> None:
    reader = KeyboardReader("/dev/input/event7", backend=Refusing(), closed=lambda wanted: None)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and "Permission denied" in health.detail
        assert "sudo scripts/install-readers" in health.detail
    finally:
        reader.close()
