"""`marmite` command line: each package contributes its subcommands through `add_commands`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every package's subcommands."""
    from companion import commands as companion_commands

    parser = argparse.ArgumentParser(prog="marmite", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    companion_commands.add_commands(sub)
    for module_name in _OPTIONAL_COMMANDS:
        module = _import_optional(module_name)
        if module is not None:
            module.add_commands(sub)
    return parser


# Packages that add subcommands; imported by name from this fixed list.
_OPTIONAL_COMMANDS = ("web_ui.commands", "hardware.commands", "firmware_bridge.commands")


def _import_optional(name: str) -> Any:
    import importlib

    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            return None
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `marmite` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.handler(args)
    except BrokenPipeError:  # `marmite export | head`: the reader left; not an error of ours
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
