"""The director's decisions on the console as an organiser makes them, against a real hub: games named by
their number in the night ("partie N"), a correction only for a player of the game, a void only once
ticked, any decision withdrawn, the director's confirmation shown as the director's; a refused seating adds
no one and says why in the console's language."""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from club.topics import ClubURL, Topics
from companion.referee import Referee
from marmite.games import GAMES
from tests.club.helpers import Hub, game_events
from tests.club.test_bad_input import Client
from tests.club.test_console import Browser, director_page


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    running = Hub(tmp_path / "hub", tables=2).start()
    yield running
    running.stop()


def send(hub: Hub, table: int, games: list[list[dict[str, Any]]],
         verdicts: tuple[tuple[str, str], ...] = ()) -> list[dict[str, int]]:
    """Whole games one after the other in one table's journal, as its link publishes them, then seats'
    verdicts on the last one; each game's final stars or points."""
    url = ClubURL.parse(hub.urls[table])
    client = Client(hub.port, url.user, url.password)
    seq, results = 0, []
    for events in games:
        referee, game = Referee(GAMES), seq + 1
        for event in events:
            seq += 1
            accepted = referee.apply(event).accepted
            client.publish(Topics(url.club, table).events, message(table, seq, game, event, accepted, "api"))
        state = referee.public_state
        results.append({n: int(v) for n, v in (state.get("stars") or state.get("score")).items()})
    for verdict, player in verdicts:
        seq += 1
        client.publish(Topics(url.club, table).events, message(
            table, seq, game, {"type": "confirm", "verdict": verdict, "player": player}, True, "seat"))
    client.close()
    deadline = time.monotonic() + 10
    while hub.held(table) < seq and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.held(table) == seq
    return results


def message(table: int, seq: int, game: int, event: dict[str, Any], accepted: bool, source: str) -> dict[str, Any]:
    return {"table": table, "seq": seq, "game": game, "received_at": "2026-01-01T20:00:00.000+00:00",
            "event": event, "accepted": accepted, "reason": None if accepted else "refused", "source": source}


def standings(hub: Hub) -> dict[str, int]:
    board = json.loads(Browser(hub.web).get("/api/board")[1])
    return {e["player"]: e["stars"] for e in board["standings"]}


def alert(page: str) -> str:
    found = re.search(r'<p role="alert">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else ""


def test_decisions_name_the_nights_game_number_and_only_its_players(hub: Hub) -> None:
    first, second = send(hub, 1, [game_events(41), game_events(42)])
    director = director_page(hub, "fr")
    page = director.get("/director")[1]
    token = director.csrf(page)
    tables = page.split('id="console-tables"')[1].split("</table>")[0]
    assert "partie 2" in tables and "partie 1" not in tables  # each table's current game, by its number
    assert "terminée" in tables and " · over" not in tables  # statuses in the console's language
    assert "UTC" not in page
    assert re.search(r'<option value="chaud_devant" selected>', page)  # not Sus au buffet ! by default
    decided = {"csrf_token": token, "table": 1, "who": "Claire", "why": "carte mal lue"}

    status, page = director.post("/director/correct", {**decided, "game": 2, "player": "Zoé", "stars": 7})
    assert status == 200 and alert(page).startswith("Pas de correction : Zoé ne joue pas la partie 2 de la table 1")
    assert "Zoé" not in standings(hub)  # no phantom player, nothing journaled
    assert director.post("/director/correct", {**decided, "game": 3, "player": "Ana", "stars": 7})[0] == 400

    player = min(second, key=lambda name: second[name])
    director.post("/director/correct", {**decided, "game": 2, "player": player, "stars": 50})
    expected = {name: first.get(name, 0) + second.get(name, 0) for name in {*first, *second}}
    assert standings(hub)[player] == expected[player] - second[player] + 50  # the second game, not seq 2's

    status, page = director.post("/director/void", {**decided, "game": 1, "why": "donne faussée"})
    assert alert(page).startswith("Partie non annulée") and standings(hub)[player] == expected[player] - \
        second[player] + 50
    director.post("/director/void", {**decided, "game": 1, "why": "donne faussée", "sure": "yes"})
    assert standings(hub) == {**second, player: 50}

    page = director.get("/director")[1]
    listed = html.unescape(page.split('class="night-games"')[1].split("</details>")[0])
    assert "Table 1 · partie 1 · " in listed and "Table 1 · partie 2 · " in listed and "annulée" in listed
    withdraw = re.findall(r'name="kind" value="(\w+)"><input type="hidden" name="id" value="(\d+)"', page)
    assert [kind for kind, _ in withdraw] == ["correct", "void"]
    director.post("/director/withdraw", {"csrf_token": token, "kind": "void", "id": withdraw[1][1]})
    assert standings(hub)[player] == expected[player] - second[player] + 50
    director.post("/director/withdraw", {"csrf_token": token, "kind": "correct", "id": withdraw[0][1]})
    assert standings(hub) == expected
    assert director.post("/director/withdraw", {"csrf_token": token, "kind": "correct", "id": withdraw[0][1]})[0] \
        == 400  # already withdrawn


def test_the_directors_confirmation_after_a_dispute_is_the_directors(hub: Hub) -> None:
    director = director_page(hub, "fr")
    token = director.csrf(director.get("/director")[1])
    director.post("/director/settings", {"csrf_token": token, "rule": "stars", "language": "fr", "confirm": "yes"})
    events = game_events(5, kind="buffet", players=3)
    names = events[0]["players"]
    send(hub, 1, [events], verdicts=(("disputed", names[1]),))
    page = director.get("/director")[1]
    assert f"contesté par {names[1]}" in html.unescape(page)
    director.post("/director/confirm", {"csrf_token": token, "table": 1, "game": 1, "who": "Claire",
                                        "why": "recompté"})
    page = html.unescape(director.get("/director")[1])
    assert "confirmé par l’arbitre" in page and f"confirmé par {names[1]}" not in page
    director.post("/director/void", {"csrf_token": token, "table": 1, "game": 1, "who": "Claire", "why": "x",
                                     "sure": "yes"})
    page = html.unescape(director.get("/director")[1])
    assert "confirmé par" not in page.split('id="seat-title"')[0]  # a void is confirmed by no one


def test_a_refused_seating_adds_no_one_and_says_why_in_french(hub: Hub) -> None:
    director = director_page(hub, "fr")
    token = director.csrf(director.get("/director")[1])
    names = [f"Joueur {n}" for n in range(11)]  # Chaud Devant: 3 tables of at most 5, the club has 2
    page = director.post("/director/seat", {"csrf_token": token, "players": "\n".join(names),
                                            "game": "chaud_devant"})[1]
    assert alert(page) == "Pas de placement : 11 joueurs demandent 3 tables et le club en a 2. Rien n’a été changé."
    assert "Joueur 0" not in page  # not added to the club's players
    page = director.post("/director/seat", {"csrf_token": token, "players": "Ana\nBen\nAna",
                                            "game": "chaud_devant"})[1]
    assert alert(page) == "Pas de placement : Ana est inscrit deux fois. Rien n’a été changé."
    assert "Ben" not in page
    assert re.search(r'<option value="chaud_devant" selected>', page)
    page = director.post("/director/seat", {"csrf_token": token, "players": "Ana\nBen\nCléo",
                                            "game": "buffet"})[1]
    assert re.search(r'<option value="buffet" selected>', page)  # the select opens on the game last seated


def test_the_next_night_opens_empty_and_the_closed_one_stays_exportable(hub: Hub) -> None:
    from tests.club.helpers import marmite

    first = send(hub, 1, [game_events(41)])[0]
    director = director_page(hub, "fr")
    token = director.csrf(director.get("/director")[1])
    assert director.post("/director/next-night", {"csrf_token": token})[0] == 400  # close it first
    director.post("/director/seat", {"csrf_token": token, "players": "Ana\nBen\nCléo", "game": "chaud_devant"})
    director.post("/director/close", {"csrf_token": token, "sure": "yes"})
    assert json.loads(Browser(hub.web).get("/api/board")[1])["closed"]
    page = director.post("/director/next-night", {"csrf_token": token})[1]  # a second press: nothing opens
    assert json.loads(Browser(hub.web).get("/api/board")[1])["night"] == 1
    assert "La soirée suivante n’a pas été ouverte" in page
    page = director.post("/director/next-night", {"csrf_token": token, "sure": "yes"})[1]
    board = json.loads(Browser(hub.web).get("/api/board")[1])
    assert (board["night"], board["closed"], board["standings"], board["games"]) == (2, False, [], [])
    assert "Ana — " not in page and "Clore la soirée" in page  # no seating of the last night; open again
    assert json.loads(director.get("/director/night.json")[1])["tables"]["1"]["games"] == {}
    assert json.loads(director.get("/director/night.bgstats.json")[1])["plays"] == []
    old = json.loads(director.get("/director/night.json?night=1")[1])
    assert old["tables"]["1"]["games"]["1"]["points"] == first
    assert director.get("/director/night.json?night=3")[0] == 404
    assert "night=1" in director.get("/director")[1]  # the console links the earlier night's exports

    url = ClubURL.parse(hub.urls[1])  # the table goes on with its journal: its next game is the new night's
    client = Client(hub.port, url.user, url.password)
    referee, start = Referee(GAMES), hub.held(1)
    events = game_events(43)
    for seq, event in enumerate(events, start=start + 1):
        client.publish(Topics(url.club, 1).events, message(1, seq, start + 1, event, referee.apply(event).accepted,
                                                           "api"))
    client.close()
    deadline = time.monotonic() + 10
    while hub.held(1) < start + len(events) and time.monotonic() < deadline:
        time.sleep(0.05)
    second = {n: int(v) for n, v in referee.public_state["stars"].items()}
    assert standings(hub) == second
    assert json.loads(marmite("club", "--data", str(hub.data), "export", "--night", "1"))["tables"]["1"]["games"][
        "1"]["points"] == first  # --data given before the subcommand is honoured
    tonight = json.loads(marmite("club", "--data", str(hub.data), "export"))
    assert [g["points"] for g in tonight["tables"]["1"]["games"].values()] == [second]


def test_the_directors_pin_and_console_survive_a_hub_restart(hub: Hub) -> None:
    from club.web import CONSOLE_DIR, SECRET_FILE, console_secret
    from marmite.serve import resolve_pin

    director = director_page(hub, "fr")
    assert "seat-title" in director.get("/director")[1]
    hub.stop()
    hub.console_file.unlink()
    hub.start()  # same data dir and ports: the director's tablet keeps its session
    assert "seat-title" in director.get("/director")[1]
    secret = hub.data / CONSOLE_DIR / SECRET_FILE
    assert secret.stat().st_mode & 0o077 == 0 and console_secret(hub.data) == console_secret(hub.data)
    pin, drawn = resolve_pin(None, hub.data / CONSOLE_DIR)  # no --pin: drawn once, then kept
    assert drawn and resolve_pin(None, hub.data / CONSOLE_DIR) == (pin, False)
    assert all(path.stat().st_mode & 0o077 == 0 for path in (hub.data / CONSOLE_DIR).iterdir())


def test_a_players_phone_offers_their_last_game_to_bg_stats(hub: Hub) -> None:
    import urllib.parse

    director = director_page(hub, "fr")
    token = director.csrf(director.get("/director")[1])
    events = game_events(41)
    names = events[0]["players"]
    director.post("/director/seat", {"csrf_token": token, "players": "\n".join(names), "game": "chaud_devant"})
    page = html.unescape(Browser(hub.web).get("/player?number=2")[1])
    assert "BG Stats" not in page  # no game over yet
    points = send(hub, 1, [events])[0]
    page = html.unescape(Browser(hub.web).get("/player?number=2")[1])
    found = re.search(r'id="bg-stats-link" class="big" href="([^"]+)"', page)
    assert found is not None and "<svg" in page.split('id="last-game-title"')[1]
    link = found.group(1)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(urllib.parse.unquote(link.split("?data=", 1)[1]))
    assert {p["name"]: p["score"] for p in data["players"]} == points
    file = json.loads(director.get("/director/night.bgstats.json")[1])
    assert data["sourcePlayId"] == file["plays"][0]["uuid"] and data["game"]["name"] == "Chaud Devant !"
    assert [p["name"] for p in data["players"] if p["startPlayer"]] == \
        [names[(names.index(events[0]["dealer"]) + 1) % len(names)]]
    assert sorted(p["rank"] for p in data["players"])[0] == 1
