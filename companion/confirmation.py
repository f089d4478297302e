"""A second seat confirms a finished game's scores: the `confirm` event, a note beside the game.

`{"type": "confirm", "player": P, "verdict": "confirmed" | "disputed"}` is accepted once the game is over,
for a player of it; it changes no state and `undo` never takes it back (it takes back the last action, after
which the game is no longer over and a confirmation given before no longer stands). `marmite export` leaves
it out, so an export stays a log every contract reader replays.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from companion.seam import Part, State

CONFIRM = "confirm"
VERDICTS = ("confirmed", "disputed")
NOT_OVER = "not_over"
UNKNOWN_PLAYER = "unknown_player"
BAD_VERDICT = "bad_verdict"


def decide_confirm(event: dict[str, Any], state: State) -> str | None:
    """Why this `confirm` would be refused now, or None."""
    if not state.is_terminal():
        return NOT_OVER
    if event.get("player") not in state.players:
        return UNKNOWN_PLAYER
    if event.get("verdict") not in VERDICTS:
        return BAD_VERDICT
    return None


def describe_confirm(event: dict[str, Any], reason: str | None) -> Part:
    """What the table says for a `confirm`, accepted (reason None) or refused."""
    player = str(event.get("player", ""))[:80]
    if reason is None:
        key = "scores_disputed" if event.get("verdict") == "disputed" else "scores_confirmed"
        return Part(key, {"player": player})
    return Part("confirm_not_over" if reason == NOT_OVER else "confirm_refused", {"player": player})


def standing_verdict(rows: Iterable[tuple[dict[str, Any], bool, str]],
                     notes: Collection[str]) -> tuple[str, str] | None:
    """(verdict, player) of the confirmation that stands at the end of one game's rows (event, accepted,
    source), or None: only a seat's phone confirms, and any later accepted action (an undo) voids it; `notes`
    are the event types kept beside the game, no action (`companion.sides.note_types`)."""
    standing: tuple[str, str] | None = None
    for event, accepted, source in rows:
        if not accepted:
            continue
        if event.get("type") == CONFIRM:
            if source == "seat":
                standing = (str(event.get("verdict")), str(event.get("player")))
        elif event.get("type") not in notes:
            standing = None
    return standing
