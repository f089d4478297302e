"""The Pico ↔ host wire protocol: COBS frames with a CRC-16, shared by the firmware and the host.

This one file runs under CPython and MicroPython (it is copied to the Pico as `protocol.py`),
so it uses no dataclasses, no typing imports, no f-strings and only `%` formatting.
See firmware_bridge/PROTOCOL.md for the specification.
"""

# ruff: noqa: UP031  (% formatting: the portable spelling for MicroPython)

PROTOCOL_VERSION = 1

# Board → host.
HELLO = 0x01
TAG = 0x02
HEARTBEAT = 0x03
RESULT = 0x04
# Host → board.
ACK = 0x11
SYNC = 0x12
PING = 0x13
BEEP = 0x14
LED = 0x15
STOP = 0x16

KIND_NAMES = {
    HELLO: "hello", TAG: "tag", HEARTBEAT: "heartbeat", RESULT: "result",
    ACK: "ack", SYNC: "sync", PING: "ping", BEEP: "beep", LED: "led", STOP: "stop",
}

FLAG_AT_BOOT = 0x01  # TAG flag: read in the board's first moments after boot (it may have been lying there)
STATE_READER_OK = 0x01  # HEARTBEAT state bit: the RC522 answers
STATE_RADIO_ERRORS = 0x02  # HEARTBEAT state bit: radio errors scan after scan (a card at the edge, metal)

LED_OFF = 0
LED_ON = 1
LED_BLINK = 2
LED_AUTO = 3

STATUS_OK = 0
STATUS_BAD_REQUEST = 1

DELIMITER = 0
MAX_BODY = 64
MAX_PAYLOAD = 1 + 2 + MAX_BODY + 2  # kind, seq, body, crc
MAX_ENCODED = MAX_PAYLOAD + MAX_PAYLOAD // 254 + 1
SEQ_MODULO = 0x10000


class ProtocolError(ValueError):
    """A frame or message body that is not valid: bad COBS, bad CRC, wrong size, unknown content."""


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16_pure(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), table-driven."""
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


try:
    from binascii import crc_hqx as _crc_hqx  # CPython: the same CRC, in C

    def crc16(data: bytes) -> int:
        """CRC-16/CCITT-FALSE of `data`."""
        return _crc_hqx(data, 0xFFFF)

except ImportError:  # MicroPython
    crc16 = crc16_pure


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    out = bytearray()
    code_index = 0
    out.append(0)
    code = 1
    for byte in data:
        if byte == 0:
            out[code_index] = code
            code_index = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_index] = code
                code_index = len(out)
                out.append(0)
                code = 1
    out[code_index] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo `cobs_encode`; ProtocolError for a zero byte or a block that runs past the end."""
    out = bytearray()
    index = 0
    size = len(data)
    while index < size:
        code = data[index]
        if code == 0:
            raise ProtocolError("zero byte inside a COBS frame")
        end = index + code
        if end > size:
            raise ProtocolError("COBS block runs past the end of the frame")
        block = data[index + 1:end]
        if block.find(b"\x00") >= 0:
            raise ProtocolError("zero byte inside a COBS frame")
        out.extend(block)
        index = end
        if code != 0xFF and index < size:
            out.append(0)
    return bytes(out)


class Frame:
    """One message: its kind, its sequence number (0..65535) and its body bytes."""

    def __init__(self, kind: int, seq: int, body: bytes = b"") -> None:
        self.kind = kind
        self.seq = seq
        self.body = bytes(body)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Frame)
            and self.kind == other.kind and self.seq == other.seq and self.body == other.body
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.seq, self.body))

    def __repr__(self) -> str:
        return "Frame(%s, seq=%d, body=%s)" % (KIND_NAMES.get(self.kind, hex(self.kind)), self.seq, hexlify(self.body))


def hexlify(data: bytes) -> str:
    """Lower-case hex of `data` (bytes.hex is not on every MicroPython)."""
    return "".join("%02x" % byte for byte in data)


def encode_frame(frame: Frame) -> bytes:
    """The bytes on the wire for `frame`: delimiter, COBS(kind, seq, body, CRC-16), delimiter."""
    if not 0 <= frame.kind <= 0xFF:
        raise ProtocolError("kind out of range")
    if not 0 <= frame.seq < SEQ_MODULO:
        raise ProtocolError("sequence number out of range")
    if len(frame.body) > MAX_BODY:
        raise ProtocolError("body longer than %d bytes" % MAX_BODY)
    payload = bytearray()
    payload.append(frame.kind)
    payload.append(frame.seq >> 8)
    payload.append(frame.seq & 0xFF)
    payload.extend(frame.body)
    crc = crc16(bytes(payload))
    payload.append(crc >> 8)
    payload.append(crc & 0xFF)
    return b"\x00" + cobs_encode(bytes(payload)) + b"\x00"


def decode_payload(encoded: bytes) -> Frame:
    """The frame inside one COBS block (without delimiters); ProtocolError if it is damaged."""
    if len(encoded) > MAX_ENCODED:
        raise ProtocolError("frame longer than %d bytes" % MAX_ENCODED)
    payload = cobs_decode(encoded)
    if len(payload) < 5:
        raise ProtocolError("frame shorter than a header and a CRC")
    if crc16(payload[:-2]) != (payload[-2] << 8) | payload[-1]:
        raise ProtocolError("CRC mismatch")
    return Frame(payload[0], (payload[1] << 8) | payload[2], payload[3:-2])


class FrameDecoder:
    """Turns a byte stream into frames; damaged or oversize frames are counted and skipped."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._discarding = False
        self.frames_ok = 0
        self.frames_bad = 0
        self.frames_oversize = 0

    def feed(self, data: bytes) -> list[Frame]:
        """Consume `data`; return the good frames it completed, in order."""
        frames = []
        start = 0
        size = len(data)
        while start < size:
            end = data.find(b"\x00", start)
            if end < 0:
                chunk = data[start:]
                start = size
                if not self._discarding:
                    self._buffer.extend(chunk)
                    if len(self._buffer) > MAX_ENCODED:
                        self._discarding = True
                        self.frames_oversize += 1
                        self._buffer = bytearray()
                break
            if self._discarding:
                self._discarding = False
            else:
                self._buffer.extend(data[start:end])
                if self._buffer:
                    if len(self._buffer) > MAX_ENCODED:
                        self.frames_oversize += 1
                    else:
                        try:
                            frames.append(decode_payload(bytes(self._buffer)))
                            self.frames_ok += 1
                        except ProtocolError:
                            self.frames_bad += 1
            self._buffer = bytearray()
            start = end + 1
        return frames

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect)."""
        self._buffer = bytearray()
        self._discarding = False


def _u32(value: int) -> bytes:
    return bytes(((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def _read_u32(body: bytes, offset: int) -> int:
    return (body[offset] << 24) | (body[offset + 1] << 16) | (body[offset + 2] << 8) | body[offset + 3]


# ---------------------------------------------------------------- board → host bodies


def hello_body(boot_id: int, firmware_version: str) -> bytes:
    """HELLO: protocol version (1 byte), boot id (4 bytes), firmware version (UTF-8)."""
    version = firmware_version.encode("utf-8")[: MAX_BODY - 5]
    return bytes((PROTOCOL_VERSION,)) + _u32(boot_id) + version


def parse_hello(body: bytes) -> tuple[int, int, str]:
    """(protocol version, boot id, firmware version) of a HELLO body."""
    if len(body) < 5:
        raise ProtocolError("HELLO body too short")
    try:
        version = bytes(body[5:]).decode("utf-8")
    except UnicodeError:
        raise ProtocolError("HELLO firmware version is not UTF-8") from None
    return body[0], _read_u32(body, 1), version


def tag_body(boot_id: int, uid: bytes, flags: int = 0) -> bytes:
    """TAG: boot id (4 bytes), flags (1 byte), UID (4, 7 or 10 bytes)."""
    if len(uid) not in (4, 7, 10):
        raise ProtocolError("a UID has 4, 7 or 10 bytes")
    return _u32(boot_id) + bytes((flags,)) + bytes(uid)


def parse_tag(body: bytes) -> tuple[int, int, bytes]:
    """(boot id, flags, UID) of a TAG body."""
    if len(body) - 5 not in (4, 7, 10):
        raise ProtocolError("TAG body has a bad UID length")
    return _read_u32(body, 0), body[4], bytes(body[5:])


def heartbeat_body(boot_id: int, uptime_ms: int, pending: int, status: int = STATE_READER_OK) -> bytes:
    """HEARTBEAT: boot id (4), uptime in ms (4, wraps), tags awaiting an ACK (1), state bits (1)."""
    return _u32(boot_id) + _u32(uptime_ms & 0xFFFFFFFF) + bytes((min(pending, 255), status & 0xFF))


def parse_heartbeat(body: bytes) -> tuple[int, int, int, int]:
    """(boot id, uptime ms, pending tags, state bits) of a HEARTBEAT body."""
    if len(body) != 10:
        raise ProtocolError("HEARTBEAT body must be 10 bytes")
    return _read_u32(body, 0), _read_u32(body, 4), body[8], body[9]


def result_body(command_kind: int, status: int, data: bytes = b"") -> bytes:
    """RESULT (reply to a host command, same seq): command kind, status, data (a PING's echo)."""
    return bytes((command_kind, status)) + bytes(data)[: MAX_BODY - 2]


def parse_result(body: bytes) -> tuple[int, int, bytes]:
    """(command kind, status, data) of a RESULT body."""
    if len(body) < 2:
        raise ProtocolError("RESULT body too short")
    return body[0], body[1], bytes(body[2:])


# ---------------------------------------------------------------- host → board bodies


def beep_body(duration_ms: int, frequency_hz: int = 2000) -> bytes:
    """BEEP: duration in ms (2 bytes), frequency in Hz (2 bytes)."""
    duration_ms = max(0, min(duration_ms, 0xFFFF))
    frequency_hz = max(0, min(frequency_hz, 0xFFFF))
    return bytes((duration_ms >> 8, duration_ms & 0xFF, frequency_hz >> 8, frequency_hz & 0xFF))


def parse_beep(body: bytes) -> tuple[int, int]:
    """(duration ms, frequency Hz) of a BEEP body."""
    if len(body) != 4:
        raise ProtocolError("BEEP body must be 4 bytes")
    return (body[0] << 8) | body[1], (body[2] << 8) | body[3]


def ack_body(boot_id: int) -> bytes:
    """ACK (seq = the TAG's seq): the boot id the TAG came from, so a reset board never takes an old ACK."""
    return _u32(boot_id)


def parse_ack(body: bytes) -> int:
    """The boot id of an ACK body."""
    if len(body) != 4:
        raise ProtocolError("ACK body must be 4 bytes")
    return _read_u32(body, 0)


def led_body(mode: int) -> bytes:
    """LED: one mode byte (LED_OFF, LED_ON, LED_BLINK, LED_AUTO)."""
    return bytes((mode,))


def parse_led(body: bytes) -> int:
    """The mode of an LED body."""
    if len(body) != 1 or body[0] not in (LED_OFF, LED_ON, LED_BLINK, LED_AUTO):
        raise ProtocolError("LED body must be one known mode byte")
    return body[0]
