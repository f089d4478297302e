"""Checks of the shared ISO 14443-3 core, written once and run by both interpreters.

CPython runs them from test_iso14443_core.py, MicroPython's Unix port from
tests/firmware_bridge/micropython_script.py. So this file is portable Python too: no dataclasses, no typing,
no f-strings. `Field` is a PCD at the frame level (cards answering as ISO 14443-3 says, their answers merged
on the air as an MFRC522 receives them: CollErr with ParityErr, CollPos), `Registers` a transport at the
register level for `mfrc522_pcd`.
"""

# ruff: noqa: RUF005  (`a + [b]`: the portable spelling for MicroPython)

try:
    from hardware import iso14443 as iso
    from hardware import mfrc522_pcd
except ImportError:  # MicroPython: the modules sit on sys.path as on the Pico
    import iso14443 as iso
    import mfrc522_pcd

IDLE, READY, ACTIVE, HALT = "idle", "ready", "active", "halt"


class Card:
    """A PICC with a UID, following the ISO 14443-3 state machine."""

    def __init__(self, uid, atqa=(0x44, 0x00), sak=0x00):
        self.uid = bytes(uid)
        self.atqa = atqa
        self.sak = sak
        self.state = IDLE
        self.level = 0

    def levels(self):
        return [part + [iso.bcc(part)] for part in iso.uid_levels(self.uid)]

    def answer(self, data, nbits):
        """Air bits of the answer to a frame, or None."""
        if nbits == 7:
            if (data[0] == iso.REQA and self.state == IDLE) or (data[0] == iso.WUPA and self.state in (IDLE, HALT)):
                self.state, self.level = READY, 0
                return iso.to_bits(self.atqa)
            if self.state in (READY, ACTIVE):
                self.state = IDLE  # an unexpected command: back to IDLE, silent
            return None
        if self.state == READY and data[0] == iso.SEL_CL[self.level]:
            mine = self.levels()[self.level]
            if data[1] == iso.NVB_SELECT:
                if nbits != 72 or not iso.crc_ok(data) or data[2:7] != mine:
                    return None
                last = self.level == len(self.levels()) - 1
                if last:
                    self.state = ACTIVE
                else:
                    self.level += 1
                return iso.to_bits(iso.with_crc([self.sak if last else iso.SAK_CASCADE]))
            known = ((data[1] >> 4) - 2) * 8 + (data[1] & 0x0F)
            if iso.to_bits(data[2:], known) != iso.to_bits(mine, known):
                return None
            return iso.to_bits(mine)[known:]
        if self.state == ACTIVE and list(data[:2]) == list(iso.HLTA) and iso.crc_ok(data):
            self.state = HALT
            return None
        if self.state in (READY, ACTIVE):
            self.state = IDLE
        return None


class Field:
    """A PCD whose field holds `cards`: answers merged as the MFRC522 receives them."""

    def __init__(self, cards, parity_with_collision=True):
        self.cards = cards
        self.parity_with_collision = parity_with_collision
        self.exchanges = 0

    def transceive(self, data, tx_last_bits=0, rx_align=0, expect_bits=0):
        self.exchanges += 1
        nbits = len(data) * 8 - (8 - tx_last_bits) % 8
        answers = [a for a in [card.answer(list(data), nbits) for card in self.cards] if a is not None]
        if not answers:
            return None
        bits = answers[0]
        collision = None
        for other in answers[1:]:
            for index in range(min(len(bits), len(other))):
                if bits[index] != other[index]:
                    if collision is None or index < collision:
                        collision = index
                    break
        errors = 0
        position = None
        if collision is not None:
            bits = bits[:collision] + [0] * (len(bits) - collision)  # ValuesAfterColl = 0
            position = rx_align + collision + 1
            position = -1 if position > 32 else position
            if self.parity_with_collision:
                errors |= iso.ERR_PARITY  # the collided bit breaks its byte's parity too
        return iso.from_bits(bits, rx_align), rx_align + len(bits), position, errors

    def send(self, data):
        self.exchanges += 1
        for card in self.cards:
            card.answer(list(data), len(data) * 8)


def uid(size, seed):
    """A valid UID of `size` bytes (no cascade tag where it would be read as one)."""
    out = [0x04] + [(seed * 37 + i * 11) % 256 for i in range(size - 1)]
    return bytes([b if b != iso.CASCADE_TAG else 0x87 for b in out])


def check_crc_vectors():
    assert iso.crc_a([0x50, 0x00]) == (0x57, 0xCD)
    assert iso.crc_ok(iso.with_crc([0x93, 0x70, 1, 2, 3, 4, 4]))
    assert iso.from_bits(iso.to_bits([0xA5, 0x3C])) == [0xA5, 0x3C]


def check_every_card_of_a_pile_is_read_in_one_scan():
    piles = [
        [uid(4, 1)],
        [uid(7, 2), uid(4, 3)],
        [uid(7, 4), uid(7, 5), uid(10, 6), uid(4, 7)],
        [bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]), bytes([0x04, 0xA1, 0xB2, 0xC3, 0x99, 0x88, 0x77])],
        [bytes([0xDE, 0xAD, 0xBE, 0xEF]), bytes([0xDE, 0xAD, 0xBE, 0x6F])],  # only the last bit of byte 4 differs
    ]
    for pile in piles:
        field = Field([Card(u) for u in pile])
        uids, errors = iso.scan(field)
        assert sorted(uids) == sorted(pile), (pile, uids, errors)
        assert errors == [], errors
        assert iso.scan(field) == ([], [])  # all halted


def check_a_collision_is_resolved_before_parity_counts():
    pile = [bytes([0x11, 0x22, 0x33, 0x44]), bytes([0x11, 0x22, 0x33, 0x45])]
    field = Field([Card(u) for u in pile], parity_with_collision=True)
    assert sorted(iso.scan(field)[0]) == pile


def check_a_parity_error_alone_is_a_radio_error():
    class Noisy(Field):
        def transceive(self, data, tx_last_bits=0, rx_align=0, expect_bits=0):
            answer = Field.transceive(self, data, tx_last_bits, rx_align, expect_bits)
            if answer is not None and data[0] in iso.SEL_CL and data[1] != iso.NVB_SELECT:
                return answer[0], answer[1], None, iso.ERR_PARITY
            return answer

    field = Noisy([Card(uid(4, 9))])
    try:
        iso.read_uid(field)
    except iso.RadioError as error:
        assert "receive error" in str(error)
    else:
        raise AssertionError("a parity error without a collision must not give a UID")


def check_a_damaged_read_is_tried_again_in_the_same_scan():
    class OnceDamaged(Field):
        damaged = False

        def transceive(self, data, tx_last_bits=0, rx_align=0, expect_bits=0):
            answer = Field.transceive(self, data, tx_last_bits, rx_align, expect_bits)
            if answer is not None and not self.damaged and data[0] in iso.SEL_CL and data[1] != iso.NVB_SELECT:
                self.damaged = True
                return answer[0], answer[1], None, iso.ERR_PARITY
            return answer

    pile = [uid(7, 11), uid(4, 12)]
    uids, errors = iso.scan(OnceDamaged([Card(u) for u in pile]))
    assert sorted(uids) == sorted(pile) and len(errors) == 1, (uids, errors)


class Registers:
    """A register-level transport for `mfrc522_pcd`: writes are kept, status reads come from `status`."""

    def __init__(self, version=0x92):
        self.regs = [0] * 64
        self.regs[mfrc522_pcd.VERSION] = version
        self.regs[mfrc522_pcd.RF_CFG] = 0x48
        self.fifo = []
        self.slept = 0
        self.after_send = None  # register values that land when Transceive starts

    def write(self, reg, values):
        if reg == mfrc522_pcd.FIFO_DATA:
            return
        for value in values:
            if reg == mfrc522_pcd.RF_CFG:
                value = (value & 0x70) | 0x08  # reserved bits: this silicon keeps its own
            if reg != mfrc522_pcd.VERSION:
                self.regs[reg] = value
        if reg == mfrc522_pcd.BIT_FRAMING and values[0] & 0x80 and self.after_send:
            for key in self.after_send:
                self.regs[key] = self.after_send[key]

    def read(self, regs):
        out = []
        for reg in regs:
            if reg == mfrc522_pcd.FIFO_DATA:
                out.append(self.fifo.pop(0) if self.fifo else 0)
            elif reg == mfrc522_pcd.FIFO_LEVEL:
                out.append(len(self.fifo))
            else:
                out.append(self.regs[reg])
        return out

    def sleep_us(self, us):
        self.slept += us


def check_the_pcd_reports_collision_position_and_parity():
    bus = Registers()
    pcd = mfrc522_pcd.MFRC522Pcd(bus, 1000, 48)
    assert pcd.configure() == 0x92  # reserved RFCfgReg bits that read back differently do not fail
    assert bus.regs[mfrc522_pcd.RF_CFG] & 0x70 == 0x70
    bus.fifo = [0x11, 0x22, 0x00]
    bus.after_send = {
        mfrc522_pcd.COMM_IRQ: mfrc522_pcd.RX_IRQ | mfrc522_pcd.ERR_IRQ,
        mfrc522_pcd.ERROR: mfrc522_pcd.COLL_ERR | iso.ERR_PARITY,
        mfrc522_pcd.COLL: 19,
        mfrc522_pcd.CONTROL: 3,
    }
    data, nbits, collision, errors = pcd.transceive([0x93, 0x20], 0, 0, 40)
    assert (data, nbits, collision, errors) == ([0x11, 0x22, 0x00], 19, 19, iso.ERR_PARITY)
    bus.fifo = [0x11]
    bus.after_send[mfrc522_pcd.COLL] = 0x20  # CollPosNotValid
    assert pcd.transceive([0x93, 0x20], 0, 0, 40)[2] == -1


def check_the_pcd_refuses_a_missing_chip_and_impossible_timeouts():
    for version in (0x00, 0xFF):
        try:
            mfrc522_pcd.MFRC522Pcd(Registers(version)).configure()
        except mfrc522_pcd.ChipError as error:
            assert "no RC522" in str(error)
        else:
            raise AssertionError("no chip must be a ChipError")
    for timeout_us in (100, 2_000_000):
        try:
            mfrc522_pcd.MFRC522Pcd(Registers(), timeout_us)
        except ValueError as error:
            assert "timeout" in str(error)
        else:
            raise AssertionError("an impossible timeout must be refused")


CHECKS = [
    check_crc_vectors,
    check_every_card_of_a_pile_is_read_in_one_scan,
    check_a_collision_is_resolved_before_parity_counts,
    check_a_parity_error_alone_is_a_radio_error,
    check_a_damaged_read_is_tried_again_in_the_same_scan,
    check_the_pcd_reports_collision_position_and_parity,
    check_the_pcd_refuses_a_missing_chip_and_impossible_timeouts,
]


def run_all():
    """Run every check; returns their names."""
    for check in CHECKS:
        check()
    return [check.__name__ for check in CHECKS]
