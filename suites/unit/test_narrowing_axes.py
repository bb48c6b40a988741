"""Counter-questions on every filter axis a tool accepts, grounded in what came back.

Expected values are written out or computed from the stub corpus, never read
from the tables under test; a chosen option's scope is run through the stub's
own tool to show it really narrows the upstream call.
"""

from __future__ import annotations

import calendar
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from beacon.adjudication import Basis, CountVerdict, Grade
from beacon.loop.evidence import Evidence, adjudicate
from beacon.loop.narrowing_state import (
    Narrowing,
    narrowing_axes,
    narrowing_hint,
    offer_narrowing,
    resume,
    scoped_arguments,
)
from beacon.store.records import NarrowingRecord
from beacon.upstream.mcp_client import ToolOutcome
from beacon.wire.frames import Citation, CitationTarget
from beacon.wire.tools import tool_spec
from stub_server.corpus import build_corpus
from stub_server.faults import enveloped
from stub_server.sqlgen import Filters, UntranslatableQuestion, to_sql
from stub_server.tools import Flags, StubSettings, ToolContext, ToolError
from stub_server.tools_query import QueryDataArgs, query_data
from stub_server.tools_records import ListAnnotationsArgs, list_annotations
from stub_server.tools_search import SearchPhotosArgs

HARBOR = "prj-harbor-tower"
PANORAMAS = "List all panoramas in Harbor Tower"
CORPUS = build_corpus()
LOCALES = ("en", "ko", "ja", "de", "es")


def _ctx(**settings: int) -> ToolContext:
    return ToolContext(CORPUS, StubSettings(**settings), "http://127.0.0.1:1")


def _sample(tool: str, cards: Sequence[tuple[str | None, str | None]]) -> Evidence:
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


def _adjudicated(tool: str, arguments: dict[str, Any], output: Any) -> Evidence:
    result = enveloped(output).model_dump(mode="json", by_alias=True, exclude_none=True)
    return adjudicate(
        ToolOutcome(tool, arguments, result, 200, 0),
        call_id="call_1",
        slot="c1",
        sentinel=3000,
        project_id=HARBOR,
    )


def _schema_arguments(model: type[BaseModel]) -> set[str]:
    return set(model.model_json_schema()["properties"])


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
    assert keys <= _schema_arguments(model)


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
    options = offer_narrowing(_sample("query_data", cards), "en")
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
        _sample("query_data", [(None, "2028-02-10"), (None, "2028-03-01")]), "en"
    )
    assert [o["scope"]["date_to"] for o in options] == ["2028-02-29", "2028-03-31"]


def test_levels_win_when_they_split_the_sample_better_than_months() -> None:
    cards = [("Level 2", f"2026-0{m}-01") for m in range(1, 6)] + [("Level 7", "2026-06-01")]
    options = offer_narrowing(_sample("list_annotations", cards), "en")
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
    sample = _sample("search_photos", cards)
    assert narrowing_axes(sample) == ("level",)
    assert [o["scope"] for o in offer_narrowing(sample, "en")] == [
        {"level_number": 4, "limit": 50},
        {"level_number": 9, "limit": 50},
    ]


def test_never_more_than_three_options_the_most_common_first() -> None:
    cards = [(None, f"2026-0{m}-01") for m in (1, 2, 2, 3, 3, 3, 4, 5)]
    options = offer_narrowing(_sample("query_data", cards), "en")
    assert [o["label"] for o in options] == ["March 2026", "February 2026", "January 2026"]
    assert [o["recommended"] for o in options] == [True, False, False]


def test_a_tool_that_accepts_no_axis_or_cards_without_values_get_no_offer() -> None:
    cards = [("Level 1", "2026-01-01"), ("Level 2", "2026-02-01")]
    assert offer_narrowing(_sample("search_documents", cards), "en") == []
    assert offer_narrowing(_sample("get_clash_report", cards), "en") == []
    bare = _sample("query_data", [(None, None), ("unnamed", "someday")])
    assert offer_narrowing(bare, "en") == [] and narrowing_hint(bare, "en") is None


def test_typed_fields_of_the_returned_records_offer_status_category_company_and_kind() -> None:
    records = [
        {"id": "ann-1", "status": "open", "category": "ppe", "company": "Summit Steel"},
        {"id": "ann-2", "status": "open", "category": "ppe", "company": "Apex Scaffolding"},
        {"id": "ann-3", "status": "open", "category": "housekeeping", "company": "Summit Steel"},
        {"id": "ann-4", "status": "open", "category": "electrical", "company": "Summit Steel"},
    ]
    sample = _sample("list_annotations", [])
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
    sample = _sample("query_data", [])
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
    sample = _sample("query_data", [(None, "2026-03-05"), (None, "2026-03-06")])
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
    assert narrowing_hint(_sample("query_data", cards), locale) == hint


# --- a chosen option really narrows the upstream call -----------------------------------


def test_a_query_data_listing_is_offered_months_and_the_chosen_month_narrows_the_query() -> None:
    ctx = _ctx()
    arguments = {"project_id": HARBOR, "question": PANORAMAS}
    sample = _adjudicated(
        "query_data", arguments, query_data(ctx, QueryDataArgs.model_validate(arguments), Flags())
    )
    options = offer_narrowing(sample, "en")
    # The months on the cards that came back, most common first (computed from the corpus).
    shown = [c.id for c in sample.citations] + [c["id"] for c in sample.unshown]
    by_id = {c.id: c for c in CORPUS.captures}
    months = Counter(by_id[i].captured_at[:7] for i in shown)
    top = sorted(months, key=lambda m: (-months[m], m))[:3]
    assert [o["scope"]["date_from"][:7] for o in options] == top
    assert [o["recommended"] for o in options] == [True, False, False]

    record = {"state": "offered", "tool": "query_data", "arguments": arguments, "options": options}
    chosen = resume(NarrowingRecord.model_validate(record), options[0]["reply"])
    scoped = scoped_arguments("query_data", arguments, chosen)
    narrowed = query_data(ctx, QueryDataArgs.model_validate(scoped), Flags())
    year, month = int(top[0][:4]), int(top[0][5:])
    expected = {
        c.id
        for c in CORPUS.captures
        if c.project_id == HARBOR and c.captured_at.startswith(f"{year:04d}-{month:02d}")
    }
    assert {r["id"] for r in narrowed.structured["rows"]} == expected
    assert narrowed.accounting["total"] == len(expected) and not narrowed.accounting["has_more"]
    assert scoped["date_to"] == f"{year:04d}-{month:02d}-{calendar.monthrange(year, month)[1]}"


def test_a_status_chosen_from_annotation_records_narrows_list_annotations() -> None:
    ctx = _ctx()
    arguments = {"project_id": HARBOR, "level_number": 3}
    output = list_annotations(ctx, ListAnnotationsArgs.model_validate(arguments), Flags())
    # Only the status field of the page's records: the status axis alone is grounded.
    records = [{"id": r["id"], "status": r["status"]} for r in output.structured["items"]]
    sample = _adjudicated("list_annotations", arguments, output)
    options = offer_narrowing(sample, "en", records)
    statuses = Counter(r["status"] for r in records)
    ranked = sorted(statuses, key=lambda s: (-statuses[s], s))
    assert [o["scope"] for o in options] == [{"status": s, "limit": 100} for s in ranked]

    record = {"state": "offered", "tool": "list_annotations", "arguments": arguments}
    chosen = resume(
        NarrowingRecord.model_validate({**record, "options": options}), options[0]["reply"]
    )
    scoped = scoped_arguments("list_annotations", arguments, chosen)
    narrowed = list_annotations(ctx, ListAnnotationsArgs.model_validate(scoped), Flags())
    expected = {
        a.id
        for a in CORPUS.annotations
        if a.project_id == HARBOR and a.level_number == 3 and a.status == ranked[0]
    }
    assert {r["id"] for r in narrowed.structured["items"]} == expected
    assert narrowed.accounting["has_more"] is False  # the whole narrowed set in one page


def test_a_sample_keeps_its_records_typed_fields_so_the_loop_can_offer_them() -> None:
    """What the loop passes to ``offer_narrowing``: the evidence's own facets."""
    ctx = _ctx()
    arguments = {"project_id": HARBOR}
    output = list_annotations(ctx, ListAnnotationsArgs.model_validate(arguments), Flags())
    sample = _adjudicated("list_annotations", arguments, output)
    page = output.structured["items"]
    assert [f["status"] for f in sample.facets] == [r["status"] for r in page]
    assert {f["company"] for f in sample.facets} == {r["company"] for r in page}
    # A status or a kind splits a page of findings into a few whole groups, which the
    # levels of those findings cannot: with the facets a record-only axis is offered,
    # from the cards alone (a level, a date) it could not be.
    with_facets = {next(iter(o["scope"])) for o in offer_narrowing(sample, "en", sample.facets)}
    assert with_facets and with_facets <= {"status", "category", "company", "kind"}
    cards_only = {next(iter(o["scope"])) for o in offer_narrowing(sample, "en")}
    assert cards_only <= {"level_number", "date_from"}


# --- query_data honours structured filters -----------------------------------------------


def test_query_data_declares_and_honours_structured_filters_anded_onto_the_question() -> None:
    args = QueryDataArgs(
        project_id=HARBOR,
        question="List open safety findings in Harbor Tower",
        company="summit steel",
        date_from="2026-01-01",
        date_to="2026-03-31",
    )
    rows = query_data(_ctx(), args, Flags()).structured["rows"]
    expected = {
        a.id
        for a in CORPUS.annotations
        if a.project_id == HARBOR
        and a.kind == "safety"
        and a.status == "open"
        and a.company == "Summit Steel"
        and "2026-01-01" <= a.created_at <= "2026-03-31"
    }
    assert expected and {r["id"] for r in rows} == expected


def test_filter_values_reach_the_sql_only_as_bound_parameters() -> None:
    query = to_sql("list findings", HARBOR, Filters(company="x' OR 1=1 --", status="open"))
    assert "OR 1=1" not in query.sql
    assert query.params == (HARBOR, "open", "x' OR 1=1 --")


@pytest.mark.parametrize(
    ("question", "filters"),
    [
        pytest.param("list panoramas", Filters(category="ppe"), id="category-on-panoramas"),
        pytest.param("list photos", Filters(status="open"), id="status-on-photos"),
        pytest.param("list levels", Filters(date_from="2026-01-01"), id="date-on-levels"),
        pytest.param("list levels", Filters(level_number=2), id="level-on-levels"),
    ],
)
def test_a_filter_on_a_field_the_table_lacks_is_refused_not_ignored(
    question: str, filters: Filters
) -> None:
    with pytest.raises(UntranslatableQuestion, match="to filter by"):
        to_sql(question, HARBOR, filters)


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param({"date_from": "2026-02-30"}, id="not-a-date"),
        pytest.param({"date_from": "2026-03-01", "date_to": "2026-02-01"}, id="reversed"),
        pytest.param({"status": "pending"}, id="unknown-status"),
        pytest.param({"category": "rust"}, id="unknown-category"),
    ],
)
def test_bad_filter_arguments_are_refused_by_the_schema(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        QueryDataArgs.model_validate({"project_id": HARBOR, "question": PANORAMAS, **bad})


def test_a_cursor_keeps_its_filters_and_refuses_others() -> None:
    ctx = _ctx(query_page_size=100)
    march = {"date_from": "2026-03-01", "date_to": "2026-03-31"}
    first = query_data(
        ctx,
        QueryDataArgs.model_validate({"project_id": HARBOR, "question": PANORAMAS, **march}),
        Flags(),
    )
    cursor = first.accounting["cursor"]
    second = query_data(ctx, QueryDataArgs(project_id=HARBOR, cursor=cursor), Flags())
    assert all(
        "2026-03-01" <= r["captured_at"][:10] <= "2026-03-31" for r in second.structured["rows"]
    )
    assert second.accounting["total"] == first.accounting["total"]
    again = QueryDataArgs(project_id=HARBOR, cursor=cursor, level_number=2)
    with pytest.raises(ToolError, match="different filters"):
        query_data(ctx, again, Flags())


def test_the_hint_names_one_axis_alone_and_several_as_a_list() -> None:
    photos = _sample("search_photos", [("Level 1", "2026-01-01"), ("Level 2", "2026-02-01")])
    assert narrowing_hint(photos, "en") == (
        "That was a sample. To narrow it down, ask again for one level."
    )
    records = [
        {"id": "a", "status": "open", "category": "ppe", "company": "Summit Steel"},
        {"id": "b", "status": "closed", "category": "finish", "company": "Apex Scaffolding"},
    ]
    assert narrowing_hint(_sample("list_annotations", []), "en", records) == (
        "That was a sample. To narrow it down, ask again for one status, category or company."
    )
