"""Devices a reader may not open, and the one command that lets it: input devices (keyboard-wedge
readers), serial ports (the PN532) and pcscd refusing a user (polkit, pcsc-lite >= 2.0.1).

evdev lists only the input devices this user may open; Linux's sysfs still names the others (name and
USB VID:PID are readable by everyone), so a reader that is plugged in but closed to us can be said so.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.reader_words import Words, words

INSTALL = "sudo scripts/install-readers"


@dataclass(frozen=True)
class ClosedInput:
    """An input device that is there but that this user may not open."""

    path: str
    name: str
    usb_id: str  # "08ff:0009", or "" when it is not a USB device

    def fix(self) -> Words:
        """The one command that opens it to this user (a udev rule for its VID:PID), and what to do next."""
        usb = f" {self.usb_id}" if self.usb_id else ""
        return words("fix_udev", command=f"{INSTALL}{usb}")


def may_open(path: str) -> bool:
    """Whether this user may read and write `path` (what evdev asks before listing a device)."""
    return os.access(path, os.R_OK | os.W_OK)


def closed_inputs(dev: str = "/dev/input", sysfs: str = "/sys/class/input",
                  opens: Callable[[str], bool] = may_open) -> list[ClosedInput]:
    """The event devices this user may not read and write, with their names from sysfs."""
    found = []
    for path in sorted(glob.glob(f"{dev}/event*")):
        if opens(path):
            continue
        node = Path(sysfs) / Path(path).name / "device"
        found.append(ClosedInput(path, _text(node / "name"), _usb_id(node)))
    return found


def closed_input_named(wanted: str, dev: str = "/dev/input", sysfs: str = "/sys/class/input",
                       opens: Callable[[str], bool] = may_open) -> ClosedInput | None:
    """The closed input device whose name contains `wanted` (or whose path it is), if any."""
    for closed in closed_inputs(dev, sysfs, opens):
        if wanted == closed.path or (wanted and wanted.lower() in closed.name.lower()):
            return closed
    return None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""


def _usb_id(node: Path) -> str:
    vendor, product = _text(node / "id" / "vendor"), _text(node / "id" / "product")
    bus = _text(node / "id" / "bustype")
    if not vendor or not product or bus not in ("0003", ""):  # 0003: BUS_USB
        return ""
    return f"{vendor}:{product}"


def serial_fix(port: str) -> Words:
    """What lets this user open serial port `port` (the dialout group on Debian and Raspberry Pi OS; i2c
    for a Pi's I2C bus)."""
    if os.name == "nt":
        return words("fix_close", where=port)
    group = "i2c" if "i2c" in port else "dialout"
    return words("fix_group", command=f"sudo usermod -aG {group} $USER")


SECURITY_VIOLATION = 0x8010006A  # SCARD_W_SECURITY_VIOLATION, "Access denied.": pcscd's polkit check said no


def pcscd_refused(scard: object, rc: int) -> bool:
    """Whether SCardEstablishContext's `rc` is pcscd refusing this user (pcsc-lite's "Access denied.")."""
    code = int(getattr(scard, "SCARD_W_SECURITY_VIOLATION", SECURITY_VIOLATION))
    return rc & 0xFFFFFFFF == code & 0xFFFFFFFF

