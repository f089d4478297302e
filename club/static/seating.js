// A club table's setup page: the hub's seating for the next game fills the form; the host only checks
// and starts. Nothing is submitted here; a value the host already typed is left as it is.
(function () {
  "use strict";
  var script = document.currentScript;
  function byId(id) { return document.getElementById(id); }
  function fill(seating) {
    var buffetForm = byId("new-buffet-game");
    var form = buffetForm || byId("new-game");
    if (!form || !seating || !Array.isArray(seating.players)) return;
    if ((seating.game === "buffet") !== Boolean(buffetForm)) return;
    var prefix = buffetForm ? "buffet-player-" : "player-";
    seating.players.forEach(function (name, i) {
      var input = byId(prefix + i);
      if (input && !input.value) input.value = String(name);
    });
    var first = seating.players.indexOf(seating.dealer);
    if (first >= 0) {
      if (buffetForm) byId("buffet-first").value = String(first + 1);
      else byId("dealer").value = String(first);
    }
    var rules = seating.rules || {};
    ["edition", "menu_reveal"].forEach(function (name) {
      var select = byId(name);
      if (select && rules[name]) select.value = String(rules[name]);
    });
    var note = document.createElement("p");
    note.id = "club-seating";
    note.setAttribute("role", "status");
    note.textContent = script.dataset.seated.replace("%(table)s", String(seating.table))
      .replace("%(round)s", String(seating.round));
    form.parentNode.insertBefore(note, form);
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (document.body.dataset.page !== "setup") return;
    fetch("/api/club", { headers: { Accept: "application/json" } })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (club) { if (club) fill(club.seating); })
      .catch(function () { /* no club: the form stays empty */ });
  });
})();
