"""The SSE text of a message is worded once per language and table, and never shared across tables."""

from __future__ import annotations

from pathlib import Path

from companion.journal import Journal
from companion.table import TableService
from marmite.games import GAMES
from tests.companion.chaud_devant.rulebook import new_game
from web_ui.stream import format_message


def test_two_tables_with_the_same_serials_never_share_a_cached_message(tmp_path: Path) -> None:
    first = TableService(Journal.open(tmp_path / "a"), GAMES)
    second = TableService(Journal.open(tmp_path / "b"), GAMES)
    one = first.submit(new_game(("Ana", "Ben", "Cléo"), dealer="Cléo")).message
    two = second.submit(new_game(("Xavier", "Yann", "Zoé"), dealer="Zoé")).message
    assert one is not None and two is not None and one.serial == two.serial
    assert "Ana" in format_message(first, one) and "Xavier" in format_message(second, two)
    assert "Ana" in format_message(first, one)  # from the cache, still the first table's words


def test_a_language_switch_rewords_a_cached_message(tmp_path: Path) -> None:
    table = TableService(Journal.open(tmp_path), GAMES)
    message = table.submit(new_game(("Ana", "Ben", "Cléo"), dealer="Cléo")).message
    assert message is not None
    french = format_message(table, message)
    table.language = "en"
    english = format_message(table, message)
    assert "Nouvelle partie" in french and "New game" in english
