"""The levels a structured value names: one walk, read by the guard's standing and by
verify's judge (``beacon.lexicon.levels.level_numbers``)."""

from __future__ import annotations

from typing import Any

import pytest

from beacon.lexicon.levels import level_numbers


@pytest.mark.parametrize(
    ("value", "levels"),
    [
        pytest.param({"level_number": 3}, [3], id="a-field"),
        pytest.param(
            {"cards": [{"level_number": 3}, {"meta": {"level_number": 7}}]}, [3, 7], id="any-depth"
        ),
        pytest.param(({"level_number": 2},), [2], id="in-a-tuple"),
        pytest.param({"level_number": True}, [], id="never-a-flag"),
        pytest.param({"level_number": "3"}, [], id="never-a-string"),
        pytest.param({"level": 3, "title": "Level 9"}, [], id="only-its-own-field"),
        pytest.param("level_number", [], id="a-bare-string"),
    ],
)
def test_a_level_is_read_from_its_field_at_any_depth_and_nowhere_else(
    value: Any, levels: list[int]
) -> None:
    assert list(level_numbers(value)) == levels
