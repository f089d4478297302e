"""The deck page (decks, enrollment, deck check, dealing by tag) and the printable adaptation guide."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from companion.deck_desk import DeckDesk
from companion.phrases import LANGUAGES
from web_ui.auth import csrf_token, unlocked
from web_ui.context import deck_desk, service, settings
from web_ui.deck_words import words
from web_ui.game_pages import page_table
from web_ui.guide_text import guide
from web_ui.page_common import log_seed

deck_pages = Blueprint("deck_pages", __name__)


@deck_pages.app_context_processor
def _deck_link() -> dict[str, Any]:
    """The deck page's words, for a link to it from any page."""
    return {"deck_words": words(service().language)}


def _desk() -> DeckDesk | None:
    found = deck_desk()
    return found


@deck_pages.get("/deck")
def deck_page() -> str:
    """Decks, enrollment, deck check and dealing by tag; the host acts with the PIN."""
    language = service().language
    desk = _desk()
    info = desk.decks() if desk is not None else None
    kinds = service().games.kinds
    boxes = [(game, [(code, desk.name(code, language) if desk is not None else code)
                     for code in kinds[game].tag_codes]) for game in kinds]
    game_words = {name: game.deck_words(language) for name, game in page_table().items()}
    return render_template("deck.html", w=words(language), info=info, boxes=boxes, game_words=game_words,
                           unlocked=unlocked(),
                           csrf=csrf_token(), settings=settings().current, lang=language, languages=LANGUAGES,
                           default_game=service().games.default, log_seed=log_seed)


@deck_pages.get("/guide")
def guide_page() -> str:
    """The printable adaptation guide, in the table's language or `?lang=`."""
    language = request.args.get("lang") or service().language
    if language not in LANGUAGES:
        language = service().language
    desk = _desk()
    known = set(desk.store.load().values()) if desk is not None else set()
    return render_template("guide.html", g=guide(language), lang=language, rows=_checklist(language, known),
                           languages=LANGUAGES)


def _checklist(language: str, known: set[str]) -> list[dict[str, Any]]:
    """The printable checklist's rows: every game's that has one, in the page table's order."""
    return [row for game in page_table().values() for row in game.checklist(language, known)]
