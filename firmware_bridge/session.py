"""The host's half of the protocol, without I/O: decode, acknowledge, drop duplicates, track health.

A new TAG is handed over as a `Delivery` and acknowledged only when the table is done with it
(`HostSession.done`: its event is durable, or it was judged a double read). A tag read just after a
board reset whose UID was delivered before it is handed over marked `resting`: it may be the pile lying
on the antenna, or a card played in an earlier round and dropped again now; only the table can tell
(a card already in the current round is the pile). Until then the board
keeps resending it; a resend of a tag handed over `REDELIVER_SECONDS` ago and still not done is
handed over again (the table failed to record it), and a resend of a tag that is done is
acknowledged again.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge import protocol as p

SEEN_PER_BOOT = 512  # TAG seqs remembered per boot: far more than a board can have in flight
BOOTS_REMEMBERED = 4
DELIVERED_REMEMBERED = 128  # UIDs remembered to recognise the pile still lying on a reset board
REDELIVER_SECONDS = 2.0
"""A tag handed to the table this long ago and still not done is handed over again when the board
resends it: normally the table is done within milliseconds, so the first hand-over failed (its
journal write raised). Should the first merely be slow, the copy reaches the table after it and
is judged a double read."""


@dataclass(frozen=True, slots=True)
class Delivery:
    """A tag handed to the table: the boot and seq it came with, and its UID; `HostSession.done` ends it."""

    boot_id: int
    seq: int
    uid: str
    resting: bool = False  # read at boot and delivered before the reset: the table judges


@dataclass(slots=True)
class _BootMemory:
    """The TAG seqs of one boot: finished (acknowledged) ones, and those handed over but not yet done."""

    order: deque[int] = field(default_factory=deque)
    finished: set[int] = field(default_factory=set)
    in_flight: dict[int, tuple[str, float, bool]] = field(default_factory=dict)  # seq -> (uid, handed at, resting)

    def finish(self, seq: int) -> None:
        """Remember `seq` as acknowledged (the oldest are forgotten past SEEN_PER_BOOT)."""
        self.order.append(seq)
        self.finished.add(seq)
        if len(self.order) > SEEN_PER_BOOT:
            self.finished.discard(self.order.popleft())


@dataclass(frozen=True, slots=True)
class Received:
    """What one chunk of bytes from the board produced: tags to hand to the table and bytes to send back."""

    tags: tuple[Delivery, ...] = ()
    reply: bytes = b""
    health_changed: bool = False
    results: tuple[p.Frame, ...] = ()

    @property
    def uids(self) -> tuple[str, ...]:
        """The handed-over tags' UIDs (lower-case hex)."""
        return tuple(tag.uid for tag in self.tags)


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
    radio_errors: bool = False  # does the board meet radio errors scan after scan (from the heartbeat)
    tags_delivered: int = 0
    tags_redelivered: int = 0
    duplicates_dropped: int = 0
    boot_repeats: int = 0  # tags read at boot that were delivered before the reset (handed over as resting)
    resets_seen: int = 0
    extra: dict[str, str] = field(default_factory=dict)


class HostSession:
    """Everything the host remembers about one board across reconnects; pure, so tests drive it directly.

    Not thread-safe: the reader calls it under its own lock (`done` comes from the table's thread).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._decoder = p.FrameDecoder()
        self._boots: dict[int, _BootMemory] = {}
        self._delivered: deque[tuple[str, int]] = deque(maxlen=DELIVERED_REMEMBERED)
        self._seq = 0
        self.facts = BoardFacts()

    @property
    def decoder(self) -> p.FrameDecoder:
        """The frame decoder (its counters: frames_ok, frames_bad, frames_oversize)."""
        return self._decoder

    def delivered(self) -> list[tuple[str, int]]:
        """The UIDs the table was done with lately, with the boot id each came from (what a restarted host needs)."""
        return list(self._delivered)

    def in_flight(self) -> list[Delivery]:
        """The tags handed to the table and not yet done (not acknowledged: the board still holds them)."""
        return [Delivery(boot_id, seq, uid) for boot_id, memory in self._boots.items()
                for seq, (uid, _at, _resting) in memory.in_flight.items()]

    def done(self, tag: Delivery) -> tuple[bytes, bool]:
        """The table is done with `tag` (durable, or a double read): the ACK to send, and whether this was news.

        Only now does its UID count as delivered; a second `done` for it (a redelivered copy) only
        acknowledges again.
        """
        ack = p.encode_frame(p.Frame(p.ACK, tag.seq, p.ack_body(tag.boot_id)))
        memory = self._boots.get(tag.boot_id)
        if memory is None or memory.in_flight.pop(tag.seq, None) is None:
            return ack, False
        memory.finish(tag.seq)
        self._delivered.append((tag.uid, tag.boot_id))
        self.facts.tags_delivered += 1
        return ack, True

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
        tags: list[Delivery] = []
        reply = bytearray()
        results: list[p.Frame] = []
        changed = False
        for frame in self._decoder.feed(data):
            now = self._clock()
            self.facts.last_frame = now
            try:
                if frame.kind == p.TAG:
                    tag, ack = self._on_tag(frame, now)
                    reply += ack
                    if tag is not None:
                        tags.append(tag)
                elif frame.kind == p.HEARTBEAT:
                    boot_id, _uptime, pending, state = p.parse_heartbeat(frame.body)
                    reader_ok = bool(state & p.STATE_READER_OK)
                    radio_errors = bool(state & p.STATE_RADIO_ERRORS)
                    changed |= radio_errors != self.facts.radio_errors
                    self.facts.radio_errors = radio_errors
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
        return Received(tuple(tags), bytes(reply), changed, tuple(results))

    def _on_boot(self, boot_id: int) -> bool:
        """Note the board's boot id; True if it changed (a reset, or the first sight of the board)."""
        if boot_id == self.facts.boot_id:
            return False
        if self.facts.boot_id is not None:
            self.facts.resets_seen += 1
        self.facts.boot_id = boot_id
        return True

    def _memory_of(self, boot_id: int) -> _BootMemory:
        """The seq memory of `boot_id`, created if new (only the last BOOTS_REMEMBERED boots are kept)."""
        memory = self._boots.get(boot_id)
        if memory is None:
            memory = self._boots[boot_id] = _BootMemory()
            while len(self._boots) > BOOTS_REMEMBERED:
                del self._boots[next(iter(self._boots))]
        return memory

    def _on_tag(self, frame: p.Frame, now: float) -> tuple[Delivery | None, bytes]:
        """A TAG: handed over the first time this (boot, seq) is seen, acknowledged once the table is done.

        A resend of a finished tag is acknowledged again; a resend of one still with the table gets
        nothing (the board resends again), unless it was handed over REDELIVER_SECONDS ago: then it is
        handed over again.
        """
        if not self.version_ok():
            return None, b""
        boot_id, flags, raw_uid = p.parse_tag(frame.body)
        self._on_boot(boot_id)
        memory = self._memory_of(boot_id)
        ack = p.encode_frame(p.Frame(p.ACK, frame.seq, p.ack_body(boot_id)))
        if frame.seq in memory.finished:
            self.facts.duplicates_dropped += 1
            return None, ack
        flight = memory.in_flight.get(frame.seq)
        if flight is not None:
            uid, handed_at, resting = flight
            if now - handed_at < REDELIVER_SECONDS:
                self.facts.duplicates_dropped += 1
                return None, b""
            memory.in_flight[frame.seq] = (uid, now, resting)
            self.facts.tags_redelivered += 1
            return Delivery(boot_id, frame.seq, uid, resting), b""
        uid = p.hexlify(raw_uid)
        # Read just after a reset and delivered before it: the pile lying on the reader, or a card of an
        # earlier round played again. Only the table knows which: it gets the tag, marked resting.
        resting = bool(flags & p.FLAG_AT_BOOT) and any(u == uid and b != boot_id for u, b in self._delivered)
        self.facts.boot_repeats += resting
        memory.in_flight[frame.seq] = (uid, now, resting)
        return Delivery(boot_id, frame.seq, uid, resting), b""
