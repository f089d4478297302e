"""The one set of gettext catalogs that every voice and page reads, and the few helpers around it.

The catalogs live in `companion/locale/<language>/LC_MESSAGES/messages.po` (sources) and `.mo`
(compiled, committed, kept in sync by `scripts/catalogs.py`). The pages read them through
Flask-Babel (pointed at `LOCALE_DIR`); the voices read them here with the standard library's
`gettext`, so the core needs neither Flask nor Babel at run time.

A phrase is a `Message`: a stable key as its gettext context (`"chaud_devant.card"`), its English
text as the msgid, and for counted phrases an English plural and the field that counts. Texts
use `str.format` fields; a translation may add the `de` spec for French elision (see
`ElidingFormatter`). The plural form is chosen by gettext's `Plural-Forms` of each catalog
(French: `n > 1`) applied to the magnitude of the count, so "−1 point" and "−2 points" read as
"1 point" and "2 points" do.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("fr", "en", "nl")
DEFAULT_LANGUAGE = "fr"
LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"


@dataclass(frozen=True, slots=True)
class Message:
    """One catalog entry: its context (a stable key), English text, and for plurals the counting field."""

    context: str
    singular: str
    plural: str | None = None
    count: str | None = None


def said(context: str, text: str) -> Message:
    """A phrase without a count; `scripts/catalogs.py` extracts its calls (context, msgid)."""
    return Message(context, text)


def said_plural(context: str, singular: str, plural: str, count: str) -> Message:
    """A phrase whose form follows the field `count` (an int, or a list counted by its length)."""
    return Message(context, singular, plural, count)


@cache
def translations(language: str) -> gettext.GNUTranslations:
    """The compiled catalog of `language` (French for a language we do not have)."""
    language = language if language in LANGUAGES else DEFAULT_LANGUAGE
    try:
        found = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])
    except FileNotFoundError as missing:
        raise FileNotFoundError(f"no compiled catalog for {language!r} in {LOCALE_DIR}: "
                                "run `python scripts/catalogs.py`") from missing
    assert isinstance(found, gettext.GNUTranslations)
    return found


def text_of(message: Message, language: str, count: int | None = None) -> str:
    """The template of `message` in `language`, in the form `count` asks for."""
    catalog = translations(language)
    if message.plural is None:
        return catalog.pgettext(message.context, message.singular)
    return catalog.npgettext(message.context, message.singular, message.plural, abs(count or 0))


ELIDING = frozenset("aeiouyhàâäéèêëîïôöùûüAEIOUYHÀÂÄÉÈÊËÎÏÔÖÙÛÜ")
"""First letters before which French "de" becomes "d'" (names and suit names; h counted as mute)."""


class ElidingFormatter(string.Formatter):
    """`str.format` plus one spec for French elision: `{name:de}` prints "de Bruno" or "d'Anne".

    Only French translations use it; in another language the spec prints "de " + the value.
    """

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "day":
            return day_name(str(value), self.language)
        if format_spec == "de":
            text = str(value)
            return f"d'{text}" if self.language == "fr" and text[:1] in ELIDING else f"de {text}"
        return str(super().format_field(value, format_spec))


MONTHS: tuple[Message, ...] = (
    said("date.month_1", "January"), said("date.month_2", "February"), said("date.month_3", "March"),
    said("date.month_4", "April"), said("date.month_5", "May"), said("date.month_6", "June"),
    said("date.month_7", "July"), said("date.month_8", "August"), said("date.month_9", "September"),
    said("date.month_10", "October"), said("date.month_11", "November"), said("date.month_12", "December"),
)
FIRST_OF_MONTH = said("date.first", "1")
"""The first day of a month as it is said ("1er" in French)."""
DAY_AND_MONTH = said("date.day_month", "{day} {month}")


def day_name(moment: str, language: str) -> str:
    """An ISO 8601 time as the local day said aloud: "21 novembre", "1er mai", "21 November"."""
    try:
        when = datetime.fromisoformat(moment).astimezone()
    except ValueError:
        return moment
    day = text_of(FIRST_OF_MONTH, language) if when.day == 1 else str(when.day)
    month = text_of(MONTHS[when.month - 1], language)
    return text_of(DAY_AND_MONTH, language).format(day=day, month=month)


FORMATTERS = {language: ElidingFormatter(language) for language in LANGUAGES}


def phrase_format(template: str, language: str, fields: Mapping[str, Any]) -> str:
    """Fill a catalog template for a language (elision included)."""
    formatter = FORMATTERS.get(language, FORMATTERS[DEFAULT_LANGUAGE])
    return formatter.vformat(template, (), fields)


def count_of(value: Any) -> int:
    """The number a counting field stands for: an int, or a list's length."""
    return len(value) if isinstance(value, list | tuple) else int(value)


class Phrasebook:
    """The messages of one voice or page by key (their context without the book's prefix)."""

    def __init__(self, prefix: str, *messages: Message) -> None:
        self.prefix = prefix
        self.messages: dict[str, Message] = {}
        for message in messages:
            if not message.context.startswith(prefix):
                raise ValueError(f"{message.context!r} is not in the phrasebook {prefix!r}")
            self.messages[message.context.removeprefix(prefix)] = message

    def __contains__(self, key: str) -> bool:
        return key in self.messages

    def template(self, key: str, language: str, count: int | None = None) -> str:
        """The raw template of `key` (for a plural, in the form `count` asks for)."""
        return text_of(self.messages[key], language, count)

    def format(self, key: str, language: str, /, **fields: Any) -> str:
        """The phrase `key` filled with `fields` (a plural counts its message's counting field)."""
        message = self.messages[key]
        count = count_of(fields[message.count]) if message.count is not None else None
        return phrase_format(text_of(message, language, count), language, fields)

    def words(self, language: str) -> dict[str, str]:
        """Every message without a count, by key, in `language` (a page's labels)."""
        return {key: text_of(message, language) for key, message in self.messages.items() if message.plural is None}
