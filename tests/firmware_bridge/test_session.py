"""The host's protocol state without I/O: ACKs, duplicates, resets, the pile on a reset board."""

from __future__ import annotations

from firmware_bridge import protocol as p
from firmware_bridge.session import REDELIVER_SECONDS, HostSession


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

UID = bytes.fromhex("04a1b2c3d4e5f6")
OTHER = bytes.fromhex("deadbeef")


def tag(seq: int, uid: bytes = UID, boot: int = 1, flags: int = 0) -> bytes:
    return p.encode_frame(p.Frame(p.TAG, seq, p.tag_body(boot, uid, flags)))


def acks(reply: bytes) -> list[tuple[int, int]]:
    return [(f.seq, p.parse_ack(f.body)) for f in p.FrameDecoder().feed(reply) if f.kind == p.ACK]


def done_all(session: HostSession) -> bytes:
    """The table is done with every tag in flight: the ACKs the host would write."""
    return b"".join(session.done(each)[0] for each in session.in_flight())


def test_a_tag_is_delivered_once_and_acknowledged_every_time_once_done() -> None:
    session = HostSession()
    first = session.receive(tag(5))
    assert first.uids == ("04a1b2c3d4e5f6",) and first.reply == b""  # no ACK before the table is done
    ack, news = session.done(first.tags[0])
    assert acks(ack) == [(5, 1)] and news
    again = session.receive(tag(5))
    assert again.uids == () and acks(again.reply) == [(5, 1)]
    assert session.facts.duplicates_dropped == 1 and session.facts.tags_delivered == 1


def test_a_tag_with_the_table_is_neither_acknowledged_nor_counted_delivered() -> None:
    clock = Clock()
    session = HostSession(clock)
    first = session.receive(tag(5))
    clock.now += REDELIVER_SECONDS / 2
    resent = session.receive(tag(5))  # the board resends: the table is still at it
    assert resent.uids == () and resent.reply == b""
    assert session.delivered() == [] and session.facts.tags_delivered == 0
    assert session.in_flight() == list(first.tags)


def test_a_tag_never_done_is_handed_over_again_on_a_later_resend_and_acknowledged_once_done() -> None:
    clock = Clock()
    session = HostSession(clock)
    first = session.receive(tag(5)).tags[0]
    clock.now += REDELIVER_SECONDS
    copy = session.receive(tag(5))  # the first hand-over failed (its journal write raised)
    assert copy.tags == (first,) and copy.reply == b""
    assert session.facts.tags_redelivered == 1 and session.delivered() == []
    clock.now += REDELIVER_SECONDS / 2
    assert session.receive(tag(5)).tags == ()  # handed over again only once per REDELIVER_SECONDS
    ack, news = session.done(copy.tags[0])
    assert acks(ack) == [(5, 1)] and news
    ack, news = session.done(first)  # the first copy's done, late: acknowledged again, not delivered twice
    assert acks(ack) == [(5, 1)] and not news
    assert session.delivered() == [("04a1b2c3d4e5f6", 1)] and session.in_flight() == []


def test_the_same_seq_after_a_reset_is_a_new_card() -> None:
    session = HostSession()
    assert session.receive(tag(1, boot=1)).uids == ("04a1b2c3d4e5f6",)
    done_all(session)
    assert session.receive(tag(1, OTHER, boot=2)).uids == ("deadbeef",)
    assert session.facts.resets_seen == 1


def test_a_card_delivered_before_a_reset_and_read_at_boot_goes_to_the_table_marked_resting() -> None:
    """The pile lying on the antenna, or a card of an earlier round dropped again just after the reset:
    only the table can tell (before, the host dropped it, losing the fresh play)."""
    session = HostSession()
    session.receive(tag(1, UID, boot=1))
    done_all(session)
    at_boot = p.FLAG_AT_BOOT
    after_reset = session.receive(tag(1, UID, boot=2, flags=at_boot) + tag(2, OTHER, boot=2, flags=at_boot))
    assert [(t.uid, t.resting) for t in after_reset.tags] == [("04a1b2c3d4e5f6", True), ("deadbeef", False)]
    assert acks(after_reset.reply) == []  # both acknowledged once the table is done with them
    assert acks(done_all(session)) == [(1, 2), (2, 2)]
    assert session.facts.boot_repeats == 1
    later = session.receive(tag(3, UID, boot=2))  # played again later in the game: a real play
    assert later.uids == ("04a1b2c3d4e5f6",)


def test_a_card_still_with_the_table_when_the_board_resets_is_not_taken_for_the_pile() -> None:
    session = HostSession()
    session.receive(tag(1, UID, boot=1))  # handed over; the board resets before the table is done
    again = session.receive(tag(1, UID, boot=2, flags=p.FLAG_AT_BOOT))
    assert again.uids == ("04a1b2c3d4e5f6",)  # not delivered yet, so it may be lost: hand it over
    assert not again.tags[0].resting and session.facts.boot_repeats == 0


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


def test_radio_errors_in_the_heartbeat_change_the_health() -> None:
    session = HostSession()
    troubled = p.STATE_READER_OK | p.STATE_RADIO_ERRORS

    def beat(seq: int, state: int = p.STATE_READER_OK) -> bytes:
        return p.encode_frame(p.Frame(p.HEARTBEAT, seq, p.heartbeat_body(7, seq * 1000, 0, state)))

    session.receive(beat(1))
    assert session.receive(beat(2, troubled)).health_changed
    assert session.facts.radio_errors and session.facts.reader_ok
    assert session.receive(beat(3)).health_changed
    assert not session.facts.radio_errors
