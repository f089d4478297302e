"""Pot readers (RC522 on SPI, USB bridge, simulated), GPIO feedback and controls, and their fakes."""
