"""The changing state of one Sus au buffet ! game (OpenSpiel's *State*): decide, apply, legal actions.

`decide` never changes anything; `apply` changes the state and returns effects for the announcer.
A refusal is a typed Reason, never an exception; undo is the referee's (replay without the last).
"""

from __future__ import annotations

from typing import Any

from companion.buffet import announcer, views
from companion.buffet import effects as fx
from companion.buffet.events import CardEvent, PlateEvent, accepted, card_event, plate_event
from companion.buffet.game import Game
from companion.buffet.plates import (
    FOODS,
    MOUSE_CARDS,
    PLATES,
    TOTAL_PLATES,
    counted,
    mouse_value,
    plate,
    score,
    sort_buffet,
)
from companion.buffet.reasons import Reason
from companion.buffet.records import Leave, Reveal, RoundRecord, Step
from companion.seam import FaceDown, Part, Voice, wire
from companion.snapshot import copy_last, copy_records


class State:
    """A game in progress: its fixed Game and what has happened so far."""

    def __init__(self, game: Game) -> None:
        self.game = game
        count = len(game.players)
        self.phase = "buffet"
        self.round_number = 1
        self.part: int | None = 1 if game.two_parts else None
        self.positions = [0] * count
        self.in_round: list[int] = game.clockwise(list(range(count)))
        self.buffet: list[str] = []
        self.laid: set[str] = set()
        self.won: list[list[str]] = [[] for _ in range(count)]
        self.rounds: list[RoundRecord] = []
        self.step: Step | None = None
        self.swap_given = False
        self.tie_break = False

    def snapshot(self) -> State:
        """An independent copy (the referee's undo marks); the fixed Game is shared."""
        copied = object.__new__(State)
        memo: dict[int, Any] = {}
        copied.rounds = copy_last(self.rounds, memo)  # first: `step` is also the last round's last step
        for name, value in vars(self).items():
            if name not in ("game", "rounds"):
                setattr(copied, name, copy_records(value, memo))
        copied.game = self.game
        return copied

    # ----------------------------------------------------------------- queries

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def plates_left(self) -> int:
        """Plates of the 36 not laid out yet."""
        return TOTAL_PLATES - len(self.laid)

    @property
    def turn(self) -> int | None:
        """The seat whose card is read next during a step."""
        if self.phase != "step" or self.step is None:
            return None
        return self.in_round[len(self.step.reveals)]

    @property
    def part_plates(self) -> int:
        """Plates the mice still in play for now (part 1 of three players: all but the two best)."""
        return len(self.buffet) - 2 if self.part == 1 else len(self.buffet)

    @property
    def current_round(self) -> RoundRecord | None:
        """The round under way (or the last one, between rounds)."""
        return self.rounds[-1] if self.rounds else None

    def is_terminal(self) -> bool:
        return self.phase == "game_over"

    def scores(self) -> list[int]:
        """Each seat's score: the sum of its counted plates (the last won of each food)."""
        return [score(won) for won in self.won]

    def place(self, seat: int) -> tuple[int, bool]:
        """A mouse's place among the mice in the round (1 = ahead) and whether another shares it."""
        mine = self.positions[seat]
        others = [self.positions[other] for other in self.in_round if other != seat]
        return 1 + sum(1 for p in others if p > mine), any(p == mine for p in others)

    def winners(self) -> list[int]:
        """At game over, the seats with the top score after the tie-break; else none."""
        if self.phase != "game_over":
            return []
        return list(rank_winners(self.scores(), [counted(won) for won in self.won])[0])

    def legal_actions(self) -> list[dict[str, Any]]:
        """The events legal now (undo aside): plates not laid yet, or any mouse card during a step."""
        if self.phase == "buffet":
            return [wire(plate_event(code)) for code in PLATES if code not in self.laid]
        if self.phase == "step":
            return [wire(card_event(code)) for code in MOUSE_CARDS]
        return []

    # ----------------------------------------------------------------- observers and words

    def public_state(self) -> dict[str, Any]:
        return views.public_state(self)

    def table_view(self) -> dict[str, Any]:
        return views.table_view(self)

    def seat_view(self, player: str, *, owner: bool) -> dict[str, Any] | None:
        return views.seat_view(self, player, owner=owner)

    def history(self) -> dict[str, Any]:
        return views.history(self)

    def summary(self) -> dict[str, Any]:
        return views.summary(self)

    def voice(self) -> Voice:
        return announcer.BuffetVoice()

    def face_down_step(self) -> FaceDown | None:
        """Each step's cards are chosen face down, then turned over in order (see seam.FaceDownStep)."""
        if self.phase != "step":
            return None
        turn = self.turn
        return FaceDown(tuple(self.players[seat] for seat in self.in_round),
                        self.players[turn] if turn is not None else None)

    def describe(self, effects: list[Any]) -> list[Part]:
        return announcer.describe_effects(self, effects)

    def describe_refusal(self, event: dict[str, Any], reason: str) -> Part:
        return announcer.describe_refusal(self, event, reason)

    def describe_where(self) -> list[Part]:
        return announcer.describe_where(self)

    def tag_event(self, code: str) -> dict[str, Any]:
        """The event a tag's card stands for, in its wire form."""
        return wire(self.tag_meaning(code))

    def tag_meaning(self, code: str) -> PlateEvent | CardEvent:
        """A physical mouse card `mouse-<v>@<k>` is the card `mouse-<v>`; a plate is laid out."""
        if code.startswith("plate-"):
            return plate_event(code)
        return card_event(code.partition("@")[0])

    def repeats_read(self, code: str) -> bool:
        """A plate already laid out, or a mouse card of a value revealed in the current step (the
        last finished one until the next card): the table checks that it is the same physical card."""
        event = self.tag_meaning(code)
        if event["type"] == "plate":
            return code in self.laid
        step = self._latest_step()
        return step is not None and any(reveal.card == event["card"] for reveal in step.reveals)

    def _latest_step(self) -> Step | None:
        if self.step is not None and self.step.reveals:
            return self.step
        for record in reversed(self.rounds):
            for step in reversed(record.steps):
                if step.reveals:
                    return step
        return None

    # ----------------------------------------------------------------- decide

    def decide(self, event: dict[str, Any]) -> Reason | None:
        """None if the event is legal now, else why not. Changes nothing."""
        kind = event.get("type")
        if kind == "card":
            if mouse_value(event.get("card")) is None:
                return Reason.UNKNOWN_CARD
            return None if self.phase == "step" else Reason.WRONG_PHASE
        if kind == "plate":
            code = event.get("plate")
            if plate(code) is None:
                return Reason.UNKNOWN_CARD
            if self.phase != "buffet":
                return Reason.WRONG_PHASE
            return Reason.ALREADY_PLAYED if code in self.laid else None
        return Reason.WRONG_PHASE  # Chaud Devant's hand and menu events

    # ----------------------------------------------------------------- apply

    def apply(self, event: dict[str, Any]) -> list[fx.Effect]:
        """Apply an event `decide` has just accepted; returns what happened."""
        typed = accepted(event)
        if typed["type"] == "plate":
            return self._lay(typed["plate"])
        return self._reveal(typed["card"])

    def _lay(self, code: str) -> list[fx.Effect]:
        effects: list[fx.Effect] = []
        record = self.current_round
        if record is None or record.number != self.round_number:
            record = RoundRecord(self.round_number)
            self.rounds.append(record)
            effects.append(fx.RoundOpened(self.round_number))
        record.laid.append(code)
        self.laid.add(code)
        self.buffet = sort_buffet([*self.buffet, code])
        missing = self.game.buffet_size - len(self.buffet)
        effects.append(fx.PlateLaid(code, self.buffet.index(code) + 1, missing))
        if missing == 0:
            self.phase = "step"
            effects.extend(self._new_step())
        return effects

    def _new_step(self) -> list[fx.Effect]:
        record = self.current_round
        assert record is not None
        self.step = Step(self.part)
        record.steps.append(self.step)
        return [fx.StepBegins(self.round_number, self.part, self.in_round[0], tuple(self.buffet))]

    def _reveal(self, code: str) -> list[fx.Effect]:
        step = self.step
        seat = self.turn
        if step is None or seat is None:
            raise ValueError("no step under way")
        value = MOUSE_CARDS[code]
        self.positions[seat] += value
        step.reveals.append(Reveal(seat, code, value, self.positions[seat]))
        place, shared = self.place(seat)
        effects: list[fx.Effect] = [fx.MouseMoved(seat, value, self.positions[seat], place, shared)]
        if len(step.reveals) < len(self.in_round):
            return [*effects, fx.TurnPassed(self.in_round[len(step.reveals)])]
        return effects + self._end_step(step)

    def _end_step(self, step: Step) -> list[fx.Effect]:
        """Every mouse has moved: who leaves, with which plate; then the next step, part or round."""
        mice = self.in_round
        rear = min(self.positions[seat] for seat in mice)
        rearmost = tuple(seat for seat in mice if self.positions[seat] == rear)
        duel = len(mice) == 2 and self.part_plates == 1
        if len(rearmost) > 1:
            step.outcome = "tie"
            tied: fx.Effect = fx.DuelTied(rearmost, rear) if duel else fx.RearTied(rearmost, rear)
            return [tied, *self._new_step()]
        step.outcome = "left"
        loser = rearmost[0]
        effects: list[fx.Effect] = []
        if duel:
            winner = next(seat for seat in mice if seat != loser)
            effects.append(self._leave(winner, self.buffet[len(self.buffet) - self.part_plates], won_duel=True))
            effects.append(self._leave(loser, None))
        else:
            effects.append(self._leave(loser, self.buffet[-1]))
            if len(self.in_round) == 1 and self.part_plates == 1:
                effects.append(self._leave(self.in_round[0], self.buffet[-1]))
        if self.in_round:
            return effects + self._new_step()
        if self.part == 1:
            self.part = 2
            self.in_round = self.game.clockwise(list(range(len(self.players))))
            return [*effects, fx.PartTwo(self.round_number), *self._new_step()]
        return effects + self._end_round()

    def _leave(self, seat: int, code: str | None, *, won_duel: bool = False) -> fx.Departure:
        """A mouse leaves the round, with a plate or none; the round's first to leave may swap cards."""
        may_swap = not self.swap_given and self.part != 2
        self.swap_given = True
        if code is not None:
            self.buffet.remove(code)
            self.won[seat].append(code)
        self.in_round.remove(seat)
        record = self.current_round
        assert record is not None
        record.departures.append(Leave(seat, code, self.part, may_swap))
        return fx.Departure(seat, code, may_swap, won_duel)

    def _end_round(self) -> list[fx.Effect]:
        record = self.current_round
        assert record is not None
        record.scores = tuple(self.scores())
        effects: list[fx.Effect] = [fx.RoundEnded(record.number, record.scores, self.plates_left)]
        self.step = None
        if self.plates_left < self.game.buffet_size:
            self.phase = "game_over"
            winners, tie_break = rank_winners(self.scores(), [counted(won) for won in self.won])
            self.tie_break = tie_break
            return [*effects, fx.GameOver(winners, tie_break)]
        self.phase = "buffet"
        self.round_number += 1
        self.part = 1 if self.game.two_parts else None
        self.positions = [0] * len(self.players)
        self.in_round = self.game.clockwise(list(range(len(self.players))))
        self.swap_given = False
        return effects


def rank_winners(scores: list[int], tops: list[dict[str, str]]) -> tuple[tuple[int, ...], bool]:
    """The winners: top score; among tied players, foods compared best-ranked first, a player holding
    one the others lack goes on (the rest are out); the ones left share. Also whether that decided."""
    best = max(scores)
    tied = [seat for seat, points in enumerate(scores) if points == best]
    if len(tied) == 1:
        return (tied[0],), False
    left = tied
    for food in FOODS:
        holders = [seat for seat in left if food in tops[seat]]
        if holders and len(holders) < len(left):
            left = holders
        if len(left) == 1:
            break
    return tuple(left), len(left) < len(tied)
