// Marmite pages: live stream, speech (Web Speech API), undo, settings and past games, wake lock (a game's own
// controls are in its static/<game>/ script).
"use strict";
(function () {
  const body = document.body;
  const page = body.dataset.page;
  const csrf = body.dataset.csrf;
  const voices = { fr: "fr-FR", en: "en-GB", nl: "nl-NL" };
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
      if (response.ok) { window.location.reload(); return true; }
      return false;
    }).catch(function () { return false; }) : null;
  // This device's own choices (kept in this browser): voice on/off, what it speaks, how fast.
  let voiceOn = speech.pref("voice", body.dataset.voice) === "on";
  let scope = speech.pref("speak", body.dataset.seat ? "mine" : "all");
  // "mine" needs a seat page that offers it (a game whose phone page lacks it speaks everything).
  if (scope === "mine" && !(body.dataset.seat && document.querySelector("input[name=speak][value=mine]"))) {
    scope = "all";
  }
  let rate = parseFloat(speech.pref("rate", body.dataset.rate || "1")) || 1;
  const log = document.getElementById("log");
  window.marmiteLog = [];

  function speak(text, lang) {
    if (!voiceOn || !("speechSynthesis" in window) || !text) return;
    speech.chunks(text).forEach(function (piece) {
      const utterance = new SpeechSynthesisUtterance(piece);
      utterance.lang = voices[lang || body.dataset.lang] || "fr-FR";
      utterance.rate = rate;
      window.speechSynthesis.speak(utterance);
    });
  }

  // What this device says of a message from the stream: all of it, what concerns its player, or nothing.
  function spoken(data) {
    if (scope === "silent") return "";
    if (scope === "mine") return speech.concerning(data, body.dataset.seat);
    return data.text;
  }

  function announce(data, urgent, asked) {
    window.marmiteLog.push(data);
    const region = document.getElementById(urgent ? "announce-urgent" : "announce");
    if (region) { region.textContent = ""; region.textContent = data.text; }
    if (log) {
      const item = document.createElement("li");
      item.textContent = data.text;
      log.prepend(item);
      while (log.children.length > 30) log.lastChild.remove();
    }
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
    speak(asked ? data.text : spoken(data), data.lang);
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
    if (!response.ok) return;
    const html = await response.text();
    if (mine < refreshShown) return;
    refreshShown = mine;
    const wasMyTurn = !!document.getElementById("my-turn");
    state.innerHTML = html;
    body.dataset.refreshed = String(mine);  // tests and tools can wait for the page to be current
    showHostBar();
    const myTurn = document.getElementById("my-turn");
    if (myTurn && !wasMyTurn) {  // the seat's turn alert: a buzz and a word for the screen reader
      if ("vibrate" in navigator) navigator.vibrate([200, 100, 200]);
      const region = document.getElementById("announce-urgent");
      if (region) { region.textContent = ""; region.textContent = myTurn.textContent; }
    }
  }

  // The host's bar above the grid and the grid's marks for the cards already played this round.
  function showHostBar() {
    const source = document.getElementById("now-source");
    const bar = document.getElementById("now-state");
    if (!source) return;
    if (bar) bar.textContent = source.textContent;
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
    const region = document.getElementById("announce");
    if (region) { region.textContent = ""; region.textContent = line; }
    speak(line, last.lang);
  }

  function connect() {
    // The first connection starts where the page was rendered, so nothing said in between is lost.
    const source = new EventSource("/api/stream?last_id=" + encodeURIComponent(body.dataset.lastSeq || "0"));
    window.marmiteSource = source;
    let dropped = false;
    source.onopen = function () {
      if (dropped) {
        catchUp = [];
        setTimeout(function () { const missed = catchUp || []; catchUp = null; sayMissed(missed); }, CATCH_UP_MS);
      }
      body.dataset.stream = "open";
      refresh();
    };
    source.onerror = function () { dropped = true; body.dataset.stream = "reconnecting"; };
    source.onmessage = function (event) {
      const data = JSON.parse(event.data);
      if (data.kind === "repeat" || data.kind === "where") return; // spoken where asked
      if (page === "seat" && data.kind === "reader") return;
      if (data.kind === "resumed") {  // another game is on the table: its whole page, then its words
        sessionStorage.setItem("marmite-say", JSON.stringify(data));
        window.location.reload();
        return;
      }
      if (catchUp !== null) catchUp.push(data); else announce(data, data.accepted === false);
      refresh();
    };
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
  if (toggle) toggle.addEventListener("click", function () {
    voiceOn = !voiceOn;
    speech.setPref("voice", voiceOn ? "on" : "off");
    showVoice();
    if (!voiceOn && "speechSynthesis" in window) window.speechSynthesis.cancel();
  });
  document.querySelectorAll("input[name=speak]").forEach(function (choice) {
    choice.checked = choice.value === scope;
    choice.addEventListener("change", function () { scope = choice.value; speech.setPref("speak", scope); });
  });
  const deviceRate = document.getElementById("device-rate");
  if (deviceRate) {
    deviceRate.value = String(rate);
    deviceRate.addEventListener("change", function () {
      const chosen = parseFloat(deviceRate.value);
      if (chosen >= 0.5 && chosen <= 2) { rate = chosen; speech.setPref("rate", rate); }
    });
  }
  // The last five announcements, oldest first, on demand.
  const lastFive = document.getElementById("last-five");
  if (lastFive) lastFive.addEventListener("click", function () {
    if (!log) return;
    const texts = Array.from(log.children).slice(0, 5).reverse().map(function (item) { return item.textContent; });
    const region = document.getElementById("announce");
    if (region) { region.textContent = ""; region.textContent = texts.join(" "); }
    texts.forEach(function (text) { speak(text); });
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
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const key = event.key.toLowerCase();
    if (key === "r" && repeat) { event.preventDefault(); repeat.click(); }
    else if ((key === "o" || key === "w") && where) { event.preventDefault(); where.click(); }
    else if (key === "u" && undo) { event.preventDefault(); undo.click(); }
    else if (key === "l" && lastFive) { event.preventDefault(); lastFive.click(); }
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
