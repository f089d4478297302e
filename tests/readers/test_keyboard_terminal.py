"""`marmite reader learn --reader keyboard`: typed and normalised forms shown, a clashing deck refused."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.decks import DeckStore
from hardware.fakes.evdev_device import RecordedBackend, RecordedDevice, hid_stream
from hardware.readers.keyboard import KeyboardReader
from marmite.cli import main
from marmite.games import GAMES
from marmite.readers import READERS

PEA_0A = "04a1b2c3d4e5f6"
PEA_0B = "04a1b2c37a2b90"  # alike at cascade level 1
DEVICE = RecordedDevice("/dev/input/event5", "IC Reader")


@pytest.fixture(autouse=True)
def recorded_keyboard(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--reader keyboard`, built from its options as `marmite` builds it, on the recorded device."""

    def build(options: dict[str, str]) -> KeyboardReader:
        reader = KeyboardReader.from_options(options)
        reader._evdev = RecordedBackend(DEVICE)
        return reader

    monkeypatch.setitem(READERS, "keyboard", (build, "keyboard on a recorded device"))


def test_a_deck_the_reader_types_alike_is_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codes = GAMES.kinds[GAMES.default].tag_codes
    DeckStore(tmp_path, codes).save({PEA_0A: "pea-0a", PEA_0B: "pea-0b"})
    code = main(["reader", "learn", "--reader", "keyboard", "--reader-option", "device=IC Reader",
                 "--reader-option", "format=hex-cl1", "--data", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    refusal = out.splitlines()[1]
    assert refusal.startswith("Refusé : ce lecteur tape le même numéro pour Pois, zéro, bouillon — premier")
    assert "et Pois, zéro, bouillon — second exemplaire ; il faut un lecteur qui tape l'UID entier." in refusal


def test_learning_shows_what_was_typed_and_the_uid(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    store = DeckStore(tmp_path, GAMES.kinds[GAMES.default].tag_codes)

    def typed_lines() -> Iterator[str]:
        """'q' (stop) once the first card is learned: the test's reader types only that one."""
        deadline = time.monotonic() + 10
        while not store.load() and time.monotonic() < deadline:
            time.sleep(0.05)
        yield "q\n"

    monkeypatch.setattr("sys.stdin", typed_lines())
    DEVICE.feed(hid_stream("04A1B2C3D4E5F6", shift=True))
    code = main(["reader", "learn", "--reader", "keyboard", "--reader-option", "device=IC Reader",
                 "--data", str(tmp_path)])
    out = capsys.readouterr().out
    assert "typed '04A1B2C3D4E5F6' → 04a1b2c3d4e5f6" in out
    assert DeckStore(tmp_path, GAMES.kinds[GAMES.default].tag_codes).load() == {PEA_0A: "pea-0a"}
    assert code in (1, 130)
