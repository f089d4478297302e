"""The `usb` reader: a Pico bridge on a serial port, reconnected with backoff, its tags on the reader queue."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import serial

from companion.reader_words import Words, words
from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from firmware_bridge import protocol as p
from firmware_bridge.ports import PortOpener, SerialPort, find_board_ports, open_port
from firmware_bridge.session import Delivery, HostSession

KEEPALIVE_SECONDS = 1.0

PortFinder = Callable[[], list[str]]


class _Silent(Exception):
    """The board said nothing for too long: drop the connection and open it again."""


ABSENT = frozenset({"pico_none", "pico_not_connected", "cannot_open", "cannot_open_fix"})
"""The verdicts that say the board is not there to read with (state `missing`); the others are `errors`."""

class UsbReader:
    """Reads tags from a Pico running the Marmite firmware; a reader thread that never touches the game.

    Each tag goes to the queue as a `TagSeen` whose `done` acknowledges it to the board (and saves the
    memory file): whoever takes it calls `done` once the read is dealt with (the reader pump: once its
    event is durable or it was judged a double read). Until then the board keeps the tag and resends it.
    """

    def __init__(
        self,
        port: str | None = None,
        *,
        name: str = "usb",
        find_ports: PortFinder = find_board_ports,
        open_port: PortOpener = open_port,
        clock: Callable[[], float] = time.monotonic,
        backoff: tuple[float, float] = (0.2, 5.0),
        heartbeat_timeout: float = 3.0,
        silence_reconnect: float = 6.0,
        health_interval: float = 5.0,
        memory: Path | None = None,
    ) -> None:
        self.name = name
        self._port = port
        self._find_ports = find_ports
        self._open_port = open_port
        self._clock = clock
        self._backoff = backoff
        self._heartbeat_timeout = heartbeat_timeout
        self._silence_reconnect = silence_reconnect
        self._health_interval = health_interval
        self._session = HostSession(clock)
        self._memory = memory
        if memory is not None:
            self._session.remember(_load_memory(memory))
        self._lock = threading.Lock()
        self._memory_lock = threading.Lock()  # taken before _lock: one memory file write at a time, in order
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bad_at_last_frame = 0  # the decoder's bad frames when the last whole one came
        self._out: ReaderQueue | None = None
        self._handle: SerialPort | None = None
        self._port_in_use = ""
        self._connected = False
        self._connected_at = 0.0
        self._bytes_since_connect = 0
        self._last_heartbeat_wall: float | None = None
        self._last_health: tuple[bool, Words] | None = None
        self._last_health_at = 0.0
        self._waiting: dict[int, tuple[threading.Event, list[p.Frame]]] = {}
        self.connections = 0

    @classmethod
    def from_options(cls, options: dict[str, str]) -> UsbReader:
        """Build from `--reader usb` options: `port` (default: find the board by USB id), `name`, `memory`.

        `memory` is a JSON file where the reader keeps the UIDs the table was done with, so that a restarted
        Marmite does not deliver again the cards lying in the pot when the board resets.
        """
        memory = options.get("memory")
        port = options.get("port") or None
        return cls(port, name=options.get("name", "usb"), memory=Path(memory) if memory else None)

    @property
    def session(self) -> HostSession:
        """The protocol state: board facts (firmware, boot id, counters) and the decoder's counters."""
        return self._session

    # ------------------------------------------------------------------ Reader protocol

    def start(self, out: ReaderQueue) -> None:
        """Start the reader thread; tags and health reports go to `out`."""
        with self._lock:
            if self._thread is not None:
                raise RuntimeError("the USB reader is already started")
            self._out = out
            self._thread = threading.Thread(target=self._run, name=f"reader-{self.name}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and close the port; safe to call twice."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
        self._close_handle()

    def __enter__(self) -> UsbReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ commands to the board

    def ping(self, timeout: float = 1.0) -> float | None:
        """Round trip to the board in seconds, or None if it did not answer in time."""
        started = self._clock()
        reply = self._request(p.PING, b"marmite", timeout)
        return None if reply is None else self._clock() - started

    def beep(self, duration_ms: int = 80, frequency_hz: int = 2000, timeout: float = 1.0) -> bool:
        """Sound the board's buzzer; True if the board confirmed."""
        return self._request(p.BEEP, p.beep_body(duration_ms, frequency_hz), timeout) is not None

    def led(self, mode: int, timeout: float = 1.0) -> bool:
        """Set the board's LED (protocol.LED_OFF, LED_ON, LED_BLINK or LED_AUTO); True if confirmed."""
        return self._request(p.LED, p.led_body(mode), timeout) is not None

    def _request(self, kind: int, body: bytes, timeout: float) -> p.Frame | None:
        event = threading.Event()
        box: list[p.Frame] = []
        with self._lock:
            seq, data = self._session.command(kind, body)
            self._waiting[seq] = (event, box)
        try:
            if not self._write(data):
                return None
            if not event.wait(timeout):
                return None
            kind_done, status, _data = p.parse_result(box[0].body)
            return box[0] if kind_done == kind and status == p.STATUS_OK else None
        finally:
            with self._lock:
                self._waiting.pop(seq, None)

    # ------------------------------------------------------------------ health

    def health(self) -> ReaderHealth:
        """The reader's state now: connected or not, firmware version, last heartbeat and counters."""
        with self._lock:
            ok, said = self._judge()
            return self._health_of(ok, said)

    def _health_of(self, ok: bool, said: Words) -> ReaderHealth:
        """A health report: the verdict, its words, and the facts, `state` first (ok, missing or errors)."""
        state = "ok" if ok else "missing" if said.key in ABSENT else "errors"
        return ReaderHealth(self.name, ok, str(said), (("state", state), *self._info()), words=said)

    def _judge(self) -> tuple[bool, Words]:
        facts = self._session.facts
        if not self._connected:
            return False, words("pico_not_connected")
        if not self._session.version_ok():
            return False, words("pico_protocol", board=str(facts.protocol_version), host=str(p.PROTOCOL_VERSION))
        heard = facts.last_frame
        if heard is None or heard < self._connected_at:
            if self._bytes_since_connect > p.MAX_ENCODED + 2:  # more than a frame cut short: not our firmware
                return False, words("pico_foreign", where=self._port_in_use)
            return False, words("pico_waiting", where=self._port_in_use)
        silence = self._clock() - heard
        if silence > self._heartbeat_timeout:
            decoder = self._session.decoder
            garbled = decoder.frames_bad + decoder.frames_oversize - self._bad_at_last_frame
            if garbled:  # frames keep coming, none whole: the line, not the board
                return False, words("pico_garbled", seconds=f"{silence:.0f}")
            return False, words("pico_silent", seconds=f"{silence:.0f}")
        if facts.reader_ok is False:
            return False, words("pico_no_rc522")
        if facts.radio_errors:
            return False, words("pico_radio")
        return True, words("pico_connected", where=self._port_in_use)

    def _info(self) -> tuple[tuple[str, str], ...]:
        facts = self._session.facts
        decoder = self._session.decoder
        info = [
            ("connected", "yes" if self._connected else "no"),
            ("port", self._port_in_use),
            ("firmware", facts.firmware_version),
            ("protocol", "" if facts.protocol_version is None else str(facts.protocol_version)),
            ("boot", "" if facts.boot_id is None else f"{facts.boot_id:08x}"),
            ("last_heartbeat", "" if self._last_heartbeat_wall is None else f"{self._last_heartbeat_wall:.3f}"),
            ("frames_ok", str(decoder.frames_ok)),
            ("frames_bad", str(decoder.frames_bad + decoder.frames_oversize)),
            ("duplicates_dropped", str(facts.duplicates_dropped)),
            ("reread_after_reset", str(facts.boot_repeats)),
            ("resets_seen", str(facts.resets_seen)),
        ]
        return tuple((key, value) for key, value in info if value or key == "connected")

    def _report(self, force: bool = False) -> None:
        """Put a ReaderHealth on the queue when the verdict changes, or every health_interval."""
        with self._lock:
            verdict = self._judge()
            now = self._clock()
            if not force and verdict == self._last_health and now - self._last_health_at < self._health_interval:
                return
            heard = self._session.facts.last_frame
            if self._connected and not verdict[0] and (heard is None or heard < self._connected_at) and (
                now - self._connected_at < self._heartbeat_timeout
            ):
                return  # just connected: give the board its heartbeat period before calling it down
            self._last_health = verdict
            self._last_health_at = now
            message = self._health_of(*verdict)
        if self._out is not None:
            self._out.put(message)

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        initial, ceiling = self._backoff
        delay = initial
        while not self._stop.is_set():
            port = self._choose_port()
            if port is None:
                self._report_absent(words("pico_none"))
            else:
                try:
                    handle = self._open_port(port)
                except (serial.SerialException, OSError) as error:
                    self._report_absent(_cannot_open(port, str(error)))
                else:
                    heard = self._serve(port, handle)
                    if heard:
                        delay = initial
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, ceiling)
        self._close_handle()

    def _choose_port(self) -> str | None:
        if self._port:
            return self._port
        try:
            ports = self._find_ports()
        except OSError:
            return None
        return ports[0] if ports else None

    def _report_absent(self, said: Words) -> None:
        verdict = (False, said)
        with self._lock:
            if verdict == self._last_health:
                return
            self._last_health = verdict
            self._last_health_at = self._clock()
            message = self._health_of(False, said)
        if self._out is not None:
            self._out.put(message)

    def _serve(self, port: str, handle: SerialPort) -> bool:
        """Talk to one connected board until the cable goes or it falls silent; True if it said anything."""
        with self._lock:
            self._handle = handle
            self._port_in_use = port
            self._connected = True
            self._connected_at = self._clock()
            self._bytes_since_connect = 0
            self.connections += 1
        heard = False
        try:
            with self._lock:
                opening = self._session.connected()
            self._write_or_raise(opening)
            last_sync = last_ping = self._clock()
            while not self._stop.is_set():
                data = handle.read(max(1, handle.in_waiting))
                if data:
                    self._bytes_since_connect += len(data)
                    heard |= self._handle_bytes(data)
                now = self._clock()
                facts = self._session.facts
                if not facts.firmware_version and now - last_sync > 1.0:
                    self._send_command(p.SYNC)
                    last_sync = now
                if now - last_ping >= KEEPALIVE_SECONDS:  # lets the board show on its LED that a host listens
                    self._send_command(p.PING)
                    last_ping = now
                silence = now - max(facts.last_frame or 0.0, self._connected_at)
                if silence > self._silence_reconnect:
                    raise _Silent()
                self._report()
        except (serial.SerialException, OSError, _Silent):
            pass
        finally:
            self._close_handle()
            with self._lock:
                self._connected = False
            if not self._stop.is_set():
                self._report(force=True)
        return heard

    def _handle_bytes(self, data: bytes) -> bool:
        """Decode, queue new tags (acknowledged by their `done`), answer what needs no table."""
        with self._lock:
            before = self._session.decoder.frames_ok
            previous_heartbeat = self._session.facts.last_heartbeat
            received = self._session.receive(data)
            if self._session.facts.last_heartbeat != previous_heartbeat:
                self._last_heartbeat_wall = time.time()
            decoder = self._session.decoder
            after = decoder.frames_ok
            if after > before:
                self._bad_at_last_frame = decoder.frames_bad + decoder.frames_oversize
        out = self._out
        if out is not None:
            for tag in received.tags:
                done = functools.partial(self._acknowledge, tag)
                out.put(TagSeen(tag.uid, self.name, done=done, resting=tag.resting))
        if received.reply:
            self._write_or_raise(received.reply)
        for frame in received.results:
            with self._lock:
                waiting = self._waiting.get(frame.seq)
            if waiting is not None:
                waiting[1].append(frame)
                waiting[0].set()
        if received.health_changed:
            self._report(force=True)
        return after > before

    def _acknowledge(self, tag: Delivery) -> None:
        """The table is done with `tag` (any thread): remember it as delivered, then ACK it to the board.

        The memory file is written before the ACK leaves: a host killed in between gets the tag again
        from the board (same boot, so not taken for the pile of a reset board) and the table judges it
        a double read. An ACK that cannot be written is not retried: the board resends, the host
        acknowledges again.
        """
        with self._memory_lock:
            with self._lock:
                ack, news = self._session.done(tag)
                delivered = self._session.delivered() if news and self._memory is not None else None
            if delivered is not None and self._memory is not None:
                _save_memory(self._memory, delivered)
        self._write(ack)

    def _send_command(self, kind: int) -> None:
        with self._lock:
            data = self._session.command(kind)[1]
        self._write_or_raise(data)

    def _write(self, data: bytes) -> bool:
        try:
            self._write_or_raise(data)
        except (serial.SerialException, OSError):
            return False
        return True

    def _write_or_raise(self, data: bytes) -> None:
        with self._lock:
            handle = self._handle
            if handle is None:
                raise serial.SerialException("no board connected")
            handle.write(data)

    def _close_handle(self) -> None:
        with self._lock:
            handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                handle.close()


def _load_memory(path: Path) -> list[tuple[str, int]]:
    """The delivered UIDs saved by an earlier run; nothing if the file is missing or unreadable."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return [(str(uid), int(boot)) for uid, boot in raw["delivered"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def _save_memory(path: Path, delivered: list[tuple[str, int]]) -> None:
    """Write the delivered UIDs atomically (temp file, fsync, rename); a failure only costs the memory."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump({"delivered": delivered}, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError:
        pass


def _cannot_open(port: str, error: str) -> Words:
    """Why `port` did not open, with advice for the usual reasons."""
    if "ermission denied" in error:
        return words("cannot_open_fix", where=port, why=error, fix=words("fix_group",
                                                                         command="sudo usermod -aG dialout $USER"))
    if "exclusively lock" in error or "busy" in error.lower() or "ccess is denied" in error:
        return words("cannot_open_fix", where=port, why=error, fix=words("fix_close", where=port))
    return words("cannot_open", where=port, why=error)


def _factory(options: dict[str, str]) -> UsbReader:
    return UsbReader.from_options(options)
