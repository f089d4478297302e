// Robot seats: the new-game form with robots, and on a seat's phone at a practice table, its cards to
// play and the chef's advice (spoken on this phone only: the advice is the player's own).
"use strict";
(function () {
  const body = document.body;
  const speech = window.MarmiteSpeech;

  async function post(url, payload) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": body.dataset.csrf },
      body: JSON.stringify(payload || {}),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) throw new Error(data.text || data.error || response.statusText);  // `text`: the players' words
    return data;
  }

  window.MarmiteRobots = { post: post };  // for a game's own robot forms (web_ui/games/<game>/static)

  // Shown in the status line (read by a screen reader: role=status); said aloud only when this page speaks
  // itself (never both voices), at once like an answer. `echoed`: the table's stream says it too on a page
  // that speaks everything, so it is not said twice there.
  function say(id, text, lang, echoed) {
    const element = document.getElementById(id);
    if (element) element.textContent = text;
    if (!text || speech.pref("voice", body.dataset.voice) !== "on") return;
    if (echoed && speech.pref("speak", "mine") === "all") return;
    speech.voice.sayNow([text], lang || body.dataset.lang);
  }

  const form = document.getElementById("robot-game");
  if (form) form.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (form.dataset.running === "yes" && !window.confirm(form.dataset.confirm)) return;  // as the games' own forms
    const data = new FormData(form);
    const names = data.getAll("player").map(function (p) { return String(p).trim(); });
    const levels = data.getAll("level").map(String);
    const players = [];
    const seats = {};
    names.forEach(function (name, i) {
      if (!name) return;
      players.push(name);
      if (levels[i]) seats[name] = levels[i];
    });
    const game = String(data.get("game"));
    const first = players[(parseInt(String(data.get("first")), 10) || 1) - 1] || players[0];
    const robots = { seats: seats, practice: String(data.get("practice") || ""), aids: data.get("aids") !== null,
      pace_ms: Math.round((parseFloat(String(data.get("pace"))) || 0) * 1000) };
    const option = form.querySelector("#robot-game-kind option:checked");  // the games come from the page table
    const start = { type: "new_game" };
    if (option && !option.hasAttribute("data-default")) start.game = game;  // the default game needs no name
    start.players = players;
    if (option && option.dataset.first) start[option.dataset.first] = first;  // its dealer or first player
    start.robots = robots;
    const statusLine = document.getElementById("setup-status");
    try {
      const answer = await post("/api/events", start);
      if (answer.accepted) window.location.href = "/";
      else if (statusLine) statusLine.textContent = form.dataset.refused;
    } catch (e) { if (statusLine) statusLine.textContent = e.message; }
  });

  // A practice without cards: the first player out exchanges the ticked cards (none: keeps).
  document.addEventListener("submit", async function (event) {
    const swapForm = event.target instanceof HTMLFormElement && event.target.id === "practice-swap" ? event.target : null;
    const seat = body.dataset.seat;
    if (!swapForm || !seat) return;
    event.preventDefault();
    const cards = new FormData(swapForm).getAll("swap").map(String);
    try {
      const answer = await post("/api/seat/" + encodeURIComponent(seat) + "/swap", { cards: cards });
      if (!answer.accepted) say("practice-status", swapForm.dataset.refused || "", body.dataset.lang);
    } catch (e) { say("practice-status", e.message, body.dataset.lang); }
  });

  // A seat's phone at a practice table (the buttons come with each seat fragment).
  document.addEventListener("click", async function (event) {
    const target = event.target instanceof Element ? event.target : null;
    const seat = body.dataset.seat;
    if (!target || !seat) return;
    const play = target.closest(".practice-play");
    const hint = target.closest("#practice-hint");
    if (!play && !hint) return;
    try {
      if (play) {
        const answer = await post("/api/seat/" + encodeURIComponent(seat) + "/play", { card: play.dataset.card });
        if (!answer.accepted) say("practice-status", answer.text || play.dataset.refused || "", body.dataset.lang, true);
      } else {
        const answer = await post("/api/seat/" + encodeURIComponent(seat) + "/hint");
        window.marmiteHint = answer.text;
        say("practice-status", answer.text, answer.lang);
      }
    } catch (e) { say("practice-status", e.message, body.dataset.lang); }
  });
})();
