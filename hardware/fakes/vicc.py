"""A virtual NTAG card for Debian's `vsmartcard-vpcd` driver, and a private `pcscd` to load it.

vpcd is a PC/SC reader driver that waits on a TCP port for a virtual card: while a card program is
connected, the reader holds a card. Both directions carry messages of a two-byte big-endian length
and a body. A one-byte body from the driver is a control (0 power off, 1 power on, 2 reset, 4 send
the ATR); any longer body is a command APDU, answered by a response APDU. `VirtualCard.place()`
connects (a card is put on the reader), `lift()` disconnects (it is taken away).

`PrivatePcscd` starts the real `pcscd` with its own reader configuration (a vpcd reader on a free
port) and its own socket (handed over the way systemd does it), so tests never touch a system pcscd.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

VPCD_DRIVER = Path("/usr/lib/pcsc/drivers/serial/libifdvpcd.so")
ATR = bytes.fromhex("3B8F8001804F0CA0000003060300030000000068")  # a PC/SC contactless ATR, NTAG-like
POWER_OFF, POWER_ON, RESET, GET_ATR = 0, 1, 2, 4
SW_OK = b"\x90\x00"
SW_WRONG = b"\x6a\x82"
SW_INS = b"\x6d\x00"


@dataclass(frozen=True)
class Signal:
    """What one LED command showed: each phase (red on, green on, milliseconds), then the LED's state."""

    phases: tuple[tuple[bool, bool, int], ...]
    final: tuple[bool, bool]
    buzzer: int


class Acr122uLed:
    """The ACR122U's red/green LED, as its API document describes the pseudo-APDU `FF 00 40 P2 04 T1 T2 R B`
    (Bi-Color LED and Buzzer Control): P2 bits 0-1 are the final red and green states, applied where the
    masks in bits 2-3 say; bits 4-5 the initial blinking states of red and green, and bits 6-7 which of
    them blink; T1 (initial state) and T2 (toggled state) last 100 ms units each, R times; B links the
    buzzer to T1 (1), T2 (2) or both (3). The answer is 90 then the LED state (bit 0 red, bit 1 green);
    63 00 when the data is not 4 bytes. It lies in the reader: every card placed on it shares one.

    The buzzer too: the reader's own polling beeps when it detects a card, before the host is told of it, so
    for refused cards as well; `FF 00 52 P2 00` (the API document's "Set buzzer output during card
    detection": P2 00 off, FF on; answered 90 00) changes that until the reader loses power. `beeps`
    counts the detections that beeped."""

    def __init__(self) -> None:
        self.red, self.green = True, False  # the reader's idle look: red on
        self.shown: list[Signal] = []
        self.beep_on_card = True  # the firmware's default
        self.beeps = 0

    def detected(self) -> None:
        """The reader's polling found a card: it beeps unless told not to."""
        if self.beep_on_card:
            self.beeps += 1

    def buzzer_on_detection(self, p2: int) -> bytes:
        """`FF 00 52 P2 00`: 00 turns the beep on card detection off, FF on."""
        self.beep_on_card = p2 != 0x00
        return SW_OK

    def control(self, p2: int, data: bytes) -> bytes:
        """Answer one LED command."""
        if len(data) != 4:
            return b"\x63\x00"
        t1, t2, repetitions, buzzer = data
        phases: list[tuple[bool, bool, int]] = []
        if p2 & 0xC0:
            red = bool(p2 & 0x10) if p2 & 0x40 else self.red
            green = bool(p2 & 0x20) if p2 & 0x80 else self.green
            for _ in range(repetitions):
                phases.append((red, green, t1 * 100))
                phases.append((red != bool(p2 & 0x40), green != bool(p2 & 0x80), t2 * 100))
        if p2 & 0x04:
            self.red = bool(p2 & 0x01)
        if p2 & 0x08:
            self.green = bool(p2 & 0x02)
        self.shown.append(Signal(tuple(phases), (self.red, self.green), buzzer))
        return bytes([0x90, int(self.red) | int(self.green) << 1])


class VirtualCard:
    """One NTAG21x: a UID and its pages (4 bytes each), answering the ACR122U pseudo-APDUs; `led` is the
    reader's LED the card is placed on (the ACR122U firmware answers `FF 00 40` itself)."""

    def __init__(self, uid: bytes, pages: int = 45, port: int = 0, led: Acr122uLed | None = None) -> None:
        self.uid = uid
        self.led = led or Acr122uLed()
        self.memory = bytearray(pages * 4)
        self.memory[0:3] = uid[0:3]
        self.memory[4:8] = uid[3:7].ljust(4, b"\0")
        self.port = port
        self.apdus: list[bytes] = []
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def write_user(self, data: bytes) -> None:
        """Put `data` in the user memory from page 4 (a self-describing code, or garbage)."""
        self.memory[16 : 16 + len(data)] = data

    def place(self, port: int | None = None, timeout: float = 5.0) -> None:
        """Put the card on the reader: connect to the driver and answer it in a thread."""
        self.lift()
        sock = socket.create_connection(("127.0.0.1", port or self.port), timeout=timeout)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock = sock
        self.led.detected()
        self._thread = threading.Thread(target=self._serve, args=(sock,), name="vicc", daemon=True)
        self._thread.start()

    def lift(self) -> None:
        """Take the card away: the driver sees the connection close."""
        sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def _serve(self, sock: socket.socket) -> None:
        try:
            while True:
                body = _receive(sock)
                if body is None:
                    return
                reply = self.answer(body)
                if reply is not None:
                    sock.sendall(struct.pack(">H", len(reply)) + reply)
        except OSError:
            return

    def answer(self, body: bytes) -> bytes | None:
        """The reply to one message from the driver (None: the control needs none)."""
        if len(body) == 1:
            return ATR if body[0] == GET_ATR else None
        self.apdus.append(body)
        cla, ins, p1, p2 = body[:4]
        if cla != 0xFF:
            return SW_INS
        if ins == 0xCA and p1 == 0x00:
            return self.uid + SW_OK
        if ins == 0x00 and p1 == 0x52:  # the ACR122U's "buzzer on card detection" (P2 00: off), for the reader
            return self.led.buzzer_on_detection(p2)
        if ins == 0x00 and p1 == 0x40:  # the ACR122U's LED and buzzer control
            return self.led.control(p2, body[5 : 5 + body[4]] if len(body) > 4 else b"")
        if ins == 0xB0:
            start = p2 * 4
            length = body[4] if len(body) > 4 else 16
            if start + length > len(self.memory):
                return SW_WRONG
            return bytes(self.memory[start : start + length]) + SW_OK
        if ins == 0xD6 and len(body) >= 9 and body[4] == 4:
            start = p2 * 4
            if p2 < 4 or start + 4 > len(self.memory):
                return SW_WRONG
            self.memory[start : start + 4] = body[5:9]
            return SW_OK
        return SW_INS


def _receive(sock: socket.socket) -> bytes | None:
    head = _exactly(sock, 2)
    if head is None:
        return None
    return _exactly(sock, struct.unpack(">H", head)[0])


def _exactly(sock: socket.socket, count: int) -> bytes | None:
    data = b""
    while len(data) < count:
        _quick_ack(sock)
        chunk = sock.recv(count - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _quick_ack(sock: socket.socket) -> None:
    """Acknowledge at once (Linux): the driver writes a length and then its body, and a delayed ACK
    would hold the body back 40 ms."""
    quick_ack = getattr(socket, "TCP_QUICKACK", None)
    if quick_ack is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, quick_ack, 1)


def free_port() -> int:
    """A TCP port nobody listens on now, with the next one free too (vpcd opens two slots: port and
    port + 1); the driver binds them a moment later."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
            if port >= 65535:
                continue
            with socket.socket() as second:
                try:
                    second.bind(("127.0.0.1", port + 1))
                except OSError:
                    continue
            return port
    raise RuntimeError("no two free TCP ports side by side")


def pcscd_available() -> str:
    """Why a private pcscd cannot run here ('' when it can)."""
    if shutil.which("pcscd") is None:
        return "pcscd is not installed (apt install pcscd)"
    if not VPCD_DRIVER.exists():
        return "the vpcd driver is not installed (apt install vsmartcard-vpcd)"
    return ""


class PrivatePcscd:
    """The real pcscd, with one vpcd reader on `port` and a socket of its own; `socket_path` is what
    a client sets in PCSCLITE_CSOCK_NAME before its first PC/SC call."""

    def __init__(self, name: str = "Marmite virtual PCD") -> None:
        self.name = name
        self.port = free_port()
        self._dir = Path(tempfile.mkdtemp(prefix="marmite-pcscd-"))
        self.socket_path = str(self._dir / "pcscd.comm")
        self.log_path = self._dir / "pcscd.log"
        self._process: subprocess.Popen[bytes] | None = None
        self._debug = os.environ.get("MARMITE_PCSCD_DEBUG", "")

    def start(self, timeout: float = 5.0) -> PrivatePcscd:
        """Start pcscd in the foreground and wait until the driver listens for the card."""
        conf = self._dir / "reader.conf.d"
        conf.mkdir()
        (conf / "vpcd").write_text(
            f'FRIENDLYNAME "{self.name}"\nDEVICENAME /dev/null:0x{self.port:X}\n'
            f"LIBPATH {VPCD_DRIVER}\nCHANNELID 0x{self.port:X}\n",
            encoding="ascii",
        )
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.socket_path)
        listener.listen(16)
        fd = listener.fileno()
        command = f"exec 3<&{fd}; LISTEN_PID=$$ LISTEN_FDS=1 exec pcscd --foreground --config {conf} {self._debug}"
        with open(self.log_path, "wb") as log:
            self._process = subprocess.Popen(["bash", "-c", command], pass_fds=(fd,), stdout=log,
                                             stderr=subprocess.STDOUT, start_new_session=True)
        listener.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"pcscd stopped: {self.log_path.read_text(errors='replace')[-500:]}")
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    probe.close()
                    time.sleep(0.2)  # the driver takes the probe for a card that left at once
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("pcscd's vpcd reader did not open its port")

    def environ(self) -> dict[str, str]:
        """The environment a PC/SC client needs to reach this pcscd."""
        return {"PCSCLITE_CSOCK_NAME": self.socket_path}

    def stop(self) -> None:
        """Stop pcscd and remove its files; idempotent."""
        process, self._process = self._process, None
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> PrivatePcscd:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def use_pcscd(daemon: PrivatePcscd) -> None:
    """Point this process's PC/SC client library at `daemon` (before its first PC/SC call)."""
    os.environ.update(daemon.environ())
