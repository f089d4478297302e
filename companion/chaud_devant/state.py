"""The changing state of one Chaud Devant ! game (OpenSpiel's *State*): decide, apply, legal actions.

`decide` never changes anything; `apply` changes the state and returns what happened
(effects, for the announcer). A refused event is a typed Reason, never an exception.
Undo is not here: the table's referee replays the accepted actions on a fresh state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.chaud_devant import announcer, views
from companion.chaud_devant import effects as fx
from companion.chaud_devant.cards import ALL_CODES, DECK, MENUS, Card, Suit, card, is_menu
from companion.chaud_devant.events import CardEvent, MenuEvent, accepted, card_event, menu_event
from companion.chaud_devant.game import ROUNDS, STARTING_STARS, Game
from companion.chaud_devant.reasons import Reason
from companion.chaud_devant.records import Play, Pot, Progress, Revoke, RoundState, Trick
from companion.chaud_devant.scoring import score_round, won_cards
from companion.seam import Part, Voice, wire
from companion.snapshot import copy_last, copy_records


def playable(hand: Iterable[str], pot: Pot) -> list[str]:
    """The cards of `hand` its holder may play into `pot`: the led suit if held and the soup is not
    spoiled, else any. The one follow-suit rule: the referee, `legal_actions` and the simulator use it."""
    cards = list(hand)
    if pot.led is None or pot.spoiled:
        return cards
    following = [code for code in cards if DECK[code].suit is pot.led]
    return following or cards


class State:
    """A game in progress: its fixed Game and what has happened so far."""

    def __init__(self, game: Game) -> None:
        self.game = game
        count = len(game.players)
        self.progress = Progress(stars=[STARTING_STARS] * count, used_menus=[set() for _ in range(count)])

    def snapshot(self) -> State:
        """An independent copy (the referee's undo marks); the fixed Game is shared."""
        copied = object.__new__(State)
        copied.game = self.game
        now, memo = self.progress, dict[int, Any]()
        for record in now.rounds[-1:]:  # a Play or a Trick never changes once made: shared, not copied
            memo.update((id(made), made) for made in [*record.plays, *record.tricks])
        rounds = copy_last(now.rounds, memo)
        copied.progress = Progress(stars=list(now.stars), used_menus=[set(menus) for menus in now.used_menus],
                                   rounds=rounds, phase=now.phase, turn=now.turn,
                                   pot=copy_records(now.pot, memo), revokes=copy_records(now.revokes, memo))
        return copied

    # ----------------------------------------------------------------- queries

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    def seat_of(self, name: object) -> int | None:
        """The seat index of a player name, None for anything else."""
        if isinstance(name, str) and name in self.game.players:
            return self.game.players.index(name)
        return None

    @property
    def round_number(self) -> int:
        """The current round, or between rounds the next one; at game over the last."""
        progress = self.progress
        if progress.phase == "game_over" or progress.open_round is not None:
            return len(progress.rounds)
        return len(progress.rounds) + 1

    def is_terminal(self) -> bool:
        """True at game over."""
        return self.progress.phase == "game_over"

    def holder_of(self, code: str) -> int | None:
        """The seat whose known hand holds this card this round, if any."""
        current = self.progress.open_round
        if current is None:
            return None
        for seat, hand in current.hands.items():
            if code in hand:
                return seat
        return None

    def next_to_reveal(self) -> int | None:
        """Sequential reveal: the seat that reveals next this round (None when not applicable)."""
        if self.game.rules.menu_reveal != "sequential" or self.progress.phase != "menu":
            return None
        current = self.progress.open_round
        dealer = self.game.dealer_of(self.round_number)
        first = self.game.next_seat(dealer)
        done = len(current.choices) if current is not None else 0
        return (first + done) % len(self.players)

    def legal_actions(self, hand: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """The events legal now (undo aside). In play, the cards the current player may play: from
        `hand` when the caller knows it (a simulator), else from the known hand, else every unplayed card."""
        progress = self.progress
        if progress.phase == "menu":
            menus = [menu_event(name, menu) for name in self.players for menu in MENUS]
            return [wire(event) for event in menus if self._decide_menu(event["player"], event["menu"]) is None]
        current = progress.open_round
        if progress.phase != "play" or current is None or progress.turn is None:
            return []
        if hand is None:
            hand = current.hands.get(progress.turn)
            if hand is None:  # a hand the table does not see: any unplayed card is accepted (a revoke shows later)
                return [wire(card_event(code)) for code in ALL_CODES if code not in current.played]
        unplayed = [code for code in hand if code not in current.played]
        return [wire(card_event(code)) for code in playable(unplayed, progress.pot)]

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
        return announcer.EditionVoice(self.game.rules.edition)

    def describe(self, effects: list[Any]) -> list[Part]:
        return announcer.describe_effects(self, effects)

    def describe_refusal(self, event: dict[str, Any], reason: str) -> Part:
        return announcer.describe_refusal(self, event, reason)

    def describe_where(self) -> list[Part]:
        return announcer.describe_where(self)

    def tag_event(self, code: str) -> dict[str, Any]:
        """The event a tag's card stands for, in its wire form."""
        return wire(self.tag_meaning(code))

    def tag_meaning(self, code: str) -> MenuEvent | CardEvent:
        """The event a tag's card stands for: a physical menu card of set N is the N-th seat's menu."""
        if code.startswith("menu-"):
            menu, _, copy = code.removeprefix("menu-").partition("@")
            seat = int(copy) - 1
            player = self.players[seat] if seat < len(self.players) else f"seat {copy}"
            return menu_event(player, menu)
        return card_event(code)

    def repeats_read(self, code: str) -> bool:
        """A soup card already played this round, or a menu card whose menu its seat has just chosen."""
        rounds = self.progress.rounds
        if not rounds:
            return False
        current = rounds[-1]  # the open round, or the one that just ended (its last card is in the pot)
        event = self.tag_meaning(code)
        if event["type"] == "menu":
            seat = self.seat_of(event["player"])
            return seat is not None and current.choices.get(seat) == event["menu"]
        return code in current.played

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
        return Reason.WRONG_PHASE  # another game's event (a buffet plate)

    def _decide_card(self, code: object) -> Reason | None:
        played = card(code)
        if played is None:
            return Reason.UNKNOWN_CARD
        state = self.progress
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
        if played.code not in playable(hand, state.pot):
            return Reason.MUST_FOLLOW_SUIT
        return None

    def _decide_menu(self, player: object, menu: object) -> Reason | None:
        seat = self.seat_of(player)
        if seat is None:
            return Reason.UNKNOWN_PLAYER
        if not is_menu(menu):
            return Reason.UNKNOWN_CARD
        if self.progress.phase != "menu":
            return Reason.WRONG_PHASE
        used = self.progress.used_menus[seat]
        current = self.progress.open_round
        revealed_now = current.choices.get(seat) if current is not None else None
        expected = self.next_to_reveal()
        if menu in used and not (expected is not None and menu == revealed_now):
            return Reason.MENU_USED  # used in an earlier round (a menu revealed this round is not)
        if expected is None:
            return None
        if seat != expected:
            return Reason.NOT_YOUR_TURN
        dealer = self.game.dealer_of(self.round_number)
        if seat == dealer and current is not None:
            first_menu = current.choices.get(self.game.next_seat(dealer))
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
        if self.progress.phase != "menu":
            return Reason.WRONG_PHASE
        if not isinstance(cards, list):
            return Reason.BAD_HAND
        current = self.progress.open_round
        dealer = self.game.dealer_of(self.round_number)
        size = self.game.deal_sizes(dealer)[seat]
        if len(cards) != size or len(set(cards)) != len(cards):
            return Reason.BAD_HAND
        if current is not None:
            for other, hand in current.hands.items():
                if other != seat and not hand.isdisjoint(cards):
                    return Reason.BAD_HAND
        return None

    # ----------------------------------------------------------------- apply

    def apply(self, event: dict[str, Any]) -> list[fx.Effect]:
        """Apply an event `decide` has just accepted; returns what happened."""
        typed = accepted(event)
        if typed["type"] == "card":
            return self._play(DECK[typed["card"]])
        seat = self.players.index(typed["player"])
        effects: list[fx.Effect] = []
        current = self.progress.open_round
        if current is None:
            current = self._open_round()
            effects.append(fx.RoundOpened(current.number, current.dealer))
        if typed["type"] == "hand":
            current.hands[seat] = set(typed["cards"])
            effects.append(fx.HandRecorded(seat, len(typed["cards"])))
            return effects
        return effects + self._choose_menu(current, seat, typed["menu"])

    def _open_round(self) -> RoundState:
        number = len(self.progress.rounds) + 1
        dealer = self.game.dealer_of(number)
        deal = self.game.deal_sizes(dealer)
        current = RoundState(number, dealer, self.game.next_seat(dealer), deal, list(deal))
        self.progress.rounds.append(current)
        return current

    def _choose_menu(self, current: RoundState, seat: int, menu: str) -> list[fx.Effect]:
        current.choices[seat] = menu
        sequential = self.game.rules.menu_reveal == "sequential"
        effects: list[fx.Effect] = []
        if sequential:
            self.progress.used_menus[seat].add(menu)
            effects.append(fx.MenuRevealed(seat, menu))
        else:
            effects.append(fx.MenuChosen(seat))
        if len(current.choices) < len(self.players):
            return effects
        current.revealed = True
        if not sequential:
            for chooser, chosen in current.choices.items():
                self.progress.used_menus[chooser].add(chosen)
            effects.append(fx.MenusRevealed(dict(current.choices)))
        self.progress.phase = "play"
        self.progress.turn = current.first
        self.progress.pot = Pot()
        effects.append(fx.PlayBegins(current.number, current.first))
        return effects

    def _play(self, played: Card) -> list[fx.Effect]:
        state = self.progress
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
            state.turn = self.game.next_seat(seat)
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
        self.progress.revokes.append(revoke)
        return revoke

    def _end_round(self, current: RoundState) -> list[fx.Effect]:
        state = self.progress
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
        if self.progress.phase != "game_over":
            return []
        top = max(self.progress.stars)
        return [seat for seat, stars in enumerate(self.progress.stars) if stars == top]
