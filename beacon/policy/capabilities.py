"""The capability map: tiers → capabilities, tool → capability (SPEC §5).

The tool → capability column is the ``capability`` of each row of the one tool
table (``beacon.wire.tools``); ``TOOL_CAPABILITY`` is a read-only view of it for
tests, the matrix and the registry. Catalog scoping (``catalog.py``) and the
dispatch interceptor (``pep.py``) read the rows themselves and define no map of
their own; a drift-lock test keeps it so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from beacon.wire.tools import tool_spec, tool_specs

CAPABILITIES: tuple[str, ...] = ("core", "photo_ai", "analytics", "documents", "progress", "bim")

# Ordered lowest to highest; each tier is listed in full rather than as a
# delta so a reader checks one row against SPEC §5 without adding anything up.
TIER_CAPABILITIES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "essentials": frozenset({"core"}),
        "professional": frozenset({"core", "documents", "progress"}),
        "enterprise": frozenset({"core", "documents", "progress", "analytics", "bim"}),
        "enterprise_ai": frozenset(CAPABILITIES),
    }
)
TIERS: tuple[str, ...] = tuple(TIER_CAPABILITIES)

# Development only: a tier that grants one capability alone. SPEC §5's tiers nest, so
# no real set of them holds photo_ai, analytics, documents, progress or bim by itself,
# and the permission matrix needs a caller who does (6 × 10 × 2 cells, 100 blocked).
# A name reaches ``granted_capabilities`` only from a verified token, and the verifier
# knows these names only on a server with the development switch on
# (``development_tiers``; ``BEACON_SCENARIOS=allow``, off by default): an operator's
# server refuses such a token (401 auth_bad_tiers) and grants what the licences grant.
SINGLE_CAPABILITY_TIERS: Mapping[str, frozenset[str]] = MappingProxyType(
    {f"only:{capability}": frozenset({capability}) for capability in CAPABILITIES}
)


def development_tiers(allowed: bool) -> frozenset[str]:
    """The tier names a verifier accepts beside ``TIERS``: none unless ``allowed``."""
    return frozenset(SINGLE_CAPABILITY_TIERS) if allowed else frozenset()


# The ten upstream tools of SPEC §2.1, as a view of the tool table: a tool without
# a row is hidden and blocked.
TOOL_CAPABILITY: Mapping[str, str] = MappingProxyType(
    {spec.name: spec.capability for spec in tool_specs()}
)
TOOLS: tuple[str, ...] = tuple(TOOL_CAPABILITY)


def granted_capabilities(tiers: Iterable[object]) -> frozenset[str]:
    """The union over the tiers; anything that is not a known tier name grants nothing."""
    granted: set[str] = set()
    for tier in tiers:
        if isinstance(tier, str):
            granted |= TIER_CAPABILITIES.get(tier) or SINGLE_CAPABILITY_TIERS.get(tier, frozenset())
    return frozenset(granted)


def withheld_capability(used: Iterable[str], tiers: Iterable[object]) -> str | None:
    """The first capability a stored turn used that ``tiers`` no longer grant (a
    replay or a transcript is decided again for the token as it stands), or None."""
    granted = granted_capabilities(tiers)
    return next((capability for capability in sorted(used) if capability not in granted), None)


def capability_of(tool: object) -> str | None:
    """The capability a tool requires, or None for a tool outside the table."""
    spec = tool_spec(tool)
    return spec.capability if spec is not None else None


def lowest_tier(capability: str) -> str:
    """The first tier (lowest to highest) that grants ``capability``."""
    return next(t for t, caps in TIER_CAPABILITIES.items() if capability in caps)


@dataclass(frozen=True, slots=True)
class MatrixCell:
    """One cell of the 6 × 10 × 2 matrix: a caller holding exactly ``capability``."""

    id: str
    capability: str
    tool: str
    hint_present: bool
    allowed: bool


def matrix_cells() -> tuple[MatrixCell, ...]:
    """The 120 cells, expected verdicts read from this map (the executed-test check's
    rows: every cell's e2e test must run). The tests restate the expectation themselves."""
    return tuple(
        MatrixCell(
            id=f"{cap}-{tool}-{'hint' if hint else 'nohint'}",
            capability=cap,
            tool=tool,
            hint_present=hint,
            allowed=TOOL_CAPABILITY[tool] == cap,
        )
        for cap in CAPABILITIES
        for tool in TOOLS
        for hint in (False, True)
    )
