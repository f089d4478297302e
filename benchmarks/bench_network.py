"""Play latency with 100 open displays, and shutdown time with displays open, on a real `marmite run`.

Each display is a raw /api/stream connection from its own loopback address (127.0.0.x), as phones
and tablets on the Wi-Fi are. Plays are a whole random game POSTed to /api/events with the PIN.
Silent sockets (issue 19): plays answered, and their p50/p95, with 1,000 connections from 50 addresses
that never send a byte, then with 2,400 (every address at its 48: beyond the table's 2,000), against the
same plays with no load in the same run; and the stream places kept for the PIN holder with strangers'
streams full.
Usage: python benchmarks/bench_network.py [--displays 100] [--games 2] [--shutdowns 5] [--idle 1000]
       python benchmarks/bench_network.py --only idle     (the silent-socket figures alone)
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

from benchmarks.loopback_clients import Display, Running, loopback, plays_answered, raise_file_limit, still_open
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


def play_list(count: int, seed: int) -> list[dict[str, object]]:
    """`count` plays of random games (each game starts with its new_game)."""
    rng = random.Random(seed)
    plays: list[dict[str, object]] = []
    while len(plays) < count:
        plays += random_game(rng, players=4)
    return plays[:count]


def silent(data: Path, sockets: int, addresses: int, plays: int) -> None:
    """Plays answered within 3 s (and p50/p95/max) with `sockets` silent connections from `addresses`
    addresses, after the same number of plays with none (the baseline, same server, same run)."""
    raise_file_limit(sockets + 600)
    server = Running(data).start()
    base = plays_answered(server, play_list(plays, 5), timeout=3)
    held = [server.connect(loopback(500 + i % addresses)) for i in range(sockets)]
    loaded = plays_answered(server, play_list(plays, 6), timeout=3)
    kept = sum(still_open(sock) for sock in held)
    streams = [Display(server, loopback(700 + i % 17)) for i in range(17 * 8)]
    tablet = Display(server, "127.0.0.1", headers={"X-Table-Pin": server.pin})
    strangers = sum(d.status == 200 for d in streams)
    server.stop()
    for sock in held:
        sock.close()
    for display in [*streams, tablet]:
        display.close()
    for label, times in ((f"no load (baseline), {plays} plays", base),
                         (f"{sockets} silent sockets from {addresses} addresses", loaded)):
        ms = [t * 1000 for t in times]
        print(f"| {label} | {len(times)}/{plays} | {statistics.median(ms):.2f} | {percentile(ms, 0.95):.2f} | "
              f"{max(ms):.2f} |")
    print(f"\nSilent sockets still held by the table after the plays: {kept} of {sockets}; with {strangers} "
          f"strangers' streams open (the rest refused 429), the PIN holder's stream: {tablet.status}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--displays", type=int, default=100)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--shutdowns", type=int, default=5)
    parser.add_argument("--hostile", type=int, default=300, help="slow-header connections held")
    parser.add_argument("--idle", type=int, default=1000, help="silent connections held (from 50 addresses)")
    parser.add_argument("--only", choices=["idle"], help="run only the silent-socket figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print("| plays answered within 3 s | answered | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|")
        silent(Path(tmp) / "idle", args.idle, 50, 60)
        silent(Path(tmp) / "idle-full", 50 * 48, 50, 60)
        if args.only == "idle":
            return 0
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
