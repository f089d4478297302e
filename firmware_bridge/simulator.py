"""A Pico with no hardware: the real firmware loop in a thread, a fake `machine`, a pseudo-terminal for USB.

The RC522 is `hardware.fakes.mfrc522_chip.FakeMFRC522`, reached through a fake `machine.SPI` and
chip-select pin exactly as the firmware reaches the real one. The "cable" is a pty: the host opens its
slave path with pyserial. Unplug, replug, reset and line noise are test controls.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import random
import sys
import threading
import tty
from pathlib import Path
from types import ModuleType
from typing import Any

from hardware.fakes.mfrc522_chip import FakeMFRC522

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"


def load_firmware() -> ModuleType:
    """Import the firmware's `bridge` module under CPython (its directory goes on sys.path)."""
    path = str(FIRMWARE_DIR)
    if path not in sys.path:
        sys.path.append(path)
    return importlib.import_module("bridge")


class FakeMachine:
    """Just enough of MicroPython's `machine` for the firmware: Pin, SPI and PWM, wired to a fake RC522."""

    def __init__(self, chip: FakeMFRC522, *, cs: int = 17, rst: int = 20) -> None:
        self.chip = chip
        self.rc522_wired = True  # False: the RC522 is unplugged from the Pico's SPI pins
        self.pins: dict[object, FakePin] = {}
        machine = self

        class Pin(FakePin):
            def __init__(self, pin_id: object, mode: int | None = None, value: int | None = None) -> None:
                super().__init__(pin_id, mode, value)
                machine.pins[pin_id] = self
                if pin_id == rst and value is not None:
                    chip.set_reset_line(value)

            def value(self, level: int | None = None) -> int:
                result = super().value(level)
                if level is not None and self.pin_id == rst:
                    chip.set_reset_line(level)
                return result

        class SPI:
            def __init__(self, bus: int, **options: Any) -> None:
                self.bus = bus
                self.options = options

            def write_readinto(self, write: bytes, read: bytearray) -> None:
                select = machine.pins.get(cs)
                if select is None or select.level != 0:
                    raise RuntimeError("SPI transfer with the RC522's chip select high")
                if not machine.rc522_wired:
                    read[:] = bytes(len(write))  # MISO floats low: every register reads 0
                    return
                read[:] = bytes(chip.transfer(list(write)))

        self.Pin = Pin
        self.SPI = SPI
        self.PWM = FakePWM


class FakePin:
    """A GPIO pin that remembers its level."""

    OUT = 1
    IN = 0
    PULL_UP = 1

    def __init__(self, pin_id: object, mode: int | None = None, value: int | None = None) -> None:
        self.pin_id = pin_id
        self.mode = mode
        self.level = 0 if value is None else value

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = 1 if level else 0
        return self.level


class FakePWM:
    """A PWM output (the buzzer) that remembers frequency and duty."""

    def __init__(self, pin: FakePin) -> None:
        self.pin = pin
        self.frequency = 0
        self.duty = 0
        self.beeps = 0

    def freq(self, value: int) -> None:
        self.frequency = value

    def duty_u16(self, value: int) -> None:
        if value:
            self.beeps += 1
        self.duty = value


class Cable:
    """The USB cable as the board sees it: a pty master, swappable, with fault injection on the line."""

    def __init__(self, seed: int = 5) -> None:
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self.port = ""
        self._random = random.Random(seed)
        self._flip_out = 0
        self._flip_in = 0
        self._interrupts = 0
        self.frames_written = 0

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def plug(self) -> str:
        """A new pty (a new device path, as after a real replug); returns the path the host opens."""
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, before anyone writes
        os.set_blocking(master, False)
        with self._lock:
            self._master, self._slave = master, slave
            self.port = os.ttyname(slave)
        return self.port

    def unplug(self) -> None:
        """The cable is pulled: the host's next read fails; the board's writes go nowhere."""
        with self._lock:
            master, slave = self._master, self._slave
            self._master = self._slave = None
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)

    def flip_bits(self, frames: int = 1, *, incoming: bool = False) -> None:
        """Flip one random bit in each of the next `frames` writes by the board (or by the host)."""
        with self._lock:
            if incoming:
                self._flip_in += frames
            else:
                self._flip_out += frames

    def stop_flipping(self) -> None:
        """The line is clean again: the bit flips still asked for are dropped."""
        with self._lock:
            self._flip_out = self._flip_in = 0

    def inject(self, garbage: bytes) -> None:
        """Noise on the line towards the host."""
        with self._lock:
            if self._master is not None:
                os.write(self._master, garbage)

    def inject_to_board(self, data: bytes) -> None:
        """Bytes towards the board, as if the host (or a terminal program) had sent them."""
        with self._lock:
            if self._slave is not None:
                os.write(self._slave, data)

    def interrupt(self, times: int = 1) -> None:
        """The board's next reads raise KeyboardInterrupt, as a console ^C would with interrupts on."""
        with self._lock:
            self._interrupts += times

    def _flip(self, data: bytes) -> bytes:
        damaged = bytearray(data)
        bit = self._random.randrange(len(damaged) * 8)
        damaged[bit // 8] ^= 1 << (bit % 8)
        return bytes(damaged)

    # the board's side (the firmware's link)

    def read(self) -> bytes:
        with self._lock:
            if self._interrupts:
                self._interrupts -= 1
                raise KeyboardInterrupt
            if self._master is None:
                return b""
            try:
                data = os.read(self._master, 512)
            except BlockingIOError:
                return b""
            except OSError as error:
                if error.errno == errno.EIO:  # no host has the port open
                    return b""
                raise
            if data and self._flip_in:
                self._flip_in -= 1
                data = self._flip(data)
            return data

    def write(self, data: bytes) -> None:
        with self._lock:
            if self._master is None:
                raise OSError(errno.EIO, "cable unplugged")
            if self._flip_out:
                self._flip_out -= 1
                data = self._flip(data)
            self.frames_written += 1
            with contextlib.suppress(BlockingIOError):  # the host is not reading: the frame is lost
                os.write(self._master, data)


class SimulatedPico:
    """The firmware running in a thread against a fake RC522, reachable on `port` (a pty)."""

    def __init__(self, chip: FakeMFRC522 | None = None, *, buzzer: int | None = 15) -> None:
        self.chip = chip or FakeMFRC522()
        self.cable = Cable()
        self.machine = FakeMachine(self.chip)
        self._config = {"buzzer": buzzer}
        self._firmware = load_firmware()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.board: Any = None
        self.boots = 0

    @property
    def port(self) -> str:
        return self.cable.port

    def find_ports(self) -> list[str]:
        """What `serial.tools.list_ports` would show: the port while plugged in."""
        return [self.cable.port] if self.cable.plugged else []

    def power_on(self) -> SimulatedPico:
        """Plug in and boot (a new boot id, sequence numbers from the start)."""
        if not self.cable.plugged:
            self.cable.plug()
        self._stop = threading.Event()
        started = threading.Event()
        stop = self._stop

        def should_stop() -> bool:
            started.set()
            return stop.is_set()

        self._thread = threading.Thread(
            target=self._main, args=(should_stop,), name=f"pico-boot-{self.boots}", daemon=True
        )
        self.boots += 1
        self._thread.start()
        started.wait(5.0)
        return self

    def _main(self, should_stop: Any) -> None:
        self.board = self._firmware.run(
            machine=self.machine, link=self.cable, config=self._config, should_stop=should_stop,
            board_hook=self._set_board,
        )

    def _set_board(self, board: Any) -> None:
        self.board = board

    def power_off(self) -> None:
        """Stop the firmware (the board loses power)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None

    def unplug(self) -> None:
        """Pull the USB cable while the board stays powered (a hub with its own supply)."""
        self.cable.unplug()

    def replug(self) -> str:
        """Plug the cable back in: a new device path."""
        return self.cable.plug()

    def reset(self) -> None:
        """A board reset: USB re-enumerates and the firmware boots again with a new boot id."""
        self.power_off()
        self.cable.unplug()
        self.power_on()

    def close(self) -> None:
        """Power off and pull the cable."""
        self.power_off()
        self.cable.unplug()

    def __enter__(self) -> SimulatedPico:
        return self.power_on()

    def __exit__(self, *exc: object) -> None:
        self.close()
