"""The `marmite` command: the composition root that wires the packages together."""
