"""`marmite robot`: the robot's decisions over JSON Lines, for outside tools and acceptance checks.

One request a line on standard input (`{"log": [...], "seat": S, "hand": [...], "ask": ...}`), one
JSON line answered and flushed per request, in order; a bad request gets `{"error": "<one line>"}`
and the robot goes on; exit 0 at end of input. Imports stay light (no pages, no readers) because the
first answer's time counts from the process's start.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import select
import sys
import time
from collections.abc import Sequence
from typing import IO, Any

STARTED = time.monotonic()
STARTUP_MS = 200
"""What the first request leaves to the start-up (interpreter, imports) on the benchmark machine: its
search is sized for `--think-ms` less this (at least a quarter of it), every time, so that answers
stay the same from run to run."""


def add_commands(sub: Any) -> None:
    """Register `robot` on the `marmite` parser (its own parser, so the fast path needs no other command)."""
    p = sub.add_parser("robot", help="play a seat: decisions asked as JSON Lines on standard input")
    add_arguments(p)
    p.set_defaults(handler=lambda args: serve_requests(args, standard_input(), standard_output()))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="the robot's random seed (default 0)")
    parser.add_argument("--think-ms", type=int, default=300, help="time a decision may take, in ms (default 300)")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="this machine's speed next to the calibration machine (a Raspberry Pi 4: about 0.2); "
                             "the search is sized to it so that it ends before the clock stops it (default 1)")
    parser.add_argument("--level", default="chef", choices=("debutant", "cuisinier", "chef"),
                        help="how well it plays (default chef)")


def main(argv: Sequence[str]) -> int:
    """The fast path `marmite robot …` takes (see marmite.cli.main)."""
    parser = argparse.ArgumentParser(prog="marmite robot", description="play a seat: JSON Lines in, answers out")
    add_arguments(parser)
    args = parser.parse_args(list(argv))
    try:
        return serve_requests(args, standard_input(), standard_output())
    except BrokenPipeError:  # the reader left: nothing more to answer
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


def serve_requests(args: argparse.Namespace, source: IO[str], sink: IO[str]) -> int:
    """Answer every line of `source` on `sink`; exit code 0 at end of input."""
    from companion.robots import RobotAsk, RobotRefusal, decide, stop_by
    from marmite.games import GAMES

    if args.think_ms < 1 or not 0 < args.speed <= 100:
        print("marmite robot: --think-ms must be at least 1 and --speed between 0 and 100", file=sys.stderr)
        return 2
    searched_ms = max(1, round(args.think_ms * args.speed))
    first_ms = max(1, round(max(args.think_ms / 4, args.think_ms - STARTUP_MS) * args.speed))
    answered = 0
    received = process_start() if _ready(source) else None  # the first request, waiting since the start?
    while True:
        line = source.readline()
        if not line:
            break
        if received is None:
            received = time.monotonic()
        if not line.strip():
            received = None
            continue
        try:
            ask = parse_request(line, RobotAsk)
            deadline = stop_by(received, args.think_ms)
            budget = first_ms if answered == 0 else searched_ms
            decision = decide(GAMES, ask, level=args.level, seed=args.seed, think_ms=budget, deadline=deadline)
            answer: dict[str, Any] = decision.event
        except RobotRefusal as error:
            answer = {"error": _one_line(str(error))}
        except Exception as error:  # a request must never stop the robot
            answer = {"error": _one_line(f"cannot answer this request ({type(error).__name__}: {error})")}
        sink.write(answer_line(answer))
        sink.flush()
        received = None
        answered += 1
    return 0


def standard_input() -> IO[str]:
    """The process's standard input as `open_input` reads it (as is when it has no bytes underneath)."""
    binary = getattr(sys.stdin, "buffer", None)
    return sys.stdin if binary is None else open_input(binary)


def standard_output() -> IO[str]:
    """The process's standard output as UTF-8 JSON Lines, whatever the platform's own encoding (a Windows
    pipe's code page could not write every name, and the answer would not be UTF-8)."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(encoding="utf-8", newline="\n")
    return sys.stdout


def open_input(binary: IO[bytes]) -> IO[str]:
    """Standard input as JSON Lines text: lines end at a newline only, and bytes that are not UTF-8 reach
    `parse_request` (escaped) to be refused there rather than stop the reading."""
    return io.TextIOWrapper(binary, encoding="utf-8", errors="surrogateescape", newline="\n")


def answer_line(answer: dict[str, Any]) -> str:
    """One answer's line: UTF-8 text as is, and any string UTF-8 cannot hold (a lone surrogate a request
    sent as an escape and the answer echoes) as JSON's own escape, so that the line can always be written."""
    line = json.dumps(answer, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(answer)
    return line + "\n"


def parse_request(line: str, ask_type: Any) -> Any:
    """A RobotAsk from one JSON line, or RobotRefusal naming what is wrong with it."""
    from companion.robots import RobotRefusal

    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        raise RobotRefusal("malformed", "not UTF-8 text") from None
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        raise RobotRefusal("malformed", f"not JSON ({error.msg})") from None
    if not isinstance(request, dict):
        raise RobotRefusal("malformed", "a request is a JSON object")
    log, seat, hand, ask = request.get("log"), request.get("seat"), request.get("hand"), request.get("ask")
    if not isinstance(log, list) or not log or not all(isinstance(event, dict) for event in log):
        raise RobotRefusal("malformed", "log must be a non-empty list of events")
    if not isinstance(seat, str):
        raise RobotRefusal("malformed", "seat must be a player's name")
    if not isinstance(hand, list) or not all(isinstance(code, str) for code in hand):
        raise RobotRefusal("malformed", "hand must be a list of card codes")
    if ask is not None and not isinstance(ask, str):
        raise RobotRefusal("malformed", "ask must be a string when given")
    return ask_type(log, seat, tuple(hand), ask)


def _ready(source: IO[str]) -> bool:
    """Whether input is already waiting before the first read: then the first request's time has been
    running since the process started (its imports count); a stream that cannot be polled counts so."""
    try:
        return bool(select.select([source], [], [], 0)[0])
    except (OSError, ValueError, TypeError, io.UnsupportedOperation):
        return True


def process_start() -> float:
    """When this process started, on the `time.monotonic` clock (Linux's /proc; else this module's import)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            start_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as uptime:
            age = float(uptime.read().split()[0]) - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return STARTED
    return min(STARTED, time.monotonic() - max(0.0, age))


def _one_line(text: str) -> str:
    return " ".join(text.split()) or "cannot answer this request"
