"""The games this table hosts: each game's rules (`companion/<game>/`), pages (`web_ui/games/<game>/`) and
demo, one entry per game. A new game is its own packages and one line in `HOSTED`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion import buffet, chaud_devant
from companion.buffet.simulate import DEMO as BUFFET_DEMO
from companion.chaud_devant.simulate import DEMO as CHAUD_DEVANT_DEMO
from companion.seam import Demo, GameKind, Games
from companion.side_ledgers import SIDE_LEDGERS
from web_ui.games.buffet import pages as buffet_pages
from web_ui.games.chaud_devant import pages as chaud_devant_pages

if TYPE_CHECKING:
    from web_ui.game_pages import GamePages


@dataclass(frozen=True, slots=True)
class Hosted:
    """One hosted game: its rules, its pages, its demo."""

    kind: GameKind
    pages: GamePages | Callable[[], GamePages]
    """The game's pages, or the function that imports them (so the commands that serve no page load no Flask)."""
    demo: Demo

    def page(self) -> GamePages:
        """The game's pages, imported now if they were not yet."""
        return self.pages() if callable(self.pages) else self.pages


def registry(*hosted: Hosted) -> tuple[Games, Mapping[str, GamePages], Mapping[str, Demo]]:
    """The games (the first is the default) with the table's side ledgers, their page table and their
    demos, by game name."""
    return (Games.of(*(h.kind for h in hosted), sides=SIDE_LEDGERS), {h.kind.name: h.page() for h in hosted},
            {h.kind.name: h.demo for h in hosted})


HOSTED = (
    Hosted(chaud_devant.KIND, chaud_devant_pages, CHAUD_DEVANT_DEMO),
    Hosted(buffet.KIND, buffet_pages, BUFFET_DEMO),
)
"""Chaud Devant ! first: a `new_game` without `game` is Chaud Devant, as the contract says."""

GAMES: Games = Games.of(*(h.kind for h in HOSTED), sides=SIDE_LEDGERS)
"""The hosted games; every referee of them keeps the robot seats' and the confirmations' side ledgers."""
DEMOS: Mapping[str, Demo] = {h.kind.name: h.demo for h in HOSTED}


def __getattr__(name: str) -> Any:
    """`PAGES`, the page table, made on first use: only the web app needs the pages (and Flask)."""
    if name == "PAGES":
        return {h.kind.name: h.page() for h in HOSTED}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
