// The deck page: decks, enrollment, deck check and dealing by tag. Prompts come on the stream
// (kind "deck") and are spoken here; the screen follows GET /api/deck.
"use strict";
(function () {
  const body = document.body;
  if (body.dataset.page !== "deck") return;
  const csrf = body.dataset.csrf;
  const voices = { fr: "fr-FR", en: "en-GB", nl: "nl-NL" };
  const rate = parseFloat(body.dataset.rate || "1") || 1;
  const names = {};
  const template = document.getElementById("deck-names");
  if (template) template.content.querySelectorAll("data").forEach(function (d) { names[d.value] = d.textContent; });
  window.marmiteDeckSaid = [];

  function $(id) { return document.getElementById(id); }
  function nameOf(code) { return names[code] || code; }

  function speak(text) {
    if (body.dataset.voice !== "on" || !("speechSynthesis" in window) || !text) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = voices[body.dataset.lang] || "fr-FR";
    utterance.rate = rate;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
  }

  function list(id, items, label) {
    const element = $(id);
    if (!element) return;
    element.replaceChildren();
    items.forEach(function (item) {
      const li = document.createElement("li");
      li.textContent = label ? label(item) : item;
      element.append(li);
    });
  }

  function game() { const select = $("deck-game"); return select ? select.value : undefined; }

  function render(info) {
    const activity = info.activity;
    if (activity && activity.game && $("deck-game")) $("deck-game").value = activity.game;
    const enrolling = activity && activity.kind === "enroll";
    $("enroll-panel").hidden = !enrolling;
    if (enrolling) {
      $("enroll-current").textContent = activity.current ? nameOf(activity.current) : "—";
      $("enroll-count").textContent = activity.count + " / " + activity.total;
      $("enroll-progress").max = activity.total;
      $("enroll-progress").value = activity.count;
      list("missing-list", activity.missing, nameOf);
      $("missing-count").textContent = String(activity.missing.length);
    }
    const checking = activity && activity.kind === "check";
    $("check-live").textContent = checking ? activity.seen + " / " + activity.total : "";
    const report = info.last_report;
    if (report && !checking) {
      $("check-report").hidden = false;
      list("check-missing", report.missing, nameOf);
      list("check-unknown", report.unknown);
      list("check-doubled", report.doubled, nameOf);
    }
    const dealing = activity && activity.kind === "deal";
    $("deal-panel").hidden = !dealing;
    if (dealing) {
      $("deal-next").textContent = activity.next || "—";
      $("deal-count").textContent = activity.count + " / " + activity.total;
      if ($("deal-every-round")) $("deal-every-round").checked = !!activity.every_round;
      list("deal-players", activity.players, function (p) { return p.name + " : " + p.count + " / " + p.size; });
    }
    body.dataset.deckActivity = activity ? activity.kind : "none";
    const trouble = $("deck-trouble");
    if (trouble) { trouble.hidden = !info.set_aside; trouble.textContent = info.set_aside || ""; }
    const offers = Object.entries(info.offers || {});
    $("offers-box").hidden = offers.length === 0;
    $("offers").replaceChildren();
    offers.forEach(function (offer) {
      const li = document.createElement("li");
      li.textContent = nameOf(offer[1]) + " (" + offer[0] + ") ";
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = $("deck-add-label").content.textContent;
      button.addEventListener("click", function () { act("/api/deck/adopt", { uid: offer[0] }); });
      li.append(button);
      $("offers").append(li);
    });
  }

  async function refresh() {
    const response = await fetch("/api/deck", { credentials: "same-origin", cache: "no-store" });
    if (response.ok) render(await response.json());
  }

  async function post(url, payload, raw) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": raw ? "text/csv" : "application/json", "X-CSRF-Token": csrf },
      body: raw ? payload : JSON.stringify(payload || {}),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  async function act(url, payload, where) {
    const refused = where ? $(where.split("-")[0] + "-refused") : null;
    if (refused) refused.textContent = "";
    try {
      const answer = await post(url, payload);
      if (where && answer.text !== undefined) $(where).textContent = answer.text;
      if (answer.report) $("check-said").textContent = answer.text;
      // A refusal the table said (a reader that types two cards alike) shows where the button was
      // pressed, as a busy reader's does: the enrollment panel stays hidden, nothing is under way.
      const refusal = answer.outcome === "refused" ? answer.text : "";
      $("deck-status").textContent = refusal;
      if (refused) refused.textContent = refusal;
      await refresh();
    } catch (e) {
      // Shown where the button was pressed (in view), not only at the top of the page; a busy reader's
      // refusal is also said by the table (it comes back on the stream and is spoken there).
      $("deck-status").textContent = e.message;
      if (refused) refused.textContent = e.message;
      await refresh();
    }
  }

  document.querySelectorAll("[data-enroll]").forEach(function (button) {
    button.addEventListener("click", function () {
      act("/api/deck/enroll", { action: button.dataset.enroll, game: game() }, "enroll-said");
    });
  });
  document.querySelectorAll("[data-check]").forEach(function (button) {
    button.addEventListener("click", function () {
      act("/api/deck/check", { action: button.dataset.check, game: game() }, "check-said");
    });
  });
  document.querySelectorAll("[data-deal]").forEach(function (button) {
    button.addEventListener("click", function () {
      const payload = { action: button.dataset.deal };
      const every = $("deal-every-round");
      if (button.dataset.deal === "start" && every) payload.every_round = every.checked;
      act("/api/deck/deal", payload, "deal-said");
    });
  });
  document.querySelectorAll(".deck-use").forEach(function (button) {
    button.addEventListener("click", async function () { await act("/api/deck/use", { name: button.dataset.name }); location.reload(); });
  });
  const selfDescribing = $("self-describing");
  if (selfDescribing) selfDescribing.addEventListener("change", function () {
    act("/api/deck/self_describing", { on: selfDescribing.checked });
  });
  const edition = $("deck-edition");
  if (edition) edition.addEventListener("change", async function () {
    await act("/api/deck/edition", { edition: edition.value });
    location.reload(); // the cards' names on this page are the edition's
  });
  const redo = $("enroll-redo");
  if (redo) redo.addEventListener("submit", function (event) {
    event.preventDefault();
    act("/api/deck/enroll", { action: "redo", card: $("redo-card").value }, "enroll-said");
  });
  const create = $("deck-new");
  if (create) create.addEventListener("submit", async function (event) {
    event.preventDefault();
    try { await post("/api/deck/new", { name: $("deck-name").value, edition: $("deck-new-edition").value }); location.reload(); }
    catch (e) { $("deck-status").textContent = e.message; }
  });
  const upload = $("deck-import");
  if (upload) upload.addEventListener("submit", async function (event) {
    event.preventDefault();
    const file = $("deck-file").files[0];
    if (!file) return;
    try {
      const answer = await post("/api/deck/import", await file.text(), true);
      $("deck-status").textContent = "✓ " + answer.imported;
      location.reload();
    } catch (e) { $("deck-status").textContent = e.message; }
  });

  const source = new EventSource("/api/stream");
  source.onopen = function () { body.dataset.stream = "open"; };
  source.onmessage = function (event) {
    const data = JSON.parse(event.data);
    if (data.kind !== "deck") return;
    window.marmiteDeckSaid.push(data.text);
    const live = $("announce");
    if (live) { live.textContent = ""; live.textContent = data.text; }
    // A read from the reader (noted, refused, written and verified on the tag, or not) shows on screen too.
    if (body.dataset.deckActivity === "enroll") $("enroll-said").textContent = data.text;
    speak(data.text);
    refresh();
  };
  refresh();
})();
