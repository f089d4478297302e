"""Pico bridge figures: frames/s the host decodes; line → reader queue and line → table event latency.

Run: `python benchmarks/bench_bridge.py [--quick]`. Prints the machine, then one line per figure.
"""

from __future__ import annotations

import argparse
import os
import platform
import queue
import random
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.reads import ReaderMessage, TagSeen
from firmware_bridge import protocol as p
from firmware_bridge.host_reader import UsbReader
from firmware_bridge.session import HostSession
from marmite.games import GAMES


def machine() -> str:
    """nproc, CPU model and Python version, for the record."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"nproc={os.cpu_count()} cpu={model!r} python={platform.python_version()}"


def tag_stream(count: int) -> bytes:
    """`count` TAG frames with distinct seqs, 7-byte UIDs, as the board sends them."""
    frames = []
    for index in range(count):
        uid = bytes((0x04, index >> 16 & 0xFF, index >> 8 & 0xFF, index & 0xFF, 0xA1, 0xB2, 0xC3))
        frames.append(p.encode_frame(p.Frame(p.TAG, index % p.SEQ_MODULO, p.tag_body(index // p.SEQ_MODULO, uid))))
    return b"".join(frames)


def decode_rate(count: int, chunk: int = 4096) -> tuple[float, float]:
    """Frames/s through the bare decoder, and through the host session (decode, dedupe, ACK)."""
    stream = tag_stream(count)
    decoder = p.FrameDecoder()
    start = time.perf_counter()
    for offset in range(0, len(stream), chunk):
        decoder.feed(stream[offset:offset + chunk])
    bare = decoder.frames_ok / (time.perf_counter() - start)
    assert decoder.frames_ok == count
    session = HostSession()
    delivered = 0
    start = time.perf_counter()
    for offset in range(0, len(stream), chunk):
        for tag in session.receive(stream[offset:offset + chunk]).tags:
            session.done(tag)  # the table is done at once: the ACK is built here
            delivered += 1
    full = session.decoder.frames_ok / (time.perf_counter() - start)
    assert session.decoder.frames_ok == count
    return bare, full


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def drain_acks(master: int, stop: threading.Event) -> None:
    """The board's side reads what the host sends (ACKs), as the firmware does."""
    while not stop.is_set():
        try:
            os.read(master, 4096)
        except OSError:
            return


def line_latency(count: int) -> list[float]:
    """Seconds from a TAG frame written on the pty to its TagSeen taken off the reader queue."""
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    out: queue.Queue[ReaderMessage] = queue.Queue()
    reader = UsbReader(port)
    reader.start(out)
    stop = threading.Event()

    threading.Thread(target=drain_acks, args=(master, stop), daemon=True).start()
    time.sleep(0.3)  # let the host open the port
    samples = []
    try:
        for index in range(count):
            uid = bytes((0x04, 0x10, index >> 8 & 0xFF, index & 0xFF, 0xA1, 0xB2, 0xC3))
            frame = p.encode_frame(p.Frame(p.TAG, index + 1, p.tag_body(7, uid)))
            written = time.perf_counter()
            os.write(master, frame)
            while True:
                item = out.get(timeout=5)
                if isinstance(item, TagSeen):
                    samples.append(time.perf_counter() - written)
                    break
    finally:
        stop.set()
        reader.close()
        os.close(master)
        os.close(slave)
    return samples


def table_latency(count: int) -> list[float]:
    """Seconds from a TAG frame written on the pty to the table service announcing the journaled card event.

    The whole host path of a real table: usb reader, reader pump, tag map, referee, durable journal write.
    """
    import tempfile

    from companion.chaud_devant.cards import ALL_CODES
    from companion.table import Message, TableService
    from companion.tags import TagMap
    from marmite.wiring import ReaderPump

    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()
    announced: queue.Queue[Message] = queue.Queue()
    samples = []
    with tempfile.TemporaryDirectory() as data:
        uids = {code: bytes((0x04, 0x30, index, 0xA1, 0xB2, 0xC3, 0xD4)) for index, code in enumerate(ALL_CODES)}
        tags = TagMap(GAMES.tag_codes(), {uid.hex(): code for code, uid in uids.items()})
        service = TableService.open(Path(data), GAMES)
        service.tags = tags
        service.add_listener(lambda message: announced.put(message) if message.kind in ("card", "refused") else None)
        pump = ReaderPump(service, UsbReader(os.ttyname(slave))).start()

        threading.Thread(target=drain_acks, args=(master, stop), daemon=True).start()
        time.sleep(0.3)
        deck: list[str] = []
        try:
            for index in range(count):
                if service.state()["phase"] != "play":  # a fresh 3-player round, outside the timing
                    service.submit({"type": "new_game", "players": ["A", "B", "C"], "dealer": "C"})
                    for name, menu in (("A", "pea"), ("B", "onion"), ("C", "none")):
                        service.submit({"type": "menu", "player": name, "menu": menu})
                    deck = list(ALL_CODES)
                code = deck.pop(0)
                frame = p.encode_frame(p.Frame(p.TAG, index + 1, p.tag_body(7, uids[code])))
                written = time.perf_counter()
                os.write(master, frame)
                message = announced.get(timeout=5)
                samples.append(time.perf_counter() - written)
                if message.kind != "card":
                    raise RuntimeError(f"{code} was refused: {message.reason}")
        finally:
            stop.set()
            pump.close()
            service.close()
            os.close(master)
            os.close(slave)
    return samples


def card_latency(count: int) -> list[float]:
    """Seconds from a card entering the fake RC522's field to its TagSeen (firmware loop included)."""
    from firmware_bridge.simulator import SimulatedPico
    from hardware.fakes.cards import FakeCard

    samples = []
    out: queue.Queue[ReaderMessage] = queue.Queue()
    pause = random.Random(5)
    with SimulatedPico() as pico:
        reader = UsbReader(find_ports=pico.find_ports)
        reader.start(out)
        time.sleep(0.5)
        try:
            for index in range(count):
                card = FakeCard.ntag213(bytes((0x04, 0x20, index >> 8 & 0xFF, index & 0xFF, 1, 2, 3)))
                time.sleep(pause.uniform(0, 0.05))  # cards arrive at any point of the scan cycle
                entered = time.perf_counter()
                pico.chip.enter(card)
                while True:
                    item = out.get(timeout=5)
                    if isinstance(item, TagSeen):
                        samples.append(time.perf_counter() - entered)
                        if item.done is not None:
                            item.done()  # acknowledged, or the board's pending list would fill up
                        break
                pico.chip.leave(card)
        finally:
            reader.close()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    args = parser.parse_args()
    frames, tags, cards = (20_000, 200, 20) if args.quick else (200_000, 2_000, 100)
    print(machine())
    bare, full = decode_rate(frames)
    print(f"host decode: {bare:,.0f} frames/s (decoder alone), {full:,.0f} frames/s (with dedupe and ACK), "
          f"{frames} TAG frames in 4 KiB chunks")
    latency = line_latency(tags)
    print(f"TAG on the line -> TagSeen on the queue, over a pty: p50 {percentile(latency, 0.5) * 1e3:.2f} ms, "
          f"p99 {percentile(latency, 0.99) * 1e3:.2f} ms, mean {statistics.fmean(latency) * 1e3:.2f} ms, n={tags}")
    latency = table_latency(tags // 2)
    print(f"TAG on the line -> card event journaled and announced by the table service: "
          f"p50 {percentile(latency, 0.5) * 1e3:.2f} ms, p99 {percentile(latency, 0.99) * 1e3:.2f} ms, "
          f"mean {statistics.fmean(latency) * 1e3:.2f} ms, n={len(latency)}")
    latency = card_latency(cards)
    print(f"card enters the fake field -> TagSeen (firmware loop, 25 ms scan period): "
          f"p50 {percentile(latency, 0.5) * 1e3:.1f} ms, p99 {percentile(latency, 0.99) * 1e3:.1f} ms, n={cards}")


if __name__ == "__main__":
    main()
