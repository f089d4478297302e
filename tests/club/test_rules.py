"""The rules the console chooses for a seated game: each game's own, checked before anything is seated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from club.hub import ClubHub
from club.rules import RuleError, rules_from_form
from club.store import Store
from club.topics import ClubURL
from club.web import create_club_app
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


def test_the_console_names_each_games_title_and_rules_in_the_clubs_language(tmp_path: Path) -> None:
    """The game's own words (its `KIND.club`), as the console showed them when it named the games itself."""
    store = Store.open(tmp_path)
    hub = ClubHub(store, ClubURL.parse("mqtt://hub:secret@127.0.0.1:1/rules"), GAMES, console=lambda line: None)
    client = create_club_app(hub, pin="2468").test_client()
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/director").get_data(as_text=True))
    assert found is not None
    client.post("/director/unlock", data={"pin": "2468", "csrf_token": found.group(1)})
    console = client.get("/director").get_data(as_text=True)
    assert '<option value="buffet">Sus au buffet !</option>' in console
    assert '<option value="chaud_devant" selected>Chaud Devant !</option>' in console
    assert '<label for="rule-menu_reveal">Révélation des menus</label>' in console
    assert '<option value="sequential">l&#39;un après l&#39;autre</option>' in console
    assert '<option value="2023">2023</option>' in console  # a value the game does not name: as it is
    board = client.get("/").get_data(as_text=True)
    assert "(Chaud Devant ! : étoiles ; Sus au buffet ! : points)" in board
    hub.cards.close()
    store.close()
