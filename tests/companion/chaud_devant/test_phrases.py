"""What players hear and read: plurals, French elision, the same fields in every language."""

from __future__ import annotations

import pytest

from companion.catalogs import text_of
from companion.chaud_devant import KIND
from companion.chaud_devant.announcer import EditionVoice
from companion.chaud_devant.phrases import SAID
from companion.seam import Part


def say(part: Part, language: str = "fr", edition: str = "2005") -> str:
    return EditionVoice(edition).render([part], language)


def scored(*scores: tuple[str, int, int]) -> Part:
    return Part("round_scored", {"round": 2, "scores": list(scores)})


def test_star_counts_take_the_plural_of_their_language() -> None:
    part = scored(("Anne", 1, 1), ("Bruno", -2, 0), ("Chloé", 0, 6))
    assert say(part) == "Fin de la manche 2. Anne +1, 1 étoile ; Bruno -2, 0 étoile ; Chloé +0, 6 étoiles."
    assert say(part, "en") == "End of round 2. Anne +1, 1 star; Bruno -2, 0 stars; Chloé +0, 6 stars."
    assert say(part, "nl") == "Einde van ronde 2. Anne +1, 1 ster; Bruno -2, 0 sterren; Chloé +0, 6 sterren."


@pytest.mark.parametrize(("winners", "en", "nl"), [
    (["Bruno"], "Bruno wins with 6 stars", "Bruno wint met 6 sterren"),
    (["Anne", "Bruno"], "Anne and Bruno win with 6 stars", "Anne en Bruno winnen met 6 sterren"),
])
def test_winners_agree_with_their_number(winners: list[str], en: str, nl: str) -> None:
    part = Part("game_over", {"winners": winners, "stars": 6})
    assert en in say(part, "en")
    assert nl in say(part, "nl")


def test_french_elides_de_before_a_vowel_or_mute_h() -> None:
    revoke = {"void_trick": 1, "proof_trick": 3}
    anne = say(Part("revoke", {**revoke, "player": "Anne", "suit": "onion"}))
    assert "Renonce d'Anne : pas d'Oignon au pli 1" in anne
    assert "pas d'Insectes" in say(Part("revoke", {**revoke, "player": "Bruno", "suit": "pea"}), edition="2023")
    assert "Renonce de Bruno : pas de Pois" in say(Part("revoke", {**revoke, "player": "Bruno", "suit": "pea"}))
    helene = say(Part("game_over", {"winners": ["Hélène"], "stars": 1}))
    assert helene == "Fin de la partie. Victoire d'Hélène avec 1 étoile."
    assert say(Part("hand_recorded", {"player": "Ulysse", "size": 1})) == "Main d'Ulysse enregistrée, 1 carte."
    assert "no Onion at trick 1" in say(Part("revoke", {**revoke, "player": "Anne", "suit": "onion"}), "en")


def test_the_unclaimed_pot_is_a_marmite_in_french() -> None:
    assert say(Part("unclaimed")) == "La marmite inachevée n'est à personne."


@pytest.mark.parametrize("count", range(-3, 4))
def test_plural_forms_follow_each_catalogs_rule_on_the_magnitude(count: int) -> None:
    """French counts 0 and 1 in the singular, English and Dutch only 1; −1 reads as 1 does."""
    stars = SAID.messages["stars"]
    assert text_of(stars, "fr", count) == ("{stars} étoile" if abs(count) <= 1 else "{stars} étoiles")
    assert text_of(stars, "en", count) == ("{stars} star" if abs(count) == 1 else "{stars} stars")
    assert text_of(stars, "nl", count) == ("{stars} ster" if abs(count) == 1 else "{stars} sterren")


def test_an_unknown_language_speaks_french() -> None:
    assert say(Part("unclaimed"), "de") == say(Part("unclaimed"), "fr")


def test_a_bouillon_is_called_bouillon_when_enrolled_as_when_played() -> None:
    """Found in the move: English enrolment said "stock" where play says "bouillon"."""
    assert KIND.tag_name("pea-0a", "en") == "Pea, zero, bouillon — first copy"
    assert say(Part("card", {"card": "pea-0a", "sum": 0, "spoils": None}), "en") == "Pea bouillon — 0."
