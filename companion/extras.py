"""Optional extras of the package: a command that needs one that is not installed says so in one line."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import sys
from pathlib import Path

DISTRIBUTION = "marmite-table"
"""Marmite's distribution name. It is not on the Python package index: `marmite` there is another project."""

EXTRAS: dict[str, tuple[str, str]] = {
    "club": ("paho", "paho-mqtt"),
    "readers": ("smartcard", "pyscard"),
    "firmware": ("mpremote", "mpremote"),
    "hardware": ("spidev", "spidev"),
}
"""Each extra of pyproject.toml: a module that tells whether it is installed, and the package that brings it."""


class MissingExtra(RuntimeError):
    """A command needs an extra that is not installed."""

    def __init__(self, extra: str, package: str | None = None) -> None:
        self.extra = extra
        self.package = package or EXTRAS[extra][1]
        super().__init__(f"needs the '{extra}' extra ({self.package} is not installed): {install_hint(extra)}")


def install_hint(extra: str) -> str:
    """The one command that adds `extra` to the venv this Marmite runs in, from the folder it was installed from
    (the guide's `.venv` in the Marmite folder, or wherever the person made theirs)."""
    command, anywhere = install_command(extra)
    return f"run {command}" if anywhere else f"in the Marmite folder, run {command}"


def install_command(extra: str) -> tuple[str, bool]:
    """`install_hint`'s command, and whether it runs from any folder (else from the Marmite folder): editable
    from its folder, as every guide does; else (a plain `pip install` of a folder or a wheel) from where pip
    says it came, with no `-e`, for pip would not reinstall it editable."""
    folder = source_folder()
    pip = Path(sys.prefix) / "bin" / "pip"
    if (folder / "pyproject.toml").is_file():  # installed from its folder (editable)
        return f"{pip} install -e '{folder}[{extra}]'", True
    origin = installed_from()
    if origin is not None:
        return f"{pip} install '{DISTRIBUTION}[{extra}] @ {origin}'", True
    return f"{pip} install '.[{extra}]'", False


def source_folder() -> Path:
    """The folder holding the `companion` package: Marmite's own folder when installed editable."""
    return Path(__file__).resolve().parents[1]


def installed_from() -> str | None:
    """The URL pip recorded this (non-editable) Marmite was installed from (a folder, a wheel), if any."""
    try:
        recorded = importlib.metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
        origin = json.loads(recorded or "null") if recorded else None
        url = origin.get("url") if isinstance(origin, dict) else None
    except (importlib.metadata.PackageNotFoundError, ValueError, AttributeError):
        return None
    if not isinstance(url, str) or not url:
        return None
    vcs = origin.get("vcs_info") if isinstance(origin, dict) else None
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):  # PEP 610: pip wants "git+URL@commit" back
        commit = vcs.get("commit_id")
        url = f"{vcs['vcs']}+{url}" + (f"@{commit}" if isinstance(commit, str) and commit else "")
    subdirectory = origin.get("subdirectory") if isinstance(origin, dict) else None
    return url + (f"#subdirectory={subdirectory}" if isinstance(subdirectory, str) and subdirectory else "")


def installed(extra: str) -> bool:
    """Whether the module that stands for `extra` can be imported."""
    return importlib.util.find_spec(EXTRAS[extra][0]) is not None


def require(extra: str) -> None:
    """Raise MissingExtra when `extra` is not installed."""
    if not installed(extra):
        raise MissingExtra(extra)
