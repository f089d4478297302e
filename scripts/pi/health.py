"""Is the table service healthy? Used by scripts/update-pi before and after an update. Standard library only.

`health.py reader-ok URL` exits 0 when the running table's readers all answer (1 otherwise, or when nothing
serves). `health.py wait URL --timeout S [--reader-ok]` waits until the table serves `/`, its journal is
open and writable (`storage.ok` in `/api/table`) and, with `--reader-ok`, its readers answer, and it stays
so for --settle seconds (a crash loop serves a while); it prints the reason and exits 1 when that has not
happened within S seconds. With --where it then asks the table where the game stands (`POST /api/where`):
a table started with --speak says it aloud, which is how the service tells a person it is ready.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any


def fetch(url: str) -> tuple[int, bytes]:
    """The status and body of a GET, (0, reason) when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return int(answer.status), bytes(answer.read())
    except urllib.error.HTTPError as error:
        return int(error.code), b""
    except (urllib.error.URLError, OSError) as error:
        return 0, str(getattr(error, "reason", error)).encode()


def problem(base: str, reader_ok: bool) -> str | None:
    """What is wrong with the table at `base` now, None when it is healthy."""
    status, body = fetch(base + "/")
    if status != 200:
        return f"/ answers {status or 'nothing'}" + (f" ({body.decode(errors='replace')})" if status == 0 else "")
    status, body = fetch(base + "/api/table")
    if status != 200:
        return f"/api/table answers {status or 'nothing'}"
    try:
        table: dict[str, Any] = json.loads(body)
    except ValueError:
        return "/api/table is not JSON"
    if not table.get("storage", {}).get("ok", False):
        return f"the journal cannot be written: {table.get('storage', {}).get('trouble')}"
    if reader_ok:
        down = [f"{r.get('reader')}: {r.get('detail')}" for r in table.get("readers", []) if not r.get("ok")]
        if down or not table.get("readers"):
            return "the reader does not answer: " + ("; ".join(down) or "no reader reported")
    return None


def main(argv: list[str]) -> int:
    """reader-ok or wait."""
    parser = argparse.ArgumentParser(prog="health.py", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("reader-ok").add_argument("url")
    wait = sub.add_parser("wait")
    wait.add_argument("url")
    wait.add_argument("--timeout", type=float, default=90)
    wait.add_argument("--reader-ok", action="store_true")
    wait.add_argument("--settle", type=float, default=5, help="seconds it must stay healthy")
    wait.add_argument("--where", action="store_true", help="then ask the table to say where the game stands")
    args = parser.parse_args(argv)
    base = args.url.rstrip("/")
    if args.command == "reader-ok":
        return 0 if problem(base, reader_ok=True) is None else 1
    deadline = time.monotonic() + args.timeout
    healthy_since: float | None = None
    while True:
        wrong = problem(base, args.reader_ok)
        now = time.monotonic()
        if wrong is None:
            healthy_since = now if healthy_since is None else healthy_since
            if now - healthy_since >= args.settle:
                break
        else:
            healthy_since = None
            if now > deadline:
                print(f"unhealthy after {args.timeout:.0f} s: {wrong}", file=sys.stderr)
                return 1
        time.sleep(1)
    print(f"healthy: {base}/ serves, the journal is open" + (", the reader answers" if args.reader_ok else ""))
    if args.where:
        request = urllib.request.Request(base + "/api/where", data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            print(f"the table says: {json.loads(answer.read()).get('text')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
