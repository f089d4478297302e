"""The GPIO panel wired to a real table service: buttons act on the table, announcements beep."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.table import TableService
from hardware.fakes import FakeGPIO, VirtualClock
from hardware.panel import Panel, PanelPins
from marmite.games import GAMES
from marmite.wiring import attach_panel
from tests.companion.chaud_devant.rulebook import card, started

PINS = PanelPins()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    table = TableService(Journal.open(tmp_path), GAMES)
    yield table
    table.close()


@pytest.fixture
def header() -> FakeGPIO:
    return FakeGPIO(clock=VirtualClock())


@pytest.fixture
def panel(service: TableService, header: FakeGPIO) -> Iterator[Panel]:
    clock = header.clock
    with attach_panel(service, header.as_module(), clock=clock, sleep=clock.sleep) as wired:
        yield wired


def led_on_times(header: FakeGPIO, pin: int) -> int:
    return sum(1 for change in header.outputs(pin) if change.value)


def test_an_accepted_card_lights_green_and_a_refusal_red(service: TableService, panel: Panel,
                                                          header: FakeGPIO) -> None:
    for event in started():
        service.submit(event)
    service.submit(card("pea-1a"))
    assert panel.wait_quiet()
    assert led_on_times(header, PINS.green) >= 1 and led_on_times(header, PINS.red) == 0
    service.submit(card("pea-1a"))  # already played: refused
    assert panel.wait_quiet()
    assert led_on_times(header, PINS.red) >= 1


def test_the_repeat_button_makes_the_table_repeat(service: TableService, panel: Panel, header: FakeGPIO) -> None:
    for event in started():
        service.submit(event)
    before = service.last_serial
    header.press(PINS.repeat)
    header.clock.advance(0.1)
    header.release(PINS.repeat)
    fresh = service.wait_after(before, timeout=5)
    assert [m.kind for m in fresh] == ["repeat"]
    assert service.render(fresh[0])["text"].endswith("Virginie commence.")


def test_the_reader_pump_survives_a_failed_event(service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.tags import simulated_uid
    from hardware.readers.sim import SimReader
    from marmite.wiring import ReaderPump

    real = service.tag_seen
    calls: list[str] = []

    def flaky(uid: str, source: str = "reader") -> object:
        calls.append(uid)
        if len(calls) == 1:
            raise RuntimeError("database is locked")
        return real(uid, source)

    monkeypatch.setattr(service, "tag_seen", flaky)
    reader = SimReader()
    with ReaderPump(service, reader):
        before = service.last_serial
        reader.drop(simulated_uid("pea-1a"))
        first = service.wait_after(before, timeout=5)
        assert [m.kind for m in first][-1] == "reader" and first[-1].detail == (("ok", False),)
        before = service.last_serial
        reader.drop(simulated_uid("pea-2a"))
        second = service.wait_after(before, timeout=5)
    assert [m.kind for m in second] == ["refused"]  # no game yet: but the read reached the table
    assert service.journal.last_seq == 1
