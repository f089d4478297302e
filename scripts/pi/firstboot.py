"""Apply the settings file of the SD card's boot partition (`marmite.txt`) before Marmite starts; stdlib only.

`firstboot.py [--root DIR] [--boot DIR]` reads DIR/marmite.txt (default /boot/firmware), checks every line,
and only when all are right applies them: the PIN, the reader and speech to /etc/marmite/marmite.env, the
table's name to its access point, the Wi-Fi network to NetworkManager, the language to the table's settings in
the data dir. Whatever happens, it writes marmite-report.txt beside the file, so the person who edited it on
a computer reads whether it was applied, and why not. A file already applied is not applied again, so a
language chosen later on the tablet survives a reboot.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

SETTINGS_NAME = "marmite.txt"
REPORT_NAME = "marmite-report.txt"
# The readers the image can run unattended: pcsc needs pyscard and pcscd (not in the image), and keyboard a
# device at start (without one `marmite run` exits 2, which the service does not restart).
READERS = ("rc522", "pn532", "usb", "sim")
LANGUAGES = ("fr", "en", "nl")
SWITCH = {"on": True, "off": False, "oui": True, "non": False, "aan": True, "uit": False, "yes": True, "no": False}
KEYS = ("wifi_name", "wifi_password", "table_name", "pin", "language", "reader", "speech")
ENV_FILE = "etc/marmite/marmite.env"
APPLIED = "etc/marmite/firstboot-applied"
WIFI_FILE = "etc/NetworkManager/system-connections/marmite-wifi.nmconnection"


class BadSettings(ValueError):
    """The settings file cannot be applied: the message names the line and the fix."""


@dataclass(frozen=True, slots=True)
class BootSettings:
    """What the settings file asks for; empty strings are settings left as they are."""

    wifi_name: str = ""
    wifi_password: str = ""
    table_name: str = ""
    pin: str = ""
    language: str = ""
    reader: str = ""
    speech: bool | None = None


def parse(text: str) -> BootSettings:
    """`key = value` lines (# starts a comment line); BadSettings naming the first wrong line."""
    found: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff")  # an editor's byte-order mark
        if not line or line.startswith("#"):
            continue
        key, equals, value = line.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not equals or key not in KEYS:
            raise BadSettings(f"line {number}: {raw.strip()!r} is not one of {', '.join(KEYS)} followed by '='")
        if key in found:
            raise BadSettings(f"line {number}: {key} is given twice")
        if any(ord(char) < 32 for char in value):
            raise BadSettings(f"line {number}: {key} holds a control character")
        found[key] = value
    return checked(found)


def checked(found: dict[str, str]) -> BootSettings:
    """The values, each checked; BadSettings naming the setting and what it may be."""
    name, password = found.get("wifi_name", ""), found.get("wifi_password", "")
    if len(name.encode()) > 32:
        raise BadSettings("wifi_name: a Wi-Fi name has at most 32 bytes")
    if password and not 8 <= len(password) <= 63:
        raise BadSettings("wifi_password: 8 to 63 characters (or nothing for an open network)")
    if password and not name:
        raise BadSettings("wifi_password is given without wifi_name")
    table = found.get("table_name", "")
    if len(table.encode()) > 32:
        raise BadSettings("table_name: at most 32 bytes (it names the table's own Wi-Fi network)")
    if "\\" in table or table[:1] in ("'", '"'):  # systemd's settings file would read them as escapes or quoting
        raise BadSettings("table_name: no \\, and no quote as its first character")
    pin = found.get("pin", "")
    if pin and not re.fullmatch(r"[0-9]{4,12}", pin):
        raise BadSettings("pin: 4 to 12 digits")
    language = found.get("language", "").lower()
    if language and language not in LANGUAGES:
        raise BadSettings(f"language: one of {', '.join(LANGUAGES)}")
    reader = found.get("reader", "").lower()
    if reader and reader not in READERS:
        raise BadSettings(f"reader: one of {', '.join(READERS)} (the readers this card's Marmite can run)")
    speech = found.get("speech", "").lower()
    if speech and speech not in SWITCH:
        raise BadSettings("speech: on or off")
    return BootSettings(name, password, table, pin, language, reader, SWITCH[speech] if speech else None)


def read_env(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def set_env(lines: list[str], key: str, value: str) -> list[str]:
    """The lines with KEY=value replaced, or added at the end."""
    if any(line.startswith(f"{key}=") for line in lines):
        return [f"{key}={value}" if line.startswith(f"{key}=") else line for line in lines]
    return [*lines, f"{key}={value}"]


def env_value(lines: list[str], key: str) -> str:
    values = [line.split("=", 1)[1] for line in lines if line.startswith(f"{key}=")]
    return values[-1] if values else ""


def options(current: str, settings: BootSettings) -> str:
    """marmite run's options with the reader and speech the file asks for, the others kept."""
    words = current.split()
    if settings.reader:
        if "--reader" in words and words.index("--reader") + 1 < len(words):
            words[words.index("--reader") + 1] = settings.reader
        else:
            words = ["--reader", settings.reader, *words]
    if settings.speech is True and "--speak" not in words:
        words.append("--speak")
    if settings.speech is False:
        words = [word for word in words if word != "--speak"]
    return " ".join(words)


def keyfile_value(value: str) -> str:
    """A string as GLib's key files write it (control characters are refused before): \\ and a leading space."""
    escaped = value.replace("\\", "\\\\")
    stripped = escaped.lstrip(" ")
    return "\\s" * (len(escaped) - len(stripped)) + stripped


def wifi_connection(name: str, password: str) -> str:
    """A NetworkManager keyfile for the network named in the file."""
    security = f"[wifi-security]\nkey-mgmt=wpa-psk\npsk={keyfile_value(password)}\n\n" if password else ""
    return (f"[connection]\nid=marmite-wifi\ntype=wifi\nautoconnect=true\n\n[wifi]\nmode=infrastructure\n"
            f"ssid={keyfile_value(name)}\n\n{security}[ipv4]\nmethod=auto\n\n[ipv6]\nmethod=auto\n")


def write_private(path: Path, text: str) -> None:
    """Write a root-only file atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    descriptor = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)


def write_language(data: Path, language: str) -> None:
    """The table's language in its kept settings (web.json, in the data dir), owned by the data dir's owner."""
    web = data / "web.json"
    try:
        kept = json.loads(web.read_text(encoding="utf-8")) if web.exists() else {}
    except ValueError:
        kept = {}
    data.mkdir(parents=True, exist_ok=True)
    web.write_text(json.dumps({**(kept if isinstance(kept, dict) else {}), "language": language}), encoding="utf-8")
    owner = data.stat()
    if os.geteuid() == 0:
        os.chown(web, owner.st_uid, owner.st_gid)


def draw_secrets(lines: list[str], done: list[str]) -> list[str]:
    """A new card's own PIN and access point password, told in `done` since no screen shows them."""
    if not env_value(lines, "MARMITE_PIN"):
        lines = set_env(lines, "MARMITE_PIN", f"{secrets.randbelow(10**6):06d}")
        done.append(f"the table's PIN is {env_value(lines, 'MARMITE_PIN')}")
    if not env_value(lines, "MARMITE_HOTSPOT_PASSWORD"):
        lines = set_env(lines, "MARMITE_HOTSPOT_PASSWORD", f"{secrets.randbelow(10**10):010d}")
        done.append(f"the password of the table's own Wi-Fi network is {env_value(lines, 'MARMITE_HOTSPOT_PASSWORD')}")
    return lines


def apply(settings: BootSettings, root: Path) -> list[str]:
    """Apply the settings under `root`; what was done, one line each."""
    done: list[str] = []
    env_path = root / ENV_FILE
    lines = read_env(env_path)
    if settings.pin:
        lines = set_env(lines, "MARMITE_PIN", settings.pin)
        done.append("PIN set")
    lines = draw_secrets(lines, done)
    if settings.reader or settings.speech is not None:
        lines = set_env(lines, "MARMITE_OPTIONS", options(env_value(lines, "MARMITE_OPTIONS"), settings))
        done.append(f"marmite run {env_value(lines, 'MARMITE_OPTIONS')}")
    if settings.table_name:
        lines = set_env(lines, "MARMITE_HOTSPOT_SSID", settings.table_name)
        done.append(f"the table's own Wi-Fi network is called {settings.table_name}")
    write_private(env_path, "\n".join(lines) + "\n")
    wifi = root / WIFI_FILE
    if settings.wifi_name:
        write_private(wifi, wifi_connection(settings.wifi_name, settings.wifi_password))
        done.append(f"joins the Wi-Fi network {settings.wifi_name}; its own network only when that one is absent")
    else:
        wifi.unlink(missing_ok=True)
        done.append("no Wi-Fi network named: the table offers its own")
    if settings.language:
        data = Path(env_value(lines, "MARMITE_DATA") or "/home/pi/marmite-data")
        write_language(root / data.relative_to(data.anchor), settings.language)
        done.append(f"language {settings.language}")
    return done


def main(argv: list[str]) -> int:
    """Check, apply when all is right, report beside the file."""
    parser = argparse.ArgumentParser(prog="firstboot.py", description=__doc__)
    parser.add_argument("--root", type=Path, default=Path("/"))
    parser.add_argument("--boot", type=Path, default=Path("/boot/firmware"))
    args = parser.parse_args(argv)
    source, report = args.boot / SETTINGS_NAME, args.boot / REPORT_NAME
    if not source.exists():
        return 0
    raw = source.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    marker = args.root / APPLIED
    if marker.exists() and marker.read_text(encoding="utf-8").strip() == digest:
        return 0
    try:
        done = apply(parse(raw.decode("utf-8-sig")), args.root)
    except (BadSettings, UnicodeDecodeError) as error:
        # A new card still gets its PIN and access point password, so that it can be reached and the file fixed.
        drawn: list[str] = []
        env_path = args.root / ENV_FILE
        lines = draw_secrets(read_env(env_path), drawn)
        if drawn:
            write_private(env_path, "\n".join(lines) + "\n")
        report.write_text(f"NOT APPLIED, nothing {'else ' if drawn else ''}changed: {error}\n"
                          + "".join(f"- {line}\n" for line in drawn), encoding="utf-8")
        print(f"marmite.txt not applied: {error}", file=sys.stderr)
        return 1
    write_private(marker, digest + "\n")
    report.write_text("Applied:\n" + "".join(f"- {line}\n" for line in done), encoding="utf-8")
    print("marmite.txt applied: " + "; ".join(done))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
