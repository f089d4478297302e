"""The panel on a fake GPIO header: what the buttons do at the table, and what the buzzer and LEDs show."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from hardware.fakes import FakeGPIO, VirtualClock
from hardware.fakes.gpio import Change
from hardware.panel import Panel, PanelPins, TableActions

PINS = PanelPins()


class RecordingTable:
    """A TableActions that writes down what it was asked."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def repeat_last(self) -> None:
        self.calls.append("repeat_last")

    def where_are_we(self) -> None:
        self.calls.append("where_are_we")

    def undo(self) -> None:
        self.calls.append("undo")


@pytest.fixture
def table() -> RecordingTable:
    return RecordingTable()


@pytest.fixture
def header(clock: VirtualClock) -> FakeGPIO:
    return FakeGPIO(clock=clock)


@pytest.fixture
def panel(header: FakeGPIO, table: RecordingTable, clock: VirtualClock) -> Iterator[Panel]:
    actions: TableActions = table
    with Panel(header.as_module(), actions, clock=clock, sleep=clock.sleep) as panel:
        yield panel


def click(header: FakeGPIO, clock: VirtualClock, pin: int, held: float = 0.1) -> None:
    header.press(pin)
    clock.advance(held)
    header.release(pin)


def tones(header: FakeGPIO) -> list[tuple[float | None, float]]:
    """The buzzer's (frequency, duration) sounds, silences left out."""
    changes = header.outputs(PINS.buzzer)
    return [
        (change.frequency, round(after.at - change.at, 3))
        for change, after in itertools.pairwise(changes)
        if change.value
    ]


def lit(changes: list[Change]) -> list[int]:
    return [change.value for change in changes]


def test_repeat_and_where_buttons_ask_the_table(
    panel: Panel, header: FakeGPIO, clock: VirtualClock, table: RecordingTable
) -> None:
    click(header, clock, PINS.repeat)
    click(header, clock, PINS.where)
    click(header, clock, PINS.repeat)
    assert table.calls == ["repeat_last", "where_are_we", "repeat_last"]


def test_contact_bounce_is_one_press(panel: Panel, header: FakeGPIO, table: RecordingTable) -> None:
    header.press(PINS.repeat)
    header.drive(PINS.repeat, 0)
    header.release(PINS.repeat)
    header.release(PINS.repeat)
    assert table.calls == ["repeat_last"]


def test_undo_needs_a_long_press_then_a_confirming_press(
    panel: Panel, header: FakeGPIO, clock: VirtualClock, table: RecordingTable
) -> None:
    click(header, clock, PINS.undo, held=0.2)  # a short press alone does nothing
    assert table.calls == []
    click(header, clock, PINS.undo, held=2.0)  # long press: armed, not done yet
    assert table.calls == []
    clock.advance(1.0)
    click(header, clock, PINS.undo)  # confirmed
    assert table.calls == ["undo"]
    click(header, clock, PINS.undo)  # the confirmation is used up
    assert table.calls == ["undo"]


def test_undo_confirmation_expires(panel: Panel, header: FakeGPIO, clock: VirtualClock, table: RecordingTable) -> None:
    click(header, clock, PINS.undo, held=2.0)
    clock.advance(panel.confirm_s + 1)
    click(header, clock, PINS.undo)
    assert table.calls == []


def test_arming_undo_beeps_three_times(panel: Panel, header: FakeGPIO, clock: VirtualClock) -> None:
    click(header, clock, PINS.undo, held=2.0)
    assert panel.wait_quiet()
    assert tones(header) == [(1000.0, 0.05)] * 3


def test_accepted_is_a_short_high_beep_and_green(panel: Panel, header: FakeGPIO) -> None:
    panel.card_accepted()
    assert panel.wait_quiet()
    assert tones(header) == [(2000.0, 0.08)]
    assert lit(header.outputs(PINS.green)) == [0, 1, 0]
    assert lit(header.outputs(PINS.red)) == [0]


def test_refused_is_a_low_double_beep_and_red(panel: Panel, header: FakeGPIO) -> None:
    panel.card_refused()
    assert panel.wait_quiet()
    [(first, one), (second, two)] = tones(header)
    assert first == second == 400.0 and one == two == 0.15
    assert lit(header.outputs(PINS.red)) == [0, 1, 0]
    assert lit(header.outputs(PINS.green)) == [0]


def test_red_stays_lit_while_the_reader_is_unwell(panel: Panel, header: FakeGPIO) -> None:
    panel.reader_health(False)
    panel.card_accepted()
    assert panel.wait_quiet()
    red_while_unwell = lit(header.outputs(PINS.red))
    panel.reader_health(True)
    assert panel.wait_quiet()
    assert red_while_unwell == [0, 1, 0, 1]  # lit, off during the green signal, lit again
    assert lit(header.outputs(PINS.red))[-1] == 0


def test_a_failing_action_does_not_break_the_buttons(header: FakeGPIO, clock: VirtualClock) -> None:
    class Broken(RecordingTable):
        def repeat_last(self) -> None:
            raise RuntimeError("table busy")

    table = Broken()
    with Panel(header.as_module(), table, clock=clock, sleep=clock.sleep):
        click(header, clock, PINS.repeat)
        click(header, clock, PINS.where)
    assert table.calls == ["where_are_we"]


def test_active_buzzer_and_close_frees_the_pins(header: FakeGPIO, clock: VirtualClock, table: RecordingTable) -> None:
    panel = Panel(header.as_module(), table, PanelPins(passive_buzzer=False), clock=clock, sleep=clock.sleep)
    panel.card_refused()
    assert panel.wait_quiet()
    panel.close()
    panel.close()
    assert lit(header.outputs(PINS.buzzer)) == [0, 1, 0, 1, 0, 0]
    assert header.directions == {}
    click(header, clock, PINS.repeat)
    assert table.calls == []


def test_panel_pins_from_text_move_the_buzzer_off_the_i2s_pins() -> None:
    pins = PanelPins.from_text("buzzer=26")
    assert pins == PanelPins(buzzer=26)
    assert PanelPins.from_text(" buzzer = 26 , red=16 ") == PanelPins(buzzer=26, red=16)
    assert PanelPins.from_text("") == PanelPins()


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("speaker=26", "NAME one of buzzer, green, red, repeat, where, undo"),
        ("buzzer", "NAME=GPIO"),
        ("buzzer=pin7", "must be a BCM GPIO number, not 'pin7'"),
        ("buzzer=40", "the header's GPIOs are 0 to 27"),
        ("buzzer=23", "panel pins buzzer and green are both GPIO 23"),
    ],
)
def test_bad_panel_pins_are_refused_by_name(text: str, complaint: str) -> None:
    with pytest.raises(ValueError) as raised:
        PanelPins.from_text(text)
    assert complaint in str(raised.value)
