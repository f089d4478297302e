"""A club table's part in confirming a game's final scores: what the tablet shows and says when a game of a
confirming night ends, and the seat phones' "confirm" / "dispute" that the journal keeps (and the link
publishes like every row).

Only a seat's phone confirms: the tablet is the host's, who entered the game, so a confirmation typed there
would prove nothing; a seat's phone holds that player's own key, claimed in that browser.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Blueprint, jsonify, request

from club.link import TableLink
from companion.confirmation import CONFIRM, VERDICTS, standing_verdict
from companion.events import MalformedEvent
from companion.hub import Message
from companion.sides import note_types
from companion.table import TableService


def confirmation_view(service: TableService, link: TableLink) -> dict[str, Any]:
    """The current game's confirmation as the tablet and the phones show it."""
    seating = link.status().seating or {}
    required = seating.get("confirm") is True
    game = service.current_game
    state = service.game_state
    over = state is not None and state.is_terminal()
    verdict = None
    if game is not None and over:
        verdict = standing_verdict(((r.body, r.accepted, r.source) for r in service.journal.records(game=game)),
                                   note_types(service.games))
    return {"required": required, "over": over, "game": game,
            "verdict": verdict[0] if verdict else None, "by": verdict[1] if verdict else None,
            "players": list(state.players) if state is not None else []}


class ConfirmAnnouncer:
    """Says once per game, when a game of a confirming night ends, that a second player must confirm."""

    def __init__(self, service: TableService, link: TableLink) -> None:
        self.service = service
        self.link = link
        self._said: set[int] = set()
        self._lock = threading.Lock()

    def heard(self, message: Message) -> None:
        """A table listener (must not block): the notice is said from a thread of its own."""
        if not message.is_event:
            return
        view = confirmation_view(self.service, self.link)
        game = view["game"]
        if not (view["required"] and view["over"] and view["verdict"] is None and game is not None):
            return
        with self._lock:
            if game in self._said:
                return
            self._said.add(game)
        threading.Thread(target=self.service.notice, args=("club_confirm_needed",), daemon=True).start()


def mount_confirm(blueprint: Blueprint, service: Callable[[], TableService], link: Callable[[], TableLink],
                  own_seat: Callable[[str], bool]) -> None:
    """`GET /api/club` gains the confirmation; `POST /api/club/confirm` takes a seat phone's verdict
    (`own_seat`: that player's own phone, with its session's CSRF token)."""

    @blueprint.get("/api/club/confirmation")
    def club_confirmation() -> Any:
        return jsonify(confirmation_view(service(), link()))

    @blueprint.post("/api/club/confirm")
    def club_confirm() -> Any:
        """A player confirms or disputes the final scores from their own phone (seat key and CSRF token)."""
        current = link()
        body = request.get_json(silent=True, force=True)
        if not isinstance(body, dict) or not isinstance(body.get("player"), str) or body.get("verdict") not in VERDICTS:
            return jsonify(error='the body must be {"player": P, "verdict": "confirmed" or "disputed"}'), 400
        player, verdict = body["player"], body["verdict"]
        if not own_seat(player):
            return jsonify(error="only a player's own phone (their seat link) confirms the scores"), 403
        try:
            answer = service().submit({"type": CONFIRM, "player": player, "verdict": verdict}, source="seat")
        except MalformedEvent as error:
            return jsonify(error=str(error)), 400
        if answer.accepted and verdict == "disputed":
            current.call_director()
        return jsonify(answer.as_json())
