"""Self-describing tags' cost in the live reader: SPI transactions for a new tag with and without its code, and a write.

Run: `.venv/bin/python benchmarks/bench_tag_memory.py`. The RC522 reader (the real `mfrc522` package) against
`hardware.fakes.FakeMFRC522`, one NTAG213 and one MIFARE Classic 1K; each SPI transaction moves the fake chip's
virtual clock by 30 µs, as the hardware tests do. Counted: transactions (deterministic, the same on any machine);
derived: the time they would take with `bench_reader.py`'s per-transaction cost model (not measured on a Pi).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _baselines
from benchmarks.bench_reader import PROFILES
from hardware.fakes import FakeCard, FakeGPIO, FakeMFRC522, VirtualClock, installed
from hardware.rc522 import RC522Config
from hardware.readers.rc522 import AFTER_RESET_S, RC522Reader

CODE = "menu-mushroom@5"  # the longest Chaud Devant code
CARDS = (("NTAG213", FakeCard.ntag213, "04a1b2c3d4e5f6"), ("Classic 1K", FakeCard.classic1k, "deadbeef"))


def main() -> int:
    _baselines.pi_driver(Path(__file__).name)  # the Pi reader's mfrc522, or a clear stop
    clock = VirtualClock()
    chip = FakeMFRC522(clock=clock)
    spent = [0]

    def transfer(nbytes: int) -> None:
        spent[0] += 1
        clock.advance(30e-6)

    chip.on_transfer.append(transfer)

    def count(action: Callable[[], Any]) -> tuple[Any, int]:
        spent[0] = 0
        result = action()
        return result, spent[0]

    rows: list[tuple[str, int]] = []
    with installed(chip, FakeGPIO(clock=clock)):
        reader = RC522Reader(RC522Config(debounce_s=0), clock=clock, sleep=clock.sleep)
        reader.step()
        clock.advance(AFTER_RESET_S)
        rows.append(("empty poll", count(reader.step)[1]))
        for name, make, uid in CARDS:
            card = chip.enter(make(uid))
            rows.append((f"{name}: new tag, UID only", count(reader.step)[1]))
            written, cost = count(lambda uid=uid: reader.write_card(uid, CODE))
            assert written, f"{name}: the write did not verify"
            rows.append((f"{name}: write {CODE} and read it back", cost))
            reader.report_codes(True)
            chip.leave(card)
            card.power_on()
            chip.enter(card)
            seen, cost = count(reader.step)
            assert [m.card for m in seen] == [CODE], f"{name}: the code was not read"
            rows.append((f"{name}: new tag with its code", cost))
            reader.report_codes(False)
            chip.leave(card)
        reader.close()
    profiles = list(PROFILES.items())
    print(f"{'':52} {'SPI':>6}  " + "  ".join(f"{label:>12}" for label, _ in profiles))
    for label, transactions in rows:
        times = "  ".join(f"{transactions * cost * 1000:>9.1f} ms" for _, cost in profiles)
        print(f"{label:52} {transactions:>6}  {times}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
