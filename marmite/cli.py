"""The `marmite` command: serve a table, replay and export its logs, set up its reader."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

DESCRIPTION = (
    "Marmite, a table companion for Chaud Devant ! (Too Many Cooks): the pot reader, the referee, "
    "the scores and the voice of the table."
)


def build_parser() -> argparse.ArgumentParser:
    """The full parser: every command, composed here."""
    from marmite import (
        club_commands,
        contract_commands,
        deck_commands,
        firmware_commands,
        reader_commands,
        robot_command,
        serve,
    )

    parser = argparse.ArgumentParser(prog="marmite", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve.add_commands(sub)
    contract_commands.add_commands(sub)
    reader_commands.add_commands(sub)
    deck_commands.add_commands(sub)
    firmware_commands.add_commands(sub)
    robot_command.add_commands(sub)
    club_commands.add_commands(sub)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # not on the robot's fast path

    from companion.extras import DISTRIBUTION

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "(not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `marmite` console script."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["robot"]:  # the fast path: a robot's first answer counts its start-up time
        from marmite import robot_command

        return robot_command.main(arguments[1:])
    from companion.extras import MissingExtra

    parser = build_parser()
    args = parser.parse_args(arguments)
    try:
        result: int = args.handler(args)
    except MissingExtra as missing:  # one line naming the extra and how to add it, never a traceback
        print(f"marmite {args.command}: {missing}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `marmite export | head`: the reader left; not an error of ours
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
