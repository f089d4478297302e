"""Finding and opening the Pico's USB serial port."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Protocol

import serial
from serial.tools import list_ports

RASPBERRY_PI_VID = 0x2E8A
MICROPYTHON_PID = 0x0005  # MicroPython's USB CDC on the RP2040
BAUDRATE = 115200  # ignored by USB CDC, needed by pyserial


class SerialPort(Protocol):
    """The part of pyserial's `Serial` the host reader uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


PortOpener = Callable[[str], SerialPort]


def find_board_ports() -> list[str]:
    """Serial ports of connected boards running MicroPython on an RP2040, by USB vendor/product id."""
    found = [
        info.device for info in list_ports.comports()
        if info.vid == RASPBERRY_PI_VID and info.pid == MICROPYTHON_PID
    ]
    return sorted(found)


def open_port(port: str, timeout: float = 0.05) -> SerialPort:
    """Open `port` exclusively (no second program can steal bytes); SerialException if it cannot.

    On POSIX this takes a lock; Windows already gives a COM port to one program at a time.
    """
    exclusive = True if os.name == "posix" else None
    handle: SerialPort = serial.Serial(
        port, BAUDRATE, timeout=timeout, write_timeout=1.0, exclusive=exclusive
    )
    return handle
