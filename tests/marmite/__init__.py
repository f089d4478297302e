"""Tests of the wiring between packages."""
