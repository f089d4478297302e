"""Where data lives by default on each system."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.paths import default_data_dir


def test_marmite_data_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MARMITE_DATA", str(tmp_path))
    assert default_data_dir() == tmp_path


def test_linux_uses_xdg_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MARMITE_DATA", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "marmite"


def test_macos_uses_application_support(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MARMITE_DATA", raising=False)
    monkeypatch.setattr(sys, "platform", "darwin")
    assert default_data_dir() == Path.home() / "Library" / "Application Support" / "marmite"
