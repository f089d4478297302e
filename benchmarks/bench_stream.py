"""Latency from a tag handed to the table service to the message received by each of N live displays.

Runs the real stack in one process: the server of `marmite run` (waitress) serving the Flask app, N HTTP clients reading
/api/stream, and whole random games whose cards are handed to `TableService.tag_seen`; with
`--game buffet`, Sus au buffet ! games whose plates and physical mouse-card copies are read.
Usage: python benchmarks/bench_stream.py [--displays 10] [--games 2] [--game chaud_devant|buffet]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.table import TableService
from companion.tags import simulated_uid
from marmite.games import DEMOS, GAMES
from marmite.serve import table_app
from web_ui.app import stop_streams
from web_ui.server import make_server


class Display(threading.Thread):
    """One connected display: records when each message id arrives."""

    def __init__(self, port: int, source: str) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.source = source
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.changed = threading.Condition()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, source_address=(self.source, 0))
        connection.request("GET", "/api/stream")
        response = connection.getresponse()
        self.ready.set()
        current: int | None = None
        while line := response.readline():
            text = line.decode().rstrip("\n")
            if text.startswith("id: "):
                current = int(text[4:])
            elif text.startswith("data: ") and current is not None:
                json.loads(text[6:])
                with self.changed:
                    self.arrived[current] = time.perf_counter()
                    self.changed.notify_all()
                current = None

    def wait_for(self, seq: int, timeout: float = 10) -> float:
        with self.changed:
            self.changed.wait_for(lambda: seq in self.arrived, timeout=timeout)
            return self.arrived[seq]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--displays", type=int, default=10)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--game", default="chaud_devant", choices=sorted(GAMES.kinds))
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="marmite-bench-"))
    # The read guard's clock moves 3 s a read, as at a real table: a physical copy comes back long after its
    # double-read window (the latency itself is timed with perf_counter).
    ticks = itertools.count(step=3)
    service = TableService.open(data, GAMES, clock=lambda: float(next(ticks)))
    app = table_app(service, pin="0000", data_dir=data)
    server = make_server(app, "127.0.0.1", 0)  # the server `marmite run` uses, with its stream limits
    threading.Thread(target=server.run, daemon=True).start()
    # Each display from its own loopback address, as tablets and phones are distinct devices to the
    # server (it admits a few streams per address).
    displays = [Display(server.effective_port, f"127.0.0.{2 + index}") for index in range(args.displays)]
    for display in displays:
        display.start()
        display.ready.wait(5)
    time.sleep(0.2)
    latencies: list[float] = []
    for game in range(args.games):
        copies: dict[str, int] = {}
        demo = DEMOS[args.game]
        for event in demo.random_game(random.Random(game), 4):
            tag = demo.demo_tag(event, copies)
            if tag is None:
                service.submit(event, source="bench")
                continue
            start = time.perf_counter()
            submission = service.tag_seen(simulated_uid(tag), source="bench")
            assert submission is not None and submission.accepted
            latencies += [display.wait_for(submission.seq) - start for display in displays]
    stop_streams(app)
    server.close()
    ms = [value * 1000 for value in latencies]
    print(json.dumps({
        "game": args.game, "displays": args.displays, "cards": len(ms) // args.displays, "samples": len(ms),
        "p50_ms": round(statistics.median(ms), 2), "p99_ms": round(percentile(ms, 0.99), 2),
        "max_ms": round(max(ms), 2),
    }))


if __name__ == "__main__":
    main()
