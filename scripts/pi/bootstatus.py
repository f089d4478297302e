"""How this boot went, written on the SD card's boot partition (`marmite-status.txt`); stdlib only.

`bootstatus.py write [--boot DIR] [--port P]`, run by marmite-status.service at every boot of the image:
waits for the table to serve `/`, asks avahi for the Pi's `.local` name (`avahi-resolve -n marmite.local`)
and NetworkManager for the Wi-Fi (joined, or the Pi's own access point), and writes the answers beside
marmite.txt, so whoever takes the card out reads whether the table answered and where. `bootstatus.py check
FILE [--access-point]` exits 0 only when that file says the table and the name answered (and the access
point is on), 1 with the reason otherwise: scripts/check-image reads it that way from the image it booted.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

STATUS_NAME = "marmite-status.txt"
NAME = "marmite.local"
TABLE = "table"
RESOLVED = "marmite.local"
WIFI = "wifi"
HOTSPOT = "marmite-hotspot"  # the connection scripts/pi/hotspot makes
OK = "ok"
FAILED = "NOT OK"


def table_answer(url: str, timeout: float) -> str | None:
    """None once `url` serves 200 within `timeout` seconds, else what it answered last."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return None
                last = f"answers {answer.status}"
        except urllib.error.HTTPError as error:
            last = f"answers {error.code}"
        except (urllib.error.URLError, OSError) as error:
            last = f"answers nothing ({getattr(error, 'reason', error)})"
        if time.monotonic() > deadline:
            return last
        time.sleep(2)


def is_address(word: str) -> bool:
    """An IPv4 or IPv6 address (with or without a %scope) other than loopback or unspecified."""
    try:
        address = ipaddress.ip_address(word.split("%")[0])
    except ValueError:
        return False
    return not address.is_loopback and not address.is_unspecified


def address_in(output: str, name: str) -> str | None:
    """The address in avahi-resolve's `NAME<TAB>ADDRESS` line, None when it holds none."""
    for line in output.splitlines():
        words = line.split()
        if len(words) == 2 and words[0].lower() == name.lower() and is_address(words[1]):
            return words[1]
    return None


def resolve(command: str, name: str, attempts: int, pause: float) -> tuple[str | None, str]:
    """(address, None) once `command -n name` answers with an address, else (None, its last words)."""
    said = ""
    for attempt in range(attempts):
        try:
            done = subprocess.run([command, "-n", name], capture_output=True, text=True, timeout=30, check=False)
            said = (done.stdout + done.stderr).strip() or f"exit status {done.returncode}, nothing said"
            address = address_in(done.stdout, name) if done.returncode == 0 else None
            if address:
                return address, said
        except (OSError, subprocess.TimeoutExpired) as error:
            said = str(error)
        if attempt + 1 < attempts:
            time.sleep(pause)
    return None, said


def nmcli_fields(output: str) -> dict[str, str]:
    """`nmcli -t` lines (`FIELD:value`, a `:` in a value written `\\:`) as a dict."""
    fields = {}
    for line in output.splitlines():
        key, colon, value = line.partition(":")
        if colon:
            fields[key] = value.replace("\\:", ":")
    return fields


def nmcli(command: str, *words: str) -> str | None:
    """What `command -t words…` prints, None when it fails."""
    try:
        done = subprocess.run([command, "-t", *words], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def wifi_state(command: str, device: str) -> str:
    """The Wi-Fi line: its own access point, a joined network, no Wi-Fi device, or NOT OK and its state."""
    shown = nmcli(command, "-f", "GENERAL.TYPE,GENERAL.STATE,GENERAL.CONNECTION,IP4.ADDRESS", "device", "show", device)
    fields = nmcli_fields(shown or "")
    if fields.get("GENERAL.TYPE") != "wifi":
        return f"none, no Wi-Fi device {device}"
    state, connection = fields.get("GENERAL.STATE", "unknown"), fields.get("GENERAL.CONNECTION", "")
    address = fields.get("IP4.ADDRESS[1]", "no address").split("/")[0]
    if not state.startswith("100"):
        return f"{FAILED}, {device} {state}" + (f" ({connection})" if connection else "")
    if connection == HOTSPOT:
        ssid = nmcli_fields(nmcli(command, "-f", "802-11-wireless.ssid", "connection", "show", HOTSPOT) or "")
        return f"access point {ssid.get('802-11-wireless.ssid', '?')} on {device} at {address}"
    return f"joined {connection} on {device} at {address}"


def status_text(table_problem: str | None, url: str, address: str | None, said: str, wifi: str) -> str:
    """The status file: a dated first line, then `table: …`, `marmite.local: …` and `wifi: …`."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    table = f"{OK}, {url} serves" if table_problem is None else f"{FAILED}, {url} {table_problem}"
    resolved = f"{OK}, {address}" if address else f"{FAILED}, avahi-resolve -n {NAME}: {' '.join(said.split())}"
    first = f"Marmite at boot (a Pi has no clock of its own: this one read {when})"
    return f"{first}\n{TABLE}: {table}\n{RESOLVED}: {resolved}\n{WIFI}: {wifi}\n"


def problems(text: str, access_point: bool = False) -> list[str]:
    """What a status file says is wrong (or lacks); empty when the table served and the name resolved (and,
    with `access_point`, the Pi offers its own Wi-Fi network)."""
    found = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    wrong = []
    for key in (TABLE, RESOLVED):
        value = found.get(key)
        if value is None:
            wrong.append(f"no '{key}:' line")
        elif not value.startswith(f"{OK}, "):
            wrong.append(f"{key}: {value}")
    if not wrong and not is_address(found[RESOLVED].removeprefix(f"{OK}, ")):
        wrong.append(f"{RESOLVED}: {found[RESOLVED]} is not an address")
    if access_point and not found.get(WIFI, "").startswith("access point "):
        wrong.append(f"{WIFI}: {found.get(WIFI, 'no line')}, not its own access point")
    return wrong


def write(path: Path, text: str) -> None:
    """Write and sync (the boot partition is FAT: the card may be pulled any time after)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    os.sync()


def main(argv: list[str]) -> int:
    """write or check."""
    parser = argparse.ArgumentParser(prog="bootstatus.py", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    writer = sub.add_parser("write")
    writer.add_argument("--boot", type=Path, default=Path("/boot/firmware"))
    writer.add_argument("--port", type=int, default=8000)
    writer.add_argument("--timeout", type=float, default=300, help="seconds to wait for the table")
    writer.add_argument("--avahi-resolve", default="avahi-resolve", help="the command asked for the name")
    writer.add_argument("--attempts", type=int, default=12, help="avahi-resolve runs before giving up")
    writer.add_argument("--pause", type=float, default=5)
    writer.add_argument("--nmcli", default="nmcli", help="NetworkManager's command")
    writer.add_argument("--wifi-device", default=os.environ.get("MARMITE_WIFI_DEVICE") or "wlan0")
    checker = sub.add_parser("check")
    checker.add_argument("file", type=Path)
    checker.add_argument("--access-point", action="store_true", help="the Pi must offer its own Wi-Fi network")
    args = parser.parse_args(argv)
    if args.command == "check":
        wrong = ([f"no {args.file}"] if not args.file.exists()
                 else problems(args.file.read_text(encoding="utf-8"), args.access_point))
        for line in wrong:
            print(f"boot status: {line}", file=sys.stderr)
        return 1 if wrong else 0
    url = f"http://127.0.0.1:{args.port}/"
    table_problem = table_answer(url, args.timeout)
    address, said = resolve(args.avahi_resolve, NAME, args.attempts, args.pause)
    text = status_text(table_problem, url, address, said, wifi_state(args.nmcli, args.wifi_device))
    write(args.boot / STATUS_NAME, text)
    # On the console too (the serial log in scripts/check-image): it is written and synced when this shows.
    print(f"{STATUS_NAME} written: " + " | ".join(text.splitlines()[1:]), flush=True)
    return 0 if table_problem is None and address else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
