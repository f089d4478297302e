"""SPI and GPIO problems on a Pi, each explained in one line with its fix; the fakes raise the real errors."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from hardware.diagnose import explain, reader_problem, spi_problem
from hardware.fakes import FakeGPIO, FakeMFRC522, VirtualClock, installed
from hardware.fakes import spidev as fake_spidev
from hardware.gpio_backend import GpioUnavailable, explained_gpio_errors, open_gpio
from hardware.panel import Panel, PanelPins

PINS = PanelPins()


class LgpioError(Exception):
    """Stands for `lgpio.error`, a plain Exception subclass carrying lgpio's error text."""


class Table:
    """A TableActions that counts what the buttons asked."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def repeat_last(self) -> None:
        self.calls.append("repeat_last")

    def where_are_we(self) -> None:
        self.calls.append("where_are_we")

    def undo(self) -> None:
        self.calls.append("undo")


@pytest.fixture
def dev(tmp_path: Path) -> Path:
    """An empty /dev: no SPI, no gpiochip."""
    path = tmp_path / "dev"
    path.mkdir()
    return path


@pytest.fixture
def pi5(tmp_path: Path) -> Path:
    """The device tree's model file of a Raspberry Pi 5."""
    path = tmp_path / "model"
    path.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    return path


def opened(header: FakeGPIO, dev: Path, model: Path) -> str:
    """The one-line explanation `open_gpio` gives for `header`'s failure."""
    with pytest.raises(GpioUnavailable) as raised:
        open_gpio(lambda name: header.as_module(), dev=dev, model=model)
    message = str(raised.value)
    assert "\n" not in message
    return message


def test_no_gpiochip_at_all_is_not_a_supported_pi(dev: Path, tmp_path: Path) -> None:
    header = FakeGPIO()
    header.fail("setmode", LgpioError("can not open gpiochip"))  # rpi-lgpio opens the chip in setmode
    message = opened(header, dev, tmp_path / "no-model")
    assert message.startswith(f"no GPIO chip in {dev}")
    assert "Raspberry Pi 3, 4, 5 or Zero 2 W" in message


def test_a_gpiochip_the_user_may_not_open_asks_for_the_gpio_group(dev: Path, pi5: Path) -> None:
    (dev / "gpiochip0").touch()
    (dev / "gpiochip4").touch()
    message = explain(LgpioError("can not open gpiochip"), dev=dev, model=pi5, access=lambda path: False)
    assert message.startswith(f"no permission for {dev / 'gpiochip0'}")
    assert "usermod -aG spi,gpio" in message


def test_a_gpiochip_that_opens_for_others_points_at_rpi_lgpio_chip(dev: Path, pi5: Path) -> None:
    (dev / "gpiochip0").touch()
    message = explain(LgpioError("can not open gpiochip"), dev=dev, model=pi5, access=lambda path: True)
    assert "(Raspberry Pi 5 Model B Rev 1.0)" in message
    assert "RPI_LGPIO_CHIP" in message


def test_the_old_rpi_gpio_without_dev_mem_asks_for_the_group_and_rpi_lgpio(dev: Path, pi5: Path) -> None:
    header = FakeGPIO()
    header.fail("setmode", RuntimeError("No access to /dev/mem.  Try running as root!"))
    message = opened(header, dev, pi5)
    assert "usermod -aG spi,gpio" in message
    assert "scripts/install-pi" in message


def test_the_old_rpi_gpio_on_a_pi_5_names_the_board(dev: Path, pi5: Path) -> None:
    header = FakeGPIO()
    header.fail("setmode", RuntimeError("Cannot determine SOC peripheral base address"))
    message = opened(header, dev, pi5)
    assert "(Raspberry Pi 5 Model B Rev 1.0)" in message
    assert "rpi-lgpio" in message


def test_the_old_rpi_gpio_imported_off_a_pi(dev: Path, tmp_path: Path) -> None:
    def refuse(name: str) -> types.ModuleType:
        raise RuntimeError("This module can only be run on a Raspberry Pi!")

    with pytest.raises(GpioUnavailable, match=r"^this is not a Raspberry Pi: .*--reader usb"):
        open_gpio(refuse, dev=dev, model=tmp_path / "no-model")


def test_no_rpi_gpio_installed_names_the_install_script(dev: Path, pi5: Path) -> None:
    def missing(name: str) -> types.ModuleType:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    with pytest.raises(GpioUnavailable, match=r"^RPi\.GPIO is not installed: run scripts/install-pi"):
        open_gpio(missing, dev=dev, model=pi5)


def test_a_pin_held_by_the_running_service_says_stop_it(dev: Path, pi5: Path) -> None:
    header = FakeGPIO()
    header.fail("setup", RuntimeError("GPIO busy"))  # rpi-lgpio: lgpio's claim of a pin another process holds
    gpio = open_gpio(lambda name: header.as_module(), dev=dev, model=pi5)
    with pytest.raises(GpioUnavailable, match=r"systemctl stop marmite"), explained_gpio_errors(dev=dev, model=pi5):
        Panel(gpio, Table())


def test_old_rpi_gpio_edge_detection_on_kernel_6_6_is_explained_and_changes_nothing(dev: Path, pi5: Path) -> None:
    header = FakeGPIO()
    header.fail("add_event_detect", RuntimeError("Failed to add edge detection"))
    gpio = open_gpio(lambda name: header.as_module(), dev=dev, model=pi5)
    with pytest.raises(GpioUnavailable) as raised, explained_gpio_errors(dev=dev, model=pi5):
        Panel(gpio, Table())
    assert str(raised.value).startswith("the old RPi.GPIO cannot watch the buttons on kernel 6.6 and later")
    assert "rpi-lgpio" in str(raised.value)


def test_board_numbering_set_by_someone_else_is_refused(dev: Path, pi5: Path) -> None:
    header = FakeGPIO()
    header.setmode(10)  # BOARD
    with pytest.raises(GpioUnavailable, match="BCM"):
        open_gpio(lambda name: header.as_module(), dev=dev, model=pi5)


def test_the_panel_sees_button_edges_through_the_opened_module(dev: Path, pi5: Path) -> None:
    clock = VirtualClock()
    header = FakeGPIO(clock=clock)
    table = Table()
    gpio = open_gpio(lambda name: header.as_module(), dev=dev, model=pi5)
    assert header.mode == gpio.BCM
    with Panel(gpio, table, clock=clock, sleep=clock.sleep):
        for pin in (PINS.repeat, PINS.where):
            header.press(pin)
            clock.advance(0.1)
            header.release(pin)
    assert table.calls == ["repeat_last", "where_are_we"]


def test_no_spi_device_says_enable_spi(dev: Path) -> None:
    message = spi_problem(0, 0, dev=dev, import_module=lambda name: fake_spidev.make_module({}))
    assert message == (
        f"no SPI device {dev / 'spidev0.0'}: enable SPI with: sudo raspi-config nonint do_spi 0"
        " (or raspi-config, Interface Options, SPI), then reboot"
    )


def test_the_wrong_spi_device_lists_the_ones_there(dev: Path) -> None:
    (dev / "spidev1.0").touch()
    message = spi_problem(0, 0, dev=dev, import_module=lambda name: fake_spidev.make_module({}))
    assert message is not None
    assert "there is only spidev1.0" in message


def test_an_spi_device_the_user_may_not_open_asks_for_the_spi_group(dev: Path) -> None:
    class SpiDev:
        def open(self, bus: int, device: int) -> None:
            raise PermissionError(13, "Permission denied")

    module = types.ModuleType("spidev")
    module.SpiDev = SpiDev  # type: ignore[attr-defined]
    message = spi_problem(0, 0, dev=dev, import_module=lambda name: module)
    assert message is not None
    assert message.startswith(f"no permission for {dev / 'spidev0.0'}: sudo usermod -aG spi,gpio")


def test_spidev_not_installed_names_the_install_script(dev: Path) -> None:
    def missing(name: str) -> types.ModuleType:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    assert spi_problem(dev=dev, import_module=missing) == (
        "spidev is not installed: run scripts/install-pi"
        " (it installs rpi-lgpio, Raspberry Pi OS's RPi.GPIO for kernel 6.6 and later)"
    )


def test_a_wired_chip_is_no_problem_and_other_readers_are_not_checked() -> None:
    with installed(FakeMFRC522()):
        assert reader_problem("rc522", {}) is None
    assert reader_problem("usb", {"port": "/dev/nothing"}) is None


def test_a_bad_reader_option_is_left_to_the_reader_s_own_message() -> None:
    with pytest.raises(ValueError, match="bus"):
        reader_problem("rc522", {"bus": "zero"})
