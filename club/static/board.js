// The wall screen and a player's page: re-render the live part after each change the hub announces on its
// stream, and read the standings (or the player's seat) aloud on demand; once asked, a player's page also
// reads each new seat aloud as it arrives (the phrase comes from the page, in the board's language).
(function () {
  "use strict";
  var lastHtml = null;
  var speakLive = false;
  var RETRY_MS = 3000;
  function speak(button) {
    var text = document.getElementById(button.dataset.text || "standings-spoken");
    if (!text || !("speechSynthesis" in window)) return;
    var utterance = new SpeechSynthesisUtterance(text.textContent);
    utterance.lang = button.dataset.lang;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
  }
  function refresh(board, button) {
    fetch(board.dataset.part, { headers: { Accept: "text/html" } })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (html) {
        if (html === null || html === lastHtml) return;  // unchanged: nothing re-announced
        var first = lastHtml === null;
        lastHtml = html;
        var parsed = new DOMParser().parseFromString(html, "text/html");
        board.replaceChildren.apply(board, Array.prototype.slice.call(parsed.body.childNodes));
        board.dataset.version = String(Number(board.dataset.version || 0) + 1);
        if (!first && speakLive && button) speak(button);
      })
      .catch(function () { /* the next change tries again */ });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    var button = document.getElementById("speak-standings");
    if (button) button.addEventListener("click", function () {
      speakLive = button.dataset.live === "1";
      speak(button);
    });
    if (!board || !("EventSource" in window)) return;
    listen(board, button);
  });
  // The browser reconnects a stream on its own after a network error, but gives up on an HTTP error (the hub
  // restarting behind a proxy, every place taken): then try again a little later, for as long as the page is up.
  function listen(board, button) {
    var stream = new EventSource(board.dataset.stream);
    stream.onmessage = function () { refresh(board, button); };
    stream.onerror = function () {
      if (stream.readyState !== EventSource.CLOSED) return;
      stream.close();
      window.setTimeout(function () { listen(board, button); }, RETRY_MS);
    };
  }
})();
