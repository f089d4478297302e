"""`marmite run` (the table companion server) and `marmite demo`."""

from __future__ import annotations

import argparse
import functools
import os
import secrets
import signal
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from companion.extras import installed, require
from companion.paths import default_data_dir
from companion.writer_lock import DataDirBusy, WriterLock

if TYPE_CHECKING:
    from flask import Flask

    from companion.table import TableService
    from web_ui.resources import Scanner

DEFAULT_PORT = 8000
CLUB_ENV = "MARMITE_CLUB"
"""The club URL may come from the environment, so its password is not on the command line."""
CLUB_CA_ENV = "MARMITE_CLUB_CA"
"""With an mqtts:// club URL: the certificate (or CA) the hub's broker must present, if not a system CA."""
PIN_DIGITS = 6
"""A random PIN's length: a million PINs at ten wrong guesses a minute take about a year to try."""


def add_commands(sub: Any) -> None:
    """Register run and demo on the `marmite` parser."""
    from marmite.games import GAMES

    for name, helptext in (("run", "serve the table: display, API, live stream, speech"),
                           ("demo", "serve the table and play a whole random game through the simulated reader")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
        p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
        p.add_argument("--data", type=Path, default=None,
                       help="data dir (default: $MARMITE_DATA or the user data dir)" if name == "run" else
                       "data dir (default: a new temporary dir, so a demo never touches a table's games)")
        p.add_argument("--pin", default=None,
                       help="table PIN (default: $MARMITE_PIN, else the one kept in the data dir, "
                            "drawn at random the first time)")
        p.add_argument("--reader", default="sim", help="pot reader: sim (default), rc522, usb, keyboard, pn532 or pcsc "
                       "(`marmite reader scan` prints the one to use)")
        p.add_argument("--reader-option", action="append", default=[], metavar="KEY=VALUE",
                       help="reader setting, e.g. gain_db=43 (rc522) or port=/dev/ttyACM0 (usb); repeatable")
        p.add_argument("--trusted-proxy", default=None, metavar="ADDRESS",
                       help="a TLS reverse proxy's address (e.g. 127.0.0.1): its X-Forwarded-For names the device")
        p.add_argument("--speak", action="store_true", help="also speak on this computer with espeak-ng")
        p.add_argument("--robot-think-ms", type=int, default=300, metavar="MS",
                       help="time a robot seat may think over a decision (default 300)")
        p.add_argument("--panel", action="store_true",
                       help="Raspberry Pi: buzzer, LEDs and buttons on GPIO (see hardware/README.md)")
        demo_only = name == "demo"  # `run --demo` takes them too, but `run --help` is about running a table
        p.add_argument("--pace", type=float, default=1.5,
                       help="seconds between cards (default 1.5)" if demo_only else argparse.SUPPRESS)
        p.add_argument("--seed", type=int, default=None,
                       help="random seed of the dealt game" if demo_only else argparse.SUPPRESS)
        p.add_argument("--game", default=GAMES.default, choices=sorted(GAMES.kinds),
                       help=f"which game to play (default {GAMES.default})" if demo_only else argparse.SUPPRESS)
        p.add_argument("--players", type=int, default=4, choices=range(3, 7), metavar="3-6",
                       help="how many players (default 4; Chaud Devant plays at most 5)" if demo_only
                       else argparse.SUPPRESS)
        if name == "run":
            p.add_argument("--demo", action="store_true", help="play a random demo game once started")
            p.add_argument("--club", default=None, metavar="URL",
                           help="send every result to a club hub: the URL `marmite club` printed for this table"
                                " (default: $MARMITE_CLUB)")
            p.add_argument("--table", type=int, default=None, metavar="N", help="this table's number in the club")
        p.set_defaults(handler=run if name == "run" else demo)


def demo(args: argparse.Namespace) -> int:
    """`marmite demo`: `marmite run --demo`, in a new temporary data dir unless --data names one."""
    import tempfile

    args.demo = True
    if args.data is None:
        args.data = Path(tempfile.mkdtemp(prefix="marmite-demo-"))
        print(f"marmite demo: playing in {args.data}, not in the table's data dir", file=sys.stderr, flush=True)
    return run(args)


def resolve_pin(given: str | None, data_dir: Path | None = None) -> tuple[str, bool]:
    """The PIN from --pin, else MARMITE_PIN, else the one kept in `data_dir` (drawn at random and kept
    the first time, so a restart keeps every tablet unlocked), else a random one (True when random)."""
    if given:
        return given, False
    if env := os.environ.get("MARMITE_PIN"):
        return env, False
    if data_dir is not None:
        from web_ui.pin_store import kept_pin, table_pin

        was_kept = kept_pin(data_dir) is not None
        return table_pin(data_dir), not was_kept
    return f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}", True


def lan_address() -> str:
    """This machine's address on the local network, for the URL a tablet opens."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent, it only picks the route
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return "127.0.0.1"


def print_banner(url: str, pin: str) -> None:
    """The URL, its QR code and the PIN, on the terminal."""
    import qrcode

    print(f"Marmite : {url}", flush=True)
    try:
        qr = qrcode.QRCode(border=1)
        qr.add_data(url)
        qr.print_ascii(out=sys.stdout, invert=True)
    except (UnicodeEncodeError, OSError):
        pass
    print(f"PIN : {pin}", flush=True)


class StartRefused(RuntimeError):
    """`marmite run` must not serve this data dir: the message (one line) says why and what to do."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def check_writable(data_dir: Path) -> None:
    """StartRefused (exit 2) with the fix in one line when the data dir cannot be written and synced."""
    probe = data_dir / f".marmite-write-test-{os.getpid()}"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, b"marmite")
            os.fsync(fd)
        finally:
            os.close(fd)
            probe.unlink(missing_ok=True)
    except OSError as error:
        raise StartRefused(f"the data dir {data_dir} cannot be written ({error.strerror}): nothing would be "
                           f"recorded; fix: make it writable (chown/chmod it, or remount the disk read-write),"
                           f" or choose another with --data", 2) from error


def claim_data_dir(data_dir: Path) -> WriterLock:
    """Start-up checks before serving: the data dir is writable and no other marmite writes to it."""
    check_writable(data_dir)
    try:
        return WriterLock.acquire(data_dir, purpose="marmite run")
    except DataDirBusy as error:
        raise StartRefused(str(error), 1) from error


def _club_url(args: argparse.Namespace) -> str | None:
    """The club URL of `marmite run --club` (or $MARMITE_CLUB), None when the table plays alone."""
    if getattr(args, "command", None) != "run":
        return None
    url = getattr(args, "club", None) or os.environ.get(CLUB_ENV) or None
    if url is not None:
        require("club")  # a table without the club extra plays alone; asked to join one, it says what is missing
    return url


def run(args: argparse.Namespace) -> int:
    """Serve the table with waitress until Ctrl-C (or SIGTERM); the journal makes a restart resume."""
    data_dir: Path = args.data or default_data_dir()
    try:
        lock = claim_data_dir(data_dir)
    except StartRefused as refused:
        print(f"marmite run: {refused}", file=sys.stderr)
        return refused.status
    try:
        return serve(args, data_dir)
    finally:
        lock.release()


def table_app(service: TableService, *, pin: str, data_dir: Path | None,
              config: dict[str, Any] | None = None, reader_scan: Scanner | None = None) -> Flask:
    """The composition root's app: the hosted games' pages, the deck desk (on the data dir) and the tablet's
    search for readers handed to `create_app` whole."""
    from companion.deck_desk import DeckDesk
    from marmite.games import PAGES
    from web_ui.app import create_app
    from web_ui.resources import TableServices

    desk = DeckDesk(service, data_dir) if data_dir is not None else None
    services = TableServices(service, PAGES, desk=desk, data_dir=data_dir, reader_scan=reader_scan)
    return create_app(services, pin=pin, config=config)


def _attach_club(service: Any, app: Any, url_text: str | None, table: int | None,
                 data_dir: Path) -> Callable[[], None] | None:
    """The club's room on the table (with the club extra): linked to the club at `url_text` (ValueError for
    a bad URL or table number), else to the club joined on the setup page, if any (said when it cannot be
    rejoined); the closer of its link, None for a table without the extra (it plays alone)."""
    if url_text is None and not installed("club"):
        return None
    from club.table import Guards, attach, close_link
    from club.topics import ClubURL
    from web_ui.auth import authorized, own_seat

    ca = os.environ.get(CLUB_CA_ENV)
    url = ClubURL.parse(url_text) if url_text is not None else None
    try:
        attach(service, app, Guards(authorized, own_seat), data_dir=data_dir, url=url, table=table,
               ca_file=Path(ca) if ca else None)
    except (ValueError, KeyError, OSError) as error:
        if url is not None:
            raise
        print(f"marmite run: the club joined on the setup page cannot be rejoined: {error}", file=sys.stderr)
    return functools.partial(close_link, app)


def serve(args: argparse.Namespace, data_dir: Path) -> int:
    """Serve the claimed data dir until Ctrl-C or SIGTERM."""
    from companion.robot_table import RobotDriver
    from marmite.reader_scan import scan_beside
    from marmite.wiring import ReaderPump, connect_partial_uids, connect_read_signals, connect_tag_memory
    from web_ui.resources import table_resources
    from web_ui.server import make_server
    from web_ui.speaker import Speaker

    club = _club_url(args)  # before anything starts: without the club extra, asked to join one, it stops here
    pin, _ = resolve_pin(args.pin, data_dir)
    try:
        service, reader = open_table(args, data_dir)
        fixed = bool(args.pin or os.environ.get("MARMITE_PIN"))  # not the kept one: the page may not change it
        app = table_app(service, pin=pin, data_dir=data_dir, config={"MARMITE_PIN_FIXED": fixed},
                        reader_scan=functools.partial(scan_beside, args.reader))  # the tablet's search
        panel = open_panel(service) if getattr(args, "panel", False) else None
    except StartRefused as refused:
        print(f"marmite run: {refused}", file=sys.stderr)
        return refused.status
    try:
        close_club = _attach_club(service, app, club, getattr(args, "table", None), data_dir)
    except ValueError as error:  # only with --club: the URL or the table number is wrong
        print(f"marmite run: --club: {error}", file=sys.stderr)
        service.close()
        return 2
    resources = table_resources(app)
    connect_tag_memory(resources.desk, reader)  # self-describing decks, where the reader can
    connect_partial_uids(resources.desk, reader)  # a keyboard wedge: decks mapped onto what it types
    connect_read_signals(service, reader)  # the ACR122U's LED: green for a card taken, red for one refused
    robots = RobotDriver(service, think_ms=max(10, getattr(args, "robot_think_ms", 300))).start()
    resources.attached.robots = robots
    pump = ReaderPump(service, reader).start()
    store = resources.settings
    speaker = Speaker(service, rate=lambda: store.current.rate,  # the robots wait for espeak-ng to finish
                      on_spoken=functools.partial(robots.pace.spoken, "speaker")).start() if args.speak else None
    if service.deck_set_aside is not None:  # loudly: the terminal, every display and the voice
        print(f"marmite run: WARNING: the deck could not be read and is set aside; the table starts without it:"
              f" {service.set_aside_report}", file=sys.stderr, flush=True)
        service.deck_set_aside = service.notice("deck_set_aside", **dict(service.deck_set_aside.parts[0].fields))
    if speaker is not None and not speaker.available:
        print("marmite run: espeak-ng not found; only the tablet will speak", file=sys.stderr)
    closers = [robots.close, pump.close, *([speaker.close] if speaker else []), *([panel.close] if panel else []),
               *([close_club] if close_club else []), service.close]
    try:
        server = make_server(app, args.host, args.port, trusted_proxy=getattr(args, "trusted_proxy", None))
    except OSError as error:
        print(f"marmite run: cannot listen on {args.host}:{args.port}: {error.strerror}", file=sys.stderr)
        robots.close()
        pump.close()
        service.close()
        return 2
    host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    print_banner(f"http://{host}:{server.effective_port}/", pin)
    print(f"Data : {data_dir}", flush=True)  # where `marmite export --list` finds these games
    stop = threading.Event()
    if getattr(args, "demo", False):
        start_demo(args, service, reader, stop)
    run_until_stopped(server, app, stop, closers)
    return 0


def open_table(args: argparse.Namespace, data_dir: Path) -> tuple[TableService, Any]:
    """The table service on the data dir and the pot reader; StartRefused (exit 2) with the reason."""
    from companion.journal import JournalError
    from companion.table import JournalDisagrees, TableService
    from marmite.games import GAMES
    from marmite.readers import make_reader, parse_reader_option

    try:
        options = dict(parse_reader_option(text) for text in args.reader_option)
        if args.reader == "usb":  # the board's sequence memory, so a restart never replays a card
            options.setdefault("memory", str(data_dir / "usb-reader.json"))
        service = TableService.open(data_dir, GAMES)
    except JournalDisagrees as error:
        raise StartRefused(f"refusing to serve a journal that disagrees with itself: {error}", 2) from error
    except (ValueError, OSError, JournalError) as error:  # bad option, corrupt journal or tags.json
        raise StartRefused(str(error), 2) from error
    try:
        return service, make_reader(args.reader, options)
    except ValueError as error:
        service.close()
        raise StartRefused(str(error), 2) from error


def open_panel(service: TableService) -> Any:
    """The GPIO panel wired to the table (`--panel`); StartRefused (exit 2) when the GPIO cannot be used."""
    from hardware.gpio_backend import GpioUnavailable, explained_gpio_errors, open_gpio
    from hardware.panel import PanelPins
    from marmite.wiring import attach_panel

    try:
        pins = PanelPins.from_text(os.environ.get("MARMITE_PANEL_PINS", ""))  # e.g. buzzer=26 beside I2S audio
        with explained_gpio_errors():  # e.g. the old RPi.GPIO cannot detect edges on kernel 6.6+
            return attach_panel(service, open_gpio(), pins)
    except (ValueError, GpioUnavailable) as error:
        service.close()
        raise StartRefused(f"--panel: {error}", 2) from error


def start_demo(args: argparse.Namespace, service: TableService, reader: Any, stop: threading.Event) -> None:
    """Play the demo game in a thread, through the simulated reader (which alone can drop cards)."""
    from marmite.wiring import play_demo

    drop = getattr(reader, "drop", None)
    if drop is None:
        print("marmite run: --demo needs the simulated reader (--reader sim)", file=sys.stderr)
        return
    threading.Thread(target=play_demo, args=(service, drop),
                     kwargs={"seed": args.seed, "pace": args.pace, "stop": stop, "game": args.game,
                             "players": args.players},
                     name="demo", daemon=True).start()


def run_until_stopped(server: Any, app: Flask, stop: threading.Event, closers: list[Callable[[], None]]) -> None:
    """Serve until Ctrl-C or SIGTERM, then end the streams, the server and everything in `closers`, in order."""
    from web_ui.app import stop_streams

    def terminate(signum: int, frame: FrameType | None) -> None:
        # End the streams first: waitress' own shutdown (on the KeyboardInterrupt) waits for its threads.
        stop.set()
        stop_streams(app)
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, terminate)
        signal.signal(signal.SIGINT, terminate)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        stop_streams(app)
        server.task_dispatcher.shutdown(timeout=1)
        server.close()
        for close in closers:
            close()
