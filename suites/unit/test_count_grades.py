"""Count grades are decided from structured fields only (SPEC §3)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from beacon.adjudication import (
    Basis,
    Grade,
    grade_count,
    read_accounting,
    result_emptiness,
    sentinel_from_env,
)
from beacon.adjudication.accounting import AccountingRecord, AggregateValue
from beacon.wire.accounting import ACCOUNTING_META_KEY, Accounting
from stub_server import tools as stub_tools


def result(envelope: dict[str, Any] | None, *, where: str = "both") -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": "Query executed successfully."}
    out: dict[str, Any] = {"content": [block], "isError": False}
    if envelope is not None and where in ("meta", "both"):
        block["_meta"] = {ACCOUNTING_META_KEY: envelope}
    if envelope is not None and where in ("structured", "both"):
        out["structuredContent"] = envelope
    return out


def rows(total: int, has_more: bool, returned: int = 10) -> dict[str, Any]:
    return {
        "result_kind": "rows",
        "returned": returned,
        "total": total,
        "has_more": has_more,
        "cursor": None,
    }


REASONS = {
    Basis.TOTAL: "total below the cap",
    Basis.SATURATED: "total reached the row cap 3000: rows beyond it may exist",
    Basis.UPSTREAM_BOUND: "the upstream reports only a lower bound",
    Basis.AGGREGATE: "single-value aggregate",
    Basis.NO_ACCOUNTING: "no accounting: no number may be uttered",
}
AGG = {"function": "COUNT", "column": "count", "value": 7961}
SEARCH = {
    "result_kind": "search",
    "returned": 10,
    "total_lower_bound": 189,
    "has_more": True,
    "cursor": "x",
}


@pytest.mark.parametrize(
    ("envelope", "grade", "value", "has_more", "returned", "basis"),
    [
        pytest.param(
            rows(42, False), Grade.EXACT, 42, False, 10, Basis.TOTAL, id="below-cap-is-exact"
        ),
        pytest.param(
            rows(2999, True),
            Grade.EXACT,
            2999,
            True,
            10,
            Basis.TOTAL,
            id="one-below-cap-is-exact-and-keeps-has-more",
        ),
        pytest.param(
            rows(3000, False),
            Grade.LOWER_BOUND,
            3000,
            True,
            10,
            Basis.SATURATED,
            id="saturated-false-completion-is-overridden",
        ),
        pytest.param(
            rows(3001, True),
            Grade.LOWER_BOUND,
            3001,
            True,
            10,
            Basis.SATURATED,
            id="above-cap-is-bound",
        ),
        pytest.param(
            SEARCH, Grade.LOWER_BOUND, 189, True, 10, Basis.UPSTREAM_BOUND, id="search-lower-bound"
        ),
        pytest.param(
            {**SEARCH, "has_more": False},
            Grade.LOWER_BOUND,
            189,
            False,
            10,
            Basis.UPSTREAM_BOUND,
            id="search-bound-keeps-upstream-has-more",
        ),
        pytest.param(
            {**rows(1, False, 1), "aggregate": AGG},
            Grade.EXACT,
            7961,
            False,
            0,
            Basis.AGGREGATE,
            id="aggregate-is-exact-above-the-cap",
        ),
        pytest.param(
            None, Grade.UNKNOWN, None, False, 0, Basis.NO_ACCOUNTING, id="no-accounting-is-unknown"
        ),
    ],
)
def test_grade_follows_the_table(
    envelope: dict[str, Any] | None,
    grade: Grade,
    value: int | None,
    has_more: bool,
    returned: int,
    basis: Basis,
) -> None:
    verdict = grade_count(result(envelope))
    assert (verdict.grade, verdict.value, verdict.has_more) == (grade, value, has_more)
    assert (verdict.returned, verdict.basis) == (returned, basis)
    assert verdict.reason == REASONS[basis]


def test_the_sentinel_is_configuration_not_a_constant() -> None:
    assert grade_count(result(rows(3000, False)), sentinel=5000).grade is Grade.EXACT
    assert grade_count(result(rows(500, False)), sentinel=500).grade is Grade.LOWER_BOUND


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param({"result_kind": "rows", "returned": 1, "has_more": False}, id="no-total"),
        pytest.param({**rows(5, False), "total_lower_bound": 5}, id="both-totals"),
        pytest.param({**rows(5, False), "returned": -1}, id="negative-returned"),
        pytest.param({**rows(5, False), "has_more": "no"}, id="string-has-more"),
        pytest.param({**rows(5, False), "total": True}, id="bool-total"),
        pytest.param({**rows(5, False), "result_kind": "table"}, id="unknown-kind"),
        pytest.param(
            {**rows(1, False), "aggregate": {"function": "MEDIAN", "value": 3}},
            id="unknown-aggregate",
        ),
        pytest.param("not a dict", id="not-an-object"),
    ],
)
def test_a_malformed_envelope_is_no_accounting_never_an_exception(broken: Any) -> None:
    assert read_accounting(result(broken)) is None
    assert grade_count(result(broken)).grade is Grade.UNKNOWN


def test_the_meta_envelope_wins_over_structured_content() -> None:
    payload = result(rows(42, False), where="meta")
    payload["structuredContent"] = rows(9999, True)
    acct = read_accounting(payload)
    assert acct is not None and acct.source == "meta" and acct.total == 42


def test_structured_content_alone_is_read() -> None:
    acct = read_accounting(result(rows(7, False), where="structured"))
    assert acct is not None and acct.source == "structured" and acct.total == 7


@pytest.mark.parametrize(
    ("environ", "sentinel"),
    [
        pytest.param({}, 3000, id="default"),
        pytest.param({"BEACON_ROW_CAP_SENTINEL": "5000"}, 5000, id="override"),
        pytest.param({"BEACON_ROW_CAP_SENTINEL": "0"}, 3000, id="zero-is-refused"),
        pytest.param({"BEACON_ROW_CAP_SENTINEL": "1"}, 1, id="one-is-a-cap"),
        pytest.param({"BEACON_ROW_CAP_SENTINEL": "lots"}, 3000, id="garbage-is-refused"),
    ],
)
def test_the_sentinel_is_read_from_the_environment(environ: dict[str, str], sentinel: int) -> None:
    assert sentinel_from_env(environ) == sentinel


def test_an_aggregate_without_a_value_is_unknown() -> None:
    envelope = {**rows(1, False, 1), "aggregate": {"function": "AVG", "column": "x", "value": None}}
    verdict = grade_count(result(envelope))
    assert (verdict.grade, verdict.value, verdict.has_more) == (Grade.UNKNOWN, None, False)
    assert (verdict.returned, verdict.basis) == (0, Basis.AGGREGATE)
    assert verdict.reason == "aggregate without a value"


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param("not a dict", id="not-a-dict"),
        pytest.param({"content": "text"}, id="content-not-a-list"),
        pytest.param({"content": ["bare string", {"type": "text"}]}, id="blocks-without-meta"),
        pytest.param(result({**rows(5, False), "cursor": 7}), id="cursor-not-a-string"),
        pytest.param(result({**rows(5, False), "total": -1}), id="negative-total"),
        pytest.param(
            result({**rows(1, False), "aggregate": {"function": "SUM", "value": True}}),
            id="boolean-aggregate-value",
        ),
        pytest.param(
            result({**rows(1, False), "aggregate": "COUNT"}), id="aggregate-not-an-object"
        ),
    ],
)
def test_shapes_that_are_not_envelopes_read_as_no_accounting(payload: Any) -> None:
    assert read_accounting(payload) is None


envelope_fields = st.fixed_dictionaries(
    {
        "result_kind": st.sampled_from(["search", "rows"]),
        "returned": st.integers(min_value=0, max_value=5000),
        "has_more": st.booleans(),
        "cursor": st.one_of(st.none(), st.text(max_size=4)),
    },
    optional={
        "total": st.integers(min_value=0, max_value=10_000),
        "total_lower_bound": st.integers(min_value=0, max_value=10_000),
    },
)


@given(
    st.one_of(st.none(), st.dictionaries(st.text(max_size=8), st.integers())),
    st.sampled_from(["search_photos", "query_data"]),
)
def test_no_accounting_is_never_exact_and_never_empty(garbage: Any, tool: str) -> None:
    payload: dict[str, Any] = {"content": [{"type": "text", "text": "{}"}]}
    if garbage is not None:
        payload["structuredContent"] = garbage
    if read_accounting(payload) is None:
        assert grade_count(payload).grade is Grade.UNKNOWN
        assert result_emptiness(tool, payload) != "empty"


@given(envelope_fields, st.integers(min_value=1, max_value=6000))
def test_a_bound_more_rows_or_a_saturated_total_is_never_exact(
    envelope: dict[str, Any], sentinel: int
) -> None:
    verdict = grade_count(result(envelope), sentinel=sentinel)
    saturated = envelope.get("total") is not None and envelope["total"] >= sentinel
    if "total_lower_bound" in envelope or saturated:
        assert verdict.grade is not Grade.EXACT
    if verdict.grade is Grade.EXACT:
        assert verdict.value is not None and verdict.value < sentinel
    if saturated and "total_lower_bound" not in envelope:
        assert verdict.has_more is True


def test_the_record_carries_every_envelope_field() -> None:
    envelope = {
        **rows(1, True, 1),
        "cursor": "next-7",
        "aggregate": {"function": "MAX", "column": "m", "value": 9},
    }
    acct = read_accounting(result(envelope, where="structured"))
    assert acct == AccountingRecord(
        result_kind="rows",
        returned=1,
        total=1,
        total_lower_bound=None,
        has_more=True,
        cursor="next-7",
        aggregate=AggregateValue("MAX", 9),
        source="structured",
    )


def test_the_sentinel_defaults_to_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEACON_ROW_CAP_SENTINEL", "4500")
    assert sentinel_from_env() == 4500


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"result_kind": "rows", "returned": 1, "has_more": False}, id="neither"),
        pytest.param({**rows(5, False), "total_lower_bound": 5}, id="both"),
        pytest.param({**rows(5, False), "total": None}, id="a-null-total-alone"),
        pytest.param({**rows(5, False), "returned": True}, id="true-is-not-a-count"),
        pytest.param({**rows(5, False), "total": "5"}, id="a-string-is-not-a-count"),
        pytest.param({**rows(5, False), "has_more": "no"}, id="no-is-not-a-flag"),
    ],
)
def test_the_wire_model_refuses_what_is_not_one_envelope(fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Accounting.model_validate(fields)
    assert read_accounting(result(fields)) is None


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param(rows(5, False), id="a-total"),
        pytest.param(SEARCH, id="a-lower-bound"),
        pytest.param(
            {**rows(5, False), "total_lower_bound": None}, id="a-null-bound-beside-a-total"
        ),
        pytest.param(
            {**rows(1, False, 1), "aggregate": {"function": "COUNT", "value": 3}},
            id="an-aggregate-without-its-column",
        ),
        pytest.param(
            {**rows(1, False, 1), "aggregate": {**AGG, "unit": "rows"}},
            id="an-aggregate-with-a-field-of-its-own",
        ),
    ],
)
def test_the_wire_model_takes_exactly_one_population(fields: dict[str, Any]) -> None:
    envelope = Accounting.model_validate(fields)
    assert (envelope.total is None) != (envelope.total_lower_bound is None)
    assert read_accounting(result(fields)) is not None


@given(envelope_fields)
def test_the_reader_accepts_exactly_the_envelopes_the_wire_model_accepts(
    fields: dict[str, Any],
) -> None:
    try:
        Accounting.model_validate(fields)
    except ValidationError:
        wire_accepts = False
    else:
        wire_accepts = True
    one_population = ("total" in fields) != ("total_lower_bound" in fields)
    assert wire_accepts is one_population
    assert (read_accounting(result(fields)) is not None) is one_population


def test_the_stub_cannot_write_an_envelope_without_exactly_one_population() -> None:
    with pytest.raises(ValidationError):
        stub_tools.envelope("rows", returned=1, has_more=False, cursor=None)
    with pytest.raises(ValidationError):
        stub_tools.envelope(
            "rows", returned=1, has_more=False, cursor=None, total=1, total_lower_bound=1
        )
    assert stub_tools.envelope(
        "search", returned=1, has_more=False, cursor=None, total_lower_bound=4
    ) == {
        "result_kind": "search",
        "returned": 1,
        "has_more": False,
        "cursor": None,
        "total_lower_bound": 4,
    }
