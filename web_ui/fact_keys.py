"""One key per fact: what a game's pages offer, as (fact name, key, button label).

Each game's `GamePages.fact_keys` lists its own; the answers are the sentences its `_facts.html`
renders (hidden) in each state fragment, so `static/a11y.js` answers a key without a request.
"""

from __future__ import annotations

FactKey = tuple[str, str, str]
"""(fact name as in `data-fact`, the key, the button's label)."""

SUIT_KEYS = ("1", "2", "3", "4")
"""Keys that answer a player's cards of one suit, in the game's suit order."""
