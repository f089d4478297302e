"""The table's PIN kept in its data dir, so a restart does not lock every tablet; the host may change it."""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from pathlib import Path

PIN_FILE = "table-pin"
PIN_DIGITS = 6
"""A random PIN's length: a million PINs at ten wrong guesses a minute take about a year to try."""
VALID_PIN = re.compile(r"[0-9]{4,12}")
"""A PIN the host may choose: 4 to 12 digits (typed on a phone's number pad)."""


def kept_pin(data_dir: Path) -> str | None:
    """The PIN kept in `data_dir`, or None when there is none (or it is not a valid PIN)."""
    try:
        text = (data_dir / PIN_FILE).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if VALID_PIN.fullmatch(text) else None


def keep_pin(data_dir: Path, pin: str) -> None:
    """Write `pin` to `data_dir` durably (owner-only, replaced atomically); ValueError for a bad PIN."""
    if not VALID_PIN.fullmatch(pin):
        raise ValueError("a PIN is 4 to 12 digits")
    data_dir.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{PIN_FILE}.", dir=data_dir)  # one per write: changes never share it
    temporary = Path(name)
    try:
        try:
            os.write(fd, pin.encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, data_dir / PIN_FILE)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def table_pin(data_dir: Path) -> str:
    """The kept PIN, or a new random one, kept from now on."""
    pin = kept_pin(data_dir)
    if pin is None:
        pin = f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"
        keep_pin(data_dir, pin)
    return pin
