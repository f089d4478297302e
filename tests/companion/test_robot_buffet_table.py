"""A Sus au buffet ! robot at a real table: a wrong card for it refused and spoken, changing nothing; its
exchange said without naming the cards it gives up (they are not public), shown to the host only; and its
hand following the exchange from what the table knows, the host typing only the new cards."""

from __future__ import annotations

import re
from typing import Any

from companion.robot_words import card_name, voice_of
from companion.table import TableService
from tests.companion.test_robot_table import texts, wait_for

PLAYERS = ["Ana", "Marmiton", "Cléo", "Dan"]
LOW_HAND = ["mouse-n1", "mouse-n1", "mouse-0", "mouse-0", "mouse-0", "mouse-1", "mouse-1", "mouse-1", "mouse-2"]
PLATES = ("plate-cheese-3", "plate-potato-2", "plate-pizza-1")


def start_real_buffet(table: TableService) -> None:
    """A real table, Marmiton a robot whose low hand the host entered, the buffet laid out."""
    start = {"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Ana",
             "robots": {"seats": {"Marmiton": "chef"}}}
    assert table.submit(start).accepted
    assert table.submit({"type": "robot", "player": "Marmiton", "hand": LOW_HAND}).accepted
    for plate in PLATES:
        assert table.submit({"type": "plate", "plate": plate}).accepted


def robot_choice(table: TableService) -> str | None:
    with table.lock:
        choice = table.robots.pending("Marmiton", len(table.standing_actions()) - 1)
        return None if choice is None else choice.card


def test_a_wrong_card_for_the_buffet_robot_is_refused_spoken_and_changes_nothing(opened: Any) -> None:
    table, _ = opened()
    start_real_buffet(table)
    chosen = wait_for(lambda: robot_choice(table))
    assert table.submit({"type": "card", "card": "mouse-9"}).accepted  # Ana reveals: the robot's turn
    wait_for(lambda: any(t.startswith("Marmiton joue la souris") for t in texts(table)))
    before, seq = table.state(), table.journal.last_seq
    wrong = "mouse-9" if chosen != "mouse-9" else "mouse-8"
    answer = table.submit({"type": "card", "card": wrong})
    assert (answer.accepted, answer.reason) == (False, "not_robot_card")
    assert answer.message is not None
    assert answer.message.text("fr").startswith("Ce n'est pas la carte de Marmiton : ")
    assert answer.message.text("en").startswith("That is not Marmiton's card: ")
    assert answer.message.text("nl").startswith("Dat is niet de kaart van Marmiton: ")
    assert table.state() == before
    assert [r.accepted for r in table.journal.records(after=seq)] == [False]  # refused loudly, nothing applied
    assert table.submit({"type": "card", "card": chosen}).accepted
    assert table.state()["turn"] == "Cléo"


def play_until_the_robot_exchanges(table: TableService) -> dict[str, Any]:
    """The people reveal nines, the robot its low card (someone puts it in the pot) until it leaves first
    and exchanges; its `robot` hand with `swap`."""
    def exchanged() -> dict[str, Any] | None:
        log = [r.body for r in table.journal.records() if r.accepted]
        return next((event for event in log if event["type"] == "robot" and "swap" in event), None)

    for _ in range(40):
        if "Marmiton" not in table.state()["in_round"]:
            swap: dict[str, Any] = wait_for(exchanged)
            return swap
        turn = table.state()["turn"]
        card = wait_for(lambda: robot_choice(table)) if turn == "Marmiton" else "mouse-9"
        assert table.submit({"type": "card", "card": card}).accepted
    raise AssertionError(texts(table)[-6:])


def test_a_robots_exchange_names_no_card_aloud_and_the_host_types_only_the_new_ones(opened: Any) -> None:
    table, _ = opened()
    start_real_buffet(table)
    swap = play_until_the_robot_exchanges(table)
    given = swap["swap"]
    assert given, "with only −1 to 2 in hand the chef exchanges"
    said = wait_for(lambda: [m for m in table.messages_after(0) if m.kind == "robot"
                             and "échange" in m.text("fr")])[-1]
    for language in ("fr", "en", "nl"):
        text = said.text(language)
        names = {card_name(voice_of(table.game_state).names, card, language)  # type: ignore[arg-type]
                 for card in given}
        assert not any(re.search(rf"\b{re.escape(name)}\b", text) for name in names), text
        assert str(len(given)) in text
    reader_or_typed = {"fr": ("sur le lecteur ou tapez-", "sur la page des robots."),
                       "en": ("over the reader or type", "on the robots page."),
                       "nl": ("langs de lezer of typ", "op de robotpagina.")}
    for language, (either, where) in reader_or_typed.items():  # the new cards may be passed over the reader too
        text = said.text(language)
        assert either in text and text.endswith(where), text
    with table.lock:
        assert table.robots.discards("Marmiton") == tuple(given)  # for the host's robots page
        kept = table.robots.hand("Marmiton")
    assert kept == tuple(swap["hand"]) and len(kept) + len(given) < len(LOW_HAND)  # the hand follows the exchange
    assert not set(kept) - set(LOW_HAND)


def test_between_rounds_a_real_tables_robot_asks_for_the_cards_that_bring_it_back_to_nine(opened: Any) -> None:
    table, _ = opened()
    start_real_buffet(table)
    play_until_the_robot_exchanges(table)
    values = {"Ana": "mouse-9", "Cléo": "mouse-8", "Dan": "mouse-7"}  # no tie: the round ends
    for _ in range(20):
        if table.state()["round"] == 2:
            break
        assert table.submit({"type": "card", "card": values[table.state()["turn"]]}).accepted
    assert table.state()["phase"] == "buffet"
    held = table.robots.hand("Marmiton") or ()
    asked = wait_for(lambda: [t for t in texts(table) if t.startswith("Marmiton complète sa main à neuf")])
    count = 9 - len(held)
    cards, them = ("carte", "la") if count == 1 else ("cartes", "les")
    assert asked == [f"Marmiton complète sa main à neuf : donnez {count} {cards} à Marmiton, puis passez-{them} sur "
                     f"le lecteur ou tapez-{them} sur la page des robots."]
