"""CPython stand-ins for MicroPython's `time.ticks_*` and `sleep_*`, for tests and benchmarks.

Never copied to the Pico: there the firmware imports the real ones from `time`.
"""

import time

_PERIOD = 1 << 30  # MicroPython's ticks wrap at 2**30 on the RP2040


def ticks_ms():
    """Milliseconds from an arbitrary point, wrapping like MicroPython's."""
    return int(time.monotonic() * 1000) % _PERIOD


def ticks_add(ticks, delta):
    """`ticks` moved by `delta` ms, wrapped."""
    return (ticks + delta) % _PERIOD


def ticks_diff(end, start):
    """Signed `end - start` across a wrap."""
    diff = (end - start) % _PERIOD
    return diff - _PERIOD if diff >= _PERIOD // 2 else diff


def sleep_ms(ms):
    """Sleep `ms` milliseconds."""
    time.sleep(ms / 1000)


def sleep_us(us):
    """Sleep `us` microseconds."""
    time.sleep(us / 1_000_000)
