"""The games this table hosts. A new game is a sibling of `companion/chaud_devant/` and one entry here."""

from __future__ import annotations

from companion import buffet, chaud_devant
from companion.seam import Games

GAMES = Games.of(chaud_devant.KIND, buffet.KIND)
"""Chaud Devant ! first: a `new_game` without `game` is Chaud Devant, as the contract says."""
