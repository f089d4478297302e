"""Robots: a seat Marmite plays, for any game that opts in (game-agnostic; imports no game).

The shape follows OpenSpiel's bots: a robot sees only its seat's information set, owns a seeded
random-number generator and a budget, and searches on worlds the game samples for it. The game
opts in, as it does for `tag_name` and `deal_plan`, with `robot_position(state, actions, ask)`:
from the table's state and the accepted actions it builds a `Position` (the seat's legal answers,
worlds consistent with what the seat knows, a rule-based choice), refusing with `RobotRefusal`
when the request is not the seat's decision or its hand contradicts the log.

The search is Perfect Information Monte Carlo (sample a world, play each answer out with the
game's rollout policy, keep the best average): flat for the middle level, with sequential halving
and common random numbers for the chef, whose search is sized to use its allowance (about 80 % of `think_ms`
on the benchmark machine), whose worlds are the game's `search_world` (the game's own rollout policy for its chef,
possibly played past the horizon the flat PIMC stops at) and whose playouts take a world's lean
`run_out` when it has one; a Position whose chef's playouts cost more than rule-based ones says so
(`SearchCost`) and the chef's budget shrinks to match; one that can model each opponent from what
it revealed (`ReadsOpponents`) does so before the chef's search. It is
deterministic for a seed: the number of rollouts is fixed by the level and `think_ms` (calibrated
by the game's `rollouts_per_ms`), and the clock only stops a search that would overrun its
deadline (a much slower machine than the calibration one), which is the one case where two runs
may differ.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from companion.events import EventShapes, MalformedEvent
from companion.referee import Referee
from companion.seam import Games, Part, State

LEVELS: tuple[str, ...] = ("debutant", "cuisinier", "chef")
"""The robot's levels, weakest first (measurably ordered: benchmarks/bench_robot.py)."""

DEFAULT_THINK_MS = 300
GUARD_MS = 30
"""The search stops this long before `think_ms` at the latest (what follows it: the answer, its line), or a
tenth of `think_ms` if that is less: the chef's search is sized to end by about 80 % of it (LEVEL_SETTINGS),
so the guard must come later, or an idle machine's answer would be cut and depend on the clock."""


class RobotRefusal(ValueError):
    """A request the robot cannot answer: `str()` is one English line, `reason` a stable key."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class RobotAsk:
    """One request: the game's log so far, the seat, its hand now, and what is asked (None, "swap")."""

    log: list[dict[str, Any]]
    seat: str
    hand: tuple[str, ...]
    ask: str | None = None


@dataclass(frozen=True)
class Decision:
    """The event the seat plays, and a one-sentence reason the game's voice can say (or None)."""

    event: dict[str, Any]
    why: Part | None


class World(Protocol):
    """One determinization: a full state the search may copy and play out (OpenSpiel's names)."""

    noise: float
    """The rollout policy's chance of a random legal move instead of its rule-based one."""

    own_noise: float | None
    """The same for the robot seat's own later moves (None: `noise`, as for every seat)."""

    def clone(self) -> World: ...

    def apply_root(self, choice: int) -> None:
        """The robot seat plays its `choice`-th answer."""
        ...

    def is_terminal(self) -> bool: ...

    def rollout_step(self, rng: random.Random) -> None:
        """Whoever is due plays by the game's rollout policy."""
        ...

    def returns(self) -> float:
        """What the playout is worth to the robot's seat."""
        ...


@runtime_checkable
class RunsOut(Protocol):
    """Optional for a World: a lean playout to the horizon in one tight loop (the chef's playouts; the flat
    PIMC keeps the steps), agreeing with `rollout_step` wherever `can_run_out` says it may stand for it."""

    def can_run_out(self) -> bool:
        """Whether `run_out` plays this world's rollout settings (its policy and noise)."""
        ...

    def run_out(self, dice: int) -> float:
        """Play to the horizon, with `random.Random(dice)` for any chance on the way; the robot seat's return."""
        ...


class Position(Protocol):
    """A seat's decision as the game sees it, built only from what the seat may see."""

    @property
    def choices(self) -> Sequence[dict[str, Any]]:
        """Every legal answer, as events."""
        ...

    @property
    def rollouts_per_ms(self) -> float:
        """How many playouts of this position the calibration machine runs per millisecond."""
        ...

    def sample(self, rng: random.Random) -> World:
        """A world consistent with the seat's information set (the flat PIMC's: the rule-based rollouts)."""
        ...

    def search_world(self, rng: random.Random) -> World:
        """A world for the chef's search: `sample`'s, with the rollout policy and noise the game's chef uses."""
        ...

    def heuristic(self, rng: random.Random, *, noise: float = 0.0) -> int:
        """The rule-based answer's index (with `noise`, the chance of a random legal answer instead)."""
        ...

    def why(self, choice: int) -> Part | None:
        """A one-sentence reason for this answer."""
        ...


@runtime_checkable
class SearchCost(Protocol):
    """Optional for a Position whose chef's playouts (`search_world`'s worlds) cost more than a rule-based
    playout to the horizon (a slower policy, worlds played on past the round): the chef's budget, sized
    by `rollouts_per_ms` for rule-based playouts, is divided by that cost, so `think_ms` keeps its meaning."""

    @property
    def search_cost(self) -> float:
        """A chef playout's cost relative to a rule-based playout to the horizon."""
        ...


@runtime_checkable
class ReadsOpponents(Protocol):
    """Optional for a Position: before the chef's search, model each opponent from what it revealed."""

    def read_opponents(self, rng: random.Random) -> None: ...


@runtime_checkable
class PlaysRobots(Protocol):
    """Optional for a GameKind: the robot's view of a seat's decision."""

    def robot_position(self, state: State, actions: list[dict[str, Any]], ask: RobotAsk) -> Position: ...


@dataclass(frozen=True, slots=True)
class Level:
    """How a level thinks: the share of `think_ms` its search may use (calibrated by the game's
    `rollouts_per_ms`), at most how many worlds, and how (flat PIMC, or sequential halving); a level
    without search plays the rule-based answer with `heuristic_noise` its chance of a random one."""

    share: float = 0.0
    worlds_cap: int = 0
    halving: bool = False
    heuristic_noise: float | None = None


LEVEL_SETTINGS: dict[str, Level] = {
    "debutant": Level(heuristic_noise=0.3),
    "cuisinier": Level(share=0.1, worlds_cap=10),
    "chef": Level(share=0.85, worlds_cap=100_000, halving=True),
    # share: its playouts sized by the games' calibrations so that, on the benchmark machine, an answer's
    # CPU ends by about 80 % of think-ms (bench_robot.py --answer-times; docs/BENCHMARKS.md, seventh run for
    # the buffet, eighth for Chaud Devant, whose playouts' cost was measured again)
}


def position_of(games: Games, ask: RobotAsk) -> Position:
    """The game's Position for this request, or RobotRefusal (malformed log, unknown game, not due…)."""
    if not isinstance(ask.log, list) or not ask.log:
        raise RobotRefusal("malformed", "log must be a non-empty list of events")
    shapes = EventShapes(games)
    referee = Referee(games)
    for number, event in enumerate(ask.log, start=1):
        try:
            kind = shapes.event_type(event)
        except MalformedEvent as error:
            raise RobotRefusal("malformed", f"log event {number}: {error}") from None
        if kind == "new_game" and referee.kind_of(event) is None:
            raise RobotRefusal("unknown_game", f"log event {number}: unknown game {event.get('game')!r}")
        referee.apply(event)
    if referee.state is None or referee.kind is None:
        raise RobotRefusal("no_game", "the log holds no valid new_game")
    if ask.seat not in referee.state.players:
        raise RobotRefusal("unknown_player", f"{ask.seat!r} is not a player of this game")
    if not isinstance(referee.kind, PlaysRobots):
        raise RobotRefusal("unknown_game", f"no robot plays {referee.kind.name}")
    return referee.kind.robot_position(referee.state, list(referee.actions), ask)


def decide(
    games: Games,
    ask: RobotAsk,
    *,
    level: str = "chef",
    seed: int = 0,
    think_ms: int = DEFAULT_THINK_MS,
    deadline: float | None = None,
) -> Decision:
    """The seat's answer to `ask` at `level`; RobotRefusal if there is none. `think_ms` sets how much
    the search does (a fixed number of playouts, calibrated to take a fraction of it), `deadline` (a
    `time.monotonic()` reading; by default `think_ms` less a guard from now) when it must stop anyway.
    The same arguments give the same answer unless the search had to stop at the deadline: a machine
    far slower or busier than the calibration one."""
    if deadline is None:
        deadline = stop_by(time.monotonic(), think_ms)
    if level not in LEVEL_SETTINGS:
        raise RobotRefusal("unknown_level", f"unknown level {level!r} (one of {', '.join(LEVELS)})")
    position = position_of(games, ask)
    choice = choose(position, LEVEL_SETTINGS[level], random.Random(seed), think_ms, deadline)
    return Decision(dict(position.choices[choice]), position.why(choice))


def stop_by(started: float, think_ms: int) -> float:
    """The search's deadline for a decision asked at `started` (monotonic seconds) with `think_ms`."""
    return started + max(think_ms - min(GUARD_MS, think_ms / 10), 1) / 1000


def choose(position: Position, level: Level, rng: random.Random, think_ms: int, deadline: float) -> int:
    """The index of the answer this level picks."""
    count = len(position.choices)
    if count == 1:
        return 0
    if level.heuristic_noise is not None:
        return position.heuristic(rng, noise=level.heuristic_noise)
    budget = max(count, int(think_ms * level.share * position.rollouts_per_ms))
    if level.halving:
        if isinstance(position, ReadsOpponents):
            position.read_opponents(rng)
        if isinstance(position, SearchCost):
            budget = max(count, int(budget / position.search_cost))
        return sequential_halving(position, rng, budget, deadline)
    return flat_pimc(position, rng, min(level.worlds_cap, max(1, budget // count)), deadline)


def flat_pimc(position: Position, rng: random.Random, worlds: int, deadline: float) -> int:
    """Flat PIMC: every answer played out once on each of `worlds` sampled worlds; the best mean wins."""
    count = len(position.choices)
    totals = [0.0] * count
    played = 0
    for _ in range(worlds):
        if played and time.monotonic() > deadline:
            break
        world = position.sample(rng)
        for choice in range(count):
            totals[choice] += playout(world.clone(), choice, rng)
        played += 1  # a world is played out whole, so that every answer has seen the same worlds
    return _best(totals, [played] * count, position.heuristic(random.Random(0)))


def sequential_halving(position: Position, rng: random.Random, budget: int, deadline: float) -> int:
    """PIMC with sequential halving (Karnin et al.) and common random numbers: the budget is spent in
    rounds; in each, every answer still in contention is played out on the same sampled worlds with the
    same rollout dice, and the worse half is dropped; so rollouts go to the close calls."""
    alive = list(range(len(position.choices)))
    totals = [0.0] * len(alive)
    visits = [0] * len(alive)
    rounds = halvings(len(alive))
    for done in range(rounds):
        spent = sum(visits)
        worlds = max(1, (budget - spent) // ((rounds - done) * len(alive)))
        for _ in range(worlds):
            if visits[alive[-1]] and time.monotonic() > deadline:
                break
            world = position.search_world(rng)
            dice = rng.getrandbits(64)
            lean = runs_out(world) and world.can_run_out()  # type: ignore[attr-defined]
            for choice in alive:
                if visits[alive[-1]] and time.monotonic() > deadline:
                    break
                copy = world.clone()
                if lean:
                    copy.apply_root(choice)
                    totals[choice] += copy.run_out(dice)  # type: ignore[attr-defined]
                else:
                    totals[choice] += playout(copy, choice, random.Random(dice))
                visits[choice] += 1
        alive.sort(key=lambda c: -totals[c] / max(1, visits[c]))
        alive = alive[: (len(alive) + 1) // 2]
    return _best([totals[c] if c in alive else -math.inf for c in range(len(totals))],
                 [max(1, v) for v in visits], position.heuristic(random.Random(0)))


_RUNS_OUT: dict[type, bool] = {}


def runs_out(world: World) -> bool:
    """Whether this kind of world has a lean playout (asked of its type once: protocol checks are slow)."""
    kind = type(world)
    if kind not in _RUNS_OUT:
        _RUNS_OUT[kind] = isinstance(world, RunsOut)
    return _RUNS_OUT[kind]


def halvings(count: int) -> int:
    """How many rounds of keeping the better half (rounded up) bring `count` answers down to one."""
    rounds = 0
    while count > 1:
        count, rounds = (count + 1) // 2, rounds + 1
    return rounds


def playout(world: World, choice: int, rng: random.Random) -> float:
    """Play `choice` then the rollout policy to the world's horizon; the robot seat's return."""
    world.apply_root(choice)
    while not world.is_terminal():
        world.rollout_step(rng)
    return world.returns()


def _best(totals: list[float], visits: list[int], fallback: int) -> int:
    """The answer with the best mean (ties to the rule-based answer, then the first)."""
    means = [total / seen if seen else -math.inf for total, seen in zip(totals, visits, strict=True)]
    top = max(means)
    if means[fallback] == top:
        return fallback
    return means.index(top)
