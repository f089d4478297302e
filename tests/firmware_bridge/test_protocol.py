"""The wire protocol: round trips, and every kind of damage detected (never a false frame)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol as p

kinds = st.sampled_from(sorted(p.KIND_NAMES))
seqs = st.integers(0, p.SEQ_MODULO - 1)
bodies = st.binary(max_size=p.MAX_BODY)
frames = st.builds(p.Frame, kinds, seqs, bodies)

SAMPLES = [
    p.Frame(p.TAG, 1, p.tag_body(0xDEADBEEF, bytes.fromhex("04a1b2c3d4e5f6"))),
    p.Frame(p.TAG, 0xFFFF, p.tag_body(0, bytes(4), p.FLAG_AT_BOOT)),
    p.Frame(p.HELLO, 2, p.hello_body(0x00000001, "marmite-pico 1.0.0")),
    p.Frame(p.HEARTBEAT, 300, p.heartbeat_body(0x01000000, 123456, 2)),
    p.Frame(p.ACK, 0, p.ack_body(0xDEADBEEF)),
    p.Frame(p.PING, 0x0100, b"\x00" * p.MAX_BODY),
    p.Frame(p.RESULT, 9, bytes(range(1, p.MAX_BODY + 1))),
]


def test_crc16_is_ccitt_false() -> None:
    assert p.crc16(b"123456789") == 0x29B1
    assert p.crc16_pure(b"123456789") == 0x29B1


@given(st.binary(max_size=300))
def test_crc_implementations_agree(data: bytes) -> None:
    assert p.crc16(data) == p.crc16_pure(data)


@given(st.binary(max_size=600))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data
    assert len(encoded) <= len(data) + len(data) // 254 + 1


@given(frames)
def test_frame_round_trip(frame: p.Frame) -> None:
    wire = p.encode_frame(frame)
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    decoder = p.FrameDecoder()
    assert decoder.feed(wire) == [frame]
    assert decoder.frames_bad == 0


@given(st.lists(frames, max_size=8), st.integers(1, 64))
def test_stream_in_any_chunks(sent: list[p.Frame], chunk: int) -> None:
    stream = b"".join(p.encode_frame(frame) for frame in sent)
    decoder = p.FrameDecoder()
    got: list[p.Frame] = []
    for start in range(0, len(stream), chunk):
        got += decoder.feed(stream[start:start + chunk])
    assert got == sent


@pytest.mark.parametrize("frame", SAMPLES, ids=lambda f: repr(f)[:30])
def test_every_single_bit_flip_is_detected(frame: p.Frame) -> None:
    wire = p.encode_frame(frame)
    for bit in range(len(wire) * 8):
        damaged = bytearray(wire)
        damaged[bit // 8] ^= 1 << (bit % 8)
        decoder = p.FrameDecoder()
        got = decoder.feed(bytes(damaged))
        if bit // 8 in (0, len(wire) - 1):
            # A damaged delimiter only glues the frame to its neighbours; the body itself is intact.
            assert got in ([], [frame])
        else:
            assert got == [], f"bit {bit} flipped and a frame still decoded"


@pytest.mark.parametrize("frame", SAMPLES, ids=lambda f: repr(f)[:30])
def test_every_double_bit_flip_inside_a_byte_pair_is_detected(frame: p.Frame) -> None:
    wire = p.encode_frame(frame)
    inner = range(8, (len(wire) - 1) * 8)
    for bit in inner:
        for other in range(bit + 1, min(bit + 16, inner.stop)):
            damaged = bytearray(wire)
            damaged[bit // 8] ^= 1 << (bit % 8)
            damaged[other // 8] ^= 1 << (other % 8)
            assert p.FrameDecoder().feed(bytes(damaged)) == []


@pytest.mark.parametrize("frame", SAMPLES, ids=lambda f: repr(f)[:30])
def test_every_truncation_is_detected_and_the_next_frame_survives(frame: p.Frame) -> None:
    wire = p.encode_frame(frame)
    for cut in range(1, len(wire) - 1):
        decoder = p.FrameDecoder()
        got = decoder.feed(wire[:cut] + wire)  # the next frame's leading delimiter ends the cut one
        assert got == [frame]
        assert decoder.frames_bad == (1 if cut > 1 else 0)


def test_garbage_never_decodes_and_does_not_hide_the_next_frame() -> None:
    noise = random.Random(14443)
    frame = SAMPLES[0]
    false_frames = 0
    for _ in range(2000):
        garbage = bytes(noise.randrange(256) for _ in range(noise.randrange(1, 120)))
        decoder = p.FrameDecoder()
        got = decoder.feed(garbage + p.encode_frame(frame))
        assert got[-1] == frame
        false_frames += len(got) - 1
    assert false_frames == 0


def test_oversize_frames_are_dropped_and_counted() -> None:
    decoder = p.FrameDecoder()
    frame = SAMPLES[2]
    assert decoder.feed(b"\x00" + b"\x55" * 5000) == []
    assert decoder.frames_oversize == 1
    assert decoder.feed(b"\x55" * 10 + p.encode_frame(frame)) == [frame]
    exactly_too_long = b"\x01" * (p.MAX_ENCODED + 1)
    assert decoder.feed(b"\x00" + exactly_too_long + b"\x00") == []
    assert decoder.frames_oversize == 2
    with pytest.raises(p.ProtocolError):
        p.encode_frame(p.Frame(p.PING, 1, bytes(p.MAX_BODY + 1)))
    with pytest.raises(p.ProtocolError):
        p.decode_payload(exactly_too_long)


def test_short_and_malformed_cobs_is_rejected() -> None:
    with pytest.raises(p.ProtocolError):
        p.decode_payload(p.cobs_encode(b"\x02\x00"))  # shorter than header and CRC
    with pytest.raises(p.ProtocolError):
        p.cobs_decode(b"\x05\x01")  # block runs past the end
    with pytest.raises(p.ProtocolError):
        p.encode_frame(p.Frame(p.PING, p.SEQ_MODULO))


def test_bodies_round_trip() -> None:
    assert p.parse_hello(p.hello_body(0xCAFEF00D, "fw 1.2")) == (p.PROTOCOL_VERSION, 0xCAFEF00D, "fw 1.2")
    uid7 = bytes.fromhex("04a1b2c3d4e5f6")
    assert p.parse_tag(p.tag_body(7, uid7, p.FLAG_AT_BOOT)) == (7, p.FLAG_AT_BOOT, uid7)
    assert p.parse_heartbeat(p.heartbeat_body(1, 2**32 + 5, 300, 0)) == (1, 5, 255, 0)
    assert p.parse_heartbeat(p.heartbeat_body(1, 5, 0))[3] == p.STATE_READER_OK
    assert p.parse_result(p.result_body(p.PING, p.STATUS_OK, b"echo")) == (p.PING, p.STATUS_OK, b"echo")
    assert p.parse_beep(p.beep_body(80, 2000)) == (80, 2000)
    assert p.parse_led(p.led_body(p.LED_BLINK)) == p.LED_BLINK
    assert p.parse_ack(p.ack_body(0xFFFFFFFF)) == 0xFFFFFFFF


@pytest.mark.parametrize(
    ("parse", "body"),
    [
        (p.parse_tag, bytes(5 + 5)),
        (p.parse_hello, b"\x01\x00"),
        (p.parse_heartbeat, bytes(9)),
        (p.parse_beep, bytes(3)),
        (p.parse_led, b"\x09"),
        (p.parse_ack, bytes(5)),
        (p.parse_result, b"\x01"),
    ],
)
def test_malformed_bodies_raise(parse: object, body: bytes) -> None:
    assert callable(parse)
    with pytest.raises(p.ProtocolError):
        parse(body)


def test_a_uid_has_4_7_or_10_bytes() -> None:
    with pytest.raises(p.ProtocolError):
        p.tag_body(1, bytes(5))
