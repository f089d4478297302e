"""The deck page's words: English source text by key (contexts `deck_page.<key>`); the catalogs translate them."""

from __future__ import annotations

from companion.catalogs import Phrasebook, said

WORDS = Phrasebook(
    "deck_page.",
    said("deck_page.title", "Deck"),
    said("deck_page.link", "Deck (NFC tags)"),
    said("deck_page.decks", "My decks"),
    said("deck_page.active", "active"),
    said("deck_page.cards", "tags"),
    said("deck_page.checked", "checked on"),
    said("deck_page.never_checked", "never checked"),
    said("deck_page.use", "Use"),
    said("deck_page.new_deck", "New deck"),
    said("deck_page.deck_name", "Name of the new deck"),
    said("deck_page.create", "Create"),
    said("deck_page.file", "Deck file"),
    said("deck_page.import_label", "Import a deck file (uid,card)"),
    said("deck_page.import", "Import"),
    said("deck_page.export", "Export the active deck"),
    said("deck_page.enroll", "Enroll the cards"),
    said("deck_page.enroll_help",
        "Put each card asked for on the reader, in box order: suit by suit, value by value, then the menu "
        "cards, seat by seat."),
    said("deck_page.start", "Start or resume"),
    said("deck_page.again", "Start over"),
    said("deck_page.skip", "Skip this card"),
    said("deck_page.back", "Previous card"),
    said("deck_page.stop", "Stop (resume later)"),
    said("deck_page.redo", "Redo this card"),
    said("deck_page.redo_label", "Replace a lost or damaged card"),
    said("deck_page.now", "Card asked for"),
    said("deck_page.progress", "Progress"),
    said("deck_page.missing", "Cards without a tag"),
    said("deck_page.check", "Check the deck"),
    said("deck_page.check_help", "Pass the whole deck over the reader, then press “Finish”."),
    said("deck_page.check_start", "Start the check"),
    said("deck_page.check_finish", "Finish"),
    said("deck_page.not_seen", "Not seen"),
    said("deck_page.unknown", "Unknown tags"),
    said("deck_page.doubled", "Seen twice"),
    said("deck_page.deal", "Deal with the reader"),
    said("deck_page.deal_help",
        "The dealer passes each card over the reader while dealing, one at a time, clockwise from the first player."),
    said("deck_page.deal_start", "Start the deal"),
    said("deck_page.deal_undo", "Undo the last card"),
    said("deck_page.deal_cancel", "Abandon the deal"),
    said("deck_page.every_round", "Every round of this game (known hands)"),
    said("deck_page.next", "Next card to"),
    said("deck_page.guide", "Deck adaptation guide (printable)"),
    said("deck_page.unlock", "Unlock with the PIN to act here."),
    said("deck_page.self_describing", "Self-describing tags"),
    said("deck_page.offers", "Cards that name themselves"),
    said("deck_page.add", "Add to the deck"),
    said("deck_page.hand_title", "My hand"),
    said("deck_page.read_hand", "Read my hand aloud"),
    said("deck_page.edition", "Edition of the cards"),
    said("deck_page.edition_2005", "2005 (Too Many Cooks)"),
    said("deck_page.edition_2023", "2023 (Foodie Forest)"),
    said("deck_page.game", "Cards of the game"),
)


def words(language: str) -> dict[str, str]:
    """The deck page's words in `language` (French when unknown)."""
    return WORDS.words(language)
