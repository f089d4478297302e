"""Pot readers on the Raspberry Pi: the RC522 on SPI, and the simulated reader."""
