"""Reader health is said the same way for every reader: ready, missing or down, in the table's language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.phrases import TABLE_VOICE
from companion.table import Message, TableService
from marmite.games import GAMES


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableService, list[Message]]]:
    service = TableService.open(tmp_path, GAMES)
    heard: list[Message] = []
    service.add_listener(heard.append)
    yield service, heard
    service.close()


def said(service: TableService, heard: list[Message]) -> list[str]:
    return [str(service.render(m)["text"]) for m in heard if m.kind == "reader"]


def test_missing_then_errors_then_ok_are_each_said_once(table: tuple[TableService, list[Message]]) -> None:
    service, heard = table
    service.reader_health("pcsc", False, "no PC/SC reader", {"state": "missing"})
    service.reader_health("pcsc", False, "no PC/SC reader", {"state": "missing"})
    service.reader_health("pcsc", False, "a card did not answer", {"state": "errors"})
    service.reader_health("pcsc", True, "ACR122U ready", {"state": "ok"})
    assert said(service, heard) == [
        "Lecteur pcsc absent : no PC/SC reader.",
        "Lecteur pcsc en panne : a card did not answer.",
        "Lecteur pcsc prêt.",
    ]


def test_the_words_exist_in_every_language(table: tuple[TableService, list[Message]]) -> None:
    service, heard = table
    service.reader_health("keyboard", False, "no input device", {"state": "missing"})
    parts = heard[-1].parts
    assert TABLE_VOICE.render(parts, "en") == "Reader keyboard missing: no input device."
    assert TABLE_VOICE.render(parts, "nl") == "Lezer keyboard afwezig: no input device."


def test_readers_that_do_not_say_their_state_are_announced_as_before(table: tuple[TableService, list[Message]]) -> None:
    service, heard = table
    service.reader_health("rc522", False, "no SPI")
    service.reader_health("rc522", False, "still no SPI")
    service.reader_health("rc522", True, "MFRC522 ready")
    assert said(service, heard) == ["Lecteur rc522 en panne : no SPI.", "Lecteur rc522 prêt."]
