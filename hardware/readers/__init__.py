"""Built-in readers; importing this package registers them."""

from hardware.readers import sim  # noqa: F401
