"""Self-describing decks on the RC522: no card lost while codes are read; card → TagSeen latency; idle CPU.

Run: `.venv/bin/python benchmarks/bench_self_describing.py [--trials N]` (200 per case by default).
The `rc522` reader's own poll loop (`hardware.fakes.pot.PiPot`: the real `mfrc522` package on the fake chip,
virtual clock, Pi Zero 2 W SPI cost of 60 µs + 8 µs per byte) with cards passing on a timetable, each
trial starting at a random point of the poll cycle, half NTAG213 and half Classic 1K tags with a code on them.
Side by side in one run: the reader before issue 22 (`_codes_before.ReaderBefore`: every fresh UID's code,
through `mfrc522`'s calls), the reader now (only the codes of UIDs the deck lacks, through the own ISO 14443
core), and a plain deck (no codes). Each on the plain fake and on the realistic one (`PI_ZERO_2W_REAL`:
this process's measured thread time ×15 for a Zero 2 W, 80 µs over every sleep, cards silent for 3 ms
after entering), whose compute figures vary a little from run to run. The targets hold on the plain model
(the exit status says whether they do); the realistic rows, and the dwell a code needs there, are measured,
not targets.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _baselines
from benchmarks._codes_before import ReaderBefore
from hardware.fakes import IDEAL, PI_ZERO_2W, PI_ZERO_2W_REAL, FakeCard, Realism
from hardware.fakes.pot import Arrival, PiPot
from hardware.readers.rc522 import RC522Reader
from hardware.tag_memory import NTAG_FIRST_PAGE, classic_blocks, ndef_bytes

CODE = "menu-mushroom@5"  # the longest Chaud Devant code: the most pages to read


def carrying(rng: random.Random) -> FakeCard:
    """A random tag (NTAG213 or Classic 1K, never a cascade tag where it is forbidden) with CODE on it."""
    if rng.random() < 0.5:
        uid = bytes([0x04, rng.randrange(256), rng.randrange(256), rng.choice([b for b in range(256) if b != 0x88])])
        card = FakeCard.ntag213(uid + rng.randbytes(3))
        memory = ndef_bytes(CODE)
        card.memory[NTAG_FIRST_PAGE * 4 : NTAG_FIRST_PAGE * 4 + len(memory)] = memory
        return card
    card = FakeCard.classic1k(bytes([rng.choice([b for b in range(256) if b != 0x88])]) + rng.randbytes(3))
    for block, data in classic_blocks(CODE).items():
        card.memory[block * 16 : block * 16 + 16] = data
    return card


# A case: a name, the arrivals of one trial, and which card must be reported (its index), with its code
# when the reader reports codes for it.
Case = tuple[str, Callable[[random.Random], list[Arrival]], tuple[int, ...]]

CASES: list[Case] = [
    ("second card 20-150 ms after a first that stayed 25 ms: the second",
     lambda rng: [Arrival(carrying(rng), 0, 0.025), Arrival(carrying(rng), rng.uniform(0.020, 0.150), 0.050)], (1,)),
    ("two cards 10 ms apart, 25 ms each: both UIDs",
     lambda rng: [Arrival(carrying(rng), 0, 0.025), Arrival(carrying(rng), 0.010, 0.025)], (0, 1)),
    ("one card 25 ms in the field", lambda rng: [Arrival(carrying(rng), 0, 0.025)], (0,)),
]

READERS: list[tuple[str, Callable[..., RC522Reader], bool, bool]] = [
    # (name, reader class, codes reported, the deck knows every tag)
    ("before: every fresh UID's code, via mfrc522", ReaderBefore, True, False),
    ("now: unknown tags' codes, own core", RC522Reader, True, False),
    ("now: a deck that knows its tags", RC522Reader, True, True),
    ("plain deck (no codes)", RC522Reader, False, False),
]


def run_case(make: Callable[..., RC522Reader], codes: bool, known: bool, realism: Realism, case: Case,
             trials: int, seed: int) -> tuple[int, float]:
    """(trials where every wanted card was reported, with its code when codes are wanted; worst poll ms)."""
    _, arrivals_of, wanted = case
    with_code = codes and not known and len(wanted) == 1
    rng = random.Random(seed)
    wins = 0
    with PiPot(realism=realism, make_reader=make) as pot:
        pot.reader.report_codes(codes)
        if known:
            pot.reader.skip_codes_of(lambda uid: True)
        pot.polls.clear()
        for _ in range(trials):
            arrivals = arrivals_of(rng)
            seen: dict[str, str | None] = {}
            for message in pot.passage(arrivals, rng.random()):
                seen.setdefault(message.uid, message.card)
            uids = [arrivals[index].card.uid_hex for index in wanted]
            wins += all(uid in seen and (not with_code or seen[uid] == CODE) for uid in uids)
        return wins, max(pot.polls) * 1000


def latency_sample(make: Callable[..., RC522Reader], codes: bool, known: bool, realism: Realism, count: int,
                   seed: int) -> list[float]:
    """Card → TagSeen: a card resting in the field, entering at a random point of the poll cycle."""
    rng = random.Random(seed + 1000)
    out: list[float] = []
    with PiPot(realism=realism, make_reader=make) as pot:
        pot.reader.report_codes(codes)
        if known:
            pot.reader.skip_codes_of(lambda uid: True)
        period = pot.reader.config.poll_ms / 1000
        for _ in range(count):
            card = carrying(rng)
            enter = pot.clock.now() + rng.random() * period
            pot.schedule.add(card, enter, 0.5)
            while True:
                pot.schedule.apply()
                messages, pause = pot.cycle()
                if messages:
                    out.append((pot.clock.now() - enter) * 1000)
                    break
                pot.sleep(pause)
            pot.chip.leave(card)
            pot.schedule.events.clear()
            pot.clock.advance(2.0)
    return out


def idle_cpu(realism: Realism, seconds: float = 1.0) -> tuple[float, int]:
    """(CPU-bound share of an idle second, SPI transactions in it): SPI cost and charged compute over time."""
    with PiPot(realism=realism) as pot:
        start, transfers = pot.clock.now(), pot.chip.transfers
        charged = pot.compute.charged_s if pot.compute is not None else 0.0
        while pot.clock.now() - start < seconds:
            _, pause = pot.cycle()
            pot.sleep(pause)
        count = pot.chip.transfers - transfers
        spi_s = count * PI_ZERO_2W.per_transaction_s  # the per-transaction part is CPU-bound (ioctl, Python)
        compute_s = (pot.compute.charged_s - charged) if pot.compute is not None else 0.0
        return (spi_s + compute_s) / (pot.clock.now() - start), count


def main() -> int:
    _baselines.pi_driver(Path(__file__).name)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    args = parser.parse_args()
    real = PI_ZERO_2W_REAL
    print(f"{args.trials} trials per case; Pi Zero 2 W model (60 µs + 8 µs per byte per SPI transaction); "
          f"realistic: compute ×{real.compute_scale:g}, sleeps +{real.sleep_overshoot_s * 1e6:.0f} µs, "
          f"card power-up {real.power_up_s * 1000:g} ms\n")
    print("| fake | reader | case | reported | worst poll | card → TagSeen, mean |")
    print("|---|---|---|---:|---:|---:|")
    failures = 0
    for fake_name, realism in (("plain", IDEAL), ("realistic", PI_ZERO_2W_REAL)):
        for reader_name, make, codes, known in READERS:
            latency = statistics.fmean(latency_sample(make, codes, known, realism, max(1, args.trials // 4), 7))
            for index, case in enumerate(CASES):
                wins, worst = run_case(make, codes, known, realism, case, args.trials, seed=index + 1)
                what = " (with its code)" if codes and not known and len(case[2]) == 1 else ""
                print(f"| {fake_name} | {reader_name} | {case[0]}{what} | {wins} / {args.trials} | {worst:.1f} ms "
                      f"| {latency:.1f} ms |", flush=True)
                failures += realism is IDEAL and make is RC522Reader and wins != args.trials  # the target model
    print("\n| fake | idle CPU (Pi Zero 2 W) | SPI transactions per idle second |")
    print("|---|---:|---:|")
    for fake_name, realism in (("plain", IDEAL), ("realistic", PI_ZERO_2W_REAL)):
        share, count = idle_cpu(realism)
        print(f"| {fake_name} | {share * 100:.1f} % | {count} |")
    print("\nDependable dwell for a code (realistic fake, the reader now, one tag the deck lacks, "
          f"{max(20, args.trials // 2)} trials each):")
    for dwell_ms in (25, 30, 35, 40, 50):
        case: Case = ("", lambda rng, d=dwell_ms: [Arrival(carrying(rng), 0, d / 1000)], (0,))
        wins, _ = run_case(RC522Reader, True, False, PI_ZERO_2W_REAL, case, max(20, args.trials // 2), seed=5)
        print(f"  {dwell_ms} ms over the antenna: the code came with {wins} of {max(20, args.trials // 2)}",
              flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
