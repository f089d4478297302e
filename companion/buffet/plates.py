"""The material of Sus au buffet !: mouse cards and plates, their codes and their order.

Codes are the contract's: `mouse-<v>`, `plate-<food>-<v>`, with `n1` for the value −1; a
physical mouse card (ten copies of each value) is `mouse-<v>@<k>` and only names a tag.
"""

from __future__ import annotations

from dataclasses import dataclass

FOODS: tuple[str, ...] = ("cheese", "potato", "sausage", "pizza", "chicken", "salad")
"""The six foods, best first (the order that sorts equal plates and breaks ties)."""

MOUSE_VALUES: tuple[int, ...] = tuple(range(-1, 10))
PLATE_VALUES: tuple[int, ...] = tuple(range(-1, 6))
COPIES = 10
TOTAL_PLATES = 36
STAND_IN_VALUES: tuple[int, ...] = (-1, 0, 1, 2, 3, 5)
"""The simulator's stated stand-in for a full set: six plates per food with these values."""


def value_code(value: int) -> str:
    """A value as codes write it: `n1` for −1, else the digits."""
    return "n1" if value == -1 else str(value)


def parse_value(text: str) -> int | None:
    """The value a code's last part names, or None."""
    if text == "n1":
        return -1
    return int(text) if text.isdigit() and len(text) == 1 else None


@dataclass(frozen=True, slots=True)
class Plate:
    """One plate: its food and value, and its code."""

    food: str
    value: int

    @property
    def code(self) -> str:
        return f"plate-{self.food}-{value_code(self.value)}"

    @property
    def order(self) -> tuple[int, int]:
        """Sort key for the buffet, best (left) first: higher value, then better food."""
        return (-self.value, FOODS.index(self.food))


MOUSE_CARDS: dict[str, int] = {f"mouse-{value_code(v)}": v for v in MOUSE_VALUES}
PLATES: dict[str, Plate] = {
    plate.code: plate for plate in (Plate(food, value) for food in FOODS for value in PLATE_VALUES)
}
STAND_IN_SET: tuple[str, ...] = tuple(Plate(food, value).code for food in FOODS for value in STAND_IN_VALUES)
PHYSICAL_MOUSE_CARDS: tuple[str, ...] = tuple(
    f"{code}@{copy}" for code in MOUSE_CARDS for copy in range(1, COPIES + 1)
)
TAG_CODES: tuple[str, ...] = PHYSICAL_MOUSE_CARDS + tuple(PLATES)


def mouse_value(code: object) -> int | None:
    """The value of a mouse card code (`mouse-7` → 7), None for anything else."""
    return MOUSE_CARDS.get(code) if isinstance(code, str) else None


def plate(code: object) -> Plate | None:
    """The plate a code names, None for anything else."""
    return PLATES.get(code) if isinstance(code, str) else None


def sort_buffet(codes: list[str]) -> list[str]:
    """Plates from best (left) to worst (right)."""
    return sorted(codes, key=lambda code: PLATES[code].order)


def counted(won: list[str]) -> dict[str, str]:
    """The plate that counts for each food among plates won in this order: the last one."""
    top: dict[str, str] = {}
    for code in won:
        top[PLATES[code].food] = code
    return top


def score(won: list[str]) -> int:
    """The sum of the counted plates."""
    return sum(PLATES[code].value for code in counted(won).values())
