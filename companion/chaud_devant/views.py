"""Observers: what each audience may see of a game. Secret menus leave the state only through here.

`public_state` is the contract's `marmite replay` object (without `refused`); `table_view`
adds what the table display needs; `seat_view` adds one player's own secrets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.chaud_devant.cards import DECK
from companion.chaud_devant.game import STARTING_STARS
from companion.chaud_devant.records import Play, Pot, RoundState
from companion.chaud_devant.scoring import score_round, won_cards

if TYPE_CHECKING:
    from companion.chaud_devant.state import State


def public_state(state: State | None) -> dict[str, Any]:
    """The contract's state object for the current state (no `refused` key)."""
    if state is None:
        return {
            "phase": "menu", "round": 1, "turn": None, "stars": {}, "rounds": [],
            "pot": _pot(Pot()), "winners": [], "revokes": [],
        }
    players = state.players
    progress = state.progress
    return {
        "phase": progress.phase,
        "round": state.round_number,
        "turn": players[progress.turn] if progress.turn is not None and progress.phase == "play" else None,
        "stars": {name: progress.stars[seat] for seat, name in enumerate(players)},
        "rounds": [_round(state, current) for current in progress.rounds],
        "pot": _pot(progress.pot),
        "winners": [players[seat] for seat in state.winners()],
        "revokes": [
            {"round": r.round, "player": players[r.seat], "suit": str(r.suit),
             "void_trick": r.void_trick, "proof_trick": r.proof_trick}
            for r in progress.revokes
        ],
    }


def _pot(pot: Pot) -> dict[str, Any]:
    return {
        "cards": list(pot.cards), "sum": pot.sum,
        "led": str(pot.led) if pot.led is not None else None, "spoiled": pot.spoiled,
    }


def revealed_menus(state: State, current: RoundState) -> dict[str, str] | None:
    """Menus everyone may see: all after a simultaneous reveal, those shown so far in sequence."""
    sequential = state.game.rules.menu_reveal == "sequential"
    if not sequential and not current.revealed:
        return None
    return {state.players[seat]: menu for seat, menu in sorted(current.choices.items())}


def _round(state: State, current: RoundState) -> dict[str, Any]:
    players = state.players
    shown: dict[str, Any] = {"round": current.number, "dealer": players[current.dealer]}
    menus = revealed_menus(state, current)
    if menus is not None:
        shown["menus"] = menus
    shown["tricks"] = [
        {"winner": players[trick.winner], "cards": list(trick.cards)} for trick in current.tricks
    ]
    if current.points is not None:
        shown["points"] = {players[seat]: pts for seat, pts in sorted(current.points.items())}
    return shown


def _running_points(state: State, current: RoundState, seat: int) -> int | None:
    """This round's points so far for a seat whose menu is public; None while it is secret."""
    if current.points is not None:
        return current.points[seat]
    menus = revealed_menus(state, current)
    name = state.players[seat]
    if menus is None or name not in menus:
        return None
    return score_round(menus[name], won_cards(current, seat))


def table_view(state: State | None) -> dict[str, Any]:
    """What the table display shows: the contract state plus seats, pot plays and history."""
    view = public_state(state)
    if state is None:
        view.update({"game": None, "players": [], "pot_plays": [], "last_trick": None, "pot_overflowed": False,
                     "stars_by_round": [], "next_to_reveal": None, "rules": None})
        return view
    progress = state.progress
    current = progress.rounds[-1] if progress.rounds else None
    in_round = progress.open_round
    seats = []
    for seat, name in enumerate(state.players):
        menus = revealed_menus(state, current) if current is not None else None
        seats.append({
            "name": name,
            "seat": seat,
            "stars": progress.stars[seat],
            "cards_left": in_round.left[seat] if in_round is not None else None,
            "has_chosen": in_round is not None and seat in in_round.choices,
            "menu": (menus or {}).get(name) if current is not None else None,
            "points": _running_points(state, current, seat) if current is not None else None,
            "last_card": in_round is not None and progress.phase == "play" and in_round.left[seat] == 0,
            "dealer": seat == state.game.dealer_of(state.round_number),
            "hand_known": in_round is not None and seat in in_round.hands,
        })
    plays = []
    if in_round is not None and progress.pot.cards:
        plays = [_play(state, play) for play in in_round.plays[-len(progress.pot.cards):]]
    last_trick = None
    if current is not None and current.tricks:
        trick = current.tricks[-1]
        last_trick = {"winner": state.players[trick.winner], "cards": list(trick.cards),
                      "number": len(current.tricks)}
    reveal = state.next_to_reveal()
    view.update({
        "pot_overflowed": any(DECK[code].is_overflow for code in progress.pot.cards),
        "rules": state.game.rules.as_json(),
        "players": seats,
        "pot_plays": plays,
        "last_trick": last_trick,
        "stars_by_round": stars_by_round(state),
        "next_to_reveal": state.players[reveal] if reveal is not None else None,
    })
    return view


def _play(state: State, play: Play) -> dict[str, Any]:
    return {"player": state.players[play.seat], "card": play.card, "sum": play.sum_after,
            "trick": play.trick, "led": str(play.led) if play.led else None, "spoiled": play.spoiled}


def stars_by_round(state: State) -> list[dict[str, int]]:
    """Stars after each scored round (the first entry is the start: 5 each), for the chart."""
    count = len(state.players)
    stars = [STARTING_STARS] * count
    series = [dict(zip(state.players, stars, strict=True))]
    for current in state.progress.rounds:
        if current.points is None:
            break
        stars = [max(0, s + current.points[seat]) for seat, s in enumerate(stars)]
        series.append(dict(zip(state.players, stars, strict=True)))
    return series


def history(state: State | None) -> dict[str, Any]:
    """Every round trick by trick: who played what, the sum after each card, led suit, spoiled."""
    if state is None:
        return {"rounds": []}
    rounds = []
    for current in state.progress.rounds:
        tricks: list[dict[str, Any]] = []
        for play in current.plays:
            while len(tricks) < play.trick:
                number = len(tricks) + 1
                won = current.tricks[number - 1] if number <= len(current.tricks) else None
                tricks.append({"number": number, "plays": [],
                               "winner": state.players[won.winner] if won else None})
            tricks[play.trick - 1]["plays"].append(_play(state, play))
        entry: dict[str, Any] = {"round": current.number, "dealer": state.players[current.dealer],
                                 "tricks": tricks, "unclaimed": list(current.unclaimed)}
        menus = revealed_menus(state, current)
        if menus is not None:
            entry["menus"] = menus
        if current.points is not None:
            entry["points"] = {state.players[s]: p for s, p in sorted(current.points.items())}
        rounds.append(entry)
    return {"rounds": rounds, "revokes": public_state(state)["revokes"]}


def seat_view(state: State | None, player: str, *, owner: bool = False) -> dict[str, Any] | None:
    """A seat's view: public facts, plus the player's own menu choice and known hand for the owner
    only (anyone else asking about that seat gets them as None)."""
    if state is None:
        return None
    seat = state.seat_of(player)
    if seat is None:
        return None
    progress = state.progress
    in_round = progress.open_round
    own_menu = in_round.choices.get(seat) if in_round is not None and owner else None
    known = owner and in_round is not None and seat in in_round.hands
    hand = sorted(in_round.hands[seat]) if known and in_round is not None else None
    table = table_view(state)
    return {
        "player": player,
        "own_seat": owner,
        "phase": progress.phase,
        "round": state.round_number,
        "stars": progress.stars[seat],
        "my_menu": own_menu,
        "cards_left": in_round.left[seat] if in_round is not None else None,
        "my_turn": progress.phase == "play" and progress.turn == seat,
        "playable": (sorted(str(event["card"]) for event in state.legal_actions())  # the owner's, on their turn
                     if known and progress.phase == "play" and progress.turn == seat else []),
        "must_reveal": state.next_to_reveal() == seat,
        "turn": table["turn"],
        "hand": hand,
        "used_menus": sorted(progress.used_menus[seat]),
        "pot": table["pot"],
        "players": table["players"],
        "last_trick": table["last_trick"],
        "winners": table["winners"],
        "revokes": [r for r in table["revokes"] if r["player"] == player],
    }


def summary(state: State) -> dict[str, Any]:
    """What a list of past games shows of this one: phase, round, stars, winners."""
    public = public_state(state)
    return {key: public[key] for key in ("phase", "round", "stars", "winners")}
