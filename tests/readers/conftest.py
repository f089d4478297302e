"""Fixtures for the USB and serial readers: one private pcscd (with a vpcd reader) for the session.

The PC/SC client library reads the socket's name once per process, so every PC/SC test shares it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from hardware.fakes.vicc import PrivatePcscd, pcscd_available, use_pcscd

try:
    import evdev  # noqa: F401 - only whether it is there
except ImportError:  # python-evdev (the readers extra) is Linux only: these tests need its event types
    collect_ignore = ["test_keyboard_reader.py", "test_keyboard_deck.py", "test_reader_scan.py"]


@pytest.fixture(scope="session")
def pcscd() -> Iterator[PrivatePcscd]:
    why = pcscd_available()
    if why:
        pytest.skip(why)
    pytest.importorskip("smartcard.scard")
    daemon = PrivatePcscd()
    try:
        daemon.start()
    except RuntimeError as error:
        if os.geteuid() != 0:  # pcscd keeps its pid file in /run/pcscd: CI runs these tests as root
            pytest.skip(f"pcscd would not start as a user here: {error}")
        raise
    use_pcscd(daemon)
    yield daemon
    daemon.stop()
