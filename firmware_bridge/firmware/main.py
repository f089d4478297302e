"""Runs at every boot of the Pico: Marmite's card reader bridge (see bridge.py)."""

import bridge

bridge.run()
