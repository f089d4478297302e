"""Why an event was refused: the contract's reason codes, in order of precedence."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """A refusal reason; where several apply, the first in this order is given."""

    BAD_SETUP = "bad_setup"
    NO_GAME = "no_game"
    UNKNOWN_PLAYER = "unknown_player"
    UNKNOWN_CARD = "unknown_card"
    WRONG_PHASE = "wrong_phase"
    ALREADY_PLAYED = "already_played"
    MENU_USED = "menu_used"
    NOT_YOUR_TURN = "not_your_turn"
    MENU_FORBIDDEN = "menu_forbidden"
    BAD_HAND = "bad_hand"
    OUT_OF_TURN = "out_of_turn"
    NOT_IN_HAND = "not_in_hand"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    NOTHING_TO_UNDO = "nothing_to_undo"
