"""Every game's cue to act reaches the person (issue 30, item 3): a step's call to choose is said on every
phone and in every profile; a named turn is said on its player's phone."""

from __future__ import annotations

import pytest

from web_ui.game_pages import GamePages, speech_keys
from web_ui.games.buffet.pages import BuffetPages
from web_ui.games.chaud_devant.pages import ChaudDevantPages


@pytest.mark.parametrize("pages", [ChaudDevantPages, BuffetPages])
def test_every_turn_key_reaches_a_phone_and_a_call_to_choose_survives_the_brief_profile(
        pages: type[GamePages]) -> None:
    keys = pages.speech_keys
    heard = set(keys["always"]) | set(keys["if_named"])
    assert keys["turn"] and set(keys["turn"]) <= heard  # "ce qui me concerne" keeps each cue
    for key in keys["turn"]:
        if key.endswith("_choose"):  # names the people it calls: said on their phones, in every profile (and
            assert key in keys["if_named"] and key not in keys["always"], key  # never to one already out)
            assert key not in keys["brief_drops"], key


def test_a_face_down_step_calls_everyone_to_choose() -> None:
    choose = [key for key in BuffetPages.speech_keys["turn"] if key.endswith("_choose")]
    assert {"buffet_ready_choose", "new_step_choose"} <= set(choose)


@pytest.mark.parametrize("key", ["new_step", "buffet_ready"])
def test_the_line_naming_who_reveals_first_is_her_cue_in_every_profile(key: str) -> None:
    """With cards, a step's (or round's) opening line is the only cue for the person who reveals first: it
    names her, so the page keeps it in the brief profile and on her phone (the second review found it
    dropped)."""
    from companion.buffet.announcer import BuffetVoice
    from companion.seam import Part

    keys = BuffetPages.speech_keys
    assert key in keys["turn"] and key in keys["if_named"]
    fields = {"player": "Ana", "part": None, "buffet": []}
    for language in ("fr", "en", "nl"):
        assert "Ana" in BuffetVoice().render([Part(key, fields)], language)


def test_a_chaud_devant_only_table_still_has_a_heading_per_round() -> None:
    """Each game declares the parts that open its rounds (Chaud Devant's came only through the buffet's list)."""
    assert speech_keys({"chaud_devant": ChaudDevantPages()})["round_opens"] == ["round_opened"]
