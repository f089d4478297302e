"""The SD card's settings file (scripts/pi/marmite.txt) as scripts/pi/firstboot.py applies it at boot."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

PI = Path(__file__).resolve().parents[2] / "scripts" / "pi"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pi_firstboot", PI / "firstboot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


firstboot = load()
SETTINGS = ("MARMITE_PIN=111111\nMARMITE_DATA={data}\nMARMITE_OPTIONS=--reader rc522 --speak --panel\n"
            "MARMITE_HOTSPOT_PASSWORD=0123456789\n")


def machine(tmp_path: Path, text: str) -> tuple[Path, Path]:
    """A root with install-pi's settings file and data dir, and a boot partition holding `text`."""
    root, boot = tmp_path / "root", tmp_path / "boot"
    (root / "etc/marmite").mkdir(parents=True)
    (root / "home/pi/marmite-data").mkdir(parents=True)
    (root / "etc/marmite/marmite.env").write_text(SETTINGS.format(data="/home/pi/marmite-data"), encoding="utf-8")
    boot.mkdir()
    (boot / "marmite.txt").write_text(text, encoding="utf-8")
    return root, boot


def test_the_shipped_file_parses_to_its_defaults() -> None:
    settings = firstboot.parse((PI / "marmite.txt").read_text(encoding="utf-8"))
    assert settings == firstboot.BootSettings(table_name="Marmite", language="fr", reader="rc522", speech=True)


def test_a_filled_file_is_applied_and_reported(tmp_path: Path) -> None:
    text = (PI / "marmite.txt").read_text(encoding="utf-8")
    for empty, filled in (("wifi_name =", "wifi_name = Club Haute"), ("wifi_password =", "wifi_password = 1234567890"),
                          ("pin =", "pin = 2468"), ("language = fr", "language = nl"), ("speech = on", "speech = off")):
        text = text.replace(empty, filled)
    root, boot = machine(tmp_path, text)
    assert firstboot.main(["--root", str(root), "--boot", str(boot)]) == 0
    env = (root / "etc/marmite/marmite.env").read_text(encoding="utf-8").splitlines()
    assert "MARMITE_PIN=2468" in env
    assert "MARMITE_OPTIONS=--reader rc522 --panel" in env  # speech off, the panel kept
    assert "MARMITE_HOTSPOT_SSID=Marmite" in env
    assert stat.S_IMODE(os.stat(root / "etc/marmite/marmite.env").st_mode) == 0o600
    wifi = root / "etc/NetworkManager/system-connections/marmite-wifi.nmconnection"
    assert "ssid=Club Haute\n" in wifi.read_text(encoding="utf-8")
    assert "psk=1234567890\n" in wifi.read_text(encoding="utf-8")
    assert stat.S_IMODE(os.stat(wifi).st_mode) == 0o600  # NetworkManager ignores a keyfile others can read
    assert json.loads((root / "home/pi/marmite-data/web.json").read_text(encoding="utf-8")) == {"language": "nl"}
    report = (boot / "marmite-report.txt").read_text(encoding="utf-8")
    assert report.startswith("Applied:\n- PIN set\n")
    assert "joins the Wi-Fi network Club Haute" in report


def test_a_file_already_applied_is_not_applied_again(tmp_path: Path) -> None:
    root, boot = machine(tmp_path, "language = en\n")
    assert firstboot.main(["--root", str(root), "--boot", str(boot)]) == 0
    web = root / "home/pi/marmite-data/web.json"
    web.write_text(json.dumps({"language": "fr"}), encoding="utf-8")  # changed on the tablet since
    assert firstboot.main(["--root", str(root), "--boot", str(boot)]) == 0
    assert json.loads(web.read_text(encoding="utf-8")) == {"language": "fr"}


@pytest.mark.parametrize(("line", "says"), [
    ("pin = 12a4", "pin: 4 to 12 digits"),
    ("language = de", "language: one of fr, en, nl"),
    ("reader = nfc", "reader: one of rc522"),
    ("speech = maybe", "speech: on or off"),
    ("wifi_name = x\nwifi_password = short", "wifi_password: 8 to 63 characters"),
    ("colour = red", "line 1: 'colour = red' is not one of"),
    ("pin = 1234\npin = 5678", "line 2: pin is given twice"),
    ("reader = keyboard", "reader: one of rc522, pn532, usb, sim"),  # no device at boot: the service never serves
    ("reader = pcsc", "reader: one of rc522, pn532, usb, sim"),  # no pyscard nor pcscd in the image
    ("table_name = Chez Paul\\", "table_name: no \\"),  # would join the next line of the settings file
    ('table_name = "Chez Paul', "table_name: no \\, and no quote as its first character"),
    ("table_name = 'Chez Paul", "no quote as its first character"),
])
def test_a_wrong_line_changes_nothing_and_the_report_says_why(tmp_path: Path, line: str, says: str) -> None:
    root, boot = machine(tmp_path, f"{line}\n")
    before = (root / "etc/marmite/marmite.env").read_text(encoding="utf-8")
    assert firstboot.main(["--root", str(root), "--boot", str(boot)]) == 1
    assert (root / "etc/marmite/marmite.env").read_text(encoding="utf-8") == before
    assert not (root / "home/pi/marmite-data/web.json").exists()
    assert not (root / "etc/marmite/firstboot-applied").exists()  # fixed on the card, it is applied next boot
    report = (boot / "marmite-report.txt").read_text(encoding="utf-8")
    assert report.startswith("NOT APPLIED, nothing changed: ")
    assert says in report


@given(st.text(max_size=300))
def test_any_text_parses_or_is_refused_by_name(text: str) -> None:
    try:
        settings = firstboot.parse(text)
    except firstboot.BadSettings as error:
        assert str(error)
    else:
        assert settings.pin == "" or settings.pin.isdigit()
        assert settings.language in ("", "fr", "en", "nl")


def test_the_language_applied_is_the_one_the_table_speaks(tmp_path: Path) -> None:
    root, boot = machine(tmp_path, "language = nl\n")
    assert firstboot.main(["--root", str(root), "--boot", str(boot)]) == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    marmite = Path(sys.executable).parent / "marmite"
    process = subprocess.Popen([str(marmite), "run", "--host", "127.0.0.1", "--port", str(port), "--pin", "2468",
                                "--data", str(root / "home/pi/marmite-data")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        said = subprocess.run([sys.executable, str(PI / "health.py"), "wait", f"http://127.0.0.1:{port}",
                               "--timeout", "60", "--settle", "0", "--where"], capture_output=True, text=True,
                              timeout=120)
        assert "the table says: Geen spel bezig." in said.stdout, said.stderr
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_new_card_draws_its_own_pin_and_tells_it_in_the_report(tmp_path: Path) -> None:
    root, boot = machine(tmp_path, (PI / "marmite.txt").read_text(encoding="utf-8"))
    (root / "etc/marmite/marmite.env").write_text("MARMITE_OPTIONS=--reader rc522 --speak\n", encoding="utf-8")
    assert firstboot.main(["--root", str(root), "--boot", str(boot)]) == 0
    env = (root / "etc/marmite/marmite.env").read_text(encoding="utf-8").splitlines()
    pin = firstboot.env_value(env, "MARMITE_PIN")
    password = firstboot.env_value(env, "MARMITE_HOTSPOT_PASSWORD")
    assert len(pin) == 6 and pin.isdigit() and len(password) == 10
    report = (boot / "marmite-report.txt").read_text(encoding="utf-8")
    assert f"- the table's PIN is {pin}\n" in report
    assert f"- the password of the table's own Wi-Fi network is {password}\n" in report


@pytest.mark.parametrize(("name", "password", "ssid", "psk"), [
    ("Club\\Haute", "pass\\word12", "ssid=Club\\\\Haute\n", "psk=pass\\\\word12\n"),
    ("L'Auberge #3", "a b;c=d#e", "ssid=L'Auberge #3\n", "psk=a b;c=d#e\n"),
])
def test_the_wifi_keyfile_escapes_as_glib_reads(tmp_path: Path, name: str, password: str, ssid: str, psk: str) -> None:
    root, boot = machine(tmp_path, f"wifi_name = {name}\nwifi_password = {password}\n")
    assert firstboot.main(["--root", str(root), "--boot", str(boot)]) == 0
    keyfile = (root / "etc/NetworkManager/system-connections/marmite-wifi.nmconnection").read_text(encoding="utf-8")
    assert ssid in keyfile and psk in keyfile


def test_a_leading_space_is_written_as_glib_does() -> None:
    assert firstboot.keyfile_value("  a\\b ") == "\\s\\sa\\\\b "


@given(st.text(st.characters(min_codepoint=32, exclude_categories=("Cs",)), max_size=32))  # text read as UTF-8
def test_a_table_name_accepted_is_read_back_whole_from_the_settings_file(name: str) -> None:
    try:
        settings = firstboot.checked({"table_name": name.strip()})
    except firstboot.BadSettings:
        return
    # systemd's EnvironmentFile: a backslash escapes, a leading quote quotes; neither may reach the file.
    assert "\\" not in settings.table_name and settings.table_name[:1] not in ("'", '"')


def test_a_refused_file_on_a_new_card_still_draws_its_pin_and_password(tmp_path: Path) -> None:
    root, boot = machine(tmp_path, "reader = nfc\n")
    (root / "etc/marmite/marmite.env").write_text("MARMITE_OPTIONS=--reader rc522 --speak\n", encoding="utf-8")
    assert firstboot.main(["--root", str(root), "--boot", str(boot)]) == 1
    env = (root / "etc/marmite/marmite.env").read_text(encoding="utf-8").splitlines()
    pin = firstboot.env_value(env, "MARMITE_PIN")
    password = firstboot.env_value(env, "MARMITE_HOTSPOT_PASSWORD")
    assert len(pin) == 6 and pin.isdigit() and len(password) == 10
    assert "MARMITE_OPTIONS=--reader rc522 --speak" in env  # the rest is not applied
    report = (boot / "marmite-report.txt").read_text(encoding="utf-8")
    assert report.startswith("NOT APPLIED, nothing else changed: reader: one of")
    assert f"- the table's PIN is {pin}\n" in report
    assert f"- the password of the table's own Wi-Fi network is {password}\n" in report
    assert not (root / "etc/marmite/firstboot-applied").exists()
