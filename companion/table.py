"""The table service: the one place that turns a tag or a request into a journaled game event.

Order for every event: decide → journal (durable) → apply → announce. It knows games only
through `companion.seam` (a second game is one more entry in `games`); views of a game leave
through the game's observers only, so secrets cannot leak from here.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.decks import DECKS_DIR, DeckStore
from companion.hub import MAX_MESSAGES, Hub, Listener, Message
from companion.journal import Entry, Journal, JournalError, Record, StorageError
from companion.phrases import DEFAULT_LANGUAGE, LANGUAGES, TABLE_VOICE
from companion.player_stats import NEWEST_GAMES, PlayerStatistics, journal_tallies
from companion.reader_words import TOLD, Words, detail_in
from companion.reads import DOUBLE_READ_SECONDS, ReadGuard, ReadTakers
from companion.referee import Outcome, Referee
from companion.seam import EmptyTableView, Games, Part, State, UndoEvent, Voice, wire
from companion.tags import TagMap

if TYPE_CHECKING:
    from companion.robot_seats import RobotLedger

log = logging.getLogger(__name__)

__all__ = ["GameNotSwitchable", "JournalDisagrees", "Message", "Submission", "TableService", "UnknownGame"]

RESUME_EVENTS = 1_000  # messages rebuilt at start: a display resuming after a restart within them misses nothing


class UnknownGame(LookupError):
    """No game has that id in this journal."""


class GameNotSwitchable(ValueError):
    """That game cannot be resumed or closed: it is the current one, or it is over."""


class JournalDisagrees(JournalError):
    """Replaying the journal refuses what it recorded as accepted, or the reverse: never served."""


@dataclass(frozen=True, slots=True)
class Submission:
    """What happened to a submitted event: accepted or refused (with reason), under `seq`."""

    accepted: bool
    reason: str | None
    seq: int
    message: Message | None  # None when a request with the same Idempotency-Key recorded it before
    repeated: bool = False

    def as_json(self) -> dict[str, Any]:
        """The contract's `POST /api/events` answer."""
        if self.accepted:
            return {"accepted": True, "seq": self.seq}
        return {"accepted": False, "reason": self.reason, "seq": self.seq}


def fold(referee: Referee, seqs: list[int], seq: int, event: dict[str, Any]) -> tuple[Outcome, list[int]]:
    """Apply one journaled event to a game's referee; the seqs of its standing actions after it."""
    outcome = referee.apply(event)
    if outcome.accepted:
        if event["type"] == "new_game":
            seqs = []
        elif event["type"] == "undo":
            seqs.pop()
        elif referee.side_for(event["type"]) is None:  # a side ledger's note (a robot's, a confirmation) is no action
            seqs.append(seq)
    return outcome, seqs


class TableService:
    """One table: a journal, the referee folded from it, and the announcement hub."""

    def __init__(self, journal: Journal, games: Games, *, tags: TagMap | None = None,
                 language: str = DEFAULT_LANGUAGE, clock: Callable[[], float] = time.monotonic) -> None:
        self.journal = journal
        self.games = games
        self.tags = tags or TagMap(games.tag_codes())
        self._language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self._lock = threading.RLock()
        """Held by writers from the decision to the journal's answer (it may wait on a stuck disk)."""
        self._view = threading.RLock()
        """Held briefly to change or read the table's state: readers never wait behind a write's fsync.
        Always taken after `_lock`, never before it."""
        self._hub = Hub(threading.RLock())  # its own lock: woken displays never queue on the table's
        self._referee = Referee(games)
        self._reads = ReadGuard(clock)
        self._action_seqs: list[int] = []
        self._health: dict[str, dict[str, Any]] = {}
        self._health_words: dict[str, Words | None] = {}
        self.read_takers = ReadTakers()
        """Who takes a read before the game (the deck desk, a club's members' cards), in their declared order."""
        self._storage_trouble: str | None = None
        self.deck_set_aside: Message | None = None
        self.set_aside_report: str | None = None
        """Said at start when the deck file was unreadable and set aside (the deck page shows it)."""
        self.player_stats = PlayerStatistics()
        """The players' statistics in memory, told of the current game after each change (see load_player_stats)."""
        self._fold_journal()
        self._keep_missing_summaries()

    @classmethod
    def open(cls, data_dir: Path, games: Games, **options: Any) -> TableService:
        """The table of a data dir: its journal and its tag map. An unreadable deck file never stops it:
        it is set aside and said (`deck_set_aside`, and `set_aside_report` for the terminal)."""
        report = DeckStore(data_dir, games.tag_codes()).set_aside_unreadable()
        service = cls(Journal.open(data_dir), games, tags=TagMap.load(data_dir, games.tag_codes()), **options)
        if report is not None:
            service.set_aside_report = report[1]
            service.deck_set_aside = service.notice("deck_set_aside", file=f"{DECKS_DIR}/{report[0]}")
        return service

    def _fold_journal(self) -> None:
        """Rebuild the current game, the recent announcements and the read guard from the journal.

        Folding starts at the earliest game holding a message kept (or the current game), so a stream
        client resuming from any of those ids (even in an earlier game) gets every message after it.
        Each game is folded on its own: a resumed game's later events come after other games' events.
        """
        if self.journal.last_seq == 0:
            return
        oldest_kept = max(1, self.journal.last_seq - self._hub_capacity() + 1)
        touched = [game for game in (self.journal.earliest_game_since(oldest_kept), self.journal.current_game)
                   if game is not None]
        start = min(touched) if touched else oldest_kept
        matches: dict[int, tuple[Referee, list[int]]] = {}
        last_reads: list[tuple[str, int, str]] = []
        for record in self.journal.records(after=start - 1):
            if record.game is None:  # judged outside any game
                outcome = Referee(self.games).apply(record.body)
            elif record.game in matches or record.game == record.seq:
                self._referee, self._action_seqs = matches.get(record.game, (Referee(self.games), []))
                outcome = self._apply(record.seq, record.body)
                matches[record.game] = (self._referee, self._action_seqs)
            else:  # a game started before `start`, with no message kept after it: not needed
                continue
            self._check_agrees(record, outcome)
            if record.seq >= oldest_kept:
                self._announce(record.seq, record.body, outcome)
            if outcome.accepted and record.tag is not None:
                last_reads.append((record.tag, record.seq, record.received_at))
        current = self.journal.current_game
        fresh: tuple[Referee, list[int]] = (Referee(self.games), [])
        self._referee, self._action_seqs = matches.get(current, fresh) if current is not None else fresh
        self._restore_reads(last_reads)

    def _rebuild(self, game: int) -> tuple[Referee, list[int]]:
        """One game folded from its own records alone: its referee and the seqs of its standing actions."""
        referee = Referee(self.games)
        seqs: list[int] = []
        for record in self.journal.records(game=game):
            outcome, seqs = fold(referee, seqs, record.seq, record.body)
            self._check_agrees(record, outcome)
        return referee, seqs

    def _restore_reads(self, reads: list[tuple[str, int, str]]) -> None:
        """Guard the reads accepted in the last DOUBLE_READ_SECONDS before the journal's last event."""
        if not reads:
            return
        newest = datetime.fromisoformat(self.journal.last_received_at or reads[-1][2])
        recent = [(tag, seq) for tag, seq, at in reads
                  if (newest - datetime.fromisoformat(at)).total_seconds() <= DOUBLE_READ_SECONDS]
        self._reads.restore((tag, seq) for tag, seq in recent if self._stands(seq))

    def _check_agrees(self, record: Record, outcome: Outcome) -> None:
        """JournalDisagrees when the replayed outcome of `record` is not the one it recorded."""
        replayed = (outcome.accepted, None if outcome.reason is None else str(outcome.reason))
        if replayed != (record.accepted, record.reason):
            def said(accepted: bool, reason: str | None) -> str:
                return "accepted" if accepted else f"refused ({reason})"

            raise JournalDisagrees(
                f"{self.journal.path}: the journal disagrees with itself at event {record.seq}: it was recorded "
                f"{said(record.accepted, record.reason)} but replaying the journal says {said(*replayed)}; two "
                "programs may have written to it at once. Export the games (`marmite export`), check them "
                "with `marmite replay`, and import them into a fresh data dir (`marmite import`)")

    def _keep_missing_summaries(self) -> None:
        """Summarise finished games that have no summary yet (a journal of schema 2), once."""
        missing = self.journal.unsummarised_games()
        if not missing or not self.journal.writer:
            return
        summaries = []
        for game in missing:
            referee = Referee(self.games)
            for record in self.journal.records(game=game):
                self._check_agrees(record, referee.apply(record.body))
            summaries.append((game, referee.state.summary() if referee.state is not None else {}))
        self.journal.keep_summaries(summaries)

    @staticmethod
    def _hub_capacity() -> int:
        return min(MAX_MESSAGES, RESUME_EVENTS)

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
    def game_state(self) -> State | None:
        """The current match's state (for the pages' game-specific helpers; read it under no lock)."""
        return self._referee.state

    @property
    def game_name(self) -> str:
        """The name of the current match's game, the default game before any."""
        kind = self._referee.kind
        return kind.name if kind is not None else self.games.default

    def voice(self) -> Voice:
        """The current game's voice (the table's own before any game)."""
        state = self._referee.state
        return state.voice() if state is not None else TABLE_VOICE

    def add_listener(self, listener: Listener) -> None:
        """Call `listener` with every new message (buzzer, speaker); it must not block."""
        self._hub.add_listener(listener)

    # ------------------------------------------------------------------ events in

    def submit(self, event: object, source: str = "api", *, tag: str | None = None,
               key: str | None = None) -> Submission:
        """Referee, journal and announce one event. MalformedEvent if it is not one well-formed event;
        StorageError (announced) when the disk refuses it. A `key` already recorded (Idempotency-Key)
        records nothing and answers as the first time."""
        checked = self._referee.shapes.check_well_formed(event)
        with self._lock:
            if (first := self.recorded(key)) is not None:
                return first
            seq, outcome, message = self._record_locked(checked, source, tag=tag, key=key)
        self._hub.tell(message)  # outside the lock: a slow buzzer never holds up the table
        return Submission(outcome.accepted, outcome.reason, seq, message)

    def submit_if(self, event: dict[str, Any], source: str, still: Callable[[], bool], *,
                  words: Callable[[tuple[Part, ...]], tuple[Part, ...]] | None = None) -> Submission | None:
        """Submit `event` only if `still()` holds under the table lock (the robot driver's check that the
        table has not moved on while it thought); None, recording nothing, otherwise. `words` rewords an
        accepted event's announcement (a practice robot's card: its name and reason in the same line)."""
        checked = self._referee.shapes.check_well_formed(event)
        with self._lock:
            if not still():
                return None
            seq, outcome, message = self._record_locked(checked, source, tag=None, key=None, words=words)
        self._hub.tell(message)
        return Submission(outcome.accepted, outcome.reason, seq, message)

    def _record_locked(self, checked: dict[str, Any], source: str, *, tag: str | None, key: str | None,
                       words: Callable[[tuple[Part, ...]], tuple[Part, ...]] | None = None
                       ) -> tuple[int, Outcome, Message]:
        """Decide, journal, apply and publish one well-formed event (the caller holds the lock)."""
        checked = self._referee.stamp(checked)  # a side ledger's mark on a live new game (never on replay)
        reason = self._referee.decide(checked)
        closes = None
        if reason is None and checked["type"] == "new_game" and self._referee.state is not None:
            game = self.journal.current_game
            closes = None if game is None else (game, self._referee.state.summary())
        seq = self._append(checked, reason, source, tag=tag, key=key, closes=closes)
        with self._view:
            outcome = self._apply(seq, checked)
            if outcome.accepted and tag is not None:
                self._reads.accepted(tag, seq)
            self.player_stats.observe(self.journal.current_game, self._referee.state)
            return seq, outcome, self._announce(seq, checked, outcome, words)

    def submit_all(self, events: list[object], source: str = "api") -> list[Submission]:
        """Referee, journal and announce several events in one durable step: all recorded, or none (a
        StorageError, announced, leaves the table as it was). For the hands of a deal by tag."""
        checked = [self._referee.shapes.check_well_formed(event) for event in events]
        with self._lock:
            game = self.journal.current_game
            trial, trial_seqs = self._rebuild(game) if game is not None else (Referee(self.games), [])
            reasons = []
            for event in checked:  # judged one after the other on a copy, as they will be on the table
                outcome, trial_seqs = fold(trial, trial_seqs, 0, event)
                reasons.append(outcome.reason)
            try:
                seqs = self.journal.append_many([Entry(event, reason is None, reason, source)
                                                 for event, reason in zip(checked, reasons, strict=True)])
            except StorageError as error:
                self._storage_changed(error.kind)
                raise
            if self._storage_trouble is not None:
                self._storage_changed(None)
            answers = []
            with self._view:
                for seq, event in zip(seqs, checked, strict=True):
                    outcome = self._apply(seq, event)
                    answers.append(Submission(outcome.accepted, outcome.reason, seq,
                                              self._announce(seq, event, outcome)))
                self.player_stats.observe(self.journal.current_game, self._referee.state)
        for answer in answers:
            if answer.message is not None:
                self._hub.tell(answer.message)
        return answers

    def recorded(self, key: str | None) -> Submission | None:
        """The answer a request with this Idempotency-Key got, None for no key or a new one."""
        if key is None:
            return None
        with self._lock:
            record = self.journal.answer_for(key)
        if record is None:
            return None
        return Submission(record.accepted, record.reason, record.seq, None, repeated=True)

    def _append(self, event: dict[str, Any], reason: str | None, source: str, *, tag: str | None,
                key: str | None, closes: tuple[int, dict[str, Any]] | None) -> int:
        """Journal one event (under the lock); storage trouble, and its end, are announced."""
        try:
            seq = self.journal.append(event, reason is None, reason, source, tag=tag, key=key, closes=closes)
        except StorageError as error:
            self._storage_changed(error.kind)
            raise
        if self._storage_trouble is not None:
            self._storage_changed(None)
        return seq

    def _storage_changed(self, trouble: str | None) -> None:
        """Announce that the disk refuses writes (`trouble`: full, read_only, io) or works again."""
        if trouble == self._storage_trouble:
            return
        self._storage_trouble = trouble
        key = "storage_ok" if trouble is None else f"storage_{trouble}"
        message = self._hub.publish("storage", (Part(key),), TABLE_VOICE, seq=self.journal.last_seq,
                                    is_event=False, detail=(("ok", trouble is None),))
        threading.Thread(target=self._hub.tell, args=(message,), name="storage-announce", daemon=True).start()

    def storage_failed(self, trouble: str) -> None:
        """The disk failed a read or a write outside a play (a page, a list of games): announce it."""
        with self._view:
            self._storage_changed(trouble)

    @property
    def storage_trouble(self) -> str | None:
        """Why the disk refuses writes now ("full", "read_only", "io"), None while writing works."""
        return self._storage_trouble

    def _apply(self, seq: int, event: dict[str, Any]) -> Outcome:
        """Fold one journaled event into the referee, keeping the seq of each accepted action."""
        outcome, self._action_seqs = fold(self._referee, self._action_seqs, seq, event)
        if outcome.accepted and event["type"] == "new_game":
            self._reads.clear()
        return outcome

    def _stands(self, seq: int) -> bool:
        """True while the accepted action `seq` is part of the current match (not undone)."""
        return seq in self._action_seqs

    # ------------------------------------------------------------------ earlier games

    def resume_game(self, game: int) -> Message:
        """Make an earlier, unfinished game the table's current game again, exactly where it stood
        (its state, turn, hands and undo history); the game it replaces keeps its summary. Durable
        before it is announced. UnknownGame / GameNotSwitchable change nothing."""
        with self._lock:
            referee, seqs = self._earlier_game(game, "resume")
            current, state = self.journal.current_game, self._referee.state
            closes = None if current is None or state is None else (current, state.summary())
            try:
                self.journal.resume(game, closes)
            except StorageError as error:
                self._storage_changed(error.kind)
                raise
            with self._view:
                self._referee, self._action_seqs = referee, seqs
                self._reads.clear()
                self.player_stats.observe(game, referee.state)
                message = self._game_notice("resumed", game, referee.state)
        self._hub.tell(message)
        return message

    def abandon_game(self, game: int) -> Message:
        """Close an earlier, unfinished game: it shows as abandoned at the round it stopped at; nothing
        of its log is deleted, and it can still be resumed. UnknownGame / GameNotSwitchable change nothing."""
        with self._lock:
            referee, _ = self._earlier_game(game, "close")
            assert referee.state is not None  # a game's new_game always gives a state
            try:
                self.journal.abandon(game, referee.state.summary())
            except StorageError as error:
                self._storage_changed(error.kind)
                raise
            message = self._game_notice("abandoned", game, referee.state)
        self._hub.tell(message)
        return message

    def _earlier_game(self, game: int, verb: str) -> tuple[Referee, list[int]]:
        """An earlier game folded from the journal, when it exists, is not current and is unfinished."""
        if not 1 <= game < 2**63 or self.journal.game_of(game) != game:  # SQLite integers are 64-bit
            raise UnknownGame(f"there is no game {game}")
        if game == self.journal.current_game:
            raise GameNotSwitchable(f"game {game} is the current game")
        referee, seqs = self._rebuild(game)
        if referee.state is None or referee.state.is_terminal():
            raise GameNotSwitchable(f"game {game} is over: a finished game cannot be {verb}d")
        return referee, seqs

    def _game_notice(self, kind: str, game: int, state: State | None) -> Message:
        """Publish "the game of <date> resumed: <who> to play" (or closed) in the table's own words."""
        start = self.journal.game_start(game)
        public = state.public_state() if state is not None else {}
        fields = {"date": start[0] if start else "", "turn": public.get("turn"), "round": public.get("round")}
        key = f"game_{kind}_turn" if kind == "resumed" and fields["turn"] else f"game_{kind}"
        return self._hub.publish(kind, (Part(key, fields),), TABLE_VOICE, seq=self.journal.last_seq,
                                 is_event=False, detail=(("game", game),))

    def tag_seen(self, uid: str, source: str = "reader", *, written: str | None = None,
                 key: str | None = None, resting: bool = False) -> Submission | None:
        """A reader saw a tag: submit the event its card stands for; None for a double read.

        The double-read check and the submit happen under one lock, so two reads of one card at
        once are journaled once. `written` is the code a self-describing tag carries. `resting`:
        read again just after the reader restarted; if the card repeats a play that stands (it is
        in this round) it is the pile lying on the antenna, however long ago it was played,
        else (a card of an earlier round played again) a new play.
        """
        if (first := self.recorded(key)) is not None:  # a resent drop: not a read at all
            return first
        if resting and self._lying_there(uid):
            return None
        taker = self.read_takers.take(uid, written)
        log.debug("read from %s taken by %s", source, taker or "the game")
        if taker is not None:
            return None
        with self._lock:
            if (first := self.recorded(key)) is not None:
                return first
            code = self.tags.lookup(uid)
            if code is None:
                return self.submit({"type": "card", "card": f"tag:{uid.lower()}"}, source, key=key)
            state = self._referee.state
            if state is not None and state.repeats_read(code) and self._reads.is_double_read(code, self._stands):
                return None
            event = state.tag_event(code) if state is not None else {"type": "card", "card": code}
            return self.submit(event, source, tag=code, key=key)

    def _lying_there(self, uid: str) -> bool:
        """A tag seen again after a reader restart that repeats a play that stands (or that no deck
        knows: it was already refused before the restart)."""
        with self._lock:
            code = self.tags.lookup(uid)
            state = self._referee.state
            return code is None or (state is not None and state.repeats_read(code))

    def undo(self, source: str = "api", *, key: str | None = None) -> Submission:
        """Take back the last accepted action."""
        undo: UndoEvent = {"type": "undo"}
        return self.submit(wire(undo), source, key=key)

    def reader_health(self, reader: str, ok: bool, detail: str = "", info: dict[str, str] | None = None,
                      words: Words | None = None) -> None:
        """Record a reader's health for the display; a change is announced (no journal entry), and so is
        what a reader says of a card (`TOLD`: a card not read). `words`: the detail in any language."""
        with self._view:
            previous = self._health.get(reader)
            self._health[reader] = {"reader": reader, "ok": ok, "detail": detail, "info": dict(info or {})}
            self._health_words[reader] = words
            state = str((info or {}).get("state", ""))  # ok, missing or errors, for the readers that say it
            told = words is not None and words.key in TOLD
            if not told and previous is not None and previous["ok"] == ok \
                    and previous["info"].get("state", "") == state:
                return
            key = "reader_told" if told else "reader_ok" if ok else "reader_missing" if state == "missing" \
                else "reader_down"
            part = Part(key, {"reader": reader, "detail": words if words is not None else detail})
            message = self._hub.publish("reader", (part,), TABLE_VOICE, seq=self.journal.last_seq,
                                        is_event=False, detail=(("ok", ok),))
        self._hub.tell(message)

    def notice(self, key: str, **fields: Any) -> Message:
        """Announce a table-level notice in the table's own words (no journal entry), e.g. someone
        guessing the PIN; displays show it and the speaker says it."""
        with self._view:
            message = self._hub.publish("notice", (Part(key, dict(fields)),), TABLE_VOICE,
                                        seq=self.journal.last_seq, is_event=False)
        self._hub.tell(message)
        return message

    def wake_streams(self) -> None:
        """Wake every waiting stream now (server shutdown), without a message."""
        self._hub.wake()

    # ------------------------------------------------------------------ announcements

    def announce(self, kind: str, parts: tuple[Part, ...], voice: Voice, *, accepted: bool | None = None) -> Message:
        """Say something that is not a game event (the deck desk's prompts); nothing is journaled.
        `accepted`: a read taken (True) or refused (False), for the pot's beeps; None for the rest."""
        with self._view:
            message = self._hub.publish(kind, parts, voice, seq=self.journal.last_seq, is_event=False,
                                        accepted=accepted)
        self._hub.tell(message)
        return message

    def _announce(self, seq: int, event: dict[str, Any], outcome: Outcome,
                  words: Callable[[tuple[Part, ...]], tuple[Part, ...]] | None = None) -> Message:
        state = self._referee.state
        kind = str(event["type"])
        detail: list[tuple[str, Any]] = [("event", kind)]
        if kind == "card" and isinstance(event.get("card"), str):
            detail.append(("card", event["card"]))
        for side in self._referee.sides:  # a side ledger's note, or a refusal it caused, in its own words
            said_by = side.said(event, outcome.accepted, outcome.reason, outcome.effects, state,
                                len(self._referee.actions))
            if said_by is not None:
                return self._hub.publish(said_by.kind, said_by.parts, said_by.voice, seq=seq, is_event=True,
                                         accepted=outcome.accepted, reason=outcome.reason,
                                         detail=tuple(detail))
        if state is None:  # refused before any game: the table words it with the default game
            default = self.games.kinds[self.games.default]
            part = default.describe_refusal(event, outcome.reason or "")
            return self._hub.publish("refused", (part,), default.voice(), seq=seq, is_event=True,
                                     accepted=False, reason=outcome.reason, detail=tuple(detail))
        if outcome.accepted:
            said: tuple[Part, ...] = tuple(state.describe(outcome.effects))
            for side in self._referee.sides:  # e.g. a practice table says a robot's turn more briefly
                said = side.reword(said, self._referee.kind)
            voice: Voice = state.voice()
            if words is not None:  # a practice robot's card: the robot voice words its name and reason
                robots = self._referee.side_for("robot")
                said, voice = words(said), (robots.voice(state) if robots is not None else None) or voice
            return self._hub.publish(kind, said, voice, seq=seq, is_event=True, accepted=True,
                                     detail=tuple(detail))
        part = state.describe_refusal(event, outcome.reason or "")
        return self._hub.publish("refused", (part,), state.voice(), seq=seq, is_event=True, accepted=False,
                                 reason=outcome.reason, detail=tuple(detail))

    @property
    def robots(self) -> RobotLedger:
        """The current game's robot seats, choices and robot hands (read under `view_lock`: writers change them
        only under it)."""
        return self._referee.robots

    @property
    def lock(self) -> threading.RLock:
        """The table's lock: hold it to read the state, the actions and the robots together."""
        return self._lock

    @property
    def view_lock(self) -> threading.RLock:
        """The readers' lock: hold it to read the state, the robots and `action_count` together without
        waiting behind a write stuck on the disk (never take `lock` while holding it)."""
        return self._view

    @property
    def action_count(self) -> int:
        """How many accepted actions of the current game still stand (read under `view_lock`)."""
        return len(self._referee.actions)

    def standing_actions(self) -> list[dict[str, Any]]:
        """The current game's accepted actions still standing (its new_game first), for a robot's request."""
        with self._lock:
            game = self.journal.current_game
            if game is None or self._referee.state is None:
                return []
            start = next(iter(self.journal.records(game=game, after=game - 1, limit=1)))
            return [start.body, *self._referee.actions]

    def last_announcement(self) -> Message | None:
        """The last message that said something about the game."""
        return self._hub.last(skip=("repeat", "reader", "storage"))

    def repeat_last(self) -> Message:
        """Announce the last announcement again."""
        last = self.last_announcement()
        with self._view:
            if last is not None:
                message = self._hub.publish("repeat", last.parts, last.voice, seq=self.journal.last_seq,
                                            is_event=False)
            else:
                message = self._hub.publish("repeat", (Part("nothing_yet"),), TABLE_VOICE,
                                            seq=self.journal.last_seq, is_event=False)
        self._hub.tell(message)
        return message

    def where_are_we(self) -> Message:
        """Announce the whole state of the current match."""
        with self._view:
            state = self._referee.state
            parts: tuple[Part, ...]
            voice: Voice
            if state is None:
                parts, voice = (Part("where_no_game"),), TABLE_VOICE
            else:
                parts, voice = tuple(state.describe_where()), state.voice()
                for side in self._referee.sides:  # e.g. which card a robot is waiting to have played
                    added = side.where(state, len(self._referee.actions))
                    if added is not None:
                        parts, voice = (*parts, added), side.voice(state) or voice
            message = self._hub.publish("where", parts, voice, seq=self.journal.last_seq, is_event=False)
        self._hub.tell(message)
        return message

    def messages_after(self, last_id: int | None, serial: int | None = None) -> list[Message]:
        """Messages a stream client has not had: after its Last-Event-ID, or after a live serial."""
        return self._hub.after(last_id, serial)

    def wait_after(self, serial: int, timeout: float) -> list[Message]:
        """Block until a message newer than `serial` exists (or timeout); return the new ones."""
        return self._hub.wait_after(serial, timeout)

    @property
    def last_serial(self) -> int:
        return self._hub.serial

    def render(self, message: Message) -> dict[str, Any]:
        """A message as the stream sends it, in the table's current language."""
        return message.as_json(self._language)

    # ------------------------------------------------------------------ views out

    def state(self) -> dict[str, Any]:
        """The contract's `GET /api/state` object."""
        with self._view:
            return self._referee.public_state

    def table_view(self) -> dict[str, Any]:
        """Everything the table display shows (public information only)."""
        with self._view:
            state = self._referee.state
            view = state.table_view() if state is not None else self._empty_table_view()
            view["game_kind"] = self.game_name
            view["readers"] = [{**health, "detail": detail_in(health["detail"], self._health_words.get(name),
                                                               self._language)}
                               for name, health in self._health.items()]
            view["storage"] = {"ok": self._storage_trouble is None, "trouble": self._storage_trouble}
            view["language"] = self._language
            return view

    def _empty_table_view(self) -> dict[str, Any]:
        view = self._referee.public_state
        view.update({"game": None, "players": []})
        kind = self.games.kinds[self.games.default]
        if isinstance(kind, EmptyTableView):  # what the default game's table page reads before a match
            view.update(kind.empty_table_view())
        return view

    def seat_view(self, player: str, *, owner: bool = False) -> dict[str, Any] | None:
        """A seat's view, with the player's secrets only when `owner` (their own phone); None for an
        unknown name."""
        with self._view:
            state = self._referee.state
            return state.seat_view(player, owner=owner) if state is not None else None

    def history(self) -> dict[str, Any]:
        """The current match's history (for Chaud Devant, every round trick by trick)."""
        with self._view:
            state = self._referee.state
            return state.history() if state is not None else {"rounds": []}

    def past_games(self, *, before: int | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        """The games in the journal with their players, date, phase, score and winners, oldest first:
        all, or the newest `limit` of those started before game `before`. Finished games come from
        their kept summaries and the current one from its state, so nothing is replayed."""
        with self._view:  # the state's part under the view lock; the journal's after it (it may wait on a write)
            game, state = self.current_game, self._referee.state
            facts = state.summary() if game is not None and state is not None else None
        current = None
        if game is not None and facts is not None and (before is None or game < before):
            start = self.journal.game_start(game)
            if start is not None:
                current = {"game": game, "started_at": start[0], "players": start[1], **facts,
                           "abandoned": False, "current": True}
        summaries = [{**summary, "current": False}
                     for summary in self.journal.summaries(before=before, limit=limit) if summary["game"] != game]
        if current is not None:
            summaries.append(current)
            summaries.sort(key=lambda summary: int(summary["game"]))  # a resumed game is older than others
        if limit is None:
            return summaries
        return summaries[-limit:] if limit > 0 else []

    def load_player_stats(self) -> None:
        """Read the games from before this run into `player_stats`, once (it may wait on the disk: call
        it off a page's way; a StorageError leaves them unread, to try again)."""
        self.player_stats.load(lambda: journal_tallies(self.journal, self.games,
                                                       self.past_games(limit=NEWEST_GAMES)))

    def close(self) -> None:
        """Close the journal; idempotent."""
        self.journal.close()

