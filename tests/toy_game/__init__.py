"""Relay, a toy third game that lives only in the tests: hop cards race each player to square ten.

It proves the seam: its rules (`rules.py`), its pages (`pages.py`, `templates/relay/`) and its demo are
this package alone, and hosting it is one `Hosted(...)` line in `tests/conformance/registry.py`.
"""

from tests.toy_game.pages import PAGES
from tests.toy_game.rules import DEMO, KIND

__all__ = ["DEMO", "KIND", "PAGES"]
