"""The club's topic tree and the join URL a table is given.

Each device writes only below its own name: a table publishes its journal rows and its presence under
`marmite/<club>/table/<n>/`, the hub publishes (retained) that table's acknowledged seq and its next seating.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

ROOT = "marmite"
HUB_USER = "hub"
_CLUB_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
DEFAULT_PORT = 1883
TLS_PORT = 8883


def check_club_name(name: str) -> str:
    """A club name usable as one topic level (lower-case letters, digits, - and _), else ValueError."""
    if not _CLUB_NAME.match(name):
        raise ValueError(f"club name {name!r}: use 1 to 32 lower-case letters, digits, - or _")
    return name


def table_user(table: int) -> str:
    """The MQTT user name of table `table`."""
    return f"table-{table}"


@dataclass(frozen=True, slots=True)
class Topics:
    """The topics of one table in one club."""

    club: str
    table: int

    @property
    def base(self) -> str:
        return f"{ROOT}/{self.club}/table/{self.table}"

    @property
    def events(self) -> str:
        """Journal rows, QoS 1, written by the table only."""
        return f"{self.base}/events"

    @property
    def status(self) -> str:
        """Presence: "online", or "offline" as the table's last will (retained)."""
        return f"{self.base}/status"

    @property
    def call(self) -> str:
        """"Director called": the table's button, QoS 1, written by the table only."""
        return f"{self.base}/call"

    @property
    def notice(self) -> str:
        """The director's decisions about this table's games, to announce there (QoS 1), written by the hub."""
        return f"{self.base}/notice"

    @property
    def ack(self) -> str:
        """The hub's acknowledged seq (retained), written by the hub only."""
        return f"{self.base}/ack"

    @property
    def seating(self) -> str:
        """The table's next game as the hub seats it (retained), written by the hub only."""
        return f"{self.base}/seating"

    @property
    def tap(self) -> str:
        """A card the deck does not know, read between games, offered to the hub (QoS 1), written by the table."""
        return f"{self.base}/tap"

    @property
    def tapped(self) -> str:
        """The hub's answer to a tap (whose card, where they sit, or bound), QoS 1, written by the hub only."""
        return f"{self.base}/tapped"


def hub_status(club: str) -> str:
    """The hub's presence: "online", or "offline" as its last will (retained); every table reads it."""
    return f"{ROOT}/{club}/hub/status"


def events_wildcard(club: str) -> str:
    """What the hub subscribes to: every table's rows."""
    return f"{ROOT}/{club}/table/+/events"


def status_wildcard(club: str) -> str:
    return f"{ROOT}/{club}/table/+/status"


def call_wildcard(club: str) -> str:
    return f"{ROOT}/{club}/table/+/call"


def tap_wildcard(club: str) -> str:
    """Where the hub hears the member cards tapped at every table."""
    return f"{ROOT}/{club}/table/+/tap"


def table_of(topic: str, club: str) -> int | None:
    """The table number a topic of `club` belongs to, None for anything else."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[1] != club or parts[2] != "table" or not parts[3].isdigit():
        return None
    return int(parts[3])


@dataclass(frozen=True, slots=True)
class ClubURL:
    """`mqtt://table-3:secret@192.168.1.10:1883/myclub` (or `mqtts://` for TLS): broker, credentials, club."""

    host: str
    port: int
    user: str
    password: str
    club: str
    tls: bool = False

    @classmethod
    def parse(cls, text: str) -> ClubURL:
        """ValueError with what is wrong, for a URL that is not a club URL."""
        parts = urlsplit(text)
        if parts.scheme not in ("mqtt", "mqtts"):
            raise ValueError(f"{text!r}: a club URL starts with mqtt:// or mqtts://")
        if not parts.hostname:
            raise ValueError("the club URL names no broker host")
        if parts.username is None or parts.password is None:
            raise ValueError("the club URL carries no user and password (mqtt://user:password@host/club)")
        tls = parts.scheme == "mqtts"
        try:
            port = parts.port or (TLS_PORT if tls else DEFAULT_PORT)
        except ValueError as error:
            raise ValueError(f"the club URL's port: {error}") from None
        club = check_club_name(parts.path.strip("/") or "club")
        return cls(parts.hostname, port, unquote(parts.username), unquote(parts.password), club, tls)

    def text(self, *, hide_password: bool = False) -> str:
        """The URL back as text (the password as *** when hidden, for logs)."""
        password = "***" if hide_password else quote(self.password, safe="")
        scheme = "mqtts" if self.tls else "mqtt"
        return f"{scheme}://{quote(self.user, safe='')}:{password}@{self.host}:{self.port}/{self.club}"


JOIN_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_MISTYPED = str.maketrans({"I": "1", "L": "1", "O": "0"})


def join_code(table: int, password: str) -> str | None:
    """What a table's host types on its setup page: `3-ABCD-EFGH-JKMN-PQRS` (table, then the password in
    groups of four); None for a password that is not typeable (a hub's older credentials)."""
    if not password or any(ch not in JOIN_CODE_ALPHABET for ch in password):
        return None
    return "-".join([str(table), *(password[i:i + 4] for i in range(0, len(password), 4))])


def hub_address(host: str, port: int, club: str, tls: bool) -> str:
    """The hub's address as printed beside the join codes: `192.168.1.10:1883/club` (mqtts:// for TLS)."""
    return f"{'mqtts://' if tls else ''}{host}:{port}/{club}"


def url_from_join_code(address: str, code: str) -> tuple[ClubURL, int]:
    """The club URL and table number a hub address and join code stand for; ValueError saying what is wrong."""
    address = address.strip()
    if len(address) > 200 or len(code) > 80:
        raise ValueError("too long")
    parts = [part for part in code.strip().upper().replace(" ", "-").split("-") if part]
    if len(parts) < 2 or not parts[0].isdigit() or not 1 <= int(parts[0]) <= 999:
        raise ValueError("a join code starts with the table number: 3-ABCD-EFGH-JKMN-PQRS")
    password = "".join(parts[1:]).translate(_MISTYPED)
    if any(ch not in JOIN_CODE_ALPHABET for ch in password):
        raise ValueError("a join code has only digits and letters (no U)")
    table = int(parts[0])
    scheme = "mqtts" if address.startswith("mqtts://") else "mqtt"
    bare = address.removeprefix("mqtts://").removeprefix("mqtt://")
    if not bare or "@" in bare:
        raise ValueError("the hub's address is host:port/club, as the hub printed it")
    return ClubURL.parse(f"{scheme}://{table_user(table)}:{password}@{bare}"), table
