"""No page, message or script names a script, a `marmite` command or an extra that does not exist: every
`scripts/…` path, every `marmite <command> [<subcommand>]` and every `[extra]` in the docs and in the
product's strings is checked against the tree, the command's own parser and pyproject.toml."""

from __future__ import annotations

import argparse
import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

from marmite.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "hardware" / "README.md",
        ROOT / "firmware_bridge" / "README.md", ROOT / "benchmarks" / "README.md"]
PRODUCT = ("marmite", "companion", "hardware", "firmware_bridge", "web_ui", "club")

SCRIPT = re.compile(r"(?<![\w./-])scripts/([A-Za-z0-9_.-]+[A-Za-z0-9_])")
COMMAND = re.compile(r"(?:^|(?<=[\s`'\"(])|(?<=bin/))marmite((?: +[a-z][a-z-]*)+)")
EXTRA = re.compile(r"(?:\.|marmite(?:-table)?)\[([a-z][a-z,]*)\]")
FOREIGN = re.compile(r"pip install[^\n`]*?(?<![\w./-])marmite(?![\w-])")
"""`pip install marmite…` fetches another project: `marmite` on the package index is a static-site generator."""


def texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every doc, and every string constant of the product's Python and shell scripts."""
    for doc in DOCS:
        yield str(doc.relative_to(ROOT)), doc.read_text(encoding="utf-8")
    for package in PRODUCT:
        for file in sorted((ROOT / package).rglob("*.py")):
            if "firmware" in file.parts[-2:-1] and package == "firmware_bridge":
                continue
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    yield f"{file.relative_to(ROOT)}:{node.lineno}", node.value
    for script in sorted((ROOT / "scripts").iterdir()):
        if script.is_file() and script.suffix != ".py":
            yield str(script.relative_to(ROOT)), script.read_text(encoding="utf-8")


def commands() -> dict[str, set[str] | None]:
    """Each `marmite` command, with its subcommands' names (None for a command that has none)."""
    found: dict[str, set[str] | None] = {}
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, parser in action.choices.items():
                inner = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
                found[name] = set(inner[0].choices) if inner else None
    return found


def extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project["optional-dependencies"])


CODE = re.compile(r"```.*?```|`[^`\n]+`", re.DOTALL)


def code_spans(text: str) -> list[str]:
    """Where a command is named rather than a pot (French prose says "la marmite"): code, and a message's head."""
    return [*CODE.findall(text), *([text.splitlines()[0]] if text.startswith(("marmite ", "usage: marmite")) else [])]


def wrong_references(where: str, text: str, known: dict[str, set[str] | None], offered: set[str]) -> list[str]:
    """What `text` names that does not exist."""
    wrong = [f"{where}: scripts/{name}" for name in SCRIPT.findall(text) if not (ROOT / "scripts" / name).exists()]
    for words in (w for span in code_spans(text) for w in COMMAND.findall(span)):
        first, *rest = words.split()
        if first not in known:
            wrong.append(f"{where}: marmite {first}")
        elif rest and known[first] is not None and rest[0] not in known[first]:  # type: ignore[operator]
            wrong.append(f"{where}: marmite {first} {rest[0]}")
    wrong += [f"{where}: [{names}]" for names in EXTRA.findall(text) if not set(names.split(",")) <= offered]
    wrong += [f"{where}: {match.group(0)!r} names another project" for match in FOREIGN.finditer(text)]
    return wrong


def test_every_named_script_command_and_extra_exists() -> None:
    known, offered = commands(), extras()
    found = [wrong for where, text in texts() for wrong in wrong_references(where, text, known, offered)]
    assert found == []


def test_the_check_catches_what_does_not_exist() -> None:
    known, offered = commands(), extras()
    assert "club" in offered and known["club"] == {"export", "demo"}
    assert wrong_references("x", "run `scripts/setup` then `marmite club`", known, offered) == ["x: scripts/setup"]
    assert wrong_references("x", "`marmite tournament`", known, offered) == ["x: marmite tournament"]
    assert wrong_references("x", "`marmite club results`", known, offered) == ["x: marmite club results"]
    assert wrong_references("x", "`marmite reader scan` then `marmite deck use NAME`", known, offered) == []
    assert wrong_references("x", "pip install -e '.[pcsc]'", known, offered) == ["x: [pcsc]"]
    assert wrong_references("x", "la marmite déborde", known, offered) == []
    assert wrong_references("x", "marmite tournament: no such thing", known, offered) == ["x: marmite tournament"]
    assert wrong_references("x", "pip install -e '.[club,readers]'", known, offered) == []
    assert wrong_references("x", "pip install 'marmite[club]'", known, offered) == [
        "x: \"pip install 'marmite\" names another project"]
