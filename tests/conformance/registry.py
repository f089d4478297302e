"""The hosted games plus the test-only ones: the registry the conformance suite runs over."""

from __future__ import annotations

from marmite.games import HOSTED, Hosted, registry
from tests import toy_game

REGISTERED = (*HOSTED, Hosted(toy_game.KIND, toy_game.PAGES, toy_game.DEMO))
GAMES, PAGES, DEMOS = registry(*REGISTERED)
