"""Memory while the RC522 is missing: 10,000 failed opens of the `rc522` reader, then the same with the stock call.

Run: `.venv/bin/python benchmarks/bench_reader_memory.py [--opens N]`. The fake spidev opens (SPI is enabled)
but no chip answers (version register 0x00), as with an unplugged reader. Each open builds a real
`mfrc522.MFRC522`, whose constructor adds a handler to the `mfrc522Logger` logger. Measured with tracemalloc
(Python allocations still held after a full garbage collection, leaving out the fakes' own records: the
fake GPIO keeps a timeline of every pin change for tests, and the virtual clock's float) and by counting that
logger's handlers:
`RC522Reader.step()` retrying, against plain `mfrc522.MFRC522()` calls as the reader made them before.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _baselines
from hardware.fakes import FakeGPIO, FakeMFRC522, VirtualClock, installed
from hardware.readers.rc522 import RC522Reader


def held(action: Callable[[], object], count: int) -> tuple[float, int]:
    """(bytes still allocated per call after `count` calls, handlers added to mfrc522Logger)."""
    logger = logging.getLogger("mfrc522Logger")
    handlers = len(logger.handlers)
    for _ in range(50):  # warm-up: imports, caches, first-time allocations
        action()
    gc.collect()
    tracemalloc.start(8)
    before = tracemalloc.take_snapshot()
    handlers = len(logger.handlers)
    for _ in range(count):
        action()
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    ignore = [tracemalloc.Filter(False, "*/hardware/fakes/*", all_frames=True), tracemalloc.Filter(False, __file__)]
    changes = after.filter_traces(ignore).compare_to(before.filter_traces(ignore), "filename")
    grown = sum(stat.size_diff for stat in changes)
    return grown / count, len(logger.handlers) - handlers


def main() -> int:
    _baselines.pi_driver(Path(__file__).name)  # the Pi reader's mfrc522, or a clear stop
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=10_000)
    args = parser.parse_args()
    clock = VirtualClock()
    chip = FakeMFRC522(clock=clock, version=0x00)  # nothing answers on the bus
    with installed(chip, FakeGPIO(clock=clock)) as gpio:
        gpio.setmode(11)
        reader = RC522Reader(clock=clock, sleep=clock.sleep)

        def retry() -> None:
            clock.advance(60.0)  # past the longest backoff: every step is an open attempt
            [health] = reader.step()
            assert not health.ok

        ours, ours_handlers = held(retry, args.opens)
        import mfrc522

        def stock_open() -> None:
            device = mfrc522.MFRC522(pin_mode=11, pin_rst=25)
            device.spi.close()

        theirs, their_handlers = held(stock_open, args.opens)
    print(f"{args.opens} failed opens each\n")
    print("| opening the chip | bytes held per open | handlers added to mfrc522Logger | held after 10,000 opens |")
    print("|---|---:|---:|---:|")
    for name, per_open, added in (
        ("RC522Reader retry (now)", ours, ours_handlers),
        ("plain mfrc522.MFRC522() (the reader before)", theirs, their_handlers),
    ):
        print(f"| {name} | {per_open:.1f} | {added} | {per_open * 10_000 / 1024:.0f} KiB |")
    return 0 if ours_handlers == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
