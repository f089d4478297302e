"""`marmite deck …`: import, export, list, new, use and check the data dir's decks; and the terminal
form of enrollment (`marmite reader learn`), driving the same deck desk as the tablet."""

from __future__ import annotations

import argparse
import contextlib
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.deck_desk import DeckDesk, editions_of
from companion.decks import DEFAULT_EDITION, DeckError, DeckStore, format_deck_file
from companion.paths import default_data_dir
from companion.reads import ReaderHealth, TagSeen
from companion.table import TableService
from marmite.games import GAMES
from marmite.readers import make_reader, parse_reader_option, reader_names
from marmite.wiring import connect_partial_uids, connect_tag_memory

CONTROLS: dict[str, str] = {
    "s": "skip", "skip": "skip", "passer": "skip", "overslaan": "skip",
    "b": "back", "back": "back", "retour": "back", "terug": "back",
    "r": "redo", "redo": "redo", "refaire": "redo", "opnieuw": "redo",
    "q": "stop", "stop": "stop", "arrêter": "stop", "arreter": "stop",
}
HELP: dict[str, str] = {
    "fr": "Commandes : s (passer cette carte), b (revenir d'une carte), r CODE (refaire une carte), q (arrêter).",
    "en": "Commands: s (skip this card), b (back one card), r CODE (redo one card), q (stop).",
    "nl": "Opdrachten: s (kaart overslaan), b (een kaart terug), r CODE (een kaart opnieuw), q (stoppen).",
}
CHECK_HELP: dict[str, str] = {
    "fr": "Appuyez sur Entrée quand tout le paquet est passé.",
    "en": "Press Enter when the whole deck has passed.",
    "nl": "Druk op Enter als het hele spel voorbij is.",
}


def add_commands(sub: Any) -> None:
    """Register the `deck` command group on the `marmite` parser."""
    group = sub.add_parser("deck", help="the table's decks of tagged cards: import, export, check")
    actions = group.add_subparsers(dest="deck_command", required=True, metavar="ACTION")
    p = actions.add_parser("import", help="make a deck file (uid,card CSV) the active deck")
    p.add_argument("file", type=Path)
    _data(p)
    p.set_defaults(handler=run_import)
    p = actions.add_parser("export", help="print the active deck as a deck file")
    _data(p)
    p.set_defaults(handler=run_export)
    p = actions.add_parser("list", help="the decks of the data dir, the active one marked *")
    _data(p)
    p.set_defaults(handler=run_list)
    p = actions.add_parser("new", help="a new empty deck, made active")
    p.add_argument("name")
    p.add_argument("--edition", default=DEFAULT_EDITION, choices=editions_of(GAMES.kinds.values()),
                   help=f"the edition of its cards, whose names it uses (default {DEFAULT_EDITION})")
    _data(p)
    p.set_defaults(handler=run_new)
    p = actions.add_parser("use", help="make another deck active")
    p.add_argument("name")
    _data(p)
    p.set_defaults(handler=run_use)
    p = actions.add_parser("check", help="pass the whole deck over the reader: what is missing, unknown, doubled")
    reader_arguments(p)
    p.add_argument("--seconds", type=float, default=600.0, help="stop listening after this long (default 600)")
    game_argument(p)
    p.set_defaults(handler=run_check)


def game_argument(p: argparse.ArgumentParser) -> None:
    """`--game`: whose box of cards (each hosted game has its own physical cards)."""
    p.add_argument("--game", default=GAMES.default, choices=sorted(GAMES.kinds),
                   help=f"whose cards: {', '.join(sorted(GAMES.kinds))} (default {GAMES.default})")


def _data(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=None, help="data dir (default: $MARMITE_DATA or the user data dir)")


def reader_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reader", default="rc522", help=f"which reader ({', '.join(reader_names())}; default rc522)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="reader setting, e.g. gain_db=43")
    _data(p)


def _store(args: argparse.Namespace) -> DeckStore:
    return DeckStore(args.data or default_data_dir(), GAMES.tag_codes())


def _fail(error: Exception) -> int:
    print(f"marmite deck: {error}", file=sys.stderr)
    return 2


def run_import(args: argparse.Namespace) -> int:
    """Refuse a bad file whole (naming the row, exit 2, nothing changed)."""
    try:
        raw = args.file.read_bytes()
        text = raw.decode("utf-8")
        mapping = _store(args).import_file(text)
    except OSError as error:
        return _fail(error)
    except UnicodeDecodeError as error:  # named by its row, like every other bad row
        row = raw.count(b"\n", 0, error.start) + 1
        return _fail(DeckError(f"{args.file}: row {row}: not UTF-8 text"))
    except DeckError as error:
        return _fail(DeckError(f"{args.file}: {error}"))
    print(f"{len(mapping)} tags imported into the active deck")
    return 0


def run_export(args: argparse.Namespace) -> int:
    try:
        sys.stdout.write(format_deck_file(_store(args).load(), GAMES.tag_codes()))
    except DeckError as error:
        return _fail(error)
    return 0


def run_list(args: argparse.Namespace) -> int:
    try:
        store = _store(args)
        index = store.index()
        for info in index.decks:
            mark = "*" if info.name == index.active else " "
            checked = f", checked {info.checked_at}" if info.checked_at else ""
            print(f"{mark} {info.name} ({info.edition}): {len(store.load(info.name))} tags{checked}")
    except DeckError as error:
        return _fail(error)
    return 0


def run_new(args: argparse.Namespace) -> int:
    try:
        _store(args).create(args.name, args.edition)
    except DeckError as error:
        return _fail(error)
    return 0


def run_use(args: argparse.Namespace) -> int:
    try:
        _store(args).activate(args.name)
    except DeckError as error:
        return _fail(error)
    return 0


# ---------------------------------------------------------------------- reader sessions

Item = TagSeen | ReaderHealth | str | None


def _session(args: argparse.Namespace) -> tuple[TableService, DeckDesk, Any, queue.Queue[Any]] | None:
    """The table of the data dir, its deck desk in the table's language, and a started reader."""
    from web_ui.settings import SETTINGS_FILE, SettingsStore

    data_dir: Path = args.data or default_data_dir()
    try:
        options = dict(parse_reader_option(text) for text in args.option)
        service = TableService.open(data_dir, GAMES)
    except (ValueError, OSError) as error:
        print(f"marmite: {error}", file=sys.stderr)
        return None
    service.language = SettingsStore(data_dir / SETTINGS_FILE).current.language
    try:
        desk = DeckDesk(service, data_dir)
        reader = make_reader(args.reader, options)
    except ValueError as error:
        service.close()
        print(f"marmite: {error}", file=sys.stderr)
        return None
    connect_tag_memory(desk, reader)  # a self-describing deck is written as it is learned, where the reader can
    connect_partial_uids(desk, reader)  # a keyboard wedge: the deck mapped onto what it types, clashes refused
    inbox: queue.Queue[Any] = queue.Queue()
    reader.start(inbox)
    threading.Thread(target=_read_lines, args=(inbox,), daemon=True).start()
    return service, desk, reader, inbox


def _read_lines(inbox: queue.Queue[Any]) -> None:
    """Typed lines (controls) join the reader's messages; None at end of input."""
    with contextlib.suppress(OSError, ValueError):
        for line in sys.stdin:
            inbox.put(line.strip())
    inbox.put(None)


def _progress(desk: DeckDesk) -> str:
    activity = desk.activity()
    if activity is None or activity.get("kind") != "enroll":
        return ""
    return f"  ({activity['count']}/{activity['total']})"


def _enrollment_step(desk: DeckDesk, item: object, say: Callable[[str], None]) -> dict[str, Any] | None:
    """What one item of the terminal's inbox (a read, a reader's health, a typed control) answers."""
    if isinstance(item, ReaderHealth):
        if not item.ok or item.detail.startswith("format learned"):
            say(f"reader {item.reader}: {item.detail}")
        return None
    if isinstance(item, TagSeen):
        if item.raw is not None:  # a keyboard wedge: what it typed, and the UID Marmite made of it
            say(f"typed {item.raw!r} → {item.uid}")
        result = desk.tag_seen(item.uid)
        if item.done is not None:
            item.done()
        return result
    if item is None:
        return None
    return _control(desk, str(item))


def _enrollment_end(desk: DeckDesk, enrollment: Any, say: Callable[[str], None]) -> int:
    """Stop the pass (or say where it ended) and answer 0 when no card is missing, else 1."""
    if desk.enrollment is not None:
        missing = desk.enrollment.missing()
        say(desk.enroll_stop()["text"])
    else:  # the pass ended and the enrollment gave the reader back: say where it ended
        missing = enrollment.missing() if enrollment is not None else []
        if enrollment is not None:
            say(desk.say_end(enrollment))
    return 0 if not missing else 1


def enroll_in_terminal(args: argparse.Namespace, *, say: Callable[[str], None] = print) -> int:
    """`marmite reader learn`: the tablet's enrollment, in the terminal and the table's language."""
    opened = _session(args)
    if opened is None:
        return 2
    service, desk, reader, inbox = opened
    try:
        say(HELP.get(service.language, HELP["fr"]))
        try:
            answer = desk.enroll_start(getattr(args, "game", None), again=args.again,
                                       edition=getattr(args, "edition", None))
        except DeckError as error:
            return _fail(error)
        say(answer["text"] + _progress(desk))
        if answer.get("outcome") == "refused":  # e.g. a keyboard wedge that types two of the deck's cards alike
            return 1
        enrollment = desk.enrollment
        while desk.enrollment is not None and desk.enrollment.current is not None:
            enrollment = desk.enrollment
            result = _enrollment_step(desk, inbox.get(), say)
            if result is not None:
                say(result["text"] + _progress(desk))
            if desk.enrollment is None and result is not None and result.get("outcome") == "refused":
                return 1
            if desk.enrollment is None and (result is None or result.get("outcome") == "stopped"):
                return 130
        return _enrollment_end(desk, enrollment, say)
    except KeyboardInterrupt:
        say(desk.enroll_stop()["text"])
        return 130
    finally:
        reader.close()
        service.close()


def _control(desk: DeckDesk, line: str) -> dict[str, Any] | None:
    word, _, rest = line.partition(" ")
    action = CONTROLS.get(word.lower())
    if action is None:
        return None
    try:
        return desk.enroll_control(action, rest.strip() or None)
    except DeckError as error:
        return {"text": str(error)}


def run_check(args: argparse.Namespace) -> int:
    """`marmite deck check`: exit 0 for a complete deck, 1 with what is wrong."""
    opened = _session(args)
    if opened is None:
        return 2
    service, desk, reader, inbox = opened
    try:
        print(CHECK_HELP.get(service.language, CHECK_HELP["fr"]))
        print(desk.check_start(getattr(args, "game", None))["text"], flush=True)
        deadline = time.monotonic() + args.seconds
        check = desk.check
        while check is not None and (left := deadline - time.monotonic()) > 0:
            try:
                item = inbox.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if isinstance(item, TagSeen):
                result = desk.tag_seen(item.uid)
                if item.done is not None:
                    item.done()
                if result is not None:
                    print(result["text"], flush=True)
                if not check.report()["missing"]:
                    break
            elif isinstance(item, str):  # Enter: the deck has passed
                break
        answer = desk.check_finish()
        print(answer["text"])
        for uid in answer["report"]["unknown"]:
            print(f"  ? {uid}")
        return 0 if answer["report"]["ok"] else 1
    except KeyboardInterrupt:
        return 130
    finally:
        reader.close()
        service.close()
