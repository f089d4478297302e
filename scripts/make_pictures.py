"""Make the documentation's pictures from a real run: the table page and a phone page, mid-game.

Usage: .venv/bin/python scripts/make_pictures.py   (writes docs/images/table.png and phone.png)
It starts `marmite run` on loopback, plays a seeded random game into round 2 through the virtual
pot, and photographs the pages in Debian's Chromium, so the pictures always show the current UI.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from live_table import CHROMIUM, CHROMIUM_ARGS, LiveTable, unlock  # noqa: E402

from companion.chaud_devant.simulate import random_game  # noqa: E402

IMAGES = ROOT / "docs" / "images"


def main() -> int:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print("make_pictures: Debian's chromium is not installed (scripts/test installs it)", file=sys.stderr)
        return 1
    events = random_game(random.Random(12), players=4)
    menus = [i for i, e in enumerate(events) if e["type"] == "menu"]
    upto = menus[7] + 6  # round 2, a few cards into it
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as play:
        table = LiveTable(Path(tmp))
        browser = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for event in events[:upto]:
                if event["type"] == "card":
                    table.post("/api/drop", {"code": event["card"]})
                else:
                    table.post("/api/events", event)
            host = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR").new_page()
            unlock(host, table, "/setup")
            player = events[0]["players"][1]
            link = host.get_attribute(f".seat-links a:text-is('{player}')", "href")
            host.goto(table.url + "/")
            host.wait_for_function("() => document.body.dataset.stream === 'open'")
            host.wait_for_timeout(300)
            host.screenshot(path=str(IMAGES / "table.png"))
            phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR",
                                        device_scale_factor=2).new_page()
            phone.goto(str(link))
            phone.wait_for_function("() => document.body.dataset.stream === 'open'")
            phone.wait_for_timeout(300)
            phone.screenshot(path=str(IMAGES / "phone.png"))
        finally:
            browser.close()
            table.close()
    print(f"make_pictures: wrote {IMAGES / 'table.png'} and {IMAGES / 'phone.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
