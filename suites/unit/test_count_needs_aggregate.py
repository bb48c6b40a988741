"""A "how many …?" question needs the single-value aggregate, in any locale: a caller
whose plan lacks it gets a denial naming what is missing, not "which project?"."""

from __future__ import annotations

import pytest

from beacon.loop.intent import needed_tools


@pytest.mark.parametrize(
    "question",
    [
        pytest.param("How many panoramas are in Harbor Tower?", id="en"),
        pytest.param("Wie viele Panoramen hat Harbor Tower?", id="de"),
        pytest.param("¿Cuántas panorámicas tiene Harbor Tower?", id="es"),
        pytest.param("Harbor Tower의 파노라마는 몇 개인가요?", id="ko"),
        pytest.param("Harbor Towerのパノラマは何件ありますか", id="ja"),
    ],
)
def test_a_count_question_needs_the_aggregate_tool(question: str) -> None:
    assert needed_tools(question) == ("query_data",)


def test_a_listing_needs_no_aggregate() -> None:
    assert needed_tools("List all panoramas in Harbor Tower") == ()


def test_a_photo_count_needs_the_photo_search_and_the_aggregate_once_each() -> None:
    assert needed_tools("How many photos of rebar?") == ("search_photos", "query_data")
