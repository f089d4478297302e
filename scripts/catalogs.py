"""Keep the gettext catalogs in step with the code: extract, update fr/en/nl, compile (Babel).

    .venv/bin/python scripts/catalogs.py          # collect new strings, drop gone ones, compile
    .venv/bin/python scripts/catalogs.py --check  # exit 1 and name the files that are out of date
    .venv/bin/python scripts/catalogs.py --adopt DIR  # take translations missing here from DIR/<lang>/...
                                                      # (e.g. a branch's old web_ui/translations), then run

Strings come from the pages (`_()`, `ngettext()` in templates and `web_ui/*.py`) and from the
voices (`said()` and `said_plural()` in `companion/` and `web_ui/`). New entries arrive with an
empty translation: fill `msgstr` in all three `.po` files, then run this again to compile. The
`.mo` files are committed, so a fresh clone runs without a build step; tests/test_catalogs.py
fails when they or the `.po` files lag behind the code.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import babel.messages.catalog as babel_catalog
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE_DIR = ROOT / "companion" / "locale"
LANGUAGES = ("fr", "en", "nl")
KEYWORDS = {**DEFAULT_KEYWORDS, "said": ((1, "c"), 2), "said_plural": ((1, "c"), 2, 3)}
SOURCES = {
    "companion": [("**.py", "python")],
    "web_ui": [("**.py", "python"), ("templates/**.html", "jinja2"), ("games/**/templates/**.html", "jinja2")],
    "club": [("**.py", "python"), ("templates/**.html", "jinja2")],
}
WIDTH = 100
# The catalogs' "Generated-By" header names no Babel version, so that a new Babel release (a fresh clone's
# venv takes the newest) changes no catalog byte and `--check` does not fail on files nobody touched.
babel_catalog.VERSION = "(Marmite catalogs)"


def template() -> Catalog:
    """Every string the code marks for translation."""
    found = Catalog(fuzzy=False)
    for folder, method_map in SOURCES.items():
        for _, _, message, _, context in extract_from_dir(str(ROOT / folder), method_map, keywords=KEYWORDS):
            found.add(message, context=context)
    return found


def po_path(language: str) -> Path:
    """Where the catalog source of `language` lives."""
    return LOCALE_DIR / language / "LC_MESSAGES" / "messages.po"


def updated(language: str, source: Catalog) -> Catalog:
    """The catalog of `language` with exactly the strings of `source`, its translations kept."""
    with po_path(language).open("rb") as handle:
        catalog = read_po(handle, locale=language)
    created, revised = catalog.creation_date, catalog.revision_date
    catalog.update(source, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.creation_date, catalog.revision_date = created, revised
    return catalog


def po_bytes(catalog: Catalog) -> bytes:
    """A catalog as its `.po` text: sorted, without source locations (fewer merge conflicts)."""
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, no_location=True, sort_output=True, include_previous=False)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    """A catalog compiled (untranslated entries left out, so gettext falls back to the msgid)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def wanted() -> dict[Path, bytes]:
    """Every catalog file as the code and the translations make it."""
    source = template()
    files: dict[Path, bytes] = {}
    for language in LANGUAGES:
        catalog = updated(language, source)
        files[po_path(language)] = po_bytes(catalog)
        with io.BytesIO(files[po_path(language)]) as handle:
            files[po_path(language).with_suffix(".mo")] = mo_bytes(read_po(handle, locale=language))
    return files


def stale() -> list[Path]:
    """The catalog files that differ from what the code and the translations make."""
    return [path for path, content in wanted().items() if not path.is_file() or path.read_bytes() != content]


def adopt(folder: Path) -> None:
    """Collect the code's strings, then fill those still untranslated from another set of catalogs.

    English page strings (no context) that are still empty take their msgid, which is English.
    """
    for language in LANGUAGES:
        source = template()  # a fresh template each time: `updated` may share its messages with the catalog
        other_path = folder / language / "LC_MESSAGES" / "messages.po"
        other = Catalog(locale=language)
        if other_path.is_file():
            with other_path.open("rb") as handle:
                other = read_po(handle, locale=language)
        catalog = updated(language, source)
        for message in catalog:
            if not message.id or any(_forms(message.string or "")):
                continue
            found = other.get(message.id, context=message.context)
            if found is not None and all(_forms(found.string or "")):
                message.string = found.string
            elif language == "en" and message.context is None:
                message.string = message.id
        po_path(language).write_bytes(po_bytes(catalog))


def _forms(text: str | tuple[str, ...] | list[str]) -> list[str]:
    return [text] if isinstance(text, str) else list(text)


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--adopt":
        adopt(Path(argv[1]))
        argv = []
    if argv == ["--check"]:
        late = stale()
        for path in late:
            print(f"out of date: {path.relative_to(ROOT)} (run: python scripts/catalogs.py)", file=sys.stderr)
        return 1 if late else 0
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    for path, content in wanted().items():
        if not path.is_file() or path.read_bytes() != content:
            path.write_bytes(content)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
