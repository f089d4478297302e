"""Whatever a table's presence says (it is another machine's JSON), the hub keeps a plausible journal length
and can always open the next night; whatever the hub's ack says, a table's link keeps going."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from club.hub import ClubHub, TableState
from club.store import MAX_SEQ, Store
from club.topics import ClubURL
from marmite.games import GAMES

_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                   max_size=3), max_leaves=8)
_presences = st.fixed_dictionaries({}, optional={"state": _values, "last_seq": st.integers() | _values,
                                                 "conflict": _values, "readers": _values})


@settings(max_examples=150, deadline=None)
@given(body=_presences, live=st.booleans())
def test_any_presence_leaves_the_night_openable(body: dict[str, Any], live: bool) -> None:
    with tempfile.TemporaryDirectory() as directory:
        hub = ClubHub(Store.open(Path(directory)), ClubURL("127.0.0.1", 1, "hub", "unused", "club"), GAMES,
                      tables=1, console=lambda line: None)  # never started: its judgement alone
        try:
            state = hub.tables.setdefault(1, TableState())
            hub._presence(1, state, json.dumps(body).encode(), live=live)
            assert 0 <= state.last_seq <= MAX_SEQ
            assert hub.open_next_night() == 2
            assert not hub.store._db.in_transaction
        finally:
            hub.cards.close()
            hub.store.close()
