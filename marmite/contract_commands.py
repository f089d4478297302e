"""`marmite replay` and `marmite export`: the public contract over table logs."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.journal import JOURNAL_FILE, Journal, JournalError
from companion.paths import default_data_dir
from companion.replay import MalformedLog, parse_log, replay
from marmite.games import GAMES


def add_commands(sub: Any) -> None:
    """Register replay and export on the `marmite` parser."""
    p = sub.add_parser("replay", help="fold a table log (JSON Lines) and print the state as JSON")
    p.add_argument("file", help="a path, or - for standard input")
    p.set_defaults(handler=run_replay)
    p = sub.add_parser("export", help="write a game's log as JSON Lines (the latest game by default)")
    p.add_argument("--data", type=Path, default=None, help="data dir (default: $MARMITE_DATA or the user data dir)")
    p.add_argument("--game", type=int, default=None, help="game id (see --list)")
    p.add_argument("--list", action="store_true", help="list the games in the data dir instead")
    p.set_defaults(handler=run_export)


def run_replay(args: argparse.Namespace) -> int:
    """Print the state of a log; exit 2 naming the line of a malformed one."""
    try:
        if args.file == "-":
            events = parse_log(sys.stdin.buffer, GAMES)
        else:
            with open(args.file, "rb") as handle:
                events = parse_log(handle, GAMES)
    except MalformedLog as error:
        print(f"marmite replay: {args.file}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"marmite replay: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    json.dump(replay(events, GAMES), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Write one game's events, refused ones included, in the order received."""
    data_dir: Path = args.data or default_data_dir()
    if not (data_dir / JOURNAL_FILE).exists():
        print(f"marmite export: no journal in {data_dir}", file=sys.stderr)
        return 1
    try:
        with Journal.open(data_dir) as journal:
            games = journal.games()
            if args.list:
                for game in games:
                    print(f"{game.game}\t{game.started_at}\t{game.events} events\t{', '.join(game.players)}")
                return 0
            if not games:
                print(f"marmite export: no game in {data_dir}", file=sys.stderr)
                return 1
            wanted = args.game if args.game is not None else games[-1].game
            if wanted not in {game.game for game in games}:
                known = ", ".join(str(game.game) for game in games)
                print(f"marmite export: no game {wanted} in {data_dir} (games: {known})", file=sys.stderr)
                return 1
            out = sys.stdout
            for record in journal.records(game=wanted):
                out.write(record.line + "\n")
    except JournalError as error:
        print(f"marmite export: {error}", file=sys.stderr)
        return 1
    return 0
