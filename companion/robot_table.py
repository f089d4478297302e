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
from companion.journal import StorageError
from companion.robot_seats import is_buffet, turn_of
from companion.robot_words import voice_of
from companion.robots import RobotAsk, RobotRefusal, decide
from companion.seam import Part
from companion.table import TableService

log = logging.getLogger(__name__)

SOURCE = "robot"


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
        self._last_message = clock()
        self._paused_at: int | None = None  # action count when an undo paused the practice robots
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
        if message.kind not in ("reader", "storage"):
            self._last_message = self._clock()
        if message.kind == "undo" and message.accepted:
            self._paused_at = -1  # set on the driver's thread at its next look
        self._wake.set()

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
        """Do the next thing a robot seat owes; True when something was done (look again)."""
        service = self.service
        with service.lock:
            state, ledger = service.game_state, service.robots
            if state is None or not ledger.setup.any or state.is_terminal():
                return False
            game = service.current_game or 0
            actions = service.standing_actions()
            count = len(actions) - 1
            practice = ledger.setup.practice
            if self._paused_at == -1:
                self._paused_at = count
            elif self._paused_at is not None and count > self._paused_at:
                self._paused_at = None  # a player went on after the undo: the robots follow
            paused = self._paused_at is not None and practice != ""
            if practice and not paused:
                short = robot_games.missing_hands(state, ledger, practice == "virtual")
                if short:
                    seed = game * 1009 + count
                    events = robot_games.deal_virtually(state, ledger, short, seed)
                    return self._submit_all(events, game, count)
            swapping = next((player for player in ledger.setup.seats
                             if robot_games.swap_due(state, ledger, player, count)
                             and ("refused", game, count, player) not in self._said), None)
            if swapping is not None and not paused:
                return self._swap(swapping, state, ledger, actions, game, count)
            turn = turn_of(state)
            if turn is not None and ledger.is_robot(turn):
                choice = ledger.pending(turn, count)
                if choice is not None:
                    return self._play_chosen(turn, choice.card, choice.position, practice, paused, state)
            for player in ledger.setup.seats:
                owed = robot_games.due(state, ledger, player, count)
                if owed is None or ("refused", game, count, player) in self._said:
                    continue
                hand = robot_games.hand_of(state, ledger, player)
                if hand is None or (owed.kind != "menu" and not hand):
                    key = "robot.no_hand_buffet" if is_buffet(state) and not practice else "robot.no_hand"
                    self._say_once(("no_hand", game, count, player), Part(key, {"player": player}))
                    continue
                if paused:
                    return False
                ask = RobotAsk(robot_games.visible_log(actions[: owed.log_len + 1], player, state), player,
                               hand)
                level = ledger.setup.seats[player]
                break
            else:
                return False
        if practice and not self._paced(ledger.setup.pace_ms):
            self._wake.set()
            return False
        try:
            decision = decide(service.games, ask, level=level, seed=game * 7919 + count, think_ms=self.think_ms)
        except RobotRefusal as refusal:
            log.warning("robot %s could not decide: %s", player, refusal.reason)
            self._said.add(("refused", game, count, player))
            return False
        return self._record(decision.event, decision.why, player, owed, game, count)

    def _record(self, event: dict[str, Any], why: Part | None, player: str, owed: robot_games.Due, game: int,
                count: int) -> bool:
        """Journal the decision, unless the table moved on while the robot thought."""
        if owed.kind == "menu":
            submitted = dict(event)
        else:
            submitted = {"type": "robot", "player": player, "card": event.get("card")}
            if why is not None:
                submitted["why"] = {"key": why.key, "fields": dict(why.fields)}
                try:
                    check_storable(submitted)
                except MalformedEvent:
                    del submitted["why"]  # a reason that is not plain JSON is left out, never the choice
        with self.service.lock:
            if self.service.current_game != game or len(self.service.standing_actions()) - 1 != count:
                return True  # look again: the request no longer stands
            answer = self.service.submit(submitted, SOURCE)
            if not answer.accepted:  # journaled and announced as refused; never asked again for this move
                log.warning("robot %s: its %s was refused (%s)", player, owed.kind, answer.reason)
                self._said.add(("refused", game, count, player))
            elif owed.kind == "card":
                self._said.add(("ask", game, count, player))  # its own announcement just named it
        return True

    def _swap(self, player: str, state: Any, ledger: Any, actions: list[dict[str, Any]], game: int,
              count: int) -> bool:
        """The first mouse out may exchange cards: the robot says which; at a practice table it draws
        virtually, at a real table its hand is journaled without them until the host enters the new one."""
        hand = robot_games.hand_of(state, ledger, player) or ()
        ask = RobotAsk(robot_games.visible_log(actions, player, state), player, hand, "swap")
        level = ledger.setup.seats[player]
        try:
            decision = decide(self.service.games, ask, level=level, seed=game * 7919 + count, think_ms=self.think_ms)
        except RobotRefusal as refusal:
            log.warning("robot %s could not choose its exchange: %s", player, refusal.reason)
            self._said.add(("refused", game, count, player))
            return False
        given = [str(card) for card in decision.event.get("cards", [])]
        if ledger.setup.practice:
            new = robot_games.swap_hand(hand, given, ledger, player, game * 1009 + count)
        else:
            left = list(hand)
            for card in given:
                if card in left:
                    left.remove(card)
            new = sorted(left)
        if new is None:
            self._said.add(("refused", game, count, player))
            return False
        with self.service.lock:
            if self.service.current_game != game or len(self.service.standing_actions()) - 1 != count:
                return True
            answer = self.service.submit({"type": "robot", "player": player, "hand": new, "swap": given}, SOURCE)
            if not answer.accepted:
                self._said.add(("refused", game, count, player))
        return True

    def _play_chosen(self, player: str, card: str, position: int, practice: str, paused: bool,
                     state: Any) -> bool:
        """A robot's card is due and chosen: at practice play it after the pace; at a real table name it
        when a buffet reveal comes (a Chaud Devant choice was named when it was made)."""
        game = self.service.current_game or 0
        if not practice:
            if is_buffet(state):
                self._say_once(("reveal", game, position, player),
                               Part("robot.plays_mouse", {"player": player, "card": card}))
            else:  # named when chosen; said again after a restart
                self._say_once(("ask", game, position, player), Part("robot.plays", {"player": player, "card": card}))
            return False
        if paused:
            return False
        if not self._paced(self.service.robots.setup.pace_ms):
            self._wake.set()
            return False
        if is_buffet(state):
            self._say_once(("reveal", game, position, player),
                           Part("robot.plays_mouse_virtual", {"player": player, "card": card}))
        self.service.submit({"type": "card", "card": card}, SOURCE)
        return True

    def _submit_all(self, events: list[dict[str, Any]], game: int, count: int) -> bool:
        for event in events:
            self.service.submit(event, SOURCE)
        return True

    def _paced(self, pace_ms: int) -> bool:
        """True once `pace_ms` have passed since the last announcement (so speech is never cut)."""
        if self._clock() - self._last_message >= pace_ms / 1000:
            return True
        time.sleep(min(0.05, pace_ms / 1000))
        return False

    def _say_once(self, key: tuple[Any, ...], part: Part) -> None:
        """Announce a robot's ask once (again after a restart: the driver's memory is not journaled)."""
        if key in self._said:
            return
        self._said.add(key)
        state = self.service.game_state
        if state is not None:
            self.service.announce("robot", (part,), voice_of(state))
