"""The coach (companion/coach.py): the practice advice's reason, counted over the worlds the seat may imagine,
said in one sentence in fr/en/nl with correct plurals, and blind to every card the seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.buffet.announcer import BuffetVoice
from companion.chaud_devant.announcer import EditionVoice
from companion.chaud_devant.robot_cards import SUITS
from companion.coach import COACH_WORLDS, Reason, often, reason, say
from companion.referee import Referee
from companion.robot_words import RobotVoice, voice_of
from companion.robots import RobotAsk, position_of
from marmite.games import GAMES
from tests.companion.test_robots import ask_robot, buffet_asks, chaud_asks, replayed

CHAUD = RobotVoice(EditionVoice(), EditionVoice())
BUFFET = RobotVoice(BuffetVoice(), BuffetVoice())


@pytest.mark.parametrize(("hits", "worlds", "said"), [
    (24, 24, ("always", {})), (22, 24, ("almost", {})), (18, 24, ("ratio", {"hits": 3, "worlds": 4})),
    (16, 24, ("ratio", {"hits": 2, "worlds": 3})), (12, 24, ("ratio", {"hits": 1, "worlds": 2})),
    (19, 24, ("ratio", {"hits": 4, "worlds": 5})), (8, 24, ("ratio", {"hits": 1, "worlds": 3})),
])
def test_how_often_is_rounded_to_a_small_fraction(hits: int, worlds: int, said: tuple[str, dict[str, int]]) -> None:
    part = often(hits, worlds)
    assert (part.key, part.fields) == ("robot.often_" + said[0], said[1])


@pytest.mark.parametrize(("language", "three", "one"), [
    ("fr", "Oignon 5 vous laisse sans pli dans 3 donnes sur 4.", "Oignon 5 vous laisse sans pli dans 1 donne sur 2."),
    ("en", "Onion 5 leaves you without the trick in 3 deals out of 4.",
     "Onion 5 leaves you without the trick in 1 deal out of 2."),
    ("nl", "Met Ui 5 blijf je zonder slag in 3 van de 4 gevallen.",
     "Met Ui 5 blijf je zonder slag in 1 van de 2 gevallen."),
])
def test_the_sentence_is_said_to_the_player_with_correct_plurals(language: str, three: str, one: str) -> None:
    assert say(Reason("coach_no_trick", "onion-5a", 18, 24), CHAUD, language) == three
    assert say(Reason("coach_no_trick", "onion-5a", 12, 24), CHAUD, language) == one


def test_every_outcome_and_frequency_is_worded_in_every_language() -> None:
    sentences = set()
    for language in ("fr", "en", "nl"):
        for hits in (24, 22, 18, 12):
            for key in ("coach_trick", "coach_no_trick"):
                sentences.add(say(Reason(key, "pea-3a", hits, 24), CHAUD, language))
            for key in ("coach_stay", "coach_plate", "coach_nothing"):
                sentences.add(say(Reason(key, "mouse-n1", hits, 24), BUFFET, language))
    assert len(sentences) == 3 * 4 * 5  # none falls back to another's words
    assert all("{" not in text and text.endswith(".") for text in sentences)
    assert "Avec la souris moins un, vous partez avec une assiette presque à chaque donne." in sentences


def _card_asks(asks: list[RobotAsk]) -> list[tuple[RobotAsk, dict[str, Any]]]:
    """The requests whose answer is a card, each with one of its legal cards (the coach explains any answer)."""
    found = []
    for number, ask in enumerate(asks):
        choices = position_of(GAMES, ask).choices
        if choices[0]["type"] == "card" and ask.ask is None:
            found.append((ask, dict(choices[number % len(choices)])))
    return found


def _other_hands_swapped(ask: RobotAsk) -> RobotAsk | None:
    """The same request where two other seats' known hands of this round trade an unplayed card of one suit
    (so every void and every play stays true): only what the seat cannot see differs; None if none can trade."""
    log = [dict(event) for event in ask.log]
    played = {event["card"] for event in log if event["type"] == "card"}
    last = {event["player"]: index for index, event in enumerate(log) if event["type"] == "hand"}
    others = [name for name in last if name != ask.seat]
    for first, second in ((a, b) for a in others for b in others if a < b):
        mine, theirs = (set(log[last[name]]["cards"]) - played for name in (first, second))
        for suit in SUITS:
            give = sorted(c for c in mine if c.startswith(suit))
            take = sorted(c for c in theirs if c.startswith(suit))
            if give and take:
                a, b = log[last[first]], log[last[second]]
                a["cards"] = sorted({*a["cards"], take[0]} - {give[0]})
                b["cards"] = sorted({*b["cards"], give[0]} - {take[0]})
                return RobotAsk(log, ask.seat, ask.hand, ask.ask)
    return None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 5), st.integers(0, 10_000))
def test_the_reason_never_depends_on_a_hidden_card(seed: int, players: int, index: int) -> None:
    """Two requests differing only in other seats' hands (both true to everything played) get the same count
    and the same sentence."""
    pairs = [(ask, event, other) for ask, event in _card_asks(chaud_asks(seed, players, "simultaneous", "2005",
                                                                         known=True))
             if (other := _other_hands_swapped(ask)) is not None]
    if not pairs:
        return
    ask, event, other = pairs[index % len(pairs)]
    assert other.log != ask.log
    referee = Referee(GAMES)
    assert all(referee.apply(event).accepted for event in other.log)  # the other world is a log the table accepts
    voice = voice_of(replayed(ask.log).state)  # type: ignore[arg-type]
    reasons = [reason(GAMES, request, event, seed) for request in (ask, other)]
    assert reasons[0] is not None and reasons[0] == reasons[1]
    assert len({say(why, voice, language) for why in reasons if why for language in ("fr",)}) == 1


def test_the_reason_is_the_same_for_the_same_seed_and_counts_every_world() -> None:
    ask, event = _card_asks(chaud_asks(11, 4, "simultaneous", "2005"))[6]
    first = reason(GAMES, ask, event, 5)
    assert first is not None and first == reason(GAMES, ask, event, 5) and first.worlds == COACH_WORLDS
    assert first.key in ("coach_trick", "coach_no_trick") and first.card == event["card"]


def test_the_buffet_coach_says_where_the_card_leaves_the_mouse() -> None:
    asks = [ask for ask in buffet_asks(3, 4, 1) if ask.ask is None]
    said = {reason(GAMES, ask, ask_robot(ask).event, 1) for ask in asks[:6]}
    assert all(why is not None and why.key in ("coach_stay", "coach_plate", "coach_nothing") for why in said)


def test_a_menu_or_an_exchange_gets_no_counted_reason() -> None:
    ask = chaud_asks(2, 3, "simultaneous", "2005")[0]  # the first decision: a menu
    event = ask_robot(ask).event
    assert event["type"] == "menu" and reason(GAMES, ask, event, 0) is None
    swaps = [ask for ask in buffet_asks(random.Random(4).randrange(100), 4, 2) if ask.ask == "swap"]
    for ask in swaps[:2]:
        assert reason(GAMES, ask, ask_robot(ask).event, 0) is None
