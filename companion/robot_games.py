"""What the robot driver knows of any game: what a seat may see, and a face-down step's choices.

Each game says the rest through its `TableSeats` (companion.seam: a seat's hand, what it must decide now,
the hands a practice table deals), reached through its GameKind. The information set is built here: a
robot's request holds the public log, its own hand and its own choices, never another seat's known hand
or a menu still hidden.
"""

from __future__ import annotations

from typing import Any

from companion.robot_seats import RobotLedger
from companion.seam import Due, FaceDownStep, State, TableSeats, table_seats

__all__ = ["Due", "TableSeats", "decision_seed", "everyone_chose", "superseded_menus", "table_seats",
           "visible_log"]


def visible_log(log: list[dict[str, Any]], seat: str, state: State) -> list[dict[str, Any]]:
    """The log as `seat` may see it: other seats' hands dropped, this round's menus kept only once
    revealed, the table's own `robot` notes and robot setup dropped (the contract's events only)."""
    public = state.public_state()
    revealed: dict[str, str] = {}
    if public.get("rounds"):
        revealed = dict(public["rounds"][-1].get("menus", {}) or {})
    last_card = max((i for i, event in enumerate(log) if event.get("type") == "card"), default=-1)
    in_menus = public.get("phase") == "menu"
    superseded = superseded_menus(log)
    seen: list[dict[str, Any]] = []
    for index, event in enumerate(log):
        kind = event.get("type")
        if kind == "robot":
            continue
        if kind == "new_game":  # the contract's setup: who else is a robot is no concern of its play
            event = {name: value for name, value in event.items() if name != "robots"}
        if kind == "hand" and event.get("player") != seat:
            continue
        if kind == "menu" and event.get("player") != seat and (index in superseded or (
                in_menus and index > last_card and revealed.get(str(event.get("player"))) != event.get("menu"))):
            continue
        seen.append(event)
    return seen


def superseded_menus(log: list[dict[str, Any]]) -> set[int]:
    """The positions of menus a player changed before the reveal (a later menu of theirs with no card
    in between): chosen face down and never shown, so no other seat ever saw them."""
    latest: dict[Any, int] = {}
    superseded: set[int] = set()
    for index, event in enumerate(log):
        if event.get("type") == "card":
            latest.clear()
        elif event.get("type") == "menu":
            player = event.get("player")
            if player in latest:
                superseded.add(latest[player])
            latest[player] = index
    return superseded


def decision_seed(game: int, ask_log: list[dict[str, Any]]) -> int:
    """A robot's seed for a decision: the table's game and how long the seat's visible log is, so that
    nothing hidden from the seat (other hands, menus still face down) changes it."""
    return game * 7919 + len(ask_log)


def everyone_chose(state: State, ledger: RobotLedger, actions: int) -> bool:
    """True when every player still to turn their card over in this face-down step has chosen it (a
    practice without cards turns the cards over only then: the choices are simultaneous)."""
    step = state.face_down_step() if isinstance(state, FaceDownStep) else None
    if step is None or step.next not in step.players:
        return False
    return all(ledger.pending(player, actions) is not None for player in step.still_to_show())
