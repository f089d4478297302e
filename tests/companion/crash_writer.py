"""Crash-test writer: appends a scripted game's events to a journal, printing each seq once durable.

`python -m tests.companion.crash_writer DATA_DIR SCRIPT [STOP_AFTER]`: SCRIPT is a JSON list of
`[event, accepted, reason]`; the writer continues from what the journal already holds (seq n is
script entry n), prints `ready <last_seq>` once the journal is open, then one seq per line after
each `append` returns, and `done` at the end. With STOP_AFTER it closes cleanly after that seq.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.journal import Journal

SOURCE = "crash-writer"


def main(argv: list[str]) -> int:
    data_dir, script_path = Path(argv[0]), Path(argv[1])
    stop_after = int(argv[2]) if len(argv) > 2 else None
    script = json.loads(script_path.read_text(encoding="utf-8"))
    with Journal.open(data_dir) as journal:
        print(f"ready {journal.last_seq}", flush=True)
        for event, accepted, reason in script[journal.last_seq:]:
            seq = journal.append(event, accepted, reason, SOURCE)
            print(seq, flush=True)
            if seq == stop_after:
                return 0
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
