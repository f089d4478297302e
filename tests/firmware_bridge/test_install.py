"""`marmite firmware install`: which files go where, and the clear failures."""

from __future__ import annotations

import ast
import importlib.util
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from firmware_bridge import install as commands
from firmware_bridge.simulator import SimulatedPico
from marmite.cli import main

needs_mpremote = pytest.mark.skipif(
    importlib.util.find_spec("mpremote") is None, reason="mpremote is not installed (the firmware extra)"
)


def test_without_mpremote_install_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None)
    with pytest.raises(commands.InstallError, match=r"pip install -e '.*\[firmware\]'"):
        commands.install("/dev/ttyACM0", stop=lambda port: True, run=lambda command: 0)


@needs_mpremote
def test_install_copies_the_firmware_with_mpremote_main_last() -> None:
    calls: list[list[str]] = []
    stopped: list[str] = []

    def run(command: Sequence[str]) -> int:
        calls.append(list(command))
        config = Path(command[command.index("cp") + 1])
        assert config.read_text(encoding="utf-8") == "CONFIG = {'buzzer': 15}\n"
        return 0

    port = commands.install(None, buzzer_pin=15, find=lambda: ["/dev/ttyACM0"], stop=stopped.append, run=run)
    assert port == "/dev/ttyACM0" and stopped == ["/dev/ttyACM0"]
    (command,) = calls
    assert command[1:6] == ["-m", "mpremote", "connect", "/dev/ttyACM0", "fs"]
    copied = [Path(arg).name for arg in command[command.index("cp") + 1 : command.index(":")]]
    assert copied == [
        "board_config.py", "protocol.py", "iso14443.py", "mfrc522_pcd.py", "rc522.py", "bridge.py", "main.py"
    ]
    assert command[-2:] == ["+", "reset"]
    assert all(Path(arg).exists() for arg in command[command.index("cp") + 2 : command.index(":")])


@needs_mpremote
@pytest.mark.parametrize(("found", "message"), [([], "no Pico found"), (["/dev/a", "/dev/b"], "several Picos")])
def test_install_says_clearly_when_it_cannot_pick_a_board(found: list[str], message: str) -> None:
    with pytest.raises(commands.InstallError, match=message):
        commands.install(None, find=lambda: found, stop=lambda port: True, run=lambda command: 0)


@needs_mpremote
def test_a_failed_copy_is_an_error_with_advice() -> None:
    with pytest.raises(commands.InstallError, match="BOOTSEL"):
        commands.install("/dev/ttyACM3", stop=lambda port: False, run=lambda command: 2)


@needs_mpremote
def test_the_command_line_reports_no_board(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands, "find_board_ports", lambda: [])
    assert main(["firmware", "install"]) == 1
    assert "no Pico found" in capsys.readouterr().err
    assert main(["firmware", "ports"]) == 1


def test_stop_hands_a_running_board_back_to_the_repl() -> None:
    with SimulatedPico() as pico:
        time.sleep(0.1)
        assert commands.stop_bridge(pico.port)
        deadline = time.monotonic() + 5
        while not pico.board.stopped and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pico.board.stopped


def test_stop_on_an_unopenable_port_explains() -> None:
    with pytest.raises(commands.InstallError, match="cannot open"):
        commands.stop_bridge("/nonexistent/ttyACM9")


MICROPYTHON_MODULES = {"time", "machine", "micropython", "rp2", "os", "random", "select", "sys", "gc"}


def _imported(nodes: list[ast.stmt], skip: frozenset[int] = frozenset()) -> set[str]:
    """Top-level module names imported in `nodes`, leaving out `skip` and `if TYPE_CHECKING:` (never run)."""
    walked = [n for top in nodes for n in ast.walk(top)]
    checking = [n for n in walked if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]
    skip = skip | {id(n) for block in checking for n in ast.walk(block)}
    names: set[str] = set()
    for node in (n for n in walked if id(n) not in skip):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_every_module_the_firmware_imports_is_copied_or_built_in() -> None:
    copied = {path.stem for path in commands.FIRMWARE_FILES} | {"board_config"}  # install writes board_config
    available = copied | MICROPYTHON_MODULES
    for path in commands.FIRMWARE_FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = [n for n in ast.walk(tree) if isinstance(n, ast.Try)]
        inside = frozenset(id(n) for block in guarded for part in block.body + block.handlers for n in ast.walk(part))
        plain = _imported(tree.body, inside)
        assert plain <= available, (path.name, plain - available)
        for block in guarded:  # try: import A / except ImportError: B — one side must work on the Pico
            sides = [block.body] + [handler.body for handler in block.handlers]
            assert any(_imported(side) <= available for side in sides), (path.name, [_imported(s) for s in sides])
