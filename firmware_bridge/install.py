"""Putting the reader firmware on a Pico (with mpremote) and finding connected Picos."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import serial

from companion.extras import install_hint
from firmware_bridge import protocol as p
from firmware_bridge.ports import PortOpener, find_board_ports, open_port

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
PROTOCOL_FILE = Path(__file__).resolve().parent / "protocol.py"
HARDWARE_DIR = Path(__file__).resolve().parents[1] / "hardware"
# The ISO 14443-3 core the Pi driver runs too, then the firmware proper.
# main.py last: a copy cut short never leaves a main.py that imports a missing module.
FIRMWARE_FILES = (
    PROTOCOL_FILE,
    HARDWARE_DIR / "iso14443.py",
    HARDWARE_DIR / "mfrc522_pcd.py",
    FIRMWARE_DIR / "rc522.py",
    FIRMWARE_DIR / "bridge.py",
    FIRMWARE_DIR / "main.py",
)

Runner = Callable[[Sequence[str]], int]


class InstallError(Exception):
    """Why the firmware could not be installed, in words for the person at the table."""


def choose_port(port: str | None, find: Callable[[], list[str]] = find_board_ports) -> str:
    """The given port, or the one connected Pico; InstallError for none or several."""
    if port:
        return port
    found = find()
    if not found:
        raise InstallError(
            "no Pico found: plug it in by USB (MicroPython must be flashed first, see firmware_bridge/README.md), "
            "or give --port"
        )
    if len(found) > 1:
        raise InstallError(f"several Picos found ({', '.join(found)}): choose one with --port")
    return found[0]


def stop_bridge(port: str, opener: PortOpener = open_port, timeout: float = 1.5) -> bool:
    """Ask a running Marmite firmware to return to the REPL; False if nothing answered (plain MicroPython)."""
    try:
        handle = opener(port)
    except (serial.SerialException, OSError) as error:
        raise InstallError(
            f"cannot open {port}: {error} (is `marmite run` using the reader? stop it first)"
        ) from error
    try:
        frame = p.encode_frame(p.Frame(p.STOP, 1))
        decoder = p.FrameDecoder()
        deadline = time.monotonic() + timeout
        sent_at = 0.0
        while time.monotonic() < deadline:
            if time.monotonic() - sent_at > 0.3:  # the board may have missed it: frames are cheap
                handle.write(frame)
                sent_at = time.monotonic()
            for got in decoder.feed(handle.read(max(1, handle.in_waiting))):
                if got.kind == p.RESULT and got.seq == 1 and got.body[:1] == bytes((p.STOP,)):
                    return True
        return False
    finally:
        handle.close()


def _run(command: Sequence[str]) -> int:
    return subprocess.run(list(command), check=False).returncode


def install(
    port: str | None,
    *,
    buzzer_pin: int | None = None,
    find: Callable[[], list[str]] = find_board_ports,
    stop: Callable[[str], bool] = stop_bridge,
    run: Runner = _run,
) -> str:
    """Copy the firmware to the Pico with mpremote and restart it; returns the port used."""
    if importlib.util.find_spec("mpremote") is None:
        raise InstallError(f"mpremote is not installed: {install_hint('firmware')}")
    chosen = choose_port(port, find)
    stop(chosen)
    with tempfile.TemporaryDirectory(prefix="marmite-firmware-") as tmp:
        files = [str(path) for path in FIRMWARE_FILES]
        config = Path(tmp) / "board_config.py"
        config.write_text(f"CONFIG = {{'buzzer': {buzzer_pin!r}}}\n", encoding="utf-8")
        files.insert(0, str(config))
        command = [sys.executable, "-m", "mpremote", "connect", chosen, "fs", "cp", *files, ":", "+", "reset"]
        if run(command) != 0:
            raise InstallError(
                f"mpremote could not copy the firmware to {chosen}. If the board does not answer, press its "
                "BOOTSEL button for a second (the firmware then hands the USB console back) and try again"
            )
    return chosen
