// A club table's pages: a line saying whether the results reached the hub, a "call the director" button
// (unlocked tablets), and on the setup page the hub's seating for the next game filled in (the host only
// checks and starts; nothing is submitted here, and a value the host already typed is left as it is).
(function () {
  "use strict";
  var script = document.currentScript;
  function byId(id) { return document.getElementById(id); }
  // A value set as the host would type it: the form's own scripts hear it (the dealer's options follow
  // the names typed), so the seated game starts at the first press of the start button.
  function setValue(input, value) {
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  // The setup form of the seated game: each game's form says, in its data attributes, its game
  // (data-club-game), its players' inputs (data-club-player + index), who leads (data-club-lead, counted
  // from data-club-lead-from) and the ids of its setup rules' selects (data-club-rules).
  function formOf(seating) {
    if (!seating || !Array.isArray(seating.players)) return null;
    var forms = document.querySelectorAll("form[data-club-game]");
    for (var i = 0; i < forms.length; i++) {
      if (forms[i].dataset.clubGame === String(seating.game)) return forms[i];
    }
    return null;
  }
  function fill(seating) {
    var form = formOf(seating);
    if (!form) return;
    var prefix = form.dataset.clubPlayer;
    seating.players.forEach(function (name, i) {
      var input = byId(prefix + i);
      if (input && !input.value) setValue(input, String(name));
    });
    var first = seating.players.indexOf(seating.dealer);
    var lead = form.dataset.clubLead ? byId(form.dataset.clubLead) : null;
    if (first >= 0 && lead) setValue(lead, String(first + Number(form.dataset.clubLeadFrom || 0)));
    var rules = seating.rules || {};
    (form.dataset.clubRules || "").split(" ").filter(Boolean).forEach(function (name) {
      var select = byId(name);
      if (select && rules[name]) setValue(select, String(rules[name]));
    });
    var note = document.createElement("p");
    note.id = "club-seating";
    note.setAttribute("role", "status");
    note.textContent = script.dataset.seated.replace("%(table)s", String(seating.table))
      .replace("%(round)s", String(seating.round));
    form.parentNode.insertBefore(note, form);
  }
  // Seats taken by a member's card: the seat's name filled in (unless the host typed one) and listed.
  function cardSeats(confirmed, seating) {
    var form = formOf(seating);
    if (!form || !Array.isArray(confirmed) || !confirmed.length) return;
    var prefix = form.dataset.clubPlayer;
    var list = byId("club-cards");
    if (!list) {
      var box = document.createElement("div");
      box.setAttribute("role", "status");
      list = document.createElement("ul");
      list.id = "club-cards";
      box.appendChild(list);
      form.parentNode.insertBefore(box, form);
    }
    var lines = confirmed.map(function (taken) {
      var input = byId(prefix + (taken.seat - 1));
      if (input && !input.value) setValue(input, String(taken.player));
      return script.dataset.cardSeat.replace("%(player)s", String(taken.player))
        .replace("%(seat)s", String(taken.seat));
    });
    if (list.dataset.shown === lines.join("\n")) return;
    list.dataset.shown = lines.join("\n");
    list.textContent = "";
    lines.forEach(function (text) {
      var item = document.createElement("li");
      item.textContent = text;
      list.appendChild(item);
    });
  }
  function linkLine() {
    var box = document.createElement("div");
    box.className = "club-link";
    var line = document.createElement("p");
    line.id = "club-link";
    line.setAttribute("role", "status");
    box.appendChild(line);
    if (document.body.dataset.unlocked === "yes") {
      var button = document.createElement("button");
      button.type = "button";
      button.id = "call-director";
      button.textContent = script.dataset.call;
      button.addEventListener("click", function () {
        fetch("/api/club/call", { method: "POST", headers: { "X-CSRF-Token": document.body.dataset.csrf } })
          .then(function (answer) { if (answer.ok) line.textContent = script.dataset.called; });
      });
      box.appendChild(button);
    }
    var main = document.getElementById("main");
    main.insertBefore(box, main.firstChild);
    return line;
  }
  function show(line, club) {
    var text = club.sent && club.reachable ? script.dataset.sent
      : (club.reachable ? script.dataset.waiting : script.dataset.away).replace("%(n)s", String(club.pending));
    if (line.textContent !== text && line.textContent !== script.dataset.called) line.textContent = text;
  }
  function seatName() {
    var at = window.location.pathname.indexOf("/seat/");
    return at < 0 ? null : decodeURIComponent(window.location.pathname.slice(at + 6).split("/")[0]);
  }
  function confirmBox() {
    var box = document.createElement("div");
    box.id = "club-confirm";
    box.className = "club-confirm";
    box.hidden = true;
    var line = document.createElement("p");
    line.id = "club-confirm-line";
    line.setAttribute("role", "status");
    box.appendChild(line);
    var player = document.body.dataset.page === "seat" ? seatName() : null;
    if (player) {
      [["confirmed", script.dataset.confirm], ["disputed", script.dataset.dispute]].forEach(function (pair) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "big";
        button.id = "club-" + pair[0];
        button.hidden = true;
        button.textContent = pair[1];
        button.addEventListener("click", function () {
          fetch("/api/club/confirm", {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-CSRF-Token": document.body.dataset.csrf },
            body: JSON.stringify({ player: player, verdict: pair[0] })
          }).then(function (answer) { if (answer.ok) document.dispatchEvent(new CustomEvent("club-poll")); });
        });
        box.appendChild(button);
      });
    }
    var main = document.getElementById("main");
    main.insertBefore(box, main.firstChild);
    return box;
  }
  function showConfirm(box, view) {
    var line = box.querySelector("p");
    box.hidden = !(view.required && view.over);
    if (box.hidden) return;
    var text = view.verdict === "confirmed" ? script.dataset.confirmed.replace("%(player)s", view.by)
      : view.verdict === "disputed" ? script.dataset.disputed.replace("%(player)s", view.by)
      : (box.querySelector("button") ? script.dataset.confirmAsk : script.dataset.confirmWait);
    if (line.textContent !== text) line.textContent = text;
    Array.prototype.forEach.call(box.querySelectorAll("button"), function (button) {
      button.hidden = view.verdict !== null;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var line = linkLine();
    var confirmation = confirmBox();
    var seated = false;
    function poll() {
      fetch("/api/club", { headers: { Accept: "application/json" } })
        .then(function (answer) { return answer.ok ? answer.json() : null; })
        .then(function (club) {
          if (!club) return;
          show(line, club);
          if (!seated && document.body.dataset.page === "setup") { seated = true; fill(club.seating); }
          if (document.body.dataset.page === "setup") cardSeats(club.confirmed, club.seating);
          return fetch("/api/club/confirmation", { headers: { Accept: "application/json" } });
        })
        .then(function (answer) { return answer && answer.ok ? answer.json() : null; })
        .then(function (view) { if (view) showConfirm(confirmation, view); })
        .catch(function () { /* the next poll tries again */ });
    }
    poll();
    window.setInterval(poll, 5000);
    document.addEventListener("club-poll", poll);
  });
})();
