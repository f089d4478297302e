"""The `rc522` reader: an RC522 on the Pi's SPI bus, polled by a thread that only reads.

The thread turns polls into `TagSeen` (debounced per UID) and `ReaderHealth` (on every change of health)
on the queue. Repeated chip errors lead to a soft reset, then a pulse on the reset pin. Any exception
(an SPI error, rpi-lgpio's `lgpio.error`, a bug) becomes a health report and a reopen with backoff:
the thread never dies while the table runs.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.reader_words import Words, words
from companion.reads import ReaderHealth, ReaderMessage, ReaderQueue, TagSeen
from hardware.diagnose import explain_words
from hardware.rc522 import ChipError, RC522Config, RC522Driver
from hardware.tag_memory import read_code_with, write_tag_code

RETRY_S = 2.0  # first wait before another attempt to bring back a chip that does not answer
MAX_RETRY_S = 30.0  # the wait doubles after each failed attempt, up to this
AFTER_RESET_S = 0.5  # a known card read this soon after a reset (or a reopen) was resting in the field
RADIO_ERROR_POLLS = 20  # polls in a row with radio errors (0.1 s at 5 ms) before they are reported
MFRC522_LOGGER = "mfrc522Logger"  # each mfrc522.MFRC522() adds a handler to this logger
MFRC522_LOG_LEVEL = "CRITICAL"  # its "Error while reading!" lines, one per failed exchange: ours report failures


class RC522Reader:
    """A pot reader on an RC522. `gpio` is the `RPi.GPIO` module to use (imported at open when not given)."""

    name = "rc522"

    def __init__(
        self,
        config: RC522Config | None = None,
        *,
        gpio: Any = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config or RC522Config()
        self._gpio = gpio
        self._clock = clock
        self._sleep = sleep
        self._driver: RC522Driver | None = None
        self._mfrc522: Any = None
        self._healthy: bool | None = None
        self._chip_errors = 0
        self._retry_at = 0.0
        self._retry_s = RETRY_S
        self._radio_streak = 0
        self._last_seen: dict[str, float] = {}
        self._reset_at: float | None = None
        self.resets = 0
        self.radio_errors = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._chip_lock = threading.Lock()  # one user of the chip at a time: the poll, or a tag write
        self._codes = False
        self._known: Callable[[str], bool] = lambda uid: False

    # --- the thread ------------------------------------------------------------------------

    def start(self, out: ReaderQueue) -> None:
        """Open the chip and poll it in a background thread until `close()`."""
        if self._thread is not None:
            raise RuntimeError("this reader is already started")
        self._thread = threading.Thread(target=self._run, args=(out,), name="rc522-reader", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and let go of SPI and the reset pin; safe to call twice."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        if not self._closed:
            self._closed = True
            self._release()

    def _run(self, out: ReaderQueue) -> None:
        while not self._stop.is_set():
            messages, pause = self.cycle()
            for message in messages:
                out.put(message)
            self._stop.wait(pause)

    def cycle(self) -> tuple[list[ReaderMessage], float]:
        """What the thread does once: a step that cannot raise, and the pause until the next one.

        Polls start `poll_ms` apart; a poll that read cards and took longer is followed at once by the next.
        """
        began = self._clock()
        with self._chip_lock:  # a tag-memory write waits for the poll under way, never cuts into it
            try:
                messages = self.step()
            except Exception as error:
                messages = self._fail(error)
        return messages, max(0.0, self.config.poll_ms / 1000 - (self._clock() - began))

    # --- one step, for the thread and for tests --------------------------------------------

    def step(self) -> list[ReaderMessage]:
        """One poll (or one recovery attempt): the messages it produces."""
        now = self._clock()
        if self._driver is None:
            return self._open(now) if now >= self._retry_at else []
        result = self._driver.poll()
        self.radio_errors += len(result.radio_errors)
        messages: list[ReaderMessage] = [self._seen(uid) for uid in result.uids if self._fresh(uid, now)]
        if result.chip_error is None:
            self._chip_errors = 0
            return messages + self._radio_health(result.radio_errors)
        self._chip_errors += 1
        if self._chip_errors >= self.config.max_errors:
            messages.extend(self._recover(result.chip_error))
        return messages

    # --- tag memory (self-describing decks) -------------------------------------------------

    def report_codes(self, on: bool) -> None:
        """companion.reads.TagMemory: read each new tag's memory and report its code in `TagSeen.card`."""
        self._codes = on

    def skip_codes_of(self, known: Callable[[str], bool]) -> None:
        """companion.reads.KnownTags: no memory read for a UID `known` says the deck knows (only the
        codes of tags the deck lacks are ever used); `known` is called from the reader's thread."""
        self._known = known

    def write_card(self, uid: str, code: str) -> bool:
        """companion.reads.TagWriter: between two polls, write `code` on tag `uid` and read it back."""
        with self._chip_lock:
            if self._driver is None or self._mfrc522 is None:
                return False
            try:
                return write_tag_code(self._mfrc522, uid, code, self._sleep)
            except Exception as error:  # an SPI error mid-write: the poll reports the chip, the write failed
                logging.getLogger(__name__).warning("tag write failed: %s", error)
                return False
            finally:
                self._restore()

    def _seen(self, uid: str) -> TagSeen:
        """A new tag, with the code its memory holds when codes are reported and the deck lacks the tag.

        Called once the scan found no further card, so the read never delays another card's; it goes
        through the poller's own core and settings (one receive-timer period at most per exchange when
        the tag has gone), so nothing needs restoring after. None if unreadable."""
        if not self._codes or self._driver is None or self._known(uid):
            return TagSeen(uid, self.name)
        try:
            code = read_code_with(self._driver.chip_pcd, bytes.fromhex(uid))
        except Exception:  # the tag is reported anyway; the next poll reports the chip if it is at fault
            code = None
        return TagSeen(uid, self.name, card=code)

    def _restore(self) -> None:
        """The poller's settings again after a memory exchange (the field stays on: nothing wakes)."""
        if self._driver is not None:
            with contextlib.suppress(ChipError):
                self._driver.configure()

    def _fresh(self, uid: str, now: float) -> bool:
        """Same-card debounce: a UID seen again within `debounce_s` of its last sighting is the same passage.

        A reset switches the field off, which wakes the halted card resting on the antenna: a known UID
        read within `AFTER_RESET_S` of a reset is that card, not a new passage.
        """
        last = self._last_seen.get(uid)
        self._last_seen[uid] = now
        if last is not None and self._reset_at is not None and now - self._reset_at < AFTER_RESET_S:
            return False
        return last is None or now - last >= self.config.debounce_s

    def _radio_health(self, errors: list[str]) -> list[ReaderMessage]:
        """Radio errors poll after poll (a card stuck at the edge of the field, metal, a bad antenna) are reported."""
        if not errors:
            streak, self._radio_streak = self._radio_streak, 0
            return self._health(True, words("rc522_radio_ok")) if streak >= RADIO_ERROR_POLLS else []
        self._radio_streak += 1
        if self._radio_streak == RADIO_ERROR_POLLS:
            return self._health(False, words("rc522_radio", why=errors[-1]))
        return []

    def _fail(self, error: Exception, state: str = "errors", said: Words | None = None) -> list[ReaderMessage]:
        """Whatever went wrong: let go of the chip, report it, and try again after a growing wait."""
        self._release()
        self._retry_at = self._clock() + self._retry_s
        self._retry_s = min(MAX_RETRY_S, self._retry_s * 2)
        return self._health(False, said or _explain(error), state)

    def _open(self, now: float) -> list[ReaderMessage]:
        try:
            gpio = self._gpio or importlib.import_module("RPi.GPIO")
            if gpio.getmode() is None:
                gpio.setmode(gpio.BCM)
            elif gpio.getmode() != gpio.BCM:
                raise ValueError("GPIO numbering is already set to BOARD; Marmite uses BCM numbers")
            self._gpio = gpio
            self._mfrc522 = _new_mfrc522(importlib.import_module("mfrc522"), gpio, self.config)
            driver = RC522Driver(self._mfrc522, self.config, sleep=self._sleep)
            driver.configure()
        except Exception as error:
            return self._fail(error, "missing")  # no SPI, no GPIO, no chip answering: nothing to read with
        self._driver = driver
        self._retry_s = RETRY_S
        self._reset_at = self._clock()  # opening switched the field on: a card resting there wakes up
        return self._health(True, words("ready", what=driver.chip_name))

    def _recover(self, reason: str) -> list[ReaderMessage]:
        """Soft reset; if the chip still misbehaves, a pulse on its reset pin; otherwise report it down."""
        assert self._driver is not None
        self._chip_errors = 0
        self.resets += 1
        messages = self._health(False, words("rc522_locked", why=reason))
        for reset in (self._driver.soft_reset, self._hard_reset):
            try:
                reset()
            except ChipError:
                continue
            self._reset_at = self._clock()
            return messages + self._health(True, words("rc522_back", what=self._driver.chip_name))
        return messages + self._fail(ChipError("the RC522 does not answer even after a reset: check its wiring"),
                                     said=words("rc522_dead"))

    def _hard_reset(self) -> None:
        assert self._driver is not None
        self._gpio.output(self.config.reset_pin, 0)
        self._sleep(0.01)
        self._gpio.output(self.config.reset_pin, 1)
        self._sleep(0.05)
        self._driver.configure()

    def _release(self) -> None:
        """Give SPI and the reset pin back; never raises (it runs on the way out of every failure)."""
        self._driver = None
        if self._mfrc522 is not None:
            with contextlib.suppress(Exception):
                self._mfrc522.spi.close()
            self._mfrc522 = None
            with contextlib.suppress(Exception):
                self._gpio.cleanup(self.config.reset_pin)  # only our pin: the panel's pins stay set up

    def _health(self, ok: bool, said: Words, state: str = "errors") -> list[ReaderMessage]:
        changed = ok != self._healthy or not ok
        self._healthy = ok
        if not changed:
            return []
        cfg = self.config
        info = (
            ("state", "ok" if ok else state),  # ok, missing or errors, as every reader says it
            ("spi", f"{cfg.bus}.{cfg.device} at {cfg.speed_hz // 1000} kHz"),
            ("gain", f"{cfg.gain_db} dB"),
            ("resets", str(self.resets)),
        )
        return [ReaderHealth(self.name, ok, str(said), info, words=said)]


def _explain(error: Exception) -> Words:
    """Words a person wiring a Pi can act on: the driver's own for chip and setting errors, else the
    one-line explanation and fix that `marmite reader test` and `--panel` give too."""
    if isinstance(error, ChipError):
        return words("rc522_chip", why=str(error))
    if isinstance(error, ValueError):
        return words("rc522_settings", why=str(error))
    return explain_words(error)


def _new_mfrc522(module: Any, gpio: Any, cfg: RC522Config) -> Any:
    """An `mfrc522.MFRC522` for `cfg`, without the logging handler its constructor adds at every call.

    Left alone, each retry while the chip is missing would keep one more handler (and its lock) for ever.
    Its logger is set to CRITICAL: it logs an error line for every exchange that fails (a tag lifted
    mid-write), which would flood the service log; the reader reports failures itself, once.
    """
    logger = logging.getLogger(MFRC522_LOGGER)
    before = list(logger.handlers)
    try:
        return module.MFRC522(
            bus=cfg.bus, device=cfg.device, spd=cfg.speed_hz, pin_mode=gpio.BCM, pin_rst=cfg.reset_pin,
            debugLevel=MFRC522_LOG_LEVEL,
        )
    finally:
        for handler in [h for h in logger.handlers if h not in before]:
            logger.removeHandler(handler)
            handler.close()
