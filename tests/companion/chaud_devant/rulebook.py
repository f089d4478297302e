"""Small builders for readable rule tests: events as the contract writes them, and replay."""

from __future__ import annotations

from typing import Any

from companion.chaud_devant.cards import ALL_CODES
from companion.referee import Referee
from companion.replay import replay
from marmite.games import GAMES

PLAYERS = ("Virginie", "Bruno", "Valentine", "Nicolas")


def new_game(players: tuple[str, ...] = PLAYERS, dealer: str | None = None, **rules: str) -> dict[str, Any]:
    """A new_game event; the dealer defaults to the last seat, so the first seat leads."""
    event: dict[str, Any] = {"type": "new_game", "players": list(players), "dealer": dealer or players[-1]}
    if rules:
        event["rules"] = rules
    return event


def menu(player: str, choice: str) -> dict[str, Any]:
    return {"type": "menu", "player": player, "menu": choice}


def hand(player: str, cards: list[str]) -> dict[str, Any]:
    return {"type": "hand", "player": player, "cards": cards}


def card(code: str) -> dict[str, Any]:
    return {"type": "card", "card": code}


UNDO: dict[str, Any] = {"type": "undo"}


def menus(players: tuple[str, ...], choices: tuple[str, ...]) -> list[dict[str, Any]]:
    """Menu events for each player in seat order."""
    return [menu(p, c) for p, c in zip(players, choices, strict=True)]


def started(players: tuple[str, ...] = PLAYERS, choices: tuple[str, ...] = ("pea", "none", "pepper", "onion"),
            **rules: str) -> list[dict[str, Any]]:
    """A new game whose first round is in play (menus chosen); the first seat leads."""
    return [new_game(players, **rules), *menus(players, choices[: len(players)])]


def state_after(*events: dict[str, Any]) -> dict[str, Any]:
    """The contract's replay object after these events (line numbers from 1)."""
    return replay(list(enumerate(events, start=1)), GAMES)


def refusal(*events: dict[str, Any]) -> str | None:
    """The reason the last event was refused, None if it was accepted."""
    referee = Referee(GAMES)
    outcome = None
    for event in events:
        outcome = referee.apply(event)
    assert outcome is not None
    return None if outcome.accepted else str(outcome.reason)


def referee_after(*events: dict[str, Any]) -> Referee:
    referee = Referee(GAMES)
    for event in events:
        referee.apply(event)
    return referee


def play_out_round(referee: Referee, order: list[str] | tuple[str, ...] = ALL_CODES) -> list[str]:
    """Feed cards (hidden hands: any unplayed card is accepted) until the round ends; returns them."""
    game = referee.state
    assert game is not None
    played = []
    for code in order:
        if game.progress.phase != "play":
            break
        assert referee.apply(card(code)).accepted
        played.append(code)
    return played
