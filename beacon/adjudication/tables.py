"""Transition tables as data: every (state, event) pair becomes one row.

Only the legal moves and the illegal orderings worth a name are written out;
every other pair is an illegal row that leaves the state where it was. The
subset gate, the frame FSM and the harness lifecycle are all built this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

S = TypeVar("S")
E = TypeVar("E")
R = TypeVar("R")


def build_rows(
    states: Iterable[S],
    events: Iterable[E],
    legal: Mapping[tuple[S, E], tuple[str, S]],
    named_illegal: Mapping[tuple[S, E], str],
    make: Callable[[str, S, E, S, bool], R],
) -> tuple[R, ...]:
    """``legal`` maps (state, event) to (row id, target state)."""
    event_list = list(events)
    rows: list[R] = []
    for state in states:
        for event in event_list:
            if (state, event) in legal:
                row_id, target = legal[(state, event)]
                rows.append(make(row_id, state, event, target, True))
            else:
                row_id = named_illegal.get((state, event), f"{state}-{event}-illegal")
                rows.append(make(row_id, state, event, state, False))
    return tuple(rows)
