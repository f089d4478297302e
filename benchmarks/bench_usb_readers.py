"""Figures for the readers people own: card → `TagSeen` latency, stacked cards, idle CPU, per reader.

* pn532: the real driver and pyserial against the fake PN532 on a pty (115,200 baud byte time charged);
* pcsc: pyscard through a real, private pcscd to a virtual card on Debian's vpcd driver;
* keyboard: evdev's own decoding of the key events a wedge reader sends (through a pipe; no uinput here);
* baseline, in the same run: the simulated reader (drop → queue), the cost of the queue alone.

Run: `python benchmarks/bench_usb_readers.py [--quick]`. Needs pcscd and vsmartcard-vpcd for the pcsc rows.
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.reads import ReaderQueue, TagSeen
from hardware.fakes.pn532_chip import FakeNtag, FakePn532
from hardware.fakes.vicc import PrivatePcscd, VirtualCard, pcscd_available, use_pcscd
from hardware.readers.keyboard import KeyboardReader
from hardware.readers.pcsc import PcscReader
from hardware.readers.pn532 import POLL_MS, Pn532Reader
from hardware.readers.sim import SimReader
from hardware.tag_memory import ndef_bytes


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_line(name: str, values: list[float], missed: int = 0) -> str:
    ms = [v * 1000 for v in values]
    lost = f", missed {missed}" if missed else ""
    return (f"{name}: p50 {statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms, max {max(ms):.2f} ms "
            f"(n = {len(ms)}{lost})")


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """Time on a CPU of a thread (`tid`) or of every thread of a process, from /proc's schedstat (ns)."""
    if tid is not None:
        paths = [Path(f"/proc/{pid}/task/{tid}/schedstat")]
    else:
        paths = list(Path(f"/proc/{pid}/task").glob("*/schedstat"))
    total = 0
    for path in paths:
        try:
            total += int(path.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9


def reader_tid(reader: object) -> int:
    thread = reader._thread._thread  # type: ignore[attr-defined]
    assert thread is not None and thread.native_id is not None
    return int(thread.native_id)


def idle_cpu(tid: int, seconds: float, other_pid: int | None = None) -> str:
    """Share of one core the reader thread (and `other_pid`, e.g. pcscd) uses with no card."""
    before = cpu_seconds(os.getpid(), tid)
    other_before = cpu_seconds(other_pid) if other_pid else 0.0
    time.sleep(seconds)
    used = (cpu_seconds(os.getpid(), tid) - before) / seconds * 100
    text = f"idle CPU of the reader thread: {used:.3f} % of a core over {seconds:.0f} s"
    if other_pid:
        text += f"; pcscd (all its threads): {(cpu_seconds(other_pid) - other_before) / seconds * 100:.3f} %"
    return text


def wait_tag(out: ReaderQueue, timeout: float) -> tuple[TagSeen, float] | None:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = out.get(timeout=left)
        except queue.Empty:
            return None
        if isinstance(message, TagSeen):
            return message, time.monotonic()
    return None


def drain(out: ReaderQueue) -> None:
    while True:
        try:
            out.get_nowait()
        except queue.Empty:
            return


def wait_ok(out: ReaderQueue) -> None:
    from companion.reads import ReaderHealth

    while True:
        message = out.get(timeout=15)
        if isinstance(message, ReaderHealth) and message.ok:
            return


def bench_sim(trials: int) -> None:
    reader = SimReader()
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    drain(out)
    values = []
    for index in range(trials):
        started = time.monotonic()
        reader.drop(f"04{index:012x}")
        got = wait_tag(out, 1.0)
        assert got is not None
        values.append(got[1] - started)
    print(latency_line("baseline sim: drop → TagSeen taken off the queue", values))


def bench_pn532(trials: int, idle_s: float) -> None:
    with FakePn532() as chip:
        reader = Pn532Reader.from_options({"port": chip.port})
        out: ReaderQueue = queue.Queue()
        reader.start(out)
        wait_ok(out)
        print(idle_cpu(reader_tid(reader), idle_s))
        for codes in (False, True):
            reader.report_codes(codes)
            values, missed = [], 0
            for index in range(trials):
                card = FakeNtag(bytes.fromhex(f"04{index:06x}a1b2c3"))
                card.write_user(ndef_bytes(f"pea-{index % 10}a"))
                time.sleep(0.005 + (index % 7) * 0.003)  # not in step with the poll
                started = time.monotonic()
                chip.put(card)
                got = wait_tag(out, 2.0)
                chip.take(card)
                if got is None:
                    missed += 1
                else:
                    values.append(got[1] - started)
            what = "with its NTAG code read" if codes else "UID only"
            print(latency_line(f"pn532 card → TagSeen, {what} (poll_ms {POLL_MS}, 115,200 baud)", values, missed))
        reader.report_codes(False)
        for gap_ms, dwell_ms in ((0, 60), (10, 60), (0, 30)):
            both = 0
            for index in range(trials):
                a = FakeNtag(bytes.fromhex(f"05{index:06x}a1b2c3"))
                b = FakeNtag(bytes.fromhex(f"06{index:06x}a1b2c3"))
                time.sleep((index % 7) * 0.003)
                chip.put(a)
                time.sleep(gap_ms / 1000)
                chip.put(b)
                time.sleep(dwell_ms / 1000)
                chip.take(a)
                chip.take(b)
                seen = set()
                while (got := wait_tag(out, 0.15)) is not None:
                    seen.add(got[0].uid)
                both += seen == {a.uid.hex(), b.uid.hex()}
                time.sleep(0.05)  # each pair has UIDs of its own: no debounce to wait out
            print(f"pn532 stacked: two cards {gap_ms} ms apart, both {dwell_ms} ms in the field: "
                  f"both seen {both}/{trials}")
        reader.close()


def bench_pcsc(trials: int, idle_s: float) -> None:
    why = pcscd_available()
    try:
        import smartcard.scard  # noqa: F401
    except ImportError:
        why = why or "pyscard is not installed: pip install -e '.[readers]'"
    if why:
        print(f"pcsc: not measured ({why})")
        return
    with PrivatePcscd() as daemon:
        use_pcscd(daemon)
        reader = PcscReader("Marmite virtual PCD 00 00")
        out: ReaderQueue = queue.Queue()
        reader.start(out)
        wait_ok(out)
        pcscd_pid = _pcscd_pid(daemon)
        print(idle_cpu(reader_tid(reader), idle_s, pcscd_pid))
        for codes in (False, True):
            reader.report_codes(codes)
            values, missed = [], 0
            for index in range(trials):
                card = VirtualCard(bytes.fromhex(f"04{index:06x}a1b2c3"), port=daemon.port)
                card.write_user(ndef_bytes(f"pea-{index % 10}a"))
                started = time.monotonic()
                card.place()
                got = wait_tag(out, 3.0)
                card.lift()
                if got is None:
                    missed += 1
                else:
                    values.append(got[1] - started)
                time.sleep(0.45)  # pcscd sees the reader empty again
            what = "with its NTAG code read" if codes else "UID only"
            print(latency_line(f"pcsc card put down → TagSeen, {what} (pcscd + vpcd)", values, missed))
        for dwell_ms in (100, 250, 500):
            seen = 0
            for index in range(trials):
                card = VirtualCard(bytes.fromhex(f"07{index:06x}a1b2c3"), port=daemon.port)
                card.place()
                time.sleep(dwell_ms / 1000)
                card.lift()
                seen += wait_tag(out, 0.6) is not None
                time.sleep(0.45)
            print(f"pcsc card resting {dwell_ms} ms then lifted: seen {seen}/{trials}")
        reader.close()


def _pcscd_pid(daemon: PrivatePcscd) -> int | None:
    process = daemon._process
    return None if process is None else process.pid


def bench_keyboard(trials: int, idle_s: float) -> None:
    try:
        from hardware.fakes.evdev_device import RecordedBackend, RecordedDevice, hid_stream
    except ImportError:
        print("keyboard: not measured (python-evdev is not installed: pip install -e '.[readers]')")
        return

    device = RecordedDevice("/dev/input/event9", "IC Reader")
    reader = KeyboardReader("IC Reader", backend=RecordedBackend(device))
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    wait_ok(out)
    print(idle_cpu(reader_tid(reader), idle_s))
    values = []
    for index in range(trials):
        events = hid_stream(f"04{index:06X}A1B2C3")
        started = time.monotonic()
        device.feed(events)  # the whole line at once: what is left is decoding, not the reader's typing
        got = wait_tag(out, 1.0)
        assert got is not None and got[0].uid == f"04{index:06x}a1b2c3"
        values.append(got[1] - started)
    print(latency_line("keyboard: Enter received → TagSeen (evdev decoding of 14 hex digits)", values))
    typing = hid_stream("04A1B2C3D4E5F6")
    print(f"keyboard: the reader's own typing of a 7-byte UID at 4 ms a key: "
          f"{(typing[-1].timestamp() - typing[0].timestamp()) * 1000:.0f} ms (model; readers type 2-8 ms a key)")
    reader.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few trials")
    args = parser.parse_args()
    trials = 5 if args.quick else 50
    idle_s = 1.0 if args.quick else 5.0
    runs: list[tuple[str, Callable[[], None]]] = [
        ("baseline", lambda: bench_sim(trials * 10)),
        ("keyboard", lambda: bench_keyboard(trials, idle_s)),
        ("pn532", lambda: bench_pn532(trials, idle_s)),
        ("pcsc", lambda: bench_pcsc(max(5, trials // 2), idle_s)),
    ]
    for _name, run in runs:
        run()
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
