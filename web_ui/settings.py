"""Per-table display settings (language, voice, speech rate), kept in the data dir as web.json."""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from companion.phrases import LANGUAGES

SETTINGS_FILE = "web.json"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the table chose on the setup page."""

    language: str = "fr"
    voice: bool = True
    rate: float = 1.0

    def as_json(self) -> dict[str, Any]:
        """The settings as a JSON object."""
        return asdict(self)


def parse_settings(raw: object, base: Settings) -> Settings:
    """New settings from a JSON/form mapping over `base`; ValueError with a clear message."""
    if not isinstance(raw, dict):
        raise ValueError("settings must be a JSON object")
    language = raw.get("language", base.language)
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
    voice = raw.get("voice", base.voice)
    if isinstance(voice, str):
        voice = voice.lower() in ("1", "true", "on", "yes")
    if not isinstance(voice, bool):
        raise ValueError("voice must be true or false")
    rate = raw.get("rate", base.rate)
    try:
        rate = float(rate)
    except (TypeError, ValueError):
        raise ValueError("rate must be a number between 0.5 and 2") from None
    if not 0.5 <= rate <= 2.0:
        raise ValueError("rate must be a number between 0.5 and 2")
    return Settings(str(language), voice, rate)


class SettingsStore:
    """Settings read at start and written atomically on change; thread-safe."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._settings = Settings()
        if path is not None and path.exists():
            try:
                self._settings = parse_settings(json.loads(path.read_text(encoding="utf-8")), Settings())
            except ValueError:
                self._settings = Settings()

    @property
    def current(self) -> Settings:
        """The settings now."""
        with self._lock:
            return self._settings

    def update(self, settings: Settings) -> None:
        """Persist, then replace the settings; OSError (nothing changed) when they cannot be written."""
        with self._lock:
            if self._path is not None:
                self._write(settings)
            self._settings = settings

    def _write(self, settings: Settings) -> None:
        """Write the settings file atomically and durably (temporary file, fsync, rename)."""
        assert self._path is not None
        self._path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._path.with_suffix(".tmp")
        try:
            with tmp.open("w", encoding="utf-8") as handle:
                handle.write(json.dumps(settings.as_json()))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self._path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise
