"""The club's secret files are owner-only whenever they are written, even where an older file was wider."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from club import broker
from club.broker import BrokerError, Credentials, write_broker_files, write_external_files, write_private


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _widened(path: Path) -> Path:
    path.write_text("{}", encoding="utf-8")
    path.chmod(0o644)
    return path


def test_rewriting_the_credentials_narrows_an_older_world_readable_file(tmp_path: Path) -> None:
    path = _widened(tmp_path / "credentials.json")
    credentials = Credentials.load_or_create(path, 2)
    assert _mode(path) == 0o600
    assert sorted(credentials.tables) == [1, 2]


def test_rewriting_the_broker_files_keeps_the_password_file_owner_only(tmp_path: Path) -> None:
    directory = tmp_path / "mosquitto"
    directory.mkdir()
    _widened(directory / "passwd")
    credentials = Credentials("hub-secret", {1: "T1SECRET"})
    write_broker_files(directory, "club", credentials, "127.0.0.1", 1883)
    assert _mode(directory / "passwd") == 0o600
    assert "T1SECRET" not in (directory / "passwd").read_text(encoding="utf-8")  # hashed


@pytest.mark.parametrize("external", [False, True], ids=["own broker", "existing broker"])
def test_when_hashing_fails_no_password_file_is_left_in_clear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              external: bool) -> None:
    failing = tmp_path / "mosquitto_passwd"
    failing.write_text("#!/bin/sh\necho 'cannot hash' >&2\nexit 1\n", encoding="utf-8")
    failing.chmod(0o700)
    monkeypatch.setattr(broker.shutil, "which", lambda name: str(failing))
    directory = tmp_path / "files"
    credentials = Credentials("hub-secret", {1: "T1SECRET"})
    with pytest.raises(BrokerError, match="mosquitto_passwd failed: cannot hash"):
        if external:
            write_external_files(directory, "club", credentials, "hub-admin")
        else:
            write_broker_files(directory, "club", credentials, "127.0.0.1", 1883)
    assert not (directory / "passwd").exists()


def test_a_private_file_is_never_written_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("kept", encoding="utf-8")
    (tmp_path / "club.json").symlink_to(target)
    with pytest.raises(OSError):
        write_private(tmp_path / "club.json", "secret")
    assert target.read_text(encoding="utf-8") == "kept"


def test_every_file_a_running_hub_creates_is_owner_only(tmp_path: Path) -> None:
    import os
    import time

    from tests.club.helpers import Hub

    before = os.umask(0o022)  # a usual login's umask: files would be world-readable
    try:
        hub = Hub(tmp_path / "hub", tables=1).start()
    finally:
        os.umask(before)
    try:
        deadline = time.monotonic() + 10
        while not (tmp_path / "hub" / "club.sqlite3-wal").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        hub.stop()  # Mosquitto writes its persistence file as it stops
        made = [path for path in (tmp_path / "hub").rglob("*") if path.is_file()]
        assert {path.name for path in made} >= {"club.sqlite3", "credentials.json", "mosquitto.conf", "acl", "passwd"}
        assert [(path.name, oct(_mode(path))) for path in made if _mode(path) & 0o077] == []
    finally:
        hub.stop()
