// Accessibility parts shared by every page: the announcement log (braille-readable, with headings per
// round and trick), verbosity profiles, one key per fact, sound and vibration cues, and a DOM update
// that keeps the focused control in place. app.js wires them to the stream.
"use strict";
window.MarmiteA11y = (function () {
  const body = document.body;
  const speech = window.MarmiteSpeech;
  const LOG_LIMIT = 5000;  // the whole game (a five-round game says about 600 lines), bounded

  // ------------------------------------------------------------------ verbosity profiles
  // brief: what happened (cards, tricks, refusals, scores), without prompts the fact keys answer;
  // normal: everything the table says; detailed: normal plus the state after each play (see #facts).
  const PROFILES = ["brief", "normal", "detailed"];
  const BRIEF_DROPS = (window.MarmiteSpeech && window.MarmiteSpeech.keys.brief_drops) || [];  // the games' own

  function profile() {
    const chosen = speech.pref("profile", "normal");
    return PROFILES.indexOf(chosen) >= 0 ? chosen : "normal";
  }

  function setProfile(name) { speech.setPref("profile", name); showProfile(); }

  function nextProfile() {
    const next = PROFILES[(PROFILES.indexOf(profile()) + 1) % PROFILES.length];
    setProfile(next);
    return next;
  }

  // At a practice table (its robot seats known, from the page's fragment) a person's turn is their cue to
  // act, said in every profile; a robot's turn is not.
  const TURN_KEYS = (window.MarmiteSpeech && window.MarmiteSpeech.keys.turn) || [];
  let practiceRobots = null;
  function setPracticeRobots(names) { practiceRobots = names; }
  function cuesAPerson(part) {
    return practiceRobots !== null && TURN_KEYS.indexOf(part.key) >= 0
      && !practiceRobots.some(function (name) { return speech.names(part.text, name); });
  }

  // The text a profile keeps of a message already narrowed to this device's scope.
  function profiled(data, text) {
    if (!text || profile() !== "brief" || !data.parts || data.accepted === false) return text;
    const kept = data.parts.filter(function (part) { return BRIEF_DROPS.indexOf(part.key) < 0 || cuesAPerson(part); });
    if (kept.length === data.parts.length) return text;
    const keptTexts = kept.map(function (part) { return part.text; });
    // Keep only the kept parts that were in the scoped text (a phone speaking "mine" says less).
    return keptTexts.filter(function (piece) { return text.indexOf(piece) >= 0; }).join(" ");
  }

  function showProfile() {
    const button = document.getElementById("profile-toggle");
    if (!button) return;
    button.textContent = button.dataset["label" + profile().charAt(0).toUpperCase() + profile().slice(1)];
    button.dataset.profile = profile();
  }

  // ------------------------------------------------------------------ the announcement log
  const logBox = document.getElementById("log");
  const entries = [];
  let round = 0;
  let trick = 1;
  let trickClosed = false;

  // The parts that open a round or a step (the games' own, data-speech-keys): the log's headings.
  const SPEECH_KEYS = (window.MarmiteSpeech && window.MarmiteSpeech.keys) || {};
  const ROUND_OPENS = (SPEECH_KEYS.round_opens || []).length ? SPEECH_KEYS.round_opens : ["round_opened"];
  const STEP_OPENS = SPEECH_KEYS.step_opens || [];

  function keys(data) { return (data.parts || []).map(function (part) { return part.key; }); }

  // The round and trick (or step) a message belongs to, counted from the game's first message.
  function place(data) {
    const said = keys(data);
    if (said.indexOf("game_started") >= 0) { round = 0; trick = 1; trickClosed = false; }
    if (said.some(function (key) { return ROUND_OPENS.indexOf(key) >= 0; })) { round += 1; trick = 1; trickClosed = false; }
    else if (said.some(function (key) { return STEP_OPENS.indexOf(key) >= 0; })) { trick += 1; trickClosed = false; }
    else if (trickClosed && (data.kind === "card" || data.kind === "robot")) { trick += 1; trickClosed = false; }
    const at = { round: round, trick: trick };
    if (said.indexOf("trick_won") >= 0) trickClosed = true;
    return at;
  }

  function roundText(at) {
    return at.round === 0 ? logBox.dataset.startWord : logBox.dataset.roundWord.replace("%(n)s", String(at.round));
  }

  function headingText(at) {
    if (!logBox) return "";
    if (at.round === 0) return logBox.dataset.startWord;
    return roundText(at) + " · " + logBox.dataset.trickWord.replace("%(n)s", String(at.trick));
  }

  function itemFor(entry) {
    const item = document.createElement("li");
    if (entry.refused) {  // said as a refusal, in words (most refusals already begin with the word)
      item.classList.add("refused");
      const word = logBox.dataset.refusedWord;
      if (entry.text.indexOf(word) !== 0 && entry.text.indexOf(word.replace(/\s*:$/, "")) !== 0) {
        const mark = document.createElement("strong");
        mark.textContent = word + " ";
        item.appendChild(mark);
      }
    }
    item.appendChild(document.createTextNode(entry.text));
    return item;
  }

  function newestFirst() { return speech.pref("log-order", "newest") === "newest"; }

  // A heading per round (h3) and, inside it, per trick or step (h4): a braille display moves by heading.
  function roundFor(entry) {
    let section = logBox.querySelector('section[data-round="' + entry.round + '"]');
    if (section) return section;
    section = document.createElement("section");
    section.dataset.round = String(entry.round);
    const heading = document.createElement("h3");
    heading.textContent = roundText(entry);
    section.appendChild(heading);
    if (newestFirst()) logBox.prepend(section); else logBox.appendChild(section);
    return section;
  }

  function groupFor(entry) {
    const key = entry.round + "-" + entry.trick;
    let group = logBox.querySelector('section[data-group="' + key + '"]');
    if (group) return group;
    const round = roundFor(entry);
    group = document.createElement("section");
    group.dataset.group = key;
    if (entry.round !== 0) {  // before the first round the round's heading says it all
      const heading = document.createElement("h4");
      heading.textContent = headingText(entry);
      group.appendChild(heading);
    }
    group.appendChild(document.createElement("ul"));
    if (newestFirst()) round.querySelector("h3").after(group); else round.appendChild(group);
    return group;
  }

  function place_(entry) {
    const list = groupFor(entry).querySelector("ul");
    const item = itemFor(entry);
    entry.item = item;
    if (newestFirst()) list.prepend(item); else list.appendChild(item);
  }

  // One announcement into the log; the oldest beyond LOG_LIMIT leave it. Nothing else moves.
  function addToLog(data) {
    if (!data.text) return;  // a step that says nothing (a practice robot's choice: its card's line says it)
    if (keys(data).indexOf("game_started") >= 0 && entries.length) {  // a new game: a new log
      entries.length = 0;
      if (logBox) logBox.replaceChildren();
    }
    const at = place(data);
    const entry = { text: data.text, refused: data.accepted === false, round: at.round, trick: at.trick };
    entries.push(entry);
    if (!logBox) return;
    place_(entry);
    while (entries.length > LOG_LIMIT) {
      const gone = entries.shift();
      const group = gone.item ? gone.item.closest("section[data-group]") : null;
      if (gone.item) gone.item.remove();
      if (group && !group.querySelector("li")) {
        const round = group.closest("section[data-round]");
        group.remove();
        if (round && !round.querySelector("li")) round.remove();
      }
    }
  }

  function redrawLog() {
    if (!logBox) return;
    logBox.replaceChildren();
    entries.forEach(place_);
    showOrder();
  }

  function showOrder() {
    const button = document.getElementById("log-order");
    if (!button) return;
    button.setAttribute("aria-pressed", newestFirst() ? "true" : "false");
  }

  function lastTexts(count) {
    return entries.slice(-count).map(function (entry) { return entry.text; });
  }

  // ------------------------------------------------------------------ facts, one key each
  // A fact's sentence comes from the page's own #facts (rendered with each fragment, hidden).
  const FACT_KEYS = { m: "hand", "1": "hand-1", "2": "hand-2", "3": "hand-3", "4": "hand-4", p: "pot",
    c: "led", t: "turn", s: "scores", d: "last-trick", n: "left", e: "menu" };

  // `bare`: no "nothing to say" in place of a missing fact (the detailed profile then says nothing).
  function fact(name, bare) {
    const source = document.querySelector('#facts [data-fact="' + name + '"]');
    const text = source ? source.textContent.trim() : "";
    const none = document.getElementById("fact-keys");
    return text || (bare || !none ? "" : none.dataset.none);
  }

  // The state after a play for the detailed profile: the pieces of the page's detail fact that the play's own
  // line (`said`) did not say already (each piece names, in data-heard, words that line holds when it did:
  // "Marmite : 9. À Cléo de jouer." after "Oignon 4 — 9. À Cléo." said nothing new); a game whose detail has no
  // pieces says it whole.
  function detailAfter(said) {
    const source = document.querySelector('#facts [data-fact="detail"]');
    if (!source) return "";
    const pieces = Array.prototype.slice.call(source.querySelectorAll("[data-heard]"));
    if (!pieces.length) return source.textContent.trim();
    const heard = (said || "").toLowerCase();
    const kept = pieces.filter(function (piece) {
      return !piece.dataset.heard.split("|").some(function (words) {
        return !!words && speech.names(heard, words.toLowerCase());  // whole words: "Ui" is not in "Bouillon"
      });
    }).map(function (piece) { return piece.textContent.trim(); }).filter(Boolean);
    return kept.length ? kept.join(". ") + "." : "";
  }

  // ------------------------------------------------------------------ sounds and vibration
  // Generated in the page (Web Audio), never downloaded; each cue goes with its announcement.
  const CUES = {
    turn: { notes: [[660, 0, 0.12], [880, 0.15, 0.14]], wave: "sine", buzz: [200, 100, 200] },
    refused: { notes: [[220, 0, 0.35]], wave: "square", buzz: [400] },
    trick: { notes: [[523, 0, 0.1], [659, 0.11, 0.1], [784, 0.22, 0.16]], wave: "triangle", buzz: [80, 60, 80, 60, 80] },
  };
  let audio = null;
  window.marmiteCues = [];

  function soundsOn() { return speech.pref("sounds", "off") === "on"; }
  function vibrationOn() { return speech.pref("vibration", "off") === "on"; }
  function canVibrate() { return typeof navigator.vibrate === "function"; }

  function cue(name) {
    const wanted = CUES[name];
    if (!wanted) return;
    if (soundsOn()) {
      window.marmiteCues.push(name);
      try {
        const Context = window.AudioContext || window.webkitAudioContext;
        if (Context) {
          audio = audio || new Context();
          const now = audio.currentTime;
          wanted.notes.forEach(function (note) {
            const tone = audio.createOscillator();
            const gain = audio.createGain();
            tone.type = wanted.wave;
            tone.frequency.value = note[0];
            gain.gain.setValueAtTime(0.0001, now + note[1]);
            gain.gain.exponentialRampToValueAtTime(0.25, now + note[1] + 0.01);
            gain.gain.exponentialRampToValueAtTime(0.0001, now + note[1] + note[2]);
            tone.connect(gain).connect(audio.destination);
            tone.start(now + note[1]);
            tone.stop(now + note[1] + note[2] + 0.02);
          });
        }
      } catch (e) { /* no audio output: the spoken words remain */ }
    }
    if (vibrationOn() && canVibrate()) navigator.vibrate(wanted.buzz);
  }

  // The cue a message deserves (the spoken words are its equivalent).
  function cueFor(data) {
    if (data.accepted === false) cue("refused");
    else if (keys(data).indexOf("trick_won") >= 0 || keys(data).indexOf("duel_won") >= 0) cue("trick");
  }

  function showToggle(id, on) {
    const button = document.getElementById(id);
    if (!button) return;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? button.dataset.on : button.dataset.off;
  }

  // ------------------------------------------------------------------ updates that keep the focus
  // Bring `target` to `source`'s content node by node: unchanged nodes (and the focused one) stay.
  const KEYS = ["id", "data-code", "data-menu", "data-seat", "data-fact", "data-card"];

  function keyed(node) { return node.nodeType === 1 && KEYS.some(function (name) { return node.hasAttribute(name); }); }

  function same(a, b) {
    if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
    if (a.nodeType !== 1) return true;
    return KEYS.every(function (name) { return a.getAttribute(name) === b.getAttribute(name); });
  }

  function sync(old, incoming) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== incoming.nodeValue) old.nodeValue = incoming.nodeValue;
      return;
    }
    Array.from(old.attributes).forEach(function (attr) {
      if (!incoming.hasAttribute(attr.name)) old.removeAttribute(attr.name);
    });
    Array.from(incoming.attributes).forEach(function (attr) {
      if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
    });
    // a status the page wrote itself (the chef's advice, a refusal) stays until the page writes another:
    // the server's copy of it is always empty, and a robot's move must not wipe it before it is read
    if (old.hasAttribute("data-page-status") && !incoming.hasChildNodes()) return;
    morph(old, incoming);
  }

  // Walk both child lists; a keyed node (id, card, menu, seat…) is found again further on, the nodes
  // skipped over are gone; anything unmatched is inserted where it belongs.
  function morph(target, source) {
    let cursor = target.firstChild;
    Array.from(source.childNodes).forEach(function (incoming) {
      let match = null;
      if (cursor && same(cursor, incoming)) match = cursor;
      else if (keyed(incoming)) {
        for (let probe = cursor; probe; probe = probe.nextSibling) {
          if (same(probe, incoming)) { match = probe; break; }
        }
      }
      if (match) {
        while (cursor !== match) { const gone = cursor; cursor = cursor.nextSibling; gone.remove(); }
        sync(match, incoming);
        cursor = match.nextSibling;
      } else {
        target.insertBefore(incoming, cursor);
      }
    });
    while (cursor) { const gone = cursor; cursor = cursor.nextSibling; gone.remove(); }
  }

  function update(target, html) {
    const fresh = document.createElement(target.tagName);
    fresh.innerHTML = html;
    morph(target, fresh);
  }

  // ------------------------------------------------------------------ wiring of the controls
  function wire(say) {
    showProfile();
    showOrder();
    showToggle("sounds-toggle", soundsOn());
    showToggle("vibration-toggle", vibrationOn());
    const vibration = document.getElementById("vibration-toggle");
    if (vibration && !canVibrate()) vibration.hidden = true;  // feature-detected, silently absent
    const profileButton = document.getElementById("profile-toggle");
    if (profileButton) profileButton.addEventListener("click", function () {
      nextProfile();
      say(profileButton.textContent, true);
    });
    const order = document.getElementById("log-order");
    if (order) order.addEventListener("click", function () {
      speech.setPref("log-order", newestFirst() ? "oldest" : "newest");
      redrawLog();
    });
    const sounds = document.getElementById("sounds-toggle");
    if (sounds) sounds.addEventListener("click", function () {
      speech.setPref("sounds", soundsOn() ? "off" : "on");
      showToggle("sounds-toggle", soundsOn());
      if (soundsOn()) cue("turn");  // a sample, and a user gesture that lets audio start
    });
    if (vibration) vibration.addEventListener("click", function () {
      speech.setPref("vibration", vibrationOn() ? "off" : "on");
      showToggle("vibration-toggle", vibrationOn());
      if (vibrationOn()) cue("turn");
    });
    document.querySelectorAll("#fact-keys [data-fact]").forEach(function (button) {
      button.addEventListener("click", function () { say(fact(button.dataset.fact), true); });
    });
  }

  // One key per fact, J to the log, V for the next profile; true when the key was ours. A fact's key is
  // the one its button declares (aria-keyshortcuts), so a game may give a letter its own fact (C: the led
  // suit in one game, my cards on a phone in another); FACT_KEYS answers for a page that declares none.
  function key(pressed, say) {
    const declared = document.querySelector('#fact-keys [data-fact][aria-keyshortcuts="' + CSS.escape(pressed.toUpperCase()) + '"]');
    const name = declared ? declared.dataset.fact : FACT_KEYS[pressed];
    if (name) {
      const button = declared || document.querySelector('#fact-keys [data-fact="' + name + '"]');
      if (!button || button.hidden) return false;
      say(fact(name), true);
      return true;
    }
    if (pressed === "j") {
      const title = document.getElementById("log-title");
      if (title) { title.focus(); return true; }
    }
    if (pressed === "v" && document.getElementById("profile-toggle")) {
      nextProfile();
      say(document.getElementById("profile-toggle").textContent, true);
      return true;
    }
    return false;
  }

  function seed() {
    const source = document.getElementById("log-seed");
    if (!source) return;
    try { JSON.parse(source.textContent).forEach(addToLog); } catch (e) { /* an empty log */ }
  }
  seed();

  return { addToLog: addToLog, lastTexts: lastTexts, profile: profile, profiled: profiled, cue: cue,
    setPracticeRobots: setPracticeRobots,
    cueFor: cueFor, update: update, wire: wire, key: key, fact: fact, detailAfter: detailAfter };
})();
