"""Play latency with 100 open displays, and shutdown time with displays open, on a real `marmite run`.

Each display is a raw /api/stream connection from its own loopback address (127.0.0.x), as phones
and tablets on the Wi-Fi are. Plays are a whole random game POSTed to /api/events with the PIN.
Usage: python benchmarks/bench_network.py [--displays 100] [--games 2] [--shutdowns 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.loopback_clients import Display, Running, loopback
from companion.chaud_devant.simulate import random_game


def play_latencies(server: Running, games: int, seed: int) -> list[float]:
    """Seconds from sending each play to its whole answer, over `games` random games."""
    rng = random.Random(seed)
    times = []
    for _ in range(games):
        for event in random_game(rng, players=4):
            began = time.perf_counter()
            status, answer = server.play(event)
            times.append(time.perf_counter() - began)
            assert status == 200 and answer["accepted"], answer
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(label: str, times: list[float]) -> None:
    ms = [t * 1000 for t in times]
    print(f"| {label} | {len(ms)} | {statistics.median(ms):.2f} | {percentile(ms, 0.99):.2f} | {max(ms):.2f} |")


def hostile(data: Path, slow_count: int) -> None:
    """Every stream slot taken by strangers, `slow_count` slow-header sockets held: plays still answered?"""
    server = Running(data).start()
    streams = []
    for index in range(200):  # 200 tries from 25 addresses: the table admits 128, 8 per address
        display = Display(server, loopback(300 + index % 25))
        (streams if display.status == 200 else []).append(display)
        if display.status != 200:
            display.close()
    slow = []
    for index in range(slow_count):
        sock = server.connect(loopback(index % 40))
        sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        slow.append(sock)
    times = play_latencies(server, 1, 3)
    ms = [t * 1000 for t in times]
    print(f"\nHostile: {len(streams)} streams held by strangers (rest refused 429), {slow_count} slow-header "
          f"connections held; {len(ms)} plays answered: p50 {statistics.median(ms):.2f} ms, "
          f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms")
    server.stop()
    for item in [*streams]:
        item.close()
    for sock in slow:
        sock.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--displays", type=int, default=100)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--shutdowns", type=int, default=5)
    parser.add_argument("--hostile", type=int, default=300, help="slow-header connections held")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Running(Path(tmp) / "data").start()
        print("| plays answered | n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|")
        report("no display open", play_latencies(server, args.games, 1))
        displays = [Display(server, loopback(i)) for i in range(args.displays)]
        assert all(d.status == 200 for d in displays), "a display was refused"
        report(f"{args.displays} displays open", play_latencies(server, args.games, 2))
        missed = sum(not d.read_until(f"id: {server.play({'type': 'undo'})[1]['seq']}\n".encode())
                     for d in displays[:1])
        server.stop()
        for display in displays:
            display.close()
        print(f"\nDisplays that missed the last event: {missed}\n")
        shutdowns = []
        for _ in range(args.shutdowns):
            server = Running(Path(tmp) / "data").start()
            displays = [Display(server, loopback(i)) for i in range(args.displays)]
            shutdowns.append(server.stop())
            for display in displays:
                display.close()
        print(f"Shutdown (SIGTERM → process gone) with {args.displays} displays open, {args.shutdowns} runs: "
              f"median {statistics.median(shutdowns):.3f} s, max {max(shutdowns):.3f} s")
        hostile(Path(tmp) / "hostile", args.hostile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
