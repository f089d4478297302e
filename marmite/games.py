"""The games this table hosts: each game's rules (`companion/<game>/`), pages (`web_ui/games/<game>/`) and
demo, one entry per game. A new game is its own packages and one line in `HOSTED`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion import buffet, chaud_devant
from companion.buffet.simulate import DEMO as BUFFET_DEMO
from companion.chaud_devant.simulate import DEMO as CHAUD_DEVANT_DEMO
from companion.seam import Demo, GameKind, Games
from web_ui.game_pages import GamePages
from web_ui.games.buffet import PAGES as BUFFET_PAGES
from web_ui.games.chaud_devant import PAGES as CHAUD_DEVANT_PAGES


@dataclass(frozen=True, slots=True)
class Hosted:
    """One hosted game: its rules, its pages, its demo."""

    kind: GameKind
    pages: GamePages
    demo: Demo


def registry(*hosted: Hosted) -> tuple[Games, Mapping[str, GamePages], Mapping[str, Demo]]:
    """The games (the first is the default), their page table and their demos, by game name."""
    return (Games.of(*(h.kind for h in hosted)), {h.kind.name: h.pages for h in hosted},
            {h.kind.name: h.demo for h in hosted})


HOSTED = (
    Hosted(chaud_devant.KIND, CHAUD_DEVANT_PAGES, CHAUD_DEVANT_DEMO),
    Hosted(buffet.KIND, BUFFET_PAGES, BUFFET_DEMO),
)
"""Chaud Devant ! first: a `new_game` without `game` is Chaud Devant, as the contract says."""

GAMES, PAGES, DEMOS = registry(*HOSTED)
