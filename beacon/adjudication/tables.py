"""Transition tables as data: every (state, event) pair becomes one row.

Only the legal moves and the illegal orderings worth a name are written out;
every other pair is an illegal row that leaves the state where it was. The
subset gate, the frame FSM and the harness lifecycle are all built this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from beacon.adjudication.errors import AdjudicationError

S = TypeVar("S")
E = TypeVar("E")
R = TypeVar("R")


class DuplicateRowId(AdjudicationError):
    """Two rows of one table share an id: a row id must name exactly one row."""

    def __init__(self, row_id: str) -> None:
        super().__init__(f"duplicate transition-table row id {row_id!r}")
        self.row_id = row_id


def build_rows(
    states: Iterable[S],
    events: Iterable[E],
    legal: Mapping[tuple[S, E], tuple[str, S]],
    named_illegal: Mapping[tuple[S, E], str],
    make: Callable[[str, S, E, S, bool], R],
) -> tuple[R, ...]:
    """``legal`` maps (state, event) to (row id, target state); row ids are unique."""
    event_list = list(events)
    rows: list[R] = []
    seen: set[str] = set()
    for state in states:
        for event in event_list:
            if (state, event) in legal:
                row_id, target = legal[(state, event)]
                rows.append(make(row_id, state, event, target, True))
            else:
                row_id = named_illegal.get((state, event), f"{state}-{event}-illegal")
                rows.append(make(row_id, state, event, state, False))
            if row_id in seen:
                raise DuplicateRowId(row_id)
            seen.add(row_id)
    return tuple(rows)
