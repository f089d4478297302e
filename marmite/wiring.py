"""Wiring between packages: the reader → table service pump, and the demo player.

`companion` knows nothing of readers; this module is where a reader's queue meets the table service.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import random
import threading
from collections.abc import Callable, Mapping
from typing import Any

from companion.deck_desk import DeckDesk
from companion.journal import StorageError
from companion.reader_words import words
from companion.reads import PartialUids, Reader, ReaderHealth, ReaderMessage, ReadSignals, TagMemory, TagSeen
from companion.seam import Demo
from companion.table import Message, TableService
from companion.tags import simulated_uid
from hardware.gpio_backend import GpioBackend
from hardware.panel import Panel, PanelPins

POLL_SECONDS = 0.25

log = logging.getLogger(__name__)


class ReaderPump:
    """A thread that hands every `TagSeen` to `service.tag_seen` and every `ReaderHealth` to the service."""

    def __init__(self, service: TableService, reader: Reader) -> None:
        self.service = service
        self.reader = reader
        self.queue: queue.Queue[ReaderMessage] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"reader-pump-{reader.name}", daemon=True)
        self._started = False

    def start(self) -> ReaderPump:
        """Start the reader and the pump."""
        if not self._started:
            self._started = True
            self.reader.start(self.queue)
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                item = self.queue.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            try:
                self.handle(item)
            except StorageError as error:  # the table announces the disk; the reader is fine
                log.warning("reader pump: read not recorded: %s", error)
            except Exception as error:  # one failure (a locked journal) must not stop the pot reader
                log.exception("reader pump: %s", error)
                with contextlib.suppress(Exception):
                    said = words("not_recorded", why=str(error))
                    self.service.reader_health(self.reader.name, False, str(said), words=said)

    def handle(self, item: ReaderMessage) -> None:
        """Pass one reader value to the table service."""
        if isinstance(item, TagSeen):
            source = f"reader:{item.reader}"
            if item.resting:  # seen again just after the reader restarted: the table judges
                self.service.tag_seen(item.uid, source=source, written=item.card, resting=True)
            elif item.card is None:
                self.service.tag_seen(item.uid, source=source)
            else:  # a self-describing tag: what it says travels with it
                self.service.tag_seen(item.uid, source=source, written=item.card)
            if item.done is not None:  # journaled (or a double read): the reader may acknowledge it now
                item.done()
        elif isinstance(item, ReaderHealth):
            self.service.reader_health(item.reader, item.ok, item.detail, dict(item.info), item.words)

    def close(self) -> None:
        """Stop the pump and the reader; idempotent."""
        self._stop.set()
        self.reader.close()
        if self._started and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def __enter__(self) -> ReaderPump:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect_tag_memory(desk: DeckDesk | None, reader: Reader) -> bool:
    """Give the deck desk a reader's tag memory (self-describing decks), if the reader has one."""
    if desk is None or not isinstance(reader, TagMemory):
        return False
    desk.attach_memory(reader)
    return True


def connect_partial_uids(desk: DeckDesk | None, reader: Reader) -> bool:
    """Give the deck desk a reader that sends only part of each UID (a keyboard wedge), if it is one."""
    if desk is None or not isinstance(reader, PartialUids):
        return False
    desk.attach_partial(reader)
    return True


def play_demo(service: TableService, drop: Callable[[str], None], *, seed: int | None = None,
              pace: float = 1.5, players: int = 4, stop: threading.Event | None = None,
              game: str | None = None, demos: Mapping[str, Demo] | None = None) -> int:
    """Play a whole random legal game of `game` (the default game when None) with its demo from `demos`
    (the hosted games' by default): setup (and menus) submitted, cards and plates dropped in the
    simulated reader. Returns the number of events sent; each read waits for its announcement."""
    if demos is None:
        from marmite.games import DEMOS

        demos = DEMOS
    demo = demos[game or service.games.default]
    stop = stop or threading.Event()
    events = demo.random_game(random.Random(seed), players)
    copies: dict[str, int] = {}
    sent = 0
    for event in events:
        tag = demo.demo_tag(event, copies)
        if stop.wait(pace if tag is not None else pace / 3):
            break
        if tag is not None:
            serial = service.last_serial
            drop(simulated_uid(tag))
            service.wait_after(serial, timeout=10)
        else:
            service.submit(event, source="demo")
        sent += 1
    return sent


class ServiceActions:
    """The panel's buttons, done by the table service (repeat, where are we, undo)."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def repeat_last(self) -> None:
        self.service.repeat_last()

    def where_are_we(self) -> None:
        self.service.where_are_we()

    def undo(self) -> None:
        self.service.undo(source="panel")


def verdict_of(message: Message) -> bool | None:
    """Whether an announcement took a read (True), refused it (False), or judged none (None)."""
    if message.kind == "refused" or (message.kind == "deck" and message.accepted is False):
        return False  # a refused play, or an enrollment read refused (a tag already enrolled)
    if message.kind in ("card", "deck") and message.accepted:
        return True
    return None


def panel_feedback(panel: Panel) -> Callable[[Message], None]:
    """A table-service listener that beeps and lights the panel for each announcement."""

    def on_message(message: Message) -> None:
        verdict = verdict_of(message)
        if verdict is False:
            panel.card_refused()
        elif verdict:
            panel.card_accepted()
        elif message.kind == "reader":
            panel.reader_health(bool(dict(message.detail).get("ok")))

    return on_message


def connect_read_signals(service: TableService, reader: object) -> bool:
    """A reader that shows verdicts itself (`ReadSignals`: the ACR122U's LED) is told each one; whether it is."""
    if not isinstance(reader, ReadSignals):
        return False
    signals = reader

    def on_message(message: Message) -> None:
        verdict = verdict_of(message)
        if verdict is not None:
            signals.read_judged(verdict)

    service.add_listener(on_message)
    return True


def attach_panel(service: TableService, gpio: GpioBackend, pins: PanelPins | None = None,
                 **options: Any) -> Panel:
    """Wire a GPIO panel both ways: its buttons act on the table, the table's announcements drive it."""
    panel = Panel(gpio, ServiceActions(service), pins, **options)
    service.add_listener(panel_feedback(panel))
    return panel
