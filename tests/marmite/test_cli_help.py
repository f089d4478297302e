"""The `marmite` help: for players and hosts, one spelling of the reader option, one data dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from marmite.cli import build_parser, main


def help_of(*command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    return capsys.readouterr().out


def test_run_help_is_about_running_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    run = help_of("run", capsys=capsys)
    assert "--reader-option" in run and "--pace" not in run and "--seed" not in run
    demo = help_of("demo", capsys=capsys)
    assert "--pace" in demo and "--seed" in demo


@pytest.mark.parametrize("action", ["test", "learn"])
def test_reader_commands_spell_the_option_like_run(action: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of("reader", action, capsys=capsys)
    assert "--reader-option" in text and "--option " not in text
    args = build_parser().parse_args(["reader", action, "--reader-option", "gain_db=43", "--option", "a=b"])
    assert args.option == ["gain_db=43", "a=b"]  # the old spelling still works


def test_help_reads_like_a_manual_not_developer_notes(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(capsys=capsys)
    assert "add_commands" not in text and "package" not in text
    assert "run" in text and "export" in text


def test_scripts_run_keeps_games_where_marmite_export_looks() -> None:
    script = (Path(__file__).resolve().parents[2] / "scripts" / "run").read_text()
    command = next(line for line in script.splitlines() if line.startswith("exec "))
    assert "--data" not in command  # the same default data dir as a bare `marmite export --list`
