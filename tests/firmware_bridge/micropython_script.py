"""Run by MicroPython's Unix port (see test_micropython.py): the firmware's modules on a real MicroPython.

Usage: micropython micropython_script.py REPO_ROOT. Prints one line per check and `ALL OK` at the end.
"""

import sys

root = sys.argv[1]
sys.path.insert(0, root + "/firmware_bridge/firmware")
sys.path.insert(0, root + "/firmware_bridge")
# iso14443.py and mfrc522_pcd.py sit beside the firmware on the Pico; searched last here, so that the
# firmware's rc522.py wins over the Pi driver's hardware/rc522.py.
sys.path.append(root + "/hardware")
sys.path.append(root + "/tests/hardware")

import protocol as p  # noqa: E402

frame = p.Frame(p.TAG, 7, p.tag_body(0x12345678, b"\x04\x00\x03\x03\x00\x05\x06", p.FLAG_AT_BOOT))
wire = p.encode_frame(frame)
decoder = p.FrameDecoder()
assert decoder.feed(b"junk\x00" + wire + wire[:4] + b"\x00\x00" + wire) == [frame, frame]
assert decoder.frames_bad == 2
assert p.crc16(b"123456789") == 0x29B1
for bit in range(8, (len(wire) - 1) * 8):
    damaged = bytearray(wire)
    damaged[bit // 8] ^= 1 << (bit % 8)
    assert p.FrameDecoder().feed(bytes(damaged)) == []
assert p.parse_hello(p.hello_body(5, "fw")) == (p.PROTOCOL_VERSION, 5, "fw")
assert p.FrameDecoder().feed(b"\x01" * 500 + wire) == [frame]
print("protocol ok")

import iso14443_cases  # noqa: E402

for name in iso14443_cases.run_all():
    print(name, "ok")

import bridge  # noqa: E402
import rc522  # noqa: E402

assert rc522.crc_a([0x50, 0x00]) == [0x57, 0xCD]


class Spi:
    """machine.SPI over iso14443_cases.Registers: the firmware's own transport, byte for byte."""

    def __init__(self, registers):
        self.registers = registers

    def write_readinto(self, out, into):
        if out[0] & 0x80:
            values = self.registers.read([(b >> 1) & 0x3F for b in out[:-1]])
            into[:] = bytearray([0] + values)  # noqa: RUF005 - MicroPython cannot parse [0, *values]
        else:
            self.registers.write((out[0] >> 1) & 0x3F, list(out[1:]))


class Pin:
    def __init__(self):
        self.level = 1

    def value(self, level=None):
        if level is not None:
            self.level = level
        return self.level


registers = iso14443_cases.Registers()
registers.after_send = {0x04: 0x41}  # TxIRq and TimerIRq: the frame went out, nobody answered
chip = rc522.RC522(Spi(registers), Pin(), Pin(), sleep=registers.sleep_us)
assert chip.init() == 0x92
chip.check()
assert chip.scan() == [] and chip.radio_errors == 0
print("firmware rc522 over SPI ok")


class Reader:
    """A stand-in for the RC522: hands out queued UIDs."""

    def __init__(self):
        self.uids = []

    def init(self):
        return 0x92

    def check(self):
        pass

    def scan(self):
        uids, self.uids = self.uids, []
        return uids


class Link:
    """A stand-in for the USB console: what the board wrote, and what the host will send."""

    def __init__(self):
        self.written = bytearray()
        self.incoming = bytearray()

    def read(self):
        data = bytes(self.incoming)
        self.incoming = bytearray()
        return data

    def write(self, data):
        self.written.extend(data)

    def frames(self):
        got = p.FrameDecoder().feed(bytes(self.written))
        self.written = bytearray()
        return got


reader = Reader()
link = Link()
board = bridge.Board(reader, link, boot_id=0xB0071D)
board.start()
board.step()
sent = link.frames()
assert [f.kind for f in sent] == [p.HELLO], sent  # no host yet: one frame a second at most
assert p.parse_hello(sent[0].body)[1] == 0xB0071D
link.incoming.extend(p.encode_frame(p.Frame(p.SYNC, 1)))
board.step()
assert [f.kind for f in link.frames()] == [p.HELLO, p.HEARTBEAT]
print("hello ok")

reader.uids.append(b"\xde\xad\xbe\xef")
board.last_scan_ms = None
board.step()
tags = [f for f in link.frames() if f.kind == p.TAG]
assert len(tags) == 1 and p.parse_tag(tags[0].body) == (0xB0071D, p.FLAG_AT_BOOT, b"\xde\xad\xbe\xef")
assert len(board.pending) == 1
link.incoming.extend(p.encode_frame(p.Frame(p.ACK, tags[0].seq, p.ack_body(0xB0071D))))
link.incoming.extend(p.encode_frame(p.Frame(p.PING, 40, b"hi")))
board.step()
assert board.pending == []
results = [f for f in link.frames() if f.kind == p.RESULT]
assert len(results) == 1 and results[0].seq == 40 and p.parse_result(results[0].body) == (p.PING, 0, b"hi")
print("tag and ack ok")

reader.uids.append(b"\xde\xad\xbe\xef")  # the same card again at once: debounced
board.last_scan_ms = None
board.step()
assert [f for f in link.frames() if f.kind == p.TAG] == []
print("debounce ok")

reader.uids.extend([b"\x04\x01\x02\x03\x04\x05\x06", b"\x0a\x0b\x0c\x0d"])  # two cards in one scan
board.last_scan_ms = None
board.step()
tags = [p.parse_tag(f.body)[2] for f in link.frames() if f.kind == p.TAG]
assert tags == [b"\x04\x01\x02\x03\x04\x05\x06", b"\x0a\x0b\x0c\x0d"], tags
print("two cards in one scan ok")
print("ALL OK")
