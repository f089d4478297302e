"""How well and how fast the robot plays: each level against three baselines, in both games, one run.

Baselines: a random legal player, the rule-based heuristic (the robots' rollout policy, played
straight), and a flat PIMC (50 sampled worlds, every answer rolled out once per world with the
heuristic). Each level sits in one seat of a table of one baseline (the seat turns with the deal);
the same deal is also played by the baseline alone (a duplicate), so the figure "vs same seat" is the
level's score less what the baseline scored in that seat on that deal, which takes the luck of the
cards out. Scores: stars per round for Chaud Devant (the round's points, before the floor at 0),
plate points per game for Sus au buffet !. Means with their standard error (SE = sd/sqrt(n)).

Decision times (wall and CPU) are per level and per flat PIMC; the chef is also run at "equal
time": with the `--think-ms` that makes its mean decision as long as the flat PIMC's. Memory: the
RSS a `marmite run` process gains by importing the robot and making one decision in each game.

Usage: .venv/bin/python benchmarks/bench_robot.py [--games N] [--think-ms MS] [--only chaud_devant|buffet]
[--every-seat] (quick default: 6 deals per game and table, the level in one seat turning with the deal;
with --every-seat it plays every seat of each deal; docs/BENCHMARKS.md gives the commands of its figures).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import robot_duel  # noqa: E402
from companion.buffet import arena as buffet_arena  # noqa: E402
from companion.chaud_devant import arena as chaud_arena  # noqa: E402
from companion.robots import RobotAsk, decide, flat_pimc, position_of  # noqa: E402
from marmite.games import GAMES  # noqa: E402

Player = Callable[[RobotAsk], dict[str, Any]]
Factory = Callable[[int], Player]  # a player for one game, from that game's seed
PIMC_WORLDS = 50
PLAYERS = {"chaud_devant": 4, "buffet": 4}


class Clock:
    """Decision times of one player kind: wall and CPU (this thread), in ms."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def timed(self, play: Player) -> Player:
        def run(ask: RobotAsk) -> dict[str, Any]:
            wall, cpu = time.perf_counter(), time.thread_time()
            event = play(ask)
            self.cpu.append((time.thread_time() - cpu) * 1000)
            self.wall.append((time.perf_counter() - wall) * 1000)
            return event

        return run


def random_player(seed: int) -> Player:
    rng = random.Random(seed)

    def play(ask: RobotAsk) -> dict[str, Any]:
        return dict(rng.choice(list(position_of(GAMES, ask).choices)))

    return play


heuristic_player = robot_duel.heuristic_player  # the rule-based player, one definition for both benchmarks


def pimc_player(seed: int) -> Player:
    rng = random.Random(seed)

    def play(ask: RobotAsk) -> dict[str, Any]:
        position = position_of(GAMES, ask)
        if len(position.choices) == 1:
            return dict(position.choices[0])
        return dict(position.choices[flat_pimc(position, rng, PIMC_WORLDS, math.inf)])

    return play


def level_player(level: str, think_ms: int, *, clock: bool = True) -> Factory:
    """A level's player; without `clock`, its search is never cut short (its CPU is then its budget's)."""

    def make(seed: int) -> Player:
        counter = iter(range(10**9))

        def play(ask: RobotAsk) -> dict[str, Any]:
            deadline = None if clock else math.inf
            return decide(GAMES, ask, level=level, seed=seed * 1000 + next(counter), think_ms=think_ms,
                          deadline=deadline).event

        return play

    return make


ROUNDS = 5
EVERY_SEAT = False
EQUAL_SCALE = 1.0
FIRST_DEAL = 0


def play(game: str, seats: list[Player], deal: int) -> list[float]:
    """Each seat's score on this deal: mean stars per round, or plate points for the game."""
    rng = random.Random(deal)
    if game == "chaud_devant":
        result = chaud_arena.play_game(seats, rng, rounds=ROUNDS)
        return [statistics.fmean(points[seat] for points in result.points) for seat in range(len(seats))]
    return [float(score) for score in buffet_arena.play_game(seats, rng).scores]


def mean_se(values: list[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:+.2f}" if values else "n/a"
    return f"{statistics.fmean(values):+.2f} ± {statistics.stdev(values) / math.sqrt(len(values)):.2f}"


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "n/a"
    p50, p95 = (ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.95))
    return f"{p50:6.1f} {p95:6.1f} {ordered[-1]:6.1f}"


BASELINES: dict[str, Factory] = {"random": random_player, "heuristic": heuristic_player, "flat PIMC": pimc_player}


def run_game(game: str, games: int, think_ms: int, levels_asked: list[str], baselines: dict[str, Factory]) -> None:
    count = PLAYERS[game]
    unit = f"stars per round (games of {ROUNDS} rounds)" if game == "chaud_devant" else "plate points per game"
    clocks: dict[str, Clock] = {}
    # the baseline alone on every deal (the duplicate); flat PIMC's times give the chef's equal time
    alone: dict[str, list[list[float]]] = {}
    for name, factory in baselines.items():
        clock = clocks.setdefault(name, Clock())
        alone[name] = [play(game, [clock.timed(factory(deal * 10 + s)) for s in range(count)], deal)
                       for deal in range(FIRST_DEAL, FIRST_DEAL + games)]
    levels: dict[str, Factory] = {level: level_player(level, think_ms) for level in levels_asked if level}
    print(f"### {game}: {count} players, {games} deals per table, {unit} (mean ± SE)\n")
    print(f"| level | vs {' | vs '.join(baselines)} |")
    print("|---|" + "---|" * len(baselines))
    for level, make in levels.items():
        cells = row(game, make, clocks.setdefault(level, Clock()), baselines, alone, games)
        print(f"| {level} | {' | '.join(cells)} |", flush=True)
    # equal time, in CPU time (the wall clock of a shared machine measures the neighbours too): the chef's
    # CPU per think-ms, measured without its clock, gives the think-ms whose mean CPU per decision is flat
    # PIMC's; that chef also runs without its clock, as flat PIMC does (see the times table)
    if "flat PIMC" in clocks:
        target = statistics.fmean(clocks["flat PIMC"].cpu)
        equal_ms = 100
        for _ in range(2):  # the chef's CPU is not quite proportional to think-ms (its cap): measure again near it
            equal_ms = max(5, round(target / chef_cpu_per_ms(game, equal_ms)))
        equal = f"chef@{equal_ms}ms (equal time)"
        if EQUAL_SCALE != 1:  # the same chef given a multiple of that CPU: does more search pay?
            equal_ms = round(equal_ms * EQUAL_SCALE)
            equal = f"chef@{equal_ms}ms ({EQUAL_SCALE:g}x equal time)"
        cells = row(game, level_player("chef", equal_ms, clock=False), clocks.setdefault(equal, Clock()),
                    {"flat PIMC": pimc_player}, {"flat PIMC": alone["flat PIMC"]}, games)
        print(f"| {equal} |{' |' * (len(baselines) - 1)} {cells[0]} |")
    base = [mean_se([scores[(FIRST_DEAL + index) % count] for index, scores in enumerate(alone[name])])
            for name in baselines]
    print(f"| (the baseline itself) | {' | '.join(base)} |\n")
    print("Decision time, ms (wall: p50 p95 max | CPU: p50 p95 max), requests with one legal answer included:\n")
    print("| player | decisions | wall p50 p95 max | CPU p50 p95 max |")
    print("|---|---|---|---|")
    for name, clock in clocks.items():
        print(f"| {name} | {len(clock.wall)} | {percentiles(clock.wall)} | {percentiles(clock.cpu)} |")
    print("\nMean CPU per decision, ms: " + ", ".join(
        f"{name} {statistics.fmean(clock.cpu):.1f}" for name, clock in clocks.items() if clock.cpu))
    print(flush=True)


def chef_cpu_per_ms(game: str, think_ms: int = 100) -> float:
    """The chef's mean CPU per decision per think-ms, uncut by its clock, over the requests of one game
    between heuristic players (one-answer requests included, as in the games)."""
    seats = [heuristic_player(seat) for seat in range(PLAYERS[game])]
    rng = random.Random(99)
    asks = (chaud_arena.play_game(seats, rng, rounds=ROUNDS).asks if game == "chaud_devant"
            else buffet_arena.play_game(seats, rng).asks)
    spent = []
    for index, ask in enumerate(asks[:: max(1, len(asks) // 60)]):
        started = time.thread_time()
        decide(GAMES, ask, level="chef", seed=index, think_ms=think_ms, deadline=math.inf)
        spent.append((time.thread_time() - started) * 1000)
    return statistics.fmean(spent) / think_ms


def row(game: str, make: Factory, clock: Clock, baselines: dict[str, Factory], alone: dict[str, list[list[float]]],
        games: int) -> list[str]:
    """One level against each baseline: its mean score, and its score less the baseline's in its seat."""
    count = PLAYERS[game]
    cells = []
    for name, factory in baselines.items():
        own, delta = [], []
        for index, deal in enumerate(range(FIRST_DEAL, FIRST_DEAL + games)):
            # one seat turning with the deal, or (--every-seat) every seat of the deal in turn, the deal's
            # mean then counting once (its seats share the cards, so they are not independent samples)
            turns = range(count) if EVERY_SEAT else [deal % count]
            scores, gains = [], []
            for seat in turns:
                seats = [factory(deal * 10 + s) for s in range(count)]
                seats[seat] = clock.timed(make(deal * 10 + seat))
                score = play(game, seats, deal)[seat]
                scores.append(score)
                gains.append(score - alone[name][index][seat])
            own.append(statistics.fmean(scores))
            delta.append(statistics.fmean(gains))
        cells.append(f"{mean_se(own)} (same seat {mean_se(delta)})")
    return cells


def memory() -> None:
    """RSS a `marmite run` process (its imports) gains by importing the robot and deciding once per game."""
    script = r"""
import random, sys
def rss():
    with open("/proc/self/statm") as f:
        import os
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
import marmite.serve, marmite.wiring, marmite.games, web_ui.app, web_ui.server
before = rss()
from companion.robots import decide
from companion.chaud_devant.arena import play_game as chaud
from companion.buffet.arena import play_game as buffet
from marmite.games import GAMES
asks = []
def first(ask):
    asks.append(ask)
    raise StopIteration
for game in (chaud, buffet):
    try:
        game([first] * 4, random.Random(1))
    except StopIteration:
        pass
for ask in asks:
    decide(GAMES, ask, think_ms=300)
print(f"{before:.1f} {rss() - before:.1f}")
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"memory: could not measure ({done.stderr.strip().splitlines()[-1:]})")
        return
    before, added = done.stdout.split()
    print(f"Memory: a `marmite run` process at {before} MB RSS gains {added} MB importing the robot and "
          f"making one chef decision in each game.\n")


def startup() -> None:
    """Time from spawning `marmite robot` to its first answer (a débutant decision: start-up dominates)."""
    line = ('{"log": [{"type": "new_game", "players": ["Ana", "Bruno", "Cléo", "Dan"], "dealer": "Dan"}], '
            '"seat": "Ana", "hand": ["pea-1a", "onion-3b", "pepper-2a"]}\n')
    # as installed: with compiled bytecode (a first run writes it if the environment had turned that off)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "marmite.cli", "robot", "--level", "debutant"], cwd=ROOT, input=line,
                   capture_output=True, text=True, check=False, env=env)
    times, cpu = [], []
    for _ in range(5):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "marmite.cli", "robot", "--level", "debutant"], cwd=ROOT,
                              input=line, capture_output=True, text=True, check=False, env=env)
        times.append((time.perf_counter() - started) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
        if done.returncode != 0 or "menu" not in done.stdout:
            print(f"start-up: unexpected answer {done.stdout!r} {done.stderr[-200:]!r}")
            return
    times.sort()
    cpu.sort()
    print(f"Start-up: spawning `marmite robot` to its first answer: wall min {times[0]:.0f} ms, "
          f"median {times[2]:.0f} ms;"
          f" CPU of the process min {cpu[0]:.0f} ms, median {cpu[2]:.0f} ms (5 runs).\n")


def duel(args: argparse.Namespace) -> int:
    """Play the duels asked (unless recorded already), then print every comparison pooled over the file."""
    players = [name for name in args.duel.split(",") if name]
    games = [args.only] if args.only else list(PLAYERS)
    robot_duel.run(games, players, args.opponents.split(","),
                   range(args.first_deal, args.first_deal + args.games), args.every_seat, args.all_opponents)
    pairs = [(pair.split(":")[0], pair.split(":")[-1]) for pair in args.compare.split(",") if pair]
    deals = None
    if args.summary_deals:
        first, _, last = args.summary_deals.partition("-")
        deals = range(int(first), int(last or first) + 1)
    robot_duel.summary(pairs or list(itertools.pairwise(players)), deals=deals)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="deals per game and table (default 6, quick)")
    parser.add_argument("--think-ms", type=int, default=300, help="the levels' think time (default 300)")
    parser.add_argument("--only", choices=sorted(PLAYERS), help="one game only")
    parser.add_argument("--rounds", type=int, default=5, help="Chaud Devant rounds per game (default 5)")
    parser.add_argument("--levels", default="debutant,cuisinier,chef", help="levels to seat, comma-separated")
    parser.add_argument("--baselines", default=",".join(BASELINES), help="tables to seat them at, comma-separated")
    parser.add_argument("--every-seat", action="store_true",
                        help="seat each level in every seat of each deal (a full duplicate), not one turning seat")
    parser.add_argument("--equal-scale", type=float, default=1.0,
                        help="give the equal-time chef this multiple of the flat PIMC's CPU (default 1)")
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal's number (fresh deals: default 0)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory figure")
    parser.add_argument("--duel", metavar="PLAYERS",
                        help="duplicate duels instead (see benchmarks/robot_duel.py): these seat players, "
                             "comma-separated (e.g. chef-2@300,frozen-pimc@300), each game appended to "
                             "benchmarks/results/robot_duel.jsonl; --games deals from --first-deal")
    parser.add_argument("--opponents", default=",".join(robot_duel.OPPONENTS),
                        help="the duels' opponents: one a deal, turning every 4 deals (all of them on each deal "
                             "with --all-opponents)")
    parser.add_argument("--all-opponents", action="store_true", help="every opponent on every deal of a duel")
    parser.add_argument("--compare", default="",
                        help="pairs candidate:control to summarise, comma-separated (default: each duel player "
                             "against the next)")
    parser.add_argument("--summary-deals", metavar="FIRST-LAST",
                        help="pool only the recorded deals in this range (e.g. 6000-6063: confirming deals, "
                             "not the ones a change was tuned on)")
    parser.add_argument("--answer-times", metavar="MS", help="CPU and wall time of an answer at these think-ms "
                        "(comma-separated) for the chef and the frozen flat PIMC, instead")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="with --answer-times: search as `marmite robot --speed` does (think-ms × speed) and "
                             "give the times of a machine that much slower (a Raspberry Pi 4: 0.2)")
    args = parser.parse_args()
    if args.answer_times:
        robot_duel.answer_times([robot_duel.CHEF_VERSION, "frozen-pimc"],
                                [int(ms) for ms in args.answer_times.split(",")], speed=args.speed,
                                games=(args.only,) if args.only else ("chaud_devant", "buffet"))
        return 0
    if args.duel is not None:
        return duel(args)
    global ROUNDS, EVERY_SEAT, EQUAL_SCALE, FIRST_DEAL
    ROUNDS, EVERY_SEAT, EQUAL_SCALE, FIRST_DEAL = args.rounds, args.every_seat, args.equal_scale, args.first_deal
    baselines = {name: BASELINES[name] for name in args.baselines.split(",")}
    for game in PLAYERS:
        if args.only in (None, game):
            run_game(game, args.games, args.think_ms, args.levels.split(","), baselines)
    if not args.no_memory:
        memory()
        startup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
