"""The reader pump, the demo player, the espeak-ng speaker and the CLI's helpers."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import pytest

from companion.reads import DOUBLE_READ_SECONDS
from companion.table import TableService
from companion.tags import simulated_uid
from hardware.readers.sim import SimReader
from marmite.cli import build_parser
from marmite.games import GAMES
from marmite.serve import resolve_pin
from marmite.wiring import ReaderPump, play_demo
from web_ui.speaker import Speaker


def test_pump_turns_reads_into_events(service: TableService) -> None:
    reader = SimReader()
    with ReaderPump(service, reader):
        serial = service.last_serial
        reader.drop(simulated_uid("pea-1a"))
        fresh = service.wait_after(serial, timeout=5)
    assert fresh[-1].kind == "refused" and fresh[-1].reason == "no_game"
    assert service.journal.last_seq == 1
    assert service.table_view()["readers"][0]["ok"] is True


def test_demo_plays_a_whole_game(service: TableService) -> None:
    reader = SimReader()
    with ReaderPump(service, reader):
        sent = play_demo(service, reader.drop, seed=1, pace=0)
    state = service.state()
    assert state["phase"] == "game_over" and state["winners"]
    assert sent == service.journal.last_seq


def test_demo_stops_when_asked(service: TableService) -> None:
    stop = threading.Event()
    stop.set()
    assert play_demo(service, lambda uid: None, seed=1, pace=0, stop=stop) == 0


def test_speaker_queues_without_blocking(service: TableService, tmp_path: Path) -> None:
    spoken = tmp_path / "spoken.txt"
    script = tmp_path / "fake-espeak"
    script.write_text(f'#!/bin/sh\necho "$@" >> {spoken}\n')
    script.chmod(0o755)
    speaker = Speaker(service, program=str(script), rate=lambda: 1.2).start()
    service.where_are_we()
    speaker.close()
    speaker._thread.join(timeout=10)
    assert spoken.read_text().strip() == "-v fr -s 198 -- Aucune partie en cours."


def test_pin_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARMITE_PIN", "9999")
    assert resolve_pin("1234") == ("1234", False)
    assert resolve_pin(None) == ("9999", False)
    monkeypatch.delenv("MARMITE_PIN")
    pin, random_pin = resolve_pin(None)
    assert random_pin and len(pin) == 6 and pin.isdigit()


def test_cli_has_run_and_demo() -> None:
    args = build_parser().parse_args(["run", "--port", "0", "--demo"])
    assert args.demo and args.reader == "sim"
    assert build_parser().parse_args(["demo", "--pace", "0.5"]).pace == 0.5


@pytest.mark.parametrize("players", [3, 6])
def test_demo_plays_a_whole_buffet_game_through_the_reader(tmp_path: Path, players: int) -> None:
    ticks = itertools.count(step=DOUBLE_READ_SECONDS)  # as at a real pace: a copy comes back long after
    service = TableService.open(tmp_path, GAMES, clock=lambda: float(next(ticks)))
    reader = SimReader()
    with ReaderPump(service, reader):
        sent = play_demo(service, reader.drop, seed=2, pace=0, game="buffet", players=players)
    state = service.state()
    assert state["game"] == "buffet" and state["phase"] == "game_over" and state["winners"]
    assert sent == service.journal.last_seq  # no read was taken for a double read
    tags = [record.tag for record in service.journal.records() if record.body["type"] == "card"]
    assert tags and all(tag is not None and tag.startswith("mouse-") and "@" in tag for tag in tags)
    service.close()


def test_demo_takes_a_game_and_a_table_size() -> None:
    args = build_parser().parse_args(["demo", "--game", "buffet", "--players", "6"])
    assert args.game == "buffet" and args.players == 6
    assert build_parser().parse_args(["demo"]).game == "chaud_devant"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["demo", "--game", "belote"])
