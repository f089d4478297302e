"""The players' statistics on the history page come from memory: read once from the journal, then kept up
to date as games end (and as an undo takes a game's end back), so a stuck disk never holds the page."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.buffet import simulate as buffet_simulate
from companion.chaud_devant import simulate as chaud_devant_simulate
from companion.player_stats import fold_tallies, journal_tallies
from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app
from tests.web_ui.conftest import HEADERS, PIN


def finish_a_game(service: TableService, seed: int, kind: str = "chaud_devant") -> None:
    """Play a whole random legal game on the table."""
    simulate = buffet_simulate if kind == "buffet" else chaud_devant_simulate
    events = list(simulate.random_game(random.Random(seed)))
    assert service.submit(events[0]).accepted  # the new game, which closes the one before (its summary)
    assert all(answer.accepted for answer in service.submit_all(events[1:]))  # the rest: one fsync
    assert service.state()["phase"] == "game_over"


def from_the_journal(service: TableService) -> list[dict[str, Any]]:
    """The statistics folded afresh from the journal (what a restart would read)."""
    past = service.past_games(limit=50)
    return fold_tallies(t for t in journal_tallies(service.journal, service.games, past).values() if t is not None)


def shown_games(client: FlaskClient) -> dict[str, int]:
    """Each player's count of games in the history page's statistics table."""
    page = client.get("/history").get_data(as_text=True)
    if 'id="player-stats-title"' not in page:
        return {}
    section = page[page.index('id="player-stats-title"'):]
    return {name: int(games) for name, games in re.findall(r'<th scope="row">([^<]+)</th><td>(\d+)</td>', section)}


def test_the_history_page_reads_the_statistics_from_memory_as_games_end(
        app: Flask, client: FlaskClient, service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    finish_a_game(service, 1)
    assert set(shown_games(client).values()) == {1}  # read once from the journal
    records, summaries = service.journal.records, service.journal.summaries

    def no_disk(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the history page read the journal")

    monkeypatch.setattr(service.journal, "records", no_disk)
    monkeypatch.setattr(service.journal, "summaries", no_disk)
    assert set(shown_games(client).values()) == {1}
    assert client.post("/api/undo", headers=HEADERS).get_json()["accepted"]  # the game's end taken back
    assert shown_games(client) == {}
    monkeypatch.setattr(service.journal, "records", records)  # a new game judges its events on a copy
    finish_a_game(service, 2)
    monkeypatch.setattr(service.journal, "records", no_disk)
    assert set(shown_games(client).values()) == {1}  # the undone game no longer finished, the new one did
    monkeypatch.setattr(service.journal, "records", records)
    monkeypatch.setattr(service.journal, "summaries", summaries)
    assert service.player_stats.ranking() == from_the_journal(service)


def test_memory_and_a_fresh_read_of_the_journal_agree_across_games_and_a_restart(tmp_path: Path) -> None:
    service = TableService.open(tmp_path, GAMES)
    try:
        app = table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True})
        app.test_client().get("/history")  # loaded before any game: the rest is observed
        for seed, kind in ((3, "chaud_devant"), (4, "buffet"), (5, "chaud_devant")):
            finish_a_game(service, seed, kind)
        service.submit({"type": "new_game", "players": ["Anna", "Ben", "Cléo"], "dealer": "Anna"})  # unfinished
        kept = service.player_stats.ranking()
        assert kept == from_the_journal(service) and kept is not None
        assert {entry["player"]: entry["games"] for entry in kept}["Virginie"] == 2  # both Chaud Devant games
    finally:
        service.close()
    again = TableService.open(tmp_path, GAMES)
    try:
        assert again.player_stats.ranking() is None  # not read yet: the page reads it off its way
        again.load_player_stats()
        assert again.player_stats.ranking() == kept
    finally:
        again.close()
