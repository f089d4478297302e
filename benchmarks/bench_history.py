"""A year of games costs nothing per request: `marmite run` with 1 and with 1,000 past games.

For each size, a data dir is filled through `marmite import` (simulated whole games, table noise
included), then the real command is started: seconds from launch to the first page served, the
median time of `GET /setup` and `GET /api/games`, and the server's peak resident memory (VmHWM,
Linux). Target: each figure with 1,000 games at most 1.5 times the figure with 1, memory <= 60 MB.
The pages list a page of games (the setup page the newest 20, /api/games 50 by default), so the
figure with 20 past games is also given: against it, the pages show the same number of rows and
only the history behind them differs.
Usage: python benchmarks/bench_history.py [--games 1 20 1000] [--requests 20]
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.chaud_devant.simulate import TABLE_NOISE, simulate

PIN = "0000"
TARGET_RATIO = 1.5
TARGET_MB = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fill(data: Path, games: int) -> int:
    """`games` simulated games recorded through `marmite import`; the number of events."""
    rng = random.Random(games)
    lines = []
    for _ in range(games):
        for event in simulate(rng, players=rng.choice((3, 4, 5)), noise=TABLE_NOISE).events:
            lines.append(json.dumps(event, ensure_ascii=False))
    done = subprocess.run([sys.executable, "-m", "marmite.cli", "import", "-", "--data", str(data)],
                          input="\n".join(lines) + "\n", text=True, capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"import failed: {done.stderr}")
    return len(lines)


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def timed_get(port: int, path: str) -> float:
    began = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as answer:
        answer.read()
    return time.perf_counter() - began


def measure(data: Path, requests: int) -> dict[str, float]:
    port = free_port()
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "marmite.cli", "run", "--host", "127.0.0.1", "--port",
                                str(port), "--data", str(data), "--pin", PIN],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                timed_get(port, "/")
                break
            except OSError:
                time.sleep(0.01)
        startup = time.perf_counter() - began
        timed_get(port, "/setup")  # the first request compiles the templates
        timed_get(port, "/api/games")
        setup = statistics.median(timed_get(port, "/setup") for _ in range(requests))
        games = statistics.median(timed_get(port, "/api/games") for _ in range(requests))
        return {"startup_s": startup, "setup_ms": setup * 1000, "api_games_ms": games * 1000,
                "peak_rss_mb": peak_mb(process.pid)}
    finally:
        process.terminate()
        process.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 20, 1000])
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        for games in args.games:
            data = Path(tmp) / f"games-{games}"
            events = fill(data, games)
            figures = measure(data, args.requests)
            results[games] = figures
            print(f"{games:5} past games ({events:7,} events): start-up {figures['startup_s']:.3f} s, "
                  f"/setup {figures['setup_ms']:.1f} ms, /api/games {figures['api_games_ms']:.1f} ms, "
                  f"peak RSS {figures['peak_rss_mb']:.1f} MB", flush=True)
    if len(results) >= 2:
        large = results[max(results)]
        ok = True
        for size in sorted(results)[:-1]:
            small = results[size]
            for name in ("startup_s", "setup_ms", "api_games_ms", "peak_rss_mb"):
                ratio = large[name] / small[name]
                ok &= ratio <= TARGET_RATIO or size != min(results)
                print(f"{name:14} ratio {max(results)} / {size} games: {ratio:.2f} (target <= {TARGET_RATIO})")
        ok &= large["peak_rss_mb"] <= TARGET_MB
        print(f"peak RSS {large['peak_rss_mb']:.1f} MB (target <= {TARGET_MB:.0f} MB): {'meets' if ok else 'MISSES'}"
              " the targets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
