"""The robot driver: seats Marmite's robot at the table, on its own thread so the table never waits.

Woken by every announcement, it looks (under the table lock) at what each robot seat owes — a menu,
the card due next, a face-down card for a step, a virtual hand at a practice table — builds the
request from the seat's information set only, thinks without the lock, then submits through the
table service like any player: a robot's card is first journaled as a `robot` choice (durable and
announced: "Marmiton joue Pois 5 : posez-la dans la marmite"); at a practice table the robot then
plays it itself after the pace, at a real table the reader must see that card. A restart rebuilds
every choice from the journal, so the same card is asked for again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion import robot_games
from companion.events import MalformedEvent, check_storable
from companion.hub import Message
from companion.journal import Record, StorageError
from companion.robot_seats import face_down, turn_of
from companion.robot_talk import practice_card
from companion.robot_words import voice_of
from companion.robots import RobotAsk, RobotRefusal, decide
from companion.seam import Part, RobotEvent, TableSeats, table_seats, wire
from companion.speech_pace import SpeechPace
from companion.table import TableService

log = logging.getLogger(__name__)

SOURCE = "robot"
UNDO_GRACE_S = 15.0
"""How long practice robots wait after an undo for a person to play before they go on by themselves (each undo
waits again): a person may have nothing to press (her face-down card chosen, a robot's turn)."""


class RobotDriver:
    """Plays the robot seats of whatever game the table is on; `start()` then `close()`."""

    def __init__(self, service: TableService, *, think_ms: int = 300,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.think_ms = think_ms
        self._clock = clock
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._said: set[tuple[Any, ...]] = set()
        self.pace = SpeechPace(clock)  # what the table's voice has said: the practice robots wait for it
        self._paused_at: int | None = None  # action count when an undo paused the practice robots
        self._paused_game = 0  # the game that undo belonged to
        self._paused_since = 0.0  # when the driver paused for it (its clock)
        self._undo_seq: int | None = None  # the journal seq of the latest undo the driver has paused for
        self._undo_heard: int | None = None  # the seq of an undo heard since the last look (one store: no race)
        self._held: tuple[int, tuple[Part, ...], int] = (0, (), 0)
        """A game's parts held for its next announcement (a buffet round's end), and the count of standing
        actions when they were held (with the card that ended the round). Kept in memory only: a restart between
        a round's last card and the next round's opening loses them (that opening then says only its buffet)."""
        service.add_listener(self._heard)

    # ------------------------------------------------------------------ life

    def start(self) -> RobotDriver:
        self._thread = threading.Thread(target=self._run, name="robot-driver", daemon=True)
        self._thread.start()
        self._wake.set()
        return self

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _heard(self, message: Message) -> None:
        """Every announcement wakes the driver (never blocks the one announcing)."""
        if message.kind not in ("reader", "storage") and message.parts:  # a silent step is not waited for
            self.pace.heard(message.serial)
        if message.kind == "undo" and message.accepted:  # pauses the game it undid in, decided at the next look
            self._undo_heard = message.seq
            if self.service.action_count < self._held[2]:  # the card that ended the round is undone: its
                self._held = (0, (), 0)  # end is held again when a card ends it (an undone plate keeps it)
        self._wake.set()

    def practice_voices(self) -> list[str] | None:
        """The voices that speak for a practice table (its robots wait for them), None at any other table.
        Read without the table lock: a write stuck on the disk must never hold a page's read."""
        service = self.service
        if service.game_state is None or not service.robots.setup.practice:
            return None
        return list(self.pace.voices())

    def resume(self) -> None:
        """Practice robots play again after an undo paused them."""
        self._paused_at = None
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(timeout=0.25)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                while self.step():
                    if self._stop.is_set():
                        return
            except StorageError:
                log.warning("robot driver: the journal refused a write; it tries again at the next event")
            except Exception:  # never kill the table's robot for one bad decision
                log.exception("robot driver: unexpected error")

    # ------------------------------------------------------------------ one look

    def step(self) -> bool:
        """Do the next thing a robot seat owes; True when something was done (look again). What is owed is
        read under the table lock; thinking, journaling and announcing happen after it is released (a
        listener of the announcements, such as the deck desk, may take locks of its own)."""
        says: list[tuple[tuple[Any, ...], Part]] = []
        with self.service.lock:
            todo = self._look(says)
        for key, part in says:
            self._say_once(key, part)
        return todo() if todo is not None else False

    def _look(self, says: list[tuple[tuple[Any, ...], Part]]) -> Callable[[], bool] | None:
        """What to do next, decided under the table lock (nothing is submitted or said here)."""
        service = self.service
        state, ledger = service.game_state, service.robots
        seats = self._seats()
        if state is None or seats is None or not ledger.setup.any or state.is_terminal():
            return None  # a game that seats no robot is never played for (its setup refuses robots)
        game = service.current_game or 0
        actions = service.standing_actions()
        count = len(actions) - 1
        practice = ledger.setup.practice
        paused = self._pause_after_undo(count, game) and practice != ""
        if practice and not paused:
            short = seats.missing_hands(state, ledger, practice == "virtual")
            if short:
                events = seats.deal_virtually(state, ledger, short, game * 1009 + count)
                return lambda: self._submit_all(events, game, count)
            plate = seats.table_lays(state, ledger, game * 1013 + count)
            if plate is not None:  # the last plate opens the first step: everyone chooses
                step = self._practice_words(seats, game)
                return lambda: self._table_move(plate, game, count, words=step)
        if not practice:
            says.extend(self._draws_up(seats, state, game, count))
        swapping = next((player for player in ledger.setup.seats
                         if seats.swap_due(state, ledger, player, count)
                         and ("refused", game, count, player) not in self._said), None)
        if swapping is not None and not paused:
            held = seats.hand_of(state, ledger, swapping) or ()
            exchange = RobotAsk(robot_games.visible_log(actions, swapping, state), swapping, held, "swap")
            level = ledger.setup.seats[swapping]
            return lambda: self._swap(seats, swapping, exchange, level, practice, game, count)
        turn = turn_of(state)
        if turn is not None and ledger.virtual_seat(turn, state):
            choice = ledger.pending(turn, count)
            waiting = practice == "virtual" and face_down(state) and (  # the cards of a step are turned over
                not robot_games.everyone_chose(state, ledger, count)  # once all are chosen, and not while a
                or seats.person_exchanging(state, ledger, count))  # person's exchange is open
            if choice is not None and not waiting:
                return self._play_chosen(seats, turn, choice.card, choice.position, practice, paused, state, game,
                                         says)
        for player in ledger.setup.seats:
            owed = seats.due(state, ledger, player, count)
            if owed is None or ("refused", game, count, player) in self._said:
                continue
            hand = seats.hand_of(state, ledger, player)
            if hand is None or (owed.kind != "menu" and not hand):  # a face-down game's hands may be typed too
                key = "robot.no_hand_face_down" if face_down(state) and not practice else "robot.no_hand"
                spell = getattr(state, "round_number", 0)  # said once per round, not again at each event
                says.append((("no_hand", game, spell, player), Part(key, {"player": player})))
                continue
            if paused:
                return None
            ask = RobotAsk(robot_games.visible_log(actions[: owed.log_len + 1], player, state), player, hand)
            return lambda: self._think(ask, ledger.setup.seats[player], owed, practice, ledger.setup.pace_ms,
                                       game, count)
        return None

    def _think(self, ask: RobotAsk, level: str, owed: robot_games.Due, practice: str, pace_ms: int, game: int,
               count: int) -> bool:
        """Decide for a robot seat (without the lock) and journal the decision."""
        if practice and not self._paced(pace_ms):
            self._wake.set()
            return False
        try:
            seed = robot_games.decision_seed(game, ask.log)  # from what the seat may see only
            decision = decide(self.service.games, ask, level=level, seed=seed, think_ms=self.think_ms)
        except RobotRefusal as refusal:
            log.warning("robot %s could not decide: %s", ask.seat, refusal.reason)
            self._said.add(("refused", game, count, ask.seat))
            return False
        return self._record(decision.event, decision.why, ask.seat, owed, game, count)

    def _pause_after_undo(self, count: int, game: int) -> bool:
        """True while practice robots wait after an undo (until a player goes on, the host resumes, or
        `UNDO_GRACE_S` pass); an undo pauses its own game only (a new game started after it deals and plays at
        once, even when the undone game seated no robot and was never looked at)."""
        heard, self._undo_heard = self._undo_heard, None
        # The journal's last record too: an undo journaled just before this look pauses even if its announcement
        # is still on its way. Either pauses only the game it was made in.
        for undone in (self._latest_undo(), heard):
            if undone is not None and undone > (self._undo_seq or 0) and self._game_of(undone) == game:
                self._undo_seq = undone
                self._paused_at, self._paused_game = -1, game
        if self._paused_at is not None and game != self._paused_game:
            self._paused_at = None  # the undo was another game's
        elif self._paused_at == -1:
            self._paused_at, self._paused_since = count, self._clock()
        elif self._paused_at is not None and count > self._paused_at:
            self._paused_at = None  # a player went on after the undo: the robots follow
        elif self._paused_at is not None and self._clock() - self._paused_since >= UNDO_GRACE_S:
            self._paused_at = None  # nobody did: the robots go on by themselves
        return self._paused_at is not None

    def _seats(self) -> TableSeats | None:
        """The current game's robot seats (None for a game that seats no robot)."""
        return table_seats(self.service.games.kinds.get(self.service.game_name))

    def _draws_up(self, seats: TableSeats, state: Any, game: int, count: int) -> list[tuple[tuple[Any, ...], Part]]:
        """At a real table: each robot short of cards asks to be dealt them (the host types only those on the
        robots page)."""
        return [(("draws_up", game, count, player), Part("robot.draws_up", {"player": player, "count": missing}))
                for player, missing in seats.draws_up(state, self.service.robots).items()]

    def _journal_record(self, seq: int) -> Record | None:
        """The journal's record `seq`, if it has one (read under the table lock)."""
        record = next(iter(self.service.journal.records(after=seq - 1, limit=1)), None)
        return record if record is not None and record.seq == seq else None

    def _game_of(self, seq: int) -> int | None:
        """The game the journal's record `seq` belongs to."""
        record = self._journal_record(seq)
        return record.game if record is not None else None

    def _latest_undo(self) -> int | None:
        """The seq of the journal's last record when it is an accepted undo."""
        last = self._journal_record(self.service.journal.last_seq)
        if last is None or not last.accepted or last.body.get("type") != "undo":
            return None
        return last.seq

    def _unchanged(self, game: int, count: int) -> Callable[[], bool]:
        """A check, made under the table lock, that the table is where the robot's request saw it."""
        return lambda: (self.service.current_game == game
                        and len(self.service.standing_actions()) - 1 == count)

    def _record(self, event: dict[str, Any], why: Part | None, player: str, owed: robot_games.Due, game: int,
                count: int) -> bool:
        """Journal the decision, unless the table moved on while the robot thought (then look again)."""
        if owed.kind == "menu":
            submitted = dict(event)
        else:
            submitted = {"type": "robot", "player": player, "card": event.get("card")}
            with self.service.lock:  # the table hears a reason from public facts only, never from its hand
                state, seats = self.service.game_state, self._seats()
                why = None if why is None or state is None or seats is None else seats.public_why(
                    state, player, str(event.get("card")))
            if why is not None:
                submitted["why"] = {"key": why.key, "fields": dict(why.fields)}
                try:
                    check_storable(submitted)
                except MalformedEvent:
                    del submitted["why"]  # a reason that is not plain JSON is left out, never the choice
        if owed.kind == "card":
            self._said.add(("ask", game, count, player))  # its own announcement names it
        if owed.kind == "menu":  # noted first (said to nobody): the table takes a robot seat's menu from it only
            noted = self.service.submit_if({"type": "robot", "player": player, "menu": event.get("menu")}, SOURCE,
                                           self._unchanged(game, count))
            if noted is None:
                return True  # the table moved on meanwhile: looked at again, as for any decision
        answer = self.service.submit_if(submitted, SOURCE, self._unchanged(game, count))
        if answer is not None and not answer.accepted:  # journaled and announced; never asked again for it
            log.warning("robot %s: its %s was refused (%s)", player, owed.kind, answer.reason)
            self._said.add(("refused", game, count, player))
        return True

    def _swap(self, seats: TableSeats, player: str, ask: RobotAsk, level: str, practice: str, game: int,
              count: int) -> bool:
        """The first mouse out may exchange cards: the robot says which; at a practice table it draws
        virtually, at a real table its hand is journaled without them until the host enters the new one."""
        try:
            seed = robot_games.decision_seed(game, ask.log)  # from what the seat may see only
            decision = decide(self.service.games, ask, level=level, seed=seed, think_ms=self.think_ms)
        except RobotRefusal as refusal:
            log.warning("robot %s could not choose its exchange: %s", player, refusal.reason)
            self._said.add(("refused", game, count, player))
            return False
        given = [str(card) for card in decision.event.get("cards", [])]
        new: list[str] | None
        if practice:
            new = seats.swap_hand(ask.hand, given, game * 1009 + count)
        else:
            left = list(ask.hand)
            for card in given:
                if card in left:
                    left.remove(card)
            new = sorted(left)
        if new is None:
            self._said.add(("refused", game, count, player))
            return False
        event: RobotEvent = {"type": "robot", "player": player, "hand": new, "swap": given}
        answer = self.service.submit_if(wire(event), SOURCE, self._unchanged(game, count))
        if answer is not None and not answer.accepted:
            self._said.add(("refused", game, count, player))
        return True

    def _play_chosen(self, seats: TableSeats, player: str, card: str, position: int, practice: str, paused: bool,
                     state: Any, game: int, says: list[tuple[tuple[Any, ...], Part]]) -> Callable[[], bool] | None:
        """A robot's card is due and chosen: at a real table name it (a buffet card when its reveal comes;
        a Chaud Devant card again after a restart); at practice play it after the pace."""
        buffet = face_down(state)
        if not practice:
            key = "robot.plays_mouse" if buffet else "robot.plays"
            says.append((("reveal" if buffet else "ask", game, position, player),
                         Part(key, {"player": player, "card": card})))
            return None
        if paused:
            return None
        pace_ms, aids = self.service.robots.setup.pace_ms, self.service.robots.setup.aids
        virtual_buffet = buffet and practice == "virtual"
        count = len(self.service.standing_actions()) - 1
        seq = self.service.journal.last_seq  # an undo journaled meanwhile (heard later) must stop this play

        def play() -> bool:
            if not self._paced(pace_ms):
                self._wake.set()
                return False
            step = self._practice_words(seats, game)
            words: Callable[[tuple[Part, ...]], tuple[Part, ...]] | None = step if virtual_buffet else None
            if self.service.robots.is_robot(player):  # a person's card: the game's own words
                with self.service.lock:  # one line: the robot, its card and the reason (public facts only)
                    now = self.service.game_state
                    reason = seats.reveal_why if buffet else seats.public_why
                    why = reason(now, player, card) if now is not None and aids else None
                said = practice_card(player, why, buffet)
                words = (lambda parts: step(said(parts))) if virtual_buffet else said
            unchanged = self._unchanged(game, count)
            self.service.submit_if({"type": "card", "card": card}, SOURCE,
                                   lambda: unchanged() and self.service.journal.last_seq == seq, words=words)
            return True

        return play

    def _practice_words(self, seats: TableSeats, game: int) -> Callable[[tuple[Part, ...]], tuple[Part, ...]]:
        """The game's practice wording for an announcement of this game (called once, if it is accepted), and
        the parts it holds back for a later one (a buffet round's end, said after the next call to choose)."""
        robots = tuple(self.service.robots.setup.seats)

        def words(parts: tuple[Part, ...]) -> tuple[Part, ...]:
            held = self._held[1] if self._held[0] == game else ()
            said, kept = seats.practice_words(parts, robots, held)
            self._held = (game, kept, self._held[2] if held else self.service.action_count)
            return said

        return words

    def _table_move(self, event: dict[str, Any], game: int, count: int, *,
                    words: Callable[[tuple[Part, ...]], tuple[Part, ...]] | None = None) -> bool:
        """Submit the table's own move (a virtual plate), if the table is still there. Not paced: its plates
        are laid without a word, and the line opening the step queues behind what the voice is still saying
        (the call to choose then follows the round's last card at once)."""
        self.service.submit_if(event, SOURCE, self._unchanged(game, count), words=words)
        return True

    def _submit_all(self, events: list[dict[str, Any]], game: int, count: int) -> bool:
        """The virtual hands of a practice table, each only while the table is still where it was."""
        for event in events:
            answer = self.service.submit_if(event, SOURCE, lambda: self.service.current_game == game)
            if answer is None or not answer.accepted:
                break
        return True

    def _paced(self, pace_ms: int) -> bool:
        """True once the table's voice has said the last announcement (or, with no voice reporting, once
        `pace_ms` have passed since it was sent): speech is never cut, and never waited for longer."""
        if self.pace.ready(pace_ms):
            return True
        self.pace.changed.wait(0.05)
        self.pace.changed.clear()
        return False

    def _say_once(self, key: tuple[Any, ...], *parts: Part) -> None:
        """Announce a robot's ask once (again after a restart: the driver's memory is not journaled)."""
        if key in self._said:
            return
        self._said.add(key)
        state = self.service.game_state
        if state is not None:
            self.service.announce("robot", parts, voice_of(state))
