"""A planner that says READY beside its calls is not asked again only to say it."""

from __future__ import annotations

import pytest

from beacon.loop.gather import said_ready


@pytest.mark.parametrize("content", ["READY", " ready\n", "READY.", "Ready!"])
def test_ready_beside_the_calls_ends_the_planning(content: str) -> None:
    assert said_ready(content)


@pytest.mark.parametrize(
    "content",
    ["", "I will check the photos first.", "READY? not yet", "NOT READY", "READY READY"],
)
def test_anything_else_beside_the_calls_asks_the_planner_again(content: str) -> None:
    assert not said_ready(content)
