"""A deal by tag is recorded whole or not at all: the table killed (SIGKILL) around its last card."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from companion.journal import JOURNAL_FILE
from tests.companion.deal_writer import PLAYERS

ROOT = Path(__file__).resolve().parents[2]
TRIES = 60 if os.environ.get("MARMITE_SOAK") else 12
SYNC_MS = 6
"""Each journal fdatasync takes 6 ms more, as on a slow SD card: the last card's recording takes a while."""


def hands_per_game(data: Path) -> dict[int, int]:
    """How many `hand` events each game of the journal holds."""
    with sqlite3.connect(data / JOURNAL_FILE) as db:
        games = [seq for (seq,) in db.execute("SELECT seq FROM events WHERE type = 'new_game' AND accepted = 1")]
        counts = dict(db.execute("SELECT game, COUNT(*) FROM events WHERE type = 'hand' GROUP BY game").fetchall())
    db.close()
    return {game: counts.get(game, 0) for game in games}


def test_a_deal_killed_around_its_last_card_is_recorded_whole_or_not_at_all(tmp_path: Path) -> None:
    data = tmp_path / "data"
    rng = random.Random(52)
    whole = 0
    for _ in range(TRIES):
        writer = subprocess.Popen([sys.executable, "-m", "tests.companion.deal_writer", str(data), str(SYNC_MS)],
                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "last"
        time.sleep(rng.uniform(0, 0.05))  # the last card is being read and the hands recorded
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        writer.stdout.close()
        counts = hands_per_game(data)
        assert set(counts.values()) <= {0, len(PLAYERS)}, f"a deal recorded in part: {counts}"
        whole += list(counts.values())[-1] == len(PLAYERS)
    print(f"\n{TRIES} SIGKILLs around the last card: {whole} deals recorded whole, {TRIES - whole} not at all")
