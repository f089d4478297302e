"""Properties of the robot over random positions of both games: legal answers the referee accepts,
refusals (never crashes) for what is not the seat's decision, determinism for a seed, and that it
sees only its seat's information set."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.buffet.arena import play_game as buffet_game
from companion.chaud_devant.cards import ALL_CODES
from companion.chaud_devant.simulate import simulate
from companion.chaud_devant.state import State as ChaudState
from companion.referee import Referee
from companion.robots import GUARD_MS, LEVELS, Decision, RobotAsk, RobotRefusal, decide, stop_by
from marmite.games import GAMES
from marmite.robot_command import parse_request

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
THINK_MS = 20  # a small search: the properties hold whatever the budget


def ask_robot(ask: RobotAsk, *, level: str = "chef", seed: int = 0) -> Decision:
    """A decision with no clock in the way (the determinism under test is the search's)."""
    return decide(GAMES, ask, level=level, seed=seed, think_ms=THINK_MS, deadline=math.inf)


def replayed(log: list[dict[str, Any]]) -> Referee:
    referee = Referee(GAMES)
    for event in log:
        referee.apply(event)
    return referee


# ----------------------------------------------------------------------------- positions


def chaud_asks(seed: int, players: int, reveal: str, edition: str, known: bool = False) -> list[RobotAsk]:
    """Every decision of a simulated Chaud Devant game, with the seat's true hand at that moment."""
    known_hands = range(players) if known else ()
    game = simulate(random.Random(seed), players=players, menu_reveal=reveal,  # type: ignore[arg-type]
                    edition=edition, known_hands=known_hands)  # type: ignore[arg-type]
    referee = Referee(GAMES)
    log: list[dict[str, Any]] = []
    asks = []
    for event in game.events:
        state = referee.state
        if isinstance(state, ChaudState) and event["type"] in ("menu", "card"):
            seat = state.players.index(event["player"]) if event["type"] == "menu" else state.progress.turn
            assert seat is not None
            current = state.progress.open_round
            played = current.played if current is not None else set()
            hand = tuple(code for code in game.deals[state.round_number - 1][seat] if code not in played)
            asks.append(RobotAsk(list(log), state.players[seat], hand))
        referee.apply(event)
        log.append(event)
    return asks


def buffet_asks(seed: int, players: int, rounds: int) -> list[RobotAsk]:
    """Every request of a few buffet rounds played by random players (cards and first-leaver swaps)."""
    rng = random.Random(seed)

    def random_player(ask: RobotAsk) -> dict[str, Any]:
        if ask.ask == "swap":
            return {"type": "swap", "cards": sorted(ask.hand)[: rng.randrange(len(ask.hand) + 1)]}
        return {"type": "card", "card": rng.choice(ask.hand)}

    return buffet_game([random_player] * players, random.Random(seed), max_rounds=rounds).asks


chaud_cases = st.tuples(st.integers(0, 10_000), st.integers(3, 5), st.sampled_from(["simultaneous", "sequential"]),
                        st.sampled_from(["2005", "2023"]), st.integers(0, 10_000))
buffet_cases = st.tuples(st.integers(0, 10_000), st.integers(3, 6), st.integers(1, 2), st.integers(0, 10_000))


def pick(asks: list[RobotAsk], index: int) -> RobotAsk:
    return asks[index % len(asks)]


# ----------------------------------------------------------------------------- legal answers


def check_chaud_answer(ask: RobotAsk, decision: Decision) -> None:
    referee = replayed(ask.log)
    state = referee.state
    assert isinstance(state, ChaudState)
    event = decision.event
    assert referee.decide(event) is None, event
    if event["type"] == "card":
        legal = [action["card"] for action in state.legal_actions(hand=ask.hand)]
        assert event["card"] in legal
    else:
        assert event["player"] == ask.seat
    assert decision.why is not None
    assert state.voice().render([decision.why], "fr")


@SETTINGS
@given(chaud_cases, st.sampled_from(LEVELS))
def test_chaud_devant_answers_are_legal_and_accepted(case: tuple[int, int, str, str, int], level: str) -> None:
    seed, players, reveal, edition, index = case
    ask = pick(chaud_asks(seed, players, reveal, edition), index)
    check_chaud_answer(ask, ask_robot(ask, level=level, seed=seed))


@SETTINGS
@given(buffet_cases, st.sampled_from(LEVELS))
def test_buffet_answers_are_cards_of_the_hand_and_accepted(case: tuple[int, int, int, int], level: str) -> None:
    seed, players, rounds, index = case
    ask = pick(buffet_asks(seed, players, rounds), index)
    decision = ask_robot(ask, level=level, seed=seed)
    event = decision.event
    if ask.ask == "swap":
        assert event["type"] == "swap"
        hand = list(ask.hand)
        for code in event["cards"]:
            hand.remove(code)  # every card given is one the seat holds (repeats counted)
    else:
        assert event["type"] == "card" and event["card"] in ask.hand
        assert replayed(ask.log).decide(event) is None
    state = replayed(ask.log).state
    assert state is not None and decision.why is not None
    assert state.voice().render([decision.why], "nl")


def test_every_decision_kind_is_covered() -> None:
    """Menus (both reveals), cards, buffet cards and swaps all come up in the positions above."""
    kinds = {ask_robot(ask, level="debutant").event["type"] for ask in chaud_asks(1, 4, "sequential", "2005")[:20]}
    assert kinds == {"menu", "card"}
    asks = buffet_asks(2, 4, 2)
    assert any(ask.ask == "swap" for ask in asks) and any(ask.ask is None for ask in asks)


# ----------------------------------------------------------------------------- determinism


@SETTINGS
@given(chaud_cases, buffet_cases, st.integers(0, 2**31))
def test_same_seed_same_answer(chaud: tuple[int, int, str, str, int], buffet: tuple[int, int, int, int],
                               seed: int) -> None:
    for ask in (pick(chaud_asks(*chaud[:4]), chaud[4]), pick(buffet_asks(*buffet[:3]), buffet[3])):
        assert ask_robot(ask, seed=seed) == ask_robot(ask, seed=seed)


# ----------------------------------------------------------------------------- information sets


def with_hands(ask: RobotAsk, hands: dict[str, list[str]]) -> RobotAsk:
    """The same request with `hand` events for other seats inserted right after the round's opening."""
    log = list(ask.log)
    referee = replayed(log)
    state = referee.state
    assert isinstance(state, ChaudState)
    events = [{"type": "hand", "player": name, "cards": cards} for name, cards in hands.items()]
    # a round opens with its first hand or menu event: insert before that event
    opened = len(log)
    count = 0
    for position, event in enumerate(log):
        if event["type"] in ("hand", "menu") and (position == 0 or log[position - 1]["type"] == "card"
                                                   or log[position - 1]["type"] == "new_game"):
            opened, count = position, count + 1
    if count < state.round_number:  # the round is not open yet: its first event will be ours
        opened = len(log)
    return RobotAsk(log[:opened] + events + log[opened:], ask.seat, ask.hand, ask.ask)


@SETTINGS
@given(st.integers(0, 10_000), st.integers(3, 5), st.integers(0, 10_000))
def test_chaud_devant_other_hands_do_not_change_the_answer(seed: int, players: int, index: int) -> None:
    """Two different worlds (other seats' hands given as known hands, true in one and dealt otherwise
    in the other) with the same information set: the same answer for the same seed."""
    menu_asks = [ask for ask in chaud_asks(seed, players, "simultaneous", "2005")
                 if ask.log[-1]["type"] != "card" and all(e["type"] != "card" for e in ask.log[-players:])]
    ask = pick(menu_asks, index)
    state = replayed(ask.log).state
    assert isinstance(state, ChaudState)
    names = [name for name in state.players if name != ask.seat]
    dealer = state.game.dealer_of(state.round_number)
    sizes = state.game.deal_sizes(dealer)
    rest = [code for code in ALL_CODES if code not in ask.hand]
    worlds = []
    for shuffle_seed in (1, 2):
        random.Random(seed * 7 + shuffle_seed).shuffle(rest)
        hands, start = {}, 0
        for name in names:
            size = sizes[state.players.index(name)]
            hands[name] = rest[start:start + size]
            start += size
        worlds.append(with_hands(ask, hands))
    assert worlds[0].log != worlds[1].log
    for world in worlds:  # both worlds are logs the referee accepts whole
        referee = Referee(GAMES)
        assert all(referee.apply(event).accepted for event in world.log)
    answers = {json.dumps(ask_robot(world, seed=seed).event) for world in [ask, *worlds]}
    assert len(answers) == 1


@SETTINGS
@given(st.integers(0, 10_000), st.integers(3, 5), st.integers(0, 10_000))
def test_chaud_devant_hidden_menus_do_not_change_the_answer(seed: int, players: int, index: int) -> None:
    """Simultaneous menus: what the others chose (and changed their minds about) is hidden until the
    reveal; two different hidden choices give the robot the same answer."""
    asks = chaud_asks(seed, players, "simultaneous", "2005")
    waiting = [ask for ask in asks if ask.log[-1]["type"] == "menu" and asks and ask.log[-1]["player"] != ask.seat]
    if not waiting:
        return
    ask = pick(waiting, index)
    last = ask.log[-1]
    other = {"pea": "onion", "onion": "pea", "mushroom": "pepper", "pepper": "none", "none": "mushroom"}[last["menu"]]
    changed = [*ask.log[:-1], {**last, "menu": other}, last, {**last, "menu": other}]
    world = RobotAsk(changed, ask.seat, ask.hand)
    referee = Referee(GAMES)
    outcomes = [referee.apply(event).accepted for event in world.log]
    if not all(outcomes):  # that menu was used in an earlier round: no second world here
        return
    assert ask_robot(ask, seed=seed) == ask_robot(world, seed=seed)


@SETTINGS
@given(buffet_cases)
def test_buffet_cards_of_the_step_do_not_change_the_answer(case: tuple[int, int, int, int]) -> None:
    """A step's cards are face down: a request made after some of them were turned over gets the
    answer of the request made as the step began."""
    seed, players, rounds, index = case
    asks = [ask for ask in buffet_asks(seed, players, rounds) if ask.ask is None]
    ask = pick(asks, index)
    referee = replayed(ask.log)
    state = referee.state
    assert state is not None
    order = state.in_round  # type: ignore[attr-defined]
    position = order.index(state.players.index(ask.seat))
    later = list(ask.log)
    for _ in range(position):  # the mice before this one reveal some cards
        later.append({"type": "card", "card": random.Random(seed).choice(["mouse-2", "mouse-9", "mouse-n1"])})
    if position:
        assert replayed(later).state.step.reveals  # type: ignore[union-attr]
    assert ask_robot(ask, seed=seed) == ask_robot(RobotAsk(later, ask.seat, ask.hand), seed=seed)


# ----------------------------------------------------------------------------- refusals


def refusal(ask: RobotAsk) -> RobotRefusal:
    with pytest.raises(RobotRefusal) as caught:
        ask_robot(ask)
    error = caught.value
    assert str(error) and "\n" not in str(error) and error.reason
    return error


@SETTINGS
@given(chaud_cases)
def test_chaud_devant_refuses_a_seat_not_due_and_a_hand_the_log_contradicts(
    case: tuple[int, int, str, str, int],
) -> None:
    seed, players, reveal, edition, index = case
    ask = pick(chaud_asks(seed, players, reveal, edition), index)
    state = replayed(ask.log).state
    assert isinstance(state, ChaudState)
    if state.progress.phase == "play":
        other = state.players[(state.players.index(ask.seat) + 1) % players]
        assert refusal(RobotAsk(ask.log, other, ask.hand)).reason == "not_due"
        current = state.progress.open_round
        assert current is not None
        if current.played:
            played = sorted(current.played)[0]
            assert refusal(RobotAsk(ask.log, ask.seat, (*ask.hand[1:], played))).reason == "bad_hand"
    spare = [code for code in ALL_CODES if code not in ask.hand]
    assert refusal(RobotAsk(ask.log, ask.seat, (*ask.hand, spare[0]))).reason == "bad_hand"
    assert refusal(RobotAsk(ask.log, ask.seat, ())).reason == "no_hand"
    assert refusal(RobotAsk(ask.log, ask.seat, ask.hand, "swap")).reason == "bad_ask"


def test_chaud_devant_refuses_a_card_in_another_known_hand() -> None:
    ask = chaud_asks(5, 4, "simultaneous", "2005", known=True)[0]
    state = replayed(ask.log).state
    assert isinstance(state, ChaudState)
    current = state.progress.open_round
    assert current is not None
    other = next(hand for seat, hand in current.hands.items() if state.players[seat] != ask.seat)
    stolen = (*ask.hand[1:], sorted(other)[0])
    assert refusal(RobotAsk(ask.log, ask.seat, stolen)).reason == "bad_hand"


@SETTINGS
@given(buffet_cases)
def test_buffet_refuses_what_is_not_the_seat_decision(case: tuple[int, int, int, int]) -> None:
    seed, players, rounds, index = case
    ask = pick(buffet_asks(seed, players, rounds), index)
    state = replayed(ask.log).state
    assert state is not None
    if ask.ask is None:
        outside = [name for seat, name in enumerate(state.players) if seat not in state.in_round]  # type: ignore[attr-defined]
        for name in outside:
            assert refusal(RobotAsk(ask.log, name, ask.hand)).reason == "not_due"
        assert refusal(RobotAsk(ask.log, ask.seat, (*ask.hand, *["mouse-1"] * 10))).reason == "bad_hand"
        assert refusal(RobotAsk(ask.log, ask.seat, ())).reason == "no_hand"
    else:
        first = state.current_round.departures[0].seat  # type: ignore[attr-defined]
        others = [name for seat, name in enumerate(state.players) if seat != first]
        assert refusal(RobotAsk(ask.log, others[0], ask.hand, "swap")).reason == "not_due"
    laying = [event for event in ask.log if event["type"] != "card"]  # no card: the buffet is being laid
    if len(laying) < len(ask.log):
        assert refusal(RobotAsk(laying[:2], ask.seat, ask.hand)).reason == "not_due"


def test_unknown_game_and_unknown_player_are_refused() -> None:
    setup = {"type": "new_game", "game": "chess", "players": ["Ana", "Ben", "Cléo"], "dealer": "Ana"}
    assert refusal(RobotAsk([setup], "Ana", ("pea-1a",))).reason == "unknown_game"
    ask = chaud_asks(3, 3, "simultaneous", "2005")[5]
    assert refusal(RobotAsk(ask.log, "Zoé", ask.hand)).reason == "unknown_player"
    assert refusal(RobotAsk([{"type": "card", "card": "pea-1a"}], "Ana", ("pea-1a",))).reason == "no_game"


json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(
        ["card", "menu", "new_game", "buffet", "Ana", "pea-1a", "mouse-3", "swap", "plate", "hand", "undo"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "players", "dealer", "first", "game", "card", "menu", "player", "log", "seat",
                         "hand", "ask", "cards", "plate"]), inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(st.one_of(json_values.map(json.dumps), st.text(max_size=40)))
def test_garbage_requests_are_refused_never_crash(line: str) -> None:
    try:
        ask = parse_request(line, RobotAsk)
        ask_robot(ask)
    except RobotRefusal as error:
        assert str(error) and "\n" not in str(error)


def test_robot_refusal_is_a_value_error_with_a_stable_reason() -> None:
    error = RobotRefusal("not_due", "it is Ana's turn, not Ben's")
    assert isinstance(error, ValueError) and error.reason == "not_due" and str(error) == "it is Ana's turn, not Ben's"



@pytest.mark.parametrize(("count", "rounds"), [(1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (13, 4)])
def test_sequential_halving_rounds_end_with_one_answer(count: int, rounds: int) -> None:
    from companion.robots import halvings

    assert halvings(count) == rounds


@pytest.mark.parametrize("think_ms", [20, 50, 100, 150, 300, 1000, 3000])
def test_the_guard_leaves_the_search_more_than_the_80_percent_it_is_sized_for(think_ms: int) -> None:
    """The chef's playouts are sized to end by about 80 % of think-ms on the calibration machine, so the
    deadline (a guard for slower machines) must come after that, or idle answers would be cut by the clock."""
    deadline_ms = stop_by(0.0, think_ms) * 1000
    assert deadline_ms >= 0.9 * think_ms - 1e-9
    assert deadline_ms <= think_ms - min(GUARD_MS, 2)  # still a guard: the search stops before think-ms
