"""The capability tables against SPEC §5, restated here by hand, cell by cell.

The expectations are written out independently of ``capabilities.py``: a test
that derived them from the map would agree with any map.
"""

from __future__ import annotations

import pytest

from beacon.policy import (
    CAPABILITIES,
    TIER_CAPABILITIES,
    TIERS,
    TOOL_CAPABILITY,
    TOOLS,
    decide,
    decide_granted,
    lowest_tier,
    matrix_cells,
)

# SPEC §2.1, the capability column.
SPEC_TOOL_CAPABILITY = {
    "search_photos": "photo_ai",
    "query_data": "analytics",
    "list_projects": "core",
    "get_project": "core",
    "list_levels": "core",
    "get_capture": "core",
    "list_annotations": "core",
    "search_documents": "documents",
    "get_progress_summary": "progress",
    "get_clash_report": "bim",
}

# 4 tiers × 10 tools: Y = allowed, . = blocked; columns in SPEC_TOOL_CAPABILITY order
# (search_photos, query_data, list_projects, get_project, list_levels, get_capture,
# list_annotations, search_documents, get_progress_summary, get_clash_report).
#                      sp qd lp gp ll gc la sd pr cl
VERDICTS = {
    "essentials": "     .  .  Y  Y  Y  Y  Y  .  .  .",
    "professional": "   .  .  Y  Y  Y  Y  Y  Y  Y  .",
    "enterprise": "     .  Y  Y  Y  Y  Y  Y  Y  Y  Y",
    "enterprise_ai": "  Y  Y  Y  Y  Y  Y  Y  Y  Y  Y",
}
TIER_TOOL_ROWS = [
    pytest.param(tier, tool, mark == "Y", id=f"{tier}-{tool}-{'allow' if mark == 'Y' else 'block'}")
    for tier, row in VERDICTS.items()
    for tool, mark in zip(SPEC_TOOL_CAPABILITY, row.split(), strict=True)
]


def test_the_map_covers_exactly_the_ten_tools_of_the_spec() -> None:
    assert dict(TOOL_CAPABILITY) == SPEC_TOOL_CAPABILITY
    assert len(TOOLS) == 10


def test_there_are_six_capabilities_and_four_tiers() -> None:
    assert set(CAPABILITIES) == {"core", "photo_ai", "analytics", "documents", "progress", "bim"}
    assert TIERS == ("essentials", "professional", "enterprise", "enterprise_ai")


def test_each_tier_grants_what_the_spec_says() -> None:
    assert TIER_CAPABILITIES["essentials"] == {"core"}
    assert TIER_CAPABILITIES["professional"] == {"core", "documents", "progress"}
    assert TIER_CAPABILITIES["enterprise"] == TIER_CAPABILITIES["professional"] | {
        "analytics",
        "bim",
    }
    assert TIER_CAPABILITIES["enterprise_ai"] == set(CAPABILITIES)


def test_the_tables_cannot_be_changed_at_run_time() -> None:
    with pytest.raises(TypeError):
        TOOL_CAPABILITY["search_photos"] = "core"  # type: ignore[index]
    with pytest.raises(TypeError):
        TIER_CAPABILITIES["essentials"] = frozenset({"photo_ai"})  # type: ignore[index]


def test_the_tier_table_has_forty_rows() -> None:
    assert len(TIER_TOOL_ROWS) == 40


@pytest.mark.parametrize(("tier", "tool", "allowed"), TIER_TOOL_ROWS)
def test_tier_by_tool(tier: str, tool: str, allowed: bool) -> None:
    assert decide(tool, [tier], capability_hint=None).allowed is allowed


# 6 capabilities × 10 tools × hint absent/present = 120 cells. The caller holds
# exactly one capability; the present hint claims every capability there is,
# the strongest lie a client can tell — the verdict must not move.
MATRIX = [
    pytest.param(
        cap,
        tool,
        hint,
        SPEC_TOOL_CAPABILITY[tool] == cap,
        id=f"{cap}-{tool}-{'hint' if hint else 'nohint'}",
    )
    for cap in ("core", "photo_ai", "analytics", "documents", "progress", "bim")
    for tool in SPEC_TOOL_CAPABILITY
    for hint in (False, True)
]


def test_the_matrix_has_120_cells() -> None:
    assert len(MATRIX) == 120 == len(matrix_cells())


@pytest.mark.parametrize(("capability", "tool", "hint", "allowed"), MATRIX)
def test_capability_by_tool_by_hint(capability: str, tool: str, hint: bool, allowed: bool) -> None:
    claim = list(CAPABILITIES) if hint else None
    decision = decide_granted(tool, frozenset({capability}), capability_hint=claim)
    assert decision.allowed is allowed
    assert decision.hint_present is hint
    assert decision.capability == SPEC_TOOL_CAPABILITY[tool]


def test_the_exported_matrix_agrees_with_the_hand_written_one() -> None:
    exported = {(c.capability, c.tool, c.hint_present, c.allowed, c.id) for c in matrix_cells()}
    assert exported == {(*param.values, param.id) for param in MATRIX}


@pytest.mark.parametrize(
    ("capability", "tier"),
    [
        ("core", "essentials"),
        ("documents", "professional"),
        ("progress", "professional"),
        ("analytics", "enterprise"),
        ("bim", "enterprise"),
        ("photo_ai", "enterprise_ai"),
    ],
)
def test_the_lowest_tier_granting_each_capability(capability: str, tier: str) -> None:
    assert lowest_tier(capability) == tier


def test_a_development_tier_grants_its_one_capability_and_only_behind_the_switch() -> None:
    from beacon.policy.capabilities import development_tiers, granted_capabilities

    assert development_tiers(False) == frozenset()
    assert development_tiers(True) == {
        "only:core",
        "only:photo_ai",
        "only:analytics",
        "only:documents",
        "only:progress",
        "only:bim",
    }
    assert granted_capabilities(["only:bim"]) == {"bim"}
    assert granted_capabilities(["only:photo_ai", "essentials"]) == {"photo_ai", "core"}
    assert granted_capabilities(["only:nothing", 7, None]) == frozenset()
