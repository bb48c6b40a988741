"""Two small readers at the edges, tested where they live: the ``Accept`` negotiation
(406 only when nothing the route serves is admitted) and the item reader of untyped
results shared by the upstream audit and the contract adapter."""

from __future__ import annotations

import pytest

from beacon.server.negotiation import EVENT_STREAM, JSON, admits
from beacon.upstream.items import items_from_text, largest_array, resolve


@pytest.mark.parametrize(
    ("accept", "media", "admitted"),
    [
        (None, JSON, True),  # no Accept admits everything
        ("*/*", EVENT_STREAM, True),
        ("application/json", EVENT_STREAM, False),
        ("text/event-stream, application/json;q=0.9", JSON, True),
        ("application/*", JSON, True),
        ("application/json;q=0", JSON, False),  # q=0 refuses its type
        ("*/*, application/json;q=0", JSON, False),  # the most specific range decides
        ("garbage", JSON, True),  # only malformed ranges: as if absent
        ("image/png", JSON, False),
    ],
)
def test_an_accept_admits_a_media_type_by_its_most_specific_range(
    accept: str | None, media: str, admitted: bool
) -> None:
    assert admits(accept, media) is admitted


@pytest.mark.parametrize(
    ("text", "count", "how"),
    [
        ('[{"id": 1}, {"id": 2}, {"id": 3}]', 3, "an array"),
        ('{"entries": [1, 2], "note": "x"}', 2, "array at /entries"),
        ("1. first\n2. second\n3. third\n4. fourth", 4, "numbered or bulleted"),
        ("Allowed directories:\n/srv/a\n/srv/b", 2, "lines"),
        ("| name | n |\n|---|---|\n| a | 1 |\n| b | 2 |", 2, "table rows"),
        ("Commit: a1\nAuthor: x\n\nCommit: b2\nAuthor: y\n", 2, "records"),
        ("[{'name': 'items'}]", 1, "Python literal"),
        ("   ", 0, "empty"),
    ],
)
def test_the_items_of_a_text_result_are_counted_and_the_evidence_says_how(
    text: str, count: int, how: str
) -> None:
    items, said = items_from_text([text], 1)
    assert len(items) == count and how in said, (items, said)


def test_a_pointer_resolves_into_objects_and_arrays_and_says_when_it_does_not() -> None:
    raw = {"structuredContent": {"a/b": {"list": [10, 20]}}}
    assert resolve(raw, "/structuredContent/a~1b/list/1") == (True, 20)
    assert resolve(raw, "/structuredContent/missing") == (False, None)
    assert largest_array(raw["structuredContent"], ("structuredContent",)) == (
        [10, 20],
        "/structuredContent/a~1b/list",
    )
