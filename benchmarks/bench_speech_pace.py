"""The table speaks as fast as it plays: one round of Chaud Devant practice without cards (Ana and two
robots, aids on, profile normale) through a real `marmite run`, the tablet reading everything aloud and
Ana's phone, in Debian's Chromium, with a stand-in speech engine that takes as long to say a line as
espeak-ng does (`speech_engine.py`, factor 1). Ana acts 1.5 s after her cue and asks a question key now
and then. Prints: speech time / play time (not counting Ana's 1.5 s), "your move" latency (her cue on
the phone to the end of the tablet's line naming her), lines dropped, fact key to speech start (p99),
the round's length. Usage: python benchmarks/bench_speech_pace.py [--factor 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from live_table import CHROMIUM, CHROMIUM_ARGS, LiveTable, unlock  # this folder is on sys.path as a script
from speech_engine import engine_script

THINK_S = 1.5
KEYS = ["t", "s", "p", "o"]
ASK_EVERY_S = 12.0
"""A question about every 12 s, as the issue's player asked (82 presses in a 17.8-minute game)."""
# Ana's phone: when "your move" appears (epoch ms); the tablet: each key press (epoch ms).
WATCH = """
window.__cueAt = [];
new MutationObserver(function () {
  const shown = !!document.getElementById("my-turn");
  if (shown && !window.__cueShown) window.__cueAt.push(performance.timeOrigin + performance.now());
  window.__cueShown = shown;
}).observe(document, { childList: true, subtree: true });
window.__pressAt = [];
document.addEventListener("keydown", function () {
  window.__pressAt.push(performance.timeOrigin + performance.now());
}, true);
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def played_since(table: LiveTable, before: dict[str, Any]) -> bool:
    """True once the table has moved on from `before` (her card taken), within 3 s."""
    mark = (before["pot"]["cards"], len(before["rounds"][0]["tricks"]) if before["rounds"] else 0)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        now = table.get("/api/state")
        if (now["pot"]["cards"], len(now["rounds"][0]["tricks"]) if now["rounds"] else 0) != mark or \
                now.get("turn") != "Ana" or "points" in now["rounds"][0]:
            return True
        time.sleep(0.05)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--factor", type=float, default=1.0, help="the engine speaks this many times faster")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print("bench_speech_pace: Debian's chromium is not installed (scripts/test installs it)")
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, sync_playwright() as play:
        table = LiveTable(Path(data))
        browser = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            return run(table, browser, args.factor)
        finally:
            browser.close()
            table.close()


def run(table: LiveTable, browser: Any, factor: float) -> int:
    robots = {"seats": {"Marmiton": "cuisinier", "Cléo": "cuisinier"}, "practice": "virtual", "aids": True}
    assert table.post("/api/events", {"type": "new_game", "players": ["Ana", "Marmiton", "Cléo"], "dealer": "Cléo",
                                      "robots": robots})["accepted"]
    tablet_context = browser.new_context(locale="fr-FR")
    tablet_context.add_init_script(engine_script(factor, speak="all") + WATCH)
    tablet = tablet_context.new_page()
    unlock(tablet, table, "/setup")
    link = tablet.get_attribute(".seat-links a:text-is('Ana')", "href")
    tablet.goto(table.url + "/")
    tablet.wait_for_function("() => document.body.dataset.stream === 'open'")
    phone_context = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 844})
    phone_context.add_init_script(engine_script(factor, speak="mine") + WATCH)
    ana = phone_context.new_page()
    ana.goto(link)
    ana.wait_for_selector(".seat-menu-btn", timeout=60000)
    time.sleep(THINK_S)
    ana.focus(".seat-menu-btn[data-menu=none]")
    ana.keyboard.press("Enter")
    started, thinking, asked, refused = time.monotonic(), 0.0, 0, 0
    while time.monotonic() < started + 900:
        state = table.get("/api/state")
        if state["rounds"] and "points" in state["rounds"][0]:
            break
        if time.monotonic() > started + ASK_EVERY_S * (asked + 1) and \
                tablet.evaluate("() => window.MarmiteSpeech.voice.busy()"):
            tablet.locator("body").press(KEYS[asked % len(KEYS)])
            asked += 1
        buttons = ana.locator(".practice-play:not([aria-disabled=true])")
        if state.get("turn") == "Ana" and buttons.count():
            time.sleep(THINK_S)
            thinking += THINK_S
            codes = buttons.evaluate_all("bs => bs.map(b => b.dataset.card)")
            led = state["pot"]["led"] or ""
            suited = [i for i, code in enumerate(codes) if code.startswith(led + "-")] if led else []
            order = suited + [i for i in range(len(codes)) if i not in suited]
            ana.focus(f".practice-play:not([aria-disabled=true]) >> nth={order[refused % len(order)]}")
            ana.keyboard.press("Enter")
            if played_since(table, state):
                refused = 0
            else:  # refused (its rule said on her phone): she tries her next card
                refused += 1
        time.sleep(0.05)
    length = time.monotonic() - started
    try:
        tablet.wait_for_function("() => !window.MarmiteSpeech.voice.busy()", timeout=120000)
    except Exception:  # reported below, with what is still waiting
        print("the tablet still had lines to say 120 s after the round:",
              tablet.evaluate("window.__engine.started.slice(-3)"), file=sys.stderr)
    print("voices the robots waited for:", table.post("/api/spoken", {"serial": 0})["voices"], file=sys.stderr)
    engine = tablet.evaluate("window.__engine")
    counts = tablet.evaluate("window.marmiteSpeechCounts")
    cues = ana.evaluate("window.__cueAt")
    moves = []
    for cue in cues:
        heard = [at for text, at in zip(engine["said"], engine["saidAt"], strict=True) if at >= cue and "Ana" in text]
        if heard:
            moves.append((heard[0] - cue) / 1000)
    presses = tablet.evaluate("window.__pressAt")
    facts = []
    for pressed in presses:
        after = [at for at in engine["startedAt"] if at >= pressed]
        if after:
            facts.append(after[0] - pressed)
    speech = engine["busyMs"] / 1000
    print(f"one round, Chaud Devant practice without cards, 3 players (2 robots, cuisinier), engine factor {factor}")
    print(f"round length {length:.1f} s; Ana's thinking {thinking:.1f} s; speech {speech:.1f} s;"
          f" speech / play time {speech / max(0.001, length - thinking):.2f}")
    print(f"'your move': {len(moves)} cues, heard p50 {statistics.median(moves) if moves else float('nan'):.2f} s,"
          f" p95 {percentile(moves, 0.95):.2f} s after the cue")
    print(f"lines: {counts['queued']} queued, {counts['heard']} heard to their end,"
          f" {counts['queued'] - counts['heard']} dropped ({counts['lost']} given up by the page, the engine"
          f" never ending them); {counts['cut']} cut by a question and said again")
    print(f"fact keys: {len(facts)} pressed, to speech start p50 {statistics.median(facts) if facts else 0:.1f} ms,"
          f" p99 {percentile(facts, 0.99):.1f} ms; {engine['overlaps']} overlapping lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
