"""Marmite tests."""
