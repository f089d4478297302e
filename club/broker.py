"""The hub's own Mosquitto: generated config, password file and ACL in the hub's data dir; started and
restarted if it dies. Marmite never relays a message itself: Mosquitto holds sessions and enforces the ACL."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from club.store import MAX_ROW_BYTES
from club.topics import HUB_USER, ROOT, Topics, hub_status, table_user

log = logging.getLogger(__name__)

CREDENTIALS_FILE = "credentials.json"
MAX_PACKET_BYTES = MAX_ROW_BYTES + 1024  # a row plus its topic and MQTT header
INFLIGHT = 20  # QoS 1 messages on their way to a client before it acknowledges (Mosquitto's default)
RESTART_SECONDS = 0.5


class BrokerError(RuntimeError):
    """Mosquitto cannot be set up or started; the message says why and what to do."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free now on `host` (for tests and `--mqtt-port 0`)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O or U to mistype
CODE_LENGTH = 16  # 80 bits: beyond guessing over the network


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, readable by its owner only: a file that existed with wider permissions is
    narrowed too (the mode given to open() applies only to a file it creates)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), 0o600)
        out.write(text)


def new_table_password() -> str:
    """A table's MQTT password that a host can type: 16 characters of Crockford's base32."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True, slots=True)
class Credentials:
    """The hub's and every table's MQTT password (kept 0600 in the hub's data dir)."""

    hub: str
    tables: dict[int, str]

    @classmethod
    def load_or_create(cls, path: Path, tables: int) -> Credentials:
        """The saved credentials, with new ones for tables not seen before (passwords never change)."""
        saved: dict[str, str] = {}
        if path.exists():
            saved = json.loads(path.read_text(encoding="utf-8"))
        hub = saved.get(HUB_USER) or secrets.token_urlsafe(18)
        known = {int(user.removeprefix("table-")): password for user, password in saved.items()
                 if user.startswith("table-")}
        for table in range(1, tables + 1):
            known.setdefault(table, new_table_password())
        credentials = cls(hub, dict(sorted(known.items())))
        text = json.dumps({HUB_USER: hub, **{table_user(n): p for n, p in credentials.tables.items()}}, indent=1)
        write_private(path, text)
        return credentials


def acl_text(club: str, tables: list[int], hub_user: str = HUB_USER) -> str:
    """The ACL: the hub reads and writes the club's tree; each table writes only its own rows and presence
    and reads only its own acks and seating. Anything else (another club, other tables) is denied."""
    lines = [f"user {hub_user}", f"topic readwrite {ROOT}/{club}/#", ""]
    for table in tables:
        topics = Topics(club, table)
        lines += [f"user {table_user(table)}", f"topic write {topics.events}", f"topic write {topics.status}",
                  f"topic write {topics.call}", f"topic read {topics.ack}", f"topic read {topics.seating}",
                  f"topic read {topics.notice}", f"topic read {hub_status(club)}",
                  f"topic write {topics.tap}", f"topic read {topics.tapped}", ""]
    return "\n".join(lines)


def config_text(directory: Path, host: str, port: int, *, tls: tuple[Path, Path] | None = None,
                local_port: int | None = None) -> str:
    """mosquitto.conf: one listener (TLS with `tls`, plus then a plain one on loopback for the hub itself),
    no anonymous access, our password file and ACL, persistence."""
    lines = [
        "# Written by `marmite club` at every start: edit the hub's options, not this file.",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {directory / 'passwd'}",
        f"acl_file {directory / 'acl'}",
        "persistence true",
        f"persistence_location {directory}/",
        "autosave_interval 5",
        "max_queued_messages 100000",
        f"pid_file {directory / 'mosquitto.pid'}",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",  # read by the hub: a refused login reaches the console; the rest is dropped
        f"max_packet_size {MAX_PACKET_BYTES}",  # a larger packet (a row beyond MAX_ROW_BYTES): disconnected
        f"max_inflight_messages {INFLIGHT}",
        f"listener {port} {host}" if host not in ("", "0.0.0.0") else f"listener {port}",
        # Per listener (only after its `listener` line): a client's id is its user name, so no table can take
        # over the hub's session or another table's by reusing its client id.
        "use_username_as_clientid true",
    ]
    if tls is not None:
        lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
        if local_port is not None:
            lines += [f"listener {local_port} 127.0.0.1", "use_username_as_clientid true"]
    if os.geteuid() == 0:  # mosquitto run as root would switch to the user "mosquitto", who cannot read our dir
        lines.append(f"user {pwd.getpwuid(os.geteuid()).pw_name}")
    return "\n".join(lines) + "\n"


def _hashed_passwd(directory: Path, users: dict[str, str]) -> Path:
    """Write `directory`/passwd (the directory made, owner only) with `users`' passwords hashed in place by
    mosquitto_passwd -U; its path. If hashing fails the file is removed: never the passwords in clear."""
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not Path(tool).exists():
        raise BrokerError("mosquitto_passwd not found: install Debian's package with `apt install mosquitto`")
    directory.mkdir(parents=True, exist_ok=True)
    os.chmod(directory, 0o700)
    passwd = directory / "passwd"
    write_private(passwd, "".join(f"{user}:{password}\n" for user, password in users.items()))
    done = subprocess.run([tool, "-U", str(passwd)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        passwd.unlink(missing_ok=True)  # never leave the passwords in clear
        raise BrokerError(f"mosquitto_passwd failed: {done.stderr.strip() or done.stdout.strip()}")
    return passwd


def write_broker_files(directory: Path, club: str, credentials: Credentials, host: str, port: int,
                       *, tls: tuple[Path, Path] | None = None, local_port: int | None = None) -> Path:
    """Write passwd (hashed by mosquitto_passwd), acl and mosquitto.conf in `directory`; the config's path."""
    _hashed_passwd(directory, {HUB_USER: credentials.hub, **{table_user(n): p for n, p in credentials.tables.items()}})
    (directory / "acl").write_text(acl_text(club, sorted(credentials.tables)), encoding="utf-8")
    config = directory / "mosquitto.conf"
    config.write_text(config_text(directory, host, port, tls=tls, local_port=local_port), encoding="utf-8")
    return config


EXTERNAL_DIR = "broker-files"


def write_external_files(directory: Path, club: str, credentials: Credentials, hub_user: str) -> Path:
    """For a club's existing broker (`--broker`): the tables' users (passwords hashed by mosquitto_passwd)
    and the ACL of the club's tree, for its administrator to add to that broker's files; the dir."""
    _hashed_passwd(directory, {table_user(n): p for n, p in credentials.tables.items()})
    write_private(directory / "acl", acl_text(club, sorted(credentials.tables), hub_user))
    return directory


def _alive(pid: int) -> bool:
    """True while process `pid` runs (a zombie waiting for its parent is not running)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


class Mosquitto:
    """A supervised `mosquitto -c CONFIG`: restarted (loudly) whenever it exits until `close()`."""

    def __init__(self, config: Path, host: str, port: int) -> None:
        self.config = config
        self.host = "127.0.0.1" if host in ("", "0.0.0.0") else host
        self.port = port
        self.restarts = 0
        self.on_refused_login: Callable[[], None] | None = None  # a client's user or password was refused
        self._process: subprocess.Popen[bytes] | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._supervise, name="mosquitto-supervisor", daemon=True)

    @property
    def pid(self) -> int | None:
        process = self._process
        return None if process is None else process.pid

    def start(self, timeout: float = 10.0) -> Mosquitto:
        """Start Mosquitto and wait until it listens; BrokerError when it does not."""
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(binary).exists():
            raise BrokerError("mosquitto not found: install Debian's package with `apt install mosquitto`")
        self._binary = binary
        self._stop_stale()
        self._spawn()
        if not self.wait_listening(timeout):
            self.close()
            raise BrokerError(f"mosquitto did not listen on {self.host}:{self.port} within {timeout:.0f} s"
                              " (is the port taken?)")
        self._thread.start()
        return self

    def _stop_stale(self) -> None:
        """Stop a Mosquitto a killed hub left running on our config (it would hold the port)."""
        pid_file = self.config.with_name("mosquitto.pid")
        try:
            pid = int(pid_file.read_text().strip())
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            return
        if str(self.config).encode() not in cmdline:
            return
        log.warning("club: stopping the mosquitto (pid %d) a previous hub left running", pid)
        with contextlib.suppress(OSError):
            os.kill(pid, 15)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.05)

    def _spawn(self) -> None:
        with self._lock:
            if self._stop.is_set():
                return
            # Its own session: a Ctrl-C at the hub's terminal is the hub's to handle; the hub stops it last.
            self._process = subprocess.Popen([self._binary, "-c", str(self.config)], start_new_session=True,
                                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                             stderr=subprocess.PIPE)
            threading.Thread(target=self._read_log, args=(self._process,), name="mosquitto-log", daemon=True).start()

    def _read_log(self, process: subprocess.Popen[bytes]) -> None:
        """Mosquitto's log: a refused login goes to `on_refused_login`, warnings and errors to our stderr,
        the notices (every connection) nowhere."""
        assert process.stderr is not None
        for raw in process.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            if line.endswith("disconnected, not authorised."):
                if self.on_refused_login is not None:
                    with contextlib.suppress(Exception):
                        self.on_refused_login()
            elif ": Warning: " in line or ": Error: " in line:
                print(line, file=sys.stderr, flush=True)

    def wait_listening(self, timeout: float) -> bool:
        """True once the broker accepts TCP connections."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            process = self._process
            if process is not None and process.poll() is not None:
                return False
            with contextlib.suppress(OSError), socket.create_connection((self.host, self.port), timeout=0.5):
                return True
            time.sleep(0.05)
        return False

    def _supervise(self) -> None:
        while not self._stop.is_set():
            process = self._process
            if process is None:
                return
            code = process.wait()
            if self._stop.is_set():
                return
            log.error("club: mosquitto exited (status %s); restarting it", code)
            print(f"marmite club: mosquitto exited (status {code}); restarting it", flush=True)
            self._stop.wait(RESTART_SECONDS)
            self.restarts += 1
            self._spawn()

    def close(self) -> None:
        """Stop Mosquitto (it saves its persistence file); idempotent."""
        self._stop.set()
        with self._lock:
            process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def __enter__(self) -> Mosquitto:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
