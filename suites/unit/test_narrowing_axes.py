"""Counter-questions on every filter axis a tool accepts, grounded in what came back.

Expected values are written out or computed from the stub corpus, never read
from the tables under test; that a chosen option's scope really narrows the
upstream call is ``test_narrowing_upstream.py``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from narrowing_samples import (
    HARBOR,
    LOCALES,
    declared_arguments,
)
from pydantic import BaseModel

from beacon.adjudication import Basis, CountVerdict, Grade
from beacon.loop.evidence import Evidence
from beacon.loop.narrowing_state import (
    Narrowing,
    narrowing_axes,
    narrowing_hint,
    offer_narrowing,
    resume,
    scoped_arguments,
)
from beacon.store.records import NarrowingRecord
from beacon.wire.frames import Citation, CitationTarget
from beacon.wire.tools import tool_spec
from stub_server.tools_query import QueryDataArgs
from stub_server.tools_records import ListAnnotationsArgs
from stub_server.tools_search import SearchPhotosArgs


def sample_of(tool: str, cards: Sequence[tuple[str | None, str | None]]) -> Evidence:
    """A lower-bound sample whose cards carry these (level, date) pairs."""
    citations = tuple(
        Citation(
            id=f"ann-{n:06d}",
            source=tool,
            kind="annotation",
            title=f"card {n}",
            deep_link=f"beacon:annotation/ann-{n:06d}",
            target=CitationTarget(kind="annotation", id=f"ann-{n:06d}"),
            level=level,
            date=day,
        )
        for n, (level, day) in enumerate(cards, start=1)
    )
    verdict = CountVerdict(Grade.LOWER_BOUND, 3000, True, len(cards), "test", Basis.SATURATED)
    return Evidence(
        call_id="call_1",
        tool=tool,
        arguments={"project_id": HARBOR},
        slot="c1",
        failed=False,
        verdict=verdict,
        emptiness="non_empty",
        citations=citations,
        bytes=0,
        returned=len(cards),
        absence=None,
    )


# --- the axes a tool accepts are the arguments its input schema declares -----------------


@pytest.mark.parametrize(
    ("tool", "model", "keys"),
    [
        pytest.param("search_photos", SearchPhotosArgs, {"level_number", "limit"}, id="photos"),
        pytest.param(
            "query_data",
            QueryDataArgs,
            {"level_number", "status", "category", "company", "kind", "date_from", "date_to"},
            id="query",
        ),
        pytest.param(
            "list_annotations",
            ListAnnotationsArgs,
            {
                "level_number",
                "status",
                "category",
                "company",
                "kind",
                "date_from",
                "date_to",
                "limit",
            },
            id="annotations",
        ),
    ],
)
def test_the_scope_keys_of_a_tool_are_arguments_its_input_schema_declares(
    tool: str, model: type[BaseModel], keys: set[str]
) -> None:
    spec = tool_spec(tool)
    assert spec is not None and set(spec.scope_keys) == keys
    assert keys <= declared_arguments(model)


def test_the_scope_is_still_spread_last_and_only_with_keys_the_tool_accepts() -> None:
    idle = Narrowing(scope={"date_from": "2026-03-01", "date_to": "2026-03-31"})
    model = {"project_id": HARBOR, "question": "q", "date_from": "2025-01-01"}
    assert scoped_arguments("query_data", model, idle) == model  # not chosen: nothing spread
    record = {
        "state": "offered",
        "tool": "query_data",
        "arguments": {},
        "options": [
            {
                "label": "March 2026",
                "reply": "Only March 2026",
                "recommended": True,
                "scope": {"date_from": "2026-03-01", "date_to": "2026-03-31"},
            }
        ],
    }
    active = resume(NarrowingRecord.model_validate(record), "only march 2026")
    assert scoped_arguments("query_data", model, active) == {
        "project_id": HARBOR,
        "question": "q",
        "date_from": "2026-03-01",
        "date_to": "2026-03-31",
    }
    photos = {"project_id": HARBOR, "query": "rebar"}
    assert scoped_arguments("search_photos", photos, active) == photos  # no date argument


# --- which axis is offered, and its options ----------------------------------------------


def test_the_axis_whose_options_cover_most_of_the_sample_is_offered() -> None:
    # Six cards on six levels, but on three months: months split the sample best.
    cards = [
        ("Level 1", "2026-03-02"),
        ("Level 2", "2026-03-09"),
        ("Level 3", "2026-03-30"),
        ("Level 4", "2026-04-01"),
        ("Level 5", "2026-04-15"),
        ("Level 6", "2025-12-24"),
    ]
    options = offer_narrowing(sample_of("query_data", cards), "en")
    assert options == [
        {
            "label": "March 2026",
            "reply": "Only March 2026",
            "recommended": True,
            "scope": {"date_from": "2026-03-01", "date_to": "2026-03-31"},
        },
        {
            "label": "April 2026",
            "reply": "Only April 2026",
            "recommended": False,
            "scope": {"date_from": "2026-04-01", "date_to": "2026-04-30"},
        },
        {
            "label": "December 2025",
            "reply": "Only December 2025",
            "recommended": False,
            "scope": {"date_from": "2025-12-01", "date_to": "2025-12-31"},
        },
    ]


def test_a_month_scope_ends_on_the_months_last_day_leap_years_included() -> None:
    options = offer_narrowing(
        sample_of("query_data", [(None, "2028-02-10"), (None, "2028-03-01")]), "en"
    )
    assert [o["scope"]["date_to"] for o in options] == ["2028-02-29", "2028-03-31"]


def test_levels_win_when_they_split_the_sample_better_than_months() -> None:
    cards = [("Level 2", f"2026-0{m}-01") for m in range(1, 6)] + [("Level 7", "2026-06-01")]
    options = offer_narrowing(sample_of("list_annotations", cards), "en")
    assert [(o["label"], o["reply"], o["recommended"]) for o in options] == [
        ("Level 2", "Only level 2", True),
        ("Level 7", "Only level 7", False),
    ]
    assert [o["scope"] for o in options] == [
        {"level_number": 2, "limit": 100},
        {"level_number": 7, "limit": 100},
    ]


def test_search_photos_is_offered_only_levels_with_its_largest_page() -> None:
    cards = [("Level 4", "2026-01-01"), ("Level 4", "2026-02-01"), ("Level 9", "2026-03-01")]
    sample = sample_of("search_photos", cards)
    assert narrowing_axes(sample) == ("level",)
    assert [o["scope"] for o in offer_narrowing(sample, "en")] == [
        {"level_number": 4, "limit": 50},
        {"level_number": 9, "limit": 50},
    ]


def test_never_more_than_three_options_the_most_common_first() -> None:
    cards = [(None, f"2026-0{m}-01") for m in (1, 2, 2, 3, 3, 3, 4, 5)]
    options = offer_narrowing(sample_of("query_data", cards), "en")
    assert [o["label"] for o in options] == ["March 2026", "February 2026", "January 2026"]
    assert [o["recommended"] for o in options] == [True, False, False]


def test_a_tool_that_accepts_no_axis_or_cards_without_values_get_no_offer() -> None:
    cards = [("Level 1", "2026-01-01"), ("Level 2", "2026-02-01")]
    assert offer_narrowing(sample_of("search_documents", cards), "en") == []
    assert offer_narrowing(sample_of("get_clash_report", cards), "en") == []
    bare = sample_of("query_data", [(None, None), ("unnamed", "someday")])
    assert offer_narrowing(bare, "en") == [] and narrowing_hint(bare, "en") is None


def test_typed_fields_of_the_returned_records_offer_status_category_company_and_kind() -> None:
    records = [
        {"id": "ann-1", "status": "open", "category": "ppe", "company": "Summit Steel"},
        {"id": "ann-2", "status": "open", "category": "ppe", "company": "Apex Scaffolding"},
        {"id": "ann-3", "status": "open", "category": "housekeeping", "company": "Summit Steel"},
        {"id": "ann-4", "status": "open", "category": "electrical", "company": "Summit Steel"},
    ]
    sample = sample_of("list_annotations", [])
    # Status takes one value (it does not split); category and company both cover
    # everything with three options, and category is listed first.
    assert narrowing_axes(sample, records) == ("category", "company", "status")
    options = offer_narrowing(sample, "en", records)
    assert [(o["label"], o["reply"], o["scope"]) for o in options] == [
        ("Category: ppe", "Only category ppe", {"category": "ppe", "limit": 100}),
        (
            "Category: electrical",
            "Only category electrical",
            {"category": "electrical", "limit": 100},
        ),
        (
            "Category: housekeeping",
            "Only category housekeeping",
            {"category": "housekeeping", "limit": 100},
        ),
    ]
    kinds = [{"id": "ann-1", "kind": "safety"}, {"id": "ann-2", "kind": "quality"}]
    assert [o["label"] for o in offer_narrowing(sample, "de", kinds)] == [
        "Art: Qualität",
        "Art: Sicherheit",
    ]


def test_a_status_is_worded_in_each_locale() -> None:
    records = [{"id": i, "status": s} for i, s in enumerate(["in_review", "closed", "in_review"])]
    sample = sample_of("query_data", [])
    replies = {loc: offer_narrowing(sample, loc, records)[0]["reply"] for loc in LOCALES}
    assert replies == {
        "en": "Only status in review",
        "ko": "검토 중 상태만",
        "ja": "確認中のものだけ",
        "de": "Nur Status in Prüfung",
        "es": "Solo el estado en revisión",
    }


@pytest.mark.parametrize(
    ("locale", "label", "reply"),
    [
        pytest.param("en", "March 2026", "Only March 2026", id="en"),
        pytest.param("ko", "2026년 3월", "2026년 3월만", id="ko"),
        pytest.param("ja", "2026年3月", "2026年3月だけ", id="ja"),
        pytest.param("de", "März 2026", "Nur März 2026", id="de"),
        pytest.param("es", "marzo de 2026", "Solo marzo de 2026", id="es"),
    ],
)
def test_a_month_option_is_worded_in_each_locale(locale: str, label: str, reply: str) -> None:
    sample = sample_of("query_data", [(None, "2026-03-05"), (None, "2026-03-06")])
    (option,) = offer_narrowing(sample, locale)
    assert (option["label"], option["reply"]) == (label, reply)


@pytest.mark.parametrize(
    ("locale", "hint"),
    [
        pytest.param(
            "en", "That was a sample. To narrow it down, ask again for one month or level.", id="en"
        ),
        pytest.param(
            "ko",
            "일부 결과입니다. 범위를 좁히려면 월 또는 층을(를) 하나 지정해 다시 질문하세요.",
            id="ko",
        ),
        pytest.param(
            "ja",
            "これは一部です。絞り込むには月または階を一つ指定して聞き直してください。",
            id="ja",
        ),
        pytest.param(
            "de",
            "Das war eine Auswahl. Zum Eingrenzen erneut fragen, "
            "eingeschränkt auf Monat oder Ebene.",
            id="de",
        ),
        pytest.param(
            "es",
            "Era una muestra. Para acotarla, pregunte de nuevo indicando mes o nivel.",
            id="es",
        ),
    ],
)
def test_without_a_session_the_hint_names_the_axes_to_narrow_by(locale: str, hint: str) -> None:
    cards = [
        ("Level 1", "2026-03-02"),
        ("Level 2", "2026-03-09"),
        ("Level 3", "2026-04-01"),
        ("Level 4", "2026-04-11"),
    ]
    assert narrowing_hint(sample_of("query_data", cards), locale) == hint


def test_the_hint_names_one_axis_alone_and_several_as_a_list() -> None:
    photos = sample_of("search_photos", [("Level 1", "2026-01-01"), ("Level 2", "2026-02-01")])
    assert narrowing_hint(photos, "en") == (
        "That was a sample. To narrow it down, ask again for one level."
    )
    records = [
        {"id": "a", "status": "open", "category": "ppe", "company": "Summit Steel"},
        {"id": "b", "status": "closed", "category": "finish", "company": "Apex Scaffolding"},
    ]
    assert narrowing_hint(sample_of("list_annotations", []), "en", records) == (
        "That was a sample. To narrow it down, ask again for one status, category or company."
    )
