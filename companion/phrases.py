"""What the table itself says, whatever the game: its languages, reader health, nothing to repeat.

Its words are in the catalogs (`companion/catalogs.py`), under the context `table.<key>`.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.catalogs import DEFAULT_LANGUAGE, LANGUAGES, Phrasebook, phrase_format, said, said_plural
from companion.reader_words import Words
from companion.seam import Part

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "TABLE_VOICE", "TableVoice", "phrase_format"]

SAID = Phrasebook(
    "table.",
    said("table.where_no_game", "No game in progress."),
    said("table.nothing_yet", "Nothing to repeat yet."),
    said("table.reader_ok", "Reader {reader} ready."),
    said("table.reader_down", "Reader {reader} down: {detail}."),
    said("table.reader_missing", "Reader {reader} missing: {detail}."),
    said("table.reader_told", "Reader {reader}: {detail}."),
    said("table.storage_full", "The disk is full: nothing is being recorded."),
    said("table.storage_read_only", "The disk is read-only: nothing is being recorded."),
    said("table.storage_io", "The disk cannot write: nothing is being recorded."),
    said("table.storage_ok", "The disk writes again: plays are being recorded."),
    said("table.seat_released_new_link", "{player}'s seat released: the host hands out its new link from Setup."),
    said("table.uid_refused", "Refused: {uid} is not a tag's UID (4, 7 or 10 bytes); nothing was noted."),
    said("table.deck_set_aside", "The deck file could not be read ({file}): it is set aside and the table starts"
                                 " without it; import or enroll a deck on the Deck page."),
    said("table.pin_guessing", "Warning: someone is trying to guess the table PIN."),
    # a club member's card read at the table between games
    said("table.club_card_seat", "{player}, seat {seat}."),
    said("table.club_card_elsewhere", "{player}: table {table}, seat {seat}."),
    said("table.club_card_not_seated", "{player}: no seat in the next game."),
    said("table.club_card_unknown", "Unknown card: nothing was changed."),
    said("table.club_card_unreachable", "Card not recognised: the club is out of reach."),
    said("table.club_card_bound", "Card registered: {player}."),
    said("table.club_card_taken", "Refused: this card is {player}'s already."),
    said("table.game_resumed_turn", "Game of {date:day} resumed: {turn} to play."),
    said("table.game_resumed", "Game of {date:day} resumed: round {round}."),
    said("table.game_abandoned", "Game of {date:day} abandoned in round {round}."),
    said("table.club_sent", "Results sent to the club."),
    said("table.club_twice", "Another table uses this table's join code: results are no longer sent. Call the"
                             " director."),
    said("table.club_too_large", "Results stopped at event {seq}: it is too large for the club. Call the director."),
    said("table.club_corrected", "The director ({who}) corrected a result: {player}, {stars}. Reason: {why}."),
    said("table.club_voided", "The director ({who}) voided a game of this table. Reason: {why}."),
    said("table.club_confirmed", "The director ({who}) confirmed the final scores of a game of this table."
                                 " Reason: {why}."),
    said("table.club_withdrawn", "The director ({who}) withdrew a decision about a game of this table."),
    said("table.scores_confirmed", "{player} confirms the final scores."),
    said("table.scores_disputed", "{player} disputes the final scores: the director is called."),
    said("table.confirm_not_over", "{player} cannot confirm yet: the game is not over."),
    said("table.confirm_refused", "Confirmation refused: {player} does not play this game."),
    said("table.club_confirm_needed", "Game over: a second player confirms the scores on their phone before"
                                      " they count for the club."),
    said_plural("table.club_waiting",
                "Club out of reach; waiting: {count} event, kept at this table.",
                "Club out of reach; waiting: {count} events, kept at this table.", "count"),
)


class TableVoice:
    """Renders the table's own parts (reader health, nothing yet, no game) in any language."""

    def render(self, parts: Iterable[Part], language: str) -> str:
        return " ".join(SAID.format(part.key, language, **{name: value.text(language) if isinstance(value, Words)
                                                           else value for name, value in part.fields.items()})
                        for part in parts)


TABLE_VOICE = TableVoice()
