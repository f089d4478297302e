"""One key per fact: from the key press to the start of its speech (`speechSynthesis.speak`), on the
table page and on a player's own phone page, while a game is played live; the L key (the last five
announcements, the page's speech path before the fact keys) is the baseline measured in the same run.

A known-hands game through a real `marmite run`, both pages in Debian's Chromium (Playwright). Times are
taken inside the page: the keydown event's timestamp and the first `speak` call after it, on the page's
own clock. Usage: python benchmarks/bench_fact_keys.py [--seed 1] [--cards 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from live_table import CHROMIUM, CHROMIUM_ARGS, PIN, LiveTable  # this folder is on sys.path when run as a script

from companion.chaud_devant.simulate import simulate

# The page's clock at each key press (capture phase, before the page's own handler) and at each speak call.
SPY = """
window.__pressAt = []; window.__speakAt = [];
window.speechSynthesis.speak = function (u) {  // each line ends at once: the page says one at a time
  window.__speakAt.push(performance.now());
  setTimeout(function () { u.dispatchEvent(new Event('end')); }, 0);
};
document.addEventListener('keydown', function (e) { window.__pressAt.push(e.timeStamp); }, true);
try { localStorage.setItem('marmite.voice', 'on'); localStorage.setItem('marmite.speak', 'all'); } catch (e) {}
"""
TABLE_KEYS = {"p": "pot", "c": "led suit", "t": "whose turn", "s": "scores", "d": "last trick", "n": "cards left"}
SEAT_KEYS = {**TABLE_KEYS, "m": "my hand", "1": "my hand, first suit", "e": "my menu"}
BASELINE = {"l": "last five, the baseline"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def press(page: Any, key: str) -> float:
    """Press `key`; the milliseconds from its keydown to the first speak call after it."""
    before = page.evaluate("window.__speakAt.length")
    page.keyboard.press(key)
    page.wait_for_function("n => window.__speakAt.length > n", arg=before, timeout=10000)
    latency: float = page.evaluate("n => window.__speakAt[n] - window.__pressAt[window.__pressAt.length - 1]",
                                   before)
    return latency


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cards", type=int, default=40, help="cards played live, the keys pressed after each")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print("bench_fact_keys: Debian's chromium is not installed (scripts/test installs it)")
        return 1
    from playwright.sync_api import sync_playwright

    game = simulate(random.Random(args.seed), players=4, known_hands={0, 1, 2, 3})
    events = game.events
    owner = events[0]["players"][1]
    samples: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as play:
        table = LiveTable(Path(tmp))
        browser = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            table.post("/api/events", events[0])
            host = browser.new_context(viewport={"width": 1024, "height": 768}, locale="fr-FR")
            host.add_init_script(SPY)
            tablet = host.new_page()
            tablet.goto(f"{table.url}/unlock?next=/setup")
            tablet.fill("#pin", PIN)
            tablet.click("button[type=submit]")
            tablet.wait_for_url(f"{table.url}/setup")
            link = tablet.get_attribute(f".seat-links a:text-is('{owner}')", "href")
            tablet.goto(table.url + "/")
            phone_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
            phone_context.add_init_script(SPY)
            phone = phone_context.new_page()
            phone.goto(link)
            pages = {"table": (tablet, TABLE_KEYS), "phone": (phone, SEAT_KEYS)}
            for page, _ in pages.values():
                page.wait_for_function("() => document.body.dataset.stream === 'open'")
            played = 0
            for event in events[1:]:
                table.post("/api/events", event)
                if event["type"] != "card":
                    continue
                played += 1
                for name, (page, keys) in pages.items():
                    page.wait_for_function("() => !!document.querySelector('#facts [data-fact=pot]')")
                    for key in [*keys, *BASELINE]:
                        samples.setdefault((name, key), []).append(press(page, key))
                if played >= args.cards:
                    break
        finally:
            browser.close()
            table.close()
    worst = 0.0
    for (name, key), values in sorted(samples.items()):
        label = {**SEAT_KEYS, **BASELINE}[key]
        p99 = percentile(values, 0.99)
        if key not in BASELINE:
            worst = max(worst, p99)
        print(f"{name:5} key {key.upper()} ({label}): press → speak p50 {statistics.median(values):.1f} ms, "
              f"p99 {p99:.1f} ms, max {max(values):.1f} ms (n = {len(values)})")
    print(f"target p99 ≤ 300 ms for the one-key facts: {'met' if worst <= 300 else 'NOT met'} "
          f"(worst p99 {worst:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
