"""What the deck desk says while a deck is enrolled, checked or dealt, in French, English and Dutch.

Card fields are codes; the voice names them through the games (`namer`), so a prompt can be
re-rendered in another language. A deal's parts never name a card: the whole table hears them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from companion.phrases import DEFAULT_LANGUAGE
from companion.seam import Part

Namer = Callable[[str, str], str]
"""(code, language) → the card's spoken name."""

PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "enroll_ask_new": "{card}.",
        "enroll_ask_again": "De nouveau : {card}.",
        "enroll_ask_replace": "Nouvelle étiquette pour : {card}.",
        "enroll_learned": "Noté.",
        "enroll_same": "Déjà connue.",
        "enroll_taken": "Refusée : cette étiquette est déjà {card}.",
        "enroll_skipped": "{card} : passée.",
        "enroll_done": "Enregistrement terminé : {count} sur {total}.",
        "enroll_done_missing": "Pause : {count} sur {total} ; il manque {missing}.",
        "enroll_stopped": "Enregistrement arrêté ; il reprendra à cette carte.",
        "check_start": "Passez tout le paquet au-dessus du lecteur.",
        "check_seen": "{count}.",
        "check_unknown": "Étiquette inconnue.",
        "check_twice": "{card} : déjà vue.",
        "check_ok": "Paquet complet : {total} cartes, aucune en double, aucune inconnue.",
        "check_missing": "Pas vues : {cards}.",
        "check_unknown_count": "Étiquettes inconnues : {count}.",
        "check_doubled": "Vues deux fois : {cards}.",
        "deal_start": "Distribuez : chaque carte au-dessus du lecteur, en commençant par {player}.",
        "deal_given": "{next}.",
        "deal_not_a_card": "Pas une carte de soupe ; à {player}.",
        "deal_already": "Carte déjà distribuée ; à {player}.",
        "deal_complete": "Distribution terminée.",
        "deal_undone": "Annulé ; à {player}.",
        "deal_nothing_to_undo": "Rien à annuler.",
        "deal_refused": "Mains refusées : {reason}.",
        "enroll_written": "Code écrit sur l'étiquette et vérifié.",
        "enroll_write_failed": "Écriture ratée sur l'étiquette ; reposez la carte.",
        "deck_offer": "Cette carte se présente comme {card} ; ajoutez-la au jeu sur la page Jeu de cartes.",
        "deck_adopted": "{card} ajoutée au jeu.",
        "and": " et ",
        "and_more": " et {count} autres",
    },
    "en": {
        "enroll_ask_new": "{card}.",
        "enroll_ask_again": "Again: {card}.",
        "enroll_ask_replace": "New tag for: {card}.",
        "enroll_learned": "Noted.",
        "enroll_same": "Already known.",
        "enroll_taken": "Refused: this tag is already {card}.",
        "enroll_skipped": "{card}: skipped.",
        "enroll_done": "Enrollment complete: {count} of {total}.",
        "enroll_done_missing": "Paused: {count} of {total}; missing {missing}.",
        "enroll_stopped": "Enrollment stopped; it will resume at this card.",
        "check_start": "Pass the whole deck over the reader.",
        "check_seen": "{count}.",
        "check_unknown": "Unknown tag.",
        "check_twice": "{card}: already seen.",
        "check_ok": "Deck complete: {total} cards, none twice, none unknown.",
        "check_missing": "Not seen: {cards}.",
        "check_unknown_count": "Unknown tags: {count}.",
        "check_doubled": "Seen twice: {cards}.",
        "deal_start": "Deal: each card over the reader, starting with {player}.",
        "deal_given": "{next}.",
        "deal_not_a_card": "Not a soup card; to {player}.",
        "deal_already": "Card already dealt; to {player}.",
        "deal_complete": "The deal is complete.",
        "deal_undone": "Undone; to {player}.",
        "deal_nothing_to_undo": "Nothing to undo.",
        "deal_refused": "Hands refused: {reason}.",
        "enroll_written": "Code written on the tag and verified.",
        "enroll_write_failed": "Writing the tag failed; put the card down again.",
        "deck_offer": "This card says it is {card}; add it to the deck on the Deck page.",
        "deck_adopted": "{card} added to the deck.",
        "and": " and ",
        "and_more": " and {count} more",
    },
    "nl": {
        "enroll_ask_new": "{card}.",
        "enroll_ask_again": "Opnieuw: {card}.",
        "enroll_ask_replace": "Nieuwe tag voor: {card}.",
        "enroll_learned": "Genoteerd.",
        "enroll_same": "Al bekend.",
        "enroll_taken": "Geweigerd: deze tag is al {card}.",
        "enroll_skipped": "{card}: overgeslagen.",
        "enroll_done": "Inlezen klaar: {count} van {total}.",
        "enroll_done_missing": "Pauze: {count} van {total}; nog niet: {missing}.",
        "enroll_stopped": "Inlezen gestopt; het gaat verder bij deze kaart.",
        "check_start": "Haal het hele spel over de lezer.",
        "check_seen": "{count}.",
        "check_unknown": "Onbekende tag.",
        "check_twice": "{card}: al gezien.",
        "check_ok": "Spel compleet: {total} kaarten, geen dubbele, geen onbekende.",
        "check_missing": "Niet gezien: {cards}.",
        "check_unknown_count": "Onbekende tags: {count}.",
        "check_doubled": "Twee keer gezien: {cards}.",
        "deal_start": "Delen: elke kaart over de lezer, te beginnen bij {player}.",
        "deal_given": "{next}.",
        "deal_not_a_card": "Geen soepkaart; naar {player}.",
        "deal_already": "Kaart al gedeeld; naar {player}.",
        "deal_complete": "Het delen is klaar.",
        "deal_undone": "Teruggedraaid; naar {player}.",
        "deal_nothing_to_undo": "Niets terug te draaien.",
        "deal_refused": "Handen geweigerd: {reason}.",
        "enroll_written": "Code op de tag geschreven en gecontroleerd.",
        "enroll_write_failed": "Schrijven op de tag mislukt; leg de kaart opnieuw neer.",
        "deck_offer": "Deze kaart zegt dat ze {card} is; voeg ze toe op de pagina Kaartspel.",
        "deck_adopted": "{card} toegevoegd aan het spel.",
        "and": " en ",
        "and_more": " en nog {count}",
    },
}

MAX_NAMED = 8
"""A spoken list names at most this many cards, then says how many more."""


class DeckVoice:
    """Renders the deck desk's parts, naming cards through `namer`."""

    def __init__(self, namer: Namer) -> None:
        self.namer = namer

    def render(self, parts: Iterable[Part], language: str) -> str:
        phrases = PHRASES.get(language, PHRASES[DEFAULT_LANGUAGE])
        return " ".join(text for part in parts if (text := self._part(part, language, phrases)))

    def _part(self, part: Part, language: str, phrases: dict[str, str]) -> str:
        fields: dict[str, Any] = dict(part.fields)
        if part.key == "enroll_ask":
            return phrases[f"enroll_ask_{fields['mode']}"].format(card=self.namer(fields["card"], language))
        if part.key == "enroll_done":
            key = "enroll_done_missing" if fields["missing"] else "enroll_done"
            return phrases[key].format(count=fields["count"], total=fields["total"],
                                       missing=self.names(fields["missing"], language))
        if part.key == "check_report":
            return self._report(fields, language, phrases)
        if "card" in fields:
            fields["card"] = self.namer(fields["card"], language)
        if part.key == "deal_given" and fields.get("next") is None:
            return ""
        return phrases[part.key].format(**fields)

    def _report(self, report: dict[str, Any], language: str, phrases: dict[str, str]) -> str:
        if report["ok"]:
            return phrases["check_ok"].format(total=report["total"])
        said = []
        if report["missing"]:
            said.append(phrases["check_missing"].format(cards=self.names(report["missing"], language)))
        if report["unknown"]:
            said.append(phrases["check_unknown_count"].format(count=len(report["unknown"])))
        if report["doubled"]:
            said.append(phrases["check_doubled"].format(cards=self.names(report["doubled"], language)))
        return " ".join(said)

    def names(self, codes: list[str], language: str) -> str:
        """Cards named in a spoken list: "A, B et C", at most MAX_NAMED then "et 3 autres"."""
        phrases = PHRASES.get(language, PHRASES[DEFAULT_LANGUAGE])
        named = [self.namer(code, language) for code in codes[:MAX_NAMED]]
        rest = len(codes) - len(named)
        if rest:
            return "; ".join(named) + phrases["and_more"].format(count=rest)
        if len(named) <= 1:
            return "".join(named)
        return "; ".join(named[:-1]) + phrases["and"] + named[-1]
