"""A fake of the `RPi.GPIO` module: pins, pull-ups, edge callbacks, PWM, and a recorded timeline.

`FakeGPIO()` has the module's functions and constants; `hardware.fakes.installed` puts its
`as_module()` in `sys.modules` as `RPi.GPIO`. `fail(function, error)` makes a function raise what a
real GPIO library raises on a misconfigured Pi (e.g. "can not open gpiochip"). Tests drive inputs with
`press(pin)` / `release(pin)` (buttons wired to ground) or `drive(pin, level)`; edge callbacks run at
once in the caller's thread.
Every output change lands in `timeline` with the time of `clock`.
"""

from __future__ import annotations

import threading
import time
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

BOARD, BCM = 10, 11
OUT, IN = 0, 1
LOW, HIGH = 0, 1
PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22
RISING, FALLING, BOTH = 31, 32, 33

_CONSTANTS = {
    "BOARD": BOARD, "BCM": BCM, "OUT": OUT, "IN": IN, "LOW": LOW, "HIGH": HIGH,
    "PUD_OFF": PUD_OFF, "PUD_DOWN": PUD_DOWN, "PUD_UP": PUD_UP,
    "RISING": RISING, "FALLING": FALLING, "BOTH": BOTH, "VERSION": "0.7.1-fake",
}  # fmt: skip
_FUNCTIONS = (
    "setmode", "getmode", "setwarnings", "setup", "output", "input", "cleanup", "gpio_function",
    "add_event_detect", "remove_event_detect", "add_event_callback", "event_detected", "PWM",
)  # fmt: skip

EdgeCallback = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Change:
    """An output pin changed: its level (1 while a PWM tone sounds) and the PWM frequency, if any."""

    at: float
    pin: int
    value: int
    frequency: float | None = None


class FakeGPIO:
    """State of one fake GPIO header; its bound methods form the fake `RPi.GPIO` module."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.mode: int | None = None
        self.timeline: list[Change] = []
        self.directions: dict[int, int] = {}
        self.levels: dict[int, int] = {}
        self._callbacks: dict[int, list[tuple[int, EdgeCallback]]] = {}
        self._edges: dict[int, int] = {}
        self._detected: set[int] = set()
        self._listeners: dict[int, list[Callable[[int], None]]] = {}
        self._failures: dict[str, BaseException] = {}
        self._lock = threading.RLock()
        self.PWM = self._pwm_class()

    def as_module(self) -> types.ModuleType:
        """A module object that behaves as `RPi.GPIO`, bound to this state."""
        module = types.ModuleType("RPi.GPIO", "Fake RPi.GPIO (hardware.fakes.gpio)")
        for name, value in _CONSTANTS.items():
            setattr(module, name, value)
        for name in _FUNCTIONS:
            setattr(module, name, self._api(name))
        return module

    def _api(self, name: str) -> Callable[..., Any]:
        """The module's `name`: this header's method, unless a failure was set for it."""
        method = getattr(self, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            error = self._failures.get(name)
            if error is not None:
                raise error
            return method(*args, **kwargs)

        call.__name__ = name
        return call

    # --- test controls ---------------------------------------------------------------------

    def press(self, pin: int) -> None:
        """Close a button wired between `pin` and ground."""
        self.drive(pin, LOW)

    def release(self, pin: int) -> None:
        """Open that button again (the pull-up brings the pin high)."""
        self.drive(pin, HIGH)

    def drive(self, pin: int, level: int) -> None:
        """Set an input's level from outside; edge callbacks run now, in this thread."""
        with self._lock:
            old = self.levels.get(pin, HIGH)
            self.levels[pin] = level
            wanted = self._edges.get(pin)
            callbacks = list(self._callbacks.get(pin, ()))
        if old == level or wanted is None:
            return
        if wanted == BOTH or (wanted == RISING) == (level == HIGH):
            self._detected.add(pin)
            for _edge, callback in callbacks:
                callback(pin)

    def fail(self, function: str, error: BaseException) -> None:
        """From now on, the module's `function` (e.g. "setmode", "add_event_detect") raises `error`."""
        if function not in _FUNCTIONS:
            raise ValueError(f"RPi.GPIO has no function {function!r}")
        self._failures[function] = error

    def on_output(self, pin: int, listener: Callable[[int], None]) -> None:
        """Call `listener(level)` whenever the program sets output `pin` (e.g. a chip's reset line)."""
        self._listeners.setdefault(pin, []).append(listener)

    def outputs(self, pin: int) -> list[Change]:
        """The timeline of one pin."""
        return [change for change in self.timeline if change.pin == pin]

    # --- the RPi.GPIO API ------------------------------------------------------------------

    def setmode(self, mode: int) -> None:
        if self.mode is not None and mode != self.mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def getmode(self) -> int | None:
        return self.mode

    def setwarnings(self, flag: bool) -> None:
        del flag

    def setup(
        self, channel: int | Iterable[int], direction: int, pull_up_down: int = PUD_OFF, initial: int = -1
    ) -> None:
        self._require_mode()
        for pin in _pins(channel):
            with self._lock:
                self.directions[pin] = direction
            if direction == OUT:
                self._set(pin, LOW if initial == -1 else initial)
            else:
                with self._lock:
                    self.levels.setdefault(pin, HIGH if pull_up_down == PUD_UP else LOW)

    def output(self, channel: int | Iterable[int], value: int | bool) -> None:
        for pin in _pins(channel):
            if self.directions.get(pin) != OUT:
                raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
            self._set(pin, int(bool(value)))

    def input(self, channel: int) -> int:
        if channel not in self.directions:
            raise RuntimeError("You must setup() the GPIO channel first")
        with self._lock:
            return self.levels.get(channel, LOW)

    def gpio_function(self, channel: int) -> int:
        return self.directions.get(channel, IN)

    def cleanup(self, channel: int | Iterable[int] | None = None) -> None:
        with self._lock:
            pins = list(self.directions) if channel is None else list(_pins(channel))
            for pin in pins:
                self.directions.pop(pin, None)
                self._callbacks.pop(pin, None)
                self._edges.pop(pin, None)
            if channel is None:
                self.mode = None

    def add_event_detect(
        self, channel: int, edge: int, callback: EdgeCallback | None = None, bouncetime: int | None = None
    ) -> None:
        del bouncetime
        if self.directions.get(channel) != IN:
            raise RuntimeError("You must setup() the GPIO channel as an input first")
        with self._lock:
            if channel in self._edges:
                raise RuntimeError("Conflicting edge detection already enabled for this GPIO channel")
            self._edges[channel] = edge
            if callback is not None:
                self._callbacks.setdefault(channel, []).append((edge, callback))

    def add_event_callback(self, channel: int, callback: EdgeCallback) -> None:
        with self._lock:
            self._callbacks.setdefault(channel, []).append((self._edges.get(channel, BOTH), callback))

    def remove_event_detect(self, channel: int) -> None:
        with self._lock:
            self._edges.pop(channel, None)
            self._callbacks.pop(channel, None)

    def event_detected(self, channel: int) -> bool:
        if channel in self._detected:
            self._detected.discard(channel)
            return True
        return False

    # --- internals -------------------------------------------------------------------------

    def _require_mode(self) -> None:
        if self.mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)")

    def _set(self, pin: int, value: int, frequency: float | None = None) -> None:
        with self._lock:
            self.levels[pin] = value
            self.timeline.append(Change(self.clock(), pin, value, frequency))
        for listener in self._listeners.get(pin, ()):
            listener(value)

    def _pwm_class(self) -> type:
        gpio = self

        class PWM:
            """RPi.GPIO's software PWM on one pin; a sounding tone is recorded as value 1 with its frequency."""

            def __init__(self, channel: int, frequency: float) -> None:
                if gpio.directions.get(channel) != OUT:
                    raise RuntimeError("You must setup() the GPIO channel as an output first")
                self.channel, self.frequency, self.duty = channel, float(frequency), 0.0
                self.running = False

            def start(self, duty_cycle: float) -> None:
                self.running, self.duty = True, float(duty_cycle)
                self._record()

            def ChangeDutyCycle(self, duty_cycle: float) -> None:
                self.duty = float(duty_cycle)
                self._record()

            def ChangeFrequency(self, frequency: float) -> None:
                self.frequency = float(frequency)
                self._record()

            def stop(self) -> None:
                self.running = False
                self._record()

            def _record(self) -> None:
                sounding = self.running and self.duty > 0
                gpio._set(self.channel, int(sounding), self.frequency if sounding else None)

        return PWM


def _pins(channel: int | Iterable[int]) -> Iterable[int]:
    return [channel] if isinstance(channel, int) else list(channel)
