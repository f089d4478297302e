"""The drill tests' helpers: a real `marmite run` and loopback HTTP clients (from benchmarks/loopback_clients.py,
which the network benchmark uses too), and the soak switch."""

from __future__ import annotations

import os

from benchmarks.loopback_clients import PIN, ROOT, Display, Running, free_port, loopback, parse_response

SOAK = os.environ.get("MARMITE_SOAK") == "1"
"""`MARMITE_SOAK=1 pytest tests/drill -m slow` runs the long versions."""

__all__ = ["PIN", "ROOT", "SOAK", "Display", "Running", "free_port", "loopback", "parse_response"]
