"""Reader health is said the same way for every reader: ready, missing or down, in the table's language."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.phrases import TABLE_VOICE
from companion.reader_words import words
from companion.reads import ReaderHealth, ReaderQueue
from companion.table import Message, TableService
from hardware.readers.sim import SimReader
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


def test_the_detail_is_shown_in_the_table_s_language_and_follows_it(table: tuple[TableService, list[Message]]) -> None:
    service, heard = table
    out: ReaderQueue = queue.Queue()
    SimReader().start(out)
    health = out.get_nowait()
    assert isinstance(health, ReaderHealth) and health.words is not None
    service.reader_health(health.reader, health.ok, health.detail, dict(health.info), health.words)
    assert service.table_view()["readers"][0]["detail"] == "lecteur simulé"
    service.language = "nl"
    assert service.table_view()["readers"][0]["detail"] == "gesimuleerde lezer"
    missing = words("keyboard_none", wanted="'sycreader'")
    service.reader_health("keyboard", False, str(missing), {"state": "missing"}, missing)
    assert said(service, heard)[-1] == ("Lezer keyboard afwezig: geen invoerapparaat genaamd zoals 'sycreader': sluit"
                                        " de lezer aan.")
