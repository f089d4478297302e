"""The import rule, read from the source with ast: the core imports no adapter and no root, adapters
import no root and no other adapter (but firmware_bridge → hardware's radio core), the generic web pages
and the club import no game, benchmarks import no tests, and no project module is imported by a name
computed at run time."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE, ADAPTERS, ROOT_PACKAGE = "companion", ("web_ui", "hardware", "firmware_bridge", "club"), "marmite"
GAMES = tuple(sorted(p.parent.name for p in (ROOT / CORE).glob("*/__init__.py")))
RADIO_CORE = ("hardware.iso14443", "hardware.mfrc522_pcd", "hardware.fakes.mfrc522_chip")
"""firmware_bridge's one allowed edge: the Pico runs the host's ISO 14443 core (and its simulator the fake chip)."""
WEB_LIMITS = ("web_ui.limits", "web_ui.app.CONTENT_SECURITY_POLICY")
"""club's one allowed edge: the hub's pages keep the table's own limits and CSP (the same classes, not copies)."""
PROJECT = (CORE, *ADAPTERS, ROOT_PACKAGE, "tests", "benchmarks")


def imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, module) for every import; a dynamic import of a non-literal or project name as '<by name>'."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "import_module", "__import__"):
            arg = node.args[0] if node.args else None
            literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            if not literal or str(arg.value).split(".")[0] in PROJECT:  # type: ignore[union-attr]
                yield node.lineno, "<by name>"


def broken(path: str, module: str) -> str | None:
    """Why `path` may not import `module`, or None."""
    top = path.split("/")[0]
    if module == "<by name>":
        return "a module picked by name" if top in (CORE, *ADAPTERS, ROOT_PACKAGE) else None
    target = module.split(".")[0]
    if top == CORE and target in (*ADAPTERS, ROOT_PACKAGE, "tests"):
        return "the core imports an adapter or the root"
    if top in ADAPTERS and target in (ROOT_PACKAGE, "tests"):
        return "an adapter imports the root"
    if top in ADAPTERS and target in ADAPTERS and target != top and not (
            top == "firmware_bridge" and module.startswith(RADIO_CORE)) and not (
            top == "club" and module.startswith(WEB_LIMITS)):
        return "an adapter imports another adapter"
    if top == "web_ui" and not path.startswith("web_ui/games/") and (
            module.startswith(tuple(f"{CORE}.{game}" for game in GAMES)) or module.startswith("web_ui.games.")):
        return "a generic page imports a game"
    if top == "club" and module.startswith(tuple(f"{CORE}.{game}" for game in GAMES)):
        return "the club imports a game (it reads each game's club facts through the registry's games)"
    if top == "benchmarks" and target == "tests":
        return "a benchmark imports a test module"
    return None


def violations(path: str, source: str) -> list[str]:
    return [f"{path}:{line}: {module} ({why})" for line, module in imports(ast.parse(source))
            if (why := broken(path, module))]


def test_the_tree_follows_the_import_rule() -> None:
    found = []
    for top in (CORE, *ADAPTERS, ROOT_PACKAGE, "benchmarks"):
        for file in sorted((ROOT / top).rglob("*.py")):
            path = str(file.relative_to(ROOT))
            found += violations(path, file.read_text(encoding="utf-8"))
    assert found == []


def test_each_rule_catches_a_forbidden_import() -> None:
    assert GAMES and "chaud_devant" in GAMES and "buffet" in GAMES
    assert violations("companion/table.py", "from web_ui.app import create_app")
    assert violations("companion/referee.py", "import marmite.games")
    assert violations("hardware/panel.py", "from marmite.wiring import attach_panel")
    assert violations("web_ui/api.py", "from hardware.panel import Panel")
    assert violations("firmware_bridge/host.py", "from hardware.readers.rc522 import Rc522Reader")
    assert not violations("firmware_bridge/firmware/rc522.py", "from hardware import iso14443")
    assert violations("web_ui/pages.py", "from companion.buffet.plates import PLATES")
    assert violations("web_ui/deck_pages.py", "from web_ui.games.chaud_devant import PAGES")
    assert not violations("web_ui/games/buffet/pages.py", "from companion.buffet.plates import PLATES")
    assert violations("benchmarks/bench_network.py", "from tests.drill.helpers import Running")
    assert violations("companion/table.py", "from club.link import TableLink")
    assert violations("club/hub.py", "from marmite.games import GAMES")
    assert violations("club/web.py", "from web_ui.pages import pages")
    assert not violations("club/web.py", "from web_ui.limits import StreamGate")
    assert violations("club/demo.py", "from companion.buffet import simulate")
    assert violations("club/table.py", "from web_ui.auth import authorized")
    assert violations("web_ui/app.py", "from club.web import create_club_app")
    assert violations("marmite/wiring.py", "import importlib\nimportlib.import_module(f'companion.{game}')")
    assert not violations("hardware/readers/rc522.py", "import importlib\nimportlib.import_module('mfrc522')")
