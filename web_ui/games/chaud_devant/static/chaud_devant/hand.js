// A seat's phone reads its own hand aloud, on the phone only (the hand never goes to the table).
"use strict";
document.addEventListener("click", function (event) {
  const button = event.target.closest ? event.target.closest("#read-hand") : null;
  if (!button || !("speechSynthesis" in window)) return;
  const voices = { fr: "fr-FR", en: "en-GB", nl: "nl-NL" };
  const utterance = new SpeechSynthesisUtterance(button.dataset.hand || "");
  utterance.lang = voices[document.body.dataset.lang] || "fr-FR";
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(utterance);
  window.marmiteHandRead = button.dataset.hand;
});
