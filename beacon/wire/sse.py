"""Server-sent events, read incrementally (the turn stream's framing)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SseEvent:
    event: str
    id: str | None
    data: str

    def json(self) -> dict[str, Any]:
        parsed = json.loads(self.data)
        assert isinstance(parsed, dict), "every Beacon frame's data is a JSON object"
        return parsed


def parse_sse(lines: Iterable[str]) -> Iterator[SseEvent]:
    """Lines without their terminators → events (blank line dispatches)."""
    event: str = "message"
    event_id: str | None = None
    data: list[str] = []
    for raw in lines:
        line = raw.rstrip("\r")
        if not line:
            if data:
                yield SseEvent(event, event_id, "\n".join(data))
            event, event_id, data = "message", None, []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            event = value
        elif name == "id":
            event_id = value
        elif name == "data":
            data.append(value)
    if data:
        yield SseEvent(event, event_id, "\n".join(data))
