"""The rules the console chooses for a seated game: each game's own, checked before anything is seated."""

from __future__ import annotations

import pytest

from club.rules import RuleError, rules_from_form
from marmite.games import GAMES


def test_chaud_devants_rules_are_taken_and_empty_means_the_games_default() -> None:
    form = {"players": "A\nB\nC", "rule-edition": "2023", "rule-menu_reveal": ""}
    assert rules_from_form("chaud_devant", form, GAMES) == {"edition": "2023"}
    both = {"rule-edition": "2005", "rule-menu_reveal": "sequential"}
    assert rules_from_form("chaud_devant", both, GAMES) == {"edition": "2005", "menu_reveal": "sequential"}


@pytest.mark.parametrize(("form", "says"), [
    ({"rule-edition": "1999"}, "edition: '1999' is not one of 2005, 2023"),
    ({"rule-menu_reveal": "secret"}, "menu_reveal: 'secret' is not one of simultaneous, sequential"),
    ({"rule-speed": "fast"}, "'speed' is not a rule of this game"),
])
def test_a_bad_value_or_an_unknown_rule_is_refused_saying_which(form: dict[str, str], says: str) -> None:
    with pytest.raises(RuleError) as refused:
        rules_from_form("chaud_devant", form, GAMES)
    assert str(refused.value) == says


def test_sus_au_buffet_has_no_setup_rules_and_ignores_chaud_devants_left_on_the_form() -> None:
    assert rules_from_form("buffet", {"rule-edition": "2023", "rule-menu_reveal": "sequential"}, GAMES) == {}
    with pytest.raises(RuleError):
        rules_from_form("buffet", {"rule-plates": "12"}, GAMES)
