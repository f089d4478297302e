"""The host's protocol state without I/O: ACKs, duplicates, resets, the pile on a reset board."""

from __future__ import annotations

from firmware_bridge import protocol as p
from firmware_bridge.session import HostSession

UID = bytes.fromhex("04a1b2c3d4e5f6")
OTHER = bytes.fromhex("deadbeef")


def tag(seq: int, uid: bytes = UID, boot: int = 1, flags: int = 0) -> bytes:
    return p.encode_frame(p.Frame(p.TAG, seq, p.tag_body(boot, uid, flags)))


def acks(reply: bytes) -> list[tuple[int, int]]:
    return [(f.seq, p.parse_ack(f.body)) for f in p.FrameDecoder().feed(reply) if f.kind == p.ACK]


def test_a_tag_is_delivered_once_and_acknowledged_every_time() -> None:
    session = HostSession()
    first = session.receive(tag(5))
    again = session.receive(tag(5))
    assert first.uids == ("04a1b2c3d4e5f6",) and again.uids == ()
    assert acks(first.reply) == [(5, 1)] and acks(again.reply) == [(5, 1)]
    assert session.facts.duplicates_dropped == 1


def test_the_same_seq_after_a_reset_is_a_new_card() -> None:
    session = HostSession()
    assert session.receive(tag(1, boot=1)).uids == ("04a1b2c3d4e5f6",)
    assert session.receive(tag(1, OTHER, boot=2)).uids == ("deadbeef",)
    assert session.facts.resets_seen == 1


def test_the_pile_reread_after_a_reset_is_dropped_but_a_new_card_is_not() -> None:
    session = HostSession()
    session.receive(tag(1, UID, boot=1))
    at_boot = p.FLAG_AT_BOOT
    after_reset = session.receive(tag(1, UID, boot=2, flags=at_boot) + tag(2, OTHER, boot=2, flags=at_boot))
    assert after_reset.uids == ("deadbeef",)
    assert len(acks(after_reset.reply)) == 2
    assert session.facts.boot_repeats_dropped == 1
    later = session.receive(tag(3, UID, boot=2))  # played again later in the game: a real play
    assert later.uids == ("04a1b2c3d4e5f6",)


def test_hello_and_heartbeat_fill_the_facts() -> None:
    session = HostSession(clock=lambda: 42.0)
    hello = p.encode_frame(p.Frame(p.HELLO, 1, p.hello_body(0xABCD, "fw 9")))
    beat = p.encode_frame(p.Frame(p.HEARTBEAT, 2, p.heartbeat_body(0xABCD, 1000, 3)))
    assert session.receive(hello).health_changed
    session.receive(beat)
    facts = session.facts
    assert (facts.firmware_version, facts.boot_id, facts.pending_on_board, facts.last_heartbeat) == (
        "fw 9", 0xABCD, 3, 42.0
    )


def test_a_board_speaking_another_protocol_gets_no_ack_and_gives_no_tag() -> None:
    session = HostSession()
    hello = p.encode_frame(p.Frame(p.HELLO, 1, bytes((p.PROTOCOL_VERSION + 1,)) + p.hello_body(1, "x")[1:]))
    session.receive(hello)
    assert not session.version_ok()
    result = session.receive(tag(2))
    assert result.uids == () and result.reply == b""


def test_a_malformed_body_with_a_good_crc_is_counted_not_raised() -> None:
    session = HostSession()
    bad = p.encode_frame(p.Frame(p.TAG, 1, b"\x00\x01"))
    assert session.receive(bad).uids == ()
    assert session.decoder.frames_bad == 1


def test_commands_number_themselves() -> None:
    session = HostSession()
    first, _ = session.command(p.PING)
    second, data = session.command(p.BEEP, p.beep_body(10))
    assert second == first + 1
    assert p.FrameDecoder().feed(data) == [p.Frame(p.BEEP, second, p.beep_body(10))]
    sync = p.FrameDecoder().feed(session.connected())
    assert [f.kind for f in sync] == [p.SYNC]
