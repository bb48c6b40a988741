"""Pins on the PEP package's small edges that its behaviour tests leave loose: the
audit record's columns, the union over tiers, unknown tools and capabilities.
Written for `make mutation` (beacon/policy at the 90 % floor), each a real contract."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from beacon.policy import (
    CAPABILITY_LABELS,
    audit_row,
    capability_label,
    capability_of,
    decide,
    decide_granted,
    denial_notice,
    granted_capabilities,
    tool_name,
)
from beacon.policy.notices import UNAVAILABLE_TEXT

AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_an_audit_record_has_exactly_its_columns() -> None:
    decision = decide("get_clash_report", ["professional"], capability_hint=None)
    record = audit_row(decision, turn_id="t-9", sub="u-9", at=AT).as_record()
    assert record == {
        "turn_id": "t-9",
        "sub": "u-9",
        "tool": "get_clash_report",
        "capability": "bim",
        "allowed": False,
        "reason": "capability_missing",
        "hint_present": False,
        "at": "2026-11-30T12:00:00+00:00",
    }


def test_a_naive_audit_time_is_refused_with_its_reason() -> None:
    decision = decide("list_projects", ["essentials"], capability_hint=None)
    with pytest.raises(ValueError, match=r"^audit time must be timezone-aware$"):
        audit_row(decision, turn_id="t", sub="u", at=datetime(2026, 1, 1))


def test_capabilities_are_the_union_over_every_tier_in_any_order() -> None:
    both = {"core", "documents", "progress"}
    assert granted_capabilities(["professional", "essentials"]) == both
    assert granted_capabilities(["essentials", "professional"]) == both
    assert granted_capabilities(["essentials", "nobody", 7]) == {"core"}
    assert granted_capabilities([]) == frozenset()


@pytest.mark.parametrize("tool", ["no_such_tool", 42, None])
def test_an_unknown_tool_is_named_as_written_and_blocked(tool: object) -> None:
    decision = decide_granted(tool, frozenset({"core", "bim"}), capability_hint=None)  # type: ignore[arg-type]
    assert decision.tool == str(tool) and not decision.allowed
    assert decision.capability is None and decision.reason == "unknown_tool"
    assert capability_of(tool) is None


def test_a_known_tool_names_its_capability() -> None:
    assert capability_of("get_clash_report") == "bim"
    assert capability_of("list_projects") == "core"


def test_a_capability_without_labels_is_shown_as_itself() -> None:
    assert capability_label("telepathy", "de") == "telepathy"
    assert capability_label("bim", "xx") == CAPABILITY_LABELS["bim"]["en"]


@pytest.mark.parametrize("capability", [None, "telepathy"])
def test_a_denial_without_a_known_capability_says_only_unavailable(
    capability: str | None,
) -> None:
    assert denial_notice(capability, "de") == UNAVAILABLE_TEXT["de"]
    assert denial_notice(capability) == UNAVAILABLE_TEXT["en"]


@pytest.mark.parametrize(
    ("tool", "name"),
    [
        ({"name": "list_projects"}, "list_projects"),
        ({"function": {"name": "get_project"}}, "get_project"),
        ({"name": 7}, None),
        ({"function": {"name": None}}, None),
        ({}, None),
    ],
)
def test_a_tool_name_is_a_string_or_nothing(tool: dict[str, object], name: str | None) -> None:
    assert tool_name(tool) == name
