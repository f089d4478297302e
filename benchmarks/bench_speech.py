"""Tag to speech: from a card handed to the table (the virtual pot's POST /api/drop, which calls
`TableService.tag_seen`) to the `speechSynthesis.speak` call in the table page and in a phone page.

A whole random game through a real `marmite run`, both pages open in Debian's Chromium (Playwright);
the pages' clocks and ours are the same machine clock. Usage: python benchmarks/bench_speech.py [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from live_table import CHROMIUM, CHROMIUM_ARGS, LiveTable  # this folder is on sys.path when run as a script

from companion.chaud_devant.simulate import random_game

# Record when each utterance is handed to speech synthesis (epoch ms, sub-millisecond).
SPY = """
window.__speakAt = [];
window.speechSynthesis.speak = function (u) {  // each line ends at once: the page says one at a time
  window.__speakAt.push(performance.timeOrigin + performance.now());
  setTimeout(function () { u.dispatchEvent(new Event('end')); }, 0);
};
try { localStorage.setItem('marmite.speak', 'all'); } catch (e) {}
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print("bench_speech: Debian's chromium is not installed (scripts/test installs it)")
        return 1
    from playwright.sync_api import sync_playwright

    events = random_game(random.Random(args.seed), players=4)
    latencies: dict[str, list[float]] = {"table": [], "phone": []}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as play:
        table = LiveTable(Path(tmp))
        browser = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            table.post("/api/events", events[0])
            pages: dict[str, Any] = {}
            for name, path, size in (("table", "/", (1280, 800)), ("phone", f"/seat/{events[0]['players'][1]}",
                                                                   (390, 844))):
                context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
                context.add_init_script(SPY)
                page = context.new_page()
                page.goto(table.url + path)
                page.wait_for_function("() => document.body.dataset.stream === 'open'")
                pages[name] = page
            for event in events[1:]:
                counts = {name: page.evaluate("window.__speakAt.length") for name, page in pages.items()}
                sent = time.time() * 1000
                if event["type"] == "card":
                    table.post("/api/drop", {"code": event["card"]})
                else:
                    table.post("/api/events", event)
                for name, page in pages.items():
                    page.wait_for_function("n => window.__speakAt.length > n", arg=counts[name], timeout=10000)
                    if event["type"] == "card":
                        first = page.evaluate("n => window.__speakAt[n]", counts[name])
                        latencies[name].append(first - sent)
        finally:
            browser.close()
            table.close()
    for name, values in latencies.items():
        print(f"tag → speechSynthesis.speak, {name} page: p50 {statistics.median(values):.1f} ms, "
              f"p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms (n = {len(values)} cards)")
    worst = max(percentile(values, 0.99) for values in latencies.values())
    print(f"target p99 ≤ 50 ms: {'met' if worst <= 50 else 'NOT met'} (worst p99 {worst:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
