"""Where Marmite keeps its data when no --data is given."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def default_data_dir() -> Path:
    """$MARMITE_DATA, else the user's data folder (XDG on Linux, ~/Library on macOS, %APPDATA%)."""
    if env := os.environ.get("MARMITE_DATA"):
        return Path(env)
    if os.name == "nt" and (appdata := os.environ.get("APPDATA")):
        return Path(appdata) / "marmite"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "marmite"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "marmite"
