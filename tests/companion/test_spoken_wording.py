"""Issue 30, item 11: words heard at the table read as meant (a card as a card, the player addressed as
"you", no suit said twice, a dealt hand's name said once, no hand announced where there are no cards)."""

from __future__ import annotations

import pytest

from companion.buffet.announcer import BuffetVoice
from companion.chaud_devant.announcer import EditionVoice, Theme
from companion.chaud_devant.phrases import menu_name
from companion.deck_phrases import DeckVoice
from companion.robot_seats import RobotHandKnown, RobotSetup
from companion.robot_talk import describe_robot
from companion.robot_words import RobotVoice
from companion.seam import Part
from companion.tag_deal import DealPlan, TagDeal

OVERFLOW = {"fr": "Débordement de Pois", "en": "Pea overflow card", "nl": "Overkookkaart van Erwten"}


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_overflow_card_is_named_as_a_card_never_as_a_verb(language: str) -> None:
    """"Marmiton joue Pois déborde." read the card's name as a verb ("overkoken" in Dutch)."""
    name = Theme(language).card("pea-x")
    assert name == OVERFLOW[language]
    assert not name.endswith(("déborde", "overkoken", "overflow", "overflows"))


# The robot's own reasons, said only to a player asking "what would the chef play?" (the table hears the
# public reasons of robot_public.py): they speak to that player.
PRIVATE = [("chaud_devant", Part("robot_why_menu", {"menu": "pea"})), ("chaud_devant", Part("robot_why_least_bad")),
           ("chaud_devant", Part("robot_why_dump")), ("buffet", Part("robot_why_let_go")),
           ("buffet", Part("robot_why_save"))]
YOU = {"fr": ("votre", "vous", "vos"), "en": ("your", "you"), "nl": ("je",)}
IT = {"fr": (" sa ", " ses ", " lui ", " se "), "en": (" its ", " it "), "nl": (" de hand", " de goede", " de hoge")}


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
@pytest.mark.parametrize(("game", "part"), PRIVATE)
def test_the_chefs_reason_speaks_to_the_player_who_asked(language: str, game: str, part: Part) -> None:
    voice = EditionVoice("2005") if game == "chaud_devant" else BuffetVoice()
    said = f" {voice.render([part], language)} "
    assert any(f" {word} " in said for word in YOU[language]), said
    assert not any(word in said for word in IT[language]), said


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_a_trick_taken_is_worded_for_the_robot_and_for_the_player_alike(language: str) -> None:
    """"worth 5 points to it" (and "qui lui rapporte") fit neither the hint nor the table's ear."""
    said = EditionVoice("2005").render([Part("robot_why_take", {"points": 5})], language)
    assert said == {"fr": "pour gagner 5 points", "en": "to win 5 points", "nl": "om 5 punten te winnen"}[language]


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_a_robots_public_reasons_are_a_few_words(language: str) -> None:
    """Issue 30: the reason took about 3.4 s of each robot's line ("pour prendre ce pli et ses 3 points");
    a few words keep the table's pace (one robot card a line, no slower)."""
    voice = EditionVoice("2005")
    said = [voice.render([Part(key, fields)], language) for key, fields in (
        ("robot_why_under", {}), ("robot_why_take_now", {}), ("robot_why_take", {"points": 12}))]
    assert all(len(reason) <= 28 for reason in said), said


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_a_suit_of_the_hand_names_each_card_without_its_suit_again(language: str) -> None:
    """Key 1 said "Pois : Pois 5 ; Pois 7": inside a suit a card is its value, bouillon or overflow card."""
    theme = Theme(language)
    assert theme.face("pea-5a") == "5"
    assert theme.face("pea-0a") == "bouillon"
    assert theme.face("pea-x") == {"fr": "carte débordement", "en": "overflow card", "nl": "overkookkaart"}[language]


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_a_hand_dealt_by_tag_names_its_player_once_then_counts(language: str) -> None:
    """A practice with cards deals the person's twelve cards in a row: "Ana." twelve times became one name."""
    deal = TagDeal(DealPlan(("Ana", "Marmiton"), (12, 0), 0, frozenset(f"c{i}" for i in range(12))))
    voice = DeckVoice(lambda code, lang: code)
    said = [voice.render([deal.read(f"c{i}")], language) for i in range(12)]
    assert said[:11] == [f"{count}." for count in range(1, 12)], said  # deal_start already named her
    assert "Ana" not in said[11]  # then "the deal is complete"


def test_an_alternating_deal_still_names_whose_card_comes_next() -> None:
    deal = TagDeal(DealPlan(("Ana", "Bob"), (2, 2), 0, frozenset({"a", "b", "c", "d"})))
    voice = DeckVoice(lambda code, lang: code)
    assert [voice.render([deal.read(code)], "en") for code in "abc"] == ["Bob.", "Ana.", "Bob."]


def test_uneven_hands_say_the_name_when_the_seat_changes_and_the_count_while_it_stays() -> None:
    deal = TagDeal(DealPlan(("Ana", "Bob"), (3, 1), 0, frozenset({"a", "b", "c", "d"})))
    voice = DeckVoice(lambda code, lang: code)
    assert [voice.render([deal.read(code)], "en") for code in "abc"] == ["Bob.", "Ana.", "2."]


def test_a_practice_without_cards_announces_no_known_hand() -> None:
    """Four "Main de <robot> connue : 9 cartes." were said at a table where nobody holds cards."""
    effects = [RobotHandKnown(name, 9, None) for name in ("Ana", "Bip", "Bop", "Bup")]
    virtual = RobotSetup({"Bip": "chef", "Bop": "chef", "Bup": "chef"}, "virtual", True, 0)
    assert describe_robot(effects, virtual, {"type": "robot"}) == []
    real = RobotSetup({"Bip": "chef"}, "", False, 0)  # at a real table the host is told the robot's hand is in
    assert [part.key for part in describe_robot(effects[1:2], real, {"type": "robot"})] == ["robot.hand_known"]


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
@pytest.mark.parametrize("menu", ["pea", "pepper", "none"])
def test_the_chefs_menu_advice_names_the_menu_once_and_reads_for_no_soup(language: str, menu: str) -> None:
    """Issue 30: "The chef would choose the no soup menu. Why: because your hand suits this menu best: no soup."
    said the menu twice and read "the no soup menu"."""
    voice = RobotVoice(EditionVoice("2005"), EditionVoice("2005"))
    said = voice.render([Part("robot.suggest_menu", {"menu": menu}),
                         Part("robot.why", {"why": Part("robot_why_menu", {"menu": menu})})], language)
    assert said.count(menu_name(menu, language)) == 1, said
    assert "no soup menu" not in said and "menu pas de soupe" not in said and "menu geen soep" not in said, said
