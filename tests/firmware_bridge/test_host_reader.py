"""The usb reader's own behaviour: no board, a port it cannot open, a silent board, a newer firmware."""

from __future__ import annotations

import os
import queue
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.reads import ReaderHealth, ReaderMessage, TagSeen
from firmware_bridge import protocol as p
from firmware_bridge.host_reader import UsbReader
from marmite.readers import make_reader

WAIT = 10.0


def connected(reader: UsbReader) -> None:
    """Wait until the reader has the port open (bytes written before that are flushed by the open)."""
    deadline = time.monotonic() + WAIT
    while not reader.health().info or dict(reader.health().info)["connected"] != "yes":
        assert time.monotonic() < deadline, "the reader never opened the port"
        time.sleep(0.01)


def wait_for(out: queue.Queue[ReaderMessage], match: Callable[[ReaderMessage], bool]) -> ReaderMessage:
    """The first queued message that matches; fail after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            item = out.get(timeout=0.05)
        except queue.Empty:
            continue
        if match(item):
            return item
    raise AssertionError("no matching message from the reader")


@pytest.fixture
def line() -> Iterator[tuple[int, str]]:
    """A pty: the board's end (master fd) and the port the host opens."""
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    for fd in (master, slave):
        os.close(fd)


def test_the_usb_reader_is_registered() -> None:
    reader = make_reader("usb", {"port": "/dev/ttyACM7"})
    assert isinstance(reader, UsbReader) and reader.name == "usb"
    reader.close()
    reader.close()


def test_the_memory_option_loads_what_an_earlier_run_saved(tmp_path: Path) -> None:
    memory = tmp_path / "usb.json"
    memory.write_text('{"delivered": [["DEADBEEF", 7]]}', encoding="utf-8")
    reader = make_reader("usb", {"memory": str(memory)})
    assert isinstance(reader, UsbReader) and reader.session.delivered() == [("deadbeef", 7)]
    memory.write_text("{not json", encoding="utf-8")
    assert UsbReader(memory=memory).session.delivered() == []


def test_no_board_is_reported_and_closing_is_idempotent() -> None:
    out: queue.Queue[ReaderMessage] = queue.Queue()
    reader = UsbReader(find_ports=lambda: [], backoff=(0.01, 0.05))
    reader.start(out)
    health = wait_for(out, lambda m: isinstance(m, ReaderHealth))
    assert isinstance(health, ReaderHealth) and not health.ok and "no board found" in health.detail
    with pytest.raises(RuntimeError):
        reader.start(out)
    reader.close()
    reader.close()
    assert not reader.health().ok


def test_a_port_that_cannot_be_opened_is_reported() -> None:
    out: queue.Queue[ReaderMessage] = queue.Queue()
    with UsbReader("/nonexistent/ttyACM9", backoff=(0.01, 0.05)) as reader:
        reader.start(out)
        health = wait_for(out, lambda m: isinstance(m, ReaderHealth))
    assert isinstance(health, ReaderHealth) and "cannot open /nonexistent/ttyACM9" in health.detail


def test_a_silent_board_is_unhealthy_then_reopened(line: tuple[int, str]) -> None:
    master, port = line
    out: queue.Queue[ReaderMessage] = queue.Queue()
    with UsbReader(port, backoff=(0.01, 0.05), heartbeat_timeout=0.2, silence_reconnect=0.4) as reader:
        reader.start(out)
        health = wait_for(out, lambda m: isinstance(m, ReaderHealth))
        assert isinstance(health, ReaderHealth) and not health.ok and "waiting for the board" in health.detail
        wait_for(out, lambda m: reader.connections >= 2)
        sync = p.FrameDecoder().feed(os.read(master, 4096))
    assert p.SYNC in [f.kind for f in sync]


def test_a_board_speaking_another_protocol_is_refused(line: tuple[int, str]) -> None:
    master, port = line
    out: queue.Queue[ReaderMessage] = queue.Queue()
    future = bytes((p.PROTOCOL_VERSION + 1,)) + p.hello_body(9, "marmite-pico 9.0")[1:]
    with UsbReader(port, backoff=(0.01, 0.05)) as reader:
        reader.start(out)
        connected(reader)
        os.write(master, p.encode_frame(p.Frame(p.HELLO, 1, future)))
        os.write(master, p.encode_frame(p.Frame(p.TAG, 2, p.tag_body(9, bytes.fromhex("deadbeef")))))
        health = wait_for(out, lambda m: isinstance(m, ReaderHealth) and "firmware install" in m.detail)
        assert isinstance(health, ReaderHealth) and not health.ok
        assert dict(health.info)["firmware"] == "marmite-pico 9.0"
    assert not any(isinstance(item, TagSeen) for item in list(out.queue))


def acks_until(master: int, condition: Callable[[list[p.Frame]], bool]) -> list[p.Frame]:
    """Frames the host wrote to the board's end, read until `condition` holds for them; fail after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    got: list[p.Frame] = []
    decoder = p.FrameDecoder()
    while not condition(got):
        assert time.monotonic() < deadline, f"the host never wrote what was expected; got {got}"
        got += decoder.feed(os.read(master, 4096))
    return got


def test_a_scripted_board_tag_is_delivered_then_acknowledged_once_done(line: tuple[int, str]) -> None:
    master, port = line
    out: queue.Queue[ReaderMessage] = queue.Queue()
    with UsbReader(port, backoff=(0.01, 0.05)) as reader:
        reader.start(out)
        connected(reader)
        os.write(master, b"MPY: soft reboot\r\n" + p.encode_frame(p.Frame(p.TAG, 3, p.tag_body(5, bytes(7)))))
        seen = wait_for(out, lambda m: isinstance(m, TagSeen))
        assert isinstance(seen, TagSeen) and seen.uid == "00000000000000" and seen.reader == "usb"
        # The host handles what it read in one turn of its loop and pings once a second at most: of two
        # keepalive pings, the second left after the turn that queued the tag (an early ACK left before it).
        before = acks_until(master, lambda got: sum(f.kind == p.PING for f in got) >= 2)
        assert not any(f.kind == p.ACK for f in before)
        assert reader.session.delivered() == []
        assert seen.done is not None
        seen.done()
        got = acks_until(master, lambda got: any(f.kind == p.ACK for f in got))
    assert [(f.seq, p.parse_ack(f.body)) for f in got if f.kind == p.ACK] == [(3, 5)]
    assert reader.session.delivered() == [("00000000000000", 5)]


def test_a_board_without_the_firmware_is_told_to_get_it(line: tuple[int, str]) -> None:
    master, port = line
    out: queue.Queue[ReaderMessage] = queue.Queue()
    with UsbReader(port, backoff=(0.01, 0.05), heartbeat_timeout=0.3) as reader:
        reader.start(out)
        connected(reader)
        os.write(master, b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n" * 2 + b">>> ")
        health = wait_for(out, lambda m: isinstance(m, ReaderHealth) and "does not speak" in m.detail)
    assert isinstance(health, ReaderHealth) and "marmite firmware install" in health.detail and not health.ok
