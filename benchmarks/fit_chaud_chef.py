"""Fit what Chaud Devant !'s chef searches with, offline: its playout policy and its menus' later worth.

Three steps, each printing what it made (the tables in `companion/chaud_devant/robot_policy.py` were
pasted from the last two):

* `record OUT.jsonl --games N --first-deal D --players P`: flat PIMC players (the benchmark's
  baseline: 50 worlds, rule-based playouts) play whole games; every card decision with more than one
  legal card is written with each legal card's features and the card chosen.
* `fit FILE.jsonl ...`: softmax regression of the choices on the features (stochastic gradient descent,
  L2 1e-3), lead and follow apart; prints the weights and the share of held-out choices (the last
  fifth) the fitted policy names, beside the rule-based heuristic's share.
* `menus`: what a set of unused menus is worth over the rounds left, for each table size: random
  hands, each menu's points for the round (mean of 8 deals of the other cards, rule-based play),
  then the value of choosing well among them round by round (the best menu now plus the worth of
  those left), averaged over the hands.

Usage (the run behind the committed tables): .venv/bin/python benchmarks/fit_chaud_chef.py record /tmp/d.jsonl
--games 40 --first-deal 40000; then `fit /tmp/d.jsonl` and `menus --hands 1500`
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.chaud_devant import arena  # noqa: E402
from companion.chaud_devant.cards import MENUS  # noqa: E402
from companion.chaud_devant.robot import ChaudWorld, card_choice, menu_choice  # noqa: E402
from companion.chaud_devant.robot_cards import INDEX, SUITS, WORTH  # noqa: E402
from companion.chaud_devant.robot_policy import follow_features, lead_features  # noqa: E402
from companion.robots import RobotAsk, playout, position_of  # noqa: E402
from marmite.games import GAMES  # noqa: E402

PIMC_WORLDS = 50
TABLES = {"3": (13, 13, 13), "4": (13, 13, 13, 13), "5-2005": (11, 11, 10, 10, 10), "5-2023": (10, 10, 10, 10, 10)}


def recorder(out: Any, seed: int) -> arena.Player:
    """A flat PIMC player that writes each of its card decisions (features, choice) to `out`."""
    rng = random.Random(seed)

    def play(ask: RobotAsk) -> dict[str, Any]:
        position = position_of(GAMES, ask)
        count = len(position.choices)
        if count == 1:
            return dict(position.choices[0])
        totals = [0.0] * count
        for _ in range(PIMC_WORLDS):
            world = position.sample(rng)
            for choice in range(count):
                totals[choice] += playout(world.clone(), choice, rng)
        best = totals.index(max(totals))
        view = position.view
        if view.kind == "card":
            hand, worth = list(position.hand), WORTH[MENUS.index(view.menus[view.seat])]
            pot, led = [INDEX[c] for c in view.pot], -1 if view.led is None else SUITS.index(view.led)
            legal = [value for _, value in position.answers]
            features = [lead_features(hand, worth, c) if not pot else
                        follow_features(hand, worth, pot, view.pot_sum, led, c) for c in legal]
            heuristic = card_choice(hand, MENUS.index(view.menus[view.seat]), pot, view.pot_sum, led,
                                    view.spoiled, rng, 0.0)
            out.write(json.dumps({"lead": not pot, "f": features, "y": best, "h": legal.index(heuristic)}) + "\n")
        return dict(position.choices[best])

    return play


def record(path: str, games: int, first: int, players: int) -> None:
    with open(path, "a", encoding="utf-8") as out:
        for deal in range(first, first + games):
            arena.play_game([recorder(out, deal * 10 + s) for s in range(players)], random.Random(deal))
            out.flush()
    print(f"recorded {games} games of {players} players (deals {first}-{first + games - 1}) in {path}")


def fit_rows(rows: list[dict[str, Any]], epochs: int = 60, rate: float = 0.05, l2: float = 1e-3) -> list[float]:
    """Softmax regression by stochastic gradient descent (rows in a seeded order, the rate decaying 5 % an
    epoch): the weights of one kind of decision."""
    dim = len(rows[0]["f"][0])
    weights = [0.0] * dim
    order = list(range(len(rows)))
    shuffler = random.Random(0)
    for _ in range(epochs):
        shuffler.shuffle(order)
        for index in order:
            row = rows[index]
            scores = [sum(w * f for w, f in zip(weights, features, strict=True)) for features in row["f"]]
            top = max(scores)
            odds = [math.exp(s - top) for s in scores]
            total = sum(odds)
            gradient = [l2 * w for w in weights]
            for option, features in enumerate(row["f"]):
                share = odds[option] / total - (1.0 if option == row["y"] else 0.0)
                for k in range(dim):
                    gradient[k] += share * features[k]
            weights = [w - rate * g for w, g in zip(weights, gradient, strict=True)]
        rate *= 0.95
    return weights


def agreement(rows: list[dict[str, Any]], weights: list[float]) -> float:
    """The share of rows whose choice the linear policy names (its top score)."""
    hits = 0
    for row in rows:
        scores = [sum(w * f for w, f in zip(weights, features, strict=True)) for features in row["f"]]
        hits += scores.index(max(scores)) == row["y"]
    return hits / len(rows)


def fit(paths: Iterable[str]) -> None:
    rows = [json.loads(line) for path in paths for line in Path(path).read_text(encoding="utf-8").splitlines()]
    cards = [row for row in rows if not row.get("menu")]  # files of an earlier run also held menu decisions
    for phase, lead in (("lead", True), ("follow", False)):
        chosen = [row for row in cards if row["lead"] == lead]
        if not chosen:
            continue
        cut = len(chosen) * 4 // 5
        weights = fit_rows(chosen[:cut])
        held = chosen[cut:]
        heuristic = sum(row.get("h") == row["y"] for row in held) / len(held)
        print(f"{phase}: {len(chosen)} decisions; held-out choices named: fitted {agreement(held, weights):.3f}, "
              f"heuristic {heuristic:.3f}")
        print(f"    {phase}=({', '.join(f'{w:.3f}' for w in fit_rows(chosen))}),")


def menu_points(sizes: tuple[int, ...], rng: random.Random, deals: int = 8) -> list[float]:
    """Each menu's mean points for the round to seat 0 holding one random hand (rule-based play by all)."""
    deck = list(range(52))
    rng.shuffle(deck)
    mine, rest = deck[: sizes[0]], deck[sizes[0]:]
    points = [0.0] * len(MENUS)
    for _ in range(deals):
        rng.shuffle(rest)
        hands, start = [list(mine)], 0
        for size in sizes[1:]:
            hands.append(rest[start:start + size])
            start += size
        first = rng.randrange(len(sizes))
        others = [menu_choice(hand, list(range(len(MENUS))), rng, 0.0) for hand in hands[1:]]
        for menu in range(len(MENUS)):
            world = ChaudWorld()
            world.hands, world.menus = [list(hand) for hand in hands], [menu, *others]
            world.won, world.turn, world.noise = [0] * len(sizes), first, 0.0
            points[menu] += world.run_out(0) / deals
    return points


def menu_future(sizes: tuple[int, ...], hands: int, seed: int) -> list[float]:
    """The worth of each set of unused menus (bit m: menu m unused) over as many rounds as menus."""
    rng = random.Random(seed)
    samples = [menu_points(sizes, rng) for _ in range(hands)]

    @cache
    def worth(mask: int) -> float:
        if not mask:
            return 0.0
        menus = [m for m in range(len(MENUS)) if mask >> m & 1]
        return statistics.fmean(max(points[m] + worth(mask & ~(1 << m)) for m in menus) for points in samples)

    return [worth(mask) for mask in range(1 << len(MENUS))]


def menus(hands: int) -> None:
    print("MENUS_LATER = {")
    for key, sizes in TABLES.items():
        values = menu_future(sizes, hands, seed=len(sizes) * 100 + sum(sizes))
        print(f"    ({len(sizes)}, {sum(sizes)}): ({', '.join(f'{v:.2f}' for v in values)}),  # {key} players")
    print("}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    rec = steps.add_parser("record")
    rec.add_argument("out")
    rec.add_argument("--games", type=int, default=30)
    rec.add_argument("--first-deal", type=int, default=10000)
    rec.add_argument("--players", type=int, default=4)
    fitting = steps.add_parser("fit")
    fitting.add_argument("files", nargs="+")
    later = steps.add_parser("menus")
    later.add_argument("--hands", type=int, default=1500)
    args = parser.parse_args()
    if args.step == "record":
        record(args.out, args.games, args.first_deal, args.players)
    elif args.step == "fit":
        fit(args.files)
    else:
        menus(args.hands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
