"""`marmite run` refuses bad reader settings with a clear message, before serving anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from marmite.cli import main
from marmite.readers import parse_reader_option


def test_reader_options_are_key_value() -> None:
    assert parse_reader_option(" gain_db = 43 ") == ("gain_db", "43")
    assert parse_reader_option("port=/dev/ttyACM0") == ("port", "/dev/ttyACM0")
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_reader_option("gain_db")


def test_run_with_a_bad_reader_option_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--data", str(tmp_path), "--pin", "1", "--reader-option", "oops"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err


def test_run_with_an_unknown_reader_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--data", str(tmp_path), "--pin", "1", "--reader", "telepathy"]) == 2
    error = capsys.readouterr().err
    assert "telepathy" in error and "sim" in error and "usb" in error and "rc522" in error


def test_run_on_a_corrupt_journal_exits_2_without_a_traceback(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "marmite.sqlite3").write_bytes(b"not a database" * 300)
    assert main(["run", "--data", str(tmp_path), "--pin", "1"]) == 2
    error = capsys.readouterr().err
    assert "marmite.sqlite3" in error and "Traceback" not in error
