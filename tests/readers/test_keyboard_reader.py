"""The `keyboard` reader: evdev's own event decoding on key streams as wedge readers send them, and a
virtual input device (uinput) where the kernel offers one."""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from hardware.fakes.evdev_device import RecordedBackend, RecordedDevice, hid_stream
from hardware.readers.keyboard import KeyboardReader, find_device
from hardware.uid_formats import FORMATS, UidFormat, collisions, learn, normalise, scoped, typed
from tests.readers.test_pcsc_reader import nothing_more, take

NTAG = bytes.fromhex("04a1b2c3d4e5f6")
NTAG_SAME_BATCH = bytes.fromhex("04a1b2c37a2b90")  # same first three bytes: alike at cascade level 1
NAME = "Sycreader USB Reader"


@pytest.fixture
def device() -> RecordedDevice:
    return RecordedDevice("/dev/input/event7", NAME)


def started(device: RecordedDevice, **options: str) -> tuple[KeyboardReader, ReaderQueue]:
    reader = KeyboardReader.from_options({"device": "sycreader", **options})
    reader._evdev = RecordedBackend(device)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    health = take(out, ReaderHealth)
    assert isinstance(health, ReaderHealth) and health.ok, health
    return reader, out


@pytest.fixture
def reader(device: RecordedDevice) -> Iterator[tuple[KeyboardReader, ReaderQueue]]:
    reader, out = started(device)
    yield reader, out
    reader.close()


def test_the_device_is_found_by_name_and_grabbed(reader: tuple[KeyboardReader, ReaderQueue],
                                                 device: RecordedDevice) -> None:
    assert device.grabbed, "what the reader types must never reach another window"
    reader[0].close()
    assert not device.grabbed and device.closed


def test_a_whole_uid_typed_in_hex_is_the_card_s_uid(reader: tuple[KeyboardReader, ReaderQueue],
                                                    device: RecordedDevice) -> None:
    _, out = reader
    device.feed(hid_stream("04A1B2C3D4E5F6", shift=True))
    seen = take(out, TagSeen)
    assert isinstance(seen, TagSeen)
    assert (seen.uid, seen.raw, seen.reader) == (NTAG.hex(), "04A1B2C3D4E5F6", "keyboard")


def test_ten_digits_reversed_are_read_in_that_format(device: RecordedDevice) -> None:
    reader, out = started(device, format="dec-lsb")
    try:
        uid = bytes.fromhex("a1b2c3d4")
        text = typed(uid, UidFormat("dec", "lsb"))
        assert text == f"{int.from_bytes(uid[::-1], 'big'):010d}"
        device.feed(hid_stream(text))
        seen = take(out, TagSeen)
        assert isinstance(seen, TagSeen) and seen.uid == uid.hex() and seen.raw == text
    finally:
        reader.close()


def test_a_stray_key_long_before_is_not_part_of_the_number(reader: tuple[KeyboardReader, ReaderQueue],
                                                           device: RecordedDevice) -> None:
    _, out = reader
    device.feed(hid_stream("7", start=10.0)[:6])  # a key alone, no Enter
    device.feed(hid_stream("04A1B2C3D4E5F6", start=20.0))
    seen = take(out, TagSeen)
    assert isinstance(seen, TagSeen) and seen.uid == NTAG.hex()


def test_what_is_not_a_uid_is_reported_not_played(reader: tuple[KeyboardReader, ReaderQueue],
                                                  device: RecordedDevice) -> None:
    keyboard, out = reader
    device.feed(hid_stream("12345"))
    health = take(out, ReaderHealth)
    assert isinstance(health, ReaderHealth) and not health.ok and "'12345'" in health.detail
    assert dict(health.info)["state"] == "errors"
    assert nothing_more(out, TagSeen, 0.3) and keyboard.bad_lines == 1


def test_an_unplugged_reader_is_missing_then_back(device: RecordedDevice) -> None:
    reader, out = started(device)
    try:
        device.unplug()
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and dict(health.info)["state"] == "missing"
        device.gone = False
        back = take(out, ReaderHealth)
        assert isinstance(back, ReaderHealth) and back.ok and device.grabbed
    finally:
        reader.close()


def test_no_such_device_is_named() -> None:
    reader = KeyboardReader("IC Reader")
    reader._evdev = RecordedBackend()
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and not health.ok and "'IC Reader'" in health.detail
    finally:
        reader.close()


def test_a_device_is_required() -> None:
    with pytest.raises(ValueError, match="reader scan"):
        KeyboardReader.from_options({})


def test_a_cascade_level_1_reader_maps_a_known_deck_and_names_what_collides(device: RecordedDevice) -> None:
    reader, out = started(device, format="hex-cl1")
    try:
        third = bytes.fromhex("04ffee0102a3b4")
        deck = {NTAG.hex(): "cd-tomate-1", NTAG_SAME_BATCH.hex(): "cd-tomate-2", third.hex(): "cd-ail-1"}
        assert reader.use_deck(deck) == [["cd-tomate-1", "cd-tomate-2"]]
        device.feed(hid_stream(typed(third, UidFormat("hex", "msb", "cl1"))))
        seen = take(out, TagSeen)
        assert isinstance(seen, TagSeen) and seen.uid == third.hex() and seen.raw == "8804FFEE"
        device.feed(hid_stream("8804A1B2"))
        clash = take(out, TagSeen)
        assert isinstance(clash, TagSeen) and clash.uid == "8804a1b2", "never guessed as one of the two"
    finally:
        reader.close()


uids = st.one_of(st.binary(min_size=4, max_size=4), st.binary(min_size=7, max_size=7).map(lambda b: b"\x04" + b[1:]))


@given(uids, st.sampled_from(FORMATS))
def test_learning_finds_the_format_that_typed_a_known_card(uid: bytes, fmt: UidFormat) -> None:
    text = typed(uid, fmt)
    found = learn(text, uid)
    assert fmt in found or any(typed(uid, f) == text for f in found)
    assert all(typed(uid, f) == text for f in found)
    assert normalise(text, fmt) == scoped(uid, fmt.scope)
    assert normalise(text, fmt) == uid or (len(uid) == 7 and not fmt.whole_uid)


@given(st.lists(uids, min_size=2, max_size=12, unique=True), st.sampled_from(FORMATS))
def test_collisions_are_exactly_the_cards_typed_alike(deck: list[bytes], fmt: UidFormat) -> None:
    cards = {uid.hex(): f"card-{i}" for i, uid in enumerate(deck)}
    clashing = {code for group in collisions(cards, fmt) for code in group}
    for uid, code in cards.items():
        alike = [other for other in cards if other != uid and typed(bytes.fromhex(other), fmt)
                 == typed(bytes.fromhex(uid), fmt)]
        assert (code in clashing) == bool(alike)
    if fmt.whole_uid:
        assert not clashing, "a reader that types the whole UID never confuses two cards"


def _uinput_usable() -> str:
    if not os.path.exists("/dev/uinput"):
        return "no /dev/uinput here (the kernel's uinput module is not loaded)"
    if not os.access("/dev/uinput", os.W_OK):
        return "/dev/uinput is not writable"
    return ""


@pytest.mark.skipif(bool(_uinput_usable()), reason=_uinput_usable() or "uinput")
def test_through_a_virtual_input_device() -> None:
    """The whole path through the kernel: a uinput keyboard, the real evdev module, exclusive grab."""
    from evdev import UInput, ecodes

    keys = [ecodes.ecodes[f"KEY_{c}"] for c in "0123456789ABCDEF"] + [ecodes.KEY_ENTER, ecodes.KEY_LEFTSHIFT]
    with UInput({ecodes.EV_KEY: keys}, name="Marmite test wedge") as ui:
        time.sleep(0.3)
        reader = KeyboardReader("Marmite test wedge")
        out: ReaderQueue = queue.Queue()
        reader.start(out)
        try:
            health = take(out, ReaderHealth)
            assert isinstance(health, ReaderHealth) and health.ok, health
            for event in hid_stream("04A1B2C3D4E5F6"):
                ui.write(event.type, event.code, event.value)
            seen = take(out, TagSeen)
            assert isinstance(seen, TagSeen) and seen.uid == NTAG.hex()
        finally:
            reader.close()


def test_of_two_devices_with_the_reader_s_name_the_one_that_types_is_taken() -> None:
    import evdev

    keyless = RecordedDevice("/dev/input/event4", "IC Reader Consumer Control")
    keyless.capabilities = lambda: {evdev.ecodes.EV_KEY: [evdev.ecodes.KEY_VOLUMEUP]}  # type: ignore[attr-defined]
    typing = RecordedDevice("/dev/input/event5", "IC Reader")
    typing.capabilities = lambda: {evdev.ecodes.EV_KEY: [evdev.ecodes.KEY_1, evdev.ecodes.KEY_ENTER]}  # type: ignore[attr-defined]
    assert find_device(RecordedBackend(keyless, typing), "ic reader") == "/dev/input/event5"
