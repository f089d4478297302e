"""The robot pages: a new game with robot seats (a real table or a practice table), and what a seat's
phone adds at a practice table (its cards to play, the chef's advice). No game logic here."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from companion.robot_seats import DEFAULT_PACE_MS, LEVELS
from companion.robot_talk import robot_ask as robot_asks
from companion.robot_words import voice_of
from companion.seam import table_seats
from web_ui.context import service
from web_ui.game_pages import page_table
from web_ui.page_common import common_context, game_in_progress

robot_pages = Blueprint("robot_pages", __name__)


@robot_pages.app_context_processor
def robot_helpers() -> dict[str, Any]:
    """`robot_setup()` in every template: the current game's robot seats, practice mode and aids; and
    `robot_ask()`: at a real table, the card the robot whose turn it is asks for, in the table's words
    ("Marmiton joue Pois 4 : posez-la dans la marmite."), shown and said by T until it is played."""

    def robot_setup() -> dict[str, Any]:
        return service().robots.setup.as_json()

    def robot_ask() -> str:
        table = service()
        with table.view_lock:  # never behind a write stuck on the disk
            state, ledger = table.game_state, table.robots
            if state is None or not ledger.setup.any or ledger.setup.practice:
                return ""
            part = robot_asks(state, ledger, table.action_count)
            if part is None or part.key == "robot.still_choosing":
                return ""
            return voice_of(state).render([part], table.language)

    return {"robot_setup": robot_setup, "robot_ask": robot_ask}


@robot_pages.get("/setup/robots")
def robot_setup_page() -> str:
    """A new game with robots: who is a robot and how strong, real or practice table, learning aids, pace;
    the games offered are the page table's whose rules seat robots (`TableSeats`)."""
    table, pages = service(), page_table()
    running = game_in_progress()
    faces = [face for name, face in pages.items() if table_seats(table.games.kinds.get(name)) is not None]
    current = pages[table.game_name]
    return render_template("robot_setup.html", levels=LEVELS, pace_s=DEFAULT_PACE_MS / 1000,
                           robot_faces=faces, robot_words=[face.robot_setup_words() for face in faces],
                           default_game=table.games.default, robot_hands=current.robot_hands(),
                           robot_hands_form=current.robot_hands_form(), running=running, **common_context())

