"""Black-box helpers: drive `marmite` only through the fixed contract."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

SUITS = ["pea", "onion", "mushroom"]
MENUS = ["pea", "onion", "mushroom", "pepper", "none"]


def deck() -> list[str]:
    cards: list[str] = []
    for s in SUITS:
        cards += [f"{s}-0a", f"{s}-0b"]
        for v in range(1, 6):
            cards += [f"{s}-{v}a", f"{s}-{v}b"]
        cards += [f"{s}-10", f"{s}-x"]
    for v in range(1, 6):
        cards += [f"pepper-{v}a", f"pepper-{v}b"]
    return cards


def suit(card: str) -> str:
    return card.split("-")[0]


def value(card: str) -> int:
    rank = card.split("-")[1]
    if rank == "x":
        return 0
    if rank == "10":
        return 10
    return int(rank[:-1])


def run_replay(lines: list[str], timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "marmite.cli", "replay", "-"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def replay(events: list[dict[str, Any] | str]) -> dict[str, Any]:
    lines = [e if isinstance(e, str) else json.dumps(e) for e in events]
    proc = run_replay(lines)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


def ng(players: list[str] | None = None, dealer: str | None = None, **rules: str) -> dict[str, Any]:
    players = players or ["A", "B", "C"]
    ev: dict[str, Any] = {"type": "new_game", "players": players, "dealer": dealer or players[-1]}
    if rules:
        ev["rules"] = rules
    return ev


def menu(player: str, m: str) -> dict[str, Any]:
    return {"type": "menu", "player": player, "menu": m}


def card(c: str) -> dict[str, Any]:
    return {"type": "card", "card": c}


def hand(player: str, cards: list[str]) -> dict[str, Any]:
    return {"type": "hand", "player": player, "cards": cards}


UNDO: dict[str, Any] = {"type": "undo"}


def score_round(menu_of: dict[str, str], won: dict[str, list[str]]) -> dict[str, int]:
    pts: dict[str, int] = {}
    for p, m in menu_of.items():
        cs = won[p]
        if m in SUITS:
            pts[p] = sum(1 for c in cs if suit(c) == m) - sum(1 for c in cs if suit(c) == "pepper")
        elif m == "pepper":
            pts[p] = sum(1 for c in cs if suit(c) == "pepper") - sum(
                1 for c in cs if c.split("-")[1] in ("0a", "0b")
            )
        else:
            pts[p] = 5 - len(cs)
    return pts


def simulate(seed: int, players: list[str] | None = None, with_hands: bool = True,
             rounds: int = 5) -> tuple[list[dict[str, Any]], dict[str, int], list[dict[str, int]]]:
    """A whole legal game with our own rules engine. Returns events, final stars, per-round points."""
    players = players or ["A", "B", "C"]
    n = len(players)
    rng = random.Random(seed)
    events: list[dict[str, Any]] = [ng(players)]
    stars = dict.fromkeys(players, 5)
    dealer_i = n - 1
    all_points: list[dict[str, int]] = []
    order = {p: rng.sample(MENUS, 5) for p in players}
    for r in range(rounds):
        d = deck()
        rng.shuffle(d)
        hands = {p: sorted(d[i * 13:(i + 1) * 13]) for i, p in enumerate(players)}
        if with_hands:
            for p in players:
                events.append(hand(p, list(hands[p])))
        menu_of = {p: order[p][r] for p in players}
        for p in players:
            events.append(menu(p, menu_of[p]))
        won: dict[str, list[str]] = {p: [] for p in players}
        turn = (dealer_i + 1) % n
        pot: list[str] = []
        total = 0
        led: str | None = None
        spoiled = False
        while hands[players[turn]]:
            p = players[turn]
            h = hands[p]
            if not pot:
                c = rng.choice(h)
            else:
                follow = [x for x in h if suit(x) == led] if (led and not spoiled) else []
                c = rng.choice(follow or h)
            h.remove(c)
            events.append(card(c))
            if not pot:
                led = None if suit(c) == "pepper" else suit(c)
                spoiled = suit(c) == "pepper"
                total = 0 if value(c) == 10 else value(c)
            else:
                if suit(c) == "pepper":
                    spoiled = True
                total = 0 if c.endswith("-x") else total + value(c)
            if c.endswith("-x"):
                total = 0
            pot.append(c)
            if total >= 10:
                won[p] += pot
                pot = []
                total = 0
                led = None
                spoiled = False
            else:
                turn = (turn + 1) % n
        pts = score_round(menu_of, won)
        all_points.append(pts)
        for p in players:
            stars[p] = max(0, stars[p] + pts[p])
        dealer_i = (dealer_i + 1) % n
    return events, stars, all_points
