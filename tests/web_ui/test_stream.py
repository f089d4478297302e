"""The live stream: ids, Last-Event-ID resume, live messages, heartbeat, restart."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app
from tests.web_ui.conftest import HEADERS, PIN, new_game
from web_ui.app import stop_streams


def parse(chunks: list[str]) -> list[tuple[int | None, dict[str, object]]]:
    """(id, data) for every message in the chunks."""
    out = []
    for block in "".join(chunks).split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":") and ": " in line)
        if "data" in fields:
            out.append((int(fields["id"]) if "id" in fields else None, json.loads(fields["data"])))
    return out


def finished_stream(app: Flask, client: FlaskClient, last_id: str | None) -> list[str]:
    """Read a stream that ends after its backlog (streams stopped)."""
    stop_streams(app)
    headers = {"Last-Event-ID": last_id} if last_id is not None else {}
    response = client.get("/api/stream", headers=headers)
    assert response.mimetype == "text/event-stream"
    assert response.headers["X-Accel-Buffering"] == "no"
    return [response.get_data(as_text=True)]


def test_resume_after_last_event_id(app: Flask, client: FlaskClient) -> None:
    new_game(client)
    client.post("/api/events", json={"type": "menu", "player": "Bruno", "menu": "pea"}, headers=HEADERS)
    client.post("/api/events", json={"type": "card", "card": "pea-1a"}, headers=HEADERS)  # refused: wrong phase
    client.post("/api/where")  # not an event: no id, not replayed
    messages = parse(finished_stream(app, client, "1"))
    assert [m[0] for m in messages] == [2, 3]
    assert str(messages[0][1]["text"]).endswith("Bruno a choisi son menu.")
    assert messages[0][1]["lang"] == "fr"
    assert messages[1][1]["accepted"] is False and messages[1][1]["reason"] == "wrong_phase"
    assert parse(finished_stream(app, client, None)) == []
    assert [m[0] for m in parse(finished_stream(app, client, "0"))] == [1, 2, 3]


def live(client: FlaskClient) -> Iterator[str]:
    response = client.get("/api/stream", buffered=False)
    return iter(response.response)  # type: ignore[arg-type]


def chunk_text(chunk: object) -> str:
    return chunk.decode() if isinstance(chunk, bytes) else str(chunk)


def test_live_messages_each_in_its_own_chunk(app: Flask, client: FlaskClient) -> None:
    chunks = live(client)
    assert chunk_text(next(chunks)).startswith("retry:")
    new_game(client)
    first = parse([chunk_text(next(chunks))])
    assert first == [(1, first[0][1])] and first[0][1]["kind"] == "new_game"
    client.post("/api/repeat")
    again = parse([chunk_text(next(chunks))])
    assert again[0][0] is None and again[0][1]["kind"] == "repeat"
    stop_streams(app)


def test_heartbeat(service: TableService, tmp_path: Path) -> None:
    app = table_app(service, pin=PIN, data_dir=tmp_path, config={"MARMITE_HEARTBEAT": 0.0})
    chunks = live(app.test_client())
    next(chunks)
    assert chunk_text(next(chunks)) == ": heartbeat\n\n"
    stop_streams(app)


def test_restart_resumes_the_game_and_the_ids(tmp_path: Path) -> None:
    first = TableService.open(tmp_path, GAMES)
    app = table_app(first, pin=PIN, data_dir=tmp_path)
    client = app.test_client()
    new_game(client)
    client.post("/api/events", json={"type": "menu", "player": "Bruno", "menu": "pea"}, headers=HEADERS)
    state = client.get("/api/state").get_json()
    first.close()
    second = TableService.open(tmp_path, GAMES)
    app2 = table_app(second, pin=PIN, data_dir=tmp_path)
    client2 = app2.test_client()
    assert client2.get("/api/state").get_json() == state
    client2.post("/api/events", json={"type": "menu", "player": "Virginie", "menu": "onion"}, headers=HEADERS)
    assert [m[0] for m in parse(finished_stream(app2, client2, "1"))] == [2, 3]
    second.close()
