"""A club night with real tables: N `marmite run --club` processes (each its own data dir, port and
credentials) play through one `marmite club` (its own Mosquitto) on loopback. Measures table event → board
update (the event posted to the table's API until the board's live stream says the hub holds it), the hub's
CPU and memory, the catch-up after the hub is SIGKILLed and started again while the tables play on, and the
hub's memory while one table's credentials flood it with the largest messages the broker lets through.

Usage: nice -n 10 .venv/bin/python benchmarks/bench_club_tables.py [--tables 20] [--seconds 30] [--pace 1.0]
"""

from __future__ import annotations

import argparse
import os
import random
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_club import BoardClient, cpu_seconds, memory_mb, percentile
from benchmarks.loopback_clients import Running
from club.broker import free_port
from club.store import MAX_ROW_BYTES
from club.topics import ClubURL, Topics
from companion.chaud_devant import simulate

ROOT = Path(__file__).resolve().parents[1]


class Hub:
    """`marmite club` in a subprocess; its console in a file."""

    def __init__(self, root: Path, tables: int) -> None:
        self.root = root
        self.tables = tables
        self.mqtt_port, self.web_port = free_port(), free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.urls: dict[int, str] = {}

    def start(self) -> Hub:
        console = (self.root / "console.txt").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "marmite.cli", "club", "--data", str(self.root / "hub"), "--name", "bench",
             "--tables", str(self.tables), "--mqtt-host", "127.0.0.1", "--mqtt-port", str(self.mqtt_port),
             "--host", "127.0.0.1", "--port", str(self.web_port), "--pin", "135790"],
            cwd=ROOT, stdout=console, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        console.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = (self.root / "console.txt").read_text(errors="replace")
            found = re.findall(r"Table (\d+) : marmite run --club '([^']+)'", text)
            if len(found) >= self.tables:
                self.urls = {int(n): url for n, url in found}
                return self
            time.sleep(0.1)
        raise RuntimeError("marmite club did not start")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def held(self) -> dict[int, int]:
        import sqlite3

        db = sqlite3.connect(f"file:{self.root / 'hub' / 'club.sqlite3'}?mode=ro", uri=True, timeout=10)
        try:
            return dict(db.execute("SELECT table_no, MAX(seq) FROM rows GROUP BY table_no").fetchall())
        finally:
            db.close()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)


class Player(threading.Thread):
    """Posts a random Chaud Devant game's events to one table, one every `pace` seconds (a new game after
    each); notes when each was journaled (its seq: the table's journal length after it)."""

    def __init__(self, table: Running, number: int, pace: float, submitted: dict[tuple[int, int], float]) -> None:
        super().__init__(daemon=True)
        self.table, self.number, self.pace, self.submitted = table, number, pace, submitted
        self.stop = threading.Event()
        self.posted = 0
        self.rng = random.Random(number)

    def run(self) -> None:
        while not self.stop.is_set():
            for event in simulate.random_game(self.rng, players=4):
                if self.stop.wait(self.pace * self.rng.uniform(0.5, 1.5)):
                    return
                status, answer = self.table.play(event)
                if status == 200 and isinstance(answer.get("seq"), int):
                    self.posted += 1
                    self.submitted[(self.number, answer["seq"])] = time.monotonic()  # journaled by now


def wait_all_held(hub: Hub, tables: dict[int, Running], timeout: float) -> float:
    """Seconds until the hub's store holds every table's journal (nan after `timeout`)."""
    from companion.journal import Journal

    began = time.monotonic()
    while time.monotonic() - began < timeout:
        held = hub.held()
        done = True
        for number, table in tables.items():
            with Journal.open(table.data, writer=False) as journal:
                if held.get(number, 0) < journal.last_seq:
                    done = False
                    break
        if done:
            return time.monotonic() - began
        time.sleep(0.1)
    return float("nan")


def flood(url: ClubURL, seconds: float) -> int:
    """One table's credentials publish the largest message a row may be, as fast as paho sends: how many."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="flood", clean_session=True)
    client.username_pw_set(url.user, url.password)
    client.max_inflight_messages_set(100)
    client.connect(url.host, url.port)
    client.loop_start()
    payload = b"[" + b"1," * (MAX_ROW_BYTES // 2 - 1) + b"1]"
    topic = Topics(url.club, int(url.user.removeprefix("table-"))).events
    sent = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        info = client.publish(topic, payload[:MAX_ROW_BYTES], qos=1)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            sent += 1
        if sent % 100 == 0:
            time.sleep(0.01)
    client.disconnect()
    client.loop_stop()
    return sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's events (mean)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-club-tables-") as tmp:
        root = Path(tmp)
        hub = Hub(root, args.tables + 1).start()  # the last table's credentials flood; no table process uses them
        tables: dict[int, Running] = {}
        players: list[Player] = []
        try:
            started = time.monotonic()
            for number, url in sorted(hub.urls.items())[:args.tables]:
                tables[number] = Running(root / f"table{number}", extra=("--club", url, "--table", str(number)))
                tables[number].start()
            print(f"{args.tables} tables started in {time.monotonic() - started:.0f} s", flush=True)
            submitted: dict[tuple[int, int], float] = {}
            board = BoardClient(hub.web_port, submitted)
            board.start()
            cpu_before = cpu_seconds(hub.pid)
            began = time.monotonic()
            players = [Player(table, number, args.pace, submitted) for number, table in tables.items()]
            for player in players:
                player.start()
            time.sleep(args.seconds)
            elapsed = time.monotonic() - began
            hub_cpu = (cpu_seconds(hub.pid) - cpu_before) / elapsed
            rss = memory_mb(hub.pid, "VmRSS")
            latencies = list(board.latencies)
            posted = sum(player.posted for player in players)

            # The hub SIGKILLed while the tables play on for 10 s, then started again.
            hub.stop(signal.SIGKILL)
            time.sleep(10)
            for player in players:
                player.stop.set()
            for player in players:
                player.join(timeout=10)
            restarted = time.monotonic()
            hub.start()
            wait_all_held(hub, tables, 60)
            catch_up = time.monotonic() - restarted  # from the restart: its start and Mosquitto's included

            # One table's credentials flood the hub for 20 s.
            rss_before_flood = memory_mb(hub.pid, "VmRSS")
            url = ClubURL.parse(hub.urls[args.tables + 1])
            flooded = flood(ClubURL("127.0.0.1", hub.mqtt_port, url.user, url.password, url.club), 20.0)
            time.sleep(2)
            peak_flood = memory_mb(hub.pid, "VmHWM")
            rss_flood = memory_mb(hub.pid, "VmRSS")
        finally:
            for player in players:
                player.stop.set()
            for table in tables.values():
                if table.process is not None and table.process.poll() is None:
                    table.stop()
            hub.stop()
    print(f"\n{args.tables} `marmite run --club` processes, one event per table every {args.pace} s on average "
          f"({posted} events in {elapsed:.0f} s), one `marmite club` with its own Mosquitto, loopback\n")
    print("| measure | value |")
    print("|---|---|")
    print(f"| table event → board update, p50 / p99 / max ({len(latencies)} samples) | "
          f"{percentile(latencies, .5) * 1000:.0f} ms / {percentile(latencies, .99) * 1000:.0f} ms / "
          f"{max(latencies) * 1000:.0f} ms |")
    print(f"| hub process while they play | CPU {hub_cpu * 100:.0f} % of one core, RSS {rss:.0f} MB |")
    print(f"| catch-up after a SIGKILL of the hub, 10 s of play missed, from its restart | {catch_up:.1f} s |")
    print(f"| hub RSS while one table floods it ({flooded} messages of {MAX_ROW_BYTES} bytes in 20 s) | "
          f"{rss_before_flood:.0f} MB before, {rss_flood:.0f} MB after, peak {peak_flood:.0f} MB |")
    ok = percentile(latencies, .99) <= 1.0 and catch_up <= 10 and peak_flood <= 200
    print(f"\ntargets (p99 ≤ 1 s, catch-up ≤ 10 s, flooded hub ≤ 200 MB): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
