"""`marmite replay` and `marmite export`: the public contract over table logs."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.confirmation import CONFIRM
from companion.events import MalformedEvent, check_storable
from companion.journal import JOURNAL_FILE, Entry, GameSummary, Journal, JournalError
from companion.paths import default_data_dir
from companion.referee import Referee
from companion.replay import MalformedLog, parse_log, replay
from companion.writer_lock import DataDirBusy, WriterLock
from marmite.games import GAMES

IMPORT_SOURCE = "import"


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
    p = sub.add_parser("import", help="record a log (JSON Lines, as export writes it) in the data dir, all or nothing")
    p.add_argument("file", help="a path, or - for standard input")
    p.add_argument("--data", type=Path, default=None, help="data dir (default: $MARMITE_DATA or the user data dir)")
    p.set_defaults(handler=run_import)


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
        with Journal.open(data_dir, writer=False) as journal:
            games = journal.games()
            if args.list:
                for game in games:
                    count = f"{game.events} event" + ("" if game.events == 1 else "s")
                    players = ", ".join(printable(name) for name in game.players)
                    print(f"{game.game}\t{game.started_at}\t{count}\t{players}\t{game.status}")
                return 0
            if not games:
                print(f"marmite export: no game in {data_dir}", file=sys.stderr)
                return 1
            wanted = args.game if args.game is not None else latest_game(journal, games)
            if wanted not in {game.game for game in games}:
                known = ", ".join(str(game.game) for game in games)
                print(f"marmite export: no game {wanted} in {data_dir} (games: {known})", file=sys.stderr)
                return 1
            out = sys.stdout
            for record in journal.records(game=wanted):
                if record.body.get("type") == CONFIRM:  # a club note beside the game, not part of its log
                    continue
                out.write(record.line + "\n")
    except JournalError as error:
        print(f"marmite export: {error}", file=sys.stderr)
        return 1
    return 0


def printable(name: str) -> str:
    """A name for a tab-separated line: a tab, a newline or any control character written escaped."""
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in name)


def latest_game(journal: Journal, games: list[GameSummary]) -> int:
    """The game `export` writes by default: the table's current one (a resumed game is the latest played),
    else the last one started."""
    current = journal.current_game
    return current if current is not None else int(games[-1].game)


def read_log(file: str) -> list[tuple[int, dict[str, Any]]]:
    """The numbered events of a log file (or - for stdin); MalformedLog also for a line the journal cannot
    keep (NaN, a lone surrogate, too deep or too long)."""
    if file == "-":
        events = parse_log(sys.stdin.buffer, GAMES)
    else:
        with open(file, "rb") as handle:
            events = parse_log(handle, GAMES)
    for number, event in events:
        try:
            check_storable(event)
        except MalformedEvent as error:
            raise MalformedLog(number, str(error)) from None
    return events


def import_entries(journal: Journal, events: list[tuple[int, dict[str, Any]]]) -> list[Entry]:
    """Each event judged as `replay` judges it, with the summary of each game a new game closes."""
    referee = Referee(GAMES)
    game, closing = journal.current_game, None
    if game is not None:  # the table's current game ends when the first imported game starts
        table = Referee(GAMES)
        for record in journal.records(game=game):
            table.apply(record.body)
        closing = table.state.summary() if table.state is not None else {}
    entries = []
    for offset, (_, event) in enumerate(events, start=1):
        seq = journal.last_seq + offset
        before = referee.state
        outcome = referee.apply(event)
        closes = None
        if outcome.accepted and event["type"] == "new_game":
            if before is not None and game is not None:
                closes = (game, before.summary())
            elif game is not None and closing is not None:
                closes = (game, closing)
            game, closing = seq, None
        reason = None if outcome.reason is None else str(outcome.reason)
        entries.append(Entry(event, outcome.accepted, reason, IMPORT_SOURCE, closes=closes,
                             outside=before is None and not outcome.accepted))
    return entries


def run_import(args: argparse.Namespace) -> int:
    """Record a log's events in the data dir in one transaction, each accepted or refused as replay would."""
    data_dir: Path = args.data or default_data_dir()
    try:
        events = read_log(args.file)
    except MalformedLog as error:
        print(f"marmite import: {args.file}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"marmite import: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        lock = WriterLock.acquire(data_dir, purpose="marmite import")
    except DataDirBusy as error:
        print(f"marmite import: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"marmite import: cannot use the data dir {data_dir}: {error.strerror}", file=sys.stderr)
        return 1
    try:
        with lock, Journal.open(data_dir) as journal:
            journal.append_many(import_entries(journal, events))
    except JournalError as error:
        print(f"marmite import: {error}", file=sys.stderr)
        return 1
    return 0
