"""The readers page (`/readers`, linked from Setup): the table's reader and its health, and, with the PIN,
a search for every reader plugged into this computer with the exact `--reader …` to start each.

The search itself is the composition root's (`marmite.reader_scan`, handed over as the app's
`TableServices.reader_scan`): the web UI only shows its results.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from flask import Blueprint, abort, redirect, render_template, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as WerkzeugResponse

from companion.phrases import LANGUAGES
from companion.reader_words import detail_in
from web_ui.auth import csrf_ok, csrf_token, unlocked
from web_ui.context import resources, service, settings
from web_ui.page_common import log_seed

reader_pages = Blueprint("reader_pages", __name__)

_scan_lock = threading.Lock()  # one search at a time: it opens serial ports and input devices


def state_of(health: dict[str, Any]) -> str:
    """ok, missing or errors: the reader's own word when it gives one, else from `ok`."""
    state = str(health.get("info", {}).get("state") or "")
    return state if state in ("ok", "missing", "errors") else ("ok" if health.get("ok") else "errors")


@reader_pages.get("/readers")
def readers_page() -> str:
    """The reader's health now, and the last search's results."""
    readers = [{**r, "state": state_of(r)} for r in service().table_view()["readers"]]
    found = resources().attached.reader_found
    language = service().language
    if found is not None:  # said in the table's language now, whichever it was at the search
        found = {**found, "readers": [{**f, "where": detail_in(f.get("where", ""), f.get("place"), language),
                                       "detail": detail_in(f.get("detail", ""), f.get("said"), language)}
                                      for f in found["readers"]]}
    return render_template("readers.html", readers=readers, found=found, unlocked=unlocked(), csrf=csrf_token(),
                           can_scan=resources().table.reader_scan is not None,
                           settings=settings().current, lang=language, languages=LANGUAGES, log_seed=log_seed)


@reader_pages.post("/readers/scan")
def scan_readers() -> WerkzeugResponse:
    """Search for readers (PIN); the results are kept for the page, which the browser is sent back to."""
    if not csrf_ok():
        abort(400, gettext("This page has expired: reload it, then try again."))
    if not unlocked():
        return redirect(url_for("pages.unlock_page", next="/readers"))
    scanner = resources().table.reader_scan
    if scanner is None:
        abort(404, gettext("This table cannot search for readers."))
    if not _scan_lock.acquire(blocking=False):
        abort(409, gettext("A search for readers is already under way."))
    try:
        found = scanner()
    finally:
        _scan_lock.release()
    resources().attached.reader_found = {"at": time.time(), "readers": found}
    return redirect(url_for("reader_pages.readers_page"))
