"""Pot reader cost: our RC522 driver against the stock `mfrc522` loop and the maintained packages, on the fake chip.

Run: `.venv/bin/python benchmarks/bench_reader.py [--polls N]`. Our driver and the stock SimpleMFRC522 loop
run the real `mfrc522` package against `hardware.fakes.FakeMFRC522`, side by side in one run; so do the
maintained `mfrc522-python` (BasicMFRC522's loop) and `pi-rc522` (its IRQ mode, `wait_for_tag`), fetched
from PyPI by `_baselines.py` into their own folders (they cannot share an environment with `mfrc522`).
Counted: SPI transactions and host CPU time per empty poll and per card read, and how often one card resting
in the field is reported. Derived: the detection latency and CPU load a Raspberry Pi should see, from the
counts and a per-transaction cost model (stated below; each SPI transaction moves the fake chip's virtual
clock by that cost, so radio timing and SPI time interleave as on a Pi). Targets: <= 15 transfers per empty
poll, one poll at least every 20 ms.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _baselines
from hardware.fakes import FakeCard, FakeGPIO, FakeMFRC522, VirtualClock, installed
from hardware.readers.rc522 import RC522Reader

SPI_HZ = 1_000_000  # mfrc522's default clock, also ours
# Per-transaction software cost (Python call, spidev ioctl, kernel SPI set-up), CPU-bound, in seconds.
# Pi Zero W: calibrated on the users' report that one empty stock poll (about 2,000 transactions) takes
# about one second there. Pi Zero 2 W and Pi 4: assumptions from typical spidev figures, not measured here.
PROFILES = {"Pi Zero W": 500e-6, "Pi Zero 2 W": 60e-6, "Pi 4 / Pi 5": 20e-6}
MODEL = "Pi Zero 2 W"
NTAG, CLASSIC = "04a1b2c3d4e5f6", "deadbeef"


@dataclass
class Figures:
    """Per-call averages of one measured operation."""

    transfers: float
    cpu_ms: float  # host CPU, fake chip included
    driver_cpu_ms: float  # host CPU minus the time spent inside the fake chip
    pi_ms: float  # virtual time on the modelled Pi, sleeps and radio included


class Rig:
    """A fake chip on a virtual clock whose SPI transactions cost what they would on a Pi."""

    def __init__(self, per_transfer_s: float) -> None:
        self.clock = VirtualClock()
        self.chip = FakeMFRC522(clock=self.clock)
        self.chip.on_transfer.append(lambda n: self.clock.advance(per_transfer_s + n * 8 / SPI_HZ))
        self.chip_cpu = 0.0
        real = self.chip.transfer

        def timed(data: list[int]) -> list[int]:
            started = time.process_time()
            try:
                return real(data)
            finally:
                self.chip_cpu += time.process_time() - started

        self.chip.transfer = timed  # type: ignore[method-assign]

    @contextmanager
    def installed(self) -> Iterator[FakeGPIO]:
        with installed(self.chip, FakeGPIO(clock=self.clock)) as gpio:
            gpio.setmode(11)
            yield gpio

    def measure(
        self, operation: Callable[[], object], count: int, between: Callable[[], None] = lambda: None
    ) -> Figures:
        transfers = cpu = chip_cpu = pi = 0.0
        for _ in range(count):
            between()
            self.chip.transfers, self.chip_cpu = 0, 0.0
            started, began = time.process_time(), self.clock.now()
            operation()
            cpu += time.process_time() - started
            chip_cpu += self.chip_cpu
            pi += self.clock.now() - began
            transfers += self.chip.transfers
        return Figures(transfers / count, cpu / count * 1e3, (cpu - chip_cpu) / count * 1e3, pi / count * 1e3)


def ours(per_transfer_s: float, polls: int) -> dict[str, Any]:
    rig = Rig(per_transfer_s)
    with rig.installed():
        reader = RC522Reader(clock=rig.clock, sleep=rig.clock.sleep)
        reader.step()
        empty = rig.measure(reader.step, polls)
        results: dict[str, Any] = {"empty": empty}
        for name, card in (("read 4-byte", FakeCard.classic1k(CLASSIC)), ("read 7-byte", FakeCard.ntag213(NTAG))):

            def bring(card: FakeCard = card) -> None:
                rig.chip.leave(card)
                rig.clock.advance(2.0)  # past the debounce time
                rig.chip.enter(card)

            results[name] = rig.measure(reader.step, max(10, polls // 10), between=bring)
        rig.chip.enter(FakeCard.classic1k("c0ffee00"))
        reports = 0
        end = rig.clock.now() + 1.0
        while rig.clock.now() < end:
            began = rig.clock.now()
            reports += len([m for m in reader.step() if type(m).__name__ == "TagSeen"])
            rig.clock.sleep(max(0.0, reader.config.poll_ms / 1000 - (rig.clock.now() - began)))
        results["resting reports per s"] = reports
        results["poll period ms"] = reader.config.poll_ms
    return results


def stock(per_transfer_s: float, polls: int) -> dict[str, Any]:
    rig = Rig(per_transfer_s)
    with rig.installed():
        from mfrc522 import SimpleMFRC522

        simple = SimpleMFRC522()
        empty = rig.measure(simple.read_id_no_block, max(5, polls // 100))
        card = FakeCard.classic1k(CLASSIC)

        def bring() -> None:
            rig.chip.leave(card)
            rig.chip.enter(card)

        read_id = rig.measure(simple.read_id_no_block, max(10, polls // 10), between=bring)
        read_full = rig.measure(simple.read_no_block, max(10, polls // 10), between=bring)
        rig.chip.enter(card)
        reports = 0
        end = rig.clock.now() + 1.0
        while rig.clock.now() < end:  # SimpleMFRC522.read() polls back to back
            reports += simple.read_id_no_block() is not None
    return {"empty": empty, "read 4-byte": read_id, "read 4-byte + blocks": read_full, "resting reports per s": reports}


def mfrc522_python(per_transfer_s: float, polls: int) -> dict[str, Any]:
    """BasicMFRC522.read_id_no_block from mfrc522-python: the `~` bug fixed, a 1 ms sleep between status reads."""
    rig = Rig(per_transfer_s)
    with rig.installed(), _baselines.imported_from(_baselines.ensure("mfrc522-python"), "mfrc522"):
        import mfrc522

        sys.modules["mfrc522.MFRC522"].sleep = rig.clock.sleep  # type: ignore[attr-defined]  # its time.sleep
        basic = mfrc522.BasicMFRC522()
        empty = rig.measure(basic.read_id_no_block, max(20, polls // 20))
        card = FakeCard.classic1k(CLASSIC)

        def bring() -> None:
            rig.chip.leave(card)
            rig.chip.enter(card)

        read_id = rig.measure(basic.read_id_no_block, max(10, polls // 10), between=bring)
    return {"empty": empty, "read 4-byte": read_id}


def pi_rc522_irq(per_transfer_s: float, seconds: float) -> dict[str, Any]:
    """pi-rc522's `wait_for_tag`: re-initialise, send REQA with RxIRq on the IRQ pin, wait 0.1 s for it, repeat.

    On an empty field no interrupt comes, so each 0.1 s cycle is one empty poll. Its waits are real
    `threading.Event.wait(0.1)` calls, so this measures `seconds` of wall time.
    """
    rig = Rig(per_transfer_s)
    gpio = FakeGPIO(clock=rig.clock)
    with installed(rig.chip, gpio, reset_pin=22), _baselines.imported_from(_baselines.ensure("pi-rc522"), "pirc522"):
        from pirc522 import RFID

        reader = RFID(pin_irq=18)  # BOARD numbering, its defaults: reset on pin 22, IRQ on pin 18
        rig.chip.transfers, rig.chip_cpu = 0, 0.0
        started, wall = time.process_time(), time.monotonic()
        reader.wait_for_tag(timeout=seconds)
        cpu, wall = time.process_time() - started, time.monotonic() - wall
        cycles = max(1, round(wall / 0.1))
        figures = Figures(
            rig.chip.transfers / cycles, cpu / cycles * 1e3, (cpu - rig.chip_cpu) / cycles * 1e3, wall / cycles * 1e3
        )
    return {"empty": figures}


def main() -> int:
    _baselines.pi_driver(Path(__file__).name)  # the Pi reader's mfrc522, or a clear stop
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=2000, help="empty polls measured for our driver")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cpus, {_cpu_model()}, Python {platform.python_version()}")
    print(f"cost model: {MODEL}, {PROFILES[MODEL] * 1e6:.0f} µs per SPI transaction + 8 µs per byte at 1 MHz\n")
    a, b = ours(PROFILES[MODEL], args.polls), stock(PROFILES[MODEL], args.polls)
    print("| operation | driver | SPI transfers | host CPU ms (driver only) | time on a Pi Zero 2 W, ms |")
    print("|---|---|---:|---:|---:|")
    for op in ("empty", "read 4-byte", "read 7-byte", "read 4-byte + blocks"):
        for name, results in (("ours", a), ("stock", b)):
            if op in results:
                f = results[op]
                print(f"| {op} | {name} | {f.transfers:.0f} | {f.cpu_ms:.3f} ({f.driver_cpu_ms:.3f}) | {f.pi_ms:.2f} |")
    print(
        f"\none card resting in the field, reports in 1 s: ours {a['resting reports per s']}, "
        f"stock {b['resting reports per s']}"
    )
    baselines(a, b, args.polls)
    print(
        "\n| Pi (assumed µs per transfer) | ours: mean / worst detection latency | ours: CPU while idle "
        "| stock: mean / worst latency | stock: CPU while idle |"
    )
    print("|---|---:|---:|---:|---:|")
    for pi, cost in PROFILES.items():
        mine, theirs = ours(cost, 200), stock(cost, 200)
        period = max(mine["poll period ms"], mine["empty"].pi_ms)
        read = mine["read 7-byte"].pi_ms
        busy = mine["empty"].transfers * cost * 1e3 / period  # CPU-bound share of each period
        stock_period, stock_read = theirs["empty"].pi_ms, theirs["read 4-byte"].pi_ms
        print(
            f"| {pi} ({cost * 1e6:.0f}) | {period / 2 + read:.1f} / {period + read:.1f} ms | {busy:.1%} "
            f"| {stock_period / 2 + stock_read:.0f} / {stock_period + stock_read:.0f} ms | 100% |"
        )
    return 0


def baselines(ours_figures: dict[str, Any], stock_figures: dict[str, Any], polls: int) -> None:
    """Every driver's empty poll side by side, and what it costs over one idle second on the modelled Pi."""
    cost = PROFILES[MODEL]
    rows: list[tuple[str, Figures, float, Figures | None]] = [
        ("ours (Marmite, shared ISO 14443-3 core)", ours_figures["empty"], ours_figures["poll period ms"],
         ours_figures["read 7-byte"]),
        ("stock mfrc522 0.0.7 SimpleMFRC522 loop", stock_figures["empty"], 0.0, stock_figures["read 4-byte"]),
    ]
    try:
        mine = mfrc522_python(cost, polls)
        rows.append(("mfrc522-python 0.0.9 BasicMFRC522 loop", mine["empty"], 0.0, mine["read 4-byte"]))
    except Exception as error:  # say why the row is missing, keep the other figures
        print(f"\nmfrc522-python could not run here: {type(error).__name__}: {error}")
    try:
        irq = pi_rc522_irq(cost, 2.0)
        rows.append(("pi-rc522 2.3.0 IRQ mode (wait_for_tag)", irq["empty"], 0.0, None))
    except Exception as error:
        print(f"\npi-rc522 could not run here: {type(error).__name__}: {error}")
    print(
        f"\n| driver | SPI transfers per empty poll | host CPU ms per empty poll (driver only) "
        f"| empty poll period on a {MODEL}, ms | SPI transfers per idle second | CPU-bound share of an idle second "
        "| transfers per card read |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, empty, period_ms, read in rows:
        period = max(period_ms, empty.pi_ms)
        per_second = empty.transfers * 1000 / period
        reads = "n/a" if read is None else f"{read.transfers:.0f}"
        print(
            f"| {name} | {empty.transfers:.1f} | {empty.cpu_ms:.3f} ({empty.driver_cpu_ms:.3f}) | {period:.1f} "
            f"| {per_second:.0f} | {min(1.0, per_second * cost):.1%} | {reads} |"
        )


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
