"""scripts/install-pi's options, up to where it asks for sudo (a stand-in here: nothing is installed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

INSTALL_PI = Path(__file__).resolve().parents[2] / "scripts" / "install-pi"


def run(tmp_path: Path, *options: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """install-pi as a user who is not root; what it passed to sudo."""
    bin_dir, asked = tmp_path / "bin", tmp_path / "sudo.args"
    bin_dir.mkdir()
    for name, text in (("id", "#!/bin/sh\necho 1000\n"), ("sudo", f'#!/bin/sh\nprintf "%s\\n" "$@" >{asked}\n')):
        (bin_dir / name).write_text(text, encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    result = subprocess.run(["bash", str(INSTALL_PI), *options], env={"PATH": f"{bin_dir}:/usr/bin:/bin"},
                            capture_output=True, text=True, timeout=60)
    return result, asked.read_text(encoding="utf-8").splitlines()[1:] if asked.exists() else []


def test_the_options_reach_the_root_part(tmp_path: Path) -> None:
    result, passed = run(tmp_path, "--reader", "pn532", "--no-speak")
    assert result.returncode == 0, result.stderr
    assert passed == ["--reader", "pn532", "--no-speak"]


def test_no_options_is_fine(tmp_path: Path) -> None:
    result, passed = run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert passed == []


@pytest.mark.parametrize("reader", ["keyboard", "pcsc", "nfc"])
def test_a_reader_the_service_cannot_run_is_refused_before_sudo(tmp_path: Path, reader: str) -> None:
    result, passed = run(tmp_path, "--reader", reader)
    assert result.returncode == 2
    assert f"--reader {reader}: the service runs rc522, pn532, usb or sim" in result.stderr
    assert passed == []
