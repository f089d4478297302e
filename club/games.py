"""The games a club seats and scores: the registry's games, handed to the hub by the composition root, and
each one's club facts (`companion.seam.ClubFacts`) when it opts in. The club never names a game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.seam import ClubFacts, Games, PlaysInClubs


class ClubGames:
    """The club's view of the hosted games: those that play in clubs, by name, in the registry's order."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.facts: dict[str, ClubFacts] = {name: kind.club for name, kind in games.kinds.items()
                                            if isinstance(kind, PlaysInClubs)}
        self.default = games.default if games.default in self.facts else next(iter(self.facts), games.default)
        """The game a console offers first, and the one a game of no known kind is shown as."""

    def names(self) -> list[str]:
        """The club's games, sorted by name (as the console lists them)."""
        return sorted(self.facts)

    def sizes(self, game: str) -> tuple[int, int]:
        """Fewest and most players at one of `game`'s tables (KeyError for a game not in clubs)."""
        return self.facts[game].players

    def title(self, game: str, language: str) -> str:
        """A game's name on the board (the default game's for a game of no known kind)."""
        facts = self.facts.get(game) or self.facts.get(self.default)
        return facts.title(language) if facts is not None else game

    def rule_choices(self) -> dict[str, Mapping[str, tuple[str, ...]]]:
        """Per game, each setup rule a director may choose and its values."""
        return {name: facts.rules for name, facts in self.facts.items()}

    def points(self, game: str, public: Mapping[str, Any]) -> dict[str, int]:
        """Each player's points in a game's folded public state (read as the default game's for a game of
        no known kind)."""
        facts = self.facts.get(game) or self.facts.get(self.default)
        return facts.points(public) if facts is not None else {}

    def rule_word(self, game: str, key: str, language: str) -> str:
        """A game's setup rule or value, named in `language` on the director's console."""
        facts = self.facts.get(game)
        return facts.rule_word(key, language) if facts is not None else key

    def points_names(self, language: str) -> list[tuple[str, str]]:
        """(title, what its points are called) for each game, for the ranking's rule."""
        return [(self.title(name, language), self.facts[name].points_name(language)) for name in self.facts]
