"""A 200 is a failure unless one of four marks clears it; error text is never read."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication import Fingerprint, fingerprint, is_in_band_failure, result_emptiness
from beacon.loop.evidence import adjudicate
from beacon.upstream.mcp_client import ToolOutcome
from beacon.wire.accounting import ACCOUNTING_META_KEY

ENVELOPE = {
    "result_kind": "search",
    "returned": 0,
    "total_lower_bound": 0,
    "has_more": False,
    "cursor": None,
}


def text(body: str, **extra: Any) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": body}], "isError": False, **extra}


MEASURED: list[Any] = [
    pytest.param(
        text("Search API error: 502 Server Error: Bad Gateway for url: x"), True, id="inband-502"
    ),
    pytest.param(text("{}"), True, id="auth-empty"),
    pytest.param(text("Please select a project first."), True, id="prose-reply"),
    pytest.param(text("", structuredContent={}), True, id="degraded-empty"),
    pytest.param(
        {
            "content": [{"type": "text", "text": "none", "_meta": {ACCOUNTING_META_KEY: ENVELOPE}}],
            "isError": False,
        },
        False,
        id="zero-hits-with-envelope",
    ),
    pytest.param(
        text('Search results for "x" in Harbor Tower:\n## Image #1'),
        False,
        id="legacy-query-ran-line",
    ),
    pytest.param(text("| id | title |\n|---|---|\n"), False, id="empty-result-table"),
]


@pytest.mark.parametrize(("payload", "failed"), MEASURED)
def test_measured_upstream_shapes_are_judged_by_structure(payload: Any, failed: bool) -> None:
    assert is_in_band_failure("search_photos", payload) is failed


def test_the_transport_status_is_read_before_the_body() -> None:
    assert is_in_band_failure("search_photos", text("{}"), transport_status=401)
    ok = {"content": [{"type": "text", "text": "x", "_meta": {ACCOUNTING_META_KEY: ENVELOPE}}]}
    assert is_in_band_failure("search_photos", ok, transport_status=502)


def test_a_tool_without_a_result_contract_answers_in_prose() -> None:
    assert not is_in_band_failure("get_capture", text("Capture 12 on level 3."))


def test_emptiness_needs_standing() -> None:
    accounted_zero = {
        "content": [{"type": "text", "text": "", "_meta": {ACCOUNTING_META_KEY: ENVELOPE}}]
    }
    assert result_emptiness("search_photos", accounted_zero) == "empty"
    assert result_emptiness("search_photos", text("{}")) == "unknown"
    assert result_emptiness("get_capture", accounted_zero) == "unknown"
    with_rows = text("x", structuredContent={"rows": [{"id": "a"}]}, isError=True)
    assert result_emptiness("query_data", with_rows) == "non_empty"


def test_the_fingerprint_never_carries_content() -> None:
    secret = "Search API error: 502 secret-host.internal"
    printed = repr(fingerprint(text(secret, structuredContent={"rows": []})))
    assert "secret" not in printed and "502" not in printed
    assert fingerprint(text(secret)).block_types == ("text",)


def test_payloads_that_are_not_results_are_failures_with_an_empty_fingerprint() -> None:
    assert is_in_band_failure("search_photos", "Search API error")
    assert fingerprint("Search API error") == fingerprint(None)
    assert fingerprint(None).block_count == 0
    assert is_in_band_failure("search_photos", {"content": "not a list"})


def test_structured_content_alone_is_an_envelope() -> None:
    payload = {"content": [], "structuredContent": {"note": "ran"}}
    assert not is_in_band_failure("query_data", payload)


def test_an_honest_is_error_is_a_failure() -> None:
    payload = text("Invalid arguments: limit must be <= 50", isError=True)
    assert is_in_band_failure("search_photos", payload)


@pytest.mark.parametrize(
    ("payload", "emptiness"),
    [
        pytest.param(
            {
                "content": [
                    {
                        "type": "text",
                        "text": "x",
                        "_meta": {
                            ACCOUNTING_META_KEY: {**ENVELOPE, "returned": 3, "total_lower_bound": 3}
                        },
                    }
                ]
            },
            "non_empty",
            id="accounted-returned-without-records",
        ),
        pytest.param(text("x", structuredContent=[1, 2]), "unknown", id="structured-not-an-object"),
        pytest.param(
            text("x", structuredContent={"rows": [], "items": []}),
            "unknown",
            id="empty-lists-without-accounting",
        ),
        pytest.param(text("boom", isError=True), "unknown", id="error-without-findings"),
        pytest.param("nope", "unknown", id="not-a-dict"),
    ],
)
def test_emptiness_table(payload: Any, emptiness: str) -> None:
    assert result_emptiness("search_photos", payload) == emptiness


structures = st.fixed_dictionaries(
    {},
    optional={
        "meta": st.booleans(),
        "structured": st.sampled_from([None, {}, {"rows": []}, {"note": 1}]),
        "is_error": st.booleans(),
    },
)


def build(structure: dict[str, Any], body: str) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": body}
    if structure.get("meta"):
        block["_meta"] = {ACCOUNTING_META_KEY: ENVELOPE}
    payload: dict[str, Any] = {"content": [block], "isError": structure.get("is_error", False)}
    if structure.get("structured") is not None:
        payload["structuredContent"] = structure["structured"]
    return payload


error_texts = st.text(min_size=1, max_size=60).filter(
    lambda t: (
        not t.lstrip().startswith(("Query executed successfully.", "Search results for "))
        and "|" not in t
    )
)


@given(structures, error_texts, error_texts)
def test_the_error_text_never_changes_the_verdict(
    structure: dict[str, Any], first: str, second: str
) -> None:
    one, two = build(structure, first), build(structure, second)
    assert is_in_band_failure("search_photos", one) == is_in_band_failure("search_photos", two)
    assert fingerprint(one) == fingerprint(two)


@given(structures, st.text(max_size=60))
def test_a_payload_carrying_an_envelope_is_never_a_disguised_failure(
    structure: dict[str, Any], body: str
) -> None:
    payload = build({**structure, "meta": True, "is_error": False}, body)
    assert not is_in_band_failure("search_photos", payload)


def test_is_error_is_a_failure_even_with_an_envelope() -> None:
    payload = {
        "content": [{"type": "text", "text": "x", "_meta": {ACCOUNTING_META_KEY: ENVELOPE}}],
        "isError": True,
    }
    assert is_in_band_failure("search_photos", payload)
    assert result_emptiness("search_photos", payload) == "unknown"
    payload["isError"] = False
    assert result_emptiness("search_photos", payload) == "empty"


def test_items_and_one_accounted_row_are_findings() -> None:
    assert (
        result_emptiness("search_photos", text("x", structuredContent={"items": [{"id": 1}]}))
        == "non_empty"
    )
    one = {
        "content": [
            {
                "type": "text",
                "text": "",
                "_meta": {ACCOUNTING_META_KEY: {**ENVELOPE, "returned": 1}},
            }
        ]
    }
    assert result_emptiness("search_photos", one) == "non_empty"
    assert (
        result_emptiness("search_photos", text("x", structuredContent={"rows": "3"})) == "unknown"
    )


def test_the_fingerprint_names_shape_only() -> None:
    payload = {
        "content": [
            {"type": "text", "text": "secret", "_meta": {"b": 1, "a": 2}},
            {"type": "image", "data": "..."},
            "junk",
        ],
        "structuredContent": {"z": 1, "rows": []},
        "isError": True,
    }
    assert fingerprint(payload) == Fingerprint(
        block_count=2,
        block_types=("text", "image"),
        meta_keys=("a", "b"),
        structured_keys=("rows", "z"),
        is_error=True,
    )
    bare = fingerprint({"content": [{"text": "x"}], "structuredContent": "s"})
    assert bare == Fingerprint(1, ("?",), (), (), False)


def test_a_query_ran_line_clears_even_after_leading_whitespace() -> None:
    assert not is_in_band_failure("query_data", text("\n  Query executed successfully.\nRows: 0"))


def test_a_non_result_has_the_empty_fingerprint() -> None:
    assert fingerprint(None) == Fingerprint(0, (), (), (), False)


def test_a_failure_adjudicated_in_a_turn_is_logged_by_its_fingerprint_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    secret = "Search API error: 502 secret-host.internal"
    result = text(secret, structuredContent={})
    outcome = ToolOutcome("search_photos", {"query": "hats"}, result, 200, len(secret))
    with caplog.at_level(logging.WARNING, logger="beacon.loop.evidence"):
        evidence = adjudicate(outcome, call_id="k1", slot="c1", sentinel=3000, project_id=None)
    assert evidence.failed
    [line] = [r.getMessage() for r in caplog.records if r.name == "beacon.loop.evidence"]
    assert repr(fingerprint(result)) in line and "search_photos" in line
    assert "secret" not in line and "502" not in line
    caplog.clear()
    ok = text("none", structuredContent={"rows": []})
    with caplog.at_level(logging.WARNING, logger="beacon.loop.evidence"):
        adjudicate(
            ToolOutcome("search_photos", {}, ok, 200, 4),
            call_id="k2",
            slot="c2",
            sentinel=3000,
            project_id=None,
        )
    assert not [r for r in caplog.records if r.name == "beacon.loop.evidence"]
