"""A real `marmite run` killed (SIGKILL) at random instants while a client plays through the HTTP API
with one Idempotency-Key per play, resending the play in flight after each restart.

Short in the normal run (5 kills); `MARMITE_SOAK=1` makes it the soak of docs/RELIABILITY.md (100
kills, or MARMITE_SOAK_KILLS). Checked after every restart (the server refuses a journal that lost
an acknowledged play or disagrees with itself) and at the end: every acknowledged play is in the
journal under the seq it was answered, each key recorded once, a resend answered as the first time.
"""

from __future__ import annotations

import http.client
import os
import random
import sqlite3
import threading
from pathlib import Path

from companion.journal import JOURNAL_FILE
from tests.companion.test_crash import make_script
from tests.drill.server import Server

KILLS = int(os.environ.get("MARMITE_SOAK_KILLS", "100")) if os.environ.get("MARMITE_SOAK") else 5


def test_no_acknowledged_play_is_lost_or_doubled_across_sigkills(tmp_path: Path) -> None:
    data = tmp_path / "data"
    script = [event for event, _, _ in make_script(games=2)]
    rng = random.Random(29)
    acked: dict[str, int] = {}
    sent = 0
    in_flight: str | None = None

    def play(server: Server, number: int) -> int:
        key = f"play-{number}"
        status, answer = server.post("/api/events", script[number % len(script)], key=key, timeout=10)
        assert status == 200, answer
        assert acked.setdefault(key, answer["seq"]) == answer["seq"], "a resend got another answer"
        return int(answer["seq"])

    kills = 0
    for _ in range(KILLS + 1):
        server = Server(data)
        assert server.wait_ready(), server.process.communicate(timeout=10)[1]
        if in_flight is not None:  # the tap whose answer was lost is sent again
            play(server, int(in_flight.removeprefix("play-")))
            in_flight = None
        if acked:  # an acknowledged one, resent, is answered as the first time
            number = rng.randrange(sent)
            play(server, number)
        if len(acked) > KILLS * 40:
            server.kill()
            break
        killer = threading.Timer(rng.uniform(0.02, 0.4), server.process.kill)
        killer.start()
        try:
            while True:
                try:
                    play(server, sent)
                except (OSError, http.client.HTTPException):  # the answer was lost
                    in_flight = f"play-{sent}"
                    break
                sent += 1
        finally:
            killer.cancel()
            server.kill()
            kills += 1
        if in_flight is not None:
            sent += 1
    server = Server(data)
    assert server.wait_ready()
    if in_flight is not None:
        play(server, int(in_flight.removeprefix("play-")))
    server.kill()
    assert sorted(acked) == sorted(f"play-{n}" for n in range(sent))
    assert [acked[f"play-{n}"] for n in range(sent)] == list(range(1, sent + 1)), "plays recorded in order, once"
    with sqlite3.connect(data / JOURNAL_FILE) as db:
        assert db.execute("SELECT MAX(seq), COUNT(*) FROM events").fetchone() == (sent, sent)
        keys = dict(db.execute("SELECT key, seq FROM requests").fetchall())
    db.close()
    assert keys == acked
    print(f"\nsigkill drill: {kills} SIGKILLs, {sent} plays acknowledged, 0 lost, 0 doubled")
