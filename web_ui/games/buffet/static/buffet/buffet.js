// Sus au buffet ! controls: a plate drawn or a mouse card turned over by hand, and the new-game form.
"use strict";
(function () {
  const csrf = document.body.dataset.csrf;

  async function post(url, payload) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(payload || {}),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  function status(id, text) {
    const element = document.getElementById(id);
    if (element) element.textContent = text;
  }

  async function send(event) {
    try { await post("/api/events", event); status("control-status", ""); }  // the stream says what happened
    catch (e) { status("control-status", e.message); }
  }

  document.querySelectorAll(".plate-btn").forEach(function (button) {
    button.addEventListener("click", function () { send({ type: "plate", plate: button.dataset.plate }); });
  });
  document.querySelectorAll(".mouse-btn").forEach(function (button) {
    button.addEventListener("click", function () { send({ type: "card", card: button.dataset.card }); });
  });

  const form = document.getElementById("new-buffet-game");
  if (form) form.addEventListener("submit", async function (event) {
    event.preventDefault();
    const data = new FormData(form);
    const players = data.getAll("player").map(function (p) { return String(p).trim(); }).filter(Boolean);
    const first = players[(parseInt(String(data.get("first")), 10) || 1) - 1];  // a number past the last: no one
    if (form.dataset.running === "yes" && !window.confirm(form.dataset.confirm)) return;
    if (!first) { status("setup-status", form.dataset.refused); return; }
    try {
      const answer = await post("/api/events", { type: "new_game", game: "buffet", players: players, first: first });
      if (answer.accepted) window.location.href = "/";
      else status("setup-status", form.dataset.refused);  // in words, not the contract's reason code
    } catch (e) { status("setup-status", e.message); }
  });
})();
