// Marmite pages: live stream, speech (Web Speech API), undo, settings and past games, wake lock (a game's own
// controls are in its static/<game>/ script).
"use strict";
(function () {
  const body = document.body;
  const page = body.dataset.page;
  const csrf = body.dataset.csrf;
  const speech = window.MarmiteSpeech;
  // A seat link opened in a real browser claims its seat with a POST carrying this page's cookie and
  // CSRF token (a link preview or a bare GET never claims), then shows the seat's own view (reloaded;
  // the live stream starts on that page, or here if the seat is another phone's).
  const claiming = body.dataset.claim && body.dataset.seat ? fetch(
    "/api/seat/" + encodeURIComponent(body.dataset.seat) + "/claim", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ k: body.dataset.claim }),
    }).then(function (response) {
      // Claimed: the seat's own view. Another phone claimed it first (409): the reloaded page says so.
      if (response.ok || response.status === 409) { window.location.reload(); return true; }
      return false;
    }).catch(function () { return false; }) : null;
  const a11y = window.MarmiteA11y;
  // A practice table's robot seats, known from the page itself (each fragment's header updates them), so the
  // first lines a page says already tell a person's cue from a robot's turn.
  try {
    if (body.dataset.practiceRobots) a11y.setPracticeRobots(JSON.parse(body.dataset.practiceRobots));
  } catch (e) { /* the next fragment says them */ }
  // This device's own choices (kept in this browser): read aloud (voice on) or leave the words to the
  // screen reader (voice off; never both), what it speaks, how much and how fast.
  let voiceOn = speech.pref("voice", body.dataset.voice) === "on";
  let scope = speech.pref("speak", body.dataset.seat ? "mine" : "all");
  // "mine" needs a seat page that offers it (a game whose phone page lacks it speaks everything).
  if (scope === "mine" && !(body.dataset.seat && document.querySelector("input[name=speak][value=mine]"))) {
    scope = "all";
  }
  let rate = parseFloat(speech.pref("rate", body.dataset.rate || "1")) || 1;
  const voice = speech.voice;
  voice.setRate(rate);
  window.marmiteLog = [];

  // Said after what this device is still saying (one line at a time: see speech.js).
  function speak(text, lang) {
    if (!voiceOn || !text) return;
    voice.say(text, lang || body.dataset.lang);
  }

  // An answer to a question: said at once; the line it cut is said again after it, then the rest.
  function speakNow(texts, lang) {
    if (!voiceOn) return;
    voice.sayNow(texts.filter(Boolean), lang || body.dataset.lang);
  }

  // The table's voice (the PIN holder's tablet, or a practice player's phone that speaks everything aloud)
  // tells the table what it has finished saying; the robots wait for it. Another page is refused once and
  // stops asking; a screen reader's page never tells (nothing signals its end: the robots keep the pause).
  let heardSerial = 0;
  let heardSeq = body.dataset.lastSeq || "0";  // the journal seq of the last event heard: a new stream resumes there
  let toldSerial = 0;
  let told = false;  // this page has told the table it speaks for it (even before saying a line): it must leave
  let telling = true;
  function tellsTable() {
    if (!telling || !voiceOn || scope === "silent") return false;
    if (page === "table") return body.dataset.unlocked === "yes";
    return page === "seat" && scope === "all" && !!body.dataset.seat;
  }
  function tell(payload) {
    told = !payload.leaving;
    payload.serial = heardSerial;
    if (body.dataset.seat) payload.seat = body.dataset.seat;
    return fetch("/api/spoken", {
      method: "POST", credentials: "same-origin", keepalive: true,
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(payload),
    }).then(function (response) { if (response.status === 401 || response.status === 403) telling = false; })
      .catch(function () { /* the next line tells again */ });
  }
  function spokenAll() {
    if (!tellsTable() || heardSerial <= toldSerial || voice.busy()) return;
    toldSerial = heardSerial;
    tell({});
  }
  function stopTelling() {
    if (told && telling) tell({ leaving: true });
    toldSerial = 0;
  }
  voice.onIdle(spokenAll);
  // Still speaking (a long answer, a backlog): each line finished says the voice is alive, so the robots
  // keep waiting for it beyond their ceiling (what it has said is unchanged: the last serial told).
  voice.onLine(function () {
    if (!tellsTable() || toldSerial === 0 || !voice.busy()) return;
    const keep = heardSerial;
    heardSerial = toldSerial;
    tell({});
    heardSerial = keep;
  });
  window.addEventListener("pagehide", stopTelling);

  // At a practice table the table's voices come with each fragment: when a practice player's phone speaks
  // everything, the tablet leaves the stream's lines to it; when the tablet (or the Pi) speaks the table, a
  // phone that speaks "what concerns me" leaves them to it. Either way one voice says each line.
  let tableVoices = [];
  function deferred() {
    if (page === "table") return tableVoices.some(function (v) { return v.indexOf("seat:") === 0; });
    return page === "seat" && scope === "mine"
      && tableVoices.some(function (v) { return v === "table" || v === "speaker"; });
  }

  // What this device says of a message from the stream: all of it, what concerns its player, or nothing.
  function spoken(data) {
    if (scope === "silent") return "";
    if (scope === "mine") return a11y.profiled(data, speech.concerning(data, body.dataset.seat));
    return a11y.profiled(data, data.text);
  }

  // For the screen reader (voice off): the live regions; read aloud (voice on): the speech. One voice.
  function toReader(text, urgent, id) {
    if (voiceOn) return;
    const region = document.getElementById(id || (urgent ? "announce-urgent" : "announce"));
    if (region) { region.textContent = ""; region.textContent = text; }
  }

  // A fact asked with its key or button: shown, and said by this device's one voice.
  function sayFact(text) {
    const shown = document.getElementById("fact-answer");
    if (shown) shown.textContent = text;
    if (voiceOn) speakNow([text]);
    else toReader(text, false);
  }

  // Parts that tell a person to act; when this device said one for its player, "your move" is not said twice.
  const TURN_KEYS = window.MarmiteSpeech.keys.turn || [];  // the games' own (data-speech-keys)
  // The refresh asked right after the line that told this player their turn (0: none): a refresh asked
  // before that line (answered late, applied after it) neither says the cue nor forgets that it was told.
  let turnToldAt = 0;
  function tellsMyTurn(data, said) {
    const seat = body.dataset.seat;
    return !!seat && !!said && (data.parts || []).some(function (part) {
      return TURN_KEYS.indexOf(part.key) >= 0 && said.indexOf(part.text) >= 0
        && speech.names(part.text, seat);  // a call to choose names the people it calls
    });
  }

  function announce(data, urgent, asked) {
    window.marmiteLog.push(data);
    const said = asked ? data.text : spoken(data);
    if (!asked && voiceOn && tellsMyTurn(data, said)) turnToldAt = refreshAsked + 1;
    if (said) toReader(said, urgent);  // a refusal too only within this device's scope (a phone: its player's)
    if (data.kind !== "repeat" && data.kind !== "where") a11y.addToLog(data);
    if (!asked) a11y.cueFor(data);
    const answer = document.getElementById("now-answer");
    if (answer && data.kind !== "where") {
      answer.textContent = data.text;
      answer.classList.toggle("refused", data.accepted === false);
    }
    const refusal = document.getElementById("refusal");
    if (refusal) {
      if (data.accepted === false) { refusal.textContent = data.text; refusal.hidden = false; }
      else if (data.kind !== "repeat" && data.kind !== "where") { refusal.hidden = true; }
    }
    if (asked) speakNow([said], data.lang); else if (!deferred()) speak(said, data.lang);
  }

  function idempotencyKey() {  // one key per tap: a resend of that tap is recorded once
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  async function sendOnce(url, payload, key) {  // a dropped connection is retried with the same key
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetch(url, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, "Idempotency-Key": key },
          body: JSON.stringify(payload || {}),
        });
      } catch (error) {
        if (attempt >= 2) throw error;
        await new Promise(function (resolve) { setTimeout(resolve, 500 * (attempt + 1)); });
      }
    }
  }

  async function post(url, payload) {
    const response = await sendOnce(url, payload, idempotencyKey());
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) {
      // A locked table answers in the API's technical words: players read the page's own sentence.
      const locked = response.status === 401 || response.status === 403;
      throw new Error(locked ? body.dataset.msgLocked : (data.error || response.statusText));
    }
    return data;
  }

  function status(id, text) {
    const element = document.getElementById(id);
    if (element) element.textContent = text;
  }

  // Fragments are applied in the order they were asked for: an older answer never covers a newer one.
  let refreshAsked = 0;
  let refreshShown = 0;
  async function refresh() {
    const state = document.getElementById("state");
    if (!state) return;
    const mine = ++refreshAsked;
    const seat = body.dataset.seat;
    const url = seat ? "/fragment/seat/" + encodeURIComponent(seat) : "/fragment/table";
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (response.status === 404 && seat) { seatGone(); return; }
    if (!response.ok) return;
    const html = await response.text();
    if (mine < refreshShown) return;
    tableVoices = decodeURIComponent(response.headers.get("X-Table-Voices") || "").split(" ").filter(Boolean);
    const robots = response.headers.get("X-Practice-Robots");  // a practice table: its robot seats
    try { a11y.setPracticeRobots(robots ? JSON.parse(decodeURIComponent(robots)) : null); } catch (e) { /* kept */ }
    refreshShown = mine;
    const wasMyTurn = !!document.getElementById("my-turn");
    const focused = state.contains(document.activeElement) ? document.activeElement : null;
    a11y.update(state, html);  // node by node: the focused control stays where it is
    if (focused && !document.body.contains(focused)) keepFocus(state);  // e.g. the card just played is gone
    body.dataset.refreshed = String(mine);  // tests and tools can wait for the page to be current
    showHostBar();
    const myTurn = document.getElementById("my-turn");
    if (myTurn && !wasMyTurn) {  // the seat's turn (play, choose, exchange): a cue when chosen, and words
      a11y.cue("turn");  // in this device's one voice, unless a line it just said told the player already
      window.marmiteYourMove = (window.marmiteYourMove || 0) + 1;
      if (voiceOn && !turnToldAt && !deferred()) speak(myTurn.textContent);
      toReader(myTurn.textContent, false, "announce-turn");
    }
    if (turnToldAt && mine >= turnToldAt) turnToldAt = 0;
    if (detailFor && mine >= detailFor) {  // the detailed profile: what the play's line did not say of the
      detailFor = 0;  // state after it (never "nothing to say", never twice); in another, nothing (nor later)
      const detail = a11y.profile() === "detailed" ? a11y.detailAfter(detailAfterLine) : "";
      if (detail && detail !== lastDetail && scope !== "silent" && !deferred()) {
        lastDetail = detail;
        speak(detail);
        toReader(detail, false);
      }
    }
  }

  // A phone left open on a game that was replaced: its seat is gone, and it says so (once).
  function seatGone() {
    const state = document.getElementById("state");
    if (!state || state.dataset.gone) return;
    state.dataset.gone = "yes";
    const notice = document.createElement("p");
    notice.className = "refusal";
    notice.id = "seat-gone";
    notice.textContent = body.dataset.msgGone;
    const link = document.createElement("a");
    link.href = "/";
    link.textContent = body.dataset.msgTable;
    state.replaceChildren(notice, link);
    toReader(notice.textContent, true);
    speak(notice.textContent);
  }

  // The host's bar above the grid and the grid's marks for the cards already played this round.
  function showHostBar() {
    const source = document.getElementById("now-source");
    const bar = document.getElementById("now-state");
    if (!source) return;
    if (bar) bar.textContent = source.textContent;
    const entry = document.getElementById("card-entry");  // no card grid once the game is over
    if (entry) entry.hidden = source.dataset.phase === "game_over";
    const played = new Set((source.dataset.played || "").split(" ").filter(Boolean));
    const grid = document.querySelector(".grid");
    const word = grid ? grid.dataset.playedWord : "";
    document.querySelectorAll(".card-btn").forEach(function (button) {
      const was = button.classList.contains("played");
      const is = played.has(button.dataset.code);
      if (was === is) return;
      button.classList.toggle("played", is);
      const mark = button.querySelector(".played-mark");
      if (is && !mark) {
        const hidden = document.createElement("span");
        hidden.className = "visually-hidden played-mark";
        hidden.textContent = ", " + word;
        button.appendChild(hidden);
      } else if (!is && mark) { mark.remove(); }
    });
  }
  showHostBar();

  // After an outage the stream first replays what was missed: a few are said, a flood is summed up.
  const CATCH_UP_MS = 300;
  const FLOOD = 5;
  let catchUp = null;
  function sayMissed(missed) {
    if (missed.length <= FLOOD) { missed.forEach(function (data) { announce(data, data.accepted === false); }); return; }
    const keep = voiceOn;
    voiceOn = false;  // shown and logged, not spoken one by one
    missed.forEach(function (data) { announce(data, false); });
    voiceOn = keep;
    const last = missed[missed.length - 1];
    const line = (body.dataset.msgMissed || "").replace("%(n)s", String(missed.length)) + " " + last.text;
    toReader(line, false);
    speak(line, last.lang);
  }

  // The refresh asked right after an accepted play's line (0: none): the state after that play. A refresh
  // asked earlier and answered late shows an older state, which is not said against this line.
  let detailFor = 0;
  let detailAfterLine = "";  // the line the state after a play follows: what it said is not said again
  let lastDetail = "";
  // A stream the server refuses (too many at once from this address: 429) is closed for good by the
  // browser: the page opens a new one itself, later and later (1 s, 2 s, 4 s… at most 30 s), and says once
  // that it is trying again, so it is never silent for good.
  let retries = 0;
  let retrySaid = false;
  function connect() {
    // The first connection starts where the page was rendered, so nothing said in between is lost.
    const source = new EventSource("/api/stream?last_id=" + encodeURIComponent(heardSeq));
    window.marmiteSource = source;
    let dropped = retries > 0;
    source.onopen = function () {
      retries = 0;
      retrySaid = false;
      const banner = document.getElementById("refusal");
      if (banner && banner.dataset.retry) { banner.hidden = true; delete banner.dataset.retry; }
      if (dropped) {
        catchUp = [];
        setTimeout(function () { const missed = catchUp || []; catchUp = null; sayMissed(missed); }, CATCH_UP_MS);
      }
      body.dataset.stream = "open";
      if (tellsTable() && !voice.busy()) tell({});  // the table's voice from now on: the robots wait for it
      refresh();
    };
    source.onerror = function () {
      dropped = true;
      body.dataset.stream = "reconnecting";
      if (source.readyState !== EventSource.CLOSED) return;  // the browser tries again by itself
      body.dataset.stream = "retrying";
      const wait = Math.min(30000, 1000 * Math.pow(2, retries));
      retries += 1;
      window.marmiteRetries = (window.marmiteRetries || 0) + 1;
      if (!retrySaid && body.dataset.msgRetry) {
        retrySaid = true;
        toReader(body.dataset.msgRetry, false);
        speak(body.dataset.msgRetry);
        const banner = document.getElementById("refusal");  // shown at the top until the stream is back
        if (banner) { banner.textContent = body.dataset.msgRetry; banner.hidden = false; banner.dataset.retry = "yes"; }
      }
      setTimeout(connect, wait);
    };
    source.onmessage = function (event) {
      const data = JSON.parse(event.data);
      if (typeof data.serial === "number" && data.serial > heardSerial) heardSerial = data.serial;
      if (event.lastEventId) heardSeq = event.lastEventId;
      try { onMessage(data); } finally { spokenAll(); }
    };
  }

  function onMessage(data) {
    if (data.kind === "repeat" || data.kind === "where") return; // spoken where asked
    if (page === "seat" && data.kind === "reader") return;
    if (data.kind === "resumed" || (data.lang && body.dataset.lang && data.lang !== body.dataset.lang)) {
      // another game is on the table, or another language: its whole page (labels, log headings), then its words
      sessionStorage.setItem("marmite-say", JSON.stringify(data));
      window.location.reload();
      return;
    }
    if (catchUp !== null) catchUp.push(data); else announce(data, data.accepted === false);
    if (data.text) {  // a silent message (a robot's choice noted) leaves the state after the last line said
      detailFor = data.accepted === true ? refreshAsked + 1 : 0;
      detailAfterLine = spoken(data);  // what this device said of it ("mine": its player's parts; maybe none)
    }
    refresh();
  }

  async function askAndSpeak(url) {
    try { announce(await post(url), false, true); } catch (e) { status("control-status", e.message); }
  }

  const repeat = document.getElementById("repeat");
  if (repeat) repeat.addEventListener("click", function () { askAndSpeak("/api/repeat"); });
  const where = document.getElementById("where");
  if (where) where.addEventListener("click", function () { askAndSpeak("/api/where"); });
  const toggle = document.getElementById("voice-toggle");
  function showVoice() {
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", voiceOn ? "true" : "false");
    toggle.textContent = voiceOn ? toggle.dataset.on : toggle.dataset.off;
  }
  showVoice();
  function setVoice(on) {
    voiceOn = on;
    speech.setPref("voice", voiceOn ? "on" : "off");
    showVoice();
    document.querySelectorAll("input[name=output]").forEach(function (c) { c.checked = c.value === (voiceOn ? "aloud" : "reader"); });
    if (!voiceOn) { voice.hush(); stopTelling(); }
  }
  if (toggle) toggle.addEventListener("click", function () { setVoice(!voiceOn); });
  // Joining a seat: screen reader or read aloud, asked once on this device, changeable later.
  document.querySelectorAll("input[name=output]").forEach(function (choice) {
    choice.checked = choice.value === (voiceOn ? "aloud" : "reader");
    choice.addEventListener("change", function () { setVoice(choice.value === "aloud"); });
  });
  const joinChoice = document.getElementById("join-choice");
  const heldElsewhere = document.getElementById("seat-held");  // this seat is another phone's: say that first
  if (heldElsewhere) {
    heldElsewhere.setAttribute("tabindex", "-1");
    heldElsewhere.focus();
  } else if (joinChoice && body.dataset.seat && speech.pref("voice", "") === "") {
    joinChoice.hidden = false;
    const first = joinChoice.querySelector("button");  // the question is where the keyboard is
    if (first) first.focus();
  }
  // "Skip to my moves": the first control this player may use now (else the state, to read it).
  const MOVES = [".practice-play[data-playable]:not([aria-disabled=true])",  // a card the rules allow first
    ".practice-play:not([aria-disabled=true])", ".seat-menu-btn", "#practice-swap input",
    ".practice-play", "#state button"];
  function firstMove() {
    return MOVES.map(function (s) { return document.querySelector(s); }).find(Boolean);
  }
  // The focused control went with a refresh (a card played, a choice made): the focus goes to the next
  // move, else to the seat's state, never to the top of the page.
  function keepFocus(state) {
    const target = firstMove() || state;
    if (target === state && !state.hasAttribute("tabindex")) state.setAttribute("tabindex", "-1");
    target.focus();
  }
  document.querySelectorAll("[data-my-moves]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      const target = firstMove();
      if (!target) return;
      event.preventDefault();
      target.focus();
    });
  });
  document.querySelectorAll("[data-output]").forEach(function (button) {
    button.addEventListener("click", function () {
      setVoice(button.dataset.output === "aloud");
      if (joinChoice) joinChoice.hidden = true;
      sayFact(button.dataset.said);
    });
  });
  a11y.wire(sayFact);
  document.querySelectorAll("input[name=speak]").forEach(function (choice) {
    choice.checked = choice.value === scope;
    choice.addEventListener("change", function () {
      scope = choice.value;
      speech.setPref("speak", scope);
      if (!tellsTable()) stopTelling();
    });
  });
  const deviceRate = document.getElementById("device-rate");
  if (deviceRate) {
    deviceRate.value = String(rate);
    deviceRate.addEventListener("change", function () {
      const chosen = parseFloat(deviceRate.value);
      if (chosen >= 0.5 && chosen <= 2) { rate = chosen; voice.setRate(rate); speech.setPref("rate", rate); }
    });
  }
  // The last five announcements, oldest first, on demand.
  const lastFive = document.getElementById("last-five");
  if (lastFive) lastFive.addEventListener("click", function () {
    const texts = a11y.lastTexts(5);
    toReader(texts.join(" "), false);
    speakNow(texts);
  });

  async function control(url, payload) {
    try {
      const answer = await post(url, payload);
      status("control-status", answer.ignored ? "…" : "");  // the stream says what happened
    } catch (e) { status("control-status", e.message); }
  }
  // What a game's own script (static/<game>/) uses: the same posting, refreshing and status line.
  window.Marmite = { post: post, control: control, refresh: refresh, status: status };
  const undo = document.getElementById("undo");
  if (undo) undo.addEventListener("click", function () { control("/api/undo"); });
  // Past games: resume an interrupted game (then the table) or close it; what the table says is said
  // on the next page, so moving on does not cut the speech short.
  const pastGames = document.getElementById("past-games");
  if (pastGames) pastGames.addEventListener("click", async function (event) {
    const button = event.target instanceof Element ? event.target.closest(".resume-game, .close-game") : null;
    if (!button) return;
    const resume = button.classList.contains("resume-game");
    if (!resume && !window.confirm(pastGames.dataset.confirmClose)) return;
    try {
      const answer = await post("/api/games/" + button.dataset.game + (resume ? "/resume" : "/close"));
      sessionStorage.setItem("marmite-say", JSON.stringify(answer));
      if (resume) window.location.href = "/"; else window.location.reload();
    } catch (e) { status("setup-status", e.message); }
  });
  // Past games: the start time in this device's own time zone.
  document.querySelectorAll("time.local-time").forEach(function (element) {
    const when = new Date(element.getAttribute("datetime"));
    if (!isNaN(when.getTime())) {
      element.textContent = when.toLocaleString(body.dataset.lang || undefined,
        { dateStyle: "medium", timeStyle: "short" });
    }
  });
  // The PIN holder frees a seat a phone holds (a lost phone, a link opened by someone else).
  document.querySelectorAll("button[data-release]").forEach(function (button) {
    button.addEventListener("click", async function () {
      try {
        await post("/api/seat/" + encodeURIComponent(button.dataset.release) + "/release", {});
        window.location.reload();
      } catch (e) { status("setup-status", e.message); }
    });
  });
  const pinForm = document.getElementById("pin-form");
  if (pinForm) pinForm.addEventListener("submit", async function (event) {
    event.preventDefault();
    const pin = String(new FormData(pinForm).get("pin") || "");
    try {
      await post("/api/pin", { pin: pin });
      document.getElementById("current-pin").textContent = pin;
      status("pin-status", pinForm.dataset.changed);
    } catch (e) { status("pin-status", e.message); }
  });
  const settings = document.getElementById("settings");
  if (settings) settings.addEventListener("submit", async function (event) {
    event.preventDefault();
    const form = new FormData(settings);
    try {
      await post("/api/settings", { language: form.get("language"), voice: form.get("voice") === "on",
        rate: parseFloat(String(form.get("rate"))) });
      window.location.reload();
    } catch (e) { status("setup-status", e.message); }
  });

  // Keyboard: R repeats, O ("où") / W ("where") says where we are, U undoes (when unlocked).
  document.addEventListener("keydown", function (event) {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.repeat) return;  // a key held down is one press, not one per auto-repeat (U undid a whole trick)
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const digit = /^(?:Digit|Numpad)([0-9])$/.exec(event.code || "");  // AZERTY gives "&" for the 1 key
    const key = digit ? digit[1] : event.key.toLowerCase();
    if (key === "r" && repeat) { event.preventDefault(); repeat.click(); }
    else if ((key === "o" || key === "w") && where) { event.preventDefault(); where.click(); }
    else if (key === "u" && undo) { event.preventDefault(); undo.click(); }
    else if (key === "l" && lastFive) { event.preventDefault(); lastFive.click(); }
    else if (a11y.key(key, sayFact)) { event.preventDefault(); }
  });

  async function keepAwake() {
    try { if ("wakeLock" in navigator) await navigator.wakeLock.request("screen"); } catch (e) { /* not granted */ }
  }
  const said = sessionStorage.getItem("marmite-say");  // what the previous page had to say as it left
  if (said) {
    sessionStorage.removeItem("marmite-say");
    try { announce(JSON.parse(said), false); } catch (e) { /* not ours */ }
  }
  if (page === "table" || page === "seat") {
    keepAwake();
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") keepAwake();
    });
    if (claiming) claiming.then(function (reloading) { if (!reloading) connect(); });
    else connect();
  }
})();
