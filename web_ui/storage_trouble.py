"""The disk refusing a read or a write, answered the same everywhere: 503 with the reason, in JSON for
the API and as a page in the table's language elsewhere, and announced on every display and by voice."""

from __future__ import annotations

from flask import Response, jsonify, request
from markupsafe import escape

from companion.journal import StorageError
from companion.phrases import TABLE_VOICE
from companion.seam import Part
from web_ui.resources import table_resources

STORAGE_TROUBLE = {
    "full": "the disk is full: nothing was recorded",
    "read_only": "the disk is read-only: nothing was recorded",
    "io": "the disk fails to write: nothing was recorded",
}
RETRY_SECONDS = 5


def storage_answer(error: StorageError) -> Response:
    """503 + Retry-After for any request the disk failed; the table says it (once, until it writes again)."""
    service = table_resources().service
    kind = error.kind if error.kind in STORAGE_TROUBLE else "io"
    service.storage_failed(kind)
    if request.path.startswith("/api/") or request.is_json:
        response = jsonify(error=STORAGE_TROUBLE[kind], storage=kind)
    else:
        said = TABLE_VOICE.render((Part(f"storage_{kind}"),), service.language)
        page = (f"<!doctype html><html lang=\"{escape(service.language)}\"><head><meta charset=\"utf-8\">"
                f"<title>503</title></head><body><h1 role=\"alert\">{escape(said)}</h1>"
                "<p><a href=\"/\">Marmite</a></p></body></html>")
        response = Response(page, mimetype="text/html")
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_SECONDS)
    return response
