"""The robot's strength for its thinking time, in duplicate, added up across runs (bench_robot.py --duel).

A candidate (the chef at some think-ms) and a control (the frozen flat PIMC of benchmarks/baseline_flat_pimc
at the same think-ms, or the chef at another think-ms) sit in turn in the same seat of the same deal, the
other seats held by the same opponents with the same seeds; the candidate's score less the control's is one
paired difference. Every game played is appended to a results file (JSON Lines), so that runs add up
across sessions; a game already there is not played again. The summary pools every recorded pair: the
mean difference with its standard error over deals (a deal's seats share its cards, so a deal's pairs are
averaged first) and the number of deals.

Opponents, none of which the chef was tuned on: `random`, the rule-based player (`heuristic`), the frozen
flat PIMC with a small budget (`pimc8`: 8 worlds, rule-based playouts, not the chef's fitted ones) and the
chef with 23919bc's cap on its playouts at 50 ms (`chef-capped@50`: 0.6 worlds per answer per think-ms, but
the Chaud Devant playout cost 1.1 of the sixth and seventh runs, kept as it was when `chef-4` changed it; the
first runs named it `chef-23919bc@50`, renamed in the results file). `chef-4` is today's chef, `chef-3` the one
before it (`as_chef_3`).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from benchmarks.baseline_flat_pimc import flat_pimc as frozen_flat_pimc
from benchmarks.baseline_flat_pimc import position_of as frozen_position_of
from companion.buffet import arena as buffet_arena
from companion.chaud_devant import arena as chaud_arena
from companion.chaud_devant.robot import Position as ChaudPosition
from companion.robots import LEVEL_SETTINGS, RobotAsk, SearchCost, choose, decide, position_of, sequential_halving
from marmite.games import GAMES

Player = Callable[[RobotAsk], dict[str, Any]]
RESULTS = Path(__file__).resolve().parent / "results" / "robot_duel.jsonl"
PLAYERS = 4
ROUNDS = 5
"""Chaud Devant rounds per duel game: the whole game, as the chef plays it (it keeps menus for the rounds
ahead: cut games would count that against it)."""
CHEF_VERSION = "chef-4"
"""The chef's name in the results: a new chef gets a new name, so its games never pool with an older one's."""
CHEF_3 = "chef-3"
"""The chef before (issue 31's seventh run): today's code with its Chaud Devant settings put back (`as_chef_3`)."""
FROZEN_SHARE = 1.2
"""The frozen flat PIMC's share of think-ms at a duel: its playouts sized, like the chef's, to end by about
80 % of the allowance (measured: `bench_robot.py --answer-times`)."""


def random_player(seed: int) -> Player:
    rng = random.Random(seed)
    return lambda ask: dict(rng.choice(list(position_of(GAMES, ask).choices)))


def heuristic_player(seed: int) -> Player:
    rng = random.Random(seed)

    def play(ask: RobotAsk) -> dict[str, Any]:
        position = position_of(GAMES, ask)
        return dict(position.choices[position.heuristic(rng)])

    return play


def frozen_pimc_player(worlds: int | None, think_ms: int = 0) -> Callable[[int], Player]:
    """The frozen flat PIMC: a fixed number of worlds, or (None) as many as `think_ms` buys it, sized by its
    own calibration (`rollouts_per_ms`) at FROZEN_SHARE of the allowance; its clock never cuts it."""

    def make(seed: int) -> Player:
        rng = random.Random(seed)

        def play(ask: RobotAsk) -> dict[str, Any]:
            position = frozen_position_of(GAMES, ask)
            count = len(position.choices)
            if count == 1:
                return dict(position.choices[0])
            budget = worlds or max(1, int(think_ms * FROZEN_SHARE * position.rollouts_per_ms) // count)
            return dict(position.choices[frozen_flat_pimc(position, rng, budget, math.inf)])

        return play

    return make


def chef_player(think_ms: int) -> Callable[[int], Player]:
    """Today's chef at `think_ms`, never cut by its clock (an idle machine's answers)."""

    def make(seed: int) -> Player:
        counter = iter(range(10**9))
        return lambda ask: decide(GAMES, ask, level="chef", seed=seed * 1000 + next(counter), think_ms=think_ms,
                                  deadline=math.inf).event

    return make


def as_chef_3(position: Any) -> Any:
    """A Chaud Devant position searched as `chef-3` did (its playouts counted at 1.1, the reading's hands in the
    order the cards were played); a buffet position as it is (its chef did not change)."""
    if isinstance(position, ChaudPosition):
        position.search_cost, position.sort_hands = 1.1, False
    return position


def chef_3_player(think_ms: int) -> Callable[[int], Player]:
    """`chef-3` at `think_ms`, never cut by its clock: `companion.robots.choose` with its Chaud Devant settings."""

    def make(seed: int) -> Player:
        counter = iter(range(10**9))

        def play(ask: RobotAsk) -> dict[str, Any]:
            rng = random.Random(seed * 1000 + next(counter))
            position = as_chef_3(position_of(GAMES, ask))
            return dict(position.choices[choose(position, LEVEL_SETTINGS["chef"], rng, think_ms, math.inf)])

        return play

    return make


def earlier_chef_player(think_ms: int, *, as_at_23919bc: bool = True) -> Callable[[int], Player]:
    """The chef sized as at 23919bc: 0.6 worlds per answer per think-ms (of 0.7 of it), its budget divided by
    its playouts' cost, then 2.5 in Chaud Devant (its search itself is today's sequential halving, unchanged
    since). Without `as_at_23919bc`, divided by `chef-3`'s cost (1.1): `chef-capped`, the pool's earlier chef."""

    def make(seed: int) -> Player:
        counter = iter(range(10**9))

        def play(ask: RobotAsk) -> dict[str, Any]:
            position = as_chef_3(position_of(GAMES, ask))
            count = len(position.choices)
            if count == 1:
                return dict(position.choices[0])
            budget = max(count, int(think_ms * 0.7 * position.rollouts_per_ms))
            budget = max(count, min(budget, int(count * think_ms * 0.6)))
            if isinstance(position, SearchCost):
                cost = position.search_cost
                if as_at_23919bc and ask.log[0].get("game", "chaud_devant") == "chaud_devant":
                    cost = 2.5
                budget = max(count, int(budget / cost))
            rng = random.Random(seed * 1000 + next(counter))
            return dict(position.choices[sequential_halving(position, rng, budget, math.inf)])

        return play

    return make


OPPONENTS: dict[str, Callable[[int], Player]] = {
    "random": random_player,
    "heuristic": heuristic_player,
    "pimc8": frozen_pimc_player(8),
    "chef-capped@50": earlier_chef_player(50, as_at_23919bc=False),
}


def player_of(name: str) -> Callable[[int], Player]:
    """A seat's player from its name in the results: `chef-2@300`, `frozen-pimc@300`, `chef-23919bc@300`."""
    kind, _, ms = name.partition("@")
    if kind == CHEF_VERSION:
        return chef_player(int(ms))
    if kind == CHEF_3:
        return chef_3_player(int(ms))
    if kind == "frozen-pimc":
        return frozen_pimc_player(None, int(ms))
    if kind == "chef-23919bc":
        return earlier_chef_player(int(ms))
    return OPPONENTS[name]


def score(game: str, seats: list[Player], deal: int) -> list[float]:
    """Each seat's score on this deal: stars per round, or plate points for the game."""
    rng = random.Random(deal)
    if game == "chaud_devant":
        result = chaud_arena.play_game(seats, rng, rounds=ROUNDS)
        return [statistics.fmean(points[seat] for points in result.points) for seat in range(len(seats))]
    return [float(points) for points in buffet_arena.play_game(seats, rng).scores]


def recorded(path: Path = RESULTS) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def play_one(game: str, deal: int, seat: int, opponent: str, player: str, path: Path = RESULTS) -> dict[str, Any]:
    """Play `player` in `seat` of `deal` against `opponent` in the other seats; append the game to `path`."""
    seats = [OPPONENTS[opponent](deal * 10 + s) for s in range(PLAYERS)]
    spent: list[float] = []
    own = player_of(player)(deal * 10 + seat)

    def timed(ask: RobotAsk) -> dict[str, Any]:
        started = time.process_time()
        event = own(ask)
        spent.append((time.process_time() - started) * 1000)
        return event

    seats[seat] = timed
    points = score(game, seats, deal)[seat]
    row = {"game": game, "deal": deal, "seat": seat, "opponent": opponent, "player": player, "score": points,
           "rounds": ROUNDS if game == "chaud_devant" else None, "answers": len(spent),
           "cpu_ms_mean": round(statistics.fmean(spent), 1) if spent else 0.0}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
    return row


def key(row: dict[str, Any]) -> tuple[Any, ...]:
    return row["game"], row["deal"], row["seat"], row["opponent"], row["player"], row.get("rounds")


def run(games: Iterable[str], players: list[str], opponents: list[str], deals: range, every_seat: bool,
        all_opponents: bool = False, path: Path = RESULTS) -> None:
    """Play each player in a deal's seat (turning with the deal, or every seat) against its opponent (turning
    every PLAYERS deals, or every opponent), skipping games already recorded."""
    done = {key(row) for row in recorded(path)}
    for game in games:
        rounds = ROUNDS if game == "chaud_devant" else None
        for deal in deals:
            turning = [opponents[(deal // PLAYERS) % len(opponents)]]
            for seat in range(PLAYERS) if every_seat else [deal % PLAYERS]:
                for opponent in opponents if all_opponents else turning:
                    for player in players:
                        if (game, deal, seat, opponent, player, rounds) not in done:
                            play_one(game, deal, seat, opponent, player, path)


def paired(rows: list[dict[str, Any]], game: str, candidate: str, control: str,
           opponent: str | None = None) -> tuple[float, float, int, int]:
    """Candidate less control over every recorded pair (same game, deal, seat, opponent, rounds): the mean
    of the deals' mean differences, its standard error, the number of deals and of pairs."""
    scores: dict[tuple[Any, ...], dict[str, float]] = defaultdict(dict)
    for row in rows:
        if row["game"] == game and (opponent is None or row["opponent"] == opponent):
            scores[(row["deal"], row["seat"], row["opponent"], row.get("rounds"))][row["player"]] = row["score"]
    by_deal: dict[Any, list[float]] = defaultdict(list)
    for (deal, *_), players in scores.items():
        if candidate in players and control in players:
            by_deal[deal].append(players[candidate] - players[control])
    means = [statistics.fmean(values) for values in by_deal.values()]
    pairs = sum(len(values) for values in by_deal.values())
    if len(means) < 2:
        return (means[0] if means else math.nan), math.nan, len(means), pairs
    return statistics.fmean(means), statistics.stdev(means) / math.sqrt(len(means)), len(means), pairs


def summary(comparisons: list[tuple[str, str]], path: Path = RESULTS, deals: range | None = None) -> None:
    """Print every comparison pooled over all recorded games (or those of `deals`), overall and per opponent."""
    rows = recorded(path)
    if deals is not None:
        rows = [row for row in rows if row["deal"] in deals]
    opponents = sorted({row["opponent"] for row in rows})
    within = f", deals {deals.start}–{deals.stop - 1}" if deals is not None else ""
    print(f"Pooled over {path.name} ({len(rows)} games recorded{within}). Candidate − control, mean ± SE over deals "
          "[deals, pairs]; stars per round (Chaud Devant) or plate points per game (buffet).\n")
    print(f"| game | candidate − control | all opponents | {' | '.join(opponents)} |")
    print("|---|---|---|" + "---|" * len(opponents))
    for game in ("chaud_devant", "buffet"):
        for candidate, control in comparisons:
            cells = [_cell(paired(rows, game, candidate, control))]
            cells += [_cell(paired(rows, game, candidate, control, name)) for name in opponents]
            if cells[0] != "n/a":
                print(f"| {game} | {candidate} − {control} | {' | '.join(cells)} |")
    print()


def _cell(figures: tuple[float, float, int, int]) -> str:
    mean, se, deals, pairs = figures
    if not pairs:
        return "n/a"
    return f"{mean:+.2f} ± {se:.2f} [{deals}, {pairs}]"


def answer_times(players: list[str], think: list[int], samples: int = 60, speed: float = 1.0,
                 games: tuple[str, ...] = ("chaud_devant", "buffet")) -> None:
    """CPU (process time) and wall time of one answer, p50/p95/max, per player and think-ms, over requests
    of both games between rule-based players (requests with one legal answer left out: they take no search).
    With `speed` below 1 (`marmite robot --speed`), each player searches round(think-ms × speed), as the robot
    does, and the times are given as a machine that much slower would take them (measured ÷ speed)."""
    print(f"speed {speed}: times as on a machine {speed} × as fast (measured here ÷ {speed})\n")
    print("| game | player | answers | CPU ms p50 p95 max | CPU / think-ms at p95, max | wall ms p50 p95 max |")
    print("|---|---|---|---|---|---|")
    for game in games:
        asks: list[RobotAsk] = []
        for number in range(3):
            seats = [heuristic_player(seat) for seat in range(PLAYERS)]
            rng = random.Random(99 + number)
            asks += (chaud_arena.play_game(seats, rng).asks if game == "chaud_devant"
                     else buffet_arena.play_game(seats, rng).asks)
        asks = [ask for ask in asks if len(position_of(GAMES, ask).choices) > 1]
        asks = asks[:: max(1, len(asks) // samples)]
        for ms in think:
            for name in players:
                play = player_of(f"{name}@{max(1, round(ms * speed))}")(7)
                cpu, wall = [], []
                for ask in asks:
                    started, clock = time.process_time(), time.perf_counter()
                    play(ask)
                    cpu.append((time.process_time() - started) * 1000 / speed)
                    wall.append((time.perf_counter() - clock) * 1000 / speed)
                cpu.sort()
                print(f"| {game} | {name}@{ms} | {len(cpu)} | {_spread(cpu)} | {_at(cpu, 0.95) / ms:.2f}, "
                      f"{cpu[-1] / ms:.2f} | {_spread(sorted(wall))} |", flush=True)
    print()


def _at(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _spread(ordered: list[float]) -> str:
    return f"{_at(ordered, 0.5):.0f} {_at(ordered, 0.95):.0f} {ordered[-1]:.0f}"
