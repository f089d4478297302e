"""The maintained RC522 packages we measure against, installed beside the project, not into it.

`mfrc522-python` installs its code as the import package `mfrc522`, the same name as the `mfrc522`
package the Pi driver uses: both cannot live in one environment, so neither baseline goes into an extra.
Each is installed (with pip, from PyPI, without its RPi.GPIO/spidev requirements, which the fakes replace)
into its own folder under `.venv/bench-baselines/` and imported from there for the measurement only.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / ".venv" / "bench-baselines"
PINNED = {"mfrc522-python": "0.0.9", "pi-rc522": "2.3.0", "mfrc522": "0.0.7"}


def ensure(dist: str) -> Path:
    """The folder holding `dist` at its pinned version, installing it there first if needed."""
    target = HOME / f"{dist}-{PINNED[dist]}"
    if not (target / ".complete").exists():
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target)]
        subprocess.run([*command, f"{dist}=={PINNED[dist]}"], check=True)
        (target / ".complete").write_text("ok\n")
    return target


@contextmanager
def imported_from(folder: Path, *modules: str) -> Iterator[None]:
    """Put `folder` first on sys.path; forget `modules` (and their submodules) before and after."""

    def forget() -> None:
        for name in [n for n in sys.modules if n.split(".")[0] in modules]:
            del sys.modules[name]

    forget()
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        forget()


def pi_driver(script: str) -> None:
    """Make `mfrc522` (the register library under the Pi reader) importable, or stop saying so.

    A venv made by scripts/test or scripts/install-pi has it; the README's (scripts/run's) has not: then
    it is installed beside the project as the baselines are (no dependencies: the fakes stand for
    RPi.GPIO and spidev). Without it the Pi reader cannot open the fake chip and would report nothing,
    so a benchmark never runs without it: it exits naming what is missing."""
    if importlib.util.find_spec("mfrc522") is not None:
        return
    try:
        folder = ensure("mfrc522")
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(
            f"{script}: the Pi reader's driver library `mfrc522` is not installed in this venv and could not "
            f"be installed beside it ({error}); install it with `.venv/bin/pip install --no-deps "
            f"mfrc522=={PINNED['mfrc522']}` and run again. No figures without it."
        ) from None
    sys.path.insert(0, str(folder))
