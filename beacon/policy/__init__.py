"""Who may call what: the capability map, catalog scoping, the PEP, denial copy, audit rows."""

from beacon.policy.audit import AuditRow, audit_row
from beacon.policy.capabilities import (
    CAPABILITIES,
    TIER_CAPABILITIES,
    TIERS,
    TOOL_CAPABILITY,
    TOOLS,
    MatrixCell,
    capability_of,
    granted_capabilities,
    lowest_tier,
    matrix_cells,
)
from beacon.policy.catalog import scope_catalog, tool_name
from beacon.policy.notices import (
    CAPABILITY_LABELS,
    DENIAL_TEMPLATES,
    LOCALES,
    capability_label,
    denial_notice,
)
from beacon.policy.pep import Decision, DecisionReason, decide, decide_granted

__all__ = [
    "CAPABILITIES",
    "CAPABILITY_LABELS",
    "DENIAL_TEMPLATES",
    "LOCALES",
    "TIERS",
    "TIER_CAPABILITIES",
    "TOOLS",
    "TOOL_CAPABILITY",
    "AuditRow",
    "Decision",
    "DecisionReason",
    "MatrixCell",
    "audit_row",
    "capability_label",
    "capability_of",
    "decide",
    "decide_granted",
    "denial_notice",
    "granted_capabilities",
    "lowest_tier",
    "matrix_cells",
    "scope_catalog",
    "tool_name",
]
