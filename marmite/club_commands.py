"""`marmite club`: the club hub — its own Mosquitto (unless --broker), its store, the tables' join URLs."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from companion.paths import default_data_dir

DEFAULT_MQTT_PORT = 1883
DEFAULT_WEB_PORT = 8100
HUB_ENV = "MARMITE_CLUB_BROKER"


def add_commands(sub: Any) -> None:
    """Register `club` on the `marmite` parser."""
    p = sub.add_parser("club", help="the club hub: tables send their results to it over MQTT (Mosquitto)")
    p.add_argument("--data", type=Path, default=None,
                   help="the hub's data dir (default: a 'club' dir beside the table's data dir)")
    p.add_argument("--name", default="club", help="the club's name, one word (default: club)")
    p.add_argument("--tables", type=int, default=6, help="how many tables get credentials (default 6)")
    p.add_argument("--mqtt-host", default="0.0.0.0", help="address Mosquitto listens on (default: every interface)")
    p.add_argument("--mqtt-port", type=int, default=DEFAULT_MQTT_PORT,
                   help=f"port Mosquitto listens on (default {DEFAULT_MQTT_PORT}; 0 picks a free one)")
    p.add_argument("--tls", nargs=2, default=None, metavar=("CERT", "KEY"),
                   help="serve MQTT over TLS with this certificate and key (tables then use mqtts://)")
    p.add_argument("--host", default="0.0.0.0",
                   help="address the board and console listen on (default: every interface)")
    p.add_argument("--port", type=int, default=DEFAULT_WEB_PORT,
                   help=f"port of the board and the director's console (default {DEFAULT_WEB_PORT})")
    p.add_argument("--pin", default=None, help="the director's PIN (default: $MARMITE_CLUB_PIN, else a random one)")
    p.add_argument("--trusted-proxy", default=None, metavar="ADDRESS",
                   help="a TLS reverse proxy's address (e.g. 127.0.0.1) serving the board and console over HTTPS:"
                        " its X-Forwarded-For names the device")
    p.add_argument("--qr", action="store_true",
                   help="also print each table's join URL as a QR code (it holds that table's password)")
    p.add_argument("--broker", default=None, metavar="URL",
                   help="use an existing broker instead of starting Mosquitto: mqtt://hub:PASSWORD@host:port/club"
                        f" (default: ${HUB_ENV})")
    p.set_defaults(handler=run_club)
    inner = p.add_subparsers(dest="club_command", metavar="[export | demo]")
    e = inner.add_parser("export", help="write the night's results held by the hub (JSON, CSV, BG Stats, players)")
    # SUPPRESS: `marmite club --data HUB export` keeps the HUB given before the subcommand
    e.add_argument("--data", type=Path, default=argparse.SUPPRESS, help="the hub's data dir")
    e.add_argument("--format", choices=("json", "csv", "bgstats", "players"), default="json",
                   help="json (default), csv (one row per player and game), bgstats (a BG Stats import file)"
                        " or players (per-player statistics over the night)")
    e.add_argument("--night", type=int, default=None, help="which night (1, 2, ...; default: the current one)")
    e.set_defaults(handler=run_export)
    d = inner.add_parser("demo", help="a hub and N simulated tables playing at speed on this machine")
    d.add_argument("--tables", type=int, default=4, help="simulated tables (default 4)")
    d.add_argument("--pace", type=float, default=0.5, help="seconds between a table's events (default 0.5)")
    d.add_argument("--data", type=Path, default=argparse.SUPPRESS, help="where the hub and the tables keep their data"
                                                            " (default: a new temporary dir)")
    d.add_argument("--port", type=int, default=DEFAULT_WEB_PORT, help=f"the board's port (default {DEFAULT_WEB_PORT})")
    d.set_defaults(handler=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    """`marmite club demo`: `marmite club` on loopback, plus simulated tables that play until Ctrl-C."""
    import tempfile

    root = args.data or Path(tempfile.mkdtemp(prefix="marmite-club-demo-"))
    args.data = root / "hub"
    args.demo_root = root
    args.mqtt_host, args.mqtt_port, args.host, args.broker, args.tls = "127.0.0.1", 0, "127.0.0.1", None, None
    return run_club(args)


def print_qr(text: str) -> None:
    """`text` as a QR code on the terminal (a phone or a table's camera reads it)."""
    import qrcode

    try:
        code = qrcode.QRCode(border=1)
        code.add_data(text)
        code.print_ascii(out=sys.stdout, invert=True)
    except (UnicodeEncodeError, OSError):
        pass


def hub_data_dir(given: Path | None) -> Path:
    """The hub's data dir: --data, else a 'club' dir beside the table's default data dir."""
    return given or default_data_dir().parent / "club"


def run_export(args: argparse.Namespace) -> int:
    """`marmite club export`: the hub's results, each table's games folded as `marmite replay` folds them."""
    import json

    from club.results import bg_stats, night, night_csv, player_statistics
    from club.store import STORE_FILE, Store, StoreError
    from marmite.games import GAMES

    data_dir = hub_data_dir(args.data)
    if not (data_dir / STORE_FILE).exists():
        print(f"marmite club export: no club store in {data_dir}", file=sys.stderr)
        return 1
    try:
        store = Store.open(data_dir)
    except StoreError as error:
        print(f"marmite club export: {error}", file=sys.stderr)
        return 1
    try:
        known = [entry["night"] for entry in store.nights()]
        if args.night is not None and args.night not in known:
            print(f"marmite club export: no night {args.night} (the hub holds nights {known[0]} to {known[-1]})",
                  file=sys.stderr)
            return 1
        if args.format == "csv":
            sys.stdout.write(night_csv(store, GAMES, args.night))
        elif args.format in ("bgstats", "players"):
            made = (bg_stats(store, GAMES, args.night) if args.format == "bgstats"
                    else player_statistics(store, GAMES, args.night))
            json.dump(made, sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
        else:
            json.dump(night(store, GAMES, args.night), sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
    finally:
        store.close()
    return 0


def start_broker(args: argparse.Namespace, data_dir: Path, credentials: Any) -> tuple[Any, Any, str, int, bool]:
    """The hub's own Mosquitto (files written, started, listening): broker, the hub's URL to it, the address
    and port tables use, and whether they use TLS. BrokerError when it cannot start."""
    from club.broker import Mosquitto, free_port, write_broker_files
    from club.topics import HUB_USER, ClubURL
    from marmite.serve import lan_address

    port = args.mqtt_port or free_port("127.0.0.1" if args.mqtt_host == "127.0.0.1" else "0.0.0.0")
    tls_files = (Path(args.tls[0]), Path(args.tls[1])) if args.tls else None
    local_port = free_port("127.0.0.1") if tls_files else None  # the hub's own way in: plain, loopback only
    config = write_broker_files(data_dir / "mosquitto", args.name, credentials, args.mqtt_host, port,
                                tls=tls_files, local_port=local_port)
    if local_port is not None:
        broker = Mosquitto(config, "127.0.0.1", local_port).start()
        url = ClubURL("127.0.0.1", local_port, HUB_USER, credentials.hub, args.name)
    else:
        broker = Mosquitto(config, args.mqtt_host, port).start()
        url = ClubURL("127.0.0.1" if args.mqtt_host in ("0.0.0.0", "") else args.mqtt_host, port,
                      HUB_USER, credentials.hub, args.name)
    public_host = lan_address() if args.mqtt_host in ("0.0.0.0", "") else args.mqtt_host
    return broker, url, public_host, port, tls_files is not None


def print_join(join: Any, table: int, *, qr: bool) -> None:
    """How table `table` joins: the `marmite run` line, the code typed on its setup page, the QR code."""
    from club.topics import hub_address, join_code

    print(f"Table {table} : marmite run --club '{join.text()}' --table {table}", flush=True)
    if (code := join_code(table, join.password)) is not None:
        print(f"Table {table} : code {code} — {hub_address(join.host, join.port, join.club, join.tls)}", flush=True)
    if qr:
        print_qr(join.text())


def warn_if_in_clear(args: argparse.Namespace) -> None:
    """Say loudly when the console is served to the network without TLS: the PIN would cross it in clear."""
    from club.web import is_loopback

    if not getattr(args, "trusted_proxy", None) and not is_loopback(args.host):
        print("marmite club: WARNING: the console is plain HTTP: the director's PIN crosses the network in clear."
              " Put a TLS proxy in front (--trusted-proxy, see the guide) or serve it on --host 127.0.0.1.",
              file=sys.stderr, flush=True)


def run_club(args: argparse.Namespace) -> int:
    """Start the broker and the hub; print each table's join URL; run until Ctrl-C or SIGTERM."""
    import os

    from companion.extras import require

    require("club")  # paho-mqtt: without it, one line naming the extra (exit 2), not a traceback

    from club.broker import EXTERNAL_DIR, BrokerError, Credentials, write_external_files
    from club.hub import ClubHub
    from club.store import Store, StoreError
    from club.topics import ClubURL, check_club_name, table_user
    from marmite.games import DEMOS, GAMES
    from marmite.serve import lan_address

    data_dir = hub_data_dir(args.data)
    broker = None
    # Everything the hub and its Mosquitto write (the store: hands, member cards and their secret; the broker's
    # config and persistence) is the owner's alone.
    os.umask(0o077)
    try:
        check_club_name(args.name)
        data_dir.mkdir(parents=True, exist_ok=True)
        credentials = Credentials.load_or_create(data_dir / "credentials.json", args.tables)
        external = args.broker or os.environ.get(HUB_ENV)
        if external:
            url = ClubURL.parse(external)
            if args.name not in ("club", url.club):
                raise ValueError(f"--name {args.name} but the broker URL names the club {url.club!r}: give one")
            args.name = url.club  # the tables' URLs must name the club the hub subscribes to
            public_host, port, tls = url.host, url.port, url.tls
            files = write_external_files(data_dir / EXTERNAL_DIR, url.club, credentials, url.user)
        else:
            broker, url, public_host, port, tls = start_broker(args, data_dir, credentials)
        store = Store.open(data_dir)
    except (ValueError, OSError, BrokerError, StoreError) as error:
        print(f"marmite club: {error}", file=sys.stderr)
        if broker is not None:
            broker.close()
        return 2
    hub = ClubHub(store, url, GAMES, tables=args.tables).start()
    from club.web import CONSOLE_DIR, console_secret, create_club_app, stop_board_streams
    from marmite.serve import print_banner, resolve_pin
    from web_ui.server import make_server

    # The director's PIN and console session are kept in the hub's data dir (owner-only): a restart
    # mid-evening keeps both, and the director need not find the hub's terminal.
    pin, _ = resolve_pin(args.pin or os.environ.get("MARMITE_CLUB_PIN"), data_dir / CONSOLE_DIR)
    app = create_club_app(hub, pin=pin, secret_key=console_secret(data_dir))
    try:
        server = make_server(app, args.host, args.port, trusted_proxy=getattr(args, "trusted_proxy", None))
    except OSError as error:
        print(f"marmite club: cannot listen on {args.host}:{args.port}: {error.strerror}", file=sys.stderr)
        hub.close()
        if broker is not None:
            broker.close()
        return 2
    web_host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    print_banner(f"http://{web_host}:{server.effective_port}/", pin)
    print(f"Club : {args.name} — MQTT {public_host}:{port}" + (" (TLS)" if tls else ""), flush=True)
    if broker is not None:
        broker.on_refused_login = hub.login_refused  # its own Mosquitto's refused logins reach the console
        print(f"Mosquitto : pid {broker.pid}, {data_dir / 'mosquitto'}", flush=True)
    else:
        print(f"Broker : {url.text(hide_password=True)} — add the tables' users ({files / 'passwd'}) to its"
              f" password file and the club's access list ({files / 'acl'}) to its ACL, then reload it"
              " (SIGHUP)", flush=True)
    print(f"Data : {data_dir}", flush=True)
    warn_if_in_clear(args)
    for table, password in credentials.tables.items():
        print_join(ClubURL(public_host, port, table_user(table), password, args.name, tls), table,
                   qr=getattr(args, "qr", False))
    tables: list[Any] = []
    if getattr(args, "demo_root", None) is not None:
        from club.demo import start_tables

        local = {n: ClubURL(url.host, port, table_user(n), p, args.name, tls) for n, p in credentials.tables.items()}
        tables = start_tables(local, args.demo_root, GAMES, DEMOS, pace=args.pace)
        print(f"Demo: {len(tables)} simulated tables, {args.demo_root}", flush=True)

    def terminate(signum: int, frame: FrameType | None) -> None:
        stop_board_streams(app)
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, terminate)
        signal.signal(signal.SIGINT, terminate)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        stop_board_streams(app)
        server.task_dispatcher.shutdown(timeout=1)
        server.close()
        try:
            for simulated in tables:
                simulated.close()
            hub.close()
        finally:  # whatever failed above, the club's own Mosquitto never outlives it
            if broker is not None:
                broker.close()
    return 0
