"""A game's face on the pages: what `web_ui.pages` asks of each game, and the table of them.

Each game package under `web_ui/games/<game>/` gives one `GamePages`: its blueprint (templates under
`templates/<game>/`, files under `static/<game>/`), its template helpers and what its table, seat,
history and setup pages show. The generic routes look the current game's pages up in the `PageTable`
the composition root hands to `create_app`; they never name a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from flask import Blueprint, render_template

from companion.catalogs import Phrasebook
from companion.robot_seats import turn_of
from companion.seam import Event, State
from web_ui.context import resources
from web_ui.fact_keys import FactKey
from web_ui.page_common import common_context

PageTable = Mapping[str, "GamePages"]
"""Every hosted game's pages, by the game's name (its `new_game` `game` key)."""

SPEECH_ROLES = ("always", "if_named", "turn", "brief_drops", "round_opens", "step_opens")
"""`round_opens` and `step_opens`: the parts that start a round or a step, for the log's headings."""


def speech_keys(pages: PageTable) -> dict[str, list[str]]:
    """Every hosted game's announcement part keys by role (a page open when another game starts keeps
    saying the right parts until it reloads)."""
    return {role: sorted({key for game in pages.values() for key in game.speech_keys.get(role, ())})
            for role in SPEECH_ROLES}


class GamePages:
    """One game's pages. Subclasses set `title`, the helpers and contexts; the shells do the rest.

    Templates a game provides, under `templates/<name>/`: `_table_state.html`, `_controls.html`,
    `_seat_state.html`, `history.html`; optionally `_head.html` (its CSS and scripts, on every page of
    the game), `_seat_tail.html` (after the seat's speech controls), `_setup_form.html` (included in the
    setup page) and `setup.html` (a setup page of its own, at `/setup/<name>`).
    """

    title = ""
    """The game's name as the setup and deck pages list it."""
    state_class = "state"
    seat_class = "state seat"
    seat_speaks_mine = False
    """True when the seat page offers "speak what concerns me" (the phone knows its player's events)."""
    seat_host_links = True
    """False hides the host's links (setup, lock) on the seat page."""
    speech_keys: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """Part keys of the game's announcements by how a device says them: `always` (every player wants them),
    `if_named` (a phone says them when they name its player), `turn` (they tell a player to act) and
    `brief_drops` (the brief profile leaves them out). The pages' scripts read them from the page."""

    def __init__(self, name: str, import_name: str) -> None:
        """`name` is the game's; `import_name` the module whose folder holds `templates/` and `static/`."""
        self.name = name
        self.blueprint = Blueprint(f"game_{name}", import_name, template_folder="templates",
                                   static_folder=f"static/{name}", static_url_path=f"/static/{name}")

    # what a subclass gives
    def helpers(self, language: str) -> dict[str, Any]:
        """The functions and tables the game's templates call (names, symbols, labels)."""
        return {}

    def table_context(self, view: dict[str, Any], state: object) -> dict[str, Any]:
        """Extra values the table state shows, computed from the view (and the match's state)."""
        return {}

    trick_word_key: str | None = None
    """The key (in `trick_words`) of the game's word for a trick in the log's headings, with an `n` field
    ("étape %(n)s" at the buffet); None: the log's own word ("pli")."""
    trick_words: Phrasebook | None = None
    """The phrasebook holding `trick_word_key`."""

    def trick_word(self, language: str) -> str | None:
        """The log headings' word for a trick in `language`, its number left as `%(n)s` (None: the log's own)."""
        if self.trick_word_key is None or self.trick_words is None:
            return None
        return self.trick_words.format(self.trick_word_key, language, n="%(n)s")

    def table_title(self, language: str) -> str:
        """The table page's title."""
        return self.title

    def table_heading(self, language: str) -> str:
        """The table page's (visually hidden) heading."""
        return self.title

    def has_setup_page(self) -> bool:
        """True when the game has a setup page of its own (`templates/<name>/setup.html`)."""
        return self._has_template("setup.html")

    def setup_form(self) -> str | None:
        """The template of a new-game form the setup page includes, if the game has one."""
        return f"{self.name}/_setup_form.html" if self._has_template("_setup_form.html") else None

    def deck_words(self, language: str) -> dict[str, str]:
        """The deck page's words for this game: `name` (its cards' group) and `enroll_help` (or none)."""
        return {"name": self.title}

    def checklist(self, language: str, known: set[str]) -> list[dict[str, Any]]:
        """Rows of the printable adaptation guide's checklist (none for a game without one)."""
        return []

    def fact_keys(self, page: str, language: str) -> list[FactKey]:
        """The one-key facts of its `table`, `seat` or `own-seat` (seat link) page, answered from its
        templates' `_facts.html`."""
        return []

    # its robot seats (`web_ui.robot_api`, `web_ui.robot_pages`)
    advice_key = "robot.suggest"
    """The phrase (`companion.robot_words`) the chef's advice on a practice phone names its card with."""

    def phone_card_event(self, state: State, player: str, card: str) -> Event | None:
        """The event `card`, chosen on `player`'s own phone at a practice table without cards, makes, or None
        when the player has no card to play now. By default the card itself, on the player's turn."""
        return {"type": "card", "card": card} if turn_of(state) == player else None

    def robot_card_public(self, state: State, player: str) -> bool:
        """True when the card robot seat `player` has chosen may be named now (`GET /api/robots`, public).
        By default always: a robot chooses on its turn and the host plays its card at once."""
        return True

    robot_first_field = ""
    """The `new_game` field the robots page's player number fills ("dealer", "first"; none by default)."""

    def robot_setup_words(self) -> dict[str, str]:
        """The robots page's words for this game, in the page's language: `players` (its players' range,
        "3 to 5 for Chaud Devant") and `first` (what the player number is, "Dealer (Chaud Devant)"); none
        by default."""
        return {}

    def robot_hands_form(self) -> str | None:
        """The template of the host's form for typing the robots' hands (`templates/<name>/_robot_hands.html`),
        if the game has one; it gets `robot_hands`."""
        return f"{self.name}/_robot_hands.html" if self._has_template("_robot_hands.html") else None

    def robot_hands(self) -> dict[str, dict[str, Any]]:
        """What the host's robots page (`/setup/robots`, PIN) shows of each robot's hand, by name: `hand` and
        `discards` as the host types them, and `short` (how many cards it lacks). Empty by default: a game
        whose robots' hands are never entered by the host."""
        return {}

    # rendering (the same for every game)
    def _context(self, language: str) -> dict[str, Any]:
        return {**common_context(), **self.helpers(language), "game": self.name, "face": self,
                "face_title": self.table_title(language), "face_heading": self.table_heading(language)}

    def render_table(self, view: dict[str, Any], state: object, language: str, *, fragment: bool) -> str:
        """The table page (the shell around the game's partials) or only its state part."""
        template = f"{self.name}/_table_state.html" if fragment else "table.html"
        return render_template(template, **{**self._context(language), "view": view, **self.table_context(view, state)})

    def render_seat(self, view: dict[str, Any], name: str, language: str, *, fragment: bool,
                    claim: str | None = None, held_elsewhere: bool = False) -> str:
        """A seat page (the shell) or only its state part; `claim`: the key its script claims the seat with;
        `held_elsewhere`: its link was opened in a browser other than the one holding the seat."""
        template = f"{self.name}/_seat_state.html" if fragment else "seat.html"
        return render_template(template, **self._context(language), view=view, name=name, claim=claim,
                               held_elsewhere=held_elsewhere)

    def render_history(self, history: dict[str, Any], language: str, **extra: Any) -> str:
        """The round history page (with `extra`, e.g. the table's per-player statistics)."""
        return render_template(f"{self.name}/history.html", **self._context(language), history=history, **extra)

    def render_setup(self, language: str) -> str:
        """The game's own setup page; `running` when a game is under way (a new one replaces it: asked first)."""
        from web_ui.page_common import game_in_progress

        return render_template(f"{self.name}/setup.html", **self._context(language), running=game_in_progress())

    def _has_template(self, name: str) -> bool:
        folder = Path(self.blueprint.root_path) / "templates" / self.name
        return (folder / name).is_file()


def page_table() -> PageTable:
    """The app's table of game pages."""
    return resources().pages
