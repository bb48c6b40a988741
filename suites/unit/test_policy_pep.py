"""The PEP decides from verified tiers alone; hints are recorded and change nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from beacon.policy import (
    CAPABILITIES,
    TIER_CAPABILITIES,
    TIERS,
    TOOL_CAPABILITY,
    TOOLS,
    Decision,
    DecisionReason,
    decide,
)


def test_a_granted_call_names_its_capability() -> None:
    assert decide("search_photos", ["enterprise_ai"], capability_hint=None) == Decision(
        True, "search_photos", "photo_ai", DecisionReason.GRANTED, False
    )


def test_a_blocked_call_says_which_capability_was_missing() -> None:
    decision = decide("search_photos", ["essentials"], capability_hint=["photo_ai"])
    assert decision == Decision(
        False, "search_photos", "photo_ai", DecisionReason.CAPABILITY_MISSING, True
    )


def test_an_unknown_tool_is_blocked_even_for_the_highest_tier() -> None:
    decision = decide("drop_tables", TIERS, capability_hint=None)
    assert (decision.allowed, decision.capability, decision.reason) == (
        False,
        None,
        DecisionReason.UNKNOWN_TOOL,
    )


def test_tiers_accumulate() -> None:
    assert decide("get_clash_report", ["essentials", "enterprise"], capability_hint=None).allowed


def test_a_capability_name_passed_as_a_tier_grants_nothing() -> None:
    assert not decide("search_photos", ["photo_ai"], capability_hint=None).allowed


def test_an_empty_hint_is_still_a_hint_that_was_sent() -> None:
    assert decide("list_projects", ["essentials"], capability_hint=[]).hint_present


# Any shape a client (or a bug) could put where a hint or a tier goes.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
names = st.sampled_from([*TIERS, *CAPABILITIES, *TOOLS]) | st.text(max_size=16)
tier_sets = st.lists(st.sampled_from(TIERS) | names, max_size=3)
# Weighted toward the lie that matters: a hint claiming capabilities the tiers lack.
hints = st.one_of(
    st.just(list(CAPABILITIES)),
    st.lists(st.sampled_from(CAPABILITIES), max_size=6),
    st.lists(st.sampled_from(CAPABILITIES) | st.text(max_size=8), max_size=6),
    json_values,
)
tools: st.SearchStrategy[Any] = st.sampled_from(TOOLS) | names | json_values


@given(tool=tools, tiers=tier_sets, hint=hints)
def test_no_generated_call_is_allowed_beyond_the_verified_tiers(
    tool: Any, tiers: list[str], hint: Any
) -> None:
    decision = decide(tool, tiers, capability_hint=hint)
    held = set().union(*(TIER_CAPABILITIES[t] for t in tiers if t in TIER_CAPABILITIES))
    if decision.allowed:
        assert isinstance(tool, str) and tool in TOOL_CAPABILITY
        assert TOOL_CAPABILITY[tool] in held
    if not (isinstance(tool, str) and tool in TOOL_CAPABILITY):
        assert not decision.allowed and decision.reason is DecisionReason.UNKNOWN_TOOL


@given(tool=tools, tiers=tier_sets, hint=hints)
def test_the_hint_never_changes_the_verdict(tool: Any, tiers: list[str], hint: Any) -> None:
    with_hint = decide(tool, tiers, capability_hint=hint)
    without = decide(tool, tiers, capability_hint=None)
    assert (with_hint.allowed, with_hint.reason, with_hint.capability) == (
        without.allowed,
        without.reason,
        without.capability,
    )
    assert with_hint.hint_present is (hint is not None)
