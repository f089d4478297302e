"""One game of Chaud Devant !: decides whether an event is legal, applies it, and undoes.

`decide` never changes anything; `apply` changes the state and returns what happened
(effects, for the announcer). A refused event is a typed Reason, never an exception.
"""

from __future__ import annotations

from typing import Any

from companion import effects as fx
from companion.cards import DECK, MENUS, Card, Suit, card, is_menu
from companion.reasons import Reason
from companion.rules import ROUNDS, STARTING_STARS, Setup
from companion.state import GameState, Play, Pot, Revoke, RoundState, Trick


class Game:
    """A game in progress: its setup, its state, and the accepted actions (for undo)."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.state = self._fresh_state()
        self._actions: list[dict[str, Any]] = []

    def _fresh_state(self) -> GameState:
        count = len(self.setup.players)
        return GameState(stars=[STARTING_STARS] * count, used_menus=[set() for _ in range(count)])

    # ----------------------------------------------------------------- queries

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    def seat_of(self, name: object) -> int | None:
        """The seat index of a player name, None for anything else."""
        if isinstance(name, str) and name in self.setup.players:
            return self.setup.players.index(name)
        return None

    @property
    def round_number(self) -> int:
        """The current round, or between rounds the next one; at game over the last."""
        state = self.state
        if state.phase == "game_over" or state.open_round is not None:
            return len(state.rounds)
        return len(state.rounds) + 1

    @property
    def can_undo(self) -> bool:
        return bool(self._actions)

    def holder_of(self, code: str) -> int | None:
        """The seat whose known hand holds this card this round, if any."""
        current = self.state.open_round
        if current is None:
            return None
        for seat, hand in current.hands.items():
            if code in hand:
                return seat
        return None

    def next_to_reveal(self) -> int | None:
        """Sequential reveal: the seat that reveals next this round (None when not applicable)."""
        if self.setup.rules.menu_reveal != "sequential" or self.state.phase != "menu":
            return None
        current = self.state.open_round
        dealer = self.setup.dealer_of(self.round_number)
        first = self.setup.next_seat(dealer)
        done = len(current.choices) if current is not None else 0
        return (first + done) % len(self.players)

    # ----------------------------------------------------------------- decide

    def decide(self, event: dict[str, Any]) -> Reason | None:
        """None if the event is legal now, else why not. Changes nothing."""
        kind = event.get("type")
        if kind == "card":
            return self._decide_card(event.get("card"))
        if kind == "menu":
            return self._decide_menu(event.get("player"), event.get("menu"))
        if kind == "hand":
            return self._decide_hand(event.get("player"), event.get("cards"))
        if kind == "undo":
            return None if self._actions else Reason.NOTHING_TO_UNDO
        raise ValueError(f"Game does not handle {kind!r} events")

    def _decide_card(self, code: object) -> Reason | None:
        played = card(code)
        if played is None:
            return Reason.UNKNOWN_CARD
        state = self.state
        current = state.open_round
        if state.phase != "play" or current is None or state.turn is None:
            return Reason.WRONG_PHASE
        if played.code in current.played:
            return Reason.ALREADY_PLAYED
        seat = state.turn
        holder = self.holder_of(played.code)
        if holder is not None and holder != seat:
            return Reason.OUT_OF_TURN
        hand = current.hands.get(seat)
        if hand is None:
            return None
        if played.code not in hand:
            return Reason.NOT_IN_HAND
        led = state.pot.led
        if (
            led is not None
            and not state.pot.spoiled
            and played.suit is not led
            and any(DECK[held].suit is led for held in hand)
        ):
            return Reason.MUST_FOLLOW_SUIT
        return None

    def _decide_menu(self, player: object, menu: object) -> Reason | None:
        seat = self.seat_of(player)
        if seat is None:
            return Reason.UNKNOWN_PLAYER
        if not is_menu(menu):
            return Reason.UNKNOWN_CARD
        if self.state.phase != "menu":
            return Reason.WRONG_PHASE
        used = self.state.used_menus[seat]
        current = self.state.open_round
        revealed_now = current.choices.get(seat) if current is not None else None
        expected = self.next_to_reveal()
        if menu in used and not (expected is not None and menu == revealed_now):
            return Reason.MENU_USED  # used in an earlier round (a menu revealed this round is not)
        if expected is None:
            return None
        if seat != expected:
            return Reason.NOT_YOUR_TURN
        dealer = self.setup.dealer_of(self.round_number)
        if seat == dealer and current is not None:
            first_menu = current.choices.get(self.setup.next_seat(dealer))
            others_left = set(MENUS) - used - {first_menu}
            if menu == first_menu and others_left:
                return Reason.MENU_FORBIDDEN
        return None

    def _decide_hand(self, player: object, cards: object) -> Reason | None:
        seat = self.seat_of(player)
        if seat is None:
            return Reason.UNKNOWN_PLAYER
        if isinstance(cards, list) and any(card(code) is None for code in cards):
            return Reason.UNKNOWN_CARD
        if self.state.phase != "menu":
            return Reason.WRONG_PHASE
        if not isinstance(cards, list):
            return Reason.BAD_HAND
        current = self.state.open_round
        dealer = self.setup.dealer_of(self.round_number)
        size = self.setup.deal_sizes(dealer)[seat]
        if len(cards) != size or len(set(cards)) != len(cards):
            return Reason.BAD_HAND
        if current is not None:
            for other, hand in current.hands.items():
                if other != seat and not hand.isdisjoint(cards):
                    return Reason.BAD_HAND
        return None

    # ----------------------------------------------------------------- apply

    def apply(self, event: dict[str, Any], *, decided: bool = False) -> list[fx.Effect]:
        """Apply a legal event; returns what happened. ValueError if illegal (unless `decided`
        says the caller has just checked it)."""
        if not decided and (reason := self.decide(event)) is not None:
            raise ValueError(f"refused event applied: {reason}")
        if event["type"] == "undo":
            return self._undo()
        self._actions.append(event)
        return self._perform(event)

    def _perform(self, event: dict[str, Any]) -> list[fx.Effect]:
        kind = event["type"]
        if kind == "card":
            return self._play(DECK[event["card"]])
        seat = self.players.index(event["player"])
        effects: list[fx.Effect] = []
        current = self.state.open_round
        if current is None:
            current = self._open_round()
            effects.append(fx.RoundOpened(current.number, current.dealer))
        if kind == "hand":
            current.hands[seat] = set(event["cards"])
            effects.append(fx.HandRecorded(seat, len(event["cards"])))
            return effects
        return effects + self._choose_menu(current, seat, event["menu"])

    def _open_round(self) -> RoundState:
        number = len(self.state.rounds) + 1
        dealer = self.setup.dealer_of(number)
        deal = self.setup.deal_sizes(dealer)
        current = RoundState(number, dealer, self.setup.next_seat(dealer), deal, list(deal))
        self.state.rounds.append(current)
        return current

    def _choose_menu(self, current: RoundState, seat: int, menu: str) -> list[fx.Effect]:
        current.choices[seat] = menu
        sequential = self.setup.rules.menu_reveal == "sequential"
        effects: list[fx.Effect] = []
        if sequential:
            self.state.used_menus[seat].add(menu)
            effects.append(fx.MenuRevealed(seat, menu))
        else:
            effects.append(fx.MenuChosen(seat))
        if len(current.choices) < len(self.players):
            return effects
        current.revealed = True
        if not sequential:
            for chooser, chosen in current.choices.items():
                self.state.used_menus[chooser].add(chosen)
            effects.append(fx.MenusRevealed(dict(current.choices)))
        self.state.phase = "play"
        self.state.turn = current.first
        self.state.pot = Pot()
        effects.append(fx.PlayBegins(current.number, current.first))
        return effects

    def _play(self, played: Card) -> list[fx.Effect]:
        state = self.state
        current = state.open_round
        seat = state.turn
        if current is None or seat is None:
            raise ValueError("no round in play")
        pot = state.pot
        effects: list[fx.Effect] = []
        trick = current.trick_number
        revoke = self._find_revoke(current, seat, played.suit, trick)
        if revoke is not None:
            effects.append(revoke)
        spoils = played.is_pepper and not (pot.cards and pot.spoiled)
        if not pot.cards:
            pot.led = None if played.is_pepper else played.suit
            pot.spoiled = played.is_pepper
            pot.sum = 0 if played.value == 10 else played.value
        else:
            shows_void = pot.led is not None and not pot.spoiled and played.suit is not pot.led
            if shows_void and pot.led is not None and seat not in current.hands:
                current.voids.setdefault(seat, {}).setdefault(pot.led, trick)
            pot.sum = 0 if played.is_overflow else pot.sum + played.value
            pot.spoiled = pot.spoiled or played.is_pepper
        pot.cards.append(played.code)
        current.played.add(played.code)
        current.left[seat] -= 1
        if seat in current.hands:
            current.hands[seat].discard(played.code)
        current.plays.append(Play(seat, played.code, pot.sum, trick, pot.led, pot.spoiled))
        effects.insert(0, fx.CardPlayed(seat, played.code, pot.sum, pot.led, pot.spoiled, spoils))
        if current.left[seat] == 0:
            effects.append(fx.LastCard(seat))
        if len(pot.cards) > 1 and pot.sum >= 10:
            current.tricks.append(Trick(seat, list(pot.cards)))
            effects.append(fx.TrickWon(seat, trick, list(pot.cards), pot.sum))
            state.pot = Pot()
            state.turn = seat
        else:
            state.turn = self.setup.next_seat(seat)
        if current.left[state.turn] == 0:
            effects.extend(self._end_round(current))
        else:
            effects.append(fx.TurnPassed(state.turn))
        return effects

    def _find_revoke(self, current: RoundState, seat: int, suit: Suit, trick: int) -> Revoke | None:
        """A revoke proven by `seat` playing `suit` after showing void in it this round."""
        voids = current.voids.get(seat)
        if not voids or suit not in voids:
            return None
        revoke = Revoke(current.number, seat, suit, voids.pop(suit), trick)
        self.state.revokes.append(revoke)
        return revoke

    def _end_round(self, current: RoundState) -> list[fx.Effect]:
        state = self.state
        current.unclaimed = list(state.pot.cards)
        state.pot = Pot()
        state.turn = None
        seats = range(len(self.players))
        points = [score_round(current.choices[seat], won_cards(current, seat)) for seat in seats]
        current.points = dict(enumerate(points))
        state.stars = [max(0, stars + gained) for stars, gained in zip(state.stars, points, strict=True)]
        scored = fx.RoundScored(current.number, current.unclaimed, dict(current.points), list(state.stars))
        effects: list[fx.Effect] = [scored]
        if current.number == ROUNDS:
            state.phase = "game_over"
            effects.append(fx.GameOver(self.winners()))
        else:
            state.phase = "menu"
        return effects

    def winners(self) -> list[int]:
        """Seats with the top score at game over, else none."""
        if self.state.phase != "game_over":
            return []
        top = max(self.state.stars)
        return [seat for seat, stars in enumerate(self.state.stars) if stars == top]

    # ----------------------------------------------------------------- undo

    def _undo(self) -> list[fx.Effect]:
        """Take back the last accepted action: replay the others from a fresh state (exact, and
        cheap: a whole game is a few hundred actions, and undo is rare)."""
        undone = self._actions.pop()
        self.state = self._fresh_state()
        for action in self._actions:
            self._perform(action)
        return [fx.Undone(undone)]


def won_cards(current: RoundState, seat: int) -> list[Card]:
    """All cards in the tricks `seat` won this round."""
    return [DECK[code] for trick in current.tricks if trick.winner == seat for code in trick.cards]


def score_round(menu: str, won: list[Card]) -> int:
    """A round's result for one player, before the floor at 0."""
    if menu == "none":
        return 5 - len(won)
    peppers = sum(1 for c in won if c.is_pepper)
    if menu == "pepper":
        return peppers - sum(1 for c in won if c.is_bouillon)
    return sum(1 for c in won if c.suit == menu) - peppers
