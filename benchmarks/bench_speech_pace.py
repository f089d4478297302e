"""The table speaks as fast as it plays: a practice without cards (Ana and three *cuisinier* robots, as
in the issue's evening) through a real `marmite run`, the tablet reading everything aloud and Ana's phone
speaking what concerns her, in Debian's Chromium, with a stand-in speech engine that takes as long to say a
line as espeak-ng does (`speech_engine.py`, factor 1). Ana plays by ear: she acts 1.5 s after she has heard
the announcement holding her cue to its end (or after both devices fall quiet without one); with
`--questions S` she presses a question key on the tablet about every S seconds while it speaks.

Prints: speech time / play time (play time: the run's length less Ana's 1.5 s per move, the time the table
waits for her); each round's length; "your move": from the moment the last robot card's line before her
turn has been spoken (its last word, on the tablet) to the start of the words telling her to act ("À Ana",
"Ana, à vous de choisir", her phone's "À vous de jouer !"), on whichever device says them first, p50 / p95
(0 when the card's own line goes straight on to them); lines dropped; fact key to speech start (p99).
Usage: python benchmarks/bench_speech_pace.py [--factor 1] [--game chaud_devant|buffet] [--profile normal]
[--robots 3] [--no-aids] [--rounds 1 (0: the whole game)] [--questions 0] [--dump FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from live_table import CHROMIUM, CHROMIUM_ARGS, LiveTable, unlock  # this folder is on sys.path as a script
from speech_engine import engine_script

THINK_S = 1.5
KEYS = {"chaud_devant": ["t", "s", "p", "o"], "buffet": ["t", "s", "o", "r"]}
ROBOTS = ["Marmiton", "Cléo", "Bop", "Bip"]
"""Chaud Devant's robot seats, the first `--robots` of them (the issue's evening had three)."""
ROBOT_CARD_KEYS = ("robot.played", "robot.played_plain", "robot.played_named")
# Ana's phone: when "your move" appears (epoch ms) and its words; the tablet: each key press (epoch ms);
# every page: when each announcement reached it.
WATCH = """
window.__cueAt = []; window.__cueText = [];
new MutationObserver(function () {
  const cue = document.getElementById("my-turn");
  if (cue && !window.__cueShown) { window.__cueAt.push(performance.timeOrigin + performance.now());
    window.__cueText.push(cue.textContent.trim()); }
  window.__cueShown = !!cue;
}).observe(document, { childList: true, subtree: true });
window.__pressAt = [];
document.addEventListener("keydown", function () {
  window.__pressAt.push(performance.timeOrigin + performance.now());
}, true);
(function () {
  let kept = [];
  Object.defineProperty(window, "marmiteLog", { configurable: true, get: function () { return kept; },
    set: function (list) {
      kept = list;
      list.push = function () {
        for (let i = 0; i < arguments.length; i++) {
          try { arguments[i].__at = performance.timeOrigin + performance.now(); } catch (e) {}
        }
        return Array.prototype.push.apply(this, arguments);
      };
    } });
})();
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def sentences(text: str) -> list[str]:
    return [piece for piece in re.split(r"(?<=[.;!?])\s+", text.strip()) if piece]


def heard_at(lines: list[dict[str, Any]], after: float, words: str, ms_per_char: float, *, end: bool) -> float | None:
    """When `words` began (or, with `end`, finished) being said by the first line started after `after`
    that holds them (the stand-in engine says each character in the same time); None if never."""
    for line in lines:
        at = line["text"].find(words)
        if line["start"] < after - 5 or at < 0:
            continue
        moment = line["start"] + (at + (len(words) if end else 0)) * ms_per_char
        if moment <= line["end"] + 1:  # said that far (a line cut by a question is said again later)
            return float(moment)
    return None


@dataclass
class Moves:
    """"Your move" delays (s) and the turns whose cue was never heard."""

    delays: list[float] = field(default_factory=list)
    unheard: list[str] = field(default_factory=list)


def your_moves(log: list[dict[str, Any]], tablet: dict[str, Any], phone: dict[str, Any], turn_keys: list[str],
               cues: list[tuple[float, str]]) -> Moves:
    """For each of Ana's turns that followed a robot card: the last robot card's line heard to its end (on the
    tablet), to the first words telling her to act, on the tablet or her phone."""
    moves, card = Moves(), None
    for message in log:
        parts = message.get("parts") or []
        if not parts or message.get("kind") in ("where", "repeat"):
            continue
        first = parts[0]
        if message.get("kind") == "card":  # a robot's card (its reason, or its plain words), or hers
            robot = first["key"] in ROBOT_CARD_KEYS or (first["key"] not in ("card", "card_alone", "card_overflow")
                                                        and not first["text"].startswith("Ana"))
            card = (message, first) if robot else None
        turn = [p for p in parts if p["key"] in turn_keys
                and (p["key"].endswith("_choose") or re.search(r"(^|\W)Ana($|\W)", p["text"]))]
        if not turn or card is None:
            continue
        card_message, card_part = card
        card = None
        tail = sentences(card_part["text"])[-1][-30:]
        said = heard_at(tablet["lines"], card_message["__at"], tail, tablet["msPerChar"], end=True)
        if said is None:
            moves.unheard.append("card: " + card_part["text"])
            continue
        starts = [heard_at(tablet["lines"], message["__at"], sentences(turn[0]["text"])[0][:30], tablet["msPerChar"],
                           end=False)]
        starts += [heard_at(phone["lines"], at, text, phone["msPerChar"], end=False) for at, text in cues
                   if message["__at"] - 3000 <= at]
        heard = [at for at in starts if at is not None]
        if not heard:
            moves.unheard.append("turn: " + turn[0]["text"])
            continue
        moves.delays.append(max(0.0, min(heard) - said) / 1000)
    return moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factor", type=float, default=1.0, help="the engine speaks this many times faster")
    parser.add_argument("--game", choices=["chaud_devant", "buffet"], default="chaud_devant")
    parser.add_argument("--profile", choices=["brief", "normal", "detailed"], default="normal")
    parser.add_argument("--no-aids", dest="aids", action="store_false", help="learning aids off")
    parser.add_argument("--robots", type=int, default=3, choices=[2, 3, 4], help="Chaud Devant's robot seats")
    parser.add_argument("--rounds", type=int, default=1, help="rounds to play; 0: the whole game")
    parser.add_argument("--questions", type=float, default=0.0, help="a question key about every S s (0: none)")
    parser.add_argument("--dump", type=Path, help="write every page's log and engine lines here (JSON)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print("bench_speech_pace: Debian's chromium is not installed (scripts/test installs it)")
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, sync_playwright() as play:
        table = LiveTable(Path(data))
        browser = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            return run(table, browser, args)
        finally:
            browser.close()
            table.close()


def start_game(table: LiveTable, game: str, aids: bool, count: int) -> None:
    if game == "buffet":
        robots = {"seats": {"Bip": "cuisinier", "Bop": "cuisinier", "Bup": "cuisinier"}, "practice": "virtual",
                  "aids": aids}
        event = {"type": "new_game", "game": "buffet", "players": ["Ana", "Bip", "Bop", "Bup"], "first": "Ana",
                 "robots": robots}
    else:
        names = ROBOTS[:count]
        robots = {"seats": {name: "cuisinier" for name in names}, "practice": "virtual", "aids": aids}
        event = {"type": "new_game", "players": ["Ana", *names], "dealer": names[-1], "robots": robots}
    assert table.post("/api/events", event)["accepted"]


def rounds_done(state: dict[str, Any], game: str) -> int:
    if game == "buffet":
        return int(state.get("round", 1)) - 1 + (state.get("phase") == "game_over")
    return sum(1 for entry in state.get("rounds", []) if "points" in entry)


def mark(state: dict[str, Any]) -> Any:
    """What changes when Ana's move is taken."""
    rounds = state.get("rounds") or [{}]
    return (json.dumps(state.get("pot")), len(rounds[-1].get("tricks", [])), len(rounds), state.get("turn"),
            state.get("phase"))


def taken(table: LiveTable, before: Any) -> bool:
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        if mark(table.get("/api/state")) != before:
            return True
        time.sleep(0.05)
    return False


HEARD = """(since) => {
  const engine = window.__engine, lines = engine.lines;
  const at = lines.findIndex(l => l.end >= since && l.kind === "end"
    && /(^|[^\\p{L}])Ana([^\\p{L}]|$)|choisissez|À vous|à vous de/u.test(l.text));
  if (at < 0) return window.MarmiteSpeech.voice.busy() ? null : -1;
  const hit = lines[at];
  const message = (window.marmiteLog || []).filter(m => (m.__at || 0) <= hit.start
    && String(m.text || "").indexOf(hit.text) >= 0).pop();
  if (!message) return hit.end;
  let end = hit.end;  // the announcement's later pieces (the page says it in short utterances): its facts
  for (let i = at + 1; i < lines.length && lines[i].kind === "end" && message.text.indexOf(lines[i].text) >= 0; i++)
    end = lines[i].end;
  const now = engine.started[engine.started.length - 1];
  if (engine.speaking > 0 && message.text.indexOf(now) >= 0 && engine.startedAt[engine.startedAt.length - 1] >= end - 1)
    return null;  // still saying that announcement
  return end;
}"""
"""When the announcement holding a line that tells Ana to act (naming her, or "choisissez", "à vous de…") has
been said to its end since `since` (epoch ms): the whole announcement, not only the short utterance holding
the cue, so she hears the facts after her cue before she acts; -1 when this device has nothing left to say
without one; null while it still speaks."""


def think(ana: Any, tablet: Any) -> None:
    """Ana acts 1.5 s after she has heard the announcement holding her cue to its end on the device speaking
    for her (or once both fall quiet without it), never on a cue she has not heard yet (she plays by ear). The
    wait is kept in `WAITS`."""
    began = time.time() * 1000
    cue = ana.evaluate("window.__cueAt.length ? window.__cueAt[window.__cueAt.length - 1] : 0")
    since = cue if cue > time.time() * 1000 - 10000 else time.time() * 1000 - 500  # a menu: no "your move"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        heard = [page.evaluate(HEARD, since) for page in (tablet, ana)]
        ends = [at for at in heard if at is not None and at > 0]
        if ends:
            time.sleep(max(0.0, min(ends) / 1000 + THINK_S - time.time()))
            break
        if all(at == -1 for at in heard):
            time.sleep(THINK_S)
            break
        time.sleep(0.05)
    WAITS.append((began, time.time() * 1000))


WAITS: list[tuple[float, float]] = []
"""Each time the table waited for Ana: from her move being open to her key (epoch ms)."""


def spoken_within(lines: list[dict[str, Any]], began: float, ended: float) -> float:
    """Seconds of speech between `began` and `ended` (epoch ms): the run's own, not what is said after it."""
    return float(sum(max(0.0, min(ended, line["end"]) - max(began, line["start"])) for line in lines)) / 1000


def silent(waits: list[tuple[float, float]], lines: list[dict[str, Any]]) -> float:
    """Seconds of `waits` during which no device was speaking: the table waiting for the person only."""
    total = 0.0
    for began, ended in waits:
        spoken = sorted((max(began, line["start"]), min(ended, line["end"])) for line in lines
                        if line["end"] > began and line["start"] < ended)
        covered, reach = 0.0, began
        for start, end in spoken:
            if end > reach:
                covered += end - max(start, reach)
                reach = end
        total += (ended - began) - covered
    return total / 1000


def ana_moves(ana: Any, tablet: Any, table: LiveTable, state: dict[str, Any], game: str,
              refused: int) -> tuple[bool, int]:
    """Ana's move if she has one (1.5 s after she heard her cue): (moved, refusals in a row)."""
    if game == "buffet":
        if ana.locator("#practice-swap").count():
            think(ana, tablet)
            ana.focus("#practice-swap button[type=submit]")  # she keeps her hand
            ana.keyboard.press("Enter")
            ana.wait_for_selector("#practice-swap", state="detached", timeout=60000)
            return True, 0
        if ana.locator("#my-turn[data-move=choose]").count() and ana.locator(".practice-play").count():
            think(ana, tablet)
            ana.focus(".practice-play >> nth=0")
            ana.keyboard.press("Enter")
            ana.wait_for_selector("#practice-chosen", timeout=60000)
            return True, 0
        return False, refused
    menus = ana.locator(".seat-menu-btn")
    if state.get("phase") == "menu" and menus.count():
        think(ana, tablet)
        ana.focus(".seat-menu-btn >> nth=0")
        ana.keyboard.press("Enter")
        ana.wait_for_selector(".seat-menu-btn", state="detached", timeout=60000)
        return True, 0
    buttons = ana.locator(".practice-play:not([aria-disabled=true])")
    if state.get("turn") != "Ana" or not buttons.count():
        return False, refused
    thought = not refused
    if thought:
        think(ana, tablet)
    codes = buttons.evaluate_all("bs => bs.map(b => b.dataset.card)")
    led = state["pot"]["led"] or ""
    suited = [i for i, code in enumerate(codes) if code.startswith(led + "-")] if led else []
    order = suited + [i for i in range(len(codes)) if i not in suited]
    before = mark(state)
    ana.focus(f".practice-play:not([aria-disabled=true]) >> nth={order[refused % len(order)]}")
    ana.keyboard.press("Enter")
    return thought, (0 if taken(table, before) else refused + 1)  # refused (its rule said): her next card


def run(table: LiveTable, browser: Any, args: argparse.Namespace) -> int:
    start_game(table, args.game, args.aids, args.robots)
    script = WATCH + f"try {{ localStorage.setItem('marmite.profile', '{args.profile}'); }} catch (e) {{}}\n"
    tablet_context = browser.new_context(locale="fr-FR")
    tablet_context.add_init_script(engine_script(args.factor, speak="all") + script)
    tablet = tablet_context.new_page()
    unlock(tablet, table, "/setup")
    link = tablet.get_attribute(".seat-links a:text-is('Ana')", "href")
    tablet.goto(table.url + "/")
    tablet.wait_for_function("() => document.body.dataset.stream === 'open'")
    phone_context = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 844})
    phone_context.add_init_script(engine_script(args.factor, speak="mine") + script)
    ana = phone_context.new_page()
    ana.goto(link)
    ana.wait_for_function("() => document.body.dataset.stream === 'open'")
    keys = KEYS[args.game]
    started, thinking, asked, refused, moves = time.monotonic(), 0.0, 0, 0, 0
    began = time.time() * 1000
    round_ends: list[float] = []
    while time.monotonic() < started + 7200:
        state = table.get("/api/state")
        done = rounds_done(state, args.game)
        while len(round_ends) < done:
            round_ends.append(time.monotonic() - started)
        if state.get("phase") == "game_over" or (args.rounds and done >= args.rounds):
            break
        if args.questions and time.monotonic() > started + args.questions * (asked + 1) and \
                tablet.evaluate("() => window.MarmiteSpeech.voice.busy()"):
            tablet.locator("body").press(keys[asked % len(keys)])
            asked += 1
        moved, refused = ana_moves(ana, tablet, table, state, args.game, refused)
        if moved:
            thinking += THINK_S
            moves += 1
        time.sleep(0.05)
    length, ended = time.monotonic() - started, time.time() * 1000
    try:
        tablet.wait_for_function("() => !window.MarmiteSpeech.voice.busy()", timeout=180000)
    except Exception:  # reported below, with what is still waiting
        print("the tablet still had lines to say 180 s after the run:",
              tablet.evaluate("window.__engine.started.slice(-3)"), file=sys.stderr)
    print("voices the robots waited for:", table.post("/api/spoken", {"serial": 0})["voices"], file=sys.stderr)
    engine, phone_engine = tablet.evaluate("window.__engine"), ana.evaluate("window.__engine")
    counts, phone_counts = tablet.evaluate("window.marmiteSpeechCounts"), ana.evaluate("window.marmiteSpeechCounts")
    log = tablet.evaluate("window.marmiteLog")
    turn_keys = tablet.evaluate("window.MarmiteSpeech.keys.turn || []")
    cues = list(zip(ana.evaluate("window.__cueAt"), ana.evaluate("window.__cueText"), strict=True))
    found = your_moves(log, engine, phone_engine, turn_keys, cues)
    presses = tablet.evaluate("window.__pressAt")
    facts = []
    for pressed in presses:
        after = [at for at in engine["startedAt"] if at >= pressed]
        if after:
            facts.append(after[0] - pressed)
    if args.dump:
        args.dump.write_text(json.dumps({"log": log, "tablet": engine, "phone": phone_engine, "cues": cues},
                                        ensure_ascii=False))
    speech = spoken_within(engine["lines"], began, ended)  # the lines after the last round are not its speech
    total = engine["busyMs"] / 1000
    quiet = silent(WAITS, engine["lines"] + phone_engine["lines"])
    robot_cards = sum(1 for m in log if (m.get("parts") or [{}])[0].get("key") in ROBOT_CARD_KEYS)
    aids = "on" if args.aids else "off"
    print(f"{args.game} practice without cards, profile {args.profile}, aids {aids}, engine factor {args.factor},"
          f" questions every {args.questions or 'never'} s")
    print(f"length {length:.1f} s for {len(round_ends)} round(s): "
          + ", ".join(f"{b - a:.1f}" for a, b in zip([0.0, *round_ends], round_ends, strict=False)) + " s;"
          f" Ana's {moves} moves, thinking {thinking:.1f} s; {robot_cards} robot card lines"
          f" ({length / max(1, robot_cards):.2f} s of the run a robot card);"
          f" speech {speech:.1f} s during it ({total:.1f} s in all);"
          f" speech / play time {speech / max(0.001, length - thinking):.2f}"
          f" (less her 1.5 s per move); {speech / max(0.001, length - quiet):.2f} less the {quiet:.1f} s the table"
          f" waited for her in silence")
    print(f"'your move': {len(found.delays)} turns after a robot card, heard p50"
          f" {statistics.median(found.delays) if found.delays else float('nan'):.2f} s,"
          f" p95 {percentile(found.delays, 0.95):.2f} s, max {max(found.delays, default=float('nan')):.2f} s after"
          f" that card's line ended; {len(found.unheard)} never heard" + (f" (e.g. {found.unheard[0]!r})"
                                                                          if found.unheard else ""))
    for name, seen in (("tablet", counts), ("phone", phone_counts)):
        print(f"{name} lines: {seen['queued']} queued, {seen['heard']} heard to their end,"
              f" {seen['queued'] - seen['heard']} dropped ({seen['lost']} given up by the page, the engine"
              f" never ending them); {seen['cut']} cut by a question and said again")
    print(f"fact keys: {len(facts)} pressed, to speech start p50 {statistics.median(facts) if facts else 0:.1f} ms,"
          f" p99 {percentile(facts, 0.99):.1f} ms; overlapping lines: tablet {engine['overlaps']},"
          f" phone {phone_engine['overlaps']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
