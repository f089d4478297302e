"""Relay, hosted beside the real games: it serves its table and seat pages and plays a demo, and adding it
touched no file outside its own package and the registry it was added to."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.referee import Referee
from companion.robot_table import RobotDriver
from companion.robot_words import voice_of
from companion.seam import BAD_SETUP, Games, Part, table_seats
from companion.side_ledgers import SIDE_LEDGERS
from companion.table import TableService
from hardware.readers.sim import SimReader
from marmite.wiring import ReaderPump, play_demo
from tests.conformance.registry import DEMOS, GAMES, PAGES
from tests.toy_game.rules import KIND
from web_ui.app import create_app
from web_ui.resources import TableServices

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "tests/toy_game/"
REGISTRY = "tests/conformance/registry.py"
PIN = "1357"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    table = TableService.open(tmp_path, GAMES)
    yield table
    table.close()


@pytest.fixture
def client(service: TableService, tmp_path: Path) -> FlaskClient:
    return create_app(TableServices(service, PAGES, data_dir=tmp_path), pin=PIN, config={"TESTING": True}).test_client()


def test_the_demo_plays_a_whole_relay_through_the_simulated_reader(service: TableService,
                                                                    client: FlaskClient) -> None:
    reader = SimReader()
    with ReaderPump(service, reader):
        sent = play_demo(service, reader.drop, seed=4, pace=0, game="relay", players=3, demos=DEMOS)
    state = service.state()
    assert state["game"] == "relay" and state["phase"] == "game_over" and len(state["winners"]) == 1
    assert sent == service.journal.last_seq
    assert max(state["squares"].values()) >= 10
    table = client.get("/").get_data(as_text=True)
    assert 'id="squares"' in table and f"★ {state['winners'][0]}" in table and 'id="log"' in table
    assert "relais" in table.lower() or "relay" in table.lower()  # its own words, in the shared shell
    fragment = client.get("/fragment/table").get_data(as_text=True)
    assert fragment.startswith('<h2 id="relay-title">')
    seat = client.get("/seat/Ada")
    assert seat.status_code == 200 and 'id="relay-square"' in seat.get_data(as_text=True)
    assert client.get("/seat/Nobody").status_code == 404
    history = client.get("/history").get_data(as_text=True)
    assert history.count("<li>") == sent - 1  # one line per hop
    assert "relay" not in client.get("/setup").get_data(as_text=True).split('id="past-games"')[0].lower()


def test_a_relay_is_started_and_played_through_the_api(client: FlaskClient) -> None:
    headers = {"X-Table-Pin": PIN}
    started = client.post("/api/events", headers=headers, json={"type": "new_game", "game": "relay",
                                                                "players": ["Ada", "Bo"]})
    assert started.get_json()["accepted"] is True
    assert client.post("/api/events", headers=headers, json={"type": "card", "card": "hop-3"}).get_json()["accepted"]
    assert "Ada: 3" in client.get("/").get_data(as_text=True)
    assert "Bo: 0 ←" in client.get("/fragment/table").get_data(as_text=True)


def _mentions(path: Path) -> bool:
    return bool(re.search(r"toy_game|[\"']relay[\"']", path.read_text(encoding="utf-8", errors="replace")))


def test_the_conformance_suite_runs_over_relay_too() -> None:
    from tests.conformance.test_games import NAMES

    assert sorted(["chaud_devant", "buffet", "relay"]) == NAMES


def test_adding_the_toy_game_touched_only_its_package_and_its_registry() -> None:
    """No code file outside tests/toy_game/ names the game but the registry: the shared code, the
    templates and the real games' packages know nothing of it."""
    code = [p for p in ROOT.rglob("*") if p.is_file() and p.suffix in (".py", ".html", ".js", ".css", ".toml")
            and not {".venv", "node_modules", ".git", "__pycache__", ".cache"} & set(p.parts)]
    named = sorted(str(p.relative_to(ROOT)) for p in code if _mentions(p))
    assert [p for p in named if not p.startswith(PACKAGE)] == [REGISTRY]
    added = subprocess.run(["git", "log", "--diff-filter=A", "--format=%H", "--", PACKAGE + "__init__.py"],
                           cwd=ROOT, capture_output=True, text=True, check=False).stdout.split()
    if not added:  # a shallow clone or an export without history: the scan above still holds
        pytest.skip("no git history of the toy game's package here")
    files = subprocess.run(["git", "show", "--name-only", "--format=", added[-1]], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    assert files and all(f.startswith(PACKAGE) or f == REGISTRY for f in files), files


def _wait(check: Any) -> Any:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def test_a_relay_robot_seat_names_its_hop_and_only_that_card_is_taken(service: TableService) -> None:
    driver = RobotDriver(service, think_ms=30).start()
    try:
        assert service.submit({"type": "new_game", "game": "relay", "players": ["Ada", "Bo", "Cy"],
                               "robots": {"seats": {"Bo": "chef"}}}).accepted
        assert service.submit({"type": "card", "card": "hop-1"}).accepted  # Ada
        said = _wait(lambda: [m for m in service.messages_after(0) if m.kind == "robot"])
        chosen = str(said[-1].parts[0].fields["card"])
        assert chosen in ("hop-1", "hop-2", "hop-3") and said[-1].text("en") == f"Bo plays {chosen}: put it in the pot."
        other = next(code for code in ("hop-1", "hop-2", "hop-3") if code != chosen)
        refused = service.submit({"type": "card", "card": other})
        assert not refused.accepted and refused.reason == "not_robot_card"
        assert service.submit({"type": "card", "card": chosen}).accepted
        assert service.state()["turn"] == "Cy"
    finally:
        driver.close()


def test_a_relay_practice_table_plays_its_robots_to_the_end(service: TableService) -> None:
    driver = RobotDriver(service, think_ms=30).start()
    try:
        assert service.submit({"type": "new_game", "game": "relay", "players": ["Ada", "Bo", "Cy"],
                               "robots": {"seats": {"Bo": "debutant", "Cy": "cuisinier"}, "practice": "virtual",
                                          "pace_ms": 0}}).accepted
        while service.state()["phase"] != "game_over":
            _wait(lambda: service.state()["turn"] in ("Ada", None))  # the robots play their own turns
            if service.state()["turn"] == "Ada":
                assert service.submit({"type": "card", "card": "hop-1"}).accepted
        squares = service.state()["squares"]
        assert squares["Bo"] > 0 and squares["Cy"] > 0 and max(squares.values()) >= 10
    finally:
        driver.close()


def test_the_robots_page_offers_relay_from_the_page_table(client: FlaskClient) -> None:
    page = client.get("/setup/robots").get_data(as_text=True)
    listed = re.findall(r'<option value="(\w+)" data-first="(\w*)"( data-default)?>', page)
    assert [name for name, _, _ in listed] == list(PAGES)  # every hosted game seats robots
    assert ("relay", "", "") in listed  # no dealer nor first player: its form sends none


class Seatless:
    """Relay's rules without its robot seats: a game that did not opt into robots."""

    def __init__(self) -> None:
        self.name = "seatless"
        self.event_fields, self.setup_fields, self.tag_codes = KIND.event_fields, KIND.setup_fields, KIND.tag_codes

    def __getattr__(self, name: str) -> Any:
        if name in ("new_game", "empty_public_state", "voice", "describe_refusal"):
            return getattr(KIND, name)
        raise AttributeError(name)


def test_a_game_without_table_seats_is_refused_robot_seats_but_plays_without_them() -> None:
    kind = Seatless()
    assert table_seats(kind) is None and table_seats(KIND) is not None
    referee = Referee(Games.of(kind, sides=SIDE_LEDGERS))  # type: ignore[arg-type]
    start: dict[str, Any] = {"type": "new_game", "game": "seatless", "players": ["Ada", "Bo"]}
    assert referee.decide({**start, "robots": {"seats": {"Bo": "chef"}}}) == BAD_SETUP
    assert referee.decide({**start, "robots": {"seats": {}}}) is None and referee.decide(start) is None


def test_a_game_that_names_no_card_has_its_robot_cards_said_by_code() -> None:
    game = KIND.new_game({"players": ["Ada", "Bo"]})
    assert game is not None
    said = voice_of(game.new_initial_state()).render([Part("robot.plays", {"player": "Bo", "card": "hop-2"})], "en")
    assert said == "Bo plays hop-2: put it in the pot."
