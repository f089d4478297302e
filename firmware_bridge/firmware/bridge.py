"""Marmite's Pico firmware: read cards with the RC522, send them over USB serial until the host acknowledges.

`run()` is the whole program (main.py calls it). Everything the board touches is passed in, so the same
loop runs under CPython in tests with a fake `machine` and a pseudo-terminal for the USB cable.
"""

try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython (tests, benchmarks)
    from cpython_ticks import sleep_ms, ticks_add, ticks_diff, ticks_ms

try:
    import protocol  # on the Pico: copied next to this file
except ImportError:  # CPython: the same file, from the repository
    from firmware_bridge import protocol

import rc522

FIRMWARE_VERSION = "marmite-pico 1.0.0"

# The wiring in firmware_bridge/README.md; a `board_config.py` on the Pico with a CONFIG dict overrides it.
DEFAULT_CONFIG = {
    "spi": 0,
    "sck": 18,
    "mosi": 19,
    "miso": 16,
    "cs": 17,
    "rst": 20,
    "led": "LED",
    "buzzer": None,  # a GPIO number for a passive buzzer, e.g. 15
    "spi_baudrate": 1000000,
}

LOOP_MS = 5
SCAN_MS = 10  # as often as the Pi polls: an empty scan is 7 SPI transactions and about 0.5 ms
DEBOUNCE_MS = 1500  # the same UID again within this time is the same pass over the antenna
BOOT_GRACE_MS = 2000  # tags read this soon after boot are flagged: they may have been lying on the reader
RESEND_MS = 250
RESENDS_PER_STEP = 4
HEARTBEAT_MS = 1000
HOST_TIMEOUT_MS = 3000
QUIET_SEND_MS = 1000  # with no host listening, at most one frame a second
BOOTSEL_CHECK_MS = 500
MAX_PENDING = 32
REINIT_AFTER_ERRORS = 3
REINIT_MS = 1000  # with no RC522 answering, try to bring it up once a second
AFTER_REINIT_MS = 500  # a card read before and read again this soon after a re-init was resting on the antenna
MAX_KNOWN = 128  # cards remembered for that (a deck is smaller); the longest-unseen is forgotten first
RADIO_ERROR_SCANS = 8  # scans in a row with radio errors (0.2 s) before the heartbeat says so
CHECK_MS = 1000  # how often the RC522's version register is read back as a sign of life
FLASH_MS = 150


def new_boot_id():
    """A random 32-bit id for this boot, so the host can tell a reset board from a resent message."""
    try:
        import os

        raw = os.urandom(4)
        return (raw[0] << 24) | (raw[1] << 16) | (raw[2] << 8) | raw[3]
    except (ImportError, AttributeError):  # a MicroPython without os.urandom: its RNG is seeded from hardware
        import random

        return random.getrandbits(32)


class Feedback:
    """The board's LED (and optional buzzer): blink while no host, steady with one, flash on each card."""

    def __init__(self, led=None, buzzer=None):
        self.led = led
        self.buzzer = buzzer
        self.mode = protocol.LED_AUTO
        self._flash_until = None
        self._beep_until = None

    def card(self, now):
        """A card was read: flash, and a short beep if there is a buzzer."""
        self._flash_until = ticks_add(now, FLASH_MS)
        self.beep(now, 60, 2700)

    def beep(self, now, duration_ms, frequency_hz):
        """Sound the buzzer for `duration_ms` (no-op without one)."""
        if self.buzzer is None or duration_ms <= 0 or frequency_hz <= 0:
            return
        self.buzzer.freq(frequency_hz)
        self.buzzer.duty_u16(32768)
        self._beep_until = ticks_add(now, duration_ms)

    def update(self, now, host_alive, pending):
        """Drive the LED and stop a finished beep."""
        if self._beep_until is not None and ticks_diff(now, self._beep_until) >= 0:
            self.buzzer.duty_u16(0)
            self._beep_until = None
        if self.led is None:
            return
        if self.mode == protocol.LED_ON:
            on = True
        elif self.mode == protocol.LED_OFF:
            on = False
        elif self.mode == protocol.LED_BLINK:
            on = (now // 250) % 2 == 0
        elif self._flash_until is not None and ticks_diff(now, self._flash_until) < 0:
            on = False  # a dark flash reads well on a steady LED
        elif pending:
            on = (now // 100) % 2 == 0  # fast blink: cards waiting for the host
        elif host_alive:
            on = True
        else:
            on = (now // 500) % 2 == 0  # slow blink: no host
        self.led.value(1 if on else 0)


class Board:
    """The firmware's state: the reader, the link to the host, tags awaiting an ACK, the host's liveness."""

    def __init__(self, reader, link, feedback=None, boot_id=None, clock=ticks_ms):
        self.reader = reader
        self.link = link
        self.feedback = feedback or Feedback()
        self.boot_id = new_boot_id() if boot_id is None else boot_id
        self._clock = clock
        self.boot_ms = clock()
        self.booting = True  # until BOOT_GRACE_MS have passed: tags read now get FLAG_AT_BOOT
        self.seq = 0
        self.pending = []  # [seq, frame bytes, last sent ms], oldest first
        self.recent = {}  # uid bytes -> ms of its last sighting
        self.decoder = protocol.FrameDecoder()
        self.last_host_ms = None
        self._quiet_sent_ms = None
        self.last_scan_ms = None
        self.last_heartbeat_ms = None
        self.reader_errors = 0
        self.reader_ok = False
        self.known = {}  # uid bytes -> ms of its last sighting, any time since boot (bounded by MAX_KNOWN)
        self._reinit_ms = None  # when the chip was last re-initialised after a failure (its field went off)
        self.radio_streak = 0
        self._radio_errors_seen = 0
        self._init_tried_ms = None
        self._checked_ms = None
        self.stopped = False
        self.tags_read = 0
        self.loop_errors = 0

    # --- sending ------------------------------------------------------------------------

    def _next_seq(self):
        self.seq = (self.seq + 1) % protocol.SEQ_MODULO
        return self.seq

    def host_alive(self, now):
        """True if the host sent a frame lately (a Marmite host pings every second)."""
        return self.last_host_ms is not None and ticks_diff(now, self.last_host_ms) < HOST_TIMEOUT_MS

    def _send(self, frame_bytes):
        # With no host listening, a port held open but unread makes every USB write wait for its timeout
        # (500 ms on the RP2040): then send one frame a second, so scanning goes on at full pace.
        now = self._clock()
        if not self.host_alive(now):
            if self._quiet_sent_ms is not None and ticks_diff(now, self._quiet_sent_ms) < QUIET_SEND_MS:
                return
            self._quiet_sent_ms = now
        try:
            self.link.write(frame_bytes)
        except Exception:  # noqa: BLE001 - cable gone or host not reading: the resend timer tries again
            pass

    def _send_frame(self, kind, body, seq=None):
        if seq is None:
            seq = self._next_seq()
        self._send(protocol.encode_frame(protocol.Frame(kind, seq, body)))

    def hello(self):
        """Announce this boot: protocol version, boot id, firmware version."""
        self._send_frame(protocol.HELLO, protocol.hello_body(self.boot_id, FIRMWARE_VERSION))

    # --- the loop -----------------------------------------------------------------------

    def start(self):
        """Bring the reader up and say hello."""
        self._init_reader()
        self.hello()

    def step(self):
        """One turn of the main loop: host bytes, a scan when due, resends, heartbeat, LED."""
        now = self._clock()
        self._poll_host(now)
        if self.last_scan_ms is None or ticks_diff(now, self.last_scan_ms) >= SCAN_MS:
            self.last_scan_ms = now
            self._scan(now)
        self._resend(now)
        if self.last_heartbeat_ms is None or ticks_diff(now, self.last_heartbeat_ms) >= HEARTBEAT_MS:
            self.last_heartbeat_ms = now
            uptime = ticks_diff(now, self.boot_ms)
            state = protocol.STATE_READER_OK if self.reader_ok else 0
            if self.radio_streak >= RADIO_ERROR_SCANS:
                state |= protocol.STATE_RADIO_ERRORS
            body = protocol.heartbeat_body(self.boot_id, uptime, len(self.pending), state)
            self._send_frame(protocol.HEARTBEAT, body)
        self.feedback.update(now, self.host_alive(now), len(self.pending))

    def _init_reader(self):
        now = self._init_tried_ms = self._clock()
        try:
            self.reader.init()
            self.reader_ok = True
            self.reader_errors = 0
            self._reinit_ms = now  # the field went off and on: halted cards resting on the antenna wake up
        except Exception:  # noqa: BLE001 - no RC522 yet: keep the USB side alive and try again later
            self.reader_ok = False

    def _scan(self, now):
        if len(self.pending) >= MAX_PENDING:
            return  # the host is away; cards stay in the field until there is room
        if not self.reader_ok:
            if self._init_tried_ms is not None and ticks_diff(now, self._init_tried_ms) < REINIT_MS:
                return
            self._init_reader()
            if not self.reader_ok:
                return
        try:
            if self._checked_ms is None or ticks_diff(now, self._checked_ms) >= CHECK_MS:
                self._checked_ms = now
                self.reader.check()  # a chip answering noise would otherwise look like an empty field
            uids = self.reader.scan()  # every card in the field, each halted once read
            self.reader_errors = 0
        except rc522.ChipError:
            self._init_reader()
            return
        except Exception:  # noqa: BLE001 - SPI trouble: reset the chip after a few in a row
            self.reader_errors += 1
            if self.reader_errors >= REINIT_AFTER_ERRORS:
                self._init_reader()
            return
        errors = getattr(self.reader, "radio_errors", 0)
        self.radio_streak = self.radio_streak + 1 if errors != self._radio_errors_seen else 0
        self._radio_errors_seen = errors
        if self.booting and ticks_diff(now, self.boot_ms) >= BOOT_GRACE_MS:
            self.booting = False
        if self.recent:  # forget old sightings now, before the tick counter wraps and makes them look new
            for old in [k for k, t in self.recent.items() if ticks_diff(now, t) >= DEBOUNCE_MS]:
                del self.recent[old]
        for uid in uids:
            self._seen(uid, now)

    def _seen(self, uid, now):
        """A card read: report it unless it is the same pass (debounce) or a resting card woken by a re-init."""
        last = self.recent.get(uid)
        self.recent[uid] = now
        if last is not None:
            return  # the same pass over the antenna (debounce)
        resting = uid in self.known and self._reinit_ms is not None and (
            ticks_diff(now, self._reinit_ms) < AFTER_REINIT_MS
        )
        self._remember(uid, now)
        if resting:
            return
        flags = protocol.FLAG_AT_BOOT if self.booting else 0
        seq = self._next_seq()
        frame = protocol.encode_frame(protocol.Frame(protocol.TAG, seq, protocol.tag_body(self.boot_id, uid, flags)))
        self.pending.append([seq, frame, now])
        self.tags_read += 1
        self._send(frame)
        self.feedback.card(now)

    def _remember(self, uid, now):
        self.known[uid] = now
        if len(self.known) > MAX_KNOWN:
            oldest = None
            for key, seen in self.known.items():
                if oldest is None or ticks_diff(seen, self.known[oldest]) < 0:
                    oldest = key
            del self.known[oldest]

    def _resend(self, now):
        sent = 0
        for entry in self.pending:
            if sent >= RESENDS_PER_STEP:
                break
            if ticks_diff(now, entry[2]) >= RESEND_MS:
                entry[2] = now
                self._send(entry[1])
                sent += 1

    def _poll_host(self, now):
        try:
            data = self.link.read()
        except Exception:  # noqa: BLE001 - no host: nothing to read
            return
        if not data:
            return
        for frame in self.decoder.feed(data):
            self.last_host_ms = now
            self._command(frame, now)

    def _command(self, frame, now):
        kind = frame.kind
        try:
            if kind == protocol.ACK:
                if protocol.parse_ack(frame.body) == self.boot_id:
                    self.pending = [entry for entry in self.pending if entry[0] != frame.seq]
                return
            if kind == protocol.SYNC:
                self.hello()
                self.last_heartbeat_ms = None  # and a heartbeat at the end of this turn
                for entry in self.pending:  # a new host: do not make it wait for the resend timer
                    entry[2] = now
                    self._send(entry[1])
                return
            if kind == protocol.PING:
                data = frame.body
            elif kind == protocol.BEEP:
                duration, frequency = protocol.parse_beep(frame.body)
                self.feedback.beep(now, duration, frequency)
                data = b""
            elif kind == protocol.LED:
                self.feedback.mode = protocol.parse_led(frame.body)
                data = b""
            elif kind == protocol.STOP:
                self.stopped = True
                data = b""
            else:
                return  # a board → host kind (an echo) or unknown: ignore
            self._send_frame(protocol.RESULT, protocol.result_body(kind, protocol.STATUS_OK, data), frame.seq)
        except protocol.ProtocolError:
            self._send_frame(protocol.RESULT, protocol.result_body(kind, protocol.STATUS_BAD_REQUEST), frame.seq)


class UsbLink:
    """The USB serial console as a byte pipe: non-blocking reads from stdin, writes to stdout."""

    def __init__(self):
        import select
        import sys

        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        """Bytes the host sent, without waiting."""
        out = bytearray()
        while len(out) < 256 and self._poll.poll(0):
            out.extend(self._in.read(1))
        return bytes(out)

    def write(self, data):
        """Send bytes to the host."""
        self._out.write(data)


def load_config(config=None):
    """DEFAULT_CONFIG, then `board_config.CONFIG` if that file is on the board, then `config`."""
    merged = dict(DEFAULT_CONFIG)
    try:
        import board_config

        merged.update(board_config.CONFIG)
    except ImportError:
        pass
    merged.update(config or {})
    return merged


def build_board(machine, link, config, boot_id=None):
    """Wire the RC522, LED and buzzer from `config` to a Board talking over `link`."""
    pin = machine.Pin
    spi = machine.SPI(
        config["spi"], baudrate=config["spi_baudrate"], polarity=0, phase=0,
        sck=pin(config["sck"]), mosi=pin(config["mosi"]), miso=pin(config["miso"]),
    )
    cs = pin(config["cs"], pin.OUT, value=1)
    rst = pin(config["rst"], pin.OUT, value=1) if config["rst"] is not None else None
    led = pin(config["led"], pin.OUT) if config["led"] is not None else None
    buzzer = None
    if config["buzzer"] is not None:
        buzzer = machine.PWM(pin(config["buzzer"]))
        buzzer.duty_u16(0)
    return Board(rc522.RC522(spi, cs, rst), link, Feedback(led, buzzer), boot_id)


def _bootsel():
    """The BOOTSEL button as a way back to the REPL, where MicroPython offers it."""
    try:
        import rp2

        return rp2.bootsel_button
    except (ImportError, AttributeError):
        return None


def run(machine=None, link=None, config=None, should_stop=None, boot_id=None, board_hook=None):
    """The firmware: loop forever (until STOP from the host, BOOTSEL, or `should_stop()` in tests)."""
    if machine is None:
        import machine
    try:
        import micropython

        micropython.kbd_intr(-1)  # a 0x03 byte in a frame must not stop the program
    except ImportError:
        micropython = None
    board = build_board(machine, link or UsbLink(), load_config(config), boot_id)
    if board_hook is not None:
        board_hook(board)
    board.start()
    bootsel = _bootsel()
    bootsel_checked = ticks_ms()
    try:
        while not board.stopped:
            if should_stop is not None and should_stop():
                break
            if bootsel is not None and ticks_diff(ticks_ms(), bootsel_checked) >= BOOTSEL_CHECK_MS:
                bootsel_checked = ticks_ms()
                if bootsel():  # reading the button pauses flash access: not on every turn
                    break
            try:
                board.step()
                sleep_ms(LOOP_MS)
            except KeyboardInterrupt:
                pass  # a stray interrupt from the console: keep reading
            except Exception:  # noqa: BLE001 - whatever happens, the table keeps its reader
                board.loop_errors += 1
                sleep_ms(50)
    finally:
        if micropython is not None:
            micropython.kbd_intr(3)
    return board
