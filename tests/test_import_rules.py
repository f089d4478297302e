"""The import rule, read from the source with ast: the core imports no adapter and no root, adapters
import no root and no other adapter (but firmware_bridge → hardware's radio core), only a game's own packages and
the registry import a game, generic code never tests a game's name, benchmarks import no tests, and no project
module is imported by a name computed at run time."""

from __future__ import annotations

import ast
import re
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
PRODUCT = (CORE, *ADAPTERS, ROOT_PACKAGE)
REGISTRY = "marmite/games.py"
"""The one generic module that names the games: the composition root's table of hosted games."""
GENERIC_PAGES = ("web_ui/templates", "web_ui/static", "club/templates", "club/static")
"""Templates and scripts every game shares: they learn a game's facts from the server, never by its name."""


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
    game = next((g for g in GAMES if module.startswith((f"{CORE}.{g}", f"web_ui.games.{g}"))), None)
    if top in PRODUCT and game and not path.startswith((f"{CORE}/{game}/", f"web_ui/games/{game}/", REGISTRY)):
        return "a generic module imports a game"
    if top == "benchmarks" and target == "tests":
        return "a benchmark imports a test module"
    return None


def generic(path: str) -> bool:
    """True for product code outside every game's own packages and the registry."""
    return path.split("/")[0] in PRODUCT and path != REGISTRY and not path.startswith(
        tuple(f"{CORE}/{g}/" for g in GAMES) + tuple(f"web_ui/games/{g}/" for g in GAMES))


def names_a_game(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, what) for each string constant equal to a game's name (docstrings aside) and each `is_buffet` call."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in GAMES and id(node) not in docstrings:
            yield node.lineno, f"the game's name {node.value!r}"
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "is_buffet":
            yield node.lineno, "is_buffet()"


def violations(path: str, source: str) -> list[str]:
    tree = ast.parse(source)
    found = [f"{path}:{line}: {module} ({why})" for line, module in imports(tree) if (why := broken(path, module))]
    if generic(path):
        found += [f"{path}:{line}: {what} (generic code tests a game)" for line, what in names_a_game(tree)]
    return found


def page_violations(path: str, text: str) -> list[str]:
    """A generic template or script that names a game."""
    pattern = re.compile(r"(?<![A-Za-z])(" + "|".join(GAMES) + r")(?![a-z])")  # buffet_ready names it too
    return [f"{path}:{number}: {match.group(1)} (a generic page names a game)"
            for number, line in enumerate(text.splitlines(), 1) for match in pattern.finditer(line)]


def test_the_tree_follows_the_import_rule() -> None:
    found = []
    for top in (CORE, *ADAPTERS, ROOT_PACKAGE, "benchmarks"):
        for file in sorted((ROOT / top).rglob("*.py")):
            path = str(file.relative_to(ROOT))
            found += violations(path, file.read_text(encoding="utf-8"))
    assert found == []


def test_no_generic_template_or_script_names_a_game() -> None:
    found = []
    for folder in GENERIC_PAGES:
        for file in sorted((ROOT / folder).rglob("*")):
            if file.suffix in (".html", ".js", ".css"):
                found += page_violations(str(file.relative_to(ROOT)), file.read_text(encoding="utf-8"))
    assert found == []


def test_the_games_are_the_registry_s() -> None:
    from marmite.games import HOSTED

    assert tuple(sorted(hosted.kind.name for hosted in HOSTED)) == GAMES


def test_each_rule_catches_a_forbidden_import() -> None:
    assert GAMES and "chaud_devant" in GAMES and "buffet" in GAMES
    assert violations("companion/table.py", "from web_ui.app import create_app")
    assert violations("companion/referee.py", "import marmite.games")
    assert violations("hardware/panel.py", "from marmite.wiring import attach_panel")
    assert violations("web_ui/api.py", "from hardware.panel import Panel")
    assert violations("firmware_bridge/host.py", "from hardware.readers.rc522 import Rc522Reader")
    assert not violations("firmware_bridge/firmware/rc522.py", "from hardware import iso14443")
    assert violations("web_ui/pages.py", "from companion.buffet.plates import PLATES")
    assert violations("companion/robot_seats.py", "from companion.buffet.plates import PLATES")
    assert violations("club/seating.py", "from companion.chaud_devant.game import EDITIONS")
    assert violations("marmite/serve.py", "from companion.chaud_devant import KIND")
    assert not violations("marmite/games.py", "from companion import buffet, chaud_devant")
    assert violations("web_ui/games/buffet/pages.py", "from companion.chaud_devant.cards import Card")
    assert violations("companion/robot_games.py", "def f(state):\n    return state.game == 'buffet'")
    assert violations("companion/robot_table.py", "def f(state):\n    return is_buffet(state)")
    assert not violations("companion/robot_table.py", "def f(state):\n    'Not for the buffet.'\n    return 1")
    assert not violations("companion/buffet/robot.py", "NAME = 'buffet'")
    assert page_violations("club/static/club_table.js", "if (game === 'buffet') {}")
    assert page_violations("web_ui/static/speech.js", 'const ALWAYS = ["buffet_ready_choose"];')
    assert not page_violations("web_ui/static/app.js", "const rebuffeted = 1;")
    assert not page_violations("web_ui/games/buffet/static/buffet.js", "nothing generic")
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
