// The wall screen: re-render the live part after each change the hub announces on its stream, and read
// the standings aloud on demand (the phrase comes from the page, in the board's language).
(function () {
  "use strict";
  function refresh(board) {
    fetch(board.dataset.part, { headers: { Accept: "text/html" } })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var parsed = new DOMParser().parseFromString(html, "text/html");
        board.replaceChildren.apply(board, Array.prototype.slice.call(parsed.body.childNodes));
        board.dataset.version = String(Number(board.dataset.version || 0) + 1);
      })
      .catch(function () { /* the next change tries again */ });
  }
  function speak(button) {
    var text = document.getElementById("standings-spoken");
    if (!text || !("speechSynthesis" in window)) return;
    var utterance = new SpeechSynthesisUtterance(text.textContent);
    utterance.lang = button.dataset.lang;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    var button = document.getElementById("speak-standings");
    if (button) button.addEventListener("click", function () { speak(button); });
    if (!board || !("EventSource" in window)) return;
    var stream = new EventSource(board.dataset.stream);
    stream.onmessage = function () { refresh(board); };
  });
})();
