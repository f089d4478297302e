"""Pot readers: the RC522 on the Pi's SPI, the simulated reader, and the readers people own (a USB keyboard
wedge, a PN532 module, an ACR122U or other PC/SC reader)."""
