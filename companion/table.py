"""The table service: the one place that turns a tag or a request into a journaled game event.

Order for every event: decide → journal (durable) → apply → announce. Views of the game
leave through `companion.views` observers only, so secret menus cannot leak from here.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import views
from companion.announcer import Part, Theme, describe_effects, describe_refusal, describe_where, render
from companion.events import check_well_formed, event_type
from companion.journal import Journal
from companion.phrases import DEFAULT_LANGUAGE, LANGUAGES
from companion.referee import Outcome, Referee
from companion.tags import TagMap

DOUBLE_READ_SECONDS = 3.0
"""A card read again this soon after it was accepted is the same play, not a new event."""

MAX_MESSAGES = 20_000

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Message:
    """One announcement. Event messages carry the journal seq as their stream id; others none."""

    serial: int
    seq: int
    kind: str
    parts: tuple[Part, ...]
    is_event: bool
    accepted: bool | None = None
    reason: str | None = None
    detail: tuple[tuple[str, Any], ...] = ()

    @property
    def stream_id(self) -> int | None:
        """The server-sent-event id: the journal seq for event messages, None for the rest."""
        return self.seq if self.is_event else None

    def as_json(self, theme: Theme) -> dict[str, Any]:
        """The stream's `data:` object, rendered in the theme's language."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "seq": self.seq,
            "text": render(list(self.parts), theme),
            "parts": [{"key": part.key, "text": render([part], theme)} for part in self.parts],
        }
        if self.accepted is not None:
            data["accepted"] = self.accepted
        if self.reason is not None:
            data["reason"] = self.reason
        data.update(dict(self.detail))
        return data


@dataclass(frozen=True, slots=True)
class Submission:
    """What happened to a submitted event: accepted or refused (with reason), under `seq`."""

    accepted: bool
    reason: str | None
    seq: int
    message: Message

    def as_json(self) -> dict[str, Any]:
        """The contract's `POST /api/events` answer."""
        if self.accepted:
            return {"accepted": True, "seq": self.seq}
        return {"accepted": False, "reason": self.reason, "seq": self.seq}


Listener = Callable[[Message], None]


class TableService:
    """One table: a journal, the referee folded from it, and the announcement log."""

    def __init__(self, journal: Journal, *, tags: TagMap | None = None, language: str = DEFAULT_LANGUAGE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.journal = journal
        self.tags = tags or TagMap()
        self._language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self._clock = clock
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._referee = Referee()
        self._messages: list[Message] = []
        self._serial = 0
        self._listeners: list[Listener] = []
        self._accepted_at: dict[str, float] = {}
        self._health: dict[str, dict[str, Any]] = {}
        self._fold_journal()

    @classmethod
    def open(cls, data_dir: Path, **options: Any) -> TableService:
        """The table of a data dir: its journal and its tag map."""
        return cls(Journal.open(data_dir), tags=TagMap.load(data_dir), **options)

    def _fold_journal(self) -> None:
        """Rebuild the current game, and the last MAX_MESSAGES announcements, from the journal.

        Folding starts at the game holding the oldest event kept, so a stream client resuming from
        any of those ids (even in an earlier game) gets every message after it.
        """
        if self.journal.last_seq == 0:
            return
        oldest_kept = max(1, self.journal.last_seq - MAX_MESSAGES + 1)
        game = self.journal.game_of(oldest_kept)
        for record in self.journal.records(after=0 if game is None else game - 1):
            outcome = self._referee.apply(record.body)
            if record.seq >= oldest_kept:
                self._announce_outcome(record.seq, record.body, outcome)

    # ------------------------------------------------------------------ settings

    @property
    def language(self) -> str:
        return self._language

    @language.setter
    def language(self, value: str) -> None:
        if value not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
        self._language = value

    @property
    def current_game(self) -> int | None:
        """The current game's id (the seq of its new_game), None before any game."""
        return self.journal.current_game

    @property
    def theme(self) -> Theme:
        game = self._referee.game
        edition = game.setup.rules.edition if game is not None else "2005"
        return Theme(self._language, edition)

    def add_listener(self, listener: Listener) -> None:
        """Call `listener` with every new message (buzzer, speaker); it must not block."""
        with self._lock:
            self._listeners.append(listener)

    # ------------------------------------------------------------------ events in

    def submit(self, event: object, source: str = "api") -> Submission:
        """Referee, journal and announce one event. MalformedEvent if it is not one well-formed event."""
        checked = check_well_formed(event)
        with self._lock:
            outcome_reason = self._referee.decide(checked)
            seq = self.journal.append(checked, outcome_reason is None, _str(outcome_reason), source)
            outcome = self._referee.apply(checked)
            if outcome.accepted and checked["type"] == "card":
                self._accepted_at[checked["card"]] = self._clock()
            message = self._announce_outcome(seq, checked, outcome)
        self._tell_listeners(message)  # outside the lock: a slow buzzer never holds up the table
        return Submission(outcome.accepted, _str(outcome.reason), seq, message)

    def tag_seen(self, uid: str, source: str = "reader") -> Submission | None:
        """A reader saw a tag: submit the card (or menu card) it names; None for a double read."""
        event = self._tag_event(uid)
        return None if event is None else self.submit(event, source)

    def _tag_event(self, uid: str) -> dict[str, Any] | None:
        """The event a tag stands for, or None when it is the same card read again."""
        with self._lock:
            code = self.tags.lookup(uid)
            if code is None:
                return {"type": "card", "card": f"tag:{uid.lower()}"}
            game = self._referee.game
            if code.startswith("menu-"):  # a physical menu card: set N belongs to the N-th seat
                menu, _, copy = code.removeprefix("menu-").partition("@")
                seat = int(copy) - 1
                player = game.players[seat] if game is not None and seat < len(game.players) else f"seat {copy}"
                return {"type": "menu", "player": player, "menu": menu}
            seen = self._accepted_at.get(code)
            if (
                seen is not None and self._clock() - seen < DOUBLE_READ_SECONDS
                and game is not None and game.state.open_round is not None
                and code in game.state.open_round.played
            ):
                return None
            return {"type": "card", "card": code}

    def undo(self, source: str = "api") -> Submission:
        """Take back the last accepted play, menu or hand."""
        return self.submit({"type": "undo"}, source)

    def reader_health(self, reader: str, ok: bool, detail: str = "", info: dict[str, str] | None = None) -> None:
        """Record a reader's health for the display; a change is announced (no journal entry)."""
        with self._lock:
            previous = self._health.get(reader)
            self._health[reader] = {"reader": reader, "ok": ok, "detail": detail, "info": dict(info or {})}
            if previous is None or previous["ok"] != ok:
                part = Part("reader_ok" if ok else "reader_down", {"reader": reader, "detail": detail})
                message = self._publish("reader", (part,), is_event=False, detail=(("ok", ok),))
            else:
                return
        self._tell_listeners(message)

    # ------------------------------------------------------------------ announcements

    def _announce_outcome(self, seq: int, event: dict[str, Any], outcome: Outcome) -> Message:
        game = self._referee.game
        kind = event_type(event)
        if outcome.accepted:
            parts = describe_effects(game, outcome.effects)
            detail: list[tuple[str, Any]] = [("event", kind)]
            if kind == "card":
                detail.append(("card", event["card"]))
            return self._publish(kind, tuple(parts), is_event=True, seq=seq, accepted=True,
                                 detail=tuple(detail))
        part = describe_refusal(game, event, outcome.reason or "")
        detail = [("event", kind)]
        if kind == "card" and isinstance(event.get("card"), str):
            detail.append(("card", event["card"]))
        return self._publish("refused", (part,), is_event=True, seq=seq, accepted=False,
                             reason=str(outcome.reason), detail=tuple(detail))

    def _publish(self, kind: str, parts: tuple[Part, ...], *, is_event: bool, seq: int | None = None,
                 accepted: bool | None = None, reason: str | None = None,
                 detail: tuple[tuple[str, Any], ...] = ()) -> Message:
        with self._lock:
            self._serial += 1
            message = Message(self._serial, self.journal.last_seq if seq is None else seq, kind, parts,
                              is_event, accepted, reason, detail)
            self._messages.append(message)
            if len(self._messages) > MAX_MESSAGES:
                del self._messages[: len(self._messages) - MAX_MESSAGES]
            self._changed.notify_all()
        return message

    def _tell_listeners(self, message: Message) -> None:
        """Hand a new message to the listeners (buzzer, speaker), outside the table lock; one that
        fails is logged and does not stop the others, nor undo what is already journaled."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(message)
            except Exception:
                log.exception("announcement listener %r failed", listener)


    def last_announcement(self) -> Message | None:
        """The last message that said something about the game."""
        with self._lock:
            for message in reversed(self._messages):
                if message.kind not in ("repeat", "reader") and message.parts:
                    return message
            return None

    def repeat_last(self) -> Message:
        """Announce the last announcement again."""
        last = self.last_announcement()
        parts = last.parts if last is not None else (Part("nothing_yet"),)
        message = self._publish("repeat", parts, is_event=False)
        self._tell_listeners(message)
        return message

    def where_are_we(self) -> Message:
        """Announce the whole state: sum, led suit, spoiled, whose turn, stars."""
        with self._lock:
            part = describe_where(self._referee.game)
        message = self._publish("where", (part,), is_event=False)
        self._tell_listeners(message)
        return message

    def messages_after(self, last_id: int | None, serial: int | None = None) -> list[Message]:
        """Messages a stream client has not had: after its Last-Event-ID, or after a live serial."""
        with self._lock:
            if serial is not None:
                return [m for m in self._messages if m.serial > serial]
            if last_id is None:
                return []
            for index, message in enumerate(self._messages):
                if message.is_event and message.seq > last_id:
                    return self._messages[index:]
            return []

    def wait_after(self, serial: int, timeout: float) -> list[Message]:
        """Block until a message newer than `serial` exists (or timeout); return the new ones."""
        with self._changed:
            self._changed.wait_for(lambda: self._serial > serial, timeout=timeout)
            return [m for m in self._messages if m.serial > serial]

    @property
    def last_serial(self) -> int:
        with self._lock:
            return self._serial

    def render(self, message: Message) -> dict[str, Any]:
        """A message as the stream sends it, in the table's current language."""
        return message.as_json(self.theme)

    # ------------------------------------------------------------------ views out

    def state(self) -> dict[str, Any]:
        """The contract's `GET /api/state` object."""
        with self._lock:
            return views.public_state(self._referee.game)

    def table_view(self) -> dict[str, Any]:
        """Everything the table display shows (public information only)."""
        with self._lock:
            view = views.table_view(self._referee.game)
            view["readers"] = list(self._health.values())
            view["language"] = self._language
            return view

    def seat_view(self, player: str, *, owner: bool = False) -> dict[str, Any] | None:
        """A seat's view, with the player's secrets only when `owner` (their own phone); None for an
        unknown name."""
        with self._lock:
            return views.seat_view(self._referee.game, player, owner=owner)

    def history(self) -> dict[str, Any]:
        """Every round trick by trick, with the sum after each card."""
        with self._lock:
            return views.history(self._referee.game)

    def past_games(self) -> list[dict[str, Any]]:
        """Every game in the journal with its players, date, phase, stars and winners."""
        summaries = []
        for summary in self.journal.games():
            referee = Referee()
            for record in self.journal.records(game=summary.game):
                referee.apply(record.body)
            state = views.public_state(referee.game)
            summaries.append({
                "game": summary.game, "started_at": summary.started_at, "players": summary.players,
                "phase": state["phase"], "round": state["round"], "stars": state["stars"],
                "winners": state["winners"],
            })
        return summaries

    def close(self) -> None:
        """Close the journal; idempotent."""
        self.journal.close()


def _str(reason: object) -> str | None:
    return None if reason is None else str(reason)
