// The wall screen (800 px wide or more) does not scroll: the standings show as many rows as fit below
// their heading and turn to the next rows on their own every few seconds (a line says which rows are
// shown). Re-done after each live update of the board (board.js replaces its children).
(function () {
  "use strict";
  var PAGE_MS = 8000;
  var page = 0;
  var WIDE = window.matchMedia("(min-width: 800px)");
  function rowsPerPage(table, rows) {
    rows.forEach(function (row) { row.hidden = false; });
    var first = rows[0].getBoundingClientRect();
    var bottom = window.innerHeight - 48;  // room for the line that says which rows are shown
    var fit = Math.floor((bottom - first.top) / Math.max(1, first.height));
    return Math.max(1, Math.min(rows.length, fit));
  }
  function show(board) {
    var table = board.querySelector("table.standings");
    var line = document.getElementById("standings-pages");
    if (!table) { if (line) line.textContent = ""; return; }
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    if (!rows.length) return;
    // A narrow screen (a phone, a tablet upright) scrolls: every row shown, no paging.
    var per = WIDE.matches ? rowsPerPage(table, rows) : rows.length;
    var pages = Math.ceil(rows.length / per);
    if (page >= pages) page = 0;
    rows.forEach(function (row, i) { row.hidden = Math.floor(i / per) !== page; });
    if (!line) {
      line = document.createElement("p");
      line.id = "standings-pages";
      line.className = "pages";
      table.parentNode.insertBefore(line, table.nextSibling);
    }
    line.textContent = pages > 1 ? board.dataset.pages.replace("%(first)s", String(page * per + 1))
      .replace("%(last)s", String(Math.min(rows.length, (page + 1) * per)))
      .replace("%(total)s", String(rows.length)) : "";
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (!board || document.body.dataset.page !== "board") return;
    show(board);
    new MutationObserver(function () { show(board); }).observe(board, { childList: true });
    window.addEventListener("resize", function () { show(board); });
    window.setInterval(function () {
      page += 1;
      show(board);
    }, Number(board.dataset.pageMs) || PAGE_MS);
  });
})();
