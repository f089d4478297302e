"""`marmite firmware install|ports`: put the reader firmware on a Pico, list connected Picos."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from firmware_bridge.install import InstallError, install
from firmware_bridge.ports import find_board_ports


def add_commands(sub: Any) -> None:
    """Add `firmware install` and `firmware ports` to the `marmite` parser."""
    firmware = sub.add_parser("firmware", help="the USB card reader: a Raspberry Pi Pico with an RC522")
    actions = firmware.add_subparsers(dest="firmware_action", required=True, metavar="ACTION")
    install_parser = actions.add_parser(
        "install", help="copy Marmite's firmware onto a Pico that runs MicroPython (uses mpremote)"
    )
    install_parser.add_argument("--port", help="the Pico's serial port (default: find it by its USB id)")
    install_parser.add_argument("--buzzer-pin", type=int, metavar="GPIO", help="GPIO of a passive buzzer, if fitted")
    install_parser.set_defaults(handler=install_command)
    ports = actions.add_parser("ports", help="list the Picos running MicroPython on USB")
    ports.set_defaults(handler=ports_command)


def ports_command(args: argparse.Namespace) -> int:
    """Print each connected board's port; 1 if there is none."""
    found = find_board_ports()
    for port in found:
        print(port)
    if not found:
        print("no Pico running MicroPython found on USB", file=sys.stderr)
    return 0 if found else 1


def install_command(args: argparse.Namespace) -> int:
    """Run `install` for the command line, with a clear message on failure."""
    try:
        install(args.port, buzzer_pin=args.buzzer_pin, find=find_board_ports)
    except InstallError as error:
        print(f"marmite firmware install: {error}", file=sys.stderr)
        return 1
    print("firmware installed; the Pico restarted and is reading cards")
    return 0
