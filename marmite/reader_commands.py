"""`marmite reader test` and `marmite reader learn`: check the wiring, and teach Marmite which tag is which card."""

from __future__ import annotations

import argparse
import queue
import sys
import time
from pathlib import Path
from typing import Any

from companion.deck_desk import editions_of
from companion.paths import default_data_dir
from companion.reads import ReaderHealth, ReaderMessage, ReaderQueue, TagSeen
from companion.tags import TagMap
from hardware.diagnose import reader_problem
from marmite.games import GAMES
from marmite.readers import make_reader, parse_reader_option, reader_names


def add_commands(sub: Any) -> None:
    """Register the `reader` command group on the `marmite` parser."""
    group = sub.add_parser("reader", help="check the pot reader and learn the deck's tags")
    actions = group.add_subparsers(dest="reader_command", required=True, metavar="ACTION")
    p = actions.add_parser("test", help="print every tag the reader sees, and its health")
    _reader_arguments(p)
    p.add_argument("--seconds", type=float, default=60.0, help="how long to listen (default 60)")
    p.set_defaults(handler=run_test)
    p = actions.add_parser("learn", help="enroll the active deck: each card over the reader, in box order")
    _reader_arguments(p)
    p.add_argument("--again", action="store_true", help="ask for every card, even those the deck already knows")
    p.add_argument("--game", default=GAMES.default, choices=sorted(GAMES.kinds),
                   help=f"whose cards, in their box order (default {GAMES.default}; buffet: mouse cards, then plates)")
    p.add_argument("--edition", default=None, choices=editions_of(GAMES.kinds.values()),
                   help="the deck's edition, whose card names are asked for (default: the deck's, else 2005)")
    p.set_defaults(handler=run_learn)
    p = actions.add_parser("scan", help="find every reader here, test each, print the --reader to use")
    p.add_argument("--seconds", type=float, default=3.0, help="how long to test each reader (default 3)")
    p.set_defaults(handler=run_scan)


def _reader_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reader", default="rc522", help=f"which reader ({', '.join(reader_names())}; default rc522)")
    p.add_argument("--reader-option", dest="option", action="append", default=[], metavar="KEY=VALUE",
                   help="reader setting, e.g. gain_db=43 (rc522), port=/dev/ttyACM0 (usb, pn532), "
                        "device=NAME (keyboard), reader=NAME (pcsc); repeatable")
    p.add_argument("--option", dest="option", action="append", help=argparse.SUPPRESS)  # the old spelling
    p.add_argument("--data", type=Path, default=None, help="data dir (default: $MARMITE_DATA or the user data dir)")


def run_test(args: argparse.Namespace) -> int:
    """Listen for `--seconds`; exit 1 if the reader never reported itself healthy."""
    opened = _open(args)
    if opened is None:
        return 2
    reader, out, tags = opened
    healthy = False
    try:
        deadline = time.monotonic() + args.seconds
        while (left := deadline - time.monotonic()) > 0:
            message = _next(out, min(left, 0.5))
            if message is not None:
                print(describe(message, tags), flush=True)
                healthy = healthy or (isinstance(message, ReaderHealth) and message.ok)
    except KeyboardInterrupt:
        pass
    finally:
        reader.close()
    return 0 if healthy else 1


def run_learn(args: argparse.Namespace) -> int:
    """The terminal form of enrollment (the tablet's flow); progress is saved after every card."""
    from marmite.deck_commands import enroll_in_terminal

    return enroll_in_terminal(args)


def run_scan(args: argparse.Namespace) -> int:
    """Print what `marmite reader scan` finds; exit 1 when no reader answered."""
    from marmite.reader_scan import other_keyboards, report, scan

    print("looking for readers (SPI RC522, Pico on USB, keyboard-wedge, PN532 on serial ports, PC/SC)...",
          flush=True)
    unsearched: list[str] = []
    verdicts = scan(args.seconds, notes=unsearched)
    for line in report(verdicts, other_keyboards(), unsearched):
        print(line)
    return 0 if any(v.state == "ok" for v in verdicts) else 1


def describe(message: ReaderMessage, tags: TagMap) -> str:
    """One line for the terminal."""
    if isinstance(message, TagSeen):
        code = tags.lookup(message.uid)
        typed = f" typed {message.raw!r} →" if message.raw is not None else ""
        return f"tag{typed} {message.uid} ({len(message.uid) // 2} bytes): {code or 'not in the active deck'}"
    state = "ok" if message.ok else "PROBLEM"
    facts = ", ".join(f"{key} {value}" for key, value in message.info)
    return f"reader {message.reader} {state}: {message.detail}" + (f" [{facts}]" if facts else "")


def _open(args: argparse.Namespace) -> tuple[Any, ReaderQueue, TagMap] | None:
    """Tag map, reader and queue; a clear message (and None) when the options or tags.json are wrong."""
    try:
        options = dict(parse_reader_option(text) for text in args.option)
        tags = TagMap.load(args.data or default_data_dir(), GAMES.tag_codes())
        problem = reader_problem(args.reader, options)  # no SPI at all: say so now, not after --seconds
        reader = None if problem else make_reader(args.reader, options)
    except ValueError as error:
        print(f"marmite reader: {error}", file=sys.stderr)
        return None
    if reader is None:
        print(f"reader {args.reader} PROBLEM: {problem}", file=sys.stderr)
        return None
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    return reader, out, tags


def _next(out: ReaderQueue, timeout: float) -> ReaderMessage | None:
    try:
        return _taken(out.get(timeout=timeout))
    except queue.Empty:
        return None


def _taken(message: ReaderMessage) -> ReaderMessage:
    """These commands deal with a tag as they take it: let the reader acknowledge it (the USB board) at once."""
    if isinstance(message, TagSeen) and message.done is not None:
        message.done()
    return message
