"""A stand-in speech engine for browser tests and benchmarks: it "says" each utterance for a time
proportional to its length (divided by a factor), fires start and end (error when cancelled), and keeps
counts: lines said to their end, lines cut, lines that overlapped on one device (never, with one voice), and
each line's text, start and end (epoch ms), so a benchmark can tell when a given word was heard."""

from __future__ import annotations

MS_PER_CHAR = 62
"""About espeak-ng's French at 165 words a minute (its default at the table's rate 1.0)."""


ENGINE_JS = """
(function () {
  try {
    localStorage.setItem("marmite.voice", "__VOICE__");
    localStorage.setItem("marmite.speak", "__SPEAK__");
  } catch (e) {}
  const msPerChar = __MS__ / __FACTOR__;
  const log = window.__engine = { said: [], saidAt: [], cut: [], started: [], startedAt: [], overlaps: 0,
    speaking: 0, busyMs: 0, lines: [], msPerChar: msPerChar };
  function epoch() { return performance.timeOrigin + performance.now(); }
  window.__spoken = log.started;
  let queue = [];
  let current = null;
  let timer = null;
  let since = 0;
  function finish(u, kind) {
    if (current !== u) return;
    current = null;
    clearTimeout(timer);
    log.speaking -= 1;
    log.busyMs += performance.now() - since;
    (kind === "end" ? log.said : log.cut).push(u.text);
    if (kind === "end") log.saidAt.push(epoch());
    log.lines.push({ text: u.text, start: u.__start, end: epoch(), kind: kind });
    u.dispatchEvent(new Event(kind));
  }
  function start() {
    if (current || !queue.length) return;
    const u = current = queue.shift();
    log.speaking += 1;
    if (log.speaking > 1) log.overlaps += 1;
    log.started.push(u.text);
    log.startedAt.push(epoch());
    u.__start = epoch();
    since = performance.now();
    u.dispatchEvent(new Event("start"));
    timer = setTimeout(function () { finish(u, "end"); start(); }, Math.max(1, u.text.length * msPerChar));
  }
  const synth = {
    speak: function (u) { queue.push(u); start(); },
    cancel: function () {
      queue.forEach(function (u) { log.cut.push(u.text); });
      queue = [];
      if (current) finish(current, "error");
    },
    pause: function () {}, resume: function () {}, getVoices: function () { return []; },
    addEventListener: function () {}, removeEventListener: function () {},
    get speaking() { return !!current; }, get pending() { return queue.length > 0; },
  };
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
})();
"""


def engine_script(factor: float, *, voice: str = "on", speak: str = "all") -> str:
    """The init script: the engine, and this device's remembered choices (voice, what it speaks)."""
    values = {"__VOICE__": voice, "__SPEAK__": speak, "__MS__": str(MS_PER_CHAR), "__FACTOR__": str(factor)}
    script = ENGINE_JS
    for name, value in values.items():
        script = script.replace(name, value)
    return script
