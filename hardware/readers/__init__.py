"""Built-in readers; importing this package registers them."""

from firmware_bridge import host_reader  # noqa: F401  (registers "usb")
from hardware.readers import rc522, sim  # noqa: F401
