"""The GPIO panel wired to a real table service: buttons act on the table, announcements beep."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.deck_desk import DeckDesk
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


def sounds_since(header: FakeGPIO, mark: int) -> list[tuple[float | None, float]]:
    """The buzzer's (frequency, duration) sounds after its `mark`-th change."""
    changes = header.outputs(PINS.buzzer)[mark:]
    return [(change.frequency, round(after.at - change.at, 3))
            for change, after in itertools.pairwise(changes) if change.value]


def beeps_for(header: FakeGPIO, panel: Panel, act: Callable[[], object]) -> list[tuple[float | None, float]]:
    """What the buzzer plays for one action of the table."""
    mark = len(header.outputs(PINS.buzzer))
    act()
    assert panel.wait_quiet()
    return sounds_since(header, mark)


def test_enrollment_reads_beep_as_plays_do(service: TableService, panel: Panel, header: FakeGPIO,
                                           tmp_path: Path) -> None:
    desk = DeckDesk(service, tmp_path)
    desk.enroll_start()
    learned = beeps_for(header, panel, lambda: desk.tag_seen("04000000000001"))
    taken = beeps_for(header, panel, lambda: desk.tag_seen("04000000000001"))  # already Pois, zéro, bouillon
    desk.writer = LiftedTag()  # a reader that writes tags: self-describing is refused without one
    desk.set_self_describing(True)
    assert beeps_for(header, panel, lambda: desk.tag_seen("04000000000002")) == taken  # a write that failed
    desk.enroll_stop()
    assert len(learned) == 1 and len(taken) == 2  # one beep; the refusal's double low beep
    assert taken[0][0] is not None and learned[0][0] is not None and taken[0][0] < learned[0][0]
    for event in started():
        service.submit(event)
    played = beeps_for(header, panel, lambda: service.submit(card("pea-1a")))
    refused = beeps_for(header, panel, lambda: service.submit(card("pea-1a")))  # already played
    assert (learned, taken) == (played, refused)
    asked = beeps_for(header, panel, lambda: desk.enroll_start())  # a prompt alone is silent
    assert asked == []


class LiftedTag:
    """A TagWriter whose every tag leaves the field before its write is verified."""

    def write_card(self, uid: str, code: str) -> bool:
        return False
