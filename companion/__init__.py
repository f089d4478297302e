"""Marmite's pure core: cards, rules, game state, referee, journal and table service."""
