"""The hosted games plus the test-only ones: the registry the conformance suite runs over."""

from __future__ import annotations

from marmite.games import HOSTED, registry

REGISTERED = (*HOSTED,)
GAMES, PAGES, DEMOS = registry(*REGISTERED)
