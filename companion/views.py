"""Observers: what each audience may see of a game. Secret menus leave the state only through here.

`public_state` is the contract's `marmite replay` object (without `refused`); `table_view`
adds what the table display needs; `seat_view` adds one player's own secrets.
"""

from __future__ import annotations

from typing import Any

from companion.cards import DECK
from companion.game import Game, score_round, won_cards
from companion.rules import STARTING_STARS
from companion.state import Play, Pot, RoundState


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


def _running_points(game: Game, current: RoundState, seat: int) -> int | None:
    """This round's points so far for a seat whose menu is public; None while it is secret."""
    if current.points is not None:
        return current.points[seat]
    menus = revealed_menus(game, current)
    name = game.players[seat]
    if menus is None or name not in menus:
        return None
    return score_round(menus[name], won_cards(current, seat))


def table_view(game: Game | None) -> dict[str, Any]:
    """What the table display shows: the contract state plus seats, pot plays and history."""
    view = public_state(game)
    if game is None:
        view.update({"game": None, "players": [], "pot_plays": [], "last_trick": None, "pot_overflowed": False,
                     "stars_by_round": [], "next_to_reveal": None, "rules": None})
        return view
    state = game.state
    current = state.rounds[-1] if state.rounds else None
    in_round = state.open_round
    seats = []
    for seat, name in enumerate(game.players):
        menus = revealed_menus(game, current) if current is not None else None
        seats.append({
            "name": name,
            "seat": seat,
            "stars": state.stars[seat],
            "cards_left": in_round.left[seat] if in_round is not None else None,
            "has_chosen": in_round is not None and seat in in_round.choices,
            "menu": (menus or {}).get(name) if current is not None else None,
            "points": _running_points(game, current, seat) if current is not None else None,
            "last_card": in_round is not None and state.phase == "play" and in_round.left[seat] == 0,
            "dealer": seat == game.setup.dealer_of(game.round_number),
            "hand_known": in_round is not None and seat in in_round.hands,
        })
    plays = []
    if in_round is not None and state.pot.cards:
        plays = [_play(game, play) for play in in_round.plays[-len(state.pot.cards):]]
    last_trick = None
    if current is not None and current.tricks:
        trick = current.tricks[-1]
        last_trick = {"winner": game.players[trick.winner], "cards": list(trick.cards),
                      "number": len(current.tricks)}
    reveal = game.next_to_reveal()
    view.update({
        "pot_overflowed": any(DECK[code].is_overflow for code in state.pot.cards),
        "rules": game.setup.rules.as_json(),
        "players": seats,
        "pot_plays": plays,
        "last_trick": last_trick,
        "stars_by_round": stars_by_round(game),
        "next_to_reveal": game.players[reveal] if reveal is not None else None,
    })
    return view


def _play(game: Game, play: Play) -> dict[str, Any]:
    return {"player": game.players[play.seat], "card": play.card, "sum": play.sum_after,
            "trick": play.trick, "led": str(play.led) if play.led else None, "spoiled": play.spoiled}


def stars_by_round(game: Game) -> list[dict[str, int]]:
    """Stars after each scored round (the first entry is the start: 5 each), for the chart."""
    count = len(game.players)
    stars = [STARTING_STARS] * count
    series = [dict(zip(game.players, stars, strict=True))]
    for current in game.state.rounds:
        if current.points is None:
            break
        stars = [max(0, s + current.points[seat]) for seat, s in enumerate(stars)]
        series.append(dict(zip(game.players, stars, strict=True)))
    return series


def history(game: Game | None) -> dict[str, Any]:
    """Every round trick by trick: who played what, the sum after each card, led suit, spoiled."""
    if game is None:
        return {"rounds": []}
    rounds = []
    for current in game.state.rounds:
        tricks: list[dict[str, Any]] = []
        for play in current.plays:
            while len(tricks) < play.trick:
                number = len(tricks) + 1
                won = current.tricks[number - 1] if number <= len(current.tricks) else None
                tricks.append({"number": number, "plays": [],
                               "winner": game.players[won.winner] if won else None})
            tricks[play.trick - 1]["plays"].append(_play(game, play))
        entry: dict[str, Any] = {"round": current.number, "dealer": game.players[current.dealer],
                                 "tricks": tricks, "unclaimed": list(current.unclaimed)}
        menus = revealed_menus(game, current)
        if menus is not None:
            entry["menus"] = menus
        if current.points is not None:
            entry["points"] = {game.players[s]: p for s, p in sorted(current.points.items())}
        rounds.append(entry)
    return {"rounds": rounds, "revokes": public_state(game)["revokes"]}


def seat_view(game: Game | None, player: str, *, owner: bool = False) -> dict[str, Any] | None:
    """A seat's view: public facts, plus the player's own menu choice and known hand for the owner
    only (anyone else asking about that seat gets them as None)."""
    if game is None:
        return None
    seat = game.seat_of(player)
    if seat is None:
        return None
    state = game.state
    in_round = state.open_round
    own_menu = in_round.choices.get(seat) if in_round is not None and owner else None
    known = owner and in_round is not None and seat in in_round.hands
    hand = sorted(in_round.hands[seat]) if known and in_round is not None else None
    table = table_view(game)
    return {
        "player": player,
        "own_seat": owner,
        "phase": state.phase,
        "round": game.round_number,
        "stars": state.stars[seat],
        "my_menu": own_menu,
        "cards_left": in_round.left[seat] if in_round is not None else None,
        "my_turn": state.phase == "play" and state.turn == seat,
        "must_reveal": game.next_to_reveal() == seat,
        "turn": table["turn"],
        "hand": hand,
        "used_menus": sorted(state.used_menus[seat]),
        "pot": table["pot"],
        "players": table["players"],
    }
