"""The robot pages: a new game with robot seats (a real table or a practice table), and what a seat's
phone adds at a practice table (its cards to play, the chef's advice). No game logic here."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from companion.robot_seats import DEFAULT_PACE_MS, LEVELS
from web_ui.context import service
from web_ui.game_pages import page_table
from web_ui.page_common import common_context

robot_pages = Blueprint("robot_pages", __name__)


@robot_pages.app_context_processor
def robot_helpers() -> dict[str, Any]:
    """`robot_setup()` in every template: the current game's robot seats, practice mode and aids."""

    def robot_setup() -> dict[str, Any]:
        return service().robots.setup.as_json()

    return {"robot_setup": robot_setup}


@robot_pages.get("/setup/robots")
def robot_setup_page() -> str:
    """A new game with robots: who is a robot and how strong, real or practice table, learning aids, pace."""
    return render_template("robot_setup.html", levels=LEVELS, pace_s=DEFAULT_PACE_MS / 1000,
                           robot_hands=page_table()[service().game_name].robot_hands(),
                           **common_context())

