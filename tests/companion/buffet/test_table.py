"""A buffet game at the table service: physical tags to events, double reads, speech in three languages."""

from __future__ import annotations

from companion.table import DOUBLE_READ_SECONDS, TableService
from companion.tags import simulated_uid
from marmite.games import GAMES
from tests.companion.clock import Clock

from .rulebook import FOUR, THREE, mice, new_game, plates


def read(table: TableService, code: str) -> bool | None:
    """Present a physical card to the reader: accepted, refused, or None for a double read."""
    answer = table.tag_seen(simulated_uid(code))
    return None if answer is None else answer.accepted


def test_every_mouse_card_copy_and_plate_is_a_known_tag() -> None:
    codes = set(GAMES.tag_codes())
    assert {f"mouse-{v}@{k}" for v in ("n1", *map(str, range(10))) for k in range(1, 11)} <= codes
    assert {f"plate-{food}-{v}" for food in ("cheese", "potato", "sausage", "pizza", "chicken", "salad")
            for v in ("n1", "0", "1", "2", "3", "4", "5")} <= codes


def test_plates_and_physical_mouse_cards_become_plate_and_card_events(table: TableService) -> None:
    table.submit(new_game())
    assert read(table, "plate-cheese-3") and read(table, "plate-salad-n1") and read(table, "plate-pizza-2")
    assert read(table, "mouse-7@4")
    assert table.state()["positions"]["Ana"] == 7 and table.state()["turn"] == "Ben"
    bodies = [record.body for record in table.journal.records()]
    assert bodies[-1] == {"type": "card", "card": "mouse-7"}
    assert [record.tag for record in table.journal.records()][-1] == "mouse-7@4"


def test_a_physical_card_read_twice_is_one_reveal_but_another_copy_of_its_value_counts(
        table: TableService, clock: Clock) -> None:
    table.submit(new_game())
    for event in plates("plate-cheese-3", "plate-salad-n1", "plate-pizza-2"):
        table.submit(event)
    assert read(table, "mouse-5@1") is True
    assert read(table, "mouse-5@1") is None
    assert read(table, "mouse-5@2") is True
    assert table.state()["positions"] == {"Ana": 5, "Ben": 5, "Cléo": 0, "Dan": 0}
    clock.now += DOUBLE_READ_SECONDS + 1
    assert read(table, "mouse-5@1") is True  # later: a new reveal (Cléo's)
    assert table.state()["positions"]["Cléo"] == 5


def test_the_last_card_of_a_step_read_twice_is_not_the_next_steps_first(table: TableService) -> None:
    table.submit(new_game())
    for event in [*plates("plate-cheese-3", "plate-salad-n1", "plate-pizza-2"), *mice(5, 3, 7)]:
        table.submit(event)
    assert read(table, "mouse-6@9") is True  # Dan's card ends the step: Ben leaves
    assert table.state()["in_round"] == ["Ana", "Cléo", "Dan"]
    assert read(table, "mouse-6@9") is None
    assert table.state()["positions"]["Ana"] == 5


def test_a_plate_read_twice_is_one_plate(table: TableService) -> None:
    table.submit(new_game())
    assert read(table, "plate-potato-2") is True
    assert read(table, "plate-potato-2") is None
    assert table.state()["buffet"] == ["plate-potato-2"]


def test_a_chaud_devant_card_in_a_buffet_game_is_refused_unknown(table: TableService) -> None:
    table.submit(new_game())
    for event in plates("plate-cheese-3", "plate-salad-n1", "plate-pizza-2"):
        table.submit(event)
    answer = table.tag_seen(simulated_uid("pea-3a"))
    assert answer is not None and answer.reason == "unknown_card"


def test_each_reveal_is_spoken_with_value_square_and_place(table: TableService) -> None:
    table.submit(new_game())
    for event in plates("plate-cheese-3", "plate-salad-n1", "plate-pizza-2"):
        table.submit(event)
    table.submit(mice(9)[0])
    message = table.submit(mice(7)[0]).message
    assert message.as_json("fr")["text"] == "Ben : sept — case 7, deuxième. À Cléo."
    assert message.as_json("en")["text"] == "Ben: seven — square 7, second. Cléo next."
    assert message.as_json("nl")["text"] == "Ben: zeven — vak 7, tweede. Cléo is aan de beurt."


def test_who_leaves_with_what_and_the_swap_are_spoken(table: TableService) -> None:
    table.submit(new_game())
    for event in [*plates("plate-cheese-3", "plate-salad-n1", "plate-pizza-2"), *mice(5, 3, 7)]:
        table.submit(event)
    text = table.submit(mice(6)[0]).message.as_json("fr")["text"]
    assert "Ben part avec salade de tomates à moins 1. Ben peut échanger des cartes." in text
    assert "Nouvelle étape. À Ana." in text
    assert "Ben leaves with tomato salad minus 1. Ben may exchange cards." in table.last_announcement().as_json("en")[
        "text"]  # type: ignore[union-attr]


def test_plurals_follow_each_language(table: TableService) -> None:
    table.submit(new_game(THREE))
    texts = [table.submit(event).message.as_json(language)["text"]
             for event, language in zip(plates("plate-cheese-3", "plate-potato-1", "plate-pizza-0",
                                               "plate-salad-n1"), ("fr", "fr", "fr", "en"), strict=True)]
    assert texts[0] == "Manche 1. Au buffet : fromage à 3. Encore 4 assiettes."
    assert texts[2] == "Au buffet : pizza à 0. Encore 2 assiettes."
    assert texts[3] == "On the buffet: tomato salad minus 1. 1 more plate."


def test_where_are_we_says_turn_squares_buffet_and_scores(table: TableService) -> None:
    table.submit(new_game())
    for event in [*plates("plate-cheese-3", "plate-salad-n1", "plate-pizza-2"), *mice(5, 3, 7, 6, -1)]:
        table.submit(event)
    text = table.where_are_we().as_json("fr")["text"]
    assert text == ("Manche 1. À Cléo de dévoiler. Positions : Ana case 4 ; Cléo case 7 ; Dan case 6. "
                    "Buffet : fromage à 3 ; pizza à 2. Scores : Ana 0 point ; Ben moins 1 point ; Cléo 0 point ; "
                    "Dan 0 point.")
    assert "Ben min 1 punt" in table.where_are_we().as_json("nl")["text"]
    assert "Ben minus 1 point;" in table.where_are_we().as_json("en")["text"]
    assert "Ana 0 points" in table.where_are_we().as_json("en")["text"]
    assert FOUR[0] == "Ana"


def test_refusals_and_undo_are_spoken_with_the_plate(table: TableService) -> None:
    table.submit(new_game())
    table.submit(plates("plate-cheese-3")[0])
    refused = table.submit(plates("plate-cheese-3")[0]).message
    assert refused.as_json("fr")["text"] == "Refusé : l'assiette fromage à 3 est déjà sortie dans cette partie."
    assert refused.as_json("en")["text"] == "Refused: plate cheese 3 has already been laid out this game."
    undone = table.undo().message
    assert undone.as_json("fr")["text"] == "Annulé : assiette fromage à 3."
    assert undone.as_json("nl")["text"] == "Ongedaan: bord kaas 3."
    early = table.submit(mice(4)[0]).message
    assert early.as_json("fr")["text"] == "Refusé : ce n'est pas le moment."


def test_where_are_we_while_the_buffet_is_laid_and_at_game_over(table: TableService) -> None:
    table.submit(new_game())
    table.submit(plates("plate-pizza-2")[0])
    assert table.where_are_we().as_json("fr")["text"] == (
        "Manche 1, on dresse le buffet : pizza à 2. Scores : Ana 0 point ; Ben 0 point ; Cléo 0 point ; "
        "Dan 0 point.")
    import random

    from companion.buffet.simulate import random_game

    table.submit(random_game(random.Random(9), players=3)[0])
    for event in random_game(random.Random(9), players=3)[1:]:
        table.submit(event)
    text = table.where_are_we().as_json("fr")["text"]
    assert text.startswith("Partie terminée. Scores : ") and "Égalité départagée par les plats" in text
