// Chaud Devant ! on its pages: a card by hand, menus chosen in private or on a phone, the new-game form.
"use strict";
(function () {
  const body = document.body;
  const control = window.Marmite.control;
  const post = window.Marmite.post;
  const refresh = window.Marmite.refresh;
  const status = window.Marmite.status;

  document.querySelectorAll(".card-btn").forEach(function (button) {
    button.addEventListener("click", function () {
      const mode = document.querySelector("input[name=mode]:checked");
      const code = button.dataset.code;
      if (mode && mode.value === "event") control("/api/events", { type: "card", card: code });
      else control("/api/drop", { code: code });
    });
  });
  // A secret menu chosen on the tablet, in private: the tablet is passed to the player, who asks to see
  // the menus; once confirmed, the choice leaves the page and is never shown again before the reveal.
  const privateMenu = document.getElementById("private-menu");
  let privatePlayer = "";
  let privateLeft = [];
  function closePrivate() {
    document.getElementById("private-choices").replaceChildren();
    privatePlayer = "";
    if (privateMenu.open) privateMenu.close();
  }
  if (privateMenu) {
    document.addEventListener("click", function (event) {
      const opener = event.target instanceof Element ? event.target.closest(".private-menu") : null;
      if (!opener) return;
      const names = document.querySelectorAll("#seat-names li");  // names as text, never in attributes
      privatePlayer = names[parseInt(opener.dataset.seat, 10)].textContent;
      privateLeft = (opener.dataset.left || "").split(" ").filter(Boolean);
      document.getElementById("private-choices").replaceChildren();
      document.getElementById("private-menu-title").textContent = privateMenu.dataset.pass.replace("%(player)s", privatePlayer);
      const ready = document.getElementById("private-ready");
      ready.textContent = privateMenu.dataset.ready.replace("%(player)s", privatePlayer);
      ready.hidden = false;
      privateMenu.showModal();
    });
    document.getElementById("private-ready").addEventListener("click", function (event) {
      const choices = document.getElementById("private-choices");
      choices.replaceChildren(document.getElementById("private-menus").content.cloneNode(true));
      choices.querySelectorAll(".private-menu-btn").forEach(function (button) {
        button.disabled = !privateLeft.includes(button.dataset.menu);
      });
      event.currentTarget.hidden = true;
      const first = choices.querySelector(".private-menu-btn:not([disabled])");
      if (first) first.focus();
    });
    document.getElementById("private-choices").addEventListener("click", async function (event) {
      const target = event.target instanceof Element ? event.target : null;
      const choice = target ? target.closest(".private-menu-btn") : null;
      const choices = document.getElementById("private-choices");
      if (choice) {
        choices.querySelectorAll(".private-menu-btn").forEach(function (button) {
          button.setAttribute("aria-pressed", button === choice ? "true" : "false");
        });
        document.getElementById("private-confirm").disabled = false;
        return;
      }
      if (!target || !target.closest("#private-confirm")) return;
      const chosen = choices.querySelector(".private-menu-btn[aria-pressed=true]");
      if (!chosen) return;
      const payload = { type: "menu", player: privatePlayer, menu: chosen.dataset.menu };
      closePrivate();  // gone from the page before anything else happens
      await control("/api/events", payload);
    });
    document.getElementById("private-cancel").addEventListener("click", closePrivate);
    privateMenu.addEventListener("cancel", function () { closePrivate(); });
  }

  // Round 5: every player's one menu left, in one tap (each sent as its own menu event, in seat order).
  document.addEventListener("click", async function (event) {
    const button = event.target instanceof Element ? event.target.closest("#forced-menus") : null;
    if (!button) return;
    button.disabled = true;
    for (const pair of (button.dataset.forced || "").split(";").filter(Boolean)) {
      const at = pair.lastIndexOf("=");
      await control("/api/events", { type: "menu", player: pair.slice(0, at), menu: pair.slice(at + 1) });
    }
  });

  // A player's secret menu, chosen on their own phone (the buttons come with each seat fragment).
  document.addEventListener("click", function (event) {
    const button = event.target instanceof Element ? event.target.closest(".seat-menu-btn") : null;
    if (!button || !body.dataset.seat) return;
    post("/api/seat/" + encodeURIComponent(body.dataset.seat) + "/menu", { menu: button.dataset.menu })
      .then(function () { refresh(); })
      .catch(function (e) { status("announce-urgent", e.message); });
  });

  const newGame = document.getElementById("new-game");
  if (newGame) newGame.addEventListener("submit", async function (event) {
    event.preventDefault();
    const form = new FormData(newGame);
    const names = form.getAll("player").map(function (p) { return String(p).trim(); });
    const dealer = names[parseInt(String(form.get("dealer")), 10)] || "";
    if (!dealer) { status("setup-status", newGame.dataset.noDealer); return; }
    if (newGame.dataset.running === "yes" && !window.confirm(newGame.dataset.confirm)) return;
    try {
      const answer = await post("/api/events", { type: "new_game", players: names.filter(Boolean), dealer: dealer,
        rules: { edition: form.get("edition"), menu_reveal: form.get("menu_reveal") } });
      if (answer.accepted) window.location.href = "/";
      else status("setup-status", newGame.dataset.refused);
    } catch (e) { status("setup-status", e.message); }
  });
  // The dealer is chosen among the names typed, never by a number that may point at no one.
  const dealerChoice = document.getElementById("dealer");
  function nameDealers() {
    if (!newGame || !dealerChoice) return;
    newGame.querySelectorAll("input[name=player]").forEach(function (input, index) {
      const option = dealerChoice.options[index];
      const name = input.value.trim();
      option.textContent = name || option.dataset.blank;
      option.disabled = !name;
    });
  }
  if (newGame && dealerChoice) {
    Array.from(dealerChoice.options).forEach(function (option) { option.dataset.blank = option.textContent; });
    newGame.addEventListener("input", nameDealers);
    nameDealers();
  }
})();
