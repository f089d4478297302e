"""The setup rules the director chooses on the console for a seated game: each game's own choices,
checked by that game's own `new_game` before anything is seated."""

from __future__ import annotations

from collections.abc import Mapping

from companion.chaud_devant.game import EDITIONS, MENU_REVEALS
from companion.seam import Games

RULE_CHOICES: dict[str, dict[str, tuple[str, ...]]] = {
    "chaud_devant": {"edition": EDITIONS, "menu_reveal": MENU_REVEALS},
    "buffet": {},  # Sus au buffet ! has no setup rules: its players and first player are all
}
"""Per game, each setup rule and its values, as the table's setup page offers them."""

FORM_PREFIX = "rule-"


class RuleError(ValueError):
    """A rule the game does not have, or a value it does not take; the message says which."""


def rules_from_form(game: str, form: Mapping[str, str], games: Games) -> dict[str, str]:
    """The rules the console's form chose for `game` (fields `rule-<name>`; empty means the game's
    default); RuleError naming the rule and the values it takes."""
    choices = RULE_CHOICES.get(game, {})
    chosen: dict[str, str] = {}
    for field, value in form.items():
        if not field.startswith(FORM_PREFIX) or not value:
            continue
        name = field.removeprefix(FORM_PREFIX)
        if name not in choices:
            if name in {rule for rules in RULE_CHOICES.values() for rule in rules}:
                continue  # another game's rule, left on the form: not this game's
            raise RuleError(f"{name!r} is not a rule of this game")
        if value not in choices[name]:
            raise RuleError(f"{name}: {value!r} is not one of {', '.join(choices[name])}")
        chosen[name] = value
    kind = games.kinds.get(game)
    players = ["A", "B", "C"]
    probe = {"type": "new_game", "game": game, "players": players, "dealer": "A", "first": "A", "rules": chosen}
    if kind is None or (chosen and kind.new_game(probe) is None):
        raise RuleError(f"the game refuses these rules: {chosen}")
    return chosen
