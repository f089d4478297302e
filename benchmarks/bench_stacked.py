"""Stacked cards: two cards entering the field together, or 5, 10 and 25 ms apart; both must be reported.

Run: `.venv/bin/python benchmarks/bench_stacked.py [--trials N]` (1,000 per case by default). The Pi driver
(`RC522Reader`, the real `mfrc522` package underneath) and the Pico firmware (`bridge.Board` with its
`rc522`, through the fake `machine`) each read a `FakeMFRC522` on a virtual clock. Cards enter and leave
the field at their scheduled times, checked before every SPI transaction, so a card can arrive in the
middle of an anticollision as on a real pot. Each card stays in the field `--dwell` ms (a card falling
through the field takes about 50 ms); the trial starts at a random point of the poll cycle; half the
trials use two NTAG UIDs sharing their first three bytes (the same cascade-level-1 answer), the rest
random 4- and 7-byte UIDs. SPI time is modelled per transaction (Pi Zero 2 W: 60 µs + 8 µs per byte;
Pico: 15 µs + 8 µs per byte at 1 MHz).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _baselines
from companion.reads import TagSeen
from firmware_bridge import protocol
from firmware_bridge.simulator import FakeMachine, load_firmware
from hardware.fakes import (
    PI_ZERO_2W,
    PICO,
    FakeCard,
    FakeGPIO,
    FakeMFRC522,
    FieldSchedule,
    VirtualClock,
    charge_spi,
    installed,
)
from hardware.readers.rc522 import RC522Reader

GAPS_MS = (0, 5, 10, 25)


def tail(rng: random.Random) -> bytes:
    """The last four bytes of a 7-byte UID: ISO 14443-3 forbids the cascade tag 0x88 as its first (uid3)."""
    return bytes([rng.choice([b for b in range(256) if b != 0x88])]) + rng.randbytes(3)


def pair(rng: random.Random) -> tuple[FakeCard, FakeCard]:
    """Two distinct cards: twins sharing a cascade-level-1 answer half the time, else random sizes."""
    if rng.random() < 0.5:
        head = bytes([0x04, rng.randrange(256), rng.randrange(256)])
        a, b = head + tail(rng), head + tail(rng)
        while b == a:
            b = head + tail(rng)
        return FakeCard.ntag213(a), FakeCard.ntag213(b)
    cards = []
    for _ in range(2):
        if rng.random() < 0.5:
            cards.append(FakeCard.ntag213(bytes([0x04]) + rng.randbytes(2) + tail(rng)))
        else:
            uid = rng.randbytes(4)  # uid0 must not be the cascade tag either
            cards.append(FakeCard.classic1k(uid if uid[0] != 0x88 else b"\x08" + uid[1:]))
    return cards[0], cards[1]


def trials(run_trial: Callable[[FakeCard, FakeCard, float, float], set[bytes]], count: int, gap_ms: int,
           seed: int) -> list[int]:
    """How many trials reported neither card, one, both."""
    rng = random.Random(seed)
    outcome = [0, 0, 0]
    for _ in range(count):
        a, b = pair(rng)
        reported = run_trial(a, b, gap_ms / 1000, rng.random())
        outcome[len({a.uid, b.uid} & reported)] += 1
    return outcome


def pi_rig(dwell_s: float) -> tuple[Callable[[FakeCard, FakeCard, float, float], set[bytes]], Any]:
    clock = VirtualClock()
    chip = FakeMFRC522(clock=clock)
    charge_spi(chip, clock, PI_ZERO_2W)
    schedule = FieldSchedule(chip, clock)
    context = installed(chip, FakeGPIO(clock=clock))
    context.__enter__()
    reader = RC522Reader(clock=clock, sleep=clock.sleep)
    reader.step()
    period = reader.config.poll_ms / 1000

    def run_trial(a: FakeCard, b: FakeCard, gap_s: float, phase: float) -> set[bytes]:
        start = clock.now() + phase * period
        schedule.add(a, start, dwell_s)
        schedule.add(b, start + gap_s, dwell_s)
        reported: set[bytes] = set()
        while schedule.events:
            schedule.apply()
            messages, pause = reader.cycle()  # what the reader thread does between its waits
            reported |= {bytes.fromhex(m.uid) for m in messages if isinstance(m, TagSeen)}
            clock.sleep(pause)
        clock.advance(2.0)  # past the debounce time before the next trial
        return reported

    return run_trial, context


def pico_rig(dwell_s: float) -> tuple[Callable[[FakeCard, FakeCard, float, float], set[bytes]], Any]:
    bridge = load_firmware()
    rc522 = sys.modules["rc522"]
    clock = VirtualClock()
    chip = FakeMFRC522(clock=clock)
    charge_spi(chip, clock, PICO)
    schedule = FieldSchedule(chip, clock)
    machine = FakeMachine(chip)
    reader = rc522.RC522(
        machine.SPI(0), machine.Pin(17, 1, value=1), machine.Pin(20, 1, value=1),
        sleep=lambda us: clock.advance(us / 1e6),
    )

    class Link:
        def read(self) -> bytes:
            return b""

        def write(self, data: bytes) -> None:
            pass

    def ticks() -> int:
        return int(clock.now() * 1000) % (1 << 30)

    board = bridge.Board(reader, Link(), boot_id=1, clock=ticks)
    board.start()
    loop_s = bridge.LOOP_MS / 1000

    def run_trial(a: FakeCard, b: FakeCard, gap_s: float, phase: float) -> set[bytes]:
        start = clock.now() + phase * (bridge.SCAN_MS + bridge.LOOP_MS) / 1000
        schedule.add(a, start, dwell_s)
        schedule.add(b, start + gap_s, dwell_s)
        while schedule.events:
            schedule.apply()
            board.last_host_ms = ticks()
            board.step()
            clock.advance(loop_s)
        reported = {protocol.parse_tag(frame.body)[2] for frame in _frames(board)}
        board.pending = []  # as if the host acknowledged them
        clock.advance(2.0)
        return reported

    return run_trial, None


def _frames(board: Any) -> list[protocol.Frame]:
    decoder = protocol.FrameDecoder()
    return [f for entry in board.pending for f in decoder.feed(entry[1]) if f.kind == protocol.TAG]


def main() -> int:
    _baselines.pi_driver(Path(__file__).name)  # the Pi reader's mfrc522, or a clear stop
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--dwell", type=float, default=50.0, help="ms each card stays in the field")
    args = parser.parse_args()
    print(f"{args.trials} trials per case, each card {args.dwell:.0f} ms in the field\n")
    print("| reader | cards entering | both reported | only one | neither |")
    print("|---|---|---:|---:|---:|")
    failed = 0
    for name, rig in (("Pi driver (rc522)", pi_rig), ("Pico firmware", pico_rig)):
        run_trial, context = rig(args.dwell / 1000)
        try:
            for gap in GAPS_MS:
                neither, one, both = trials(run_trial, args.trials, gap, seed=gap + 1)
                failed += neither + one
                when = "together" if gap == 0 else f"{gap} ms apart"
                print(f"| {name} | {when} | {both} / {args.trials} | {one} | {neither} |", flush=True)
        finally:
            if context is not None:
                context.__exit__(None, None, None)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
