"""A club night under faults, end to end: a real `marmite club` with its own Mosquitto and real
`marmite run --club` tables. Whatever is killed or cut, the hub ends with every row of every table's
journal exactly once (caught up within 10 s of the fault's end), and its results equal the fold of each
table's `marmite export`."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.club.helpers import (
    CATCH_UP_SECONDS,
    Hub,
    Relay,
    Table,
    assert_copied_exactly,
    game_events,
    play,
    wait_caught_up,
)
from tests.drill.helpers import Display


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    running = Hub(tmp_path / "hub", tables=3).start()
    yield running
    running.stop()


def start_table(tmp_path: Path, hub: Hub, number: int, url: str | None = None) -> Table:
    return Table(tmp_path / f"table{number}", url or hub.urls[number], number).start()


def test_sigkill_of_a_table_the_hub_and_mosquitto_mid_game_loses_and_doubles_nothing(tmp_path: Path,
                                                                                     hub: Hub) -> None:
    tables = [start_table(tmp_path, hub, 1), start_table(tmp_path, hub, 2)]
    try:
        first = game_events(1)
        second = game_events(2, kind="buffet", players=5)
        play(tables[0], first[:80])
        play(tables[1], second[:60])
        tables[0].kill()  # SIGKILL: whatever paho had queued in memory is gone; the journal is not
        play(tables[1], second[60:120])
        tables[0] = start_table(tmp_path, hub, 1)
        play(tables[0], first[80:150])
        hub.kill()  # SIGKILL the hub: its Mosquitto is left orphaned, the next hub stops it
        play(tables[0], first[150:200])
        play(tables[1], second[120:180])
        hub.start()
        hub.kill_broker()  # SIGKILL Mosquitto: the hub restarts it, everyone reconnects
        play(tables[0], first[200:])
        play(tables[1], second[180:])
        for table in tables:
            assert wait_caught_up(hub, table) <= CATCH_UP_SECONDS
            assert_copied_exactly(hub, table)
            assert table.club_status()["pending"] == 0
    finally:
        for table in tables:
            table.stop()


def test_hub_down_for_a_whole_game_then_caught_up_within_ten_seconds(tmp_path: Path, hub: Hub) -> None:
    table = start_table(tmp_path, hub, 1)
    display = None
    try:
        play(table, game_events(3)[:20])
        wait_caught_up(hub, table)
        display = Display(table, "127.0.0.1")
        hub.kill()
        # About 30 minutes of play at a real table, compressed: the rest of this game and a whole second one.
        play(table, game_events(3)[20:])
        play(table, game_events(4, kind="buffet", players=3))
        status = table.club_status()
        assert status["pending"] > 0 and not status["reachable"]
        # The table shows and says it (in French by default), once the outage has lasted a few seconds.
        assert display.read_until(b"Club injoignable ; en attente", timeout=10), display.seen[-2000:]
        hub.start()
        assert wait_caught_up(hub, table) <= CATCH_UP_SECONDS
        assert_copied_exactly(hub, table)
        assert display.read_until("Résultats envoyés au club.".encode(), timeout=10), display.seen[-2000:]
        assert table.club_status()["sent"]
    finally:
        if display is not None:
            display.close()
        table.stop()


def test_a_table_whose_link_is_cut_again_and_again_loses_and_doubles_nothing(tmp_path: Path, hub: Hub) -> None:
    relay = Relay(hub.port)
    url = hub.urls[1].replace(f":{hub.port}/", f":{relay.port}/")
    table = start_table(tmp_path, hub, 1, url)
    stop = threading.Event()

    def cut_repeatedly() -> None:
        while not stop.wait(0.3):
            relay.cut()

    cutter = threading.Thread(target=cut_repeatedly, daemon=True)
    try:
        cutter.start()
        play(table, game_events(5))
        stop.set()
        cutter.join()
        assert wait_caught_up(hub, table) <= CATCH_UP_SECONDS
        assert_copied_exactly(hub, table)
    finally:
        stop.set()
        table.stop()
        relay.close()
