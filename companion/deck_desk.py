"""The deck desk: the table's decks, and the activities that take the reader's reads for a while.

While a deck is being enrolled, checked or dealt by tag, every read goes to that activity and not
to the game (the table's `deck_desk` read taker). Game-agnostic: a game that names its physical cards
(`tag_name`) or deals by tag (`deal_plan`) says so through the optional protocols below.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from companion import robot_games
from companion.deck_check import DeckCheck
from companion.deck_phrases import DeckVoice
from companion.decks import DEFAULT_EDITION, DeckError, DeckStore, format_deck_file, is_uid
from companion.enrollment import Enrollment
from companion.hub import Message
from companion.journal import JournalError, StorageError
from companion.reads import WHOLE_UIDS, KnownTags, PartialUids, TagKinds, TagMemory, TagWriter
from companion.seam import GameKind, Part
from companion.table import TableService
from companion.tag_deal import DealPlan, TagDeal

ENROLLMENT_FILE = "enrollment.json"
DEAL_FILE = "deal.json"
DEAL_RETRY_SECONDS = 2.0
"""How often a complete deal the disk refused is tried again."""


@runtime_checkable
class NamesTags(Protocol):
    """A game whose physical cards have spoken names (for enrolling and checking)."""

    def tag_name(self, code: str, language: str) -> str | None: ...


@runtime_checkable
class NamesTagsByEdition(Protocol):
    """A game sold in several editions whose cards' names differ; a deck says which it is."""

    editions: tuple[str, ...]

    def tag_name(self, code: str, language: str, edition: str) -> str | None: ...


@runtime_checkable
class DealsByTag(Protocol):
    """A game whose rounds can be dealt card by card over the reader (known hands)."""

    def deal_plan(self, state: object) -> DealPlan | None: ...


@runtime_checkable
class SparesTags(Protocol):
    """A game whose box holds only some of its possible cards (Sus au buffet !: 36 plates of 42 codes)."""

    optional_tags: frozenset[str]
    optional_in_box: int


class ReaderBusy(DeckError):
    """The reader is held by an enrollment, a deck check or a deal: the message (in the table's language)
    says which and how to release it; `kind` is enroll, check or deal."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def editions_of(kinds: Iterable[GameKind]) -> list[str]:
    """The editions a deck of these games can be of, the default first."""
    found = [DEFAULT_EDITION]
    for kind in kinds:
        if isinstance(kind, NamesTagsByEdition):
            found += [edition for edition in kind.editions if edition not in found]
    return found


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class DeckDesk:
    """The decks of a table's data dir and the one activity (enroll, check, deal) under way."""

    def __init__(self, service: TableService, data_dir: Path, *, clock: Callable[[], str] = now_iso) -> None:
        self.service = service
        self.store = DeckStore(data_dir, service.games.tag_codes())
        self.clock = clock
        self.voice = DeckVoice(self.name)
        self._lock = threading.RLock()
        self.enrollment: Enrollment | None = None
        self.check: DeckCheck | None = None
        self.deal: TagDeal | None = None
        self._enroll_game: str = service.games.default
        self._check_game: str = service.games.default
        self.last_report: dict[str, Any] | None = None
        self._dealt: tuple[int | None, int] | None = None  # (game, round) of the last deal by tag
        self.writer: TagWriter | None = None  # writes codes on tags, for self-describing decks
        self.memory: TagMemory | None = None  # the reader's tag memory, told when to report codes
        self.offers: dict[str, str] = {}  # uid → the code a self-describing tag the deck lacks says
        self.partial: PartialUids | None = None  # a reader that sends only part of each UID (keyboard wedge)
        self.edition = DEFAULT_EDITION  # the active deck's: which names its cards carry
        with contextlib.suppress(DeckError):  # a damaged deck index is reported where decks are used
            self.edition = self.store.info().edition
        service.read_takers.add("deck_desk", self._hook)
        service.add_listener(self._on_message)

    # ------------------------------------------------------------------ names

    def name(self, code: str, language: str) -> str:
        """A physical card's spoken name in the active deck's edition, from whichever hosted game
        names it; else its code."""
        for kind in self.service.games.kinds.values():
            if code not in kind.tag_codes:
                continue
            if isinstance(kind, NamesTagsByEdition) and self.edition in kind.editions:
                named = kind.tag_name(code, language, self.edition)
            elif isinstance(kind, NamesTags):
                named = kind.tag_name(code, language)
            else:
                continue
            if named is not None:
                return named
        return code

    def editions(self) -> list[str]:
        """The editions a deck can be of (the hosted games'), the default first."""
        return editions_of(self.service.games.kinds.values())

    def order(self, game: str | None = None) -> tuple[str, ...]:
        """A game's physical cards in box order (its `tag_codes`)."""
        kind = self._kind(game)
        return tuple(kind.tag_codes)

    def game_of(self, code: str) -> str | None:
        """The hosted game whose box holds this physical card."""
        return next((name for name, kind in self.service.games.kinds.items() if code in kind.tag_codes), None)

    def check_order(self, game: str | None = None) -> tuple[str, ...]:
        """The cards a deck check expects: the game's box, less the optional cards this deck never learned."""
        kind = self._kind(game)
        optional = kind.optional_tags if isinstance(kind, SparesTags) else frozenset()
        known = set(self.store.load().values())
        return tuple(code for code in kind.tag_codes if code not in optional or code in known)

    def _spares(self, game: str) -> dict[str, Any]:
        """The enrollment's optional cards for a game whose box holds only some of its possible cards."""
        kind = self._kind(game)
        if not isinstance(kind, SparesTags):
            return {}
        return {"optional": kind.optional_tags, "optional_in_box": kind.optional_in_box}

    def _kind(self, game: str | None) -> GameKind:
        name = game or self.service.games.default
        if name not in self.service.games.kinds:
            raise DeckError(f"no game named {name!r}")
        return self.service.games.kinds[name]

    def _say(self, *parts: Part, accepted: bool | None = None) -> str:
        message = self.service.announce("deck", parts, self.voice, accepted=accepted)
        return str(self.service.render(message)["text"])

    # ------------------------------------------------------------------ decks

    def decks(self) -> dict[str, Any]:
        """Every deck (name, cards known, last check), the active one, and the activity under way."""
        index = self.store.index()
        decks = [{**info.as_json(), "cards": len(self.store.load(info.name)), "active": info.name == index.active}
                 for info in index.decks]
        return {"active": index.active, "decks": decks, "activity": self.activity(), "offers": dict(self.offers),
                "editions": self.editions(),
                "paused_enrollment": self._saved_enrollment() is not None and self.enrollment is None,
                "set_aside": self._set_aside_text(),
                "last_report": self.last_report}

    def _set_aside_text(self) -> str | None:
        """What the table said at start about a deck file it set aside (in its language), else None."""
        if self.service.deck_set_aside is None:
            return None
        message = self.service.render(self.service.deck_set_aside)
        return str(message["text"])

    def activity(self) -> dict[str, Any] | None:
        with self._lock:
            if self.enrollment is not None:
                current = self.enrollment.current
                return {"kind": "enroll", "game": self._enroll_game, **self.enrollment.as_json(),
                        "current_name": None if current is None else self.name(current, self.service.language)}
            if self.check is not None:
                return {"kind": "check", "game": self._check_game, **self.check.report()}
            if self.deal is not None:
                return {"kind": "deal", "every_round": self.deals_every_round(), **self.deal.as_json()}
            return None

    def import_text(self, text: str) -> int:
        """Make a deck file the active deck; DeckError (nothing changed) for a bad file."""
        with self._lock:
            self._idle("import a deck")
            mapping = self.store.import_file(text)
            self.service.tags.replace(mapping)
            self._active_changed()
            return len(mapping)

    def export_text(self) -> str:
        return format_deck_file(self.store.load(), self.service.games.tag_codes())

    def create(self, name: str, edition: str = DEFAULT_EDITION) -> None:
        """A new empty deck of `edition`, made active."""
        with self._lock:
            self._idle("change decks")
            self._check_edition(edition)
            self.store.create(name, edition)
            self.service.tags.replace({})
            self._active_changed()

    def set_edition(self, edition: str) -> None:
        """The active deck's edition: the names enrollment, the deck check and the deck page give its cards."""
        with self._lock:
            self._check_edition(edition)
            self.store.set_edition(edition)
            self._active_changed()

    def _check_edition(self, edition: str) -> None:
        if edition not in self.editions():
            raise DeckError(f"{edition!r} is not an edition; choose {' or '.join(self.editions())}")

    def activate(self, name: str) -> None:
        with self._lock:
            self._idle("change decks")
            self.store.activate(name)
            self.service.tags.replace(self.store.load())
            self._active_changed()

    def _idle(self, what: str) -> None:
        """ReaderBusy (said on every display and by voice: which activity holds the reader and how to
        release it) unless no activity is under way."""
        kind = self.busy()
        if kind is not None:
            raise ReaderBusy(self._say(Part(f"reader_busy_{kind}"), accepted=False), kind)

    def busy(self) -> str | None:
        """What holds the reader now (enroll, check, deal), None when the game has it."""
        if self.enrollment is not None:
            return "enroll"
        if self.check is not None:
            return "check"
        return "deal" if self.deal is not None else None

    # ------------------------------------------------------------------ reads

    def _hook(self, uid: str, written: str | None) -> bool:
        """The table's "deck_desk" read taker: take the read while an activity is under way, or to offer a
        self-describing card the deck lacks."""
        return self.tag_seen(uid, written=written) is not None

    def tag_seen(self, uid: str, *, written: str | None = None) -> dict[str, Any] | None:
        """Give a read to the activity under way; None when there is none (the game takes it).
        `written`: the code the tag carries (self-describing tags)."""
        uid = uid.lower()
        with self._lock:
            if self.enrollment is not None and not is_uid(uid):  # never noted: the deck file keeps one rule
                text = str(self.service.render(self.service.notice("uid_refused", uid=uid[:40]))["text"])
                return {"outcome": "not_a_uid", "text": text, "activity": self.activity()}
            if self.enrollment is not None:
                refused = self._refuse_alike()
                if refused is not None:
                    self.enrollment = None  # its progress stays saved: another reader resumes it
                    return refused
                wrote = self._write_enrolled(uid)
                if wrote is not None and wrote["outcome"] == "write_failed":
                    return wrote
                step = self.enrollment.read(uid)
                if step.outcome == "learned":
                    self._record_taught(uid, first=len(self.enrollment.mapping) == 1)
                    self._save_enrollment()
                parts = step.parts if wrote is None else (step.parts[0], Part("enroll_written"), *step.parts[1:])
                read = {"learned": True, "taken": False}.get(step.outcome)  # "done": no card asked
                self._close_finished_enrollment()
                return {"outcome": step.outcome, "text": self._say(*parts, accepted=read),
                        "activity": self.activity(), "tag_write": None if wrote is None else "verified"}
            if self.check is not None:
                part = self.check.read(uid)
                return {"outcome": part.key, "text": self._say(part), "activity": self.activity()}
            if self.deal is not None:
                return self._deal_read(uid)
            if written is not None and written in self.store.codes and self.service.tags.lookup(uid) is None:
                self.offers[uid] = written
                text = self._say(Part("deck_offer", {"card": written}))
                return {"outcome": "offered", "text": text, "activity": None, "offer": {"uid": uid, "card": written}}
            return None

    def _write_enrolled(self, uid: str) -> dict[str, Any] | None:
        """In a self-describing deck, write the asked card on the tag first: None when nothing was
        written, else the outcome ("written", or "write_failed" with what to say)."""
        enrollment = self.enrollment
        if enrollment is None or self.writer is None or not self.store.info().self_describing:
            return None
        code = enrollment.current
        if code is None or enrollment.mapping.get(uid) not in (None, code):
            return None  # finished, or a tag of another card: enrollment refuses it, naming that card
        if isinstance(self.writer, TagKinds) and not self.writer.writes(uid):
            self.enrollment = None  # a Classic card on an NTAG-only reader: every write would fail, again
            text = self._say(Part("self_describing_refused"), accepted=False)
            return {"outcome": "write_failed", "text": text, "activity": None, "tag_write": "refused"}
        if self.writer.write_card(uid, code):
            return {"outcome": "written"}
        text = self._say(Part("enroll_write_failed", {"card": code}), enrollment.ask(), accepted=False)
        return {"outcome": "write_failed", "text": text, "activity": self.activity(), "tag_write": "failed"}

    def adopt(self, uid: str) -> dict[str, Any]:
        """Add an offered self-describing card to the active deck (replacing that card's old tag)."""
        with self._lock:
            self._idle("add a card")
            code = self.offers.pop(uid.lower(), None)
            if code is None:
                raise DeckError(f"no self-describing card {uid!r} is waiting to be added")
            mapping = {u: c for u, c in self.store.load().items() if c != code}
            mapping[uid.lower()] = code
            self.store.save(mapping)
            self._record_taught(uid, first=len(mapping) == 1)
            self.service.tags.replace(mapping)
            return {"outcome": "adopted", "text": self._say(Part("deck_adopted", {"card": code})), "activity": None}

    def set_self_describing(self, on: bool) -> None:
        """Whether enrolling the active deck also writes each card's code on its tag; refused, aloud,
        with a reader that cannot write tags (an enrollment would say "Noted" and write nothing)."""
        with self._lock:
            if on:
                self._need_writer()
                writer = self.writer
                if isinstance(writer, TagKinds) and not all(writer.writes(uid) for uid in self.store.load()):
                    raise DeckError(self._say(Part("self_describing_refused"), accepted=False))
            self.store.set_self_describing(on)
            self._active_changed()

    def attach_memory(self, memory: TagMemory) -> None:
        """Use a reader's tag memory: it writes the cards of a self-describing deck as they are
        enrolled, and reports the codes of the tags it reads while the active deck is one."""
        with self._lock:
            self.memory = memory
            self.writer = memory
            if isinstance(memory, KnownTags):  # a known tag's code is never used: not worth its radio time
                memory.skip_codes_of(lambda uid: self.service.tags.lookup(uid) is not None)
            self._active_changed()

    def attach_partial(self, reader: PartialUids) -> None:
        """Use a reader that sends only part of each UID: the active deck is mapped onto what it sends,
        and an enrollment is refused (naming the cards) while two of the deck's cards look alike to it."""
        with self._lock:
            self.partial = reader
            self._active_changed()

    def _alike(self) -> list[list[str]]:
        """The active deck's cards the partial reader cannot tell apart (none without such a reader)."""
        if self.partial is None:
            return []
        try:
            groups = self.partial.use_deck(self.store.load(), self.store.info().uid_format)
            self._record_format()
            return groups
        except DeckError:
            return []

    def _record_format(self) -> None:
        """A deck read through a partial reader records the format it was taught in (decks written before
        this was recorded gain it when first loaded), so that a later format setting cannot orphan it."""
        label = self.partial.taught() if self.partial is not None else None
        if label is not None and self.store.info().uid_format is None and self.store.load():
            self.store.set_uid_format(label)

    def _record_taught(self, uid: str, *, first: bool) -> None:
        """A card just taught records the format of the reader that read it, when the deck has none yet
        (or this is its first card): the wedge's, else `uid` (a reader that sends whole UIDs read it, with
        or without a wedge on the table), so that no wedge later takes a deck of whole 4-byte UIDs for one
        read in decimal."""
        if not first and self.store.info().uid_format is not None:
            return
        label = self.partial.sent_as(uid) if self.partial is not None else None
        self.store.set_uid_format(label or WHOLE_UIDS)

    def _refuse_alike(self) -> dict[str, Any] | None:
        """An enrollment refused, spoken, when the reader types two of the deck's cards alike; else None."""
        groups = self._alike()
        if not groups:
            return None
        text = self._say(Part("reader_alike", {"groups": tuple(tuple(g) for g in groups)}), accepted=False)
        return {"outcome": "refused", "text": text, "activity": None, "alike": groups}

    def _need_writer(self) -> None:
        """DeckError, said to the table, unless the reader can write tags."""
        if self.writer is None:
            raise DeckError(self._say(Part("self_describing_refused"), accepted=False))

    def _active_changed(self) -> None:
        """Another deck, or new settings of this one: its edition's names, whether tags say codes."""
        self.edition = self.store.info().edition
        if self.memory is not None:
            self.memory.report_codes(self.store.info().self_describing)
        self._alike()  # a partial reader maps the new deck's UIDs onto what it sends

    # ------------------------------------------------------------------ enrollment

    def enroll_start(self, game: str | None = None, *, again: bool = False,
                     edition: str | None = None) -> dict[str, Any]:
        """Start (or resume, if one of this game was stopped) enrolling the active deck in `game`'s box
        order (the saved game's, else the default game's, when None); `again` starts over at the first
        card, asking for every card even those already known; `edition` (if given) becomes the deck's,
        so its cards are asked for by that edition's names."""
        with self._lock:
            if self.enrollment is None:
                refused = self._open_enrollment(game, again=again, edition=edition)
                if refused is not None:  # a reader that types two of the deck's cards alike
                    return refused
            assert self.enrollment is not None
            return self._enroll_answer(self.enrollment.ask())

    def _open_enrollment(self, game: str | None, *, again: bool = False,
                         edition: str | None = None) -> dict[str, Any] | None:
        """The enrollment `enroll_start` describes, open (a finished pass resumes at its first missing card);
        the refusal instead, when the reader cannot tell the deck's cards apart."""
        with self._lock:
            self._idle("enroll")
            if self.store.info().self_describing:  # set with another reader: this one must write too
                self._need_writer()
            if game is not None:
                self._kind(game)  # an unknown game: DeckError, nothing changed
            refused = self._refuse_alike()
            if refused is not None:
                return refused
            if edition is not None:
                self.set_edition(edition)
            saved = self._saved_enrollment()
            mapping = self.store.load()
            if (saved is not None and not again and saved.get("deck") == self.store.active_name()
                    and game in (None, saved.get("game") or self.service.games.default)):
                self._enroll_game = str(saved.get("game") or self.service.games.default)
                self.enrollment = Enrollment(self.order(self._enroll_game), mapping, cursor=int(saved["cursor"]),
                                             skipped=list(saved.get("skipped", [])), single=saved.get("single"),
                                             resume_at=saved.get("resume_at"), again=bool(saved.get("again")),
                                             **self._spares(self._enroll_game))
            else:
                self._enroll_game = game or self.service.games.default
                self.enrollment = Enrollment(self.order(self._enroll_game), mapping, again=again,
                                             **self._spares(self._enroll_game))
            missing = self.enrollment.missing()
            if self.enrollment.current is None and missing:  # a pass that ended short: ask the missing cards
                self.enrollment.cursor = self.enrollment.order.index(missing[0])
            self._save_enrollment()
            return None

    def enroll_control(self, action: str, code: str | None = None) -> dict[str, Any]:
        """skip, back, redo (one card, e.g. a lost card's replacement) or stop; DeckError otherwise."""
        with self._lock:
            if action == "redo" and self.enrollment is None:
                game = None if code is None else self.game_of(code)
                if game is None:
                    raise DeckError(f"{code!r} is not a card of any game's box")
                refused = self._open_enrollment(game)
                if refused is not None:  # a reader that types two of the deck's cards alike: said, and answered
                    return refused
            enrollment = self.enrollment
            if enrollment is None:
                raise DeckError("no enrollment under way")
            if action == "skip":
                step = enrollment.skip()
            elif action == "back":
                step = enrollment.back()
            elif action == "redo":
                if code is None or code not in enrollment.order:
                    raise DeckError(f"{code!r} is not a card of this deck")
                step = enrollment.redo(code)
            elif action == "stop":
                return self.enroll_stop()
            else:
                raise DeckError(f"unknown enrollment action {action!r}")
            self._save_enrollment()
            self._close_finished_enrollment()
            return {"outcome": step.outcome, "text": self._say(*step.parts), "activity": self.activity()}

    def enroll_stop(self) -> dict[str, Any]:
        """Stop enrolling; the progress stays saved (resume later), unless the deck is complete."""
        with self._lock:
            enrollment = self.enrollment
            if enrollment is None:
                return {"outcome": "stopped", "text": "", "activity": None}
            self.enrollment = None
            if not enrollment.missing():
                self._enrollment_path().unlink(missing_ok=True)
                return {"outcome": "done", "text": self._say(enrollment.ask()), "activity": None}
            text = self._say(Part("enroll_stopped"))
            return {"outcome": "stopped", "text": text, "activity": None}

    def say_end(self, enrollment: Enrollment) -> str:
        """Say how a finished enrollment ended (complete, or what is missing); the text said."""
        return self._say(enrollment.ask())

    def _enroll_answer(self, part: Part) -> dict[str, Any]:
        self._close_finished_enrollment()
        return {"outcome": "asked", "text": self._say(part), "activity": self.activity()}

    def _close_finished_enrollment(self) -> None:
        """At the end of its pass an enrollment gives the reader back to the game: its progress is
        forgotten when the deck is complete, kept (to resume the missing cards) otherwise."""
        enrollment = self.enrollment
        if enrollment is None or enrollment.current is not None:
            return
        self.enrollment = None
        if not enrollment.missing():
            self._enrollment_path().unlink(missing_ok=True)

    def _save_enrollment(self) -> None:
        enrollment = self.enrollment
        assert enrollment is not None
        self.store.save(enrollment.mapping)
        self.service.tags.replace(enrollment.mapping)
        self._record_format()
        body = {"deck": self.store.active_name(), "game": self._enroll_game, **enrollment.progress_json()}
        path = self._enrollment_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(body, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)

    def _saved_enrollment(self) -> dict[str, Any] | None:
        path = self._enrollment_path()
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return raw if isinstance(raw, dict) and isinstance(raw.get("cursor"), int) else None

    def _enrollment_path(self) -> Path:
        return self.store.folder / ENROLLMENT_FILE

    # ------------------------------------------------------------------ deck check

    def check_start(self, game: str | None = None) -> dict[str, Any]:
        """Start a deck check of the active deck: every read is counted until `check_finish`."""
        with self._lock:
            self._idle("check the deck")
            self.check = DeckCheck(self.check_order(game), self.store.load())
            self._check_game = game or self.service.games.default
            return {"outcome": "started", "text": self._say(Part("check_start")), "activity": self.activity()}

    def check_finish(self) -> dict[str, Any]:
        """End the check: the report (said, by name); a clean deck is remembered as checked today."""
        with self._lock:
            check = self.check
            if check is None:
                raise DeckError("no deck check under way")
            self.check = None
            report = check.report()
            report["names"] = {code: self.name(code, self.service.language)
                               for code in report["missing"] + report["doubled"]}
            if report["ok"]:
                report["checked_at"] = self.clock()
                self.store.mark_checked(report["checked_at"])
            self.last_report = report
            return {"outcome": "report", "text": self._say(check.report_part()), "report": report,
                    "activity": None}

    # ------------------------------------------------------------------ dealing by tag

    def deal_start(self, *, every_round: bool | None = None) -> dict[str, Any]:
        """Deal the coming round card by card over the reader; DeckError if this game or moment cannot.
        `every_round` True: every later round of this game starts its deal by tag by itself."""
        with self._lock:
            self._idle("deal")
            plan = self._deal_plan()
            if plan is None:
                raise DeckError("dealing by tag needs a game whose round has not begun")
            if not any(plan.sizes):  # every hand dealt by tag is full (or none is): the reader stays the game's
                raise DeckError(self._say(Part("deal_hands_full"), accepted=False))
            if every_round is not None:
                self._remember_every_round(every_round)
            self.deal = TagDeal(plan)
            self._dealt = (self.service.current_game, plan.round)
            text = self._say(Part("deal_start", {"player": self.deal.next_player()}))
            return {"outcome": "started", "text": text, "activity": self.activity()}

    def _deal_plan(self) -> DealPlan | None:
        kind = self.service.games.kinds.get(self.service.game_name)
        state = self.service.game_state
        plan = kind.deal_plan(state) if isinstance(kind, DealsByTag) and state is not None else None
        robots = self.service.robots.setup
        if plan is not None and plan.known_as == "robot" and state is not None:  # known hands the table keeps
            seats = robot_games.table_seats(kind)
            bases = seats.tag_deal_bases(state, self.service.robots) if seats is not None else {}
            plan = replace(plan, sizes=tuple(bases.get(name, ((), 0))[1] for name in plan.players),
                           kept=tuple(bases.get(name, ((), 0))[0] for name in plan.players))
        elif plan is not None and robots.practice == "cards":  # practice: the robots' hands are dealt virtually
            sizes = tuple(0 if name in robots.seats else size for name, size in zip(plan.players, plan.sizes,
                                                                                    strict=True))
            plan = replace(plan, sizes=sizes)
        return plan

    def deals_every_round(self) -> bool:
        """True when the current game was set to deal every round by tag (known hands)."""
        path = self.store.folder / DEAL_FILE
        try:
            return bool(json.loads(path.read_text(encoding="utf-8")).get("game") == self.service.current_game)
        except (OSError, ValueError, AttributeError):
            return False

    def _remember_every_round(self, on: bool) -> None:
        path = self.store.folder / DEAL_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"game": self.service.current_game if on else None}), encoding="utf-8")

    def _on_message(self, message: Message) -> None:
        """After each game event: in a game dealt by tag, open the next round's deal by itself; a deal
        under way for a game that is no longer the table's (another started or resumed) is dropped."""
        if self._deal_outlived():
            with self._lock:
                if self._deal_outlived():
                    self.deal = None
        if not message.is_event or not message.accepted or self.enrollment or self.check or self.deal:
            return  # checked without the lock too: an enrollment may hold it while a tag is written
        try:
            with self._lock:
                if self.enrollment or self.check or self.deal or not self.deals_every_round():
                    return
                plan = self._deal_plan()
                if plan is None or not any(plan.sizes) or self._dealt == (self.service.current_game, plan.round):
                    return  # nothing to deal now (every hand full) is not said at every event
                self.deal_start()
        except DeckError:
            return

    def _deal_outlived(self) -> bool:
        """A deal is under way for a game that is no longer the table's."""
        return self.deal is not None and self._dealt is not None and self._dealt[0] != self.service.current_game

    def deal_undo(self) -> dict[str, Any]:
        with self._lock:
            if self.deal is None:
                raise DeckError("no deal under way")
            text = self._say(self.deal.undo())
            return {"outcome": "undone", "text": text, "activity": self.activity()}

    def deal_cancel(self) -> dict[str, Any]:
        with self._lock:
            self.deal = None
            return {"outcome": "cancelled", "text": "", "activity": None}

    def _deal_read(self, uid: str) -> dict[str, Any]:
        deal = self.deal
        assert deal is not None
        if deal.complete:  # every card passed, the hands not recorded yet (the disk refused): try again
            return self._finish_deal()
        code = self.service.tags.lookup(uid)
        part = deal.read(code)
        if not deal.complete:
            return {"outcome": part.key, "text": self._say(part), "activity": self.activity()}
        return self._finish_deal()

    def _finish_deal(self, *, retry: bool = False) -> dict[str, Any]:
        """Record every hand of the complete deal in one durable step (all or none). When the disk
        refuses, the deal is kept with every card passed and tried again until the disk writes."""
        deal = self.deal
        assert deal is not None and deal.complete
        events: list[object] = list(deal.events())  # an empty hand: a practice robot's seat, dealt virtually
        try:
            answers = self.service.submit_all(events, source="deal")
        except StorageError:
            self._retry_deal_later()
            text = "" if retry else self._say(Part("deal_kept"), accepted=False)
            return {"outcome": "kept", "text": text, "activity": self.activity()}
        self.deal = None
        refusals = [answer.reason or "" for answer in answers if not answer.accepted]
        if refusals:
            text = self._say(Part("deal_refused", {"reason": ", ".join(refusals)}))
            return {"outcome": "refused", "text": text, "activity": None}
        return {"outcome": "complete", "text": self._say(Part("deal_complete", {})), "activity": None}

    def _retry_deal_later(self) -> None:
        timer = threading.Timer(DEAL_RETRY_SECONDS, self._retry_deal)
        timer.daemon = True
        timer.start()

    def _retry_deal(self) -> None:
        """The kept deal, tried again (quietly: the table already said the disk refuses)."""
        with self._lock, contextlib.suppress(JournalError):  # a table closed meanwhile: nothing to record
            if self.deal is not None and self.deal.complete and not self._deal_outlived():
                self._finish_deal(retry=True)
