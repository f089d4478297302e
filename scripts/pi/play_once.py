"""Play one card on a running table through the virtual pot and get its answer; standard library only.

`play_once.py URL PIN [--wav FILE]` starts a four-player game of Chaud Devant !, chooses the menus and drops
one card in the pot (`POST /api/drop`, as a reader would report it), checks the play was journaled, and
prints the table's spoken answer (`POST /api/repeat`); with --wav, espeak-ng writes that answer to FILE in
the table's language. Used by scripts/check-pi-install in the arm64 root.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import urllib.request
from typing import Any

PLAYERS = ["Virginie", "Bruno", "Valentine", "Nicolas"]
FIRST_CARD = "pea-3a"
VOICES = {"fr": "fr", "en": "en-gb", "nl": "nl"}  # as web_ui/speaker.py speaks


def call(base: str, path: str, pin: str, body: Any = None) -> Any:
    """The JSON answer to a GET (no body) or a POST with the PIN."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"X-Table-Pin": pin,
                                                                      "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def accepted(answer: Any, what: str) -> None:
    """SystemExit naming `what` unless the table accepted it."""
    if not (isinstance(answer, dict) and answer.get("accepted")):
        raise SystemExit(f"the table refused {what}: {answer}")


def play(base: str, pin: str) -> dict[str, Any]:
    """A new game, its menus, one card in the virtual pot; the table's answer to that card."""
    accepted(call(base, "/api/events", pin, {"type": "new_game", "players": PLAYERS, "dealer": PLAYERS[-1]}),
             "the new game")
    for player, menu in zip(PLAYERS, ["pea", "onion", "mushroom", "pepper"], strict=True):
        accepted(call(base, "/api/events", pin, {"type": "menu", "player": player, "menu": menu}), f"{player}'s menu")
    before = call(base, "/api/state", pin)
    accepted(call(base, "/api/drop", pin, {"code": FIRST_CARD}), f"{FIRST_CARD} in the virtual pot")
    after = call(base, "/api/state", pin)
    if after == before:
        raise SystemExit(f"the state did not change after {FIRST_CARD} was accepted")
    answer: dict[str, Any] = call(base, "/api/repeat", pin, {})
    return answer


def main(argv: list[str]) -> int:
    """Play, print the answer, and write it as speech when asked."""
    parser = argparse.ArgumentParser(prog="play_once.py", description=__doc__)
    parser.add_argument("url")
    parser.add_argument("pin")
    parser.add_argument("--wav", default=None)
    args = parser.parse_args(argv)
    answer = play(args.url.rstrip("/"), args.pin)
    text = str(answer.get("text") or "")
    if not text:
        print(f"the table gave no words for the play: {answer}", file=sys.stderr)
        return 1
    print(f"journaled {FIRST_CARD}; the table says ({answer.get('lang')}): {text}")
    if args.wav:
        voice = VOICES.get(str(answer.get("lang")), "fr")
        subprocess.run(["espeak-ng", "-v", voice, "-w", args.wav, text], check=True)
        with open(args.wav, "rb") as wav:
            header = wav.read(44)
            size = 44 + len(wav.read())
        if header[:4] != b"RIFF" or header[8:12] != b"WAVE" or size <= 44 + 8000:
            print(f"{args.wav} is not a WAV file with speech in it ({size} bytes)", file=sys.stderr)
            return 1
        print(f"espeak-ng ({voice}) wrote the answer to {args.wav}: {size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
