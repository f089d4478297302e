"""What a blind player hears: undo, bouillons, what binds the next player, "where are we", refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.journal import Journal
from companion.table import TableService
from marmite.games import GAMES
from tests.companion.chaud_devant.rulebook import PLAYERS, card, menu, new_game, started


@pytest.fixture
def table(tmp_path: Path) -> TableService:
    return TableService(Journal.open(tmp_path), GAMES)


def said(table: TableService, *events: dict[str, object]) -> str:
    """What the table said about the last of these events."""
    answer = None
    for event in events:
        answer = table.submit(event)
    assert answer is not None
    return str(table.render(answer.message)["text"])


def test_undo_says_whose_card_came_back_the_sum_and_the_turn(table: TableService) -> None:
    said(table, *started(), card("pea-3a"), card("onion-2a"))
    undone = table.render(table.undo().message)["text"]
    assert undone == "Annulé : Oignon 2 de Bruno. Marmite à 3, couleur demandée Pois. À Bruno de jouer."
    undone = table.render(table.undo().message)["text"]
    assert undone == "Annulé : Pois 3 de Virginie. Marmite vide. À Virginie de jouer."
    table.language = "en"
    assert table.render(table.messages_after(0)[-1])["text"] == (
        "Undone: Virginie's Pea 3. The pot is empty. Virginie to play.")


def test_undoing_a_menu_says_who_still_chooses(table: TableService) -> None:
    said(table, new_game(), menu("Virginie", "pea"), menu("Bruno", "none"))
    undone = table.render(table.undo().message)["text"]
    assert undone == ("Annulé : menu de Bruno. Choix des menus. A choisi : Virginie. "
                      "Doivent encore choisir : Bruno, Valentine et Nicolas.")


def test_bouillons_are_called_bouillon_and_the_overflow_card_is_named_like_any_card(table: TableService) -> None:
    """"Bop : Champignons : la marmite déborde — 0" read unlike every other card line (issue 30)."""
    assert said(table, *started(), card("onion-0a")).startswith("Bouillon d'Oignon.")
    assert said(table, card("pea-0b")).startswith("Bouillon de Pois.")
    assert said(table, card("onion-x")).startswith("Débordement d'Oignon — 0.")
    table.language = "en"
    assert table.render(table.messages_after(0)[-3])["text"].startswith("Onion bouillon.")
    assert table.render(table.messages_after(0)[-1])["text"].startswith("Onion overflow card — 0.")


def test_the_pots_sum_is_said_once(table: TableService) -> None:
    """"Pois 3 — 3" (a trick's first card) and "Pois 4 — 10. Ana gagne le pli avec 10." said the sum twice."""
    assert said(table, *started(), card("pea-3a")).startswith("Pois 3. À Bruno")
    assert said(table, card("pea-4a")).startswith("Pois 4 — 7. À Valentine")
    won = said(table, card("pea-5a"))
    assert won.startswith("Pois 5. ") and "gagne le pli avec 12." in won, won


def test_the_led_suit_and_the_spoiled_soup_bind_the_next_player(table: TableService) -> None:
    assert said(table, *started(), card("onion-4a")).endswith("À Bruno, couleur demandée Oignon.")
    spoiling = said(table, card("pepper-1a"))
    assert spoiling.endswith("À Valentine, soupe gâchée.") and spoiling.count("soupe gâchée") == 1, spoiling
    assert said(table, card("pea-2a")).endswith("À Nicolas, soupe gâchée.")


def test_the_card_that_spoils_the_soup_says_so_once(table: TableService) -> None:
    """"Piment 5, soupe gâchée. À Virginie, soupe gâchée." said it twice (issue 30's walk)."""
    line = said(table, *started(), card("pepper-5a"))
    assert line.count("soupe gâchée") == 1, line
    parts = table.render(table.messages_after(0)[-1])["parts"]
    turn = [part["text"] for part in parts if part["key"].endswith("turn")]
    assert turn and "soupe gâchée" in turn[0], parts  # the next player's phone, which says only its turn, hears it
    table.language = "en"
    assert table.render(table.messages_after(0)[-1])["text"].count("soup spoiled") == 1


def test_where_in_the_menu_phase_names_who_still_chooses(table: TableService) -> None:
    said(table, new_game(), menu("Valentine", "pea"))
    where = table.render(table.where_are_we())["text"]
    assert where == ("Manche 1. Choix des menus. A choisi : Valentine. Doivent encore choisir : "
                     "Virginie, Bruno et Nicolas. Étoiles : Virginie 5, Bruno 5, Valentine 5, Nicolas 5.")


def test_where_in_play_gives_menus_cards_left_and_the_last_trick(table: TableService) -> None:
    said(table, *started())
    played: list[str] = []
    for code in ("pea-3a", "pea-4a", "pea-5a", "pea-10", "pea-1a", "pea-2a", "pea-3b", "pea-4b", "pea-5b"):
        played.append(code)
        trick = said(table, card(code))
        if "gagne le pli" in trick:
            break
    said(table, card("onion-1a"))
    where = table.render(table.where_are_we())["text"]
    winner = trick.split(" gagne le pli")[0].split(". ")[-1]
    names = ", ".join("Pois " + code.split("-")[1].rstrip("ab") for code in played)
    assert where.startswith("Manche 1. Marmite à 1, couleur demandée Oignon. ")
    assert "Menus : Virginie, Pois ; Bruno, pas de soupe ; Valentine, Piment ; Nicolas, Oignon." in where
    assert "Cartes restantes :" in where
    assert f"Dernier pli, numéro 1, à {winner} : {names}." in where
    assert where.endswith("Étoiles : Virginie 5, Bruno 5, Valentine 5, Nicolas 5.")


def test_a_card_before_the_menus_says_who_has_not_chosen(table: TableService) -> None:
    text = said(table, new_game(), menu("Virginie", "pea"), card("pea-1a"))
    assert text == ("Refusé : les menus ne sont pas tous choisis ; "
                    "reste à choisir : Bruno, Valentine et Nicolas.")
    assert said(table, *[menu(p, "pea") for p in PLAYERS[1:]], menu("Bruno", "onion")) == (
        "Refusé : les menus sont choisis, la manche est en cours.")
