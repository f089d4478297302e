"""`marmite reader test` on a Pi without SPI: one clear message and a failure, not a minute of repeats."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HANG_GUARD_S = 300  # only stops a hung run; the command is asked to listen far longer than this


@pytest.fixture
def no_spi(tmp_path: Path) -> Path:
    """A directory whose `spidev` is the fake one with no chip wired: opening SPI 0.0 is a FileNotFoundError."""
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    (stubs / "spidev.py").write_text(
        "import sys\nfrom hardware.fakes.spidev import make_module\nsys.modules[__name__] = make_module({})\n"
    )
    return stubs


def test_reader_test_without_spi_fails_at_once_with_its_message(no_spi: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(no_spi), str(Path.cwd())])}
    command = [sys.executable, "-m", "marmite.cli", "reader", "test", "--data", str(tmp_path / "data"),
               "--seconds", str(10 * HANG_GUARD_S)]  # fmt: skip
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S, check=False)
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines == [
        "reader rc522 PROBLEM: no SPI device /dev/spidev0.0: enable SPI with: sudo raspi-config nonint do_spi 0"
        " (or raspi-config, Interface Options, SPI), then reboot"
    ]
    assert not (tmp_path / "data" / "tags.json").exists()
