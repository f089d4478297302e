"""The pot's feedback and controls on GPIO: a buzzer, a green and a red LED, and three buttons.

The table service calls `card_accepted()`, `card_refused()` and `reader_health(ok)`; the buttons call a
`TableActions`. The GPIO backend (the `RPi.GPIO` module or a fake) is passed in; pins are BCM numbers.
Sounds and lights play on the panel's own thread, so the callers never wait for a beep.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol

from hardware.gpio_backend import GpioBackend, Pwm

log = logging.getLogger(__name__)


class TableActions(Protocol):
    """What the buttons ask of the table service; called from the GPIO event thread, so thread-safe please."""

    def repeat_last(self) -> None: ...

    def where_are_we(self) -> None: ...

    def undo(self) -> None: ...


@dataclass(frozen=True, slots=True)
class PanelPins:
    """BCM pin numbers (defaults match the wiring table in hardware/README.md); buttons close to ground."""

    buzzer: int = 18
    green: int = 23
    red: int = 24
    repeat: int = 5
    where: int = 6
    undo: int = 13
    passive_buzzer: bool = True  # a passive buzzer plays pitches through PWM; an active one only beeps

    @classmethod
    def from_text(cls, text: str) -> PanelPins:
        """Pins from "buzzer=26,red=24" ($MARMITE_PANEL_PINS); ValueError naming what is wrong."""
        pins = {name: getattr(cls(), name) for name in PIN_NAMES}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, sep, value = item.partition("=")
            name = name.strip()
            if not sep or name not in pins:
                raise ValueError(f"a panel pin is NAME=GPIO with NAME one of {', '.join(PIN_NAMES)}, not {item!r}")
            try:
                pins[name] = int(value)
            except ValueError:
                raise ValueError(f"panel pin {name} must be a BCM GPIO number, not {value.strip()!r}") from None
            if not 0 <= pins[name] <= 27:
                raise ValueError(f"panel pin {name}={pins[name]}: the header's GPIOs are 0 to 27")
        taken: dict[int, str] = {}
        for name, pin in pins.items():
            if pin in taken:
                raise ValueError(f"panel pins {taken[pin]} and {name} are both GPIO {pin}")
            taken[pin] = name
        return cls(**pins)


PIN_NAMES = ("buzzer", "green", "red", "repeat", "where", "undo")


@dataclass(frozen=True, slots=True)
class Step:
    """One moment of a signal: a tone (Hz, or None for silence), the LEDs, and how long it lasts."""

    seconds: float
    tone: float | None = None
    green: bool = False
    red: bool = False


ACCEPTED = (Step(0.08, 2000, green=True), Step(0.32, None, green=True))
REFUSED = (Step(0.15, 400, red=True), Step(0.1, None, red=True), Step(0.15, 400, red=True), Step(0.3, None, red=True))
UNDO_ARMED = (Step(0.05, 1000), Step(0.05), Step(0.05, 1000), Step(0.05), Step(0.05, 1000))
UNDO_DONE = (Step(0.25, 1500, green=True, red=True),)


class Panel:
    """Buzzer, LEDs and buttons; `close()` (or leaving the `with` block) stops it and frees its pins."""

    def __init__(
        self,
        gpio: GpioBackend,
        actions: TableActions,
        pins: PanelPins | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        long_press_s: float = 1.5,
        confirm_s: float = 4.0,
    ) -> None:
        self._gpio = gpio
        self._actions = actions
        self.pins = pins or PanelPins()
        self._clock = clock
        self._sleep = sleep
        self.long_press_s = long_press_s
        self.confirm_s = confirm_s
        self._healthy = True
        self._pressed_at: dict[int, float] = {}
        self._undo_armed_at: float | None = None
        self._undo_press_confirmed = False
        self._signals: queue.Queue[tuple[Step, ...] | None] = queue.Queue()
        self._closed = False
        self._shown: dict[int, float | bool | None] = {}
        self._setup()
        self._player = threading.Thread(target=self._play_forever, name="panel-signals", daemon=True)
        self._player.start()

    # --- called by the table service -------------------------------------------------------

    def card_accepted(self) -> None:
        """Short high beep and the green LED."""
        self._signals.put(ACCEPTED)

    def card_refused(self) -> None:
        """Low double beep and the red LED."""
        self._signals.put(REFUSED)

    def reader_health(self, ok: bool) -> None:
        """The red LED stays lit while the reader is unwell."""
        self._healthy = ok
        self._signals.put(())

    def wait_quiet(self, timeout: float = 5.0) -> bool:
        """Block until every queued signal has played (tests, shutdown); False on timeout."""
        deadline = time.monotonic() + timeout
        while self._signals.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        return True

    def close(self) -> None:
        """Stop the signal thread, switch everything off, release the pins; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._signals.put(None)
        self._player.join(timeout=5.0)
        p = self.pins
        for pin in (p.repeat, p.where, p.undo):
            self._gpio.remove_event_detect(pin)
        if self._pwm is not None:
            self._pwm.stop()
        self._gpio.output([p.buzzer, p.green, p.red], 0)
        self._gpio.cleanup([p.buzzer, p.green, p.red, p.repeat, p.where, p.undo])

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # --- buttons ---------------------------------------------------------------------------

    def _edge(self, pin: int) -> None:
        """Edge callback (GPIO thread): a level change on a button."""
        pressed = self._gpio.input(pin) == self._gpio.LOW
        now = self._clock()
        if pressed == (pin in self._pressed_at):
            return  # contact bounce: no change of state
        if pressed:
            self._pressed_at[pin] = now
            self._on_press(pin, now)
        else:
            self._on_release(pin, now - self._pressed_at.pop(pin))

    def _on_press(self, pin: int, now: float) -> None:
        if pin == self.pins.repeat:
            self._call(self._actions.repeat_last)
        elif pin == self.pins.where:
            self._call(self._actions.where_are_we)
        elif pin == self.pins.undo:
            armed = self._undo_armed_at
            self._undo_armed_at = None
            self._undo_press_confirmed = armed is not None and now - armed <= self.confirm_s
            if self._undo_press_confirmed:
                self._call(self._actions.undo)
                self._signals.put(UNDO_DONE)

    def _on_release(self, pin: int, held: float) -> None:
        if pin == self.pins.undo and not self._undo_press_confirmed and held >= self.long_press_s:
            self._undo_armed_at = self._clock()
            self._signals.put(UNDO_ARMED)  # "press again to confirm"

    def _call(self, action: Callable[[], None]) -> None:
        try:
            action()
        except Exception:  # a failing action must not kill the GPIO event thread
            log.exception("panel button action failed")

    # --- outputs ---------------------------------------------------------------------------

    def _setup(self) -> None:
        gpio, p = self._gpio, self.pins
        if gpio.getmode() is None:
            gpio.setmode(gpio.BCM)
        elif gpio.getmode() != gpio.BCM:
            raise ValueError("GPIO numbering is already set to BOARD; Marmite uses BCM numbers")
        gpio.setup([p.buzzer, p.green, p.red], gpio.OUT, initial=gpio.LOW)
        self._pwm: Pwm | None = gpio.PWM(p.buzzer, 2000) if p.passive_buzzer else None
        self._shown = {p.green: False, p.red: False, p.buzzer: None}
        for pin in (p.repeat, p.where, p.undo):
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)
            gpio.add_event_detect(pin, gpio.BOTH, callback=self._edge, bouncetime=20)

    def _play_forever(self) -> None:
        while True:
            signal = self._signals.get()
            try:
                if signal is None:
                    return
                for step in signal:
                    self._show(step)
                    self._sleep(step.seconds)
                self._show(Step(0.0, None, red=not self._healthy))
            finally:
                self._signals.task_done()

    def _show(self, step: Step) -> None:
        """Set the outputs that differ from what they show now."""
        gpio, p = self._gpio, self.pins
        for pin, lit in ((p.green, step.green), (p.red, step.red)):
            if self._shown.get(pin) != lit:
                gpio.output(pin, int(lit))
                self._shown[pin] = lit
        if self._shown.get(p.buzzer) == step.tone:
            return
        self._shown[p.buzzer] = step.tone
        if self._pwm is None:
            gpio.output(p.buzzer, int(step.tone is not None))
        elif step.tone is None:
            self._pwm.ChangeDutyCycle(0)
        else:
            self._pwm.ChangeFrequency(step.tone)
            self._pwm.start(50)
