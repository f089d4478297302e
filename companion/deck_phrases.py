"""What the deck desk says while a deck is enrolled, checked or dealt (contexts `deck.<key>` in the catalogs).

Card fields are codes; the voice names them through the games (`namer`), so a prompt can be
re-rendered in another language. A deal's parts never name a card: the whole table hears them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from companion.catalogs import Phrasebook, said, said_plural
from companion.seam import Part

Namer = Callable[[str, str], str]
"""(code, language) → the card's spoken name."""

SAID = Phrasebook(
    "deck.",
    said("deck.enroll_ask_new", "{card}."),
    said("deck.enroll_ask_again", "Again: {card}."),
    said("deck.enroll_ask_replace", "New tag for: {card}."),
    said("deck.enroll_learned", "Noted."),
    said("deck.enroll_same", "Already known."),
    said("deck.enroll_taken", "Refused: this tag is already {card}."),
    said("deck.enroll_skipped", "{card}: skipped."),
    said("deck.enroll_done", "Enrollment complete: {count} of {total}."),
    said("deck.enroll_done_missing", "Paused: {count} of {total}; missing {missing}."),
    said("deck.enroll_stopped", "Enrollment stopped; it will resume at this card."),
    said("deck.check_start", "Pass the whole deck over the reader."),
    said("deck.check_seen", "{count}."),
    said("deck.check_unknown", "Unknown tag."),
    said("deck.check_twice", "{card}: already seen."),
    said("deck.check_ok", "Deck complete: {total} cards, none twice, none unknown."),
    said("deck.check_missing", "Not seen: {cards}."),
    said("deck.check_unknown_count", "Unknown tags: {count}."),
    said("deck.check_doubled", "Seen twice: {cards}."),
    said("deck.deal_start", "Deal: each card over the reader, starting with {player}."),
    said("deck.deal_given", "{next}."),
    said("deck.deal_given_again", "{held}."),
    said("deck.deal_not_a_card", "Not a soup card; to {player}."),
    said("deck.deal_not_a_mouse", "Not a mouse card; to {player}."),
    said("deck.deal_hands_full", "Every hand dealt with the reader is full: nothing to deal."),
    said("deck.deal_already", "Card already dealt; to {player}."),
    said("deck.deal_complete", "The deal is complete."),
    said("deck.deal_undone", "Undone; to {player}."),
    said("deck.deal_nothing_to_undo", "Nothing to undo."),
    said("deck.deal_refused", "Hands refused: {reason}."),
    said("deck.reader_busy_enroll", "The reader is enrolling the deck: cards are not played. To free it, press"
                                    " Stop (resume later) on the Deck page."),
    said("deck.reader_busy_check", "The reader is checking the deck: cards are not played. To free it, press"
                                   " Finish on the Deck page."),
    said("deck.reader_busy_deal", "The reader is dealing by tag: cards are not played. To free it, press Abandon"
                                  " the deal on the Deck page."),
    said("deck.deal_kept", "Every card is dealt but the disk cannot record the hands: the deal is kept and will be"
                           " recorded as soon as the disk writes again."),
    said("deck.enroll_written", "Code written on the tag and verified."),
    said("deck.enroll_write_failed", "Writing the tag failed; put the card down again."),
    said("deck.self_describing_refused",
         "Refused: this reader cannot write on tags, so the cards cannot describe themselves."),
    said("deck.deck_offer", "This card says it is {card}; add it to the deck on the Deck page."),
    said("deck.deck_adopted", "{card} added to the deck."),
    said("deck.reader_alike", "Refused: this reader types the same number for {cards}; it needs a reader that "
                              "types the whole UID."),
    said("deck.alike_sep", "; and also for "),
    said("deck.and", " and "),
    said("deck.list_sep", "; "),
    said_plural("deck.and_more", " and {count} more", " and {count} more", "count"),
)

MAX_NAMED = 8
"""A spoken list names at most this many cards, then says how many more."""


class DeckVoice:
    """Renders the deck desk's parts, naming cards through `namer`."""

    def __init__(self, namer: Namer) -> None:
        self.namer = namer

    def render(self, parts: Iterable[Part], language: str) -> str:
        return " ".join(text for part in parts if (text := self._part(part, language)))

    def _part(self, part: Part, language: str) -> str:
        fields: dict[str, Any] = dict(part.fields)
        if part.key == "enroll_ask":
            return SAID.format(f"enroll_ask_{fields['mode']}", language, card=self.namer(fields["card"], language))
        if part.key == "enroll_done":
            key = "enroll_done_missing" if fields["missing"] else "enroll_done"
            return SAID.format(key, language, count=fields["count"], total=fields["total"],
                               missing=self.names(fields["missing"], language))
        if part.key == "check_report":
            return self._report(fields, language)
        if part.key == "reader_alike":
            separator = SAID.template("alike_sep", language)
            groups = separator.join(self.names(list(group), language) for group in fields["groups"])
            return SAID.format("reader_alike", language, cards=groups)
        if "card" in fields:
            fields["card"] = self.namer(fields["card"], language)
        if part.key == "deal_given" and fields.get("next") is None:
            return ""
        if part.key == "deal_given" and fields["next"] == fields.get("player"):  # the same hand again: its name
            # was said once, then only how many cards it holds ("3.")
            return SAID.format("deal_given_again", language, held=fields.get("held", fields.get("count")))
        return SAID.format(part.key, language, **fields)

    def _report(self, report: dict[str, Any], language: str) -> str:
        if report["ok"]:
            return SAID.format("check_ok", language, total=report["total"])
        spoken = []
        if report["missing"]:
            spoken.append(SAID.format("check_missing", language, cards=self.names(report["missing"], language)))
        if report["unknown"]:
            spoken.append(SAID.format("check_unknown_count", language, count=len(report["unknown"])))
        if report["doubled"]:
            spoken.append(SAID.format("check_doubled", language, cards=self.names(report["doubled"], language)))
        return " ".join(spoken)

    def names(self, codes: list[str], language: str) -> str:
        """Cards named in a spoken list: "A ; B et C", at most MAX_NAMED then "et 3 autres"."""
        named = [self.namer(code, language) for code in codes[:MAX_NAMED]]
        rest = len(codes) - len(named)
        separator = SAID.template("list_sep", language)
        if rest:
            return separator.join(named) + SAID.format("and_more", language, count=rest)
        if len(named) <= 1:
            return "".join(named)
        return separator.join(named[:-1]) + SAID.template("and", language) + named[-1]
