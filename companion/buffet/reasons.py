"""Why a Sus au buffet ! event was refused: the contract's reason codes, in order of precedence."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """A refusal reason; where several apply, the first in this order is given."""

    BAD_SETUP = "bad_setup"
    NO_GAME = "no_game"
    UNKNOWN_CARD = "unknown_card"
    WRONG_PHASE = "wrong_phase"
    ALREADY_PLAYED = "already_played"
    NOTHING_TO_UNDO = "nothing_to_undo"
