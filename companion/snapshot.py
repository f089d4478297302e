"""Copies of a game's plain records, for the referee's undo marks (far cheaper than `copy.deepcopy`).

A State made of lists, dicts, sets, tuples and dataclasses over immutable values copies itself with
`copy_records`, passing one `memo` for the whole State so that a record reached twice (a step that
is both the current one and the last of its round) stays one record in the copy. A value of any
other type is refused (TypeError), so a new kind of record cannot be shared by mistake between a
mark and the live state.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any, TypeVar

T = TypeVar("T")
ATOMS: frozenset[type] = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...] | None] = {}  # mutable dataclass → its fields; None: frozen


def copy_records(value: T, memo: dict[int, Any]) -> T:
    """An independent copy of `value`; immutable parts (atoms, enums, frozen dataclasses) are shared."""
    kind = type(value)
    if kind in ATOMS:
        return value
    done = memo.get(id(value))
    if done is not None:
        return done  # type: ignore[no-any-return]
    copied: Any
    if kind is list:
        copied = [item if type(item) in ATOMS else copy_records(item, memo) for item in value]  # type: ignore[attr-defined]
    elif kind is dict:
        copied = {key: item if type(item) in ATOMS else copy_records(item, memo)
                  for key, item in value.items()}  # type: ignore[attr-defined]
    elif kind is set or kind is frozenset:
        copied = kind(value)  # type: ignore[call-arg]  # members are hashable, so immutable records
    elif kind is tuple:
        copied = tuple(copy_records(item, memo) for item in value)  # type: ignore[attr-defined]
    else:
        names = _fields(kind)
        if names is None:
            return value
        copied = object.__new__(kind)
        for name in names:
            item = getattr(value, name)
            object.__setattr__(copied, name, item if type(item) in ATOMS else copy_records(item, memo))
    memo[id(value)] = copied
    return copied  # type: ignore[no-any-return]


def copy_last(records: list[T], memo: dict[int, Any]) -> list[T]:
    """A game's round records: the last one copied, the earlier ones (settled, never changed again) shared."""
    return [*records[:-1], copy_records(records[-1], memo)] if records else []


def _fields(kind: type) -> tuple[str, ...] | None:
    """A dataclass's field names (None when frozen or an enum: shared as is); TypeError for any other type."""
    if kind not in _FIELDS:
        if issubclass(kind, Enum):
            _FIELDS[kind] = None
        elif not dataclasses.is_dataclass(kind):
            raise TypeError(f"cannot snapshot a {kind.__name__}: not a plain record")
        else:
            params = getattr(kind, "__dataclass_params__", None)
            frozen = bool(params is not None and params.frozen)
            _FIELDS[kind] = None if frozen else tuple(field.name for field in dataclasses.fields(kind))
    return _FIELDS[kind]
