"""Observers: what each audience sees of a Sus au buffet ! game (every fact of it is public).

`public_state` is the contract's `marmite replay` object (without `refused`); `table_view`
adds what the tablet draws; `seat_view` what one player's phone shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.buffet.plates import FOODS, PLATES, TOTAL_PLATES, counted

if TYPE_CHECKING:
    from companion.buffet.state import State

TRACK = 40
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green", "purple", "orange")
SHAPES: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "star", "hexagon")
"""Each seat's mouse has a colour AND a shape, so no one needs colour alone to tell them apart."""


def public_state(state: State | None) -> dict[str, Any]:
    """The contract's replay object for a buffet game (without `refused`)."""
    if state is None:
        return {"game": "buffet", "phase": None, "round": 0, "part": None, "turn": None, "positions": {},
                "in_round": [], "buffet": [], "plates": {}, "score": {}, "plates_left": TOTAL_PLATES,
                "winners": []}
    names = state.players
    turn = state.turn
    return {
        "game": "buffet",
        "phase": state.phase,
        "round": state.round_number,
        "part": state.part,
        "turn": names[turn] if turn is not None else None,
        "positions": {name: state.positions[seat] for seat, name in enumerate(names)},
        "in_round": [names[seat] for seat in state.in_round] if state.phase != "game_over" else [],
        "buffet": list(state.buffet),
        "plates": {name: list(state.won[seat]) for seat, name in enumerate(names)},
        "score": dict(zip(names, state.scores(), strict=True)),
        "plates_left": state.plates_left,
        "winners": [names[seat] for seat in state.winners()],
    }


def plate_view(code: str) -> dict[str, Any]:
    """A plate as pages draw it: code, food, value."""
    shown = PLATES[code]
    return {"code": code, "food": shown.food, "value": shown.value}


def _stack(state: State, seat: int) -> list[dict[str, Any]]:
    """A player's plates in the order won, the counted one of each food marked."""
    tops = set(counted(state.won[seat]).values())
    return [{**plate_view(code), "counted": code in tops} for code in state.won[seat]]


def table_view(state: State) -> dict[str, Any]:
    """What the tablet shows: the contract state plus mice, stacks, reveals, summary, standings."""
    view = public_state(state)
    names = state.players
    scores = state.scores()
    players = []
    for seat, name in enumerate(names):
        position = state.positions[seat]
        in_round = state.phase != "game_over" and seat in state.in_round
        place, shared = state.place(seat) if in_round else (None, False)
        players.append({
            "name": name, "seat": seat, "colour": COLOURS[seat], "shape": SHAPES[seat],
            "position": position, "square": position % TRACK, "in_round": in_round,
            "place": place, "shared": shared, "first": seat == state.game.first,
            "plates": _stack(state, seat), "score": scores[seat], "turn": state.turn == seat,
        })
    step = state.step
    reveals = [{"player": names[r.seat], "card": r.card, "value": r.value, "position": r.position}
               for r in (step.reveals if step is not None else [])]
    view.update({
        "players": with_angles(players),
        "buffet_plates": [plate_view(code) for code in state.buffet],
        "buffet_size": state.game.buffet_size,
        "reveals": reveals,
        "last_round": _last_round(state),
        "standings": standings(state) if state.phase == "game_over" else None,
        "tie_break": state.tie_break,
        "foods": list(FOODS),
    })
    return view


def with_angles(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats, with the ring angle (degrees) of each mouse for the track drawing."""
    for player in players:
        player["angle"] = player["square"] * 360 // TRACK
    return players


def _last_round(state: State) -> dict[str, Any] | None:
    """The summary of the last finished round: who took what."""
    done = [record for record in state.rounds if record.scores is not None]
    if not done:
        return None
    record = done[-1]
    names = state.players
    return {
        "round": record.number,
        "departures": [{"player": names[d.seat], "plate": plate_view(d.plate) if d.plate else None,
                        "part": d.part} for d in record.departures],
        "scores": dict(zip(names, record.scores or (), strict=True)),
    }


def standings(state: State) -> list[dict[str, Any]]:
    """Final standings, best first: score, counted foods (the tie-break's facts), winner flag."""
    names = state.players
    scores = state.scores()
    winners = set(state.winners())
    order = sorted(range(len(names)), key=lambda seat: (seat not in winners, -scores[seat], seat))
    rows = []
    for seat in order:
        tops = counted(state.won[seat])
        rows.append({"player": names[seat], "score": scores[seat], "winner": seat in winners,
                     "foods": [food for food in FOODS if food in tops]})
    return rows


def seat_view(state: State, player: str, *, owner: bool = False) -> dict[str, Any] | None:
    """A phone's view: own position, distance to the mouse behind and ahead, own plates (all public)."""
    if player not in state.players:
        return None
    seat = state.players.index(player)
    mine = state.positions[seat]
    others = [state.positions[other] for other in state.in_round if other != seat] if state.phase == "step" else []
    behind = [mine - p for p in others if p < mine]
    ahead = [p - mine for p in others if p > mine]
    in_round = state.phase == "step" and seat in state.in_round
    return {
        "game_kind": "buffet",
        "player": player,
        "seat": seat,
        "own_seat": owner,
        "phase": state.phase,
        "round": state.round_number,
        "part": state.part,
        "position": mine,
        "square": mine % TRACK,
        "in_round": in_round,
        "place": state.place(seat)[0] if in_round else None,
        "behind": min(behind) if behind else None,
        "ahead": min(ahead) if ahead else None,
        "level": sum(1 for p in others if p == mine),
        "my_turn": state.turn == seat,
        "turn": state.players[state.turn] if state.turn is not None else None,
        "plates": _stack(state, seat),
        "score": state.scores()[seat],
        "scores": dict(zip(state.players, state.scores(), strict=True)),  # public: the plates taken lie face up
        "colour": COLOURS[seat],
        "shape": SHAPES[seat],
    }


def history(state: State) -> dict[str, Any]:
    """Every round step by step: the cards turned over, positions, who left with what."""
    names = state.players
    rounds = []
    for record in state.rounds:
        rounds.append({
            "round": record.number,
            "laid": list(record.laid),
            "steps": [{"part": step.part, "outcome": step.outcome,
                       "reveals": [{"player": names[r.seat], "card": r.card, "position": r.position}
                                   for r in step.reveals]} for step in record.steps],
            "departures": [{"player": names[d.seat], "plate": d.plate, "part": d.part, "may_swap": d.may_swap}
                           for d in record.departures],
            "scores": dict(zip(names, record.scores, strict=True)) if record.scores is not None else None,
        })
    return {"rounds": rounds}


def summary(state: State) -> dict[str, Any]:
    """What a list of past games shows of this one: phase, round, score, winners."""
    public = public_state(state)
    return {key: public[key] for key in ("phase", "round", "score", "winners")}
