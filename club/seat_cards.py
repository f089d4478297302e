"""Members' cards at a club table: a tag the deck does not know, read while no game is under way, is a member's
card. A seated player's card takes their seat ("Alice, place 2"); any other card is offered to the hub, which
says whose it is and where they sit, or binds it to the player the director waits for; an unknown card changes
nothing. During a game the deck's rule holds: a tag that is no card is a refused play, as at any table.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

import paho.mqtt.client as mqtt

from club.cards import card_hash
from club.link import TableLink
from companion.decks import is_uid
from companion.table import TableService

log = logging.getLogger(__name__)

MAX_NAME = 80
ANSWER_SECONDS = 5.0
"""A card asked about at the hub with no answer this soon is said not recognised (the hub went away)."""


class SeatCards:
    """The table's club hook: recognises its seated players' cards, asks the hub about the others."""

    def __init__(self, service: TableService, link: TableLink) -> None:
        self.service = service
        self.link = link
        self._lock = threading.Lock()
        self._seating_id: tuple[Any, ...] | None = None
        self._confirmed: dict[int, str] = {}  # seat index → player, for the seating `_seating_id`
        self._unanswered: threading.Timer | None = None
        link.client.message_callback_add(link.topics.tapped, self._on_answer)

    def register(self) -> None:
        """Take unknown tags as the table's "seat_cards" read taker (asked after the deck desk)."""
        self.service.read_takers.add("seat_cards", self.read)

    # ------------------------------------------------------------------ a read

    def read(self, uid: str, written: str | None) -> bool:
        """True when the read was a member's card, dealt with here (nothing journaled)."""
        uid = uid.lower()
        if not is_uid(uid) or self.service.tags.lookup(uid) is not None or not self._between_games():
            return False  # a card of the deck, a malformed read, or a game under way: the game decides
        status = self.link.status()
        seat = self._seat_of(status.seating, uid)
        if seat is not None and status.seating is not None:
            self._confirm(status.seating, seat)
            return True
        if not status.reachable:
            self.service.notice("club_card_unreachable")
            return True
        body = json.dumps({"table": self.link.table, "uid": uid})
        info = self.link.client.publish(self.link.topics.tap, body, qos=1)
        if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
            self.service.notice("club_card_unreachable")
            return True
        timer = threading.Timer(ANSWER_SECONDS, self._no_answer)
        timer.daemon = True
        with self._lock:
            if self._unanswered is not None:
                self._unanswered.cancel()
            self._unanswered = timer
        timer.start()
        return True

    def _no_answer(self) -> None:
        with self._lock:
            self._unanswered = None
        self.service.notice("club_card_unreachable")

    def _between_games(self) -> bool:
        state = self.service.game_state
        return state is None or state.is_terminal()

    @staticmethod
    def _seat_of(seating: dict[str, Any] | None, uid: str) -> int | None:
        """The seat whose player's card this is, by the seating's keyed hashes; None when none matches."""
        cards = (seating or {}).get("cards")
        if not isinstance(cards, dict) or not isinstance(cards.get("key"), str) or \
                not isinstance(cards.get("seats"), list):
            return None
        try:
            mine = card_hash(cards["key"], uid)
        except ValueError:
            return None
        for index, hashed in enumerate(cards["seats"]):
            if isinstance(hashed, str) and hashed == mine:
                return index
        return None

    def _confirm(self, seating: dict[str, Any], seat: int) -> None:
        """A seated player's card: their seat is taken (shown on the setup page) and said."""
        players = [str(name)[:MAX_NAME] for name in seating.get("players", [])]
        if not 0 <= seat < len(players):
            return
        with self._lock:
            ident = _identity(seating)
            if ident != self._seating_id:
                self._seating_id, self._confirmed = ident, {}
            self._confirmed[seat] = players[seat]
        self.service.notice("club_card_seat", player=players[seat], seat=seat + 1)

    def confirmed(self) -> list[dict[str, Any]]:
        """The seats of the current seating whose players tapped their card: [{"seat" (from 1), "player"}]."""
        seating = self.link.status().seating
        with self._lock:
            if seating is None or _identity(seating) != self._seating_id:
                return []
            return [{"seat": seat + 1, "player": name} for seat, name in sorted(self._confirmed.items())]

    # ------------------------------------------------------------------ the hub's answer (paho's thread)

    def _on_answer(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._lock:
            if self._unanswered is not None:
                self._unanswered.cancel()
                self._unanswered = None
        try:
            body = json.loads(message.payload)
        except ValueError:
            log.warning("club cards: unreadable answer from the hub")
            return
        if not isinstance(body, dict):
            return
        kind, player = body.get("kind"), str(body.get("player", ""))[:MAX_NAME]
        if kind == "seat" and type(body.get("seat")) is int:
            seating = self.link.status().seating
            if seating is not None and seating.get("round") == body.get("round"):
                self._confirm(seating, body["seat"] - 1)
                return
            self.service.notice("club_card_elsewhere", player=player, table=self.link.table, seat=body["seat"])
        elif kind == "elsewhere" and type(body.get("table")) is int and type(body.get("seat")) is int:
            self.service.notice("club_card_elsewhere", player=player, table=body["table"], seat=body["seat"])
        elif kind == "not_seated":
            self.service.notice("club_card_not_seated", player=player)
        elif kind == "bound":
            self.service.notice("club_card_bound", player=player)
        elif kind == "taken":
            self.service.notice("club_card_taken", player=player)
        else:
            self.service.notice("club_card_unknown")


def _identity(seating: dict[str, Any]) -> tuple[Any, ...]:
    """Which seating this is: its round, game and players (a reseat starts the confirmations again)."""
    return seating.get("round"), seating.get("game"), tuple(str(p) for p in seating.get("players", []))
