"""The setup rules the director chooses on the console for a seated game: each game's own choices (its
`ClubFacts.rules`), checked by that game's own `new_game` before anything is seated."""

from __future__ import annotations

from collections.abc import Mapping

from club.games import ClubGames
from companion.seam import Games

FORM_PREFIX = "rule-"


class RuleError(ValueError):
    """A rule the game does not have, or a value it does not take; the message says which."""


def rules_from_form(game: str, form: Mapping[str, str], games: Games) -> dict[str, str]:
    """The rules the console's form chose for `game` (fields `rule-<name>`; empty means the game's
    default); RuleError naming the rule and the values it takes."""
    every = ClubGames(games).rule_choices()
    choices = every.get(game, {})
    chosen: dict[str, str] = {}
    for field, value in form.items():
        if not field.startswith(FORM_PREFIX) or not value:
            continue
        name = field.removeprefix(FORM_PREFIX)
        if name not in choices:
            if name in {rule for rules in every.values() for rule in rules}:
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
