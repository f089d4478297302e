"""`marmite run --panel` on a Pi whose GPIO cannot serve the panel: one line with the fix, exit 2, no server."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.fakes import FakeGPIO
from marmite.cli import main


@pytest.fixture
def header(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGPIO]:
    """A fake RPi.GPIO in sys.modules for the command to import."""
    gpio = FakeGPIO()
    module = gpio.as_module()
    package = type(sys)("RPi")
    package.__path__ = []  # type: ignore[attr-defined]
    package.GPIO = module  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "RPi", package)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", module)
    yield gpio


def run_panel(tmp_path: Path) -> int:
    return main(["run", "--panel", "--host", "127.0.0.1", "--port", "0", "--pin", "1234", "--data", str(tmp_path)])


def test_old_rpi_gpio_on_kernel_6_6_is_explained(header: FakeGPIO, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    header.fail("add_event_detect", RuntimeError("Failed to add edge detection"))
    assert run_panel(tmp_path) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["marmite run: --panel: the old RPi.GPIO cannot watch the buttons on kernel 6.6 and later:"
                   " run scripts/install-pi (it installs rpi-lgpio, Raspberry Pi OS's RPi.GPIO for kernel 6.6"
                   " and later)"]


def test_no_gpiochip_permission_is_explained(header: FakeGPIO, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    header.fail("setmode", RuntimeError("No access to /dev/mem.  Try running as root!"))
    assert run_panel(tmp_path) == 2
    assert "sudo usermod -aG spi,gpio $USER" in capsys.readouterr().err


def test_bad_panel_pins_are_refused_before_touching_gpio(header: FakeGPIO, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MARMITE_PANEL_PINS", "buzzer=green")
    assert run_panel(tmp_path) == 2
    assert "panel pin buzzer must be a BCM GPIO number" in capsys.readouterr().err
    assert header.mode is None
