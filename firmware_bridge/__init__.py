"""Firmware bridge: the Pico firmware and the host side of its USB-serial protocol."""
