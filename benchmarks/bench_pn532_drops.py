"""The PN532 on its realistic fake, in real time: cards dropped past it (60, 120, 250 ms in the field),
alone or onto resting cards, and its CPU per poll, modelled for a Raspberry Pi Zero 2 W.

The fake (hardware/fakes/pn532_chip.py) models the chip's card states, retries at fRetryTimeout and the
field, and charges each byte its time at 115,200 baud; the reader is the real one over pyserial on a pty.
Nothing here was checked on a real module.

Run: `nice -n 10 python benchmarks/bench_pn532_drops.py [--trials N]`.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_usb_readers import cpu_seconds, reader_tid, wait_ok
from companion.reads import ReaderQueue, TagSeen
from hardware.fakes.pn532_chip import FakeNtag, FakePn532
from hardware.readers.pn532 import POLL_MS, Pn532Reader

ZERO_2W_FACTOR = (8.0, 15.0)
"""How many times slower a Zero 2 W core runs this thread than this VM's: a model, from the issue's
estimate (0.30 ms per poll here ↔ 12–22 % of a Zero 2 W core at 50 polls a second), not a measurement."""


def seen_after(out: ReaderQueue, wait_s: float) -> set[str]:
    found: set[str] = set()
    deadline = time.monotonic() + wait_s
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = out.get(timeout=left)
        except queue.Empty:
            break
        if isinstance(message, TagSeen):
            found.add(message.uid)
    return found


def drops(chip: FakePn532, out: ReaderQueue, window_ms: int, resting: int, trials: int) -> tuple[int, int]:
    """Drop one card for `window_ms` onto `resting` resting cards, `trials` times: (dropped seen, resting re-read)."""
    rest = [FakeNtag(bytes([0x07, n, 0, 0, 0, 0, 1])) for n in range(resting)]
    for card in rest:
        chip.put(card)
    seen_after(out, 0.4)  # the resting cards are seen once
    caught = reread = 0
    for index in range(trials):
        card = FakeNtag(bytes([0x04, window_ms % 256, resting, index, 0x5A, 0xA5, 0x01]))
        time.sleep(0.005 + (index % 11) * 0.0031)  # not in step with the poll
        chip.put(card)
        time.sleep(window_ms / 1000)
        chip.take(card)
        found = seen_after(out, 0.15)
        caught += card.uid.hex() in found
        reread += len(found & {c.uid.hex() for c in rest})
    for card in rest:
        chip.take(card)
    seen_after(out, 0.2)
    return caught, reread


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle polling for the CPU figure")
    parser.add_argument("--cpu-only", action="store_true", help="only the CPU figures")
    args = parser.parse_args()
    with FakePn532() as chip:
        reader = Pn532Reader.from_options({"port": chip.port})
        out: ReaderQueue = queue.Queue()
        reader.start(out)
        wait_ok(out)
        seen_after(out, 0.3)
        tid = reader_tid(reader)
        for resting in () if args.cpu_only else (0, 1, 2):
            cells = []
            for window in (60, 120, 250):
                caught, reread = drops(chip, out, window, resting, args.trials)
                again = f" (resting re-read {reread})" if resting else ""
                cells.append(f"{window} ms: {caught}/{args.trials}{again}")
            print(f"pn532 drop onto {resting} resting card(s): " + ", ".join(cells)
                  + f" [failed polls so far: {reader.errors}]")
        for label, cards in (("empty", 0), ("one card resting", 1)):
            rest = [FakeNtag(bytes([0x08, n, 0, 0, 0, 0, 2])) for n in range(cards)]
            for card in rest:
                chip.put(card)
            seen_after(out, 0.3)
            polls, cpu = reader.polls, cpu_seconds(os.getpid(), tid)
            time.sleep(args.idle)
            polls, cpu = reader.polls - polls, cpu_seconds(os.getpid(), tid) - cpu
            for card in rest:
                chip.take(card)
            per_poll_ms = cpu / max(1, polls) * 1000
            rate = polls / args.idle
            low, high = (per_poll_ms / 1000 * rate * f * 100 for f in ZERO_2W_FACTOR)
            print(f"pn532 CPU, {label}: {per_poll_ms:.3f} ms per poll here, {rate:.1f} polls/s (poll_ms {POLL_MS}) "
                  f"= {cpu / args.idle * 100:.2f} % of a core here; Zero 2 W model ×{ZERO_2W_FACTOR[0]:.0f}–"
                  f"{ZERO_2W_FACTOR[1]:.0f}: {low:.1f}–{high:.1f} % of a core")
        reader.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
