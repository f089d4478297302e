"""The shared ISO 14443-3 core under CPython: the portable checks, and piles drawn by hypothesis."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import iso14443 as iso
from tests.hardware import iso14443_cases as cases


@pytest.mark.parametrize("check", cases.CHECKS, ids=lambda check: check.__name__)
def test_portable_check(check: Callable[[], None]) -> None:
    check()


uids = st.one_of(
    st.binary(min_size=4, max_size=4), st.binary(min_size=7, max_size=7), st.binary(min_size=10, max_size=10)
).filter(lambda u: all(part[0] != iso.CASCADE_TAG for part in iso.uid_levels(u)[1:]) and u[0] != iso.CASCADE_TAG)


@settings(max_examples=200, deadline=None)
@given(st.lists(uids, min_size=1, max_size=5, unique=True), st.booleans())
def test_one_scan_reads_every_card_in_the_field(pile: list[bytes], parity: bool) -> None:
    field = cases.Field([cases.Card(uid) for uid in pile], parity_with_collision=parity)
    read, errors = iso.scan(field)
    assert sorted(read) == sorted(pile) and errors == []
    assert iso.scan(field) == ([], [])
