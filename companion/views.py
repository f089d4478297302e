"""Observers: what each audience may see of a game. Secret menus leave the state only through here.

`public_state` is the contract's `marmite replay` object (without `refused`); `table_view`
adds what the table display needs; `seat_view` adds one player's own secrets.
"""

from __future__ import annotations

from typing import Any

from companion.game import Game
from companion.state import Pot, RoundState


def public_state(game: Game | None) -> dict[str, Any]:
    """The contract's state object for the current game (no `refused` key)."""
    if game is None:
        return {
            "phase": "menu", "round": 1, "turn": None, "stars": {}, "rounds": [],
            "pot": _pot(Pot()), "winners": [], "revokes": [],
        }
    players = game.players
    state = game.state
    return {
        "phase": state.phase,
        "round": game.round_number,
        "turn": players[state.turn] if state.turn is not None and state.phase == "play" else None,
        "stars": {name: state.stars[seat] for seat, name in enumerate(players)},
        "rounds": [_round(game, current) for current in state.rounds],
        "pot": _pot(state.pot),
        "winners": [players[seat] for seat in game.winners()],
        "revokes": [
            {"round": r.round, "player": players[r.seat], "suit": str(r.suit),
             "void_trick": r.void_trick, "proof_trick": r.proof_trick}
            for r in state.revokes
        ],
    }


def _pot(pot: Pot) -> dict[str, Any]:
    return {
        "cards": list(pot.cards), "sum": pot.sum,
        "led": str(pot.led) if pot.led is not None else None, "spoiled": pot.spoiled,
    }


def revealed_menus(game: Game, current: RoundState) -> dict[str, str] | None:
    """Menus everyone may see: all after a simultaneous reveal, those shown so far in sequence."""
    sequential = game.setup.rules.menu_reveal == "sequential"
    if not sequential and not current.revealed:
        return None
    return {game.players[seat]: menu for seat, menu in sorted(current.choices.items())}


def _round(game: Game, current: RoundState) -> dict[str, Any]:
    players = game.players
    shown: dict[str, Any] = {"round": current.number, "dealer": players[current.dealer]}
    menus = revealed_menus(game, current)
    if menus is not None:
        shown["menus"] = menus
    shown["tricks"] = [
        {"winner": players[trick.winner], "cards": list(trick.cards)} for trick in current.tricks
    ]
    if current.points is not None:
        shown["points"] = {players[seat]: pts for seat, pts in sorted(current.points.items())}
    return shown
