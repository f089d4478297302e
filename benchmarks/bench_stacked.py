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
from firmware_bridge import protocol
from firmware_bridge.simulator import FakeMachine, load_firmware
from hardware.fakes import (
    IDEAL,
    PI_ZERO_2W,
    PI_ZERO_2W_REAL,
    PICO,
    FakeCard,
    FakeMFRC522,
    FieldSchedule,
    Realism,
    SpiCost,
    VirtualClock,
    charge_spi,
)
from hardware.fakes.pot import Arrival, PiPot
from hardware.rc522 import RC522Config

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


def trials_of(run_trial: Callable[[FakeCard, FakeCard, float, float], set[bytes]], count: int, gap_ms: int,
           seed: int) -> list[int]:
    """How many trials reported neither card, one, both."""
    rng = random.Random(seed)
    outcome = [0, 0, 0]
    for _ in range(count):
        a, b = pair(rng)
        reported = run_trial(a, b, gap_ms / 1000, rng.random())
        outcome[len({a.uid, b.uid} & reported)] += 1
    return outcome


def pi_rig(dwell_s: float, realism: Realism = IDEAL, config: RC522Config | None = None,
           cost: SpiCost = PI_ZERO_2W) -> tuple[Callable[[FakeCard, FakeCard, float, float], set[bytes]], Any]:
    pot = PiPot(config, cost=cost, realism=realism)  # RuntimeError, not 0/1000, if the reader cannot start

    def run_trial(a: FakeCard, b: FakeCard, gap_s: float, phase: float) -> set[bytes]:
        seen = pot.passage([Arrival(a, 0.0, dwell_s), Arrival(b, gap_s, dwell_s)], phase)
        return {bytes.fromhex(m.uid) for m in seen}

    return run_trial, pot


def pico_rig(dwell_s: float, power_up_s: float = 0.0) -> tuple[Callable[[FakeCard, FakeCard, float, float], set[bytes]],
                                                                Any]:
    bridge = load_firmware()
    rc522 = sys.modules["rc522"]
    clock = VirtualClock()
    chip = FakeMFRC522(clock=clock)
    chip.power_up_s = power_up_s
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

    return run_trial, _Stop(chip)


class _Stop:
    """The Pico rig's handle (nothing to close); `chip` lets a caller set the card power-up."""

    def __init__(self, chip: FakeMFRC522) -> None:
        self.chip = chip

    def close(self) -> None:
        pass


def _frames(board: Any) -> list[protocol.Frame]:
    decoder = protocol.FrameDecoder()
    return [f for entry in board.pending for f in decoder.feed(entry[1]) if f.kind == protocol.TAG]


PI_4 = SpiCost(20e-6, 8e-6)  # spidev from Python on a Pi 4 / Pi 5 (an assumption, as in bench_reader)
PI_4_REAL = Realism(5.0, 80e-6, 3e-3)  # Python 4-6 times slower than this machine's (docs/BENCHMARKS.md)
AT_4MHZ = SpiCost(PI_ZERO_2W.per_transaction_s, 2e-6)  # the same per-transaction cost, 2 µs a byte
DWELLS_MS = (20, 25, 30, 35, 40, 50)


def table(rows: list[tuple[str, Callable[[], tuple[Callable[..., set[bytes]], Any]]]], trials: int) -> int:
    """Print one row per reader and gap; the number of trials that lost a card."""
    print("| reader | cards entering | both reported | only one | neither |")
    print("|---|---|---:|---:|---:|")
    failed = 0
    for name, rig in rows:
        run_trial, handle = rig()
        try:
            for gap in GAPS_MS:
                neither, one, both = trials_of(run_trial, trials, gap, seed=gap + 1)
                failed += neither + one
                when = "together" if gap == 0 else f"{gap} ms apart"
                print(f"| {name} | {when} | {both} / {trials} | {one} | {neither} |", flush=True)
        finally:
            handle.close()
    return failed


def dependable(name: str, rig: Callable[[float], tuple[Callable[..., set[bytes]], Any]], trials: int) -> str:
    """The shortest dwell (of DWELLS_MS) at which no trial of any gap lost a card."""
    for dwell in DWELLS_MS:
        run_trial, handle = rig(dwell / 1000)
        try:
            lost = sum(sum(trials_of(run_trial, trials, gap, seed=gap + 11)[:2]) for gap in GAPS_MS)
        finally:
            handle.close()
        print(f"  {name}: {dwell} ms in the field: {lost} of {trials * len(GAPS_MS)} trials lost a card", flush=True)
        if lost == 0:
            return f"{dwell} ms"
    return f"more than {DWELLS_MS[-1]} ms"


def main() -> int:
    _baselines.pi_driver(Path(__file__).name)  # the Pi reader's mfrc522, or a clear stop
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--dwell", type=float, default=50.0, help="ms each card stays in the field")
    parser.add_argument("--real-trials", type=int, default=200, help="trials per case with the realistic fake")
    args = parser.parse_args()
    dwell = args.dwell / 1000
    print(f"{args.trials} trials per case, each card {args.dwell:.0f} ms in the field\n")
    failed = table([("Pi driver (rc522)", lambda: pi_rig(dwell)), ("Pico firmware", lambda: pico_rig(dwell))],
                   args.trials)
    real = PI_ZERO_2W_REAL
    print(f"\nThe realistic fake: the driver's Python time charged (this machine's thread time x"
          f"{real.compute_scale:g} for a Pi Zero 2 W), every sleep {real.sleep_overshoot_s * 1e6:.0f} µs longer, "
          f"cards silent {real.power_up_s * 1000:g} ms after entering; {args.real_trials} trials per case, "
          "each card 25 ms in the field (the harsh case), SPI at 1 MHz (the default) and 4 MHz\n")
    table([
        ("Pi Zero 2 W, plain fake, 1 MHz (as before)", lambda: pi_rig(0.025)),
        ("Pi Zero 2 W, realistic fake, 1 MHz", lambda: pi_rig(0.025, real)),
        ("Pi Zero 2 W, realistic fake, 4 MHz", lambda: pi_rig(0.025, real, RC522Config(speed_hz=4_000_000), AT_4MHZ)),
        ("Pico firmware, 3 ms power-up", lambda: pico_rig(0.025, real.power_up_s)),
    ], args.real_trials)
    print("\nDependable dwell (realistic fake, every gap, the shortest time over the antenna that lost no card):")
    boards = [
        ("Pi Zero 2 W", lambda d: pi_rig(d, real)),
        ("Pi 4 / Pi 5", lambda d: pi_rig(d, PI_4_REAL, None, PI_4)),
        ("Pico (power-up and SPI modelled; MicroPython's own time not charged)", lambda d: pico_rig(d, 3e-3)),
    ]
    found = [(name, dependable(name, rig, max(20, args.real_trials // 4))) for name, rig in boards]
    print("\n| board | dependable dwell |\n|---|---:|")
    for name, dwell_text in found:
        print(f"| {name} | {dwell_text} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
