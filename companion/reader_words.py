"""What readers say of themselves (health details, `reader scan` verdicts), in any language.

A reader reports `Words` (a key of this phrasebook and its fields) rather than a sentence, so the table
says and shows its health in the table's language; the English rendering is what logs and the command
line print. A field may itself be `Words` (a fix inside a sentence); paths, commands, versions and
system error texts are fields, quoted as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.catalogs import Phrasebook, said
from companion.extras import install_command

WORDS = Phrasebook(
    "reader.",
    # ready, and what every reader may say
    said("reader.ready", "{what} ready"),
    said("reader.ready_on", "{what} ready on {where}"),
    said("reader.reading", "reading {where}"),
    said("reader.sim_ready", "simulated reader"),
    said("reader.crashed", "the reader stopped on an unexpected {error} ({why}): starting it again"),
    said("reader.not_installed", "{module} is not installed: {fix}"),
    said("reader.not_installed_linux", "{module} is not installed: {fix} (Linux only)"),
    said("reader.install_extra", "run {command}"),
    said("reader.install_extra_here", "in the Marmite folder, run {command}"),
    said("reader.cannot_open", "cannot open {where} ({why})"),
    said("reader.cannot_open_fix", "cannot open {where} ({why}): {fix}"),
    said("reader.went_away", "the reader went away ({why}): plug it in again"),
    said("reader.unplugged", "{what} was unplugged"),
    said("reader.not_recorded", "read not recorded ({why})"),
    said("reader.no_report", "it did not report itself within the test"),
    said("reader.test_unfinished", "the test did not end"),
    said("reader.bad_option", "{why}"),
    # where `reader scan` found a reader
    said("reader.where_spi", "SPI bus 0"),
    said("reader.where_pico", "Pico on {where}"),
    said("reader.where_serial", "serial port {where}"),
    said("reader.where_pcsc", "PC/SC reader {what}"),
    # the one command that opens a device to this user
    said("reader.fix_udev", "run `{command}` (a udev rule for this reader), then unplug it and plug it in again"),
    said("reader.fix_group", "run `{command}`, then log out and in again"),
    said("reader.fix_close", "close the program that holds {where}"),
    said("reader.fix_plugged", "is the dongle plugged in? `marmite reader scan` lists the ports"),
    # keyboard wedge
    said("reader.keyboard_cannot_list", "cannot list the input devices ({why})"),
    said("reader.keyboard_closed", "{what} is plugged in but this user may not open it: {fix}"),
    said("reader.keyboard_none", "no input device named like {wanted}: plug the reader in"),
    said("reader.keyboard_held", "{where} is held by another program ({why}): close it"),
    said("reader.keyboard_bad_line", "the reader typed something that is not a card's number ({why}); set its"
                                     " format= option (see the hardware guide)"),
    said("reader.keyboard_learned", "format learned: {format} (from a card of the deck)"),
    said("reader.keyboard_alike", "format learned: {format} (from a card of the deck); it types these cards"
                                  " alike: {cards}"),
    said("reader.keyboard_refused", "format={asked} refused: the deck was taught in {taught} and would not know"
                                    " one card; reading in {taught} (teach the deck again to change it)"),
    # PC/SC
    said("reader.pcsc_none", "no PC/SC reader: plug the reader in (on Linux, see the hardware guide about"
                             " pn533_usb)"),
    said("reader.pcsc_none_named", "no PC/SC reader named like {wanted}: plug the reader in (on Linux, see the"
                                   " hardware guide about pn533_usb)"),
    said("reader.pcsc_refused", "pcscd refuses this user (polkit): run `{command}` (it allows you in a polkit"
                                " rule) ({why})"),
    said("reader.pcsc_no_daemon", "pcscd does not answer ({why}): install and start pcscd (sudo"
                                  " scripts/install-readers)"),
    said("reader.pcsc_card_wrong", "a card answered wrongly ({why})"),
    said("reader.pcsc_card_unread", "a card was not read, lifted too soon: let it rest flat on the reader"),
    said("reader.pcsc_cards_unread", "{count} cards in a row did not answer: is it a contactless reader?"
                                     " `marmite reader scan` tests it"),
    said("reader.pcsc_unsure", "{what}; not named like a contactless reader (a smart-card slot or a security"
                               " key cannot read the cards): put a card on it during the scan to be sure"),
    # PN532
    said("reader.pn532_silent", "the PN532 stopped answering ({why}): reopening it"),
    said("reader.pn532_none", "no PN532 answers on {where} ({why}); set its switches to HSU (or I2C) and check"
                              " TX/RX are crossed"),
    said("reader.pn532_other_chip", "the chip on {where} says it is a {chip}, not a PN532"),
    # RC522 on the Pi's SPI
    said("reader.rc522_radio_ok", "radio errors stopped"),
    said("reader.rc522_radio", "radio errors keep coming ({why}): a card at the edge of the field, or metal"
                               " near it?"),
    said("reader.rc522_locked", "reader locked up ({why}); resetting it"),
    said("reader.rc522_back", "{what} back after a reset"),
    said("reader.rc522_dead", "the RC522 does not answer even after a reset: check its wiring"),
    said("reader.rc522_fault", "{error}: {why}"),
    said("reader.rc522_not_installed", "{module} is not installed: run scripts/install-pi (it installs rpi-lgpio,"
                                       " Raspberry Pi OS's RPi.GPIO for kernel 6.6 and later)"),
    said("reader.rc522_no_spi", "no SPI device: enable SPI with: sudo raspi-config nonint do_spi 0 (or"
                                " raspi-config, Interface Options, SPI), then reboot"),
    said("reader.rc522_no_access", "no permission for {where}: sudo usermod -aG spi,gpio $USER, then log out and"
                                   " back in (the service: SupplementaryGroups=spi gpio)"),
    said("reader.rc522_gpio_busy", "another program holds that GPIO pin: stop the service first (sudo systemctl"
                                   " stop marmite)"),
    said("reader.rc522_old_gpio_mem", "the old RPi.GPIO has no access to /dev/gpiomem: sudo usermod -aG spi,gpio"
                                      " $USER, then log out and back in (the service: SupplementaryGroups=spi"
                                      " gpio); better, run scripts/install-pi (it installs rpi-lgpio, Raspberry Pi"
                                      " OS's RPi.GPIO for kernel 6.6 and later)"),
    said("reader.rc522_old_gpio_board", "the old RPi.GPIO does not know this board{on} (a Pi 5 needs"
                                        " rpi-lgpio): run scripts/install-pi (it installs rpi-lgpio, Raspberry Pi"
                                        " OS's RPi.GPIO for kernel 6.6 and later)"),
    said("reader.rc522_old_gpio_edge", "the old RPi.GPIO cannot watch the buttons on kernel 6.6 and later: run"
                                       " scripts/install-pi (it installs rpi-lgpio, Raspberry Pi OS's RPi.GPIO"
                                       " for kernel 6.6 and later)"),
    said("reader.rc522_not_pi", "this is not a Raspberry Pi{on}: the panel and the RC522 need a Raspberry Pi"
                                " 3, 4, 5 or Zero 2 W (or use --reader usb)"),
    said("reader.rc522_too_old", "this board{on} is too old for Marmite's GPIO: use a Raspberry Pi 3, 4, 5 or"
                                 " Zero 2 W"),
    said("reader.rc522_no_gpiochip", "no GPIO chip in {where}{on}: the panel and the RC522 need a Raspberry Pi"
                                     " 3, 4, 5 or Zero 2 W running Raspberry Pi OS"),
    said("reader.rc522_gpiochip", "cannot open {where}{on}: is this a Raspberry Pi 3, 4, 5 or Zero 2 W?"
                                  " (RPI_LGPIO_CHIP=N chooses another gpiochip)"),
    said("reader.rc522_settings", "its settings are refused ({why})"),
    said("reader.rc522_chip", "the RC522 misbehaves ({why}): check its wiring"),
    # the Pico on USB
    said("reader.pico_none", "no board found: plug the Pico in by USB"),
    said("reader.pico_not_connected", "no board connected"),
    said("reader.pico_protocol", "the board speaks protocol v{board}, Marmite speaks v{host}: run"
                                 " `marmite firmware install`"),
    said("reader.pico_foreign", "the board on {where} does not speak Marmite's protocol: run"
                                " `marmite firmware install`"),
    said("reader.pico_waiting", "connected to {where}, waiting for the board"),
    said("reader.pico_silent", "no heartbeat from the board for {seconds} s"),
    said("reader.pico_garbled", "nothing whole from the board for {seconds} s, only garbled bytes: check the USB"
                                " cable"),
    said("reader.pico_no_rc522", "the board does not find its RC522: check the wiring (see the firmware"
                                 " guide)"),
    said("reader.pico_radio", "radio errors keep coming on the board's reader: a card at the edge of the"
                              " field, or metal?"),
    said("reader.pico_connected", "connected on {where}"),
)

TOLD = frozenset({"pcsc_card_unread"})
"""What a reader says of a card rather than of itself: said every time, though the reader's state stays."""


@dataclass(frozen=True, slots=True)
class Words:
    """A reader's detail as words: a key of `WORDS` and its fields (text, or `Words` said inside)."""

    key: str
    fields: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.key not in WORDS:
            raise KeyError(f"no reader words {self.key!r}")

    def text(self, language: str) -> str:
        """The detail in `language`."""
        fields = {name: value.text(language) if isinstance(value, Words) else value for name, value in self.fields}
        return WORDS.format(self.key, language, **fields)

    def __str__(self) -> str:
        return self.text("en")


def words(key: str, **fields: Any) -> Words:
    """`Words` for `key`, with `fields` as keywords."""
    return Words(key, tuple(fields.items()))


def detail_in(detail: str, said: Words | None, language: str) -> str:
    """A reader's detail in `language`: its words when it gave some, else its detail as it came."""
    return said.text(language) if said is not None else detail


def install_fix(extra: str) -> Words:
    """The one command that adds the package extra `extra`, as words."""
    command, anywhere = install_command(extra)
    return words("install_extra" if anywhere else "install_extra_here", command=command)
