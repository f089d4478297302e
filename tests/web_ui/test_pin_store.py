"""The kept PIN under concurrent changes: every write has its own temporary file, the result is one whole PIN."""

from __future__ import annotations

import threading
from pathlib import Path

from web_ui.pin_store import PIN_FILE, keep_pin, kept_pin

WRITERS = 8
ROUNDS = 25


def _change_together(data_dir: Path, pins: list[str]) -> list[BaseException]:
    """Keep every PIN of `pins` at the same moment, one thread each; the writers' failures."""
    start = threading.Barrier(len(pins))
    failures: list[BaseException] = []

    def change(pin: str) -> None:
        start.wait()
        try:
            keep_pin(data_dir, pin)
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=change, args=(pin,)) for pin in pins]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def test_simultaneous_pin_changes_never_fail_nor_interleave(tmp_path: Path) -> None:
    pins = [str(writer + 1) * (4 + writer) for writer in range(WRITERS)]  # lengths differ: a mix would show
    for _ in range(ROUNDS):
        assert _change_together(tmp_path, pins) == []
        assert (tmp_path / PIN_FILE).read_text(encoding="ascii") in {pin + "\n" for pin in pins}
        assert kept_pin(tmp_path) in pins
        assert [path.name for path in tmp_path.iterdir()] == [PIN_FILE]  # no temporary file left behind
