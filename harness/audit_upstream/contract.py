"""The declared upstream contract: the data form of the tool table, as YAML.

``contract_from`` writes what an audit saw (where items and accounting live, the
page cap, whether the cursor pins the query, which arguments apply which axis);
what it cannot know (the capability, the offered axes, citations) stays null or
empty for the operator. ``entry_from_tool_spec`` writes one of Beacon's own
``ToolSpec`` rows in the same form, so the format provably holds the table.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

import boundaries
from beacon.wire.contract import schema_digest
from beacon.wire.tools import AT_HOURS, ToolSpec
from harness.audit_upstream import names
from harness.audit_upstream.audit import AuditReport, ToolAudit
from harness.audit_upstream.classify import Kind
from harness.audit_upstream.findings import Code
from harness.audit_upstream.reading import Field, Reading

SCHEMA_PATH = Path(boundaries.__file__).resolve().parent / "upstream_contract.schema.json"
VERSION = 1
HEADER = (
    "# The declared upstream contract (issue 28), written by `beacon audit-upstream "
    "--contract-out`.\n# Validated by boundaries/upstream_contract.schema.json. A null "
    "capability, and empty\n# offers/cites, are left for the operator to fill. `applies` is "
    "read from argument names:\n# review it, a name can match an axis whose values differ "
    "(a document `kind`, spec/rfi,\n# is not a finding kind).\n"
)


@cache
def schema() -> dict[str, Any]:
    loaded = json.loads(SCHEMA_PATH.read_text())
    assert isinstance(loaded, dict)
    return loaded


def problems(document: Any) -> list[str]:
    """Why ``document`` is not a valid contract (empty: it is)."""
    validator = jsonschema.Draft202012Validator(schema())
    return [
        f"/{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    ]


def _where(found: Field | None) -> str | None:
    return None if found is None else found.path


def _applies(audit: ToolAudit) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for axis, spellings in names.AXIS_ARGS.items():
        matched = [a.name for a in audit.record.plan.arguments if names.in_names(a.name, spellings)]
        if axis == "date":
            hours = [a for a in matched if "time" in names.tokens(a)]
            days = [a for a in matched if a not in hours]
            entries += [{"axis": "date", "arguments": days}] if days else []
            entries += [{"axis": "date", "arguments": hours, "hours": True}] if hours else []
        elif matched:
            entries.append({"axis": axis, "arguments": matched})
    return entries


def _sample(audit: ToolAudit) -> Reading | None:
    """The fullest answered reading: where its items and accounting lived."""
    readings = [c.reading for c in audit.record.calls if c.answered and c.reading is not None]
    return max(readings, key=lambda r: (r.accounted, r.items), default=None)


def _entry(audit: ToolAudit) -> dict[str, Any]:
    plan = audit.record.plan
    sample = _sample(audit)
    codes = [f.code for f in audit.findings]
    counted = audit.kind in (Kind.LIST, Kind.SEARCH)
    label = sample.label if sample is not None else None
    cap = next(
        (f.evidence.get("total") for f in audit.findings if f.code is Code.CAP_SATURATION), None
    )
    pins: bool | None = None
    if Code.CURSOR_UNPINNED in codes:
        pins = False
    elif len(audit.record.walk()) > 1:
        pins = True
    items = None
    if sample is not None:
        items = sample.source.split(" ")[0] if sample.source.startswith("/") else "text"
    text_count = sample.text_count if sample is not None else None
    return {
        "kind": audit.kind.value,
        "reason": audit.reason,
        "capability": None,
        "result_kind": (label or ("search" if audit.kind is Kind.SEARCH else "rows"))
        if counted
        else None,
        "items": items if counted else None,
        "total": _where(sample.total if sample else None)
        or ("text" if text_count is not None else None),
        "total_lower_bound": _where(sample.lower_bound if sample else None),
        "has_more": _where(sample.has_more if sample else None),
        "cursor": _where(sample.next_cursor if sample else None),
        "paging": {
            "size_argument": plan.size_arg.name if plan.size_arg else None,
            "default_size": plan.default_size,
            "max_size": plan.size_arg.maximum if plan.size_arg else None,
            "cursor_argument": plan.cursor_arg.name if plan.cursor_arg else None,
            "offset_argument": plan.offset_arg.name if plan.offset_arg else None,
        },
        "page_cap": cap if isinstance(cap, int) and cap > 0 else None,
        "cursor_pins_query": pins,
        "applies": _applies(audit),
        "offers": [],
        "narrowed_page": None,
        "cites": [],
        "intent": None,
        # Arguments the deployment fixes (a repository path, a database): the operator's.
        "fixed_arguments": dict(audit.fixed),
        "schema_digest": schema_digest(audit.tool),
        "audit": {"findings": [c.value for c in codes], "calls": len(audit.record.calls)},
    }


def contract_from(report: AuditReport) -> dict[str, Any]:
    return {
        "version": VERSION,
        "target": report.target,
        "tools_list_pages": report.tools_list_pages,
        "tools": {audit.name: _entry(audit) for audit in report.tools},
    }


def write_contract(document: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
    return path


def read_contract(path: Path) -> Any:
    return yaml.safe_load(path.read_text())


def entry_from_tool_spec(spec: ToolSpec) -> dict[str, Any]:
    """One ``ToolSpec`` row as a contract entry (what the audit cannot see stays null)."""
    kind = {"search": Kind.SEARCH, "rows": Kind.LIST, None: Kind.LOOKUP}[spec.result_kind]
    return {
        "kind": kind.value,
        "capability": spec.capability,
        "result_kind": spec.result_kind,
        "items": None,
        "total": None,
        "total_lower_bound": None,
        "has_more": None,
        "cursor": None,
        "page_cap": None,
        "cursor_pins_query": None,
        "applies": [
            {
                "axis": a.name,
                "arguments": list(a.arguments),
                **({"hours": True} if a is AT_HOURS else {}),
            }
            for a in spec.applies
        ],
        "offers": [{"axis": a.name, "arguments": list(a.arguments)} for a in spec.filter_axes],
        "narrowed_page": spec.narrowed_page,
        "cites": [{"kind": k.name, "id_prefix": k.id_prefix} for k in spec.cites],
        "intent": spec.intent,
        "noun": spec.noun,
        "relation": spec.relation,
        "role": spec.role,
    }
