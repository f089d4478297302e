"""What Chaud Devant ! says and shows: its messages by key, in English; the catalogs translate them.

Each message's gettext context is `chaud_devant.<key>`; suit names are per edition theme (the
2023 edition renames the suits, display only): `chaud_devant.suit.<edition>.<suit>`.
"""

from __future__ import annotations

from companion.catalogs import DEFAULT_LANGUAGE, LANGUAGES, Phrasebook, said, said_plural

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "SAID", "menu_name", "suit_name"]

EDITIONS = ("2005", "2023")

SAID = Phrasebook(
    "chaud_devant.",
    said("chaud_devant.game_started", "New game: {players}. Dealer: {dealer}."),
    said("chaud_devant.round_opened", "Round {round}. Dealer: {dealer}."),
    said_plural("chaud_devant.hand_recorded",
        "{player}'s hand recorded, {size} card.",
        "{player}'s hand recorded, {size} cards.",
        "size"),
    said("chaud_devant.menu_chosen", "{player} has chosen a menu."),
    said("chaud_devant.menu_revealed", "{player}: {menu} menu."),
    said("chaud_devant.menus_revealed", "Menus: {menus}."),
    said("chaud_devant.play_begins", "{player} leads."),
    said("chaud_devant.card", "{card} — {sum}{spoils}."),
    said("chaud_devant.card_alone", "{card}{spoils}."),
    said("chaud_devant.spoils", ", soup spoiled"),
    said("chaud_devant.last_card", "Last card for {player}."),
    said("chaud_devant.trick_won", "{player} wins the trick with {sum}."),
    said("chaud_devant.revoke",
        "Revoke by {player}: no {suit} at trick {void_trick}, {suit} played at trick {proof_trick}."),
    said("chaud_devant.round_scored", "End of round {round}. {scores}."),
    said_plural("chaud_devant.round_score",
        "{player} {points:+d}, {stars} star",
        "{player} {points:+d}, {stars} stars",
        "stars"),
    said("chaud_devant.unclaimed", "The unfinished pot goes to nobody."),
    said("chaud_devant.game_over", "Game over. {winners}."),
    said_plural("chaud_devant.winner", "{players} wins with {stars}", "{players} win with {stars}", "count"),
    said_plural("chaud_devant.stars", "{stars} star", "{stars} stars", "stars"),
    said("chaud_devant.undone", "Undone: {what}."),
    said("chaud_devant.undone_card", "{card}"),
    said('chaud_devant.undone_menu', "{player}'s menu"),
    said('chaud_devant.undone_hand', "{player}'s hand"),
    said("chaud_devant.refused", "Refused: {why}."),
    said("chaud_devant.where_pot", "Pot at {sum}{led}{spoiled}."),
    said("chaud_devant.where_led", ", led suit {suit}"),
    said("chaud_devant.where_spoiled", ", soup spoiled"),
    said("chaud_devant.where_turn", "{player} to play."),
    said("chaud_devant.where_menu", "Choosing menus."),
    said("chaud_devant.where_over", "The game is over."),
    said("chaud_devant.list_sep", "; "),
    said("chaud_devant.and", " and "),
    said("chaud_devant.value", "{suit} {value}"),
    said("chaud_devant.overflow_name", "{suit} overflow card"),
    said("chaud_devant.bad_setup", "bad setup: 3 to 5 players with different names, the dealer among them"),
    said("chaud_devant.no_game", "no game in progress"),
    said("chaud_devant.unknown_player", "unknown player"),
    said("chaud_devant.unknown_card", "unknown card"),
    said("chaud_devant.wrong_phase", "not the time for that"),
    said("chaud_devant.already_played", "{card} was already played this round"),
    said("chaud_devant.menu_used", "{player} already used that menu"),
    said("chaud_devant.not_your_turn", "{player} reveals a menu next"),
    said('chaud_devant.menu_forbidden', "the dealer may not copy the first player's menu"),
    said("chaud_devant.bad_hand", "wrong hand for {player}"),
    said('chaud_devant.out_of_turn', "{card} is in {holder}'s hand; {player} is to play"),
    said('chaud_devant.not_in_hand', "{card} is not in {player}'s hand"),
    said("chaud_devant.must_follow_suit", "You must follow {suit} — rule 1"),
    said("chaud_devant.nothing_to_undo", "nothing to undo"),
    said("chaud_devant.unknown_tag", "unknown tag"),
    said("chaud_devant.turn", "{player} to play{bound}."),
    said('chaud_devant.undone_card_of', "{player}'s {card}"),
    said("chaud_devant.bouillon_name", "{suit} bouillon"),
    said("chaud_devant.pot_empty", "The pot is empty."),
    said("chaud_devant.where_round", "Round {round}."),
    said("chaud_devant.where_menus", "Menus: {menus}."),
    said("chaud_devant.where_left", "Cards left: {left}."),
    said("chaud_devant.where_last_trick", "Last trick, number {number}, to {player}: {cards}."),
    said_plural("chaud_devant.where_chosen", "Chosen: {players}.", "Chosen: {players}.", "count"),
    said_plural("chaud_devant.where_waiting", "Still to choose: {players}.", "Still to choose: {players}.", "count"),
    said("chaud_devant.where_reveal", "{player} reveals a menu next."),
    said("chaud_devant.where_stars", "Stars: {stars}."),
    said("chaud_devant.wrong_phase_menus", "not every menu is chosen; still to choose: {players}"),
    said("chaud_devant.wrong_phase_reveal", "menus are revealed first; {player} reveals next"),
    said("chaud_devant.wrong_phase_play", "the menus are chosen and the round is under way"),
    said("chaud_devant.wrong_phase_over", "the game is over"),
    said("chaud_devant.suit.2005.pea", "Pea"),
    said("chaud_devant.suit.2005.onion", "Onion"),
    said("chaud_devant.suit.2005.mushroom", "Mushroom"),
    said("chaud_devant.suit.2005.pepper", "Pepper"),
    said("chaud_devant.suit.2023.pea", "Insects"),
    said("chaud_devant.suit.2023.onion", "Vegetables"),
    said("chaud_devant.suit.2023.mushroom", "Fruit"),
    said("chaud_devant.suit.2023.pepper", "Trash"),
    said("chaud_devant.menu_none", "no soup"),
    said("chaud_devant.number.0", "zero"),
    said("chaud_devant.number.1", "one"),
    said("chaud_devant.number.2", "two"),
    said("chaud_devant.number.3", "three"),
    said("chaud_devant.number.4", "four"),
    said("chaud_devant.number.5", "five"),
    said("chaud_devant.tag.ten", "ten"),
    said("chaud_devant.tag.bouillon", "bouillon"),
    said("chaud_devant.tag.overflow", "overflow card"),
    said("chaud_devant.tag.a", "first copy"),
    said("chaud_devant.tag.b", "second copy"),
    said("chaud_devant.tag.menu", "menu card {menu}, set of seat {seat}"),
    # why a robot played what it played (the learning aid), as a purpose after its play
    said("chaud_devant.robot_why_forced", "no other choice"),
    said("chaud_devant.coach_no_trick", "{named} leaves you without the trick {often}."),
    said("chaud_devant.coach_trick", "{named} makes you take the trick {often}."),
    said("chaud_devant.robot_why_menu", "because this menu suits your hand best"),
    said("chaud_devant.robot_why_lead", "to open the trick low"),
    said_plural("chaud_devant.robot_why_take",
        "to win {points} point",
        "to win {points} points",
        "points"),
    said("chaud_devant.robot_why_least_bad", "to take the trick that costs you least"),
    said("chaud_devant.robot_why_dodge", "so as not to take the trick at {sum}"),
    said("chaud_devant.robot_why_dump", "to get rid of a card you do not need"),
    # the reasons said to the whole table after a robot's play: from public facts only (robot_public.py)
    said("chaud_devant.robot_why_open", "to open the trick"),
    said("chaud_devant.robot_why_under", "to duck"),
    said("chaud_devant.robot_why_take_now", "to take the trick"),
)


def suit_name(suit: str, language: str, edition: str = "2005") -> str:
    """A suit's name in the edition's theme (the 2005 names for an edition we do not know)."""
    return SAID.template(f"suit.{edition if edition in EDITIONS else '2005'}.{suit}", language)


def menu_name(menu: str, language: str, edition: str = "2005") -> str:
    """A menu's name: its suit's, or "pas de soupe"."""
    return SAID.template("menu_none", language) if menu == "none" else suit_name(menu, language, edition)
