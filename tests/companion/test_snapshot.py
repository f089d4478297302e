"""The records copier behind the referee's undo marks: independent, aliasing kept, strangers refused."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.snapshot import copy_last, copy_records


@dataclass(frozen=True, slots=True)
class Fixed:
    value: int


@dataclass(slots=True)
class Step:
    cards: list[str] = field(default_factory=list)
    fixed: list[Fixed] = field(default_factory=list)


def test_a_copy_is_independent_and_keeps_one_record_reached_twice() -> None:
    step = Step(["a"], [Fixed(1)])
    live: dict[str, Any] = {"steps": [step], "current": step, "seen": {"a"}, "pair": (1, [2])}
    memo: dict[int, Any] = {}
    copied = {key: copy_records(value, memo) for key, value in live.items()}
    assert copied == live
    assert copied["current"] is copied["steps"][0] and copied["current"] is not step
    assert copied["steps"][0].fixed[0] is step.fixed[0]  # frozen: shared
    step.cards.append("b")
    live["seen"].add("b")
    live["pair"][1].append(3)
    assert copied["current"].cards == ["a"] and copied["seen"] == {"a"} and copied["pair"] == (1, [2])


def test_settled_rounds_are_shared_and_the_last_is_copied() -> None:
    rounds = [Step(["x"]), Step(["y"])]
    copied = copy_last(rounds, {})
    assert copied[0] is rounds[0] and copied[1] is not rounds[1] and copied == rounds
    assert copy_last([], {}) == []


def test_a_value_that_is_not_a_plain_record_is_refused() -> None:
    class Opaque:
        pass

    with pytest.raises(TypeError, match="Opaque"):
        copy_records([Opaque()], {})
