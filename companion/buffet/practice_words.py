"""How a Sus au buffet ! practice without cards says its steps: everyone chooses each step face down, so a
step's (or round's) opening calls the people still in the round first, and the facts follow in the same line."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.seam import Part

STEP_OPENINGS = {"buffet_ready": "buffet_ready_choose", "new_step": "new_step_choose"}
"""A step's opening part, and the call to choose a practice without cards says for it."""
TABLE_OWN = frozenset({"round_opened", "plate_laid", "missing"})
"""The table's own virtual plates, laid without a word: the round's opening says the buffet whole."""
CARD_LINES = frozenset({"moved", "robot.played_named", "robot.played", "robot.played_plain"})
"""The card's own line, which the call to choose follows at once."""
ROUND_END = ("departure", "duel_won", "duel_lost", "swap", "round_ended")
"""A round's end, held back from its last card's line and spoken after the next round's call to choose."""


def practice_words(parts: tuple[Part, ...], robots: Iterable[str],
                   held: tuple[Part, ...] = ()) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
    """What the table says now, and what it holds for the next round's opening. The call to choose comes right
    after the card's own line, the step's outcome after it ("Bup : huit — case 20. Ana, à vous de choisir. Bip
    part avec poulet à 2."); a round's end waits for the next round's buffet, then follows its call ("Ana, à
    vous de choisir. Bop part avec fromage à 5. Fin de la manche 1 : … Manche 2 — buffet : …"); no "À Bop."
    between the cards the table turns over (the order is the table's business)."""
    keys = {part.key for part in parts}
    spoken = [part for part in parts if part.key != "turn" and part.key not in TABLE_OWN]
    if "round_ended" in keys and "game_over" not in keys:
        return (tuple(part for part in spoken if part.key not in ROUND_END),
                held + tuple(part for part in spoken if part.key in ROUND_END))
    people_out = frozenset(robots)
    spoken = swap_call_first(spoken, people_out)
    for at, part in enumerate(spoken):
        if part.key not in STEP_OPENINGS:
            continue
        rest = spoken[:at] + spoken[at + 1:]
        people = [name for name in part.fields.get("in_round", ()) if name not in people_out]
        call = [Part(STEP_OPENINGS[part.key], {"players": people})] if people else []
        if part.key == "buffet_ready":  # the round's number and its buffet in one line, after what was held
            label = part.fields.get("part")  # a game of three: the round's part ("Manche 2, partie 1")
            fields: dict[str, Any] = {"round": part.fields.get("round", 0),
                                      "part": Part("round_part", dict(label.fields)) if isinstance(label, Part)
                                      else None, "spread": list(part.fields.get("buffet", ()))}
            return (*rest, *call, *held, Part("round_buffet", fields)), ()
        if not people:  # nobody here to call (the person left the round): the step is only marked
            return (*rest, Part("new_step_robots", {})), held
        first = 1 if rest and rest[0].key in CARD_LINES else 0
        return (*rest[:first], *call, *rest[first:]), held
    return tuple(spoken), held


def swap_call_first(spoken: list[Part], robots: frozenset[str]) -> list[Part]:
    """A person's mouse leaving first may exchange cards: that call comes right after the card's own line, and
    the departure after it ("Bup : cinq — case 11. Ana, vous pouvez échanger des cartes. Ana part avec …")."""
    swap = next((part for part in spoken if part.key == "swap" and part.fields.get("player") not in robots), None)
    if swap is None:
        return spoken
    rest = [part for part in spoken if part is not swap]
    first = 1 if rest and rest[0].key in CARD_LINES else 0
    return [*rest[:first], Part("swap_call", dict(swap.fields)), *rest[first:]]
