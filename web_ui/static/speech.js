// Speech on this device: short utterances, what it speaks (all / mine / silent) and how fast, remembered here.
"use strict";
window.MarmiteSpeech = (function () {
  const MAX_WORDS = 12;
  // Parts every player wants to hear, and parts a phone speaks only when they name its player: the hosted
  // games' part keys, which the page carries (`data-speech-keys`, from each game's pages).
  const KEYS = (function () {
    try { return JSON.parse(document.body.dataset.speechKeys || "{}"); } catch (e) { return {}; }
  })();
  const ALWAYS = KEYS.always || [];
  const IF_NAMED = KEYS.if_named || [];

  function pref(key, fallback) {
    try {
      const value = window.localStorage.getItem("marmite." + key);
      return value === null ? fallback : value;
    } catch (e) { return fallback; }
  }

  function setPref(key, value) {
    try { window.localStorage.setItem("marmite." + key, String(value)); } catch (e) { /* private mode */ }
  }

  function words(text) { return text.split(/\s+/).filter(Boolean).length; }

  // A long announcement as short utterances: sentences (and "; " lists), joined while they stay short.
  function chunks(text) {
    const pieces = String(text || "").split(/(?<=[.;!?])\s+/).filter(Boolean);
    const out = [];
    let current = "";
    pieces.forEach(function (piece) {
      const joined = current ? current + " " + piece : piece;
      if (current && words(joined) > MAX_WORDS) { out.push(current); current = piece; } else { current = joined; }
    });
    if (current) out.push(current);
    return out;
  }

  function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  // Whether `text` holds `name` as whole words: "Ui" is not in "duiken", nor "Pois 1" in "Pois 10".
  function names(text, name) {
    return new RegExp("(^|[^\\p{L}\\p{N}])" + escapeRegExp(name) + "($|[^\\p{L}\\p{N}])", "u").test(text);
  }

  // What of a message concerns one player: their turn, their refusals, trick and round results.
  function concerning(data, name) {
    if (!name) return data.text;
    return (data.parts || []).filter(function (part) {
      return ALWAYS.indexOf(part.key) >= 0 || (IF_NAMED.indexOf(part.key) >= 0 && names(part.text, name));
    }).map(function (part) { return part.text; }).join(" ");
  }

  // ------------------------------------------------------------------ one line at a time
  // The page hands the engine one utterance at a time, so it always knows what is being said: a question
  // (a fact key, R, O, L) is answered at once, the line it interrupted is said again whole after it, then
  // the lines not yet heard; nothing is thrown away. When everything is said, `idle` is told (the table's
  // voice then tells the table, which paces its robots on it).
  const LANGS = { fr: "fr-FR", en: "en-GB", nl: "nl-NL" };
  const NO_START_MS = 2500;  // an engine that never starts a line (none installed) is not waited for
  const MS_PER_CHAR = 120;  // beyond this per character (and 5 s) a line that never ends is given up
  const waiting = [];
  let current = null;
  let rate = 1;
  let idle = function () {};
  let lineDone = function () {};
  // Counts for tests and benchmarks: lines of announcements queued, heard to their end, and answers.
  const counts = window.marmiteSpeechCounts = { queued: 0, heard: 0, answers: 0, cut: 0, lost: 0 };

  function engine() { return "speechSynthesis" in window ? window.speechSynthesis : null; }

  function finished(utterance) {
    if (!current || current.utterance !== utterance) return;  // a cancelled utterance's late event
    clearTimeout(current.timer);
    current = null;
    lineDone();
    next();
  }

  function next() {
    const synth = engine();
    if (current) return;
    if (!synth || !waiting.length) { waiting.length = 0; idle(); return; }
    const line = waiting.shift();
    const utterance = new SpeechSynthesisUtterance(line.text);
    utterance.lang = LANGS[line.lang] || LANGS[document.body.dataset.lang] || "fr-FR";
    utterance.rate = rate;
    const gone = function () { finished(utterance); };
    const lost = function () {  // the engine never ended it: not heard (counted), and the voice goes on
      if (current && current.utterance === utterance) counts.lost += 1;
      gone();
    };
    utterance.addEventListener("end", function () {
      if (current && current.utterance === utterance) { if (line.fact) counts.answers += 1; else counts.heard += 1; }
      gone();
    });
    utterance.addEventListener("error", lost);
    utterance.addEventListener("start", function () {
      if (!current || current.utterance !== utterance) return;
      clearTimeout(current.timer);
      current.timer = setTimeout(lost, 5000 + line.text.length * MS_PER_CHAR / Math.max(rate, 0.5));
    });
    current = { line: line, utterance: utterance, timer: setTimeout(lost, NO_START_MS) };
    window.marmiteSaid = (window.marmiteSaid || 0) + 1;
    synth.speak(utterance);
  }

  // Lines of one announcement, said after those already waiting.
  function say(text, lang, fact) {
    chunks(text).forEach(function (piece) {
      waiting.push({ text: piece, lang: lang, fact: !!fact });
      if (!fact) counts.queued += 1;
    });
    next();
  }

  // An answer to a question: now; the interrupted line again whole, then the rest.
  function sayNow(texts, lang) {
    const synth = engine();
    const lines = [];
    texts.forEach(function (text) { chunks(text).forEach(function (piece) { lines.push({ text: piece, lang: lang, fact: true }); }); });
    if (!lines.length) return;
    const interrupted = current && !current.line.fact ? current.line : null;
    if (interrupted) counts.cut += 1;
    // unheard answers to earlier questions are dropped: only the newest question is worth answering
    for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i].fact) waiting.splice(i, 1);
    if (current) {
      clearTimeout(current.timer);
      current = null;
      if (synth) synth.cancel();
    }
    waiting.unshift.apply(waiting, lines.concat(interrupted ? [interrupted] : []));
    next();
  }

  // Everything silenced (the voice turned off): nothing waits any more.
  function hush() {
    waiting.length = 0;
    if (current) { clearTimeout(current.timer); current = null; }
    const synth = engine();
    if (synth) synth.cancel();
  }

  const voice = {
    say: say, sayNow: sayNow, hush: hush,
    busy: function () { return !!current || waiting.length > 0; },
    answering: function () { return (!!current && current.line.fact) || waiting.some(function (l) { return l.fact; }); },
    setRate: function (value) { rate = value; },
    onIdle: function (callback) { idle = callback; },
    onLine: function (callback) { lineDone = callback; },
  };

  return { keys: KEYS, chunks: chunks, concerning: concerning, names: names, pref: pref, setPref: setPref, voice: voice };
})();
