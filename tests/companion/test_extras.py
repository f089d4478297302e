"""The missing-extra hint names the command for how this Marmite was installed: editable from its folder, or a
plain install (of a folder or a wheel), which `-e` would wrongly turn into an editable one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import extras


def test_an_editable_install_is_told_to_add_the_extra_editable_from_its_folder() -> None:
    folder = Path(extras.__file__).resolve().parents[1]
    assert extras.install_hint("club") == f"run {Path(sys.prefix) / 'bin' / 'pip'} install -e '{folder}[club]'"


def test_a_plain_install_is_told_to_add_the_extra_from_where_it_came_without_e(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extras, "source_folder", lambda: tmp_path / "site-packages")  # no pyproject.toml there
    monkeypatch.setattr(extras, "installed_from", lambda: "file:///home/ana/marmite")
    hint = extras.install_hint("readers")
    assert hint == f"run {Path(sys.prefix) / 'bin' / 'pip'} install 'marmite-table[readers] @ file:///home/ana/marmite'"
    assert " -e " not in hint
    monkeypatch.setattr(extras, "installed_from", lambda: None)  # pip recorded no origin
    hint = extras.install_hint("readers")
    assert hint == f"in the Marmite folder, run {Path(sys.prefix) / 'bin' / 'pip'} install '.[readers]'"


def test_where_a_plain_install_came_from_is_read_from_pips_record(monkeypatch: pytest.MonkeyPatch) -> None:
    class Dist:
        def __init__(self, text: str | None) -> None:
            self.text = text

        def read_text(self, name: str) -> str | None:
            assert name == "direct_url.json"
            return self.text

    wheel = {"url": "file:///tmp/marmite_table-1.0-py3-none-any.whl", "archive_info": {}}
    git = {"url": "https://example.org/marmite.git", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}
    cases = ((json.dumps(wheel), wheel["url"]), (json.dumps(git), "git+https://example.org/marmite.git@abc123"),
             (json.dumps({**git, "subdirectory": "table"}),
              "git+https://example.org/marmite.git@abc123#subdirectory=table"),
             (None, None), ("not json", None), ("[1]", None))
    for text, origin in cases:
        monkeypatch.setattr(extras.importlib.metadata, "distribution", lambda name, t=text: Dist(t))
        assert extras.installed_from() == origin

    def missing(name: str) -> Any:
        raise extras.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(extras.importlib.metadata, "distribution", missing)
    assert extras.installed_from() is None
