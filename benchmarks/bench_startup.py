"""`marmite run` start-up to first page served, and resident memory while serving a whole game.

Starts the real command in a subprocess (fresh data dir each time), times until GET / answers,
then plays a game through the virtual pot with 10 displays on the stream and reads VmRSS (Linux).
Usage: python benchmarks/bench_startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from companion.chaud_devant.simulate import random_game

PIN = "0000"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start(data: Path, port: int) -> tuple[subprocess.Popen[bytes], float]:
    """The server process and its seconds from launch to the first page served."""
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "marmite.cli", "run", "--host", "127.0.0.1", "--port",
                                str(port), "--data", str(data), "--pin", PIN],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as answer:
                answer.read()
                return process, time.perf_counter() - began
        except OSError:
            time.sleep(0.01)


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def listen(port: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", "/api/stream")
    response = connection.getresponse()
    while response.readline():
        pass


def post(port: int, path: str, body: dict[str, object]) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                     method="POST", headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    urllib.request.urlopen(request, timeout=10).read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    startups = []
    peak: float | None = None
    for run in range(args.runs):
        port = free_port()
        process, seconds = start(Path(tempfile.mkdtemp(prefix="marmite-bench-")), port)
        startups.append(seconds)
        if run == 0:
            for _ in range(10):
                threading.Thread(target=listen, args=(port,), daemon=True).start()
            for event in random_game(random.Random(run), players=5):
                if event["type"] == "card":
                    post(port, "/api/drop", {"code": event["card"]})
                else:
                    post(port, "/api/events", event)
                for page in ("/fragment/table",) if event["type"] == "card" else ():
                    urllib.request.urlopen(f"http://127.0.0.1:{port}{page}").read()
            peak = rss_mb(process.pid)
        process.terminate()
        process.wait(10)
    print(json.dumps({
        "runs": args.runs, "startup_median_s": round(statistics.median(startups), 3),
        "startup_max_s": round(max(startups), 3),
        "rss_after_game_mb": round(peak, 1) if peak is not None else None,
    }))


if __name__ == "__main__":
    main()
