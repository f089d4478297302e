"""The host's half of the protocol, without I/O: decode, acknowledge, drop duplicates, track health."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge import protocol as p

SEEN_PER_BOOT = 512  # TAG seqs remembered per boot: far more than a board can have in flight
BOOTS_REMEMBERED = 4
DELIVERED_REMEMBERED = 128  # UIDs remembered to recognise the pile still lying on a reset board


@dataclass(frozen=True, slots=True)
class Received:
    """What one chunk of bytes from the board produced: new tags (lower-hex UIDs) and bytes to send back."""

    uids: tuple[str, ...] = ()
    reply: bytes = b""
    health_changed: bool = False
    results: tuple[p.Frame, ...] = ()


@dataclass(slots=True)
class BoardFacts:
    """What the host knows about the board at the other end of the cable."""

    protocol_version: int | None = None
    firmware_version: str = ""
    boot_id: int | None = None
    last_heartbeat: float | None = None
    last_frame: float | None = None
    pending_on_board: int = 0
    reader_ok: bool | None = None  # does the board's RC522 answer (from the heartbeat)
    tags_delivered: int = 0
    duplicates_dropped: int = 0
    boot_repeats_dropped: int = 0
    resets_seen: int = 0
    extra: dict[str, str] = field(default_factory=dict)


class HostSession:
    """Everything the host remembers about one board across reconnects; pure, so tests drive it directly."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._decoder = p.FrameDecoder()
        self._seen: dict[int, tuple[deque[int], set[int]]] = {}
        self._delivered: deque[tuple[str, int]] = deque(maxlen=DELIVERED_REMEMBERED)
        self._seq = 0
        self.facts = BoardFacts()

    @property
    def decoder(self) -> p.FrameDecoder:
        """The frame decoder (its counters: frames_ok, frames_bad, frames_oversize)."""
        return self._decoder

    def delivered(self) -> list[tuple[str, int]]:
        """The UIDs delivered lately, with the boot id each came from (what a restarted host needs)."""
        return list(self._delivered)

    def remember(self, delivered: list[tuple[str, int]]) -> None:
        """Take back `delivered()` from an earlier run, so a reset board's pile is not delivered again."""
        for uid, boot_id in delivered[-DELIVERED_REMEMBERED:]:
            self._delivered.append((uid.lower(), boot_id))

    def connected(self) -> bytes:
        """A new connection: forget any partial frame; return the SYNC to send (the board answers HELLO)."""
        self._decoder.reset()
        return self.command(p.SYNC)[1]

    def version_ok(self) -> bool:
        """True unless the board announced a protocol version this host does not speak."""
        return self.facts.protocol_version in (None, p.PROTOCOL_VERSION)

    def command(self, kind: int, body: bytes = b"") -> tuple[int, bytes]:
        """A host → board command frame: (its seq, its bytes)."""
        self._seq = (self._seq + 1) % p.SEQ_MODULO
        return self._seq, p.encode_frame(p.Frame(kind, self._seq, body))

    def receive(self, data: bytes) -> Received:
        """Handle bytes read from the board."""
        uids: list[str] = []
        reply = bytearray()
        results: list[p.Frame] = []
        changed = False
        for frame in self._decoder.feed(data):
            now = self._clock()
            self.facts.last_frame = now
            try:
                if frame.kind == p.TAG:
                    uid, ack = self._on_tag(frame)
                    reply += ack
                    if uid is not None:
                        uids.append(uid)
                elif frame.kind == p.HEARTBEAT:
                    boot_id, _uptime, pending, state = p.parse_heartbeat(frame.body)
                    reader_ok = bool(state & p.STATE_READER_OK)
                    changed |= self._on_boot(boot_id)
                    changed |= self.facts.last_heartbeat is None or reader_ok != self.facts.reader_ok
                    self.facts.reader_ok = reader_ok
                    self.facts.last_heartbeat = now
                    self.facts.pending_on_board = pending
                elif frame.kind == p.HELLO:
                    version, boot_id, firmware = p.parse_hello(frame.body)
                    changed |= self._on_boot(boot_id)
                    changed |= (version, firmware) != (self.facts.protocol_version, self.facts.firmware_version)
                    self.facts.protocol_version = version
                    self.facts.firmware_version = firmware
                elif frame.kind == p.RESULT:
                    results.append(frame)
            except p.ProtocolError:
                self._decoder.frames_bad += 1
        return Received(tuple(uids), bytes(reply), changed, tuple(results))

    def _on_boot(self, boot_id: int) -> bool:
        """Note the board's boot id; True if it changed (a reset, or the first sight of the board)."""
        if boot_id == self.facts.boot_id:
            return False
        if self.facts.boot_id is not None:
            self.facts.resets_seen += 1
        self.facts.boot_id = boot_id
        return True

    def _on_tag(self, frame: p.Frame) -> tuple[str | None, bytes]:
        """A TAG: always acknowledged; a UID only the first time this (boot, seq) is seen."""
        if not self.version_ok():
            return None, b""
        boot_id, flags, raw_uid = p.parse_tag(frame.body)
        self._on_boot(boot_id)
        ack = p.encode_frame(p.Frame(p.ACK, frame.seq, p.ack_body(boot_id)))
        order, seen = self._seen.setdefault(boot_id, (deque(), set()))
        if frame.seq in seen:
            self.facts.duplicates_dropped += 1
            return None, ack
        order.append(frame.seq)
        seen.add(frame.seq)
        if len(order) > SEEN_PER_BOOT:
            seen.discard(order.popleft())
        while len(self._seen) > BOOTS_REMEMBERED:
            del self._seen[next(iter(self._seen))]
        uid = p.hexlify(raw_uid)
        if flags & p.FLAG_AT_BOOT and any(u == uid and b != boot_id for u, b in self._delivered):
            # Read just after a reset and already delivered before it: the card was lying on the reader.
            self.facts.boot_repeats_dropped += 1
            return None, ack
        self._delivered.append((uid, boot_id))
        self.facts.tags_delivered += 1
        return uid, ack
