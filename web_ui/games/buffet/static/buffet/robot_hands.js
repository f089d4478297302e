// The host types a Sus au buffet ! robot's cards: values separated by spaces, -1 for minus one.
"use strict";
(function () {
  document.querySelectorAll("form.robot-hand").forEach(function (handForm) {
    handForm.addEventListener("submit", async function (event) {
      event.preventDefault();
      const typed = String(new FormData(handForm).get("cards") || "").trim();
      const cards = typed ? typed.split(/[\s,;]+/).map(function (v) {
        return "mouse-" + (v === "-1" || v === "\u22121" ? "n1" : v);
      }) : [];
      const line = document.getElementById("robot-hand-status");
      try {
        const body = {};
        body[handForm.dataset.field === "drawn" ? "drawn" : "cards"] = cards;  // "drawn": only the new cards
        const answer = await window.MarmiteRobots.post(
          "/api/robots/" + encodeURIComponent(handForm.dataset.robot) + "/hand", body);
        if (line) line.textContent = answer.accepted ? handForm.dataset.recorded : handForm.dataset.refused;
        if (answer.accepted && handForm.dataset.field === "drawn") handForm.reset();  // added once only
      } catch (e) { if (line) line.textContent = e.message; }
    });
  });
})();
