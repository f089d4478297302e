"""Run a systemd service's ExecStart by hand, as systemd would: where systemd is not PID 1 (a chroot).

`unit.py argv UNIT` prints the command line (one argument a line); `unit.py exec UNIT` becomes it, as the
unit's User, in its WorkingDirectory, with its Environment= and EnvironmentFile= settings. Only what
Marmite's unit uses is understood; anything else in ExecStart is refused by name. Standard library only.
"""

from __future__ import annotations

import os
import pwd
import re
import shlex
import sys
from pathlib import Path

WHOLE_VARIABLE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
BRACED_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def service_settings(unit_text: str) -> list[tuple[str, str]]:
    """The [Service] section's settings in order, as (key, value) pairs."""
    settings: list[tuple[str, str]] = []
    section = ""
    for raw in unit_text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section == "Service" and "=" in line:
            key, value = line.split("=", 1)
            settings.append((key.strip(), value.strip()))
    return settings


def unquote(value: str) -> str:
    """An environment value without the quotes around it, as systemd reads it."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def read_environment_file(text: str) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and comments (# or ;) skipped."""
    found: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        found[key.strip()] = unquote(value.strip())
    return found


def environment(settings: list[tuple[str, str]]) -> dict[str, str]:
    """Environment= then EnvironmentFile= (a leading '-' makes a missing file fine), later ones winning."""
    found: dict[str, str] = {}
    for key, value in settings:
        if key == "Environment":
            for assignment in shlex.split(value):
                name, _, setting = assignment.partition("=")
                found[name] = setting
    for key, value in settings:
        if key == "EnvironmentFile":
            optional = value.startswith("-")
            path = Path(value.lstrip("-"))
            if optional and not path.exists():
                continue
            found.update(read_environment_file(path.read_text(encoding="utf-8")))
    return found


def command_line(exec_start: str, env: dict[str, str]) -> list[str]:
    """ExecStart's words with systemd's expansion: `$NAME` alone becomes its value's words, `${NAME}` its value."""
    if exec_start[:1] in "-@+!:":
        raise ValueError(f"ExecStart prefix {exec_start[0]!r} is not understood here")
    words: list[str] = []
    for word in shlex.split(exec_start):
        if whole := WHOLE_VARIABLE.fullmatch(word):
            words.extend(env.get(whole.group(1), "").split())
        else:
            words.append(BRACED_VARIABLE.sub(lambda m: env.get(m.group(1), ""), word))
    return words


def the(settings: list[tuple[str, str]], key: str) -> str:
    """The last value of a setting the unit must have."""
    values = [value for name, value in settings if name == key]
    if not values:
        raise ValueError(f"the unit has no {key}=")
    return values[-1]


def main(argv: list[str]) -> int:
    """argv or exec, on one unit file."""
    if len(argv) != 2 or argv[0] not in ("argv", "exec"):
        print("usage: unit.py argv|exec UNIT-FILE", file=sys.stderr)
        return 2
    settings = service_settings(Path(argv[1]).read_text(encoding="utf-8"))
    env = environment(settings)
    words = command_line(the(settings, "ExecStart"), env)
    if argv[0] == "argv":
        print("\n".join(words))
        return 0
    user = pwd.getpwnam(the(settings, "User"))
    os.chdir(the(settings, "WorkingDirectory"))
    if os.geteuid() == 0:  # as systemd does; a user running it for themselves is already that user
        os.initgroups(user.pw_name, user.pw_gid)
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)
    elif user.pw_uid != os.geteuid():
        print(f"unit.py: the unit runs as {user.pw_name}: run this as root or as {user.pw_name}", file=sys.stderr)
        return 2
    base = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": user.pw_dir, "USER": user.pw_name}
    os.execve(words[0], words, {**base, **env})
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
