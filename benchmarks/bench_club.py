"""A club night at speed: N simulated tables (real table services and links) play through a real
`marmite club` (its own Mosquitto) on loopback. Measures table event → board update (the board's live
stream saying the hub holds that event), the hub's CPU and memory, and, as the baseline measured in the
same run, a bare QoS 1 round trip through the same Mosquitto at the same message rate.

Usage: python benchmarks/bench_club.py [--tables 20] [--players 5] [--seconds 30] [--pace 0.5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.broker import free_port
from club.demo import start_tables
from club.topics import ClubURL
from marmite.games import DEMOS, GAMES

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_mb(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class BoardClient(threading.Thread):
    """Reads the board's live stream; the time each table's held seq was first seen."""

    def __init__(self, port: int, submitted: dict[tuple[int, int], float]) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.submitted = submitted
        self.latencies: list[float] = []
        self.held: dict[int, int] = {}

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port)
        connection.request("GET", "/api/board/stream")
        response = connection.getresponse()
        while line := response.readline():
            text = line.decode().rstrip("\n")
            if not text.startswith("data: "):
                continue
            now = time.monotonic()
            for table, held in json.loads(text[6:]).items():
                number = int(table)
                for seq in range(self.held.get(number, 0) + 1, held + 1):
                    began = self.submitted.get((number, seq))
                    if began is not None:
                        self.latencies.append(now - began)
                self.held[number] = max(held, self.held.get(number, 0))


def broker_round_trip(url: ClubURL, rate: float, seconds: float) -> list[float]:
    """The baseline: QoS 1 publish → delivery back to the same client through the same Mosquitto."""
    sent: dict[int, float] = {}
    took: list[float] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-baseline")
    client.username_pw_set(url.user, url.password)
    topic = f"marmite/{url.club}/bench/ping"

    def on_message(c: mqtt.Client, u: object, message: mqtt.MQTTMessage) -> None:
        number = int(message.payload)
        took.append(time.monotonic() - sent[number])

    client.on_message = on_message
    client.connect(url.host, url.port)
    client.loop_start()
    client.subscribe(topic, qos=1)
    time.sleep(0.5)
    deadline = time.monotonic() + seconds
    number = 0
    while time.monotonic() < deadline:
        sent[number] = time.monotonic()
        client.publish(topic, str(number), qos=1)
        number += 1
        time.sleep(1 / rate)
    time.sleep(1)
    client.disconnect()
    client.loop_stop()
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a table's events")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-club-") as tmp:
        root = Path(tmp)
        mqtt_port, web_port = free_port(), free_port()
        console = (root / "console.txt").open("wb")
        hub = subprocess.Popen(
            [sys.executable, "-m", "marmite.cli", "club", "--data", str(root / "hub"), "--name", "bench",
             "--tables", str(args.tables), "--mqtt-host", "127.0.0.1", "--mqtt-port", str(mqtt_port),
             "--host", "127.0.0.1", "--port", str(web_port), "--pin", "135790"],
            cwd=ROOT, stdout=console, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            urls: dict[int, ClubURL] = {}
            deadline = time.monotonic() + 30
            while len(urls) < args.tables and time.monotonic() < deadline:
                text = (root / "console.txt").read_text(errors="replace")
                found = re.findall(r"Table (\d+) : marmite run --club '([^']+)'", text)
                urls = {int(n): ClubURL.parse(u) for n, u in found}
                time.sleep(0.1)
            broker_pid = int((root / "hub" / "mosquitto" / "mosquitto.pid").read_text())
            hub_url = ClubURL("127.0.0.1", mqtt_port, "hub",
                              json.loads((root / "hub" / "credentials.json").read_text())["hub"], "bench")
            submitted: dict[tuple[int, int], float] = {}

            def on_submitted(table: int, seq: int, at: float) -> None:
                submitted[(table, seq)] = at

            board = BoardClient(web_port, submitted)
            board.start()
            cpu_hub, cpu_broker = cpu_seconds(hub.pid), cpu_seconds(broker_pid)
            began = time.monotonic()
            tables = start_tables(urls, root / "tables", GAMES, DEMOS, pace=args.pace, players=args.players,
                                  on_submitted=on_submitted)
            time.sleep(args.seconds)
            for table in tables:
                table._stop.set()
            elapsed = time.monotonic() - began
            hub_cpu = (cpu_seconds(hub.pid) - cpu_hub) / elapsed
            broker_cpu = (cpu_seconds(broker_pid) - cpu_broker) / elapsed
            caught = time.monotonic() + 10
            while time.monotonic() < caught and any(board.held.get(t.number, 0) < t.service.journal.last_seq
                                                    for t in tables):
                time.sleep(0.1)
            events = sum(t.events for t in tables)
            rss, peak = memory_mb(hub.pid, "VmRSS"), memory_mb(hub.pid, "VmHWM")
            lost = sum(max(0, t.service.journal.last_seq - board.held.get(t.number, 0)) for t in tables)
            for table in tables:
                table.close()
            rate = events / elapsed
            # The hub's credentials are the hub's alone (its client id is its user): the hub is paused meanwhile,
            # or each would push the other off the broker.
            os.kill(hub.pid, signal.SIGSTOP)
            try:
                baseline = broker_round_trip(hub_url, rate, min(10.0, args.seconds))
            finally:
                os.kill(hub.pid, signal.SIGCONT)
        finally:
            hub.terminate()
            hub.wait(timeout=30)
            console.close()
    latencies = board.latencies
    print(f"{args.tables} tables × {args.players} players, {events} events in {elapsed:.0f} s "
          f"({rate:.0f} events/s, one per table every {args.pace} s), hub with its own Mosquitto on loopback\n")
    print("| measure | p50 | p99 | max | samples |")
    print("|---|---|---|---|---|")
    print(f"| table event → board update | {percentile(latencies, .5) * 1000:.0f} ms | "
          f"{percentile(latencies, .99) * 1000:.0f} ms | {max(latencies) * 1000:.0f} ms | {len(latencies)} |")
    print(f"| baseline: bare QoS 1 round trip through the same Mosquitto, same rate | "
          f"{percentile(baseline, .5) * 1000:.1f} ms | {percentile(baseline, .99) * 1000:.1f} ms | "
          f"{max(baseline) * 1000:.1f} ms | {len(baseline)} |")
    print(f"\nhub process: CPU {hub_cpu * 100:.0f} % of one core, RSS {rss:.0f} MB (peak {peak:.0f} MB); "
          f"Mosquitto: CPU {broker_cpu * 100:.0f} % of one core")
    print(f"events not on the board 10 s after the tables stopped: {lost}")
    ok = percentile(latencies, .99) <= 1.0 and peak <= 80 and lost == 0
    print(f"targets (p99 ≤ 1 s, hub RSS ≤ 80 MB, nothing missing): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
