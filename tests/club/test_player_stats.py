"""A single table's history page: per-player statistics over its finished games (games, wins, average stars,
menus chosen and their success), folded from the table's own journal by a real `marmite run`."""

from __future__ import annotations

import html
import re
from pathlib import Path

from tests.club.helpers import game_events, play
from tests.club.test_console import table_menus
from tests.drill.helpers import Running


def test_the_history_page_shows_each_players_statistics(tmp_path: Path) -> None:
    from companion.referee import Referee
    from marmite.games import GAMES

    table = Running(tmp_path / "table").start()
    try:
        status, _, page = table.request("GET", "/history")
        assert status == 200 and b"player-stats-title" not in page  # nothing finished yet: no table
        events = game_events(71)
        play(table, events)  # type: ignore[arg-type]
        referee = Referee(GAMES)
        for event in events:
            referee.apply(event)
        stars = {name: int(value) for name, value in referee.public_state["stars"].items()}
        winners = set(referee.public_state["winners"])
        menus = table_menus(71)
        status, _, raw = table.request("GET", "/history")
        text = raw.decode()
        assert status == 200 and "Les joueurs à cette table" in text
        section = text[text.index('id="player-stats-title"'):]
        for name, value in stars.items():
            row = re.search(rf'<th scope="row">{re.escape(html.escape(name))}</th>(.*?)</tr>', section)
            assert row is not None, name
            cells = re.findall(r"<td>(.*?)</td>", row.group(1))
            assert cells[:3] == ["1", str(int(name in winners)), str(float(value))]
            counts = sorted(re.findall(r"(\d+)/(\d+)", cells[3]))
            assert counts == sorted((str(t["succeeded"]), str(t["chosen"])) for t in menus[name].values())
    finally:
        table.stop()
